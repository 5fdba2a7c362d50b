"""The OpenSpiel bridge: tikki bots as pyspiel bots, the rollout evaluator, states."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

import tikki
from tikki.core import RulesError
from tikki.interop import openspiel, spiel

pytestmark = pytest.mark.compiled

openspiel.register()


def _game(text: str = "python_tikki_myllymatti(players=3,rng_seed=1)") -> openspiel.TikkiGame:
    game: openspiel.TikkiGame = pyspiel.load_game(text)
    return game


def test_tikki_bots_play_through_evaluate_bots_reproducibly() -> None:
    results = []
    for _ in range(2):
        game = _game()
        bots = [
            spiel.TikkiBot(game, spec, seed=s)
            for s, spec in enumerate(["heuristic", "random", "random"])
        ]
        results.append(evaluate_bots(game.new_initial_state(), bots, np.random.default_rng(0)))
    assert results[0] == results[1]
    assert sorted(results[0]) in ([-1.0, 0.5, 0.5], [-1.0, -1.0, -1.0])


def test_rollout_evaluator_drives_openspiel_ismcts() -> None:
    game = _game("python_tikki_mueckenstich(players=4,rng_seed=2)")
    evaluator = spiel.RolloutEvaluator(n_rollouts=2, seed=3)
    state = game.new_initial_state()
    values = evaluator.evaluate(state)
    assert values.shape == (4,)
    bot = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=20, random_state=np.random.RandomState(0)
    )
    for _ in range(6):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    with pytest.raises(ValueError, match="n_rollouts"):
        spiel.RolloutEvaluator(0)


def test_states_from_tikki_state_deck_and_record() -> None:
    game = _game()
    tgame = tikki.load("myllymatti", 3)
    native = tgame.new_state(seed=9)
    native.play(native.legal_moves()[0])
    wrapped = spiel.state_from(game, native)
    assert wrapped.tikki_state.moves == native.moves and wrapped.tikki_state is not native
    deck = tgame.deck()
    dealt = spiel.state_from_deck(game, deck, seed=4)
    assert dealt.tikki_state.view(0)["hand"] == tgame.new_state(seed=4, deck=deck).view(0)["hand"]
    replayed = spiel.state_from_record(game, native.record())
    assert replayed.history_str() == "" and replayed.tikki_state.moves == native.moves
    assert replayed.legal_actions() == wrapped.legal_actions()
    with pytest.raises(RulesError, match="this OpenSpiel game plays"):
        spiel.state_from(game, tikki.load("mattis", 3).new_state(seed=1))


def test_information_state_tensors_perfect_recall_where_they_fit_compact_elsewhere() -> None:
    game = pyspiel.load_game("python_tikki_myllymatti(players=3,max_moves=150,rng_seed=1)")
    assert game.get_type().provides_information_state_tensor
    state = game.new_initial_state()
    tensor = state.information_state_tensor(0)
    assert len(tensor) == game.information_state_tensor_size() < openspiel.INFO_TENSOR_MAX
    rng = np.random.default_rng(2)
    for _ in range(6):
        state.apply_action(int(rng.choice(state.legal_actions())))
    after = state.information_state_tensor(0)
    assert len(after) == len(tensor) and after != tensor
    full = _game()  # the default cap: the compact tensor (tests/test_interop_info_tensor.py)
    assert full.get_type().provides_information_state_tensor
    assert len(full.new_initial_state().information_state_tensor(0)) <= 5_000
    assert len(full.new_initial_state().observation_tensor(0)) == full.observation_tensor_size()
