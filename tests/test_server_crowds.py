"""The web table holds against crowds of clients.

People's bots first (the pool's reserved share, the crowd's queue and its places), caps
that cannot be hogged (exact under concurrency, bot-only tables, rematches, waiting
tables that expire unless kept open), per-address keys (IPv6 /64, trusted proxies),
rate limits on WebSocket connects, hints and reads, caps on watchers, bounded
connections (uvicorn's settings and the guard), and seat custody (presence by HTTP,
revoked device links, the number of devices).
"""

from __future__ import annotations

import asyncio
import socket as sockets
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.websockets import WebSocketDisconnect

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
from tikki.server import create_app
from tikki.server.guard import AcceptErrors, Limits, Throttled
from tikki.server.pool import BotPool
from tikki.server.quota import Policy, client_key
from tikki.server.run import bind, config
from tikki.server.tables import REVOKED, NewTable, TableManager

TWO_OPEN = [{"kind": "open"}, {"kind": "open"}]
BOTS = [{"kind": "bot", "bot": "random"}] * 2
HARD_BOT = "ismcts:iterations=1000"


@contextmanager
def from_address(c: TestClient, host: str) -> Iterator[TestClient]:
    """The test client's requests come from ``host`` for the body (the same server)."""
    transport: Any = c._transport
    before = transport.client
    transport.client = (host, 4000)
    try:
        yield c
    finally:
        transport.client = before


def later(c: TestClient, seconds: float) -> None:
    """Move the manager's clock ``seconds`` on (on top of any earlier move)."""
    manager = app_state(c).manager
    real = manager.clock
    manager.clock = lambda: real() + timedelta(seconds=seconds)


# --- people first ---------------------------------------------------------------------------


def test_a_crowd_never_takes_the_peoples_reserved_share() -> None:
    """Twenty addresses' bot-only searches and analyses hold only the crowd's share: a
    person's search starts at once, and people's waiters go before the crowd's."""

    async def scenario() -> tuple[list[str], int | None, int | None]:
        pool = BotPool(2)
        assert (pool.size, pool.reserved, pool.crowd_size) == (2, 1, 1)
        gate = asyncio.Event()
        order: list[str] = []

        async def search(group: str, key: str, people: bool) -> None:
            async with pool.slot(group, key, people):
                order.append(key)
                await gate.wait()

        crowd = [asyncio.create_task(search(f"10.0.0.{i}", f"bots{i}", False)) for i in range(20)]
        crowd.append(asyncio.create_task(search("analysis:10.0.1.1", "job", False)))
        for _ in range(3):
            await asyncio.sleep(0)
        assert order == ["bots0"]  # the crowd holds its one slot, the rest queue
        person = asyncio.create_task(search("192.168.1.5", "people", True))
        await asyncio.sleep(0)
        assert order == ["bots0", "people"]  # at once, whatever the crowd's queue
        places = pool.place("10.0.0.1", "bots1"), pool.place("analysis:10.0.1.1", "job")
        gate.set()
        await asyncio.gather(person, *crowd)
        return order, *places

    order, first, job = asyncio.run(scenario())
    assert sorted(order) == sorted(["people", "job", *(f"bots{i}" for i in range(20))])
    assert first == 1 and job == 20  # round-robin by address: the job's address is last


def test_peoples_waiters_go_before_the_crowds() -> None:
    async def scenario() -> list[str]:
        pool = BotPool(1)  # one worker: a slot for people, one for the crowd
        assert pool.size == 2
        gates = {name: asyncio.Event() for name in ("p1", "c1", "p2", "c2", "p3")}
        order: list[str] = []

        async def search(name: str, people: bool) -> None:
            async with pool.slot(name, name, people):
                order.append(name)
                await gates[name].wait()

        tasks = [asyncio.create_task(search("p1", True))]
        tasks.append(asyncio.create_task(search("c1", False)))
        await asyncio.sleep(0)
        tasks.append(asyncio.create_task(search("c2", False)))
        tasks.append(asyncio.create_task(search("p2", True)))
        tasks.append(asyncio.create_task(search("p3", True)))
        await asyncio.sleep(0)
        gates["c1"].set()  # a slot frees: a waiting person's search takes it, not c2
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        gates["p1"].set()  # another frees: p3, still before the crowd
        for _ in range(4):
            await asyncio.sleep(0)
        for gate in gates.values():
            gate.set()
        await asyncio.gather(*tasks)
        return order

    assert asyncio.run(scenario()) == ["p1", "c1", "p2", "p3", "c2"]


def test_bot_only_tables_and_analyses_have_global_caps(tmp_path: Path) -> None:
    policy = Policy(max_bot_tables=2, max_analyses=3)
    assert Policy().max_bot_tables == 200 and Policy().max_analyses == 16
    with pytest.raises(ValueError, match="--max-bot-tables"):
        Policy(max_bot_tables=0)
    with client(tmp_path, policy=policy, bot_delay=30) as c:
        create(c, seats=BOTS)
        create(c, seats=BOTS)
        r = c.post("/api/tables", json={"game": "myllymatti", "seats": BOTS})
        status, code, message = error_of(r)
        assert (status, code) == (429, "rate_limited") and "only bots play" in message
        create(c, seats=TWO_OPEN)  # people's tables are not bot-only ones
        assert app_state(c).analyses.most == 3


# --- caps that cannot be hogged -------------------------------------------------------------


def test_the_global_cap_is_exact_under_concurrency(tmp_path: Path) -> None:
    async def scenario() -> tuple[int, int]:
        from tikki.server.db import Store

        manager = TableManager(
            Store(f"sqlite:///{tmp_path / 'cap.sqlite'}"), 0, policy=Policy(max_tables=7)
        )
        await manager.start()
        try:
            wanted = NewTable(
                game="myllymatti",
                players=None,
                variant=None,
                options={},
                seats=[("open", None), ("open", None)],
                seed=None,
            )
            results = await asyncio.gather(
                *(manager.create(wanted, f"10.1.0.{i}") for i in range(40)),
                return_exceptions=True,
            )
            made = sum(1 for r in results if not isinstance(r, BaseException))
            return made, len(manager.tables)
        finally:
            await manager.stop()

    assert asyncio.run(scenario()) == (7, 7)


def test_waiting_tables_expire_in_minutes_unless_kept_open(tmp_path: Path) -> None:
    assert Policy().waiting_expiry == 600 and Policy().joined_expiry == 24 * 3600
    with client(tmp_path, policy=Policy(waiting_expiry=600)) as c:
        lone = create(c)["table"]["id"]
        join(c, lone, 0)  # the creator sits: still nobody else
        kept = create(c)["table"]["id"]
        keeper = join(c, kept, 0)
        other = create(c)["table"]["id"]
        join(c, other, 0)
        with from_address(c, "203.0.113.9"):  # someone else joins
            join(c, other, 1, "Guest")
        three = [
            {"kind": "open"},
            {"kind": "open"},
            {"kind": "open"},
        ]
        assert c.get(f"/api/tables/{lone}").json()["expires"] is not None
        later(c, 500)
        r = c.post(f"/api/tables/{kept}/keep", headers=auth(keeper))
        assert r.status_code == 200, r.text
        assert error_of(c.post(f"/api/tables/{kept}/keep"))[:2] == (403, "spectator")
        later(c, 200)  # 700 s after creation, 200 s after the keep
        ids = {t["id"] for t in c.get("/api/tables").json()["tables"]}
        assert lone not in ids and kept in ids
        assert error_of(c.get(f"/api/tables/{lone}"))[:2] == (404, "unknown_table")
        later(c, 500)  # 700 s after the keep
        ids = {t["id"] for t in c.get("/api/tables").json()["tables"]}
        assert kept not in ids
        assert c.get(f"/api/tables/{other}").status_code == 404  # a join is not play
        started = create(c, game="mattis", seats=three)["table"]["id"]
        playing = join(c, started, 0)
        assert c.post(f"/api/tables/{started}/keep", headers=auth(playing)).status_code == 200


def test_keep_open_refuses_a_table_that_is_not_waiting(tmp_path: Path) -> None:
    with client(tmp_path, client_seeds=True) as c:
        tid = create(c, seed=3)["table"]["id"]
        token = join(c, tid, 0)
        join(c, tid, 1, "Ben")
        status, code, message = error_of(c.post(f"/api/tables/{tid}/keep", headers=auth(token)))
        assert (status, code) == (409, "not_waiting") and "not waiting" in message


def test_a_rematch_goes_through_the_per_address_cap(tmp_path: Path) -> None:
    with client(tmp_path, client_seeds=True, policy=Policy(tables_per_address=1)) as c:
        seats = [{"kind": "open"}, {"kind": "bot", "bot": "random"}]
        tid = create(c, seats=seats, seed=2)["table"]["id"]
        token = join(c, tid, 0)
        message = state(c, tid, token)
        while message["status"] != "finished":
            if message["view"]["to_act"] == 0:
                body = {"move": pick(message["view"], message["seq"]), "seq": message["seq"]}
                c.post(f"/api/tables/{tid}/moves", json=body, headers=auth(token))
            message = state(c, tid, token)
        create(c)  # this address's one live table
        r = c.post(f"/api/tables/{tid}/rematch", headers=auth(token))
        status, code, message_text = error_of(r)
        assert (status, code) == (429, "rate_limited") and "per address" in message_text


# --- addresses ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("host", "key"),
    [
        ("203.0.113.7", "203.0.113.7"),
        ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"),
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
        ("::ffff:198.51.100.4", "198.51.100.4"),
        ("fe80::1%eth0", "fe80::/64"),
        (None, "unknown"),
        ("testclient", "testclient"),
    ],
)
def test_clients_are_keyed_by_address_and_ipv6_by_64(host: str | None, key: str) -> None:
    assert client_key(host) == key


def test_ipv6_addresses_of_one_64_share_their_limits(tmp_path: Path) -> None:
    with client(tmp_path, policy=Policy(create_per_minute=1)) as c:
        body = {"game": "myllymatti", "seats": TWO_OPEN}
        with from_address(c, "2001:db8:5:6::1"):
            assert c.post("/api/tables", json=body).status_code == 201
        with from_address(c, "2001:db8:5:6:ffff::2"):
            assert error_of(c.post("/api/tables", json=body))[1] == "rate_limited"
        with from_address(c, "2001:db8:5:7::1"):
            assert c.post("/api/tables", json=body).status_code == 201


@contextmanager
def served(
    tmp_path: Path, limits: Limits | None = None, forwarded: str | None = None, **kwargs: Any
) -> Iterator[str]:
    """A real uvicorn server (the settings of ``tikki serve``) in a thread; its URL."""
    kwargs.setdefault("bot_delay", 0)
    app = create_app(f"sqlite:///{tmp_path / 'served.sqlite'}", **kwargs)
    sock = bind("127.0.0.1", 0)
    server = uvicorn.Server(config(app, limits, forwarded))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(500):
        if server.started:
            break
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def test_forwarded_addresses_count_only_from_trusted_proxies(tmp_path: Path) -> None:
    body = {"game": "myllymatti", "seats": TWO_OPEN}
    policy = Policy(create_per_minute=1)
    with served(tmp_path, policy=policy) as url:  # the default trusts no proxy
        first = httpx.post(f"{url}/api/tables", json=body, headers={"X-Forwarded-For": "1.1.1.1"})
        assert first.status_code == 201
        spoofed = httpx.post(f"{url}/api/tables", json=body, headers={"X-Forwarded-For": "2.2.2.2"})
        assert spoofed.status_code == 429  # one bucket: the header did not count
    with served(tmp_path, forwarded="127.0.0.1", policy=policy) as url:
        for address in ("3.3.3.3", "4.4.4.4"):
            r = httpx.post(f"{url}/api/tables", json=body, headers={"X-Forwarded-For": address})
            assert r.status_code == 201, r.text
        again = httpx.post(f"{url}/api/tables", json=body, headers={"X-Forwarded-For": "3.3.3.3"})
        assert again.status_code == 429


# --- bounded connections --------------------------------------------------------------------


def test_connections_past_the_per_address_cap_are_refused_and_others_answered(
    tmp_path: Path,
) -> None:
    limits = Limits(per_address=5, header_timeout=30)
    with served(tmp_path, limits) as url:
        port = int(url.rsplit(":", 1)[1])
        held = [sockets.create_connection(("127.0.0.1", port)) for _ in range(5)]
        extra = [sockets.create_connection(("127.0.0.1", port)) for _ in range(20)]
        for conn in extra:  # answered 503 and closed at once: no descriptor kept
            conn.settimeout(10)
            data = conn.recv(200)
            assert data.startswith(b"HTTP/1.1 503"), data
            assert conn.recv(200) == b""
            conn.close()
        for conn in held:
            conn.close()
        time.sleep(0.2)  # let the server see them go
        assert httpx.get(f"{url}/api/games").status_code == 200


def test_a_request_head_must_arrive_in_time(tmp_path: Path) -> None:
    with served(tmp_path, Limits(header_timeout=0.5)) as url:
        port = int(url.rsplit(":", 1)[1])
        slow = sockets.create_connection(("127.0.0.1", port))
        slow.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")  # never ends its head
        slow.settimeout(10)
        assert slow.recv(100) == b""  # the server closed it
        slow.close()
        idle = sockets.create_connection(("127.0.0.1", port))  # sends nothing at all
        idle.settimeout(10)
        assert idle.recv(100) == b""
        idle.close()
        assert httpx.get(f"{url}/api/games").status_code == 200


def test_a_request_body_must_arrive_in_time(tmp_path: Path) -> None:
    with served(tmp_path, Limits(body_timeout=10), body_timeout=0.5) as url:
        port = int(url.rsplit(":", 1)[1])
        slow = sockets.create_connection(("127.0.0.1", port))
        slow.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
            b"content-length: 100\r\n\r\n{"
        )
        slow.settimeout(10)
        answer = b""
        while chunk := slow.recv(1000):  # the whole answer, until the server closes
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 408"), answer
        assert b"too_slow" in answer
        slow.close()


def test_uvicorn_bounds_are_set(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'x.sqlite'}")
    settings = config(app, Limits(max_connections=100, keep_alive=3))
    assert settings.limit_concurrency == 101
    assert settings.timeout_keep_alive == 3
    assert settings.h11_max_incomplete_event_size == 16 * 1024
    assert settings.proxy_headers is False
    with pytest.raises(ValueError, match="--connections-per-address"):
        Limits(per_address=0)


def test_running_out_of_files_logs_one_line_a_second(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    handler = AcceptErrors(clock=lambda: now[0])
    loop = asyncio.new_event_loop()
    try:
        context = {"message": AcceptErrors.MESSAGE, "exception": OSError(24, "Too many")}
        with caplog.at_level("WARNING"):
            for step in range(3000):  # 3 seconds of failed accepts, one a millisecond
                now[0] = step / 1000
                handler(loop, context)
    finally:
        loop.close()
    lines = [r for r in caplog.records if "cannot accept" in r.getMessage()]
    assert len(lines) == 3
    assert all(r.exc_info is None for r in lines)
    assert "999 more like it" in lines[1].getMessage()
    assert Throttled(1.0, clock=lambda: 0.0).warn("x %s", "y")


# --- WebSocket caps and rate limits ---------------------------------------------------------


def refused(c: TestClient, tid: str) -> dict[str, Any]:
    """The error a refused WebSocket gets before it is closed with 4429."""
    with c.websocket_connect(f"/ws/tables/{tid}") as ws:
        message: dict[str, Any] = ws.receive_json()
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.send_json({"type": "hello"})
            ws.receive_json()
        assert closed.value.code == 4429
        return message


def test_watchers_are_capped_per_table_and_per_address(tmp_path: Path) -> None:
    policy = Policy(watchers_per_table=3, watchers_per_address=4)
    with client(tmp_path, policy=policy) as c:
        tid = create(c)["table"]["id"]
        other = create(c)["table"]["id"]
        with ExitStack() as stack:
            for _ in range(3):
                stack.enter_context(socket(c, tid)).receive_json()
            message = refused(c, tid)
            assert message["code"] == "rate_limited" and "connections" in message["message"]
            stack.enter_context(socket(c, other)).receive_json()  # the address's fourth
            message = refused(c, other)
            assert "your address has 4 connections" in message["message"]
        with socket(c, tid) as ws:  # all closed: room again
            assert ws.receive_json()["type"] == "state"


def test_websocket_connects_are_rate_limited(tmp_path: Path) -> None:
    with client(tmp_path, policy=Policy(connects_per_minute=3)) as c:
        tid = create(c)["table"]["id"]
        for _ in range(3):
            with socket(c, tid) as ws:
                ws.receive_json()
        message = refused(c, tid)
        assert "connections a minute" in message["message"]


def test_hints_and_expensive_reads_are_rate_limited(tmp_path: Path) -> None:
    policy = Policy(hints_per_minute=1, reads_per_minute=1)
    with client(tmp_path, client_seeds=True, policy=policy) as c:
        tid = create(c, seed=4)["table"]["id"]
        tokens = [join(c, tid, 0), join(c, tid, 1, "Ben")]
        to_act = state(c, tid)["view"]["to_act"]
        hints = []
        for _ in range(12):  # a burst of 10, then one a minute
            hints.append(c.post(f"/api/tables/{tid}/hint", headers=auth(tokens[to_act])))
        assert hints[0].status_code == 200
        assert error_of(hints[-1])[1] == "rate_limited"
        with socket(c, tid, tokens[to_act]) as ws:
            ws.receive_json()
            ws.send_json({"type": "hint"})
            message = ws.receive_json()
            while message["type"] == "state":
                message = ws.receive_json()
            assert message["code"] == "rate_limited" and "hints a minute" in message["message"]
        reads = [c.get("/api/tables") for _ in range(31)]
        assert reads[0].status_code == 200
        assert error_of(reads[-1])[1] == "rate_limited"


# --- seat custody ---------------------------------------------------------------------------


def test_a_person_playing_by_http_is_never_away(tmp_path: Path) -> None:
    """Someone making moves by the HTTP API counted as away, and the
    opponent handed their seat to a bot while they played."""
    with client(tmp_path, client_seeds=True, bot_delay=30, policy=Policy(away_after=120)) as c:
        tid = create(c, seed=5)["table"]["id"]
        tokens = {0: join(c, tid, 0), 1: join(c, tid, 1, "Ben")}
        with socket(c, tid, tokens[1]) as ws:  # the opponent is connected
            ws.receive_json()
            for _ in range(6):
                message = state(c, tid, tokens[0])
                seq = message["seq"]
                to_act = message["view"]["to_act"]
                if to_act == 0:
                    body = {"move": pick(message["view"], seq), "seq": seq}
                    c.post(f"/api/tables/{tid}/moves", json=body, headers=auth(tokens[0]))
                else:
                    mine = state(c, tid, tokens[1])
                    body = {"move": pick(mine["view"], seq), "seq": seq}
                    c.post(f"/api/tables/{tid}/moves", json=body, headers=auth(tokens[1]))
                later(c, 100)  # 600 s in all, a move (or a look) every 100 s
                path = f"/api/tables/{tid}/seats/0/bot"
                r = c.post(path, headers=auth(tokens[1]))
                assert error_of(r)[:2] == (409, "not_away"), r.text
            later(c, 121)  # now they stopped acting: away
            assert c.post(f"/api/tables/{tid}/seats/0/bot", headers=auth(tokens[1])).is_success


def test_revoking_device_links_gives_a_new_token_and_ends_other_sessions(
    tmp_path: Path,
) -> None:
    with client(tmp_path) as c:
        tid = create(c)["table"]["id"]
        token = join(c, tid, 0)
        with socket(c, tid, token) as phone:
            assert phone.receive_json()["devices"] == 1
            with socket(c, tid, token) as laptop:
                assert laptop.receive_json()["devices"] == 2
                assert phone.receive_json()["devices"] == 2
                assert state(c, tid, token)["devices"] == 2
                assert state(c, tid)["devices"] == 0  # spectators hold no seat
                r = c.post(f"/api/tables/{tid}/revoke", headers=auth(token))
                assert r.status_code == 200, r.text
                new = r.json()["token"]
                assert new != token and r.json()["seat"] == 0
                for ws in (phone, laptop):
                    message = ws.receive_json()
                    while message["type"] == "state":
                        message = ws.receive_json()
                    assert message["code"] == "revoked"
                    with pytest.raises(WebSocketDisconnect) as closed:
                        ws.receive_json()
                    assert closed.value.code == REVOKED
        old = c.get(f"/api/tables/{tid}/state", headers=auth(token))
        assert error_of(old)[:2] == (403, "bad_token")
        assert state(c, tid, new)["seat"] == 0
        assert error_of(c.post(f"/api/tables/{tid}/revoke"))[:2] == (403, "spectator")
    with client(tmp_path) as c:  # the new token is stored: it holds after a restart
        assert state(c, tid, new)["seat"] == 0


def test_the_revoke_and_keep_answers_are_documented(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        spec = c.get("/openapi.json").json()
    paths = spec["paths"]
    assert "/api/tables/{table_id}/revoke" in paths and "/api/tables/{table_id}/keep" in paths
    assert "devices" in spec["components"]["schemas"]["StateMessage"]["properties"]
    assert "expires" in spec["components"]["schemas"]["TableInfo"]["properties"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--connections-per-address", "0"], "--connections-per-address is a number > 0"),
        (["--watchers-per-table", "0"], "--watchers-per-table is a number > 0"),
        (["--max-bot-tables", "-1"], "--max-bot-tables is a number > 0"),
    ],
)
def test_serve_refuses_bad_limits(tmp_path: Path, args: list[str], words: str) -> None:
    from typer.testing import CliRunner

    from tikki.cli import app

    db = ["--db", f"sqlite:///{tmp_path / 'x.sqlite'}"]
    result = CliRunner().invoke(app, ["serve", "--port", "0", *db, *args])
    assert result.exit_code == 2
    assert words in " ".join(result.output.split())


def test_one_address_may_hold_a_few_empty_waiting_tables(tmp_path: Path) -> None:
    """110 addresses filled the server's cap with waiting tables nobody
    joined; each address now holds at most --waiting-per-address of them."""
    assert Policy().waiting_per_address == 5
    with client(tmp_path, policy=Policy(waiting_per_address=2)) as c:
        first = create(c)["table"]["id"]
        create(c)
        r = c.post("/api/tables", json={"game": "myllymatti", "seats": TWO_OPEN})
        status, code, message = error_of(r)
        assert (status, code) == (429, "rate_limited") and "nobody played" in message
        create(c, seats=BOTS)  # bot-only tables do not wait for anyone
        with from_address(c, "198.51.100.20"):
            join(c, first, 1, "Guest")  # someone else joined: nobody played, it counts
        assert error_of(c.post("/api/tables", json={"game": "myllymatti", "seats": TWO_OPEN}))[
            :2
        ] == (429, "rate_limited")


def test_a_trusted_proxy_is_exempt_from_the_per_address_connection_cap(tmp_path: Path) -> None:
    limits = Limits(per_address=2, header_timeout=30)
    with served(tmp_path, limits, forwarded="127.0.0.1") as url:
        port = int(url.rsplit(":", 1)[1])
        held = [sockets.create_connection(("127.0.0.1", port)) for _ in range(6)]
        with httpx.Client() as http:  # the proxy's own requests are still answered
            assert http.get(f"{url}/api/games").status_code == 200
        for conn in held:
            conn.close()


def test_a_queued_bot_only_table_and_analysis_show_their_place(tmp_path: Path) -> None:
    """A client whose crowd search waits sees its place (``queue``)."""
    with client(tmp_path, policy=Policy(bot_workers=2), bot_delay=30) as c:
        tid = create(c, seats=[{"kind": "bot", "bot": HARD_BOT}] * 2)["table"]["id"]
        manager = app_state(c).manager

        async def hold_and_ask() -> tuple[int | None, int | None]:
            pool = manager.bots.search_slots
            gate = asyncio.Event()

            async def busy() -> None:
                async with pool.slot("other", "x", False):
                    await gate.wait()

            async def queued() -> None:
                async with pool.slot(f"table:{tid}", tid, False):
                    pass

            holder = asyncio.create_task(busy())
            await asyncio.sleep(0)
            waiter = asyncio.create_task(queued())
            await asyncio.sleep(0)
            places = manager.search_place(f"table:{tid}", tid), pool.place("other", "x")
            gate.set()
            await asyncio.gather(holder, waiter)
            return places

        assert c.portal is not None
        place, holder_place = c.portal.call(hold_and_ask)
        assert place == 1 and holder_place is None
        assert c.get(f"/api/tables/{tid}").json()["queue"] is None  # not waiting now
        assert "queue" not in create(c)["table"] or create(c)["table"]["queue"] is None
