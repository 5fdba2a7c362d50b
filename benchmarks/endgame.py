"""The exact endgame search: how often it decides, and how fast.

Myllymatti phase-2 positions (perfect information, MM-10) with at most K cards in the
hands are reached from seeds by random play that sheds nine times in ten; at each, the
seat to act runs :meth:`tikki.bots.endgame.Solver.move_values` with a budget of
``--nodes`` positions (about what ``expert``'s ``solve`` share buys in a move).  Per K the
table gives the share of positions *decided* (a move proven to escape, or every move
proven), the share with a proven escape, the share with at least one move proven lost,
and positions searched per second.

Run: ``.venv/bin/python benchmarks/endgame.py [--cards 4,6,8,12,16] [--positions 30]
[--nodes 2000] [--players 3]``.
"""

from __future__ import annotations

import argparse
import time

from rich.console import Console
from rich.table import Table

import tikki
from tikki.bots.endgame import DRAW, LOSS, WIN, Solver, endgame_position
from tikki.core import Game, State


def position(game: Game, seed: int, cards: int) -> State | None:
    """A phase-2 state with at most ``cards`` cards in hands and a choice to make (None if
    the game ended first or the seat has one move)."""
    state = endgame_position(game, seed, cards)
    return None if state is None or len(state.legal_moves()) < 2 else state


def main() -> None:
    """Solve the positions and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", default="4,6,8,12,16")
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--players", type=int, default=3)
    args = parser.parse_args()
    game = tikki.load("myllymatti", players=args.players)
    table = Table(
        title=f"Myllymatti {args.players}p phase-2 endgames, {args.nodes} positions a search"
    )
    for column in (
        "Cards ≤",
        "Positions",
        "Decided",
        "Proven escape",
        "A move proven lost",
        "Nodes/s",
    ):
        table.add_column(column)
    for cards in (int(c) for c in args.cards.split(",")):
        found = decided = escape = lost = nodes = 0
        spent = 0.0
        seed = 0
        while found < args.positions and seed < args.positions * 20:
            state = position(game, seed, cards)
            seed += 1
            if state is None:
                continue
            seat = state.current_player
            assert seat is not None
            solver = Solver(seat)
            start = time.perf_counter()
            values = solver.move_values(state, max_nodes=args.nodes)
            spent += time.perf_counter() - start
            nodes += solver.nodes
            found += 1
            escape += WIN in values.values()
            lost += LOSS in values.values()
            decided += WIN in values.values() or DRAW not in values.values()
        shares = [f"{k / found:.0%}" if found else "-" for k in (decided, escape, lost)]
        table.add_row(
            str(cards),
            str(found),
            *shares,
            f"{nodes / spent:,.0f}" if spent else "-",
        )
    Console(width=160).print(table)


if __name__ == "__main__":
    main()
