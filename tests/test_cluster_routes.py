"""Any process of a cluster serves any socket: a WebSocket that reaches a process which
does not own its table is served there (its messages go to the owner, the owner's come
back), and the table never moves for it.

``TIKKI_TEST_POSTGRES`` names the server (see ``tests/test_cluster.py``)."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

from tests._server import pick
from tests.test_cluster import (
    SLACK,
    contiguous,
    held_locks,
    nodes,
    start_game,
    stored_moves,
    ws_url,
)


class Watcher(threading.Thread):
    """A spectator's socket read until its table finishes: every state it saw, and the
    close code if the server closed it first."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        from websockets.sync.client import connect

        self.socket = connect(url).__enter__()
        self.socket.send(json.dumps({"type": "hello"}))
        self.states: list[dict[str, Any]] = []
        self.closed: int | None = None
        self.ended = "still reading"

    def run(self) -> None:
        from websockets.exceptions import ConnectionClosed

        deadline = time.monotonic() + SLACK
        try:
            while time.monotonic() < deadline:
                message = json.loads(self.socket.recv(SLACK))
                if message["type"] == "state":
                    self.states.append(message)
                    if message["status"] == "finished":
                        self.ended = "finished"
                        return
            self.ended = "deadline"
        except ConnectionClosed as closed:
            self.closed = closed.rcvd.code if closed.rcvd is not None else 1006
            self.ended = f"closed {self.closed}"
        except Exception as err:  # said in the test's assertion
            self.ended = f"{type(err).__name__}: {err}"


def play_by_socket(url: str, token: str, db_url: str, tid: str) -> list[dict[str, Any]]:
    """Play seat 0 to the end through one socket; the states it received.  Halfway,
    the table's lock is checked to be still the first process's."""
    from websockets.sync.client import connect

    states: list[dict[str, Any]] = []
    checked = False
    with connect(url) as player:
        player.send(json.dumps({"type": "hello", "token": token}))
        deadline = time.monotonic() + SLACK
        sent = -1
        while time.monotonic() < deadline:
            message = json.loads(player.recv(SLACK))
            assert message["type"] in ("state", "error"), message
            if message["type"] == "error":
                assert message["code"] in ("stale", "not_your_turn"), message
                continue
            states.append(message)
            if message["status"] == "finished":
                return states
            if message["seq"] >= 12 and not checked:
                assert held_locks(db_url, [tid])[tid] == ["tikki a"]
                checked = True
            legal = message["view"]["legal_moves"]
            if legal and message["seq"] > sent:
                sent = message["seq"]
                move = pick(message["view"], sent)
                player.send(json.dumps({"type": "move", "move": move, "seq": sent}))
    raise AssertionError("the game did not end")


def test_sockets_on_a_process_that_does_not_own_the_table(
    tmp_path: Path, postgres_url: str
) -> None:
    """A table owned by process a, its player's socket and a spectator's on process b
    (and another spectator on a): the player's moves through b are applied, the bots
    move, both spectators see the game to its end (every move, no seat's hand), the
    player sees its own hand, and the table never leaves a (its lock stays a's, no 1012,
    no handover or takeover)."""
    log = tmp_path / "cluster.log"
    with nodes(postgres_url, log, ["a", "b"], "--bot-delay", "0.01") as [
        (_pa, http_a),
        (_pb, http_b),
    ]:
        tid, token = start_game(http_a)
        assert held_locks(postgres_url, [tid])[tid] == ["tikki a"]
        watchers = [Watcher(ws_url(http_b, tid)), Watcher(ws_url(http_a, tid))]
        for watcher in watchers:
            watcher.start()
        states = play_by_socket(ws_url(http_b, tid), token, postgres_url, tid)
        for watcher in watchers:
            watcher.join(SLACK)
            watcher.socket.close()
        record = http_a.get(f"/api/tables/{tid}/record").json()
        moves = [m for _s, m in stored_moves(postgres_url, tid)]
    assert record["moves"] == moves and "outcome" in record
    assert sum(1 for s in states if s["view"]["hand"]) > 5  # the player saw its own hand
    assert all(s["seat"] == 0 for s in states)
    for watcher in watchers:
        assert watcher.closed is None, f"the server closed a spectator: {watcher.closed}"
        assert watcher.states and watcher.states[-1]["status"] == "finished"
        assert [h["move"] for h in watcher.states[-1]["view"]["history"]] == moves
        assert all(s["seat"] is None and not s["view"]["hand"] for s in watcher.states)
        seqs = [s["seq"] for s in watcher.states]
        assert seqs == sorted(seqs)
    contiguous(postgres_url)
    text = log.read_text()
    assert "handed table" not in text and "took over table" not in text, text[-3000:]
    assert "Traceback" not in text


def test_a_relayed_socket_whose_owner_dies_connects_again_and_plays_on(
    tmp_path: Path, postgres_url: str
) -> None:
    """``kill -9`` of the owner under a spectator relayed by b: b closes the spectator
    with 1012 (connect again), and the spectator connected again to b sees the table
    play on there (b claimed it: nobody held it)."""
    import signal

    from tests.test_cluster import BOTS, wait_for

    log = tmp_path / "cluster.log"
    with nodes(postgres_url, log, ["a", "b"], "--bot-delay", "0.05") as [
        (proc_a, http_a),
        (_pb, http_b),
    ]:
        r = http_a.post("/api/tables", json={**BOTS, "seed": 77})
        assert r.status_code == 201, r.text
        tid = r.json()["table"]["id"]
        watcher = Watcher(ws_url(http_b, tid))
        watcher.start()
        # The relay is open once a state came through it (a kill while b still opens its
        # socket to a is another case: b finds nobody holds the table, takes it over and
        # serves the spectator itself, without a 1012).
        wait_for(lambda: watcher.states, "the spectator's first state")
        assert held_locks(postgres_url, [tid])[tid] == ["tikki a"]
        wait_for(lambda: len(stored_moves(postgres_url, tid)) >= 3, "the bots to move")
        proc_a.send_signal(signal.SIGKILL)
        proc_a.wait(10)
        watcher.join(SLACK)
        ended, seqs = watcher.ended, [s["seq"] for s in watcher.states]
        watcher.socket.close()
        assert watcher.closed == 1012, (ended, seqs, log.read_text()[-3000:])
        again = Watcher(ws_url(http_b, tid))
        again.start()
        again.join(SLACK)
        again.socket.close()
        assert again.closed is None
        assert again.states and again.states[-1]["status"] == "finished"
        moves = [m for _s, m in stored_moves(postgres_url, tid)]
        assert [h["move"] for h in again.states[-1]["view"]["history"]] == moves
    contiguous(postgres_url)
    assert "Traceback" not in log.read_text()


def test_a_forged_relay_header_is_not_trusted(tmp_path: Path) -> None:
    """A client that sends the relay's headers with a secret that is not the process's
    own is counted by its own address; a cluster process trusts its own secret only."""
    from tests._server import app_state, client, create
    from tikki.server.cluster import ClusterOwnership
    from tikki.server.relay import CLIENT, SECRET

    owner = ClusterOwnership("postgresql://tikki@127.0.0.1/tikki", "a")
    assert owner.relayed(owner.secret)
    assert not owner.relayed("x" + owner.secret) and not owner.relayed(None)
    with client(tmp_path) as c:
        table = create(c)["table"]
        headers = {SECRET: owner.secret, CLIENT: "203.0.113.9"}
        with c.websocket_connect(f"/ws/tables/{table['id']}", headers=headers) as ws:
            ws.send_text(json.dumps({"type": "hello"}))
            assert ws.receive_json()["type"] == "state"
            assert set(app_state(c).throttles.sockets) == {"testclient"}
