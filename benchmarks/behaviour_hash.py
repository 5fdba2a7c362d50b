"""Fingerprints of the engine's and the bots' behaviour, to show a restructuring changed none.

Plays fixed-seed games of every game, variant and player count through the public API
(random moves, then the heuristic and ISMCTS bots) and hashes everything observable: each
move, every seat's view and the public view after it, the record and the outcome.  Run it
on two commits and compare the tables (the digests must be equal)::

    python benchmarks/behaviour_hash.py                       # this checkout
    git worktree add /tmp/old <commit>
    PYTHONPATH=/tmp/old python benchmarks/behaviour_hash.py   # the old code, same venv

The set-ups are the rules' own (no research options), so a commit that adds options keeps
the same digests, except where views and records echo the options: ``--ignore-options``
leaves those out.  Prints one row per set-up; ``--games`` sets the random games per row.
``--expert SPEC`` adds a column: one game per set-up with ``SPEC`` in every seat (e.g.
``expert:iterations=20``; ``expert:iterations=20:inference=off`` on this checkout against
``expert:iterations=20`` on a commit before the option shows the option's ``off`` is the
expert of before).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from typing import Any

import tikki
from tikki import bots

SETUPS: list[tuple[str, int, dict[str, Any]]] = [
    ("myllymatti", 2, {}),
    ("myllymatti", 3, {}),
    ("myllymatti", 4, {}),
    ("myllymatti", 4, {"variant": "koira"}),
    ("myllymatti", 3, {"take": "all", "runs": True}),
    ("mattis", 2, {}),
    ("mattis", 3, {}),
    ("mattis", 5, {}),
    ("mueckenstich", 3, {}),
    ("mueckenstich", 4, {}),
    ("mueckenstich", 6, {}),
]
"""Every game, variant and a spread of player counts, with the rules' options."""

BOT_LINEUPS = (("heuristic",), ("ismcts:iterations=40", "heuristic"))
"""The bots of the bot games (cycled over the seats)."""


def _digest(parts: list[str]) -> str:
    """A short digest of the texts in order."""
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:16]


IGNORE_OPTIONS = False
"""``--ignore-options``: leave out the ``options`` echoed in views and records (a commit
that adds an option with a default adds it there, and nothing else changes)."""


def _dump(value: Any) -> str:
    if IGNORE_OPTIONS and isinstance(value, dict) and "options" in value:
        value = {k: v for k, v in value.items() if k != "options"}
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def random_games(name: str, players: int, options: dict[str, Any], games: int) -> str:
    """The digest of ``games`` random games: moves, every view after each move, records."""
    game = tikki.load(name, players=players, **options)
    parts: list[str] = []
    for seed in range(games):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            move = rng.choice(state.legal_moves())
            state.play(move)
            parts.append(move)
            parts.extend(_dump(state.view(seat)) for seat in [*range(players), None])
        parts.append(_dump(state.record()))
        parts.append(_dump(state.outcome))
    return _digest(parts)


def bot_games(
    name: str, players: int, options: dict[str, Any], lineups: tuple[tuple[str, ...], ...]
) -> str:
    """The digest of one game per lineup of ``lineups``: each bot's move."""
    game = tikki.load(name, players=players, **options)
    parts: list[str] = []
    for n, lineup in enumerate(lineups):
        seated = [bots.make(lineup[s % len(lineup)], seed=100 * n + s) for s in range(players)]
        state = game.new_state(seed=1000 + n)
        while not state.is_over:
            seat = state.current_player
            assert seat is not None  # a game not over has a seat to move
            move = seated[seat].choose(game, state.view(seat))
            state.play(move)
            parts.append(move)
        parts.append(_dump(state.outcome))
    return _digest(parts)


def main() -> None:
    """Print the table of digests."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="random games per set-up")
    parser.add_argument(
        "--ignore-options", action="store_true", help="leave out the options views echo"
    )
    parser.add_argument("--expert", default="", help="a bot spec for a third column")
    args = parser.parse_args()
    global IGNORE_OPTIONS
    IGNORE_OPTIONS = args.ignore_options
    extra = f" {args.expert + ' games':18}" if args.expert else ""
    print(f"{'set-up':44} {'random games':18} {'bot games':18}{extra}")
    for name, players, options in SETUPS:
        label = f"{name} {players}p {_dump(options)}"
        if args.expert:
            extra = f" {bot_games(name, players, options, ((args.expert,),)):18}"
        print(
            f"{label:44} {random_games(name, players, options, args.games):18} "
            f"{bot_games(name, players, options, BOT_LINEUPS):18}{extra}",
            flush=True,
        )


if __name__ == "__main__":
    main()
