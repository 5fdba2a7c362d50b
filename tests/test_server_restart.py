"""Kill the server mid-game (SIGKILL), start it again on the same database: the game goes
on exactly as it would have without the restart.  On SQLite and on PostgreSQL.

A real ``tikki serve --port 0`` process plays a human seat over HTTP (moves chosen by an
RNG seeded from the seq) against two bots (one a searching bot, whose randomness comes from
the table seed, seat and seq).  The same game played in-process without a restart gives
the reference record.

PostgreSQL: ``TIKKI_TEST_POSTGRES`` names a server (``.ci/services.sh`` prints one); each
test works in a schema of its own, dropped at the end.  Without it the PostgreSQL test is
skipped, except under ``CI=true``, where it fails.
"""

from __future__ import annotations

import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests._server import auth, client, pick
from tikki.server.quota import Policy

GAME = {
    "game": "mattis",
    "players": 3,
    "seed": 2**127 + 424_242,  # a 128-bit seed: stored and read back exactly
    "seats": [
        {"kind": "open"},
        {"kind": "bot", "bot": "ismcts:iterations=20"},
        {"kind": "bot", "bot": "heuristic"},
    ],
}
KILL_AT = 60


@contextmanager
def server(db_url: str, log: Path) -> Iterator[tuple[subprocess.Popen[str], httpx.Client]]:
    """A ``tikki serve --port 0`` process on ``db_url`` and an HTTP client for it."""
    command = [sys.executable, "-m", "tikki.cli", "serve", "--port", "0", "--bot-delay", "0"]
    command += ["--allow-client-seeds", "--allow-bot-specs"]  # the test replays a known deal
    with log.open("a") as errors:
        proc = subprocess.Popen(
            [*command, "--db", db_url], stdout=subprocess.PIPE, stderr=errors, text=True
        )
    assert proc.stdout is not None
    try:
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        assert ready and proc.stdout is not None, f"the server did not start: {log.read_text()}"
        line = proc.stdout.readline()
        assert line.startswith("tikki web table: http://127.0.0.1:"), line + log.read_text()
        with httpx.Client(base_url=line.split(": ", 1)[1].strip(), timeout=30) as http:
            yield proc, http
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
        if proc.stdout is not None:
            proc.stdout.close()


def play(http: Any, tid: str, token: str, until: int | None = None) -> int:
    """Play seat 0 until the game is over (or the table reaches seq ``until``)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        mine = http.get(f"/api/tables/{tid}/state", headers=auth(token)).json()
        seq = mine["seq"]
        if mine["status"] == "finished" or (until is not None and seq >= until):
            return int(seq)
        if not mine["view"]["legal_moves"]:
            time.sleep(0.002)
            continue
        body = {"move": pick(mine["view"], seq), "seq": seq}
        r = http.post(f"/api/tables/{tid}/moves", json=body, headers=auth(token))
        assert r.status_code == 200, r.text
    raise AssertionError("the game did not end within 120 s")


def start_game(http: Any) -> tuple[str, str]:
    r = http.post("/api/tables", json=GAME)
    assert r.status_code == 201, r.text
    tid = r.json()["table"]["id"]
    invite = r.json()["invites"][0]["url"].split("#invite=")[1]
    r = http.post(f"/api/tables/{tid}/seats/0", json={"name": "Anna", "invite": invite})
    assert r.status_code == 200, r.text
    return tid, r.json()["token"]


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The record of the game played without a restart."""
    policy = Policy(allow_bot_specs=True)
    with client(tmp_path_factory.mktemp("reference"), client_seeds=True, policy=policy) as c:
        tid, token = start_game(c)
        play(c, tid, token)
        record: dict[str, Any] = c.get(f"/api/tables/{tid}/record").json()
    assert "outcome" in record and len(record["moves"]) > KILL_AT + 30
    return record


def check_restart(db_url: str, log: Path, reference: dict[str, Any]) -> None:
    with server(db_url, log) as (proc, http):
        tid, token = start_game(http)
        made = http.post("/api/tables", json={**GAME, "seed": 1}).json()
        waiting, waiting_invite = made["table"]["id"], made["invites"][0]["url"].split("=")[-1]
        seen = play(http, tid, token, until=KILL_AT)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    with server(db_url, log) as (proc, http):
        table = http.get(f"/api/tables/{tid}").json()
        assert table["status"] == "playing" and table["seq"] >= seen
        assert http.get(f"/api/tables/{waiting}").json()["status"] == "waiting"
        ben = {"name": "Ben", "invite": waiting_invite}
        assert http.post(f"/api/tables/{waiting}/seats/0", json=ben).status_code == 200
        play(http, tid, token)
        record = http.get(f"/api/tables/{tid}/record").json()
        proc.send_signal(signal.SIGINT)  # Ctrl-C: a clean exit, status 0
        assert proc.wait(20) == 0, log.read_text()
    assert record == reference and record["seed"] == GAME["seed"]
    assert "Traceback" not in log.read_text()


def test_restart_on_sqlite(tmp_path: Path, reference: dict[str, Any]) -> None:
    check_restart(f"sqlite:///{tmp_path / 'web.sqlite'}", tmp_path / "server.log", reference)


def test_restart_on_postgresql(
    tmp_path: Path, postgres_url: str, reference: dict[str, Any]
) -> None:
    check_restart(postgres_url, tmp_path / "server.log", reference)


def test_a_waiting_chat_reader_is_answered_when_the_server_stops(tmp_path: Path) -> None:
    """SIGTERM: a chat long poll in flight gets its (empty) answer at once, not a 500 when
    the server's grace ends."""
    answers: list[Any] = []
    with server(f"sqlite:///{tmp_path / 'web.sqlite'}", tmp_path / "log.txt") as (proc, http):
        seats = [{"kind": "open"}, {"kind": "open"}]
        tid = http.post("/api/tables", json={"game": "myllymatti", "seats": seats}).json()
        url = f"/api/tables/{tid['table']['id']}/chat?after=0&wait=true"

        def poll() -> None:
            try:
                answers.append(http.get(url))
            except httpx.HTTPError as err:
                answers.append(err)

        reader = threading.Thread(target=poll)
        reader.start()
        time.sleep(1.0)  # the poll is waiting for a message
        proc.send_signal(signal.SIGTERM)
        reader.join(60)
        assert proc.wait(60) == 0
    assert len(answers) == 1 and not isinstance(answers[0], Exception), answers
    assert answers[0].status_code == 200, answers[0].text
    assert answers[0].json()["messages"] == []
