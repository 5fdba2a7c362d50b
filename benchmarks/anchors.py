"""The bots' anchored ratings: the server's bot levels play each other in an
arena per game and their OpenSkill (Plackett–Luce) ratings become the fixed points of the
people's rating scale (``tikki/server/bot_ratings.json``, shown by ``tikki ratings``).

    python benchmarks/anchors.py --games 60 --jobs 2

Expert (3000 iterations a move) is left out by default: it takes about a second a move.
A level that does not play a game's arena (Learned: its models are for other player
counts) is left out of that game.
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
    args = parser.parse_args()
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


if __name__ == "__main__":
    main()
