"""Serialisable states, for every game, variant and player count: the engine's states
pickle with their randomness (a restored state goes on exactly as the original), and so do
the OpenSpiel adapter's states and games; with ``chance=seed`` OpenSpiel's own
``serialize_game_and_state`` and ``random_sim_test(serialize=True)`` pass too."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

import tikki
from tests._configs import configurations
from tikki.core import State

CONFIGURATIONS = list(configurations())
IDS = [f"{n}-{p}p-{v}" for n, p, v in CONFIGURATIONS]


def _random_moves(state: State, count: int, rng: random.Random) -> None:
    for _ in range(count):
        if state.is_over:
            return
        state.play(rng.choice(state.legal_moves()))


def _goes_on_alike(a: State, b: State, seed: int) -> None:
    """``a`` and ``b`` played on with the same moves to the end: equal at every step (the
    whole truth, so every later random event: a turned stock card, a dreck, a new deal)."""
    rng = random.Random(seed)
    steps = 0
    while not a.is_over and steps < 400:
        assert a.reveal() == b.reveal()
        assert a.legal_moves() == b.legal_moves()
        move = rng.choice(a.legal_moves())
        a.play(move)
        b.play(move)
        steps += 1
    assert a.reveal() == b.reveal()
    assert a.outcome == b.outcome


@pytest.mark.parametrize(("name", "players", "variant"), CONFIGURATIONS, ids=IDS)
def test_an_engine_state_pickles_with_its_randomness(name: str, players: int, variant: str) -> None:
    game = tikki.load(name, players, variant=variant)
    for seed in (1, 2):
        state = game.new_state(seed=seed)
        _random_moves(state, 15 * seed, random.Random(seed))
        restored = pickle.loads(pickle.dumps(state))
        assert restored.record() == state.record()
        _goes_on_alike(state, restored, seed)


@pytest.mark.parametrize(("name", "players", "variant"), CONFIGURATIONS, ids=IDS)
def test_a_sampled_engine_state_pickles_with_its_randomness(
    name: str, players: int, variant: str
) -> None:
    """A state drawn from a seat's view (no seed: its later random events come from the
    sampler) goes on after a round trip exactly as the original."""
    game = tikki.load(name, players, variant=variant)
    state = game.new_state(seed=3)
    _random_moves(state, 10, random.Random(3))
    seat = state.current_player
    if seat is None:
        return
    sampled = game.sample_state(state.view(seat), random.Random(5))
    _goes_on_alike(sampled, pickle.loads(pickle.dumps(sampled)), 4)


pyspiel = pytest.importorskip("pyspiel")

from tikki.interop import openspiel  # noqa: E402

openspiel.register()


def _game(name: str, players: int, variant: str, extra: str = "") -> Any:
    text = f"{openspiel.PREFIX}{name}(players={players},variant={variant}{extra})"
    return pyspiel.load_game(text)


def _played(game: Any, steps: int, seed: int) -> Any:
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def _same_future(a: Any, b: Any, seed: int) -> None:
    rng = random.Random(seed)
    while not a.is_terminal():
        assert str(a) == str(b) and a.legal_actions() == b.legal_actions()
        action = rng.choice(a.legal_actions())
        a.apply_action(action)
        b.apply_action(action)
    assert b.is_terminal() and a.returns() == b.returns() and str(a) == str(b)


@pytest.mark.parametrize(("name", "players", "variant"), CONFIGURATIONS, ids=IDS)
def test_openspiel_states_and_games_pickle(name: str, players: int, variant: str) -> None:
    game = _game(name, players, variant, ",rng_seed=7")
    state = _played(game, 25, 1)
    restored = pickle.loads(pickle.dumps(state))
    assert restored.history() == state.history()
    assert str(restored) == str(state)
    _same_future(state, restored, 2)
    again = pickle.loads(pickle.dumps(game))  # the sequence of deals goes on alike
    assert str(again) == str(game)
    assert str(_played(again, 3, 1)) == str(_played(game, 3, 1))


@pytest.mark.parametrize(("name", "players", "variant"), CONFIGURATIONS, ids=IDS)
def test_openspiel_serialisation_and_random_sim_test_with_seed_chance(
    name: str, players: int, variant: str
) -> None:
    game = _game(name, players, variant, ",chance=seed")
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = _played(game, 30, 3)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and state2.history() == state.history()
    _same_future(state, state2, 4)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_seed_chance_deals_from_the_seed_its_chance_nodes_choose() -> None:
    game = _game("myllymatti", 3, "standard", ",chance=seed")
    state = game.new_initial_state()
    for byte in (0, 0, 1, 2):
        assert state.is_chance_node()
        assert len(state.chance_outcomes()) == 256
        state.apply_action(byte)
    assert not state.is_chance_node()
    assert state.tikki_state.seed == 258
    assert state.tikki_state.reveal() == tikki.load("myllymatti", 3).new_state(seed=258).reveal()
    with pytest.raises((ValueError, pyspiel.SpielError), match="chance is"):
        _game("myllymatti", 3, "standard", ",chance=dice")
