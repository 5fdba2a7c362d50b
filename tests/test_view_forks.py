"""A clone carries its parent's built history and extends it (the web server plays each
move on a copy and swaps it in): the clone's history reuses the parent's entries, says
exactly what a state that never shared anything says, and neither side's later moves
change what the other builds or handed out."""

from __future__ import annotations

import json
import random

import pytest

import tikki
from tikki.core import State

pytestmark = [pytest.mark.engine, pytest.mark.compiled]

SETS = [("myllymatti", 3), ("myllymatti", 2), ("mattis", 3), ("mattis", 5), ("mueckenstich", 4)]


def _cold(name: str, players: int, seed: int, moves: list[str]) -> State:
    """The state after ``moves`` from a fresh deal: nothing built, nothing shared."""
    state = tikki.load(name, players=players).new_state(seed=seed)
    for move in moves:
        state.play(move)
    return state


@pytest.mark.parametrize(("name", "players"), SETS)
def test_a_played_copy_extends_the_history(name: str, players: int) -> None:
    """Play on a copy, ask every seat, swap it in: each history is the cold state's, and
    its entries before the move are the very ones the parent built (not built again)."""
    game = tikki.load(name, players=players)
    seats: list[int | None] = [None, *range(players)]
    rng = random.Random(5)
    state = game.new_state(seed=5)
    shared = 0
    while not state.is_over:
        before = {seat: state.history(seat) for seat in seats}
        copy = state.clone()
        copy.play(rng.choice(copy.legal_moves()))
        for seat in seats:
            got = copy.history(seat)
            shared += sum(a is b for a, b in zip(got, before[seat], strict=False))
        state = copy
    cold = _cold(name, players, 5, state.moves)
    for seat in seats:
        assert json.dumps(state.view(seat)) == json.dumps(cold.view(seat)), seat
    assert shared > len(state.moves) * len(seats) // 2  # most entries carried over


@pytest.mark.parametrize(("name", "players"), SETS)
def test_parent_and_clone_diverge(name: str, players: int) -> None:
    """A clone whose parent played on (and built further) before the clone asked, and
    the parent after the clone built its own: both read as their cold states, and every
    view handed out before reads the same."""
    game = tikki.load(name, players=players)
    seats: list[int | None] = [None, *range(players)]
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        kept: list[tuple[dict[str, object], str]] = []
        while not state.is_over:
            view = state.view(rng.choice(seats))
            kept.append((view, json.dumps(view)))
            if rng.random() < 0.2:
                copy = state.clone()
                for one in (state, copy):  # each plays its own moves, parent first
                    for _ in range(rng.randrange(0, 4)):
                        if not one.is_over:
                            one.play(rng.choice(one.legal_moves()))
                            one.view(rng.choice(seats))
                for one in (copy, state):
                    cold = _cold(name, players, seed, one.moves)
                    for seat in seats:
                        assert json.dumps(one.view(seat)) == json.dumps(cold.view(seat))
                state = copy if rng.random() < 0.5 else state
            if not state.is_over:
                state.play(rng.choice(state.legal_moves()))
        assert all(json.dumps(view) == text for view, text in kept)
