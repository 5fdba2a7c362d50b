"""The web server's view path per move, without the network: CPU microseconds per move.

Plays seeded random games as the server plays them (each move on a copy of the table's
state, the copy swapped in: ``tikki.server.tables.ledger``) and after each move builds the
``state`` message of the connected seats and its text, as ``Table.broadcast`` does. Where
the checkout has them, the copy takes over the old state's history
(``State.take_history``) and the text encodes the history once per entry
(``tikki.server.tables.texts``); an older checkout (``PYTHONPATH=/tmp/old``) is measured
its own way, so two commits compare run by run. ``--plain`` measures the older way on
this checkout too.

Run: ``.venv/bin/python benchmarks/server_views.py [--games 6] [--seats 1] [--plain]``.
Prints one line per game: CPU µs per move (``time.process_time``) for the clone, the
play, the views and the texts together.  Then, the same games at a live
``tikki.server.tables.table.Table`` (one person connected at seat 0, bots in the other
seats, as ``benchmarks/load.py`` plays): each move swapped in and ``Table.broadcast``
called, which builds the table's public part, the seat's message and its text.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

import tikki

GAMES = [("myllymatti", 3), ("mattis", 3), ("mueckenstich", 4)]


def _encoder(plain: bool) -> Callable[[dict[str, Any], Any], str] | None:
    """``state_text`` with a fresh history cache per seat, or ``None`` (``json.dumps``)."""
    if plain:
        return None
    try:
        from tikki.server.tables.texts import state_text
    except ImportError:
        return None
    return state_text


def _cache(plain: bool) -> Any:
    if plain:
        return None
    try:
        from tikki.server.tables.texts import HistoryText
    except ImportError:
        return None
    return HistoryText()


def _message(state: Any, seat: int | None, seq: int) -> dict[str, Any]:
    """A message shaped as ``Table.state_message``'s."""
    view = state.view(seat)
    history = view.get("history") or []
    return {"type": "state", "seq": seq, "seat": seat, "status": "playing",
            "table": {"id": "bench", "seq": seq}, "view": view,
            "last": history[-1] if history else None, "forced": [], "devices": 1}  # fmt: skip


def measure(name: str, players: int, games: int, seats: int, plain: bool) -> float:
    """CPU µs per move of the server's view path over ``games`` seeded games."""
    game = tikki.load(name, players=players)
    encode = _encoder(plain)
    moves = 0
    start = time.process_time()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        kept = [_cache(plain) for _ in range(seats)]
        while not state.is_over:
            copy = state.clone()
            copy.play(rng.choice(copy.legal_moves()))
            if not plain and hasattr(copy, "take_history"):
                copy.take_history(state)
            state = copy
            moves += 1
            for seat in range(seats):
                message = _message(state, seat, moves)
                if encode is None or kept[seat] is None:
                    json.dumps(message)
                else:
                    encode(message, kept[seat])
    return (time.process_time() - start) / moves * 1e6


def measure_table(name: str, players: int, games: int) -> float:
    """CPU µs per move of ``Table.broadcast`` (with the clone and the play) at a table with
    one connected person (seat 0) and bots elsewhere, over ``games`` seeded games."""
    from datetime import datetime

    from tikki.server.db import StoredSeat
    from tikki.server.tables.table import Connection, Table

    game = tikki.load(name, players=players)
    moves = 0
    start = time.process_time()
    for seed in range(games):
        rng = random.Random(seed)
        seats = [StoredSeat(0, "human", "Anna", None, "x" * 64)]
        seats += [StoredSeat(s, "bot", f"Bot {s}", "heuristic") for s in range(1, players)]
        table = Table(f"bench{seed}", game, game.new_state(seed=seed), seed, seats, "playing",
                      datetime(2026, 1, 1))  # fmt: skip
        table.connections.add(Connection(0))
        while not table.state.is_over:
            copy = table.state.clone()
            copy.play(rng.choice(copy.legal_moves()))
            if hasattr(copy, "take_history"):
                copy.take_history(table.state)
            table.state = copy
            table.seq += 1
            moves += 1
            table.broadcast()  # a state message replaces the unsent one: nothing piles up
    return (time.process_time() - start) / moves * 1e6


def main() -> None:
    """Print each game's CPU µs per move."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="seeded games per game (6)")
    parser.add_argument("--seats", type=int, default=1, help="connected seats (1)")
    parser.add_argument("--plain", action="store_true", help="the older way on this checkout")
    args = parser.parse_args()
    for name, players in GAMES:
        cost = measure(name, players, args.games, args.seats, args.plain)
        print(f"{name} {players}p: {cost:,.0f} µs CPU a move (clone, play, views, texts)")
    for name, players in GAMES:
        cost = measure_table(name, players, args.games)
        print(f"{name} {players}p: {cost:,.0f} µs CPU a move at a table (Table.broadcast)")


if __name__ == "__main__":
    main()
