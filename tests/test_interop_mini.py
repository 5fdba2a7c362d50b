"""Mini games for exact methods: small configurations whose deal is an explicit
chance node, so that OpenSpiel's CFR, exploitability, TabularPolicy and policy_aggregator
run on them."""

from __future__ import annotations

import pyspiel
import pytest
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import cfr, exploitability, get_all_states, policy_aggregator

import tikki
from tikki.core import RulesError
from tikki.interop import openspiel

MINI = [
    "python_tikki_myllymatti(players=2,variant=mini)",
    "python_tikki_mattis(players=2,variant=mini)",
    "python_tikki_mueckenstich(players=3,variant=mini)",
]
"""The mini games, as OpenSpiel game strings."""


@pytest.fixture(scope="module", autouse=True)
def _registered() -> None:
    openspiel.register()


@pytest.mark.parametrize("name", MINI)
def test_the_deal_is_an_explicit_chance_node(name: str) -> None:
    game = pyspiel.load_game(name)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == game.max_chance_outcomes() > 1
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    state.apply_action(outcomes[3][0])
    assert not state.is_chance_node() and state.current_player() == 0
    copy = state.clone()
    assert str(copy) == str(state)


@pytest.mark.parametrize("name", MINI)
def test_information_state_strings_and_tensors_agree(name: str) -> None:
    game = pyspiel.load_game(name)
    states = get_all_states.get_all_states(
        game, include_terminals=False, include_chance_states=False
    )
    keys: dict[tuple[float, ...], str] = {}
    for state in states.values():
        player = state.current_player()
        key = state.information_state_string(player)
        tensor = tuple(state.information_state_tensor(player))
        assert len(tensor) == game.information_state_tensor_size()
        assert keys.setdefault(tensor, key) == key  # one tensor, one information state
    assert len(set(keys.values())) == len(keys)


@pytest.mark.parametrize("name", MINI)
def test_cfr_reduces_exploitability_and_policies_work(name: str) -> None:
    game = pyspiel.load_game(name)
    solver = cfr.CFRSolver(game)
    start = exploitability.nash_conv(game, solver.average_policy())
    # three players: NashConv falls slower (after 3 iterations 0.67 of the start, after 4
    # 0.51; each two-player mini needs 3: 0.53 and 0.41 of the start, 0.62 after 2)
    for _ in range(4 if "mueckenstich" in name else 3):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    assert isinstance(average, policy_lib.TabularPolicy)
    after = exploitability.nash_conv(game, average)
    assert after < 0.6 * start, (start, after)
    uniform = policy_lib.TabularPolicy(game)  # CFR starts from the uniform policy
    assert len(uniform.states) == len(average.states) > 100
    aggregator = policy_aggregator.PolicyAggregator(game)
    players = list(range(game.num_players()))
    mixed = aggregator.aggregate(
        players, [[uniform, average] for _ in players], [[0.5, 0.5] for _ in players]
    )
    between = exploitability.nash_conv(game, mixed)
    assert after - 1e-9 <= between <= start + 1e-9


def test_mueckenstich_mini_deals_and_plays_by_the_rulings() -> None:
    """Mückenstich's mini: three players (MS-2), two colours of ``12 12 M``, two cards
    each, one deal, no discards, one round; only the deck's colours can be named (MS-8,
    MS-10); the 180 deck orders make 33 distinct deals (orders within a hand are one deal),
    with probabilities that add up to one; a deck too small or hands too short to set two
    cards aside are refused; the full game is unchanged and sampled."""
    mini = tikki.load("mueckenstich", 3, variant="mini")
    assert mini.deck() == ["12R", "12R", "MR", "12B", "12B", "MB"]
    state = mini.new_state(deck=["12R", "12R", "12B", "MR", "12B", "MB"])
    assert state.phase == "play" and state.view(0)["hand"] == ["12R", "MR"]  # no discards
    for move in ("12R", "12R", "MB"):  # seat 2 holds no red: a mosquito, it names trump
        state.play(move)
    assert state.legal_moves() == ["trump R", "trump B"]  # MS-8: the deck's colours
    with pytest.raises(tikki.IllegalMove):
        state.play("trump G")
    state.play("trump R")
    assert state.view(None)["tricks"] == [0, 1, 0]  # of the two 12R the later wins (MS-7)
    while not state.is_over:
        state.play(state.legal_moves()[0])
    assert state.outcome is not None and len(state.outcome["rounds"]) == 1
    game = pyspiel.load_game("python_tikki_mueckenstich(players=3,variant=mini)")
    outcomes = game.new_initial_state().chance_outcomes()
    assert len(outcomes) == 33 and sum(p for _, p in outcomes) == pytest.approx(1.0)
    with pytest.raises(RulesError, match="too small for 4 players"):
        tikki.load("mueckenstich", 4, variant="mini")
    with pytest.raises(RulesError, match="cannot set two aside"):
        tikki.load("mueckenstich", 3, hand=2)
    assert len(tikki.load("mueckenstich", 4).deck()) == 64
    full = pyspiel.load_game("python_tikki_mueckenstich(players=3)")
    assert full.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC


def test_the_mini_options_are_checked_and_the_full_game_stays_sampled() -> None:
    mini = tikki.load("myllymatti", 2, variant="mini")
    assert mini.deck() == ["KS", "AS", "KH", "AH"]
    with pytest.raises(RulesError, match="too small for 4 players"):
        tikki.load("myllymatti", 4, variant="mini")
    full = pyspiel.load_game("python_tikki_myllymatti(players=2)")
    assert full.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert not full.new_initial_state().is_chance_node()
