"""The view loop against the plain loop, game by game, for A/B runs of two trees.

The loops are :mod:`benchmarks.throughput`'s: the plain one plays
``state.play(rng.choice(state.legal_moves()))``; the view loop asks
``view = state.view(state.current_player)`` before each move, reads ``len(view["hand"])``
and plays ``rng.choice(view["legal_moves"])`` (same seeds, same moves).  Run it with
``PYTHONPATH`` set to the tree measured::

    PYTHONPATH=/tmp/base python benchmarks/views_ab.py --games 200       # CPU time, best of 3
    PYTHONPATH=/tmp/base valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python benchmarks/views_ab.py --games 50 --loop view --only "myllymatti 3p"

``--loop`` plays only that loop once (for callgrind: the instructions of a run less those of
``--games 0``, the imports, are the loop's); without it both loops are timed by CPU time,
the best of ``--passes`` passes, and their ratio (view loop's moves/s × plain's) printed.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from playouts_ab import tikki_pass

import tikki

CONFIGS: list[tuple[str, str, int, dict[str, Any]]] = [
    ("myllymatti 3p", "myllymatti", 3, {}),
    ("myllymatti 3p take=all", "myllymatti", 3, {"take": "all"}),
    ("myllymatti 3p take=bottom", "myllymatti", 3, {"take": "bottom"}),
    ("myllymatti 3p koira", "myllymatti", 3, {"variant": "koira"}),
    ("myllymatti 3p runs", "myllymatti", 3, {"runs": True}),
    ("mattis 3p", "mattis", 3, {"max_sequence": 2}),
    ("mueckenstich 4p", "mueckenstich", 4, {}),
]
"""The configurations: those of throughput.py's view rows that issue 54 names."""


def plain(game: Any, games: int, seed: int) -> int:
    """The plain loop over ``games`` games from seed ``seed``; the moves played
    (:func:`playouts_ab.tikki_pass`'s loop)."""
    return tikki_pass(game, games, seed)


def viewed(game: Any, games: int, seed: int) -> int:
    """The view loop over ``games`` games from seed ``seed``; the moves played."""
    rng = random.Random(seed)
    moves = cards = 0
    for k in range(seed, seed + games):
        state = game.new_state(seed=k)
        while not state.is_over:
            view = state.view(state.current_player)
            cards += len(view["hand"])
            state.play(rng.choice(view["legal_moves"]))
            moves += 1
    return moves


LOOPS: dict[str, Callable[[Any, int, int], int]] = {"plain": plain, "view": viewed}


def best_us(loop: Callable[[Any, int, int], int], game: Any, games: int, passes: int) -> float:
    """The best CPU microseconds a move of ``passes`` passes of ``loop``."""
    best = float("inf")
    for _ in range(passes):
        start = time.process_time()
        moves = loop(game, games, 1)
        best = min(best, (time.process_time() - start) * 1e6 / max(moves, 1))
    return best


def main() -> None:
    """Run the loops named on the command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--loop", choices=sorted(LOOPS))
    parser.add_argument("--only", help="the configurations of these labels, comma-separated")
    args = parser.parse_args()
    for label, name, players, options in CONFIGS:
        if args.only and label not in args.only.split(","):
            continue
        game = tikki.load(name, players=players, **options)
        if args.loop:
            LOOPS[args.loop](game, args.games, 1)
            continue
        p = best_us(plain, game, args.games, args.passes)
        v = best_us(viewed, game, args.games, args.passes)
        print(f"{label}: plain {p:.2f} us/move, view loop {v:.2f} us (x{p / v:.3f})", flush=True)


if __name__ == "__main__":
    main()
