"""History deltas on the WebSocket (docs/protocol.md: a ``hello`` with ``"history": "delta"``).

A connection that opts in gets, in each state message, only the history entries it was
not sent yet and ``history_from``, the index of the first one; applied, they give
exactly the history a connection that did not opt in receives, whose messages stay
``json.dumps``'s byte for byte.  These tests play whole games with bots (Myllymatti,
Mattis, Mückenstich) over sockets of both kinds side by side, seat and spectator; they
hold the deltas to what the connection was actually sent when a slow reader's states
coalesce (without a writer, and with one whose sends wait); and a socket opened again
starts from the whole history.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import pytest

import tikki
from tests._server import TestClient, app_state, create, join
from tikki.i18n import use
from tikki.server.db import StoredSeat
from tikki.server.outbox import write
from tikki.server.tables.table import Connection, Table

Message = dict[str, Any]


@contextmanager
def opened(c: TestClient, table_id: str, token: str | None, deltas: bool) -> Iterator[Any]:
    """A socket that said its hello (``deltas``: with ``"history": "delta"``)."""
    hello: Message = {"type": "hello"}
    if token is not None:
        hello["token"] = token
    if deltas:
        hello["history"] = "delta"
    with c.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json(hello)
        yield ws


class Client:
    """What a client that takes deltas keeps: the history it was sent."""

    def __init__(self) -> None:
        self.history: list[Any] = []
        self.entries = 0
        """Entries received in all (to compare with the whole histories' count)."""

    def apply(self, message: Message) -> Message:
        """The message with the whole history (``history_from`` taken out)."""
        start = message.pop("history_from")
        entries = message["view"]["history"]
        assert 0 <= start <= len(self.history), (start, len(self.history))
        self.history = self.history[:start] + entries
        self.entries += len(entries)
        message["view"]["history"] = list(self.history)
        return message


def _whole(text: str) -> Message:
    """A message of a socket that did not opt in: never a ``history_from``."""
    message: Message = json.loads(text)
    assert "history_from" not in message
    return message


GAMES = [("myllymatti", 3), ("mattis", 3), ("mueckenstich", 4)]


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_whole_game_with_deltas_gives_the_whole_history(
    c: TestClient, name: str, players: int
) -> None:
    """Seat 0 and a spectator, each over a socket with deltas and one without, through a
    whole game against bots: every delta message, applied, is the whole message."""
    seats = [{"kind": "open"}] + [{"kind": "bot", "bot": "heuristic"}] * (players - 1)
    table_id = create(c, name, seats, players=players, seed=5)["table"]["id"]
    token = join(c, table_id, 0)
    with (
        opened(c, table_id, None, False) as watch,
        opened(c, table_id, None, True) as watch_delta,
    ):
        first, first_delta = _whole(watch.receive_text()), json.loads(watch_delta.receive_text())
        assert first_delta["history_from"] == 0  # a fresh socket: the whole history
        watcher = Client()
        assert watcher.apply(first_delta) == first
        with (
            opened(c, table_id, token, False) as seat,
            opened(c, table_id, token, True) as seat_delta,
        ):
            seat.receive_text()  # its own connect's state, before the other socket's
            player = Client()
            watched = watcher.apply(json.loads(watch_delta.receive_text()))
            assert watched == _whole(watch.receive_text())  # the same connect's state
            done = _play(seat, seat_delta, player, (watch, watch_delta, watcher))
    assert done > 10
    assert player.entries < done  # each entry about once, not the history at every move
    assert watcher.entries < done


def _play(seat: Any, seat_delta: Any, player: Client, watching: tuple[Any, Any, Client]) -> int:
    """Play seat 0 at random to the end, reading both seat sockets and both watchers'
    in step; the whole histories' entries summed over the seat's messages."""
    watch, watch_delta, watcher = watching
    rng = random.Random(3)
    whole_entries = 0
    while True:
        text = seat.receive_text()
        message, delta = _whole(text), json.loads(seat_delta.receive_text())
        assert delta["history_from"] <= len(player.history)
        assert json.dumps(player.apply(delta)) == text
        assert watcher.apply(json.loads(watch_delta.receive_text())) == _whole(watch.receive_text())
        whole_entries += len(message["view"]["history"])
        if message["status"] == "finished":
            return whole_entries
        legal = message["view"]["legal_moves"]
        if message["status"] == "playing" and message["view"]["to_act"] == 0 and legal:
            seat.send_json({"type": "move", "move": rng.choice(legal), "seq": message["seq"]})


def test_a_socket_opened_again_gets_the_whole_history(c: TestClient) -> None:
    """A reconnect (and a second device) starts from the whole history, then deltas."""
    seats = [{"kind": "open"}, {"kind": "bot", "bot": "heuristic"}]
    table_id = create(c, "myllymatti", seats, seed=7)["table"]["id"]
    token = join(c, table_id, 0)
    player = Client()
    with opened(c, table_id, token, True) as ws:
        message = player.apply(json.loads(ws.receive_text()))
        for _ in range(3):
            legal = message["view"]["legal_moves"]
            ws.send_json({"type": "move", "move": legal[0], "seq": message["seq"]})
            while True:
                message = player.apply(json.loads(ws.receive_text()))
                if message["view"]["to_act"] == 0:
                    break
        assert len(player.history) >= 6
    with opened(c, table_id, token, True) as again, opened(c, table_id, token, True) as other:
        fresh = json.loads(again.receive_text())
        assert fresh["history_from"] == 0
        assert fresh["view"]["history"] == player.history
        assert json.loads(again.receive_text())["history_from"] == len(player.history)
        assert json.loads(other.receive_text())["history_from"] == 0
        again.send_json({"type": "sync"})  # a sync of a socket that has it all: nothing new
        synced = json.loads(again.receive_text())
        assert synced["history_from"] == len(player.history) and synced["view"]["history"] == []


def test_a_hello_without_deltas_gets_json_dumps(c: TestClient) -> None:
    """Without ``"history": "delta"`` (or with another value) the text is ``json.dumps``
    of the table's message, the whole history in it."""
    seats = [{"kind": "open"}, {"kind": "bot", "bot": "heuristic"}]
    table_id = create(c, "myllymatti", seats, seed=8)["table"]["id"]
    token = join(c, table_id, 0)
    table = app_state(c).manager.tables[table_id]
    for said in (None, "full", True):
        with c.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello: Message = {"type": "hello", "token": token}
            if said is not None:
                hello["history"] = said
            ws.send_json(hello)
            text = ws.receive_text()
            assert text == json.dumps(table.state_message(0))
            ws.send_json({"type": "sync"})
            assert ws.receive_text() == json.dumps(table.state_message(0))


def _table(name: str, players: int, seed: int) -> Table:
    """A playing table with bots in every seat but 0 (no connection yet)."""
    game = tikki.load(name, players=players)
    seats = [StoredSeat(0, "human", "Åsa ✓", None, "x" * 64)]
    seats += [StoredSeat(s, "bot", f"Bot {s}", "heuristic") for s in range(1, players)]
    return Table(f"t{seed}", game, game.new_state(seed=seed), seed, seats, "playing",
                 datetime(2026, 1, 1))  # fmt: skip


def _move(table: Table, rng: random.Random) -> None:
    """One random move, played as the server plays it (a copy that takes the history)."""
    copy = table.state.clone()
    copy.play(rng.choice(copy.legal_moves()))
    copy.take_history(table.state)
    table.state = copy
    table.seq += 1


def _expected(table: Table, conn: Connection) -> str:
    """``json.dumps`` of ``conn``'s whole state message now."""
    with use(conn.lang):
        return json.dumps(table.state_message(conn.seat))


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_coalesced_states_are_relative_to_what_was_sent(name: str, players: int) -> None:
    """A slow reader (the outbox read now and then, states coalescing meanwhile) rebuilds
    the whole history from its deltas after every read; a connection without deltas
    beside it still gets ``json.dumps``'s text."""

    async def play() -> None:
        table = _table(name, players, 2)
        slow = [Connection(0, deltas=True), Connection(None, deltas=True),
                Connection(0, lang="fi", deltas=True)]  # fmt: skip
        whole = Connection(0)
        table.connections |= {*slow, whole}
        clients = {id(conn): Client() for conn in slow}
        rng = random.Random(4)
        table.broadcast()
        reads = 0
        while not table.state.is_over:
            for conn in slow:
                if rng.random() < 0.3 or table.state.is_over:
                    text = await conn.outbox.next()
                    assert text is not None
                    client = clients[id(conn)]
                    assert json.dumps(client.apply(json.loads(text))) == _expected(table, conn)
                    reads += 1
            assert await whole.outbox.next() == _expected(table, whole)
            _move(table, rng)
            table.broadcast()
        assert reads > 10

    asyncio.run(play())


class _Peer:
    """A WebSocket whose sends wait now and then (a reader that falls behind), for
    :func:`~tikki.server.outbox.write`: the texts it got, in order."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.texts: list[str] = []

    async def send_text(self, data: str) -> None:
        if self.rng.random() < 0.5:
            for _ in range(self.rng.randrange(1, 4)):
                await asyncio.sleep(0)
        self.texts.append(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        pass


def test_a_writer_that_waits_sends_deltas_of_what_it_sent() -> None:
    """With the writer running (a send at once while it is idle, coalescing while a send
    waits), the texts the peer got rebuild the whole history, the last one the table's."""

    async def play() -> None:
        table = _table("myllymatti", 3, 6)
        conn = Connection(0, deltas=True)
        table.connections.add(conn)
        peer = _Peer(random.Random(5))
        writer = asyncio.create_task(write(peer, conn.outbox, None))
        rng = random.Random(6)
        table.broadcast()
        while not table.state.is_over:
            for _ in range(rng.randrange(0, 3)):
                await asyncio.sleep(0)
            _move(table, rng)
            table.broadcast()
        conn.close(1000)
        await writer
        client = Client()
        rebuilt = [json.dumps(client.apply(json.loads(text))) for text in peer.texts]
        assert rebuilt[-1] == _expected(table, conn)
        assert len(peer.texts) < table.seq  # some states coalesced
        assert client.entries < sum(len(json.loads(r)["view"]["history"]) for r in rebuilt)

    asyncio.run(play())
