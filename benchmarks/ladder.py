"""The research ladder's rungs measured: tree size and CFR / CFR+ curves.

Each explicit-deal rung (``mini``, ``medium``) is walked once with tikki's engine and
loaded into OpenSpiel as a C++ EFG game (:mod:`tikki.interop.tree`); OpenSpiel's C++
``CFRSolver`` and ``CFRPlusSolver`` then run on it, and ``pyspiel.nash_conv`` measures the
current and the average policy at each checkpoint. Deterministic: no randomness at all
(the deals are enumerated, CFR is exact), so ``--seed`` is not needed.

    .venv/bin/python benchmarks/ladder.py --out benchmarks/runs/ladder.json
    .venv/bin/python benchmarks/ladder.py --only mattis:medium --iterations 20
    .venv/bin/python benchmarks/ladder.py --config mueckenstich 3 '{"colours": 1, "hand": 3}'

``--only`` measures a subset of the rungs (the larger ones take minutes on a shared
machine); ``--config`` measures a candidate configuration (research options as JSON)
instead of the rungs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import pyspiel

import tikki
from tikki.interop import tree

RUNGS = (
    ("myllymatti", 2, "mini"),
    ("mattis", 2, "mini"),
    ("mueckenstich", 3, "mini"),
    ("myllymatti", 2, "medium"),
    ("mattis", 2, "medium"),
    ("mueckenstich", 3, "medium"),
)
CHECKPOINTS = (1, 2, 5, 10, 20, 50, 100, 200)


def curve(game: Any, solver_cls: Any, iterations: int) -> list[dict[str, float]]:
    """NashConv of the current and the average policy at each checkpoint."""
    solver = solver_cls(game)
    points = []
    for i in range(1, iterations + 1):
        solver.evaluate_and_update_policy()
        if i in CHECKPOINTS or i == iterations:
            points.append(
                {
                    "iteration": i,
                    "current": round(pyspiel.nash_conv(game, solver.current_policy()), 4),
                    "average": round(pyspiel.nash_conv(game, solver.average_policy()), 4),
                }
            )
    return points


def measure(name: str, players: int, options: dict[str, Any], iterations: int) -> dict[str, Any]:
    """One rung (or candidate): its tree's figures and both solvers' curves."""
    started = time.perf_counter()
    loaded = tikki.load(name, players, **options)
    walked = tree.walk(loaded)
    game = pyspiel.load_efg_game(walked.efg)
    walk_s = time.perf_counter() - started
    uniform = pyspiel.nash_conv(game, pyspiel.UniformRandomPolicy(game))
    params = ",".join(
        f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in options.items()
    )
    row: dict[str, Any] = {
        "game": f"python_tikki_{name}(players={players},{params})",
        "options": dict(loaded.options),  # a variant's options, resolved
        **walked.summary(),
        "walk_s": round(walk_s, 1),
        "uniform_nash_conv": round(uniform, 4),
    }
    for label, cls in (("cfr", pyspiel.CFRSolver), ("cfr_plus", pyspiel.CFRPlusSolver)):
        t = time.perf_counter()
        row[label] = curve(game, cls, iterations)
        row[f"{label}_s"] = round(time.perf_counter() - t, 1)
    return row


def main(argv: list[str] | None = None) -> int:
    """Measure the rungs; print a line each and save them as JSON with ``--out``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--only", action="append", help="GAME:VARIANT (repeatable)")
    parser.add_argument(
        "--config",
        nargs=3,
        action="append",
        metavar=("GAME", "PLAYERS", "OPTIONS"),
        help="a candidate configuration instead of the rungs (options as JSON; repeatable)",
    )
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    if args.out is not None and not args.out.parent.is_dir():
        print(f"no such folder: {args.out.parent}", file=sys.stderr)
        return 2
    todo: list[tuple[str, int, dict[str, Any]]] = [
        (name, int(players), json.loads(options)) for name, players, options in args.config or ()
    ]
    if not todo:
        todo = [
            (name, players, {"variant": variant})
            for name, players, variant in RUNGS
            if not args.only or f"{name}:{variant}" in args.only
        ]
    rows = []
    for name, players, options in todo:
        row = measure(name, players, options, args.iterations)
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.out is not None:
        command = "benchmarks/ladder.py " + " ".join(argv if argv is not None else sys.argv[1:])
        meta = {"command": command, "iterations": args.iterations}
        args.out.write_text(json.dumps({"meta": meta, "rungs": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
