"""An explicit-deal rung's whole tree as an EFG game: OpenSpiel's C++ CFR on it gives
the Python adapter's figures (the mini's documented NashConv); the deals are those of
every deck order, each counted once (docs/research.md: the ladder)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

import tikki
from tests._benchmarks import script
from tikki.interop.encoding import canonical_json

pyspiel = pytest.importorskip("pyspiel")
from tikki.interop import tree  # noqa: E402
from tikki.interop.openspiel import distinct_deals  # noqa: E402


def _every_order(game: tikki.Game) -> tuple[list[tuple[str, ...]], list[float]]:
    """The deals as every distinct deck order groups them, a hand's cards in any order
    (the definition, slow)."""
    orders = sorted(set(itertools.permutations(game.deck())))
    groups: dict[str, list[tuple[str, ...]]] = {}
    for order in orders:
        zones = game.new_state(seed=0, deck=list(order)).reveal()["zones"]
        hands = {k: sorted(v) if k.startswith("hand ") else v for k, v in zones.items()}
        groups.setdefault(canonical_json(hands), []).append(order)
    deals = sorted(group[0] for group in groups.values())
    size = {group[0]: len(group) for group in groups.values()}
    return deals, [size[d] / len(orders) for d in deals]


@pytest.mark.parametrize(
    ("name", "players", "options"),
    [
        ("myllymatti", 2, {"variant": "mini"}),
        ("mattis", 2, {"ranks": 5, "suits": 1, "hand": 2}),
        ("mueckenstich", 3, {"variant": "mini"}),
        (
            "mueckenstich",
            3,
            {"colours": 2, "values": 1, "mosquitoes": 1, "hand": 1, "discards": False, "rounds": 1},
        ),
    ],
)
def test_the_deals_are_those_of_every_deck_order(
    name: str, players: int, options: dict[str, object]
) -> None:
    game = tikki.load(name, players, **options)
    deals, odds = distinct_deals(game)
    expected, expected_odds = _every_order(game)
    assert deals == expected
    assert odds == pytest.approx(expected_odds, abs=1e-12)


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


def test_a_deal_is_counted_once_whatever_order_a_hand_was_dealt_in() -> None:
    """The shedding games reveal a hand in the order it was dealt; the deals are counted
    once each (two hands of two: 30 deals, not the 120 deck orders), and the walk's
    histories with them: the medium shedding rung holds about one decision node per
    information set, and Mattis's is smaller than Leduc (9,457 histories)."""
    walked = tree.walk(tikki.load("mattis", 2, variant="medium"))
    assert (walked.deals, walked.histories, walked.infosets) == (30, 4_927, 3_064)
    assert walked.per_infoset < 1.02


def test_a_full_game_is_refused_in_words() -> None:
    with pytest.raises(ValueError, match="explicit chance node"):
        tree.walk(tikki.load("myllymatti", 3))


def test_the_unused_cards_of_a_one_deal_round_are_dealt_in_any_order() -> None:
    """A one-round Mückenstich configuration whose deck holds no second deal never uses
    its undealt cards: their order is no part of the game, so a deal is counted once
    whatever order they lie in (``12 12 M M`` of two colours, three hands of two, the
    other two cards a set)."""
    options = {"colours": 2, "values": 1, "mosquitoes": 2, "hand": 2, "discards": False}
    game = tikki.load("mueckenstich", 3, rounds=1, **options)
    orders = sorted(set(itertools.permutations(game.deck())))
    deals = set()
    for order in orders:
        zones = game.new_state(seed=0, deck=list(order)).reveal()["zones"]
        deals.add(canonical_json({k: sorted(v) for k, v in zones.items()}))
    found, odds = distinct_deals(game)
    assert len(found) == len(deals)
    assert sum(odds) == pytest.approx(1.0)


MEDIUM_RUN = (
    Path(__file__).resolve().parent.parent / "benchmarks/runs/ladder-mueckenstich-medium.json"
)
"""The medium Mückenstich rung measured by ``benchmarks/ladder.py`` (minutes: not rerun here)."""
KUHN_PER_INFOSET = 2.0
LEDUC_HISTORIES = 9_457


def test_the_medium_rung_is_the_measured_one_and_meets_the_ladder_goal() -> None:
    """The declared medium Mückenstich rung is the configuration of the saved run (its
    options and its 417 deals), and that run meets the ladder's goal: a tree between
    Leduc's and 10^8 histories, at least Kuhn's 2 decision nodes per information set,
    and CFR's current policy at NashConv 0.1 or more after 10 iterations."""
    game = tikki.load("mueckenstich", 3, variant="medium")
    deals, odds = distinct_deals(game)
    assert len(deals) == 417
    assert sum(odds) == pytest.approx(1.0)
    (row,) = json.loads(MEDIUM_RUN.read_text())["rungs"]
    assert row["options"] == dict(game.options)
    assert row["deals"] == len(deals)
    assert LEDUC_HISTORIES < row["histories"] < 10**8
    assert row["per_infoset"] >= KUHN_PER_INFOSET
    (at_10,) = (p for p in row["cfr"] if p["iteration"] == 10)
    assert at_10["current"] >= 0.1


def test_a_cut_walk_makes_the_leafs_states_terminals_worth_its_returns() -> None:
    game = tikki.load("myllymatti", 2, variant="mini")
    whole = tree.walk(game)
    assert tree.walk(game, lambda state: None).efg == whole.efg  # no cut: the same tree
    cut = tree.walk(game, lambda state: [0.25, -0.25])  # every deal's first state cut
    assert (cut.histories, cut.terminals, cut.decisions, cut.infosets) == (
        1 + cut.deals,
        cut.deals,
        0,
        0,
    )
    assert cut.efg.count("{ 0.25, -0.25 }") == cut.deals


def test_the_shedding_phase_one_alone_is_solved_at_once() -> None:
    """docs/research.md (the ladder): with phase 2 cut to its exact minimax value, the cut
    tree has more than one decision node per information set, and CFR's current policy
    is still an exact equilibrium after 10 iterations (``benchmarks/ladder_cut.py``)."""
    row = script("ladder_cut").measure("myllymatti", {"ranks": 6, "suits": 1, "hand": 2})
    assert (row["histories"], row["infosets"], row["per_infoset"]) == (5581, 1425, 2.4)
    assert [p["current"] for p in row["cfr"]][-1] == 0.0
