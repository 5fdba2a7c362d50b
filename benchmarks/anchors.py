"""The bots' anchored ratings: the server's bot levels play each other in an
arena per game and their OpenSkill (Plackett–Luce) ratings become the fixed points of the
people's rating scale (``tikki/server/bot_ratings.json``, shown by ``tikki ratings``).

    python benchmarks/anchors.py --games 60 --jobs 2

Expert (3000 iterations a move) is left out by default: it takes about a second a move.
A level that does not play a game's arena (Learned: its models are for other player
counts) is left out of that game.

``--add Expert`` rates one more level against the anchors already written, which stay as
they are (a newcomer rated against established players): only the pairings (trios) with
that level are played, and its line is added to the file.

    python benchmarks/anchors.py --add Expert --games 8 --jobs 2
    python benchmarks/anchors.py --add Expert --against Hard --games 24 --jobs 1
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from pathlib import Path

import tikki
from tikki import arena
from tikki.server.botplay import LEVELS, offered

OUT = Path(__file__).resolve().parents[1] / "tikki" / "server" / "bot_ratings.json"
GAMES = {"myllymatti": 2, "mattis": 2, "mueckenstich": 3}
"""Each game and the number of seats its arena plays."""


def main() -> None:
    """Run the arenas and write the anchors."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=60, help="games per pairing (trio)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--expert", action="store_true", help="let Expert play too (slow)")
    parser.add_argument("--add", metavar="LEVEL", help="rate LEVEL against the kept anchors")
    parser.add_argument(
        "--against",
        metavar="LEVEL",
        action="append",
        help="with --add: play only the pairings (trios) that hold this anchor (repeatable)",
    )
    args = parser.parse_args()
    if args.add:
        add_level(args.add, args.games, args.jobs, args.seed, args.against)
        return
    levels = [(spec, label) for spec, label in LEVELS if args.expert or label != "Expert"]
    out: dict[str, object] = {"seed": args.seed, "games": args.games, "ratings": {}}
    print(f"{'game':<14}{'level':<10}{'spec':<26}{'ordinal':>9}{'mu':>8}{'sigma':>8}")
    for game, players in GAMES.items():
        started = time.monotonic()
        here = offered(tikki.load(game, players))
        specs = tuple(spec for spec, _label in levels if spec in here)
        results = []
        for lineup in itertools.combinations(specs, players):  # every pairing (trio)
            spec = arena.ArenaSpec(
                game=game,
                players=players,
                options={},
                lineup=lineup,
                games=args.games,
                seed=args.seed,
            )
            results += arena.run(spec, jobs=args.jobs)
        rated = arena.ratings(results)
        table = {}
        for bot_spec, label in levels:
            if bot_spec not in here:
                continue
            ordinal, mu, sigma = rated[bot_spec]
            table[bot_spec] = {"label": label, "mu": round(mu, 3), "sigma": round(sigma, 3)}
            print(f"{game:<14}{label:<10}{bot_spec:<26}{ordinal:>9.2f}{mu:>8.2f}{sigma:>8.2f}")
        out["ratings"][game] = table  # type: ignore[index]
        print(f"  ({len(results)} games in {time.monotonic() - started:.0f} s)")
        OUT.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    print(f"written: {OUT}")


def add_level(
    label: str, games: int, jobs: int, seed: int, against: list[str] | None = None
) -> None:
    """Rate the level ``label`` against the anchors in :data:`OUT`, kept fixed, and add it.

    ``against`` names anchors (labels): only the pairings holding one of them are played
    (a strong newcomer learns most from the strongest anchor).
    """
    new = next((spec for spec, name in LEVELS if name == label), None)
    if new is None:
        raise SystemExit(f"error: no level {label!r}: {', '.join(n for _s, n in LEVELS)}")
    saved = json.loads(OUT.read_text(encoding="utf-8"))
    print(f"{'game':<14}{'level':<10}{'spec':<26}{'ordinal':>9}{'mu':>8}{'sigma':>8}")
    for game, players in GAMES.items():
        started = time.monotonic()
        anchored = {s: a for s, a in saved["ratings"][game].items() if s != new}
        if new not in offered(tikki.load(game, players)):
            continue
        results = []
        for others in itertools.combinations(sorted(anchored), players - 1):
            if against and not any(anchored[s]["label"] in against for s in others):
                continue
            lineup = (new, *others)
            spec = arena.ArenaSpec(game, players, {}, lineup, games=games, seed=seed)
            results += arena.run(spec, jobs=jobs)
        fixed = {s: (a["mu"], a["sigma"]) for s, a in anchored.items()}
        ordinal, mu, sigma = arena.ratings(results, fixed=fixed)[new]
        saved["ratings"][game][new] = {"label": label, "mu": round(mu, 3), "sigma": round(sigma, 3)}
        saved.setdefault("added", {})[label] = {
            "games": games,
            "seed": seed,
            "against": against or "all",
        }
        print(f"{game:<14}{label:<10}{new:<26}{ordinal:>9.2f}{mu:>8.2f}{sigma:>8.2f}")
        print(f"  ({len(results)} games in {time.monotonic() - started:.0f} s)")
        OUT.write_text(json.dumps(saved, indent=1) + "\n", encoding="utf-8")
    print(f"written: {OUT}")


if __name__ == "__main__":
    main()
