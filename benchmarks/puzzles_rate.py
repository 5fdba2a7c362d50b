"""How fast ``tikki puzzles build`` finds puzzles: puzzles per CPU minute.

Builds ``--count`` puzzles of each game (seeded, as ``tikki puzzles build --seed`` does) and
prints, per game, the puzzles found, the games played, the positions tried, the process's
CPU seconds and the puzzles per CPU minute (CPU time, not wall time: the rate holds on a
shared machine).  The saved runs: ``benchmarks/runs/puzzles-build.txt``.

Run: ``.venv/bin/python benchmarks/puzzles_rate.py [--games myllymatti,mattis,mueckenstich]
[--count 10] [--seed 1]``.
"""

from __future__ import annotations

import argparse
import time

from tikki import puzzles


def rate(game: str, count: int, seed: int) -> str:
    """One game's line: found, games, tried, CPU seconds, puzzles per CPU minute."""
    start = time.process_time()
    built = puzzles.build(game, count, seed=seed)
    cpu = time.process_time() - start
    found = built.document["count"]
    return (
        f"{game}: {found} puzzles from {built.games} games ({built.tried} positions tried)"
        f" in {cpu:.1f} s CPU: {found / cpu * 60:.1f} per CPU minute"
    )


def main() -> None:
    """Parse the arguments and print one line per game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="myllymatti,mattis,mueckenstich")
    parser.add_argument("--count", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for game in args.games.split(","):
        print(rate(game, args.count, args.seed), flush=True)


if __name__ == "__main__":
    main()
