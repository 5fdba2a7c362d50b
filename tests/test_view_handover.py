"""A copy played on takes over its parent's built history (``State.take_history``).

The web server plays each move on a copy of the table's state and swaps the copy in; the
copy takes the parent's built history, so that its views extend it by the move instead of
building every entry again.  These tests hold the copies' views to the reference builder
and to a cold clone's (:func:`tests.test_view_incremental._same`), check that the entries
are the parent's own (built once), and that a parent asked again after the handover, or
a copy that is not the parent played on, still reads right.
"""

from __future__ import annotations

import json
import random

import pytest

import tikki
from tests.test_view_incremental import _configs, _same
from tikki.core import JSON, State

pytestmark = pytest.mark.compiled


def _server_walk(state: State, rng: random.Random, seats: list[int | None]) -> State:
    """One move as the server plays it: on a copy, then the copy takes the history."""
    copy = state.clone()
    copy.play(rng.choice(copy.legal_moves()))
    copy.take_history(state)
    if rng.random() < 0.1:  # someone still asks the old state (it builds its own again)
        seat = rng.choice(seats)
        _same(state, seat)
    return copy


@pytest.mark.parametrize(("name", "players", "variant"), _configs())
def test_copies_played_on_read_as_the_reference(name: str, players: int, variant: str) -> None:
    """Every seat's view of a copy that took its parent's history is the reference's."""
    game = tikki.load(name, players=players, variant=variant)
    seats: list[int | None] = [None, *range(players)]
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        kept: list[tuple[State, int | None, str]] = []
        while not state.is_over:
            if rng.random() < 0.3:
                seat = rng.choice(seats)
                view = state.view(seat)
                _same(state, seat, view)
                kept.append((state.clone(), seat, json.dumps(view)))
            state = _server_walk(state, rng, seats)
        for seat in seats:
            _same(state, seat)
        for old_state, seat, text in kept:  # later moves changed no earlier view
            assert json.dumps(old_state.view(seat)) == text


@pytest.mark.parametrize("name", ["myllymatti", "mattis", "mueckenstich"])
def test_a_copy_extends_the_parents_entries(name: str) -> None:
    """The copy's history holds the parent's entries themselves (built once), for the
    public and for each seat; the parent has none left to extend."""
    game = tikki.load(name)
    state = game.new_state(seed=3)
    rng = random.Random(3)
    seats: list[int | None] = [None, *range(game.players)]
    for _ in range(30):
        state.play(rng.choice(state.legal_moves()))
    before: dict[int | None, list[JSON]] = {s: state.history(s) for s in seats}
    copy = state.clone()
    copy.play(rng.choice(copy.legal_moves()))
    copy.take_history(state)
    for seat in seats:
        after = copy.history(seat)
        assert len(after) == len(before[seat]) + 1
        assert all(a is b for a, b in zip(after, before[seat][:-1], strict=False)), seat
    assert state._history_book is None  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ["myllymatti", "mattis", "mueckenstich"])
def test_a_state_that_is_not_a_copy_played_on_takes_nothing(name: str) -> None:
    """A state of another deal, one with fewer moves, or one with a history of its own
    keeps its own; the parent keeps its history."""
    game = tikki.load(name)
    rng = random.Random(5)
    state = game.new_state(seed=5)
    for _ in range(20):
        state.play(rng.choice(state.legal_moves()))
    state.view(None)["history"]  # a view whose history was read
    other = game.new_state(seed=6)
    for _ in range(25):
        other.play(random.Random(6).choice(other.legal_moves()))
    behind = game.new_state(seed=5)
    built = state.clone()
    built.view(None)["history"]
    for stranger in (other, behind, built):
        kept = stranger._history_book  # type: ignore[attr-defined]
        stranger.take_history(state)
        assert stranger._history_book is kept  # type: ignore[attr-defined]
        assert state._history_book is not None  # type: ignore[attr-defined]
        for seat in (None, 0):
            _same(stranger, seat)
