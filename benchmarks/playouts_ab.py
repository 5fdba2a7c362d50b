"""Random playouts of several builds of tikki side by side with OpenSpiel's C++ hearts.

The loop is :mod:`benchmarks.throughput`'s (``game.new_state(seed=k)``, then
``state.play(rng.choice(state.legal_moves()))`` until over; hearts:
``apply_action(rng.choice(legal_actions()))`` with chance nodes sampled, not counted), a
fixed number of games a pass, timed by the process's CPU time (``time.process_time``), the
best of several passes per figure: on a shared, loaded machine CPU time and the best pass
keep the figures steady where the wall clock does not.  Each pass plays games of its own
seeds (pass ``i`` from seed ``1 + i * games``), the same for every build: a pass that
replayed the games of the pass before found every memo of the engine warm for them (Mattis
keeps its phase-2 move lists by hand mask), which made Mattis 17-22 % faster than in a run
of new games.  Each build is measured in its own
process with ``PYTHONPATH`` set to its tree (a source tree: pure Python; a tree compiled by
``.ci/test-compiled.sh``: compiled), hearts in this one; the rounds alternate, and the
table gives each build's moves/s × hearts's of the same round::

    python benchmarks/playouts_ab.py --tree before=/tmp/old --tree after=. \\
        --tree "compiled after=.build-compiled" --rounds 2

OpenSpiel (``pip install -e '.[bench]'``) is needed for the ratios; without it only moves/s
are printed.

``--instructions`` counts instead of timing: each build plays ``--games`` games of each
configuration (seeds 1, 2, …) once under valgrind's callgrind, and the instructions it
executed less those of a run of no games (the imports) are printed, in millions.  The
count does not depend on the machine's load (it varies by about 0.5 % from run to run),
so it tells a change of a few per cent that timings on a loaded machine cannot; it does not
see cache misses, so confirm a gain with the timed table.  Needs ``valgrind``::

    python benchmarks/playouts_ab.py --tree before=/tmp/old --tree after=. --instructions
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("myllymatti", 3, {}),
    ("mattis", 3, {"max_sequence": 2}),
    ("mattis", 3, {"max_sequence": 3}),
    ("mueckenstich", 4, {}),
]
"""The configurations measured (those of the speed targets)."""


def best_rate(one_pass: Callable[[int], int], passes: int) -> float:
    """The best moves/s (CPU time) of ``passes`` runs of ``one_pass`` (given the pass's
    number, it returns moves)."""
    best = 0.0
    for i in range(passes):
        start = time.process_time()
        moves = one_pass(i)
        best = max(best, moves / max(time.process_time() - start, 1e-9))
    return best


def tikki_pass(game: Any, games: int, first: int = 1) -> int:
    """One pass of ``games`` random games of ``game`` through the text API, seeds
    ``first``, ``first + 1``, …; the moves played."""
    rng = random.Random(first)
    moves = 0
    for k in range(first, first + games):
        state = game.new_state(seed=k)
        while not state.is_over:
            state.play(rng.choice(state.legal_moves()))
            moves += 1
    return moves


def hearts_pass(game: Any, games: int) -> int:
    """One pass of ``games`` games of OpenSpiel's ``hearts``; the player moves played."""
    rng = random.Random(1)
    moves = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                r = rng.random()
                outcomes = state.chance_outcomes()
                action = outcomes[-1][0]
                for a, p in outcomes:
                    r -= p
                    if r < 0:
                        action = a
                        break
                state.apply_action(action)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                moves += 1
    return moves


def child_rate(tree: str, index: int, games: int, passes: int) -> float:
    """The best moves/s of configuration ``index`` in a process importing tikki from ``tree``."""
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    args = ["--child", str(index), "--games", str(games), "--passes", str(passes)]
    out = subprocess.run(
        [sys.executable, os.path.abspath(__file__), *args],
        env=env,
        cwd=os.path.abspath(tree),
        capture_output=True,
        text=True,
        check=True,
    )
    return float(out.stdout.split()[-1])


def child_instructions(tree: str, index: int, games: int) -> int:
    """The instructions (callgrind's ``Ir``) that ``games`` games of configuration
    ``index`` cost in a process importing tikki from ``tree``, less a run of no games."""
    counts = []
    for n in (0, games):
        args = ["--child", str(index), "--games", str(n), "--passes", "1"]
        valgrind = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
        out = subprocess.run(
            [*valgrind, sys.executable, os.path.abspath(__file__), *args],
            env=dict(os.environ, PYTHONPATH=os.path.abspath(tree)),
            cwd=os.path.abspath(tree),
            capture_output=True,
            text=True,
            check=True,
        )
        found = re.search(r"Collected : ([0-9,]+)", out.stderr)
        if found is None:
            raise RuntimeError(f"no instruction count from valgrind: {out.stderr[-500:]}")
        counts.append(int(found.group(1).replace(",", "")))
    return counts[1] - counts[0]


def chosen(only: str | None) -> list[int]:
    """The indices of the configurations to measure: those whose label contains ``only``
    (``None``: all)."""
    return [i for i in range(len(CONFIGS)) if only is None or only in label(i)]


def print_instructions(trees: list[list[str]], games: int, only: str | None = None) -> None:
    """The table of ``--instructions``: millions of instructions per build and configuration."""
    print(f"# instructions (millions) of {games} games a configuration, less the imports")
    print(f"{'configuration':38}" + "".join(f"{name:>18}" for name, _ in trees))
    for i in chosen(only):
        counts = [child_instructions(path, i, games) for _, path in trees]
        print(f"{label(i):38}" + "".join(f"{c / 1e6:>18,.1f}" for c in counts), flush=True)


def label(index: int) -> str:
    """The configuration's name, as the table shows it."""
    name, players, options = CONFIGS[index]
    return f"{name} {players}p {options}"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line (see the module's notes)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", action="append", default=[], help="LABEL=PATH (repeatable)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds (default 2)")
    parser.add_argument("--games", type=int, default=100, help="games a pass (default 100)")
    parser.add_argument("--passes", type=int, default=5, help="best of (default 5)")
    parser.add_argument(
        "--instructions", action="store_true", help="count instructions (valgrind), not time"
    )
    parser.add_argument(
        "--only", help="only the configurations whose name contains this (e.g. mattis)"
    )
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    """Measure and print one table a round."""
    args = parse_args(argv)
    if args.child is not None:
        import tikki

        name, players, options = CONFIGS[args.child]
        game = tikki.load(name, players=players, **options)
        rate = best_rate(lambda i: tikki_pass(game, args.games, 1 + i * args.games), args.passes)
        print(f"{rate:.1f}")
        return
    trees = [t.split("=", 1) for t in args.tree] or [["this", "."]]
    if args.instructions:
        print_instructions(trees, args.games, args.only)
        return
    try:
        import pyspiel

        peer = pyspiel.load_game("hearts")
    except ImportError:
        peer = None
    for r in range(1, args.rounds + 1):
        hearts = best_rate(lambda i: hearts_pass(peer, args.games), args.passes) if peer else None
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"\n# round {r}  load average: {load}; OpenSpiel hearts 4p: ", end="")
        print(f"{hearts:,.0f} moves/s" if hearts else "not installed")
        print(f"{'configuration':38}" + "".join(f"{name:>18}" for name, _ in trees))
        for i in chosen(args.only):
            rates = [child_rate(path, i, args.games, args.passes) for _, path in trees]
            cells = [
                f"{x / hearts:.2f}× ({x / 1000:,.0f}k)" if hearts else f"{x:,.0f}" for x in rates
            ]
            print(f"{label(i):38}" + "".join(f"{c:>18}" for c in cells), flush=True)


if __name__ == "__main__":
    main()
