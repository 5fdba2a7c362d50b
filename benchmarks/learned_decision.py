"""What one ``learned`` decision costs at the web table, beside ``heuristic``'s.

The server decides a cheap bot's move on its event loop (``botplay.CHEAP``) and any other
in a worker; "cheap" means well under a millisecond.  This times ``botplay.choose`` as the
server calls it (the bot made for the decision, then its move from the seat's view) at
every decision with two or more legal moves of seeded games of each shipped model's game
and player count, played by ``learned`` at every seat.

Run: ``.venv/bin/python benchmarks/learned_decision.py [--games 4] [--seed 0]``
"""

from __future__ import annotations

import argparse
import statistics
import time

from rich.console import Console
from rich.table import Table

import tikki
from tikki.server import botplay

SPECS = ("learned", "heuristic")


def timings(name: str, players: int, games: int, seed: int) -> dict[str, list[float]]:
    """Seconds per decision of each of :data:`SPECS` on the positions of ``games`` games."""
    game = tikki.load(name, players)
    times: dict[str, list[float]] = {spec: [] for spec in SPECS}
    for g in range(seed, seed + games):
        state = game.new_state(seed=g)
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            view = state.view(seat)
            move = view["legal_moves"][0]
            if len(view["legal_moves"]) > 1:
                for spec in SPECS:
                    start = time.perf_counter()
                    chosen = botplay.choose(spec, game, view, g)
                    times[spec].append(time.perf_counter() - start)
                    move = chosen if spec == "learned" else move
            state.play(move)
    return times


def main() -> None:
    """Print the table: decisions, median and 90th percentile in ms, per game and bot."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    table = Table(title="one decision at the web table (botplay.choose), ms")
    for column in ("game", "players", "bot", "decisions", "median", "p90"):
        table.add_column(column, justify="left" if column in ("game", "bot") else "right")
    for name, counts in botplay.learned_games().items():
        for players in counts:
            for spec, seconds in timings(name, players, args.games, args.seed).items():
                ms = sorted(s * 1000 for s in seconds)
                p90 = ms[int(0.9 * (len(ms) - 1))]
                row = (name, str(players), spec, str(len(ms)))
                table.add_row(*row, f"{statistics.median(ms):.3f}", f"{p90:.3f}")
    Console().print(table)


if __name__ == "__main__":
    main()
