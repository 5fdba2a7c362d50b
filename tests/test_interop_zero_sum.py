"""Zero-sum where it is: the OpenSpiel adapter declares a configuration zero-sum (or
constant-sum) exactly where the returns of every terminal history sum to one number, so
that OpenSpiel's zero-sum tools run on the minis; every game, variant and player count is
checked against its whole tree, walked here through pyspiel."""

from __future__ import annotations

from typing import Any

import pytest

import tikki
from tests._configs import configurations

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python import policy as os_policy  # noqa: E402
from open_spiel.python.algorithms import exploitability  # noqa: E402

from tikki.interop import openspiel  # noqa: E402

openspiel.register()


CONFIGURATIONS = list(configurations())


def _load(name: str, players: int, variant: str) -> Any:
    return pyspiel.load_game(f"{openspiel.PREFIX}{name}(players={players},variant={variant})")


def terminal_sums(game: Any) -> dict[float, int]:
    """How many terminal histories of ``game`` (an explicit chance node's tree) have each
    sum of returns: every history walked through pyspiel's own interface."""
    sums: dict[float, int] = {}
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            total = round(sum(state.returns()), 9)
            sums[total] = sums.get(total, 0) + 1
            continue
        actions = (
            [a for a, _ in state.chance_outcomes()]
            if state.is_chance_node()
            else state.legal_actions()
        )
        stack.extend(state.child(a) for a in actions)
    return sums


@pytest.mark.parametrize(("name", "players", "variant"), CONFIGURATIONS)
def test_declared_utility_matches_the_whole_tree(name: str, players: int, variant: str) -> None:
    game = _load(name, players, variant)
    utility = game.get_type().utility
    if game.get_type().chance_mode != pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC:
        # Sampled: an abandoned game (the move cap) pays -1 to every seat.
        assert utility == pyspiel.GameType.Utility.GENERAL_SUM
        return
    sums = terminal_sums(game)
    if list(sums) == [0.0]:
        assert utility == pyspiel.GameType.Utility.ZERO_SUM
        assert game.utility_sum() == 0.0
    elif len(sums) == 1:
        assert utility == pyspiel.GameType.Utility.CONSTANT_SUM
        assert game.utility_sum() == next(iter(sums))
    else:
        assert utility == pyspiel.GameType.Utility.GENERAL_SUM


def test_the_two_player_shedding_minis_are_zero_sum_and_muckenstichs_is_not() -> None:
    """The issue's counts: all 560 (Myllymatti) and 224 (Mattis) terminals pay ±1."""
    assert terminal_sums(_load("myllymatti", 2, "mini")) == {0.0: 560}
    assert terminal_sums(_load("mattis", 2, "mini")) == {0.0: 224}
    assert len(terminal_sums(_load("mueckenstich", 3, "mini"))) > 1
    for name in ("myllymatti", "mattis"):
        assert _load(name, 2, "mini").get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    mini = _load("mueckenstich", 3, "mini").get_type().utility
    assert mini == pyspiel.GameType.Utility.GENERAL_SUM


def test_an_abandoned_full_game_is_why_the_full_games_are_general_sum() -> None:
    state = tikki.load("myllymatti", 2, max_moves=4).new_state(seed=1)
    while not state.is_over:
        state.play(state.legal_moves()[0])
    outcome = state.outcome
    assert outcome is not None and outcome["abandoned"]
    assert sum(outcome["returns"]) == -2


@pytest.mark.parametrize(("name", "nash_conv"), [("myllymatti", 1.014), ("mattis", 0.722)])
def test_exploitability_runs_on_the_two_player_minis(name: str, nash_conv: float) -> None:
    """OpenSpiel's ``exploitability`` (two-player zero- or constant-sum games only) runs,
    and gives half the uniform policy's NashConv that docs/research.md states."""
    game = _load(name, 2, "mini")
    value = exploitability.exploitability(game, os_policy.UniformRandomPolicy(game))
    assert value == pytest.approx(nash_conv / 2, abs=5e-4)
