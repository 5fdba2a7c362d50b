"""The leaderboard of docs/research.md: each bot against fixed opponents, per game.

Protocol (docs/design.md, "Measuring strength"): "X vs Y" is one X against n−1 Y, seats
rotated over duplicate deals (each deal played n times, X in every seat), the arena seed
fixing every deal and bot seed.  Shedding games report X's loss rate with a Wilson 95%
interval (an equal share is 1/n; an abandoned game counts as a loss); Mückenstich reports
X's score per round minus the other seats' mean, with a 95% interval clustered by deal.
Search bots get work budgets (``iterations``), not seconds, so a run is reproducible::

    .venv/bin/python benchmarks/leaderboard.py --deals 10 --jobs 2 > leaderboard.md

A learned agent beats a row when its own figure, measured the same way (``tikki.rl``
envs with ``opponents=[Y]``, or a bot registered with ``bots.register_bot`` in this
script's lineup), is better than that row's interval.
"""

from __future__ import annotations

import argparse
import time

from tikki import arena

GAMES = (("myllymatti", 3), ("mattis", 3), ("mueckenstich", 4))
"""The games and player counts of the table."""
BOTS = ("random", "heuristic", "ismcts:iterations=100", "expert:iterations=100")
"""The bots measured (rows)."""
OPPONENTS = ("random", "heuristic")
"""The fixed opponents (columns)."""


def cell(game: str, players: int, bot: str, opponent: str, deals: int, seed: int, jobs: int) -> str:
    """One figure of the table: ``bot`` vs ``opponent`` over ``deals`` duplicate deals."""
    lineup = arena.lineup_for(players, [bot, opponent])
    spec = arena.ArenaSpec(game, players, {}, lineup, deals * players, seed)
    results = arena.run(spec, jobs)
    stats = arena.summarize(results, lineup)[0].as_dict()
    if "loss_rate" in stats:
        low, high = stats["loss_ci"]
        return f"{stats['loss_rate']:.0%} ({low:.0%}–{high:.0%})"
    low, high = stats["advantage_ci"]
    return f"{stats['mean_advantage']:+.1f} ({low:+.1f} to {high:+.1f})"


def main(argv: list[str] | None = None) -> None:
    """Play every cell and print the Markdown tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10, help="duplicate deals per cell")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--bots", default=",".join(BOTS), help="rows, ';'-free specs by comma")
    args = parser.parse_args(argv)
    bots = [b for b in args.bots.split(",") if b]
    start = time.monotonic()
    for game, players in GAMES:
        measure = "loss rate" if game != "mueckenstich" else "score advantage per round"
        print(f"\n{game}, {players} players: X's {measure} as one X vs {players - 1} Y")
        print(f"({args.deals} deals × {players} seatings per cell, seed {args.seed})\n")
        print("| X \\ Y | " + " | ".join(OPPONENTS) + " |")
        print("|---|" + "---|" * len(OPPONENTS))
        for bot in bots:
            row = [cell(game, players, bot, y, args.deals, args.seed, args.jobs) for y in OPPONENTS]
            print(f"| `{bot}` | " + " | ".join(row) + " |", flush=True)
    print(f"\n(took {time.monotonic() - start:.0f} s)")


if __name__ == "__main__":
    main()
