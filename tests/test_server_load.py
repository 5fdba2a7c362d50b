"""Anonymous load and slow clients: bot levels, fair bot
turns, searches that stop, rate limits, caps, expiry of waiting tables, bounded queues."""

from __future__ import annotations

import asyncio
import select
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.websockets import WebSocketDisconnect

import tikki
from tests._server import (
    TestClient,
    app_state,
    auth,
    client,
    create,
    error_of,
    join,
    pick,
    socket,
    state,
)
from tikki import bots as botlib
from tikki.bots.ismcts import CHECK_EVERY, ISMCTSBot
from tikki.server.outbox import Outbox, write
from tikki.server.pool import FairSlots
from tikki.server.quota import Policy, RateLimiter
from tikki.server.ws import SYNC_BURST

CUSTOM = [{"kind": "open"}, {"kind": "bot", "bot": "ismcts:iterations=5000:horizon=game"}]


# --- bot levels ---------------------------------------------------------------------------


def test_the_server_offers_its_named_levels_only(c: TestClient) -> None:
    status, code, message = error_of(
        c.post("/api/tables", json={"game": "mattis", "seats": CUSTOM})
    )
    assert (status, code) == (400, "bad_bot")
    assert "--allow-bot-specs" in message and "ismcts:iterations=1000 (Hard)" in message
    assert c.get("/api/tables?status=all").json()["tables"] == []
    levels = [b["spec"] for b in c.get("/api/games").json()["bots"]]
    assert "learned" in levels
    for spec in levels:  # three players: every level plays Mattis there, Learned too
        seats = [{"kind": "open"}, {"kind": "bot", "bot": spec}, {"kind": "bot", "bot": "random"}]
        assert create(c, "mattis", seats)["table"]["seats"][1]["bot"] == spec


def test_allow_bot_specs_accepts_other_specs_within_the_budget(tmp_path: Path) -> None:
    with client(tmp_path, policy=Policy(allow_bot_specs=True)) as c:
        table = create(c, "mattis", CUSTOM)["table"]
        assert table["seats"][1]["bot"] == CUSTOM[1]["bot"]
        too_big = [{"kind": "open"}, {"kind": "bot", "bot": "ismcts:iterations=5001"}]
        body = {"game": "mattis", "seats": too_big}
        assert error_of(c.post("/api/tables", json=body))[:2] == (400, "bad_bot")


def test_serve_has_the_allow_bot_specs_option() -> None:
    from typer.testing import CliRunner

    from tikki.cli import app

    result = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"})
    for option in ("--allow-bot-specs", "--create-rate", "--max-tables", "--waiting-expiry"):
        assert option in result.output
    bad = CliRunner().invoke(app, ["serve", "--port", "0", "--max-tables", "0"])
    assert bad.exit_code == 2 and "--max-tables is a number > 0" in " ".join(bad.output.split())


# --- searches stop ------------------------------------------------------------------------


def test_a_search_stops_when_its_halt_says_so() -> None:
    game = tikki.load("mattis", 3)
    state = game.new_state(seed=3)
    view = state.view(state.current_player)
    bot = botlib.make("ismcts:iterations=5000:stop=0", seed=1)
    assert isinstance(bot, ISMCTSBot)
    calls: list[int] = []

    def halt() -> bool:
        calls.append(1)
        return len(calls) >= 2

    bot.halt = halt
    assert bot.choose(game, view) in view["legal_moves"]
    assert bot.last_iterations == 2 * CHECK_EVERY


def test_sigterm_ends_a_server_in_the_middle_of_a_search_within_5_s(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'web.sqlite'}"
    command = [sys.executable, "-m", "tikki.cli", "serve", "--port", "0", "--bot-delay", "0"]
    command += ["--allow-bot-specs", "--db", db]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    try:
        ready, _, _ = select.select([proc.stdout], [], [], 60)
        assert ready and proc.stdout is not None, "the server did not start"
        url = proc.stdout.readline().split(": ", 1)[1].strip()
        spec = "ismcts:iterations=5000:horizon=game:stop=0"  # about 40 s a move
        seats = [{"kind": "bot", "bot": spec}] * 4
        body = {"game": "mueckenstich", "seats": seats}
        assert httpx.post(f"{url}api/tables", json=body, timeout=30).status_code == 201
        time.sleep(3)  # the worker starts and is deep in its first search
        assert proc.poll() is None
        started = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
        took = time.monotonic() - started
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert took < 5, f"SIGTERM took {took:.1f} s"


# --- fair turns ---------------------------------------------------------------------------


def test_bot_turns_are_granted_round_robin_across_clients_then_tables() -> None:
    async def scenario() -> list[str]:
        slots = FairSlots(1)
        order: list[str] = []
        gate = asyncio.Event()

        async def job(group: str, key: str, name: str, hold: bool = False) -> None:
            async with slots.slot(group, key):
                order.append(name)
                if hold:
                    await gate.wait()

        first = asyncio.create_task(job("a", "t1", "a1-first", hold=True))
        await asyncio.sleep(0)
        waiting = [
            ("a", "t1", "a1-second"),
            ("a", "t2", "a2"),
            ("a", "t3", "a3"),
            ("b", "t4", "b4"),
            ("c", "t5", "c5"),
            ("a", "t1", "a1-third"),
        ]
        tasks = []
        for group, key, name in waiting:
            tasks.append(asyncio.create_task(job(group, key, name)))
            await asyncio.sleep(0)
        assert slots.waiting == len(waiting)
        gate.set()
        await asyncio.gather(first, *tasks)
        assert slots.busy == 0 and slots.waiting == 0
        return order

    order = asyncio.run(scenario())
    # clients a, b, c take turns; within a, tables t1, t2, t3 take turns
    assert order == ["a1-first", "a1-second", "b4", "c5", "a2", "a3", "a1-third"]


def test_a_waiter_that_gives_up_passes_its_turn_on() -> None:
    async def scenario() -> list[str]:
        slots = FairSlots(1)
        order: list[str] = []
        gate = asyncio.Event()

        async def job(name: str, hold: bool = False) -> None:
            async with slots.slot(name, name):
                order.append(name)
                if hold:
                    await gate.wait()

        first = asyncio.create_task(job("x", hold=True))
        await asyncio.sleep(0)
        quitter = asyncio.create_task(job("y"))
        last = asyncio.create_task(job("z"))
        await asyncio.sleep(0)
        quitter.cancel()
        gate.set()
        await asyncio.gather(first, last)
        assert slots.busy == 0
        return order

    assert asyncio.run(scenario()) == ["x", "z"]


def test_a_busy_client_leaves_a_slot_for_another_client() -> None:
    """A client whose searches fill the pool must not make another
    client's bot wait for one of them to end: one slot stays free for other groups."""

    async def scenario() -> tuple[list[str], int]:
        slots = FairSlots(2)
        order: list[str] = []
        gate = asyncio.Event()

        async def job(group: str, key: str, name: str) -> None:
            async with slots.slot(group, key):
                order.append(name)
                await gate.wait()

        busy = [asyncio.create_task(job("abuser", f"t{i}", f"abuser{i}")) for i in range(5)]
        await asyncio.sleep(0)
        quiet = asyncio.create_task(job("quiet", "q", "quiet"))
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        started = list(order)
        gate.set()
        await asyncio.gather(quiet, *busy)
        return started, slots.busy

    started, busy = asyncio.run(scenario())
    assert started == ["abuser0", "quiet"]
    assert busy == 0


def test_per_group_cap_is_checked() -> None:
    with pytest.raises(ValueError, match="per_group is 1 to 2"):
        FairSlots(2, per_group=3)
    assert FairSlots(1).per_group == 1 and FairSlots(4).per_group == 3


# --- rate limits and caps -----------------------------------------------------------------


def test_rate_limiter_refills_with_an_injected_clock() -> None:
    now = [0.0]
    limiter = RateLimiter(6, clock=lambda: now[0])  # 6 a minute: one every 10 s
    assert [limiter.take("a") for _ in range(6)] == [0.0] * 6
    assert limiter.take("a") == pytest.approx(10.0)
    assert limiter.take("b") == 0.0
    now[0] = 10.0
    assert limiter.take("a") == 0.0


def test_creating_tables_too_fast_is_429_with_retry_after(tmp_path: Path) -> None:
    with client(tmp_path, policy=Policy(create_per_minute=3)) as c:
        for _ in range(3):
            create(c)
        r = c.post("/api/tables", json={"game": "myllymatti", "seats": [{"kind": "open"}] * 2})
        status, code, message = error_of(r)
        assert (status, code) == (429, "rate_limited")
        assert "3 tables a minute" in message
        assert int(r.headers["Retry-After"]) == 20
        assert len(c.get("/api/tables").json()["tables"]) == 3


def test_taking_seats_too_fast_is_429_with_retry_after(tmp_path: Path) -> None:
    with client(tmp_path, policy=Policy(join_per_minute=2)) as c:
        tables = [create(c)["table"]["id"] for _ in range(2)]
        join(c, tables[0], 0)
        join(c, tables[0], 1)
        r = c.post(f"/api/tables/{tables[1]}/seats/0", json={"name": "Cy"})
        assert error_of(r)[:2] == (429, "rate_limited")
        assert int(r.headers["Retry-After"]) == 30
        assert c.get(f"/api/tables/{tables[1]}").json()["seats"][0]["kind"] == "open"


@pytest.mark.parametrize(
    ("policy", "words"),
    [
        (Policy(tables_per_address=2), "live tables, the limit per address"),
        (Policy(max_tables=2), "live tables, its limit"),
    ],
)
def test_live_tables_are_capped(tmp_path: Path, policy: Policy, words: str) -> None:
    with client(tmp_path, policy=policy) as c:
        create(c)
        create(c)
        r = c.post("/api/tables", json={"game": "myllymatti", "seats": [{"kind": "open"}] * 2})
        status, code, message = error_of(r)
        assert (status, code) == (429, "rate_limited") and words in message
        assert int(r.headers["Retry-After"]) > 0


def test_the_429_answer_is_documented(c: TestClient) -> None:
    responses = c.get("/openapi.json").json()["paths"]["/api/tables"]["post"]["responses"]
    assert "429" in responses


# --- waiting tables expire ----------------------------------------------------------------


def person_moves(c: TestClient, tid: str, token: str, seat: int) -> None:
    """The person at ``seat`` makes one legal move (after the bot's, if the bot is first)."""
    for _ in range(200):
        message = state(c, tid, token)
        if message["view"]["to_act"] == seat:
            break
    else:
        raise AssertionError(f"seat {seat} of {tid} never got the turn: {message['table']}")
    body = {"move": pick(message["view"], 0), "seq": message["table"]["seq"]}
    r = c.post(f"/api/tables/{tid}/moves", json=body, headers=auth(token))
    assert r.status_code == 200, r.text


def test_waiting_tables_expire_and_leave_the_lobby(tmp_path: Path) -> None:
    """A table nobody played at expires --waiting-expiry after its creation or start,
    however many joined it; a person's move gives the long expiry."""
    with client(tmp_path, policy=Policy(waiting_expiry=3600)) as c:
        manager: Any = app_state(c).manager
        old = create(c)["table"]["id"]
        full = create(c)["table"]["id"]  # both seats joined, nobody moved
        join(c, full, 0)
        join(c, full, 1, "Ben")
        seats = [{"kind": "open"}, {"kind": "bot", "bot": "random"}]
        playing = create(c, seats=seats)["table"]["id"]
        person_moves(c, playing, join(c, playing, 0), 0)
        real = manager.clock
        manager.clock = lambda: real() + timedelta(minutes=59)
        assert [t["id"] for t in c.get("/api/tables").json()["tables"]] == [old]
        assert c.get(f"/api/tables/{full}").status_code == 200
        manager.clock = lambda: real() + timedelta(minutes=61)
        assert c.get("/api/tables").json()["tables"] == []
        assert error_of(c.get(f"/api/tables/{old}"))[:2] == (404, "unknown_table")
        assert error_of(c.post(f"/api/tables/{old}/seats/0", json={"name": "A"}))[0] == 404
        assert error_of(c.get(f"/api/tables/{full}"))[:2] == (404, "unknown_table")
        assert c.get(f"/api/tables/{playing}").status_code == 200
    with client(tmp_path) as c:  # gone from the database too
        assert error_of(c.get(f"/api/tables/{old}"))[:2] == (404, "unknown_table")


def test_expiry_is_configurable(tmp_path: Path) -> None:
    assert Policy().waiting_expiry == 600  # minutes unless joined
    with pytest.raises(ValueError, match="--waiting-expiry"):
        Policy(waiting_expiry=0)


# --- slow clients -------------------------------------------------------------------------


def test_a_lagging_connection_holds_only_the_newest_state() -> None:
    async def scenario() -> tuple[list[str | None], int]:
        box = Outbox()
        box.push("state 1", state=True)
        box.push("error a")
        for n in range(2, 1000):
            box.push(f"state {n}", state=True)
        box.push("pong")
        held = len(box)
        box.close(1001)
        return [await box.next() for _ in range(4)], held

    sent, held = asyncio.run(scenario())
    assert held == 3  # one state, the error, the pong
    assert sent == ["state 999", "error a", "pong", None]


def test_an_outbox_over_its_bytes_closes_at_once_with_1008() -> None:
    async def scenario() -> tuple[int | None, str | None, int]:
        box = Outbox(limit=100)
        box.push("s" * 500, state=True)  # the newest state does not count against it
        for _ in range(10):
            box.push("e" * 10)
        assert box.close_code is None and box.size == 100
        box.push("e")
        return box.close_code, await box.next(), box.size

    assert asyncio.run(scenario()) == (1008, None, 0)


class StuckSocket:
    """A WebSocket whose peer never reads: every send waits for ever."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closes: list[int] = []

    async def send_text(self, data: str) -> None:
        self.sent.append(data)
        await asyncio.Event().wait()

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closes.append(code)
        await asyncio.Event().wait()


def test_a_send_past_its_deadline_drops_the_connection_at_the_transport() -> None:
    async def scenario() -> tuple[StuckSocket, list[str], int | None]:
        socket, box, aborted = StuckSocket(), Outbox(), []
        box.push("state", state=True)
        box.push("more")
        await write(socket, box, lambda: aborted.append("abort"), timeout=0.01)
        return socket, aborted, box.close_code

    socket, aborted, code = asyncio.run(scenario())
    assert socket.sent == ["state"] and socket.closes == [1008]
    assert aborted == ["abort"] and code == 1008


def test_sync_is_rate_limited_per_connection(tmp_path: Path) -> None:
    policy = Policy(sync_per_minute=0.001)  # no refill during the test: the burst only
    with client(tmp_path, policy=policy) as c:
        tid = create(c)["table"]["id"]
        with socket(c, tid) as ws:
            assert ws.receive_json()["type"] == "state"
            for _ in range(SYNC_BURST):
                ws.send_json({"type": "sync"})
                assert ws.receive_json()["type"] == "state"
            ws.send_json({"type": "sync"})
            error = ws.receive_json()
            assert error["type"] == "error" and error["code"] == "rate_limited"
            assert "sync at most" in error["message"]
            ws.send_json({"type": "ping"})
            assert ws.receive_json() == {"type": "pong"}
            for _ in range(SYNC_BURST - 1):
                ws.send_json({"type": "sync"})
                assert ws.receive_json()["code"] == "rate_limited"
            ws.send_json({"type": "sync"})  # one refusal too many: dropped
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1008


def test_a_search_worker_plays_under_the_table_s_own_rules_revision() -> None:
    """A table stored under r1 keeps r1 in its searching bots (the worker rebuilds the
    game from its key, which must carry the revision)."""
    from tikki.server.pool import _game, game_key

    old = tikki.load("mattis", 3, rules="r1")
    assert _game(*game_key(old)).rules == "r1"
    assert _game(*game_key(tikki.load("mattis", 3))).rules == "r2"
