"""Nothing on the server can be hoarded: tables nobody plays expire in minutes however many
addresses join them, one address holds a few of them, idle watchers are closed, seated
players keep a share of the connections, and idle HTTP connections give way to newcomers."""

from __future__ import annotations

import socket as sockets
import struct
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest
from starlette.websockets import WebSocketDisconnect

from tests._server import TestClient, auth, client, create, error_of, join, pick, socket, state
from tests.test_server_crowds import from_address, later, served
from tikki.server import create_app
from tikki.server.guard import FILE_MARGIN, LISTEN_BACKLOG, Limits
from tikki.server.quota import Policy
from tikki.server.run import bind, config
from tikki.server.ws import IDLE

THREE_OPEN = [{"kind": "open"}] * 3


def ids(c: TestClient) -> set[str]:
    """The ids of the lobby's tables (asking for them expires what is due)."""
    return {t["id"] for t in c.get("/api/tables?status=all").json()["tables"]}


def test_a_waiting_table_joined_from_elsewhere_still_expires_in_minutes(tmp_path: Path) -> None:
    """A neighbour's join gave a waiting table a day; now only played moves do."""
    with client(tmp_path, policy=Policy(waiting_expiry=600)) as c:
        tid = create(c, game="mattis", seats=THREE_OPEN)["table"]["id"]
        join(c, tid, 0)
        with from_address(c, "203.0.113.9"):
            join(c, tid, 1, "Mika")
        later(c, 700)
        ids(c)
        assert error_of(c.get(f"/api/tables/{tid}"))[:2] == (404, "unknown_table")


def test_a_full_table_nobody_plays_expires_and_a_played_one_lasts_a_day(tmp_path: Path) -> None:
    """Two addresses filling each other's tables and never moving hold them minutes; a
    table where a person moved lives a day from its last move."""
    with client(tmp_path, client_seeds=True, policy=Policy(waiting_expiry=600)) as c:
        idle = create(c, seed=1)["table"]["id"]
        join(c, idle, 0)
        with from_address(c, "203.0.113.9"):
            join(c, idle, 1, "Mika")
        played = create(c, seed=1)["table"]["id"]
        tokens = [join(c, played, 0)]
        with from_address(c, "203.0.113.9"):
            tokens.append(join(c, played, 1, "Mika"))
        assert c.get(f"/api/tables/{idle}").json()["expires"] is not None
        message = state(c, played, tokens[0])
        token = tokens[message["view"]["to_act"]]
        message = state(c, played, token)
        body = {"move": pick(message["view"], message["seq"]), "seq": message["seq"]}
        r = c.post(f"/api/tables/{played}/moves", json=body, headers=auth(token))
        assert r.status_code == 200, r.text
        later(c, 700)
        ids(c)
        assert error_of(c.get(f"/api/tables/{idle}"))[:2] == (404, "unknown_table")
        assert c.get(f"/api/tables/{played}").json()["status"] == "playing"
        later(c, 24 * 3600)
        ids(c)  # the lobby expires what is due
        assert error_of(c.get(f"/api/tables/{played}"))[:2] == (404, "unknown_table")


def test_joined_waiting_tables_count_against_the_address_cap(tmp_path: Path) -> None:
    """Cross-joining neighbours no longer free an address from --waiting-per-address."""
    with client(tmp_path, policy=Policy(waiting_per_address=2)) as c:
        for _ in range(2):
            tid = create(c, game="mattis", seats=THREE_OPEN)["table"]["id"]
            with from_address(c, "198.51.100.20"):
                join(c, tid, 1, "Mika")
        r = c.post("/api/tables", json={"game": "mattis", "seats": THREE_OPEN})
        status, code, message = error_of(r)
        assert (status, code) == (429, "rate_limited") and "nobody played" in message
        with from_address(c, "198.51.100.21"):  # another address has its own share
            create(c, game="mattis", seats=THREE_OPEN)


def test_an_idle_watcher_is_closed_and_a_seated_person_is_not(tmp_path: Path) -> None:
    """A watcher's socket that sees no change and sends only pings closes with 4408; a
    seated person's socket stays open as long."""
    policy = Policy(watcher_idle=0.3)
    with client(tmp_path, policy=policy) as c:
        tid = create(c, game="mattis", seats=THREE_OPEN)["table"]["id"]
        token = join(c, tid, 0)
        with socket(c, tid, token) as seated:
            assert seated.receive_json()["type"] == "state"
            with socket(c, tid) as watcher:
                assert watcher.receive_json()["type"] == "state"
                watcher.send_json({"type": "ping"})
                assert watcher.receive_json()["type"] == "pong"
                with pytest.raises(WebSocketDisconnect) as closed:
                    while True:
                        watcher.receive_json()
                assert closed.value.code == IDLE == 4408
            seated.send_json({"type": "ping"})
            assert seated.receive_json()["type"] == "pong"


def test_watchers_are_refused_before_the_seated_players_share(tmp_path: Path) -> None:
    """With 8 connections and a quarter kept for seated players, the 7th watcher is
    refused (4429) and a seated person still connects."""
    limits = Limits(max_connections=8, seat_reserve=0.25)
    assert Limits().seat_reserve == 0.25
    with client(tmp_path) as c:
        config(c.app, limits)  # what tikki serve applies to its app
        tid = create(c, game="mattis", seats=THREE_OPEN)["table"]["id"]
        token = join(c, tid, 0)
        with ExitStack() as held:
            for _ in range(6):
                watcher = held.enter_context(socket(c, tid))
                assert watcher.receive_json()["type"] == "state"
            with socket(c, tid) as refused:
                message = refused.receive_json()
                assert message["code"] == "rate_limited" and "seated" in message["message"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    refused.receive_json()
                assert closed.value.code == 4429
            with socket(c, tid, token) as seated:
                assert seated.receive_json()["type"] == "state"
        with socket(c, tid) as watcher:  # the watchers left: there is room again
            assert watcher.receive_json()["type"] == "state"


def test_idle_http_connections_give_way_to_a_newcomer(tmp_path: Path) -> None:
    """A server full of connections that send nothing closes the oldest idle one for a
    newcomer at once, instead of refusing until the head deadline."""
    limits = Limits(max_connections=4, per_address=64, header_timeout=60)
    with served(tmp_path, limits) as url:
        port = int(url.rsplit(":", 1)[1])
        idle = [sockets.create_connection(("127.0.0.1", port)) for _ in range(4)]
        with httpx.Client(timeout=30) as http:
            assert http.get(f"{url}/api/games").status_code == 200
        idle[0].settimeout(30)
        assert idle[0].recv(100) == b""  # the oldest idle one was closed for it
        for conn in idle:
            conn.close()


def test_a_kept_alive_client_is_spared_while_a_silent_connection_can_go(tmp_path: Path) -> None:
    """The guard closes connections that never sent a request before kept-alive ones."""
    limits = Limits(max_connections=3, per_address=64, header_timeout=60)
    with served(tmp_path, limits) as url:
        port = int(url.rsplit(":", 1)[1])
        with httpx.Client(timeout=30) as regular:
            assert regular.get(f"{url}/api/games").status_code == 200  # kept alive
            silent = [sockets.create_connection(("127.0.0.1", port)) for _ in range(2)]
            with httpx.Client(timeout=30) as newcomer:
                assert newcomer.get(f"{url}/api/games").status_code == 200
            assert regular.get(f"{url}/api/games").status_code == 200  # the same connection
            silent[0].settimeout(30)
            assert silent[0].recv(100) == b""
            for conn in silent:
                conn.close()


def test_a_crowds_churn_closes_its_own_idle_connections_not_a_lone_newcomers(
    tmp_path: Path,
) -> None:
    """A full server closes an idle connection of the address that holds the most: a
    lone person's connection that has not sent its request yet (the oldest here) stays,
    while the crowd's reconnects close the crowd's own."""
    limits = Limits(max_connections=4, per_address=64, header_timeout=60)
    with served(tmp_path, limits) as url:
        port = int(url.rsplit(":", 1)[1])

        def connect(host: str) -> sockets.socket:
            return sockets.create_connection(("127.0.0.1", port), source_address=(host, 0))

        lone = connect("127.0.0.3")  # the oldest idle connection, one of its address
        crowd = [connect("127.0.0.2") for _ in range(3)]
        newcomer = connect("127.0.0.2")  # the crowd reconnects: the server is full
        crowd[0].settimeout(30)
        assert crowd[0].recv(100) == b""  # the crowd's oldest was closed for it
        lone.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        lone.settimeout(30)
        assert lone.recv(100).startswith(b"HTTP/1.1 200"), "the lone connection was closed"
        for conn in [lone, *crowd, newcomer]:
            conn.close()


def queue_limit(listener: sockets.socket) -> int:
    """The kernel's limit on a listening socket's queue of connections not accepted yet
    (Linux reports it in the ``tcpi_sacked`` field of ``tcp_info`` for a listening socket)."""
    info = listener.getsockopt(sockets.IPPROTO_TCP, sockets.TCP_INFO, 104)
    return int(struct.unpack_from("I", info, 28)[0])


def test_asyncio_accepts_a_small_batch_while_the_kernel_queues_a_long_line(
    tmp_path: Path,
) -> None:
    """At each wake-up of the listening socket asyncio accepts up to uvicorn's ``backlog``
    connections before the guard has seen any of them (and, out of file descriptors, stops
    accepting for a whole second): under a reconnecting crowd a batch of 2,048 ran the
    process out.  The batch fits a few times in the descriptors kept beyond the connection
    cap, while the kernel still queues a long line of connections (a short queue would drop
    a newcomer's SYN: a second before the retry)."""
    batch = config(create_app(f"sqlite:///{tmp_path / 'x.sqlite'}"), Limits()).backlog
    assert 0 < batch * 4 <= FILE_MARGIN
    most = int(Path("/proc/sys/net/core/somaxconn").read_text())  # the system's own cap
    with bind("127.0.0.1", 0) as listener:
        listener.listen(batch)  # what asyncio does as it starts serving
        assert queue_limit(listener) == min(LISTEN_BACKLOG, most)
