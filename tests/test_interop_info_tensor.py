"""The compact information-state tensor of the full games: a fixed-size summary of the
seat's view's history (per seat the cards its moves and entries showed and its counts,
then the last moves), so OpenSpiel's Deep CFR and NFSP get a tensor at the default move
cap; it is a function of the seat's view alone, so it never holds a hidden card."""

from __future__ import annotations

import random

import numpy as np
import pytest

import tikki

pyspiel = pytest.importorskip("pyspiel")
from tikki.interop import openspiel, spiel  # noqa: E402

openspiel.register()

FULL = [("myllymatti", 3), ("myllymatti", 4), ("mattis", 3), ("mueckenstich", 4)]


def _played(name: str, players: int, moves: int, seed: int) -> tikki.State:
    state = tikki.load(name, players).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state.play(rng.choice(state.legal_moves()))
    return state


def test_myllymatti_has_a_compact_tensor_at_the_default_cap() -> None:
    game = pyspiel.load_game("python_tikki_myllymatti(players=3)")
    assert game.get_type().provides_information_state_tensor
    size = game.information_state_tensor_size()
    assert size <= 5_000
    tensor = game.new_initial_state().information_state_tensor(0)
    assert len(tensor) == size


@pytest.mark.parametrize(("name", "players"), FULL)
def test_same_view_same_tensor_whatever_the_hidden_cards(name: str, players: int) -> None:
    game = pyspiel.load_game(f"python_tikki_{name}(players={players})")
    for seed in range(3):
        native = _played(name, players, 25 + 7 * seed, seed)
        seat = native.current_player if native.current_player is not None else 0
        view = native.view(seat)
        other = game.tikki_game.sample_state(view, random.Random(seed + 100))
        assert other.view(seat) == view
        a = spiel.state_from(game, native).information_state_tensor(seat)
        b = spiel.state_from(game, other).information_state_tensor(seat)
        assert a == b


@pytest.mark.parametrize(("name", "players"), FULL)
def test_the_tensor_changes_with_the_view(name: str, players: int) -> None:
    game = pyspiel.load_game(f"python_tikki_{name}(players={players})")
    native = _played(name, players, 10, 5)
    seat = 0
    before = np.array(spiel.state_from(game, native).information_state_tensor(seat))
    seen = [before]
    rng = random.Random(5)
    for _ in range(20):
        native.play(rng.choice(native.legal_moves()))
        now = np.array(spiel.state_from(game, native).information_state_tensor(seat))
        assert len(now) == len(before)
        assert not any(np.array_equal(now, old) for old in seen)  # every move is seen
        seen.append(now)
        if native.is_over:
            break


def test_the_tensor_holds_no_hidden_card() -> None:
    """Seat 0's tensor is the same after every other seat's hand is swapped for other
    unseen cards: the determinizer's worlds differ exactly in what seat 0 cannot see."""
    game = pyspiel.load_game("python_tikki_myllymatti(players=3)")
    native = _played("myllymatti", 3, 30, 11)
    view = native.view(0)
    rng = random.Random(3)
    worlds = [game.tikki_game.sample_state(view, rng) for _ in range(8)]
    hands = {str(w.reveal()["zones"]) for w in worlds}
    assert len(hands) > 1  # the worlds differ in hidden cards
    tensors = {tuple(spiel.state_from(game, w).information_state_tensor(0)) for w in worlds}
    assert tensors == {tuple(spiel.state_from(game, native).information_state_tensor(0))}
