"""Bot strength: the arena targets of issue 5, each run and checked, one table.

Targets ("X vs Y": one X against n−1 Y, seats rotated over duplicate deals, the arena's
seating):

* ``myllymatti-heuristic``, ``mattis-heuristic``: ``heuristic`` vs two ``random`` loses
  ≤ 12% of 3-player games;
* ``myllymatti-ismcts``, ``mattis-ismcts``: ``ismcts`` at 1,000 iterations per move vs
  two ``heuristic`` loses ≤ 25% of 3-player games (at least 300 games);
* ``mueckenstich-heuristic``: ``heuristic`` beats three ``random`` by ≥ 3 points a round;
* ``mueckenstich-ismcts``: ``ismcts`` vs three ``heuristic``: the 95% interval of its
  mean score advantage per round lies above 0.

Each line gives the exact ``tikki arena`` command that reproduces it.  Progress (one line
per finished game) goes to stderr.  The full runs take hours on one core; ``--games``
makes a quick, noisy check.

Run: ``.venv/bin/python benchmarks/strength.py [--targets mattis-ismcts,...]
[--games 300] [--seed 12] [--mueckenstich-ismcts ismcts:iterations=500]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table

from tikki import arena


@dataclass(frozen=True)
class Target:
    """One arena target: game, lineup and the figure that must be met."""

    name: str
    game: str
    players: int
    bots: tuple[str, str]
    limit: float
    """Loss-rate ceiling (shedding games) or advantage floor per round (Mückenstich)."""


TARGETS = (
    Target("myllymatti-heuristic", "myllymatti", 3, ("heuristic", "random"), 0.12),
    Target("myllymatti-ismcts", "myllymatti", 3, ("ismcts:iterations=1000", "heuristic"), 0.25),
    Target("mattis-heuristic", "mattis", 3, ("heuristic", "random"), 0.12),
    Target("mattis-ismcts", "mattis", 3, ("ismcts:iterations=1000", "heuristic"), 0.25),
    Target("mueckenstich-heuristic", "mueckenstich", 4, ("heuristic", "random"), 3.0),
    Target("mueckenstich-ismcts", "mueckenstich", 4, ("ismcts:iterations=500", "heuristic"), 0.0),
)


def measure(target: Target, games: int, seed: int) -> tuple[str, str, bool, str]:
    """Run one target; return its figure, interval, whether it is met, and the command."""
    spec = arena.ArenaSpec(
        target.game,
        target.players,
        {},
        arena.lineup_for(target.players, target.bots),
        games,
        seed,
    )
    start = time.perf_counter()

    def progress(result: arena.GameResult) -> None:
        elapsed = time.perf_counter() - start
        print(f"{target.name}: game {result.index + 1}/{games} {elapsed:.0f}s", file=sys.stderr)

    results = arena.run(spec, jobs=1, on_result=progress)
    figures = arena.summarize(results, spec.lineup)[0].as_dict()
    command = (
        f"tikki arena {target.game} --players {target.players} --bots {','.join(target.bots)} "
        f"--games {games} --jobs 1 --seed {seed}"
    )
    if "loss_rate" in figures:
        low, high = figures["loss_ci"]
        met = figures["loss_rate"] <= target.limit
        return f"loss {figures['loss_rate']:.1%}", f"{low:.1%}–{high:.1%}", met, command
    low, high = figures["advantage_ci"]
    met = low > target.limit if target.limit == 0.0 else figures["mean_advantage"] >= target.limit
    return f"advantage {figures['mean_advantage']:+.2f}", f"{low:+.2f}–{high:+.2f}", met, command


def main() -> None:
    """Run the chosen targets and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--targets", default=",".join(t.name for t in TARGETS))
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument(
        "--mueckenstich-ismcts", default=None, help="the ismcts spec for mueckenstich-ismcts"
    )
    args = parser.parse_args()
    chosen = [t for t in TARGETS if t.name in args.targets.split(",")]
    table = Table(title=f"Bot strength ({args.games} games a target, seed {args.seed}, one core)")
    for column in ("Target", "Figure", "95% interval", "Met", "Command"):
        table.add_column(column)
    for target in chosen:
        if target.name == "mueckenstich-ismcts" and args.mueckenstich_ismcts:
            target = Target(
                target.name,
                target.game,
                target.players,
                (args.mueckenstich_ismcts, "heuristic"),
                target.limit,
            )
        figure, interval, met, command = measure(target, args.games, args.seed)
        table.add_row(target.name, figure, interval, "yes" if met else "NO", command)
    Console(width=200).print(table)


if __name__ == "__main__":
    main()
