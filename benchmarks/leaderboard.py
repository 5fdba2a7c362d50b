"""The leaderboard of docs/research.md: each bot against fixed opponents, per game.

Protocol (docs/design.md, "Measuring strength"): "X vs Y" is one X against n−1 Y, seats
rotated over duplicate deals (each deal played n times, X in every seat), the arena seed
fixing every deal and bot seed.  Shedding games report X's loss rate with a Wilson 95%
interval (an equal share is 1/n; an abandoned game counts as a loss); Mückenstich reports
X's score per round minus the other seats' mean, with a 95% interval clustered by deal.
Search bots get work budgets (``iterations``), not seconds, so a run is reproducible::

    .venv/bin/python benchmarks/leaderboard.py --deals 10 --jobs 2 > leaderboard.md
    nice -n 5 .venv/bin/python benchmarks/leaderboard.py --deals 200 \
        --out benchmarks/runs/leaderboard-200.jsonl > leaderboard.md

With ``--out`` every cell is appended to a JSONL file as it finishes (its figures, its
interval, its CPU seconds) and a cell already there (same game, bot, opponent, deals and
seed) is read back instead of played, so a long run can be stopped and resumed; a
progress line per cell goes to stderr.  ``--estimate`` plays one deal of each cell and
prints the CPU time the whole table would take at ``--deals``.

A learned agent beats a row when its own figure, measured the same way (``tikki.rl``
envs with ``opponents=[Y]``, or a bot registered with ``bots.register_bot`` in this
script's lineup), is better than that row's interval.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from tikki import arena

GAMES = (("myllymatti", 3), ("mattis", 3), ("mueckenstich", 4))
"""The games and player counts of the table."""
BOTS = ("random", "heuristic", "ismcts:iterations=100", "expert:iterations=100")
"""The bots measured (rows)."""
OPPONENTS = ("random", "heuristic")
"""The fixed opponents (columns)."""


def measure(
    game: str, players: int, bot: str, opponent: str, deals: int, seed: int, jobs: int
) -> dict[str, Any]:
    """One cell's figures: ``bot`` vs ``opponent`` over ``deals`` duplicate deals."""
    lineup = arena.lineup_for(players, [bot, opponent])
    spec = arena.ArenaSpec(game, players, {}, lineup, deals * players, seed)
    started = time.process_time()
    results = arena.run(spec, jobs)
    stats = arena.summarize(results, lineup)[0].as_dict()
    keep = ("games", "abandoned", "forfeits", "losses", "loss_rate", "loss_ci")
    keep += ("mean_advantage", "advantage_ci", "mean_score_per_round", "score_ci")
    return {
        "game": game,
        "players": players,
        "bot": bot,
        "opponent": opponent,
        "deals": deals,
        "seed": seed,
        **{k: stats[k] for k in keep if k in stats},
        "cpu_s": round(time.process_time() - started, 1),
    }


def text(figures: dict[str, Any]) -> str:
    """A cell's figure with its interval, as the tables show it."""
    if "loss_rate" in figures:
        low, high = figures["loss_ci"]
        return f"{figures['loss_rate']:.0%} ({low:.0%}–{high:.0%})"
    low, high = figures["advantage_ci"]
    return f"{figures['mean_advantage']:+.1f} ({low:+.1f} to {high:+.1f})"


def cell(game: str, players: int, bot: str, opponent: str, deals: int, seed: int, jobs: int) -> str:
    """One figure of the table: ``bot`` vs ``opponent`` over ``deals`` duplicate deals."""
    return text(measure(game, players, bot, opponent, deals, seed, jobs))


def saved(path: Path | None) -> dict[tuple[Any, ...], dict[str, Any]]:
    """The cells of an earlier run in ``path`` (JSONL), by their key."""
    if path is None or not path.exists():
        return {}
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return {key(r["game"], r["bot"], r["opponent"], r["deals"], r["seed"]): r for r in rows}


def key(game: str, bot: str, opponent: str, deals: int, seed: int) -> tuple[Any, ...]:
    """What makes two cells the same measurement."""
    return (game, bot, opponent, deals, seed)


def estimate(bots: list[str], deals: int, seed: int) -> None:
    """Play one deal of every cell; print each cell's and the table's CPU time at ``deals``."""
    total = 0.0
    for game, players in GAMES:
        for bot in bots:
            for y in OPPONENTS:
                one = measure(game, players, bot, y, 1, seed, 1)["cpu_s"]
                total += one * deals
                print(f"{game} {bot} vs {y}: {one} CPU s a deal", flush=True)
    print(f"the table at {deals} deals a cell: about {total / 60:.0f} CPU minutes")


def main(argv: list[str] | None = None) -> None:
    """Play every cell and print the Markdown tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10, help="duplicate deals per cell")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--bots", default=",".join(BOTS), help="rows, ';'-free specs by comma")
    parser.add_argument("--out", type=Path, help="append each cell to this JSONL (resumable)")
    parser.add_argument("--estimate", action="store_true", help="time one deal a cell")
    args = parser.parse_args(argv)
    bots = [b for b in args.bots.split(",") if b]
    if args.out is not None and not args.out.parent.is_dir():
        sys.exit(f"no such folder: {args.out.parent}")
    if args.estimate:
        estimate(bots, args.deals, args.seed)
        return
    done, start = saved(args.out), time.monotonic()
    cells, count = len(GAMES) * len(bots) * len(OPPONENTS), 0
    for game, players in GAMES:
        measure_name = "loss rate" if game != "mueckenstich" else "score advantage per round"
        print(f"\n{game}, {players} players: X's {measure_name} as one X vs {players - 1} Y")
        print(f"({args.deals} deals × {players} seatings per cell, seed {args.seed})\n")
        print("| X \\ Y | " + " | ".join(OPPONENTS) + " |")
        print("|---|" + "---|" * len(OPPONENTS))
        for bot in bots:
            row = []
            for y in OPPONENTS:
                figures = done.get(key(game, bot, y, args.deals, args.seed))
                if figures is None:
                    figures = measure(game, players, bot, y, args.deals, args.seed, args.jobs)
                    if args.out is not None:
                        with args.out.open("a", encoding="utf-8") as f:
                            f.write(json.dumps(figures) + "\n")
                count += 1
                elapsed = time.monotonic() - start
                print(
                    f"[{count}/{cells}] {game} {bot} vs {y}: {text(figures)} "
                    f"({elapsed:.0f} s so far)",
                    file=sys.stderr,
                    flush=True,
                )
                row.append(text(figures))
            print(f"| `{bot}` | " + " | ".join(row) + " |", flush=True)
    print(f"\n(took {time.monotonic() - start:.0f} s)")


if __name__ == "__main__":
    main()
