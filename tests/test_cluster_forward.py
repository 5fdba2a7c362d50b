"""Any process of a cluster serves any HTTP request: a request for a table another
process owns (state, move, join, keep, resign, rematch...) is forwarded to the owner and
answered as the owner answered; the table never moves for it.  Tables move only when
their owner dies, drains or is told to rebalance.

``TIKKI_TEST_POSTGRES`` names the server (see ``tests/test_cluster.py``)."""

from __future__ import annotations

import signal
from pathlib import Path

from tests._server import auth
from tests.test_cluster import (
    GAME,
    contiguous,
    held_locks,
    nodes,
    play_moves,
    stored_moves,
)


def test_http_requests_at_a_process_that_does_not_own_the_table(
    tmp_path: Path, postgres_url: str
) -> None:
    """A table made through process a, joined, read and played through b: every request
    is answered (b forwards it to a), the moves are applied, the table stays a's (its
    lock, no takeover, no handover in either log); when a dies, b takes it over at the
    next request (nobody holds it) and the game plays on there."""
    log = tmp_path / "cluster.log"
    with nodes(postgres_url, log, ["a", "b"], "--bot-delay", "0") as [
        (proc_a, http_a),
        (_pb, http_b),
    ]:
        r = http_a.post("/api/tables", json=GAME)
        assert r.status_code == 201, r.text
        tid = r.json()["table"]["id"]
        invite = r.json()["invites"][0]["url"].split("#invite=")[1]
        assert held_locks(postgres_url, [tid])[tid] == ["tikki a"]
        r = http_b.post(f"/api/tables/{tid}/seats/0", json={"name": "Anna", "invite": invite})
        assert r.status_code == 200, r.text
        token = r.json()["token"]
        assert http_b.get(f"/api/tables/{tid}").json()["id"] == tid
        seq = play_moves(http_b, tid, token, 4)
        r = http_b.post(f"/api/tables/{tid}/back", headers=auth(token))
        assert r.status_code in (200, 409), r.text
        assert held_locks(postgres_url, [tid])[tid] == ["tikki a"]
        assert len(stored_moves(postgres_url, tid)) >= seq  # (and the bots' since)
        seq = http_b.get(f"/api/tables/{tid}/state", headers=auth(token)).json()["seq"]
        r = http_b.post(f"/api/tables/{tid}/moves", json={"move": "nonsense", "seq": seq},
                        headers=auth(token))  # fmt: skip
        assert r.status_code in (400, 409), r.text  # the owner's refusal, word for word
        assert r.json()["detail"]["code"] in ("illegal_move", "not_your_turn", "stale")
        text = log.read_text()
        assert "handed table" not in text and "took over table" not in text, text[-3000:]
        proc_a.send_signal(signal.SIGKILL)
        proc_a.wait(10)
        play_moves(http_b, tid, token, None)
        assert held_locks(postgres_url, [tid])[tid] in ([], ["tikki b"])
        record = http_b.get(f"/api/tables/{tid}/record").json()
    assert "outcome" in record
    assert record["moves"] == [m for _s, m in stored_moves(postgres_url, tid)]
    contiguous(postgres_url)
    assert "Traceback" not in log.read_text()
