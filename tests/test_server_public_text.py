"""The public part's text (:meth:`Table.public_text`) is ``json.dumps(table.public())``.

``public_text`` keeps pieces between messages (the head: the id, the game and its options;
each bot seat's entry; each person's entry with its values), so these tests change every
input of :meth:`Table.public` in place, one at a time (a seat, a connection, the clock, a
stand-in, the status, the timer, the language, the id, the game) and compare the text with
a freshly computed ``public()`` after each change: a stale piece fails them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timedelta

import pytest

import tikki
from tikki.i18n import use
from tikki.server.db import StoredSeat
from tikki.server.tables.table import Connection, Table, Takeover

T0 = datetime(2026, 1, 1, 12, 0, 0)


class _Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


def _table(clock: _Clock) -> Table:
    """A playing Myllymatti table: a person at seat 0 (connected), an open seat, a bot."""
    game = tikki.load("myllymatti", players=3)
    seats = [
        StoredSeat(0, "human", "Ann", None, "x" * 64),
        StoredSeat(1, "open", None, None, None, "i" * 64),
        StoredSeat(2, "bot", "Aino (Medium)", "heuristic"),
    ]
    table = Table("t1", game, game.new_state(seed=1), 1, seats, "playing", T0, clock=clock)
    table.connections.add(Connection(0))
    return table


def _same(table: Table) -> None:
    """The text is ``json.dumps`` of a fresh ``public()``, in English and in Finnish."""
    for lang in ("en", "fi"):
        with use(lang):
            assert table.public_text() == json.dumps(table.public()), lang


def _play(table: Table) -> None:
    state = table.state.clone()
    state.play(state.legal_moves()[0])
    state.take_history(table.state)
    table.state, table.seq, table.last_move = state, table.seq + 1, table.clock()


Change = Callable[[Table], object]


def _set(**attrs: object) -> Callable[[object], None]:
    """A change that sets the ``attrs`` of a table (or a seat)."""

    def change(target: object) -> None:
        for key, value in attrs.items():
            setattr(target, key, value)

    return change


def _seat(index: int, **attrs: object) -> Change:
    """A change that sets seat ``index``'s ``attrs`` in place."""
    return lambda table: _set(**attrs)(table.seats[index])


def _changes(clock: _Clock) -> list[tuple[str, Change]]:
    """Each change to a table that ``public()`` shows, made in place."""

    def tick(seconds: float) -> Change:
        def move(_table: Table) -> None:
            clock.now += timedelta(seconds=seconds)

        return move

    def away(table: Table) -> None:
        table.connections.clear()
        table.away_since[0] = clock.now

    def back(table: Table) -> None:
        table.connections.add(Connection(0))
        table.away_since.clear()

    def stand_in(why: str) -> Change:
        return lambda table: table.takeovers.append(Takeover(0, table.seq, "heuristic", why))

    def other_game(table: Table) -> None:
        table.game = tikki.load("myllymatti", players=3, take="all")
        table.state = table.game.new_state(seed=2)

    return [
        ("a move", _play),
        ("the person's connection goes", away),
        ("time passes: the seat may be handed over", tick(200)),
        ("the person is back", back),
        ("an account holds the seat", lambda t: t.account_seats.add(0)),
        ("the person's name", _seat(0, name="Bea")),
        ("the open seat's invite is dropped", _seat(1, invite_hash=None)),
        ("someone joins the open seat", _seat(1, kind="human")),
        ("the bot is renamed", _seat(2, name="Eero (Easy)")),
        ("the bot's level", _seat(2, bot="random")),
        ("the bot seat becomes a person's", _seat(2, kind="human")),
        ("a stand-in", stand_in("away")),
        ("the stand-in ends", lambda t: setattr(t.takeovers[-1], "end", t.seq)),
        ("a resignation", stand_in("resigned")),
        ("a turn timer", _set(turn_timer=30)),
        ("the timer's start", lambda t: setattr(t, "turn_since", clock.now)),
        ("time passes", tick(7)),
        ("the timer ran out", lambda t: setattr(t, "timed_out", t.seq)),
        ("on timeout", _set(on_timeout="bot")),
        ("away after", _set(away_after=30)),
        ("away after as a decimal", _set(away_after=30.0)),
        ("settings", _set(memory_aids=True, forced_moves=True, rated=True)),
        ("a rematch asked during the game", _set(rematch="r0")),
        ("the table waits", _set(status="waiting")),
        ("the table plays", _set(status="playing")),
        ("a move", _play),
        ("the id", _set(id="t2")),
        ("another game", other_game),
        ("the creation time", _set(created=T0 + timedelta(hours=1))),
        ("the end", lambda t: _set(status="finished", finished=clock.now, rematch="r")(t)),
    ]


def test_every_change_shows_in_the_text() -> None:
    """After each change (and the moves between them) the text is a fresh public()'s."""
    clock = _Clock()
    table = _table(clock)
    _same(table)
    for name, change in _changes(clock):
        before = table.public_text()
        change(table)
        _same(table)
        if name != "time passes":
            assert table.public_text() != before or name == "a move", name


@pytest.mark.parametrize("index", range(len(_changes(_Clock()))))
def test_each_change_alone(index: int) -> None:
    """Each change alone, on a table whose pieces were all kept before it."""
    clock = _Clock()
    table = _table(clock)
    _play(table)
    _same(table)
    name, change = _changes(clock)[index]
    if name == "the stand-in ends" or name == "the timer ran out":
        table.takeovers.append(Takeover(0, table.seq, "heuristic", "away"))
        table.turn_timer, table.turn_since = 30, clock.now
        _same(table)
    change(table)
    _same(table)


def test_broadcast_splices_the_public_text() -> None:
    """A broadcast's texts carry the public part as ``json.dumps`` does, for every kind of
    connection (whole and deltas, seat and spectator, two languages), move after move."""
    clock = _Clock()
    table = _table(clock)
    table.connections |= {Connection(0, lang="fi"), Connection(None), Connection(0, deltas=True)}
    for _ in range(6):
        _play(table)
        table.broadcast()
        for conn in table.connections:
            with use(conn.lang):
                expected = table.state_message(conn.seat)
            sent = json.loads(conn.outbox._state or "")
            assert sent["table"] == expected["table"]
            if not conn.deltas:
                assert conn.outbox._state == json.dumps(expected)


def test_kept_pieces_follow_a_value_of_another_type() -> None:
    """The text around the values that change each move is kept while the others stay,
    compared with their types: ``30`` and ``30.0`` are equal but not the same text."""
    clock = _Clock()
    table = _table(clock)
    for change in (_set(away_after=30), _set(away_after=30.0), _set(turn_timer=30),
                   _set(turn_timer=30.0), _set(away_after=120.0)):  # fmt: skip
        _play(table)
        _same(table)
        change(table)
        _same(table)
        assert not table.takeovers and table.status == "playing"
