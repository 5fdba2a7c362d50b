"""The per-move path of a table (issue 54): a message pushed while the connection's
writer waits goes out at once, and one whose send waits is finished by the writer under
its timeout, in order; the storage thread runs its calls in order; the public part's
entries kept between messages (a bot seat's, the game's) follow a seat's change and the
language; a ping is told from a move."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime

import pytest
from starlette.websockets import WebSocketDisconnect, WebSocketState

import tikki
from tikki.i18n import use
from tikki.server.db import StoredSeat
from tikki.server.outbox import SEND_KEY, Outbox, peer, write
from tikki.server.tables.storage import StorageThread
from tikki.server.tables.table import Connection, Table
from tikki.server.ws import _is_ping


class Recorder:
    """A WebSocket whose peer reads everything: each send finishes at once; a send of
    ``held`` waits until :attr:`gate` opens."""

    def __init__(self, held: str | None = None) -> None:
        self.held = held
        self.gate = asyncio.Event()
        self.started: list[str] = []
        self.sent: list[str] = []
        self.closes: list[int] = []

    async def send_text(self, data: str) -> None:
        self.started.append(data)
        if data == self.held:
            await self.gate.wait()
        self.sent.append(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closes.append(code)


def test_a_message_pushed_while_the_writer_waits_goes_out_at_once() -> None:
    async def scenario() -> tuple[list[str], Recorder]:
        peer, box = Recorder(), Outbox()
        writer = asyncio.create_task(write(peer, box, None))
        await asyncio.sleep(0)  # the writer waits for a message
        box.push("state 1", state=True)
        box.push("pong")
        at_once = list(peer.sent)  # no pass of the event loop since the pushes
        box.close(1000)
        await writer
        return at_once, peer

    at_once, peer = asyncio.run(scenario())
    assert at_once == ["state 1", "pong"]
    assert peer.sent == ["state 1", "pong"] and peer.closes == [1000]


def test_a_send_that_waits_is_finished_by_the_writer_before_the_next_messages() -> None:
    async def scenario() -> tuple[list[str], list[str], int, Recorder]:
        peer, box = Recorder(held="slow"), Outbox()
        writer = asyncio.create_task(write(peer, box, None))
        await asyncio.sleep(0)
        box.push("slow")  # begins at once, then waits for the peer
        box.push("state 1", state=True)
        box.push("error a")
        box.push("state 2", state=True)  # replaces the unsent state 1
        await asyncio.sleep(0.01)
        waiting, queued = list(peer.started), len(box)
        peer.gate.set()
        await asyncio.sleep(0.01)
        box.close(1000)
        await writer
        return waiting, peer.sent, queued, peer

    waiting, sent, queued, peer = asyncio.run(scenario())
    assert waiting == ["slow"] and queued == 2  # the state and the error wait behind it
    assert sent == ["slow", "state 2", "error a"] and peer.closes == [1000]


def test_a_send_begun_at_once_that_stays_stuck_drops_the_connection() -> None:
    async def scenario() -> tuple[Recorder, list[str], int | None]:
        peer, box, aborted = Recorder(held="stuck"), Outbox(), []
        writer = asyncio.create_task(write(peer, box, lambda: aborted.append("abort"), 0.01))
        await asyncio.sleep(0)
        box.push("stuck", state=True)
        box.push("more")
        await writer
        return peer, aborted, box.close_code

    peer, aborted, code = asyncio.run(scenario())
    assert peer.started == ["stuck"] and peer.sent == [] and peer.closes == [1008]
    assert aborted == ["abort"] and code == 1008


def _table() -> Table:
    game = tikki.load("myllymatti", players=3)
    seats = [StoredSeat(0, "human", "Anna", None, "x" * 64)]
    seats += [StoredSeat(s, "bot", f"Bot {s} (Medium)", "heuristic") for s in (1, 2)]
    table = Table("t1", game, game.new_state(seed=1), 1, seats, "playing", datetime(2026, 1, 1))
    table.connections.add(Connection(0))
    return table


def _fresh(table: Table) -> list[dict[str, object]]:
    """The seats' entries worked out anew (nothing kept)."""
    return [table._seat_fields(s) for s in table.seats]


def test_a_bot_seat_s_kept_entry_follows_its_seat_and_the_language() -> None:
    table = _table()
    assert table.public()["seats"] == _fresh(table)
    table.seats[2] = StoredSeat(2, "bot", "Eve (Easy)", "random")  # a seat replaced
    assert table.public()["seats"][2]["name"] == "Eve (Easy)"
    assert table.public()["seats"] == _fresh(table)
    with use("fi"):
        finnish = table.public()["seats"]
        assert finnish == _fresh(table)
    assert finnish[1]["name"] != table.public()["seats"][1]["name"]  # "Keskitaso"
    table.public()["seats"][1]["name"] = "changed"  # each message has its own entries
    assert table.public()["seats"] == _fresh(table)


def test_the_game_s_part_of_the_public_table_follows_the_game() -> None:
    table = _table()
    assert table.public()["players"] == 3
    table.public()["options"]["variant"] = "changed"  # a copy each time
    assert table.public()["options"] == table.game.options
    table.game = tikki.load("myllymatti", players=2)
    assert table.public()["players"] == 2 and table.public()["options"] == table.game.options


def test_a_ping_is_told_from_other_messages_without_parsing_them() -> None:
    assert _is_ping('{"type": "ping"}') and _is_ping('{"type": "\\u0070ing"}')
    assert not _is_ping('{"type": "move", "move": "7H", "seq": 3}')
    assert not _is_ping('{"type": "sync"}') and not _is_ping(None)
    assert not _is_ping('{"type": "ping", "pad": "' + "x" * 64 + '"}')


def test_the_storage_thread_runs_its_calls_in_order_and_refuses_after_shutdown(
    caplog: pytest.LogCaptureFixture,
) -> None:
    thread = StorageThread("test-db")
    done: list[object] = []
    for n in range(3):
        thread.submit(done.append, n)
    thread.call(lambda: done.append("call"))
    thread.call(lambda: done.append(1 // 0))  # logged; the thread goes on
    failed = thread.submit(int, "x")
    with caplog.at_level(logging.ERROR, logger="tikki.server"):
        assert thread.submit(lambda: "last").result(timeout=10) == "last"
    assert done == [0, 1, 2, "call"]
    assert isinstance(failed.exception(timeout=0), ValueError)
    assert "a storage call failed" in caplog.text
    thread.shutdown()
    with pytest.raises(RuntimeError):
        thread.submit(print)
    with pytest.raises(RuntimeError):
        thread.call(print)


class _Starlette:
    """The part of Starlette's WebSocket the direct peer reads: its scope and state, and
    its own send_text and close (recorded)."""

    def __init__(self, scope: dict[str, object]) -> None:
        self.scope = scope
        self.application_state = WebSocketState.CONNECTED
        self.through: list[str] = []
        self.closes: list[int] = []

    async def send_text(self, data: str) -> None:
        self.through.append(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closes.append(code)


def test_the_writer_sends_text_to_the_servers_own_send() -> None:
    raw: list[dict[str, object]] = []

    async def send(message: dict[str, object]) -> None:
        raw.append(message)

    async def scenario() -> _Starlette:
        websocket = _Starlette({SEND_KEY: send})
        target = peer(websocket)  # type: ignore[arg-type]
        await target.send_text("one")
        websocket.application_state = WebSocketState.DISCONNECTED
        await target.send_text("two")  # Starlette's own send refuses (recorded here)
        await target.close(1001)
        return websocket

    websocket = asyncio.run(scenario())
    assert raw == [{"type": "websocket.send", "text": "one"}]
    assert websocket.through == ["two"] and websocket.closes == [1001]


def test_a_broken_transport_is_a_disconnect_and_no_scope_send_is_starlettes() -> None:
    async def broken(message: dict[str, object]) -> None:
        raise ConnectionResetError

    async def scenario() -> _Starlette:
        websocket = _Starlette({SEND_KEY: broken})
        with pytest.raises(WebSocketDisconnect):
            await peer(websocket).send_text("lost")  # type: ignore[arg-type]
        return websocket

    websocket = asyncio.run(scenario())
    assert websocket.application_state is WebSocketState.DISCONNECTED
    plain = _Starlette({})
    assert peer(plain) is plain  # type: ignore[arg-type]
