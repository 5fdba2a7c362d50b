"""Is a shedding game's phase 1 hard for CFR once phase 2 is out of the way?

The research ladder's shedding mediums are solved at once (``docs/research.md``, the
ladder): their phase 2 shows every hand (MM-10, AM-9), so most of the tree is played with
nothing hidden.  This experiment asks whether phase 1 alone, where the hands and the stock
*are* hidden, would make a harder rung: it walks a two-player configuration's tree
(:func:`tikki.interop.tree.walk`) with every phase-2 state cut to a terminal worth its exact
minimax value (two players, zero-sum, perfect information: the value under perfect play,
memoised by the public position), so every information set left is phase 1's.  For a
policy that plays phase 2 perfectly the cut tree's NashConv equals the whole game's.
OpenSpiel's C++ ``CFRSolver`` then runs on it, and the current and average policies'
NashConv are printed at iterations 1, 2, 5 and 10 (the ladder's goal for a medium rung:
current NashConv >= 0.1 at 10 iterations, >= 2 decision nodes per information set).

    .venv/bin/python benchmarks/ladder_cut.py myllymatti '{"ranks": 6, "suits": 1, "hand": 2}'
    .venv/bin/python benchmarks/ladder_cut.py myllymatti \\
        '{"ranks": 4, "suits": 2, "hand": 3, "max_moves": 200}'    # about 15 CPU minutes

Deterministic (every deal is enumerated, CFR is exact).  The saved run is
``benchmarks/runs/ladder-cut.txt``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import pyspiel

import tikki
from tikki.interop import tree
from tikki.interop.encoding import canonical_json

CHECKPOINTS = (1, 2, 5, 10)
"""The CFR iterations whose NashConv is printed."""


class Minimax:
    """The exact value of a two-player zero-sum state whose every card is public, for seat 0
    (memoised by the public view and the number of moves played, which the move cap reads)."""

    def __init__(self, collect: str) -> None:
        self.collect = collect
        """The phase whose states are walked, not cut (phase 1)."""
        self.memo: dict[tuple[str, int], float] = {}

    def leaf(self, state: tikki.State) -> list[float] | None:
        """The returns a phase-2 state is worth under perfect play; ``None`` in phase 1."""
        if state.outcome is not None or state.phase == self.collect:
            return None
        value = self.value(state)
        return [value, -value]

    def value(self, state: tikki.State) -> float:
        """Seat 0's return under perfect play from ``state``."""
        outcome = state.outcome
        if outcome is not None:
            return float(outcome["returns"][0])
        view = dict(state.view(None))
        key = (
            canonical_json({k: v for k, v in view.items() if k != "history"}),
            len(view.get("history", ())),
        )
        if key not in self.memo:
            values = []
            for move in state.legal_moves():
                child = state.clone()
                child.play(move)
                values.append(self.value(child))
            self.memo[key] = max(values) if state.current_player == 0 else min(values)
        return self.memo[key]


def measure(name: str, options: dict[str, Any]) -> dict[str, Any]:
    """The cut tree's figures and CFR's curve for ``name`` with two players and ``options``."""
    started = time.process_time()
    game = tikki.load(name, 2, **options)
    cut = Minimax(collect="collect")
    walked = tree.walk(game, cut.leaf)
    row: dict[str, Any] = {"game": name, "options": options, **walked.summary()}
    row["walk_cpu_s"] = round(time.process_time() - started, 1)
    efg = pyspiel.load_efg_game(walked.efg)
    solver = pyspiel.CFRSolver(efg)
    curve = []
    for i in range(1, CHECKPOINTS[-1] + 1):
        solver.evaluate_and_update_policy()
        if i in CHECKPOINTS:
            current = pyspiel.nash_conv(efg, solver.current_policy())
            average = pyspiel.nash_conv(efg, solver.average_policy())
            curve.append(
                {"iteration": i, "current": round(current, 4), "average": round(average, 4)}
            )
    row["cfr"] = curve
    row["cpu_s"] = round(time.process_time() - started, 1)
    return row


def main(argv: list[str] | None = None) -> int:
    """Measure one configuration; print its figures as one JSON line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", choices=("myllymatti", "mattis"))
    parser.add_argument("options", help="research options as JSON, e.g. '{\"ranks\": 6}'")
    args = parser.parse_args(argv)
    try:
        options = json.loads(args.options)
        row = measure(args.game, options)
    except (ValueError, tikki.RulesError) as error:
        print(f"ladder_cut: {error}", file=sys.stderr)
        return 2
    print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
