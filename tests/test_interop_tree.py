"""An explicit-deal rung's whole tree as an EFG game: OpenSpiel's C++ CFR on it gives
the Python adapter's figures (the mini's documented NashConv), and the medium rung has
the size and the hidden information the research ladder states (docs/research.md)."""

from __future__ import annotations

import pytest

import tikki

pyspiel = pytest.importorskip("pyspiel")
from tikki.interop import tree  # noqa: E402


def test_the_mini_as_efg_gives_the_documented_cfr_curve() -> None:
    walked = tree.walk(tikki.load("myllymatti", 2, variant="mini"))
    assert (walked.deals, walked.histories, walked.infosets) == (24, 1593, 988)
    game = pyspiel.load_efg_game(walked.efg)
    assert pyspiel.nash_conv(game, pyspiel.UniformRandomPolicy(game)) == pytest.approx(
        1.0139, abs=1e-4
    )
    solver = pyspiel.CFRSolver(game)
    for _ in range(10):
        solver.evaluate_and_update_policy()
    assert pyspiel.nash_conv(game, solver.average_policy()) == pytest.approx(0.1597, abs=1e-4)


def test_the_medium_rung_is_between_leduc_and_the_full_game() -> None:
    walked = tree.walk(tikki.load("mattis", 2, variant="medium"))
    assert walked.histories == 19_705 > 9_457  # Leduc's histories
    assert walked.per_infoset >= 2.0  # Kuhn's decision nodes per information set


def test_a_full_game_is_refused_in_words() -> None:
    with pytest.raises(ValueError, match="explicit chance node"):
        tree.walk(tikki.load("myllymatti", 3))
