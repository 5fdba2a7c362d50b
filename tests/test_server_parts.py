"""The table manager's concerns, each built alone with the collaborators it receives.

No app, no server, no database: a storage double records what would be stored (and can
fail), and each concern is given only what its constructor asks for.  These tests pin
that the parts stand on their own, and the rules they hold: the caps, whose turn it is,
applying a move (or refusing it, changing nothing), a person taking their seat back."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest

from tikki.core import load
from tikki.serve_settings import Policy
from tikki.server.cluster import Ownership
from tikki.server.db import MoveWrite, StoredSeat
from tikki.server.errors import ApiError
from tikki.server.quota import TableCaps, TableCounts
from tikki.server.tables import Table, Takeover, turns
from tikki.server.tables.moves import Moves
from tikki.server.tables.registry import Registry
from tikki.server.tables.standins import StandIns
from tikki.server.tables.storage import Clock, Storage

MOMENT = datetime(2026, 12, 6, 12, 0)
"""The clock of these tests (naive UTC, as the database stores times)."""


class RecordingStore:
    """What :class:`Storage` runs, recorded; ``fail`` makes every write raise."""

    def __init__(self) -> None:
        self.moves: list[tuple[str, int, int, str, Any]] = []
        self.takeovers: list[tuple[str, list[Any]]] = []
        self.fail = False

    def add_move(
        self, table_id: str, seq: int, seat: int, move: str, outcome: Any, **_lobby: Any
    ) -> None:
        if self.fail:
            raise OSError("the disk is full")
        self.moves.append((table_id, seq, seat, move, outcome))

    def loop_groups(self) -> None:
        """No group commits from the event loop: the storage thread writes them."""
        return None

    writes_here = False
    """Nor on the event loop as on a SQLite file (:meth:`tikki.server.db.Store.add_moves_here`)."""

    def add_moves(self, writes: list[MoveWrite]) -> list[Exception | None]:
        """A group commit: every move of the group stored, or the failure raised."""
        for w in writes:
            self.add_move(w.table_id, w.seq, w.seat, w.move, w.outcome)
        return [None] * len(writes)

    def set_takeovers(self, table_id: str, takeovers: list[Any]) -> None:
        if self.fail:
            raise OSError("the disk is full")
        self.takeovers.append((table_id, takeovers))


def two_people(seed: int = 5, forced_moves: bool = False) -> Table:
    """A playing Myllymatti table of two people, in memory."""
    game = load("myllymatti", 2)
    seats = [StoredSeat(0, "human", "Anna"), StoredSeat(1, "human", "Ben")]
    state = game.new_state(seed=seed)
    return Table("t1", game, state, seed, seats, "playing", MOMENT, forced_moves=forced_moves)


def parts() -> tuple[Moves, StandIns, Registry, RecordingStore]:
    """Moves and its collaborators, and the store double behind them."""
    store = RecordingStore()
    clock = Clock(lambda: MOMENT)
    registry = Registry(Ownership(), Policy(), clock)
    storage = Storage(store)  # type: ignore[arg-type]
    stand_ins = StandIns(registry, storage, clock)
    return Moves(registry, storage, stand_ins, Ownership(), clock), stand_ins, registry, store


def run(coroutine_fn: Callable[[], Any]) -> Any:
    """Run ``coroutine_fn()`` on a fresh event loop."""
    return asyncio.run(coroutine_fn())


def refusal(coroutine_fn: Callable[[], Any]) -> ApiError:
    """The :class:`ApiError` ``coroutine_fn()`` raises."""
    with pytest.raises(ApiError) as caught:
        run(coroutine_fn)
    return caught.value


# --- the caps -------------------------------------------------------------------------


def test_each_cap_refuses_alone_and_spends_nothing() -> None:
    policy = Policy(max_tables=3, max_bot_tables=2, tables_per_address=2, waiting_per_address=1)
    caps = TableCaps(policy)
    caps.admit(TableCounts(live=2, bot_tables=1, own=1, lone=0), "10.0.0.1", bots_only=False)
    cases = [
        (TableCounts(live=3, bot_tables=0), False, "live tables"),
        (TableCounts(live=0, bot_tables=2), True, "only bots play"),
        (TableCounts(live=0, bot_tables=0, own=2), False, "limit per address"),
        (TableCounts(live=0, bot_tables=0, lone=1), False, "nobody played yet"),
    ]
    for counts, bots_only, words in cases:
        with pytest.raises(ApiError) as caught:
            caps.admit(counts, "10.0.0.2", bots_only)
        assert caught.value.code == "rate_limited"
        assert words in caught.value.message
        assert caught.value.retry_after == 60
    # the refusals spent none of 10.0.0.2's creations: its first table is admitted
    caps.admit(TableCounts(live=0, bot_tables=0), "10.0.0.2", bots_only=False)


def test_the_bot_table_cap_does_not_apply_to_a_table_with_people() -> None:
    caps = TableCaps(Policy(max_bot_tables=1))
    caps.admit(TableCounts(live=1, bot_tables=5), "10.0.0.3", bots_only=False)
    with pytest.raises(ApiError):
        caps.admit(TableCounts(live=1, bot_tables=5), "10.0.0.3", bots_only=True)


def test_the_creation_rate_is_per_address() -> None:
    caps = TableCaps(Policy(create_per_minute=1))
    caps.admit(TableCounts(live=0, bot_tables=0), "10.0.0.4", bots_only=False)
    with pytest.raises(ApiError) as caught:
        caps.admit(TableCounts(live=0, bot_tables=0), "10.0.0.4", bots_only=False)
    assert "a minute" in caught.value.message
    caps.admit(TableCounts(live=0, bot_tables=0), "10.0.0.5", bots_only=False)


# --- whose turn ------------------------------------------------------------------------


def test_whose_turn_is_checked_in_order() -> None:
    table = two_people()
    to_act = table.state.current_player
    assert to_act is not None
    other = 1 - to_act
    assert turns.mover(table, to_act, table.seq, by_bot=False) == (to_act, False)
    for seat, seq, code in [
        (None, 0, "spectator"),
        (to_act, 7, "stale"),
        (other, 0, "not_your_turn"),
    ]:
        with pytest.raises(ApiError) as caught:
            turns.mover(table, seat, seq, by_bot=False)
        assert caught.value.code == code
    # a bot may not move for a person who plays their seat themselves
    with pytest.raises(ApiError) as caught:
        turns.mover(table, to_act, table.seq, by_bot=True)
    assert caught.value.code == "not_your_turn"


def test_a_stand_in_plays_for_its_person_until_they_are_back() -> None:
    table = two_people()
    seat = table.state.current_player
    assert seat is not None
    assert turns.bot_to_act(table) is None
    table.takeovers = [Takeover(seat, 0, "heuristic", "away")]
    assert turns.bot_spec(table, seat) == "heuristic"
    assert turns.bot_to_act(table) == (seat, "heuristic")


# --- a move ----------------------------------------------------------------------------


def test_a_move_is_stored_then_applied() -> None:
    moves, _stand_ins, registry, store = parts()
    table = two_people()
    registry.tables[table.id] = table
    seat = table.state.current_player
    move = table.state.legal_moves()[0]
    run(lambda: moves.move(table, seat, move, 0))
    assert store.moves == [("t1", 0, seat, move, None)]
    assert table.seq == 1 and table.state.moves == [move]
    assert table.turn_since == MOMENT


def test_an_illegal_move_changes_nothing() -> None:
    moves, _stand_ins, registry, store = parts()
    table = two_people()
    registry.tables[table.id] = table
    seat = table.state.current_player
    err = refusal(lambda: moves.move(table, seat, "no such move", 0))
    assert err.code == "illegal_move" and err.seq == 0
    assert store.moves == [] and table.seq == 0 and table.state.moves == []


def test_a_move_that_cannot_be_stored_is_not_applied() -> None:
    moves, _stand_ins, registry, store = parts()
    table = two_people()
    registry.tables[table.id] = table
    store.fail = True
    seat = table.state.current_player
    err = refusal(lambda: moves.move(table, seat, table.state.legal_moves()[0], 0))
    assert err.code == "unavailable"
    assert table.seq == 0 and table.state.moves == []


def test_a_person_who_moves_takes_their_seat_back_from_an_away_stand_in() -> None:
    moves, _stand_ins, registry, store = parts()
    table = two_people()
    registry.tables[table.id] = table
    seat = table.state.current_player
    assert seat is not None
    table.takeovers = [Takeover(seat, 0, "heuristic", "away")]
    err = refusal(lambda: moves.move(table, seat, "no such move", 0))
    assert err.code == "illegal_move"
    assert table.takeovers[0].end is None  # an illegal move leaves the bot playing
    run(lambda: moves.move(table, seat, table.state.legal_moves()[0], 0))
    assert table.takeovers[0].end == 0 and store.takeovers[-1][0] == "t1"


def test_a_resigned_person_cannot_move() -> None:
    moves, _stand_ins, registry, store = parts()
    table = two_people()
    registry.tables[table.id] = table
    seat = table.state.current_player
    assert seat is not None
    table.takeovers = [Takeover(seat, 0, "heuristic", "resigned")]
    err = refusal(lambda: moves.move(table, seat, table.state.legal_moves()[0], 0))
    assert err.code == "resigned"
    assert store.moves == [] and table.seq == 0
