"""ISMCTS speed: iterations per second on one core, per game, in early positions.

For each game (default player count) and a few seeded positions a few moves into the
game, one ``ismcts`` decision with a fixed iteration budget is timed; the table gives
iterations/s (median over positions) for the default greedy rollouts and for uniform
random rollouts.  Target: ≥ 2,000 iterations/s in a 3-player Myllymatti
phase-1 position.

Run: ``.venv/bin/python benchmarks/search.py [--iterations 1000] [--positions 5]``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from rich.console import Console
from rich.table import Table

import tikki
from tikki.bots.ismcts import ISMCTSBot

GAMES = [("myllymatti", 3), ("mattis", 3), ("mueckenstich", 4)]


def position(name: str, players: int, seed: int, depth: int) -> tuple[tikki.Game, dict]:  # type: ignore[type-arg]
    """A seeded position ``depth`` random moves into a game, from the mover's view."""
    game = tikki.load(name, players=players)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(depth):
        if state.is_over:
            break
        state.play(rng.choice(state.legal_moves()))
    seat = state.current_player
    assert seat is not None
    return game, state.view(seat)


def rate(name: str, players: int, rollout: str, iterations: int, positions: int) -> float:
    """Median iterations/s over ``positions`` positions."""
    rates = []
    for k in range(positions):
        game, view = position(name, players, seed=100 + k, depth=6 + 2 * k)
        bot = ISMCTSBot(seed=k, iterations=iterations, rollout=rollout)
        start = time.perf_counter()
        bot.search(game, view)
        rates.append(bot.last_iterations / (time.perf_counter() - start))
    return statistics.median(rates)


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--positions", type=int, default=5)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[-1]})
    table = Table(title=f"ISMCTS iterations/s (median of {args.positions} positions, one core)")
    for column in ("Game", "Players", "greedy rollouts", "random rollouts"):
        table.add_column(column, justify="right" if column != "Game" else "left")
    for name, players in GAMES:
        if name not in tikki.games():
            continue
        greedy = rate(name, players, "greedy", args.iterations, args.positions)
        uniform = rate(name, players, "random", args.iterations, args.positions)
        table.add_row(name, str(players), f"{greedy:,.0f}", f"{uniform:,.0f}")
    Console().print(table)


if __name__ == "__main__":
    main()
