"""The event loop's own work a move at a web table, without sockets or a database.

Seeded Myllymatti 3p games (the load benchmark's tables: a person in seat 0, two Medium
bots) played through the server's real per-move path in one process: the person's moves
through :meth:`Moves.move <tikki.server.tables.moves.Moves.move>` (the turn checks, the
:class:`~tikki.server.tables.ledger.Ledger`'s clone, play and history take-over, the
broadcast to the person's delta connection, the metrics hook), the bots' through
:meth:`Bots.play <tikki.server.tables.bots.Bots.play>` in their fair turn slot
(:func:`~tikki.server.tables.bots.bot_seed`, the Medium bot's decision on its view,
then the same move path), as :meth:`Bots._turns` does but for its delay.  The storage is a
stand-in that acknowledges each move at once (its thread is not the loop's work), and the
connection's peer takes each text without a socket (the send through uvicorn and the
kernel is not counted).  Moves are chosen from seeded RNGs, so every run plays the same
moves: under ``callgrind`` the instruction counts of two trees compare exactly.

    $ .venv/bin/python benchmarks/server_move_cost.py [--games 6] [--repeats 5]
    $ PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
          .venv/bin/python benchmarks/server_move_cost.py --repeats 1 [--games 0]

The table printed: each repeat's moves and the loop thread's CPU (``time.thread_time``)
a move; the instruction count of a move is callgrind's total of ``--games N`` less that
of ``--games 0`` (the imports and set-up), over the moves printed.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any, cast

import tikki
from tikki.serve_settings import Policy
from tikki.server.db import MoveWrite, StoredSeat
from tikki.server.metrics import Metrics
from tikki.server.notices.turns import TurnNotices
from tikki.server.tables.bots import Bots, at_next_pass
from tikki.server.tables.moves import Moves
from tikki.server.tables.storage import Clock
from tikki.server.tables.table import Connection, Table, hash_token


class _Peer:
    """A connection's peer that takes every text at once (no socket)."""

    sent = 0

    async def send_text(self, data: str) -> None:
        """Count the text."""
        self.sent += 1


class _Storage:
    """Acknowledges each move at once (the storage thread is not the loop's work)."""

    async def add_move(
        self, write: MoveWrite, queued: Callable[[], None] | None = None, first: bool = False
    ) -> None:
        """Tell ``queued``, as a group commit does once the move waits for it."""
        if queued is not None:
            queued()


class _Ownership:
    clustered = False

    async def release(self, table_id: str) -> None:
        """Nothing to release: one process."""

    async def changed(self, table_id: str) -> None:
        """Nobody to tell: one process."""


class _Registry:
    ownership = _Ownership()

    def check_owned(self, table: Table) -> None:
        """Never moved: one process."""

    def retire(self, table: Table) -> None:
        """A finished table stays (nothing reads it again)."""


def _parts() -> tuple[Moves, Bots]:
    """The move path as the app wires it, with the stand-ins above."""
    registry = cast(Any, _Registry())
    moves = Moves(registry, cast(Any, _Storage()), cast(Any, None), cast(Any, _Ownership()),
                  Clock())  # fmt: skip
    moves.ledger.on_turn = TurnNotices(cast(Any, None))
    moves.on_move = Metrics(cast(Any, None)).observe
    bots = Bots(moves, registry, Policy(), bot_delay=0.0)
    return moves, bots


def _table(seed: int) -> tuple[Table, Connection, _Peer]:
    """A playing Myllymatti 3p table: a person (seat 0, one delta connection), two
    Medium bots."""
    game = tikki.load("myllymatti", players=3)
    seats = [StoredSeat(0, "human", "load", None, hash_token(f"token{seed}"), None)]
    seats += [StoredSeat(s, "bot", name, "heuristic") for s, name in
              ((1, "Aino (Medium)"), (2, "Eino (Medium)"))]  # fmt: skip
    table = Table(f"t{seed:04d}", game, game.new_state(seed=seed), seed, seats, "playing",
                  datetime(2026, 12, 7, 12, 0, 0), owner="127.0.0.1")  # fmt: skip
    conn = Connection(0, deltas=True)
    peer = _Peer()
    conn.outbox._idle = cast(Any, peer)  # the writer waits: each state goes out at once
    table.connections.add(conn)
    return table, conn, peer


async def _game(moves: Moves, bots: Bots, seed: int) -> int:
    """Play one game as the server does; its number of moves."""
    table, _conn, _peer = _table(seed)
    rng = random.Random(seed)
    count = 0
    while table.status == "playing":
        seat = table.state.current_player
        assert seat is not None
        if seat == 0:
            move = rng.choice(table.state.legal_moves())
            await moves.move(table, 0, move, table.seq)
        else:
            spec = table.seats[seat].bot
            assert spec is not None
            async with bots._turn_slots.slot(table.lane, table.id) as give_back:
                await bots.play(table, seat, spec, table.seq, queued=at_next_pass(give_back))
            await asyncio.sleep(0)  # the slot's give-back runs at the loop's next pass
        count += 1
    return count


async def _run(games: int) -> tuple[int, float]:
    """Play ``games`` seeded games; (moves, the thread's CPU seconds)."""
    moves, bots = _parts()
    bots.running = True
    began = time.thread_time()
    count = 0
    for seed in range(1, games + 1):
        count += await _game(moves, bots, seed)
    return count, time.thread_time() - began


def main() -> None:
    """Play, time, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="seeded games a repeat")
    parser.add_argument("--repeats", type=int, default=5, help="timed repeats")
    args = parser.parse_args()
    rows = []
    for repeat in range(1, args.repeats + 1):
        count, cpu = asyncio.run(_run(args.games))
        rows.append((repeat, count, cpu))
    print(f"{'repeat':>6} {'moves':>6} {'CPU us/move':>12}")
    for repeat, count, cpu in rows:
        print(f"{repeat:>6} {count:>6} {cpu / max(count, 1) * 1e6:>12.1f}")
    if rows and rows[0][1]:
        per = [cpu / count * 1e6 for _, count, cpu in rows]
        print(f"median {statistics.median(per):.1f} us/move over {len(rows)} repeats")


if __name__ == "__main__":
    main()
