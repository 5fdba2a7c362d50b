"""The table manager, :class:`TableManager`: a thin façade that builds the table's
concerns, hands each its collaborators, and runs their life cycle (start, stop, restart)
and the lobby.

The concerns, each a class of its own module that receives what it uses:

- :class:`~.storage.Storage`: the storage thread; :class:`~.registry.Registry`: the
  tables in memory;
- :class:`~.ownership.Finder`: a table wherever it is (memory, database, another process);
- :class:`~.standins.StandIns` and :class:`~.leave.Leave`: bots playing people's seats,
  and the people's requests that start and end them;
- :class:`~.moves.Moves`: checking a move, with the stand-ins around it, and telling
  every connection; its :class:`~.ledger.Ledger` applies and stores it (a turn timer's
  move too);
- :class:`~.bots.Bots`: bot turns, search pools, hints;
- :class:`~.timers.Timers`: turn timers, away seats, the expiry of waiting tables;
- :class:`~.seats.Seats`: joining, a seat's devices, connections;
- :class:`~.creation.Creator`: new tables within the caps of :mod:`tikki.server.quota`;
- :class:`~.rematch.Rematch`: playing again."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from typing import Any

from tikki.core import IllegalMove, RulesError
from tikki.serve_settings import Policy
from tikki.server.cluster import Hop, Ownership
from tikki.server.db import Store, now
from tikki.server.pool import SearchPool
from tikki.server.tables.bots import JUDGE, Bots
from tikki.server.tables.creation import Creator
from tikki.server.tables.leave import Leave
from tikki.server.tables.moves import Moves
from tikki.server.tables.ownership import Finder
from tikki.server.tables.registry import Registry
from tikki.server.tables.rematch import Rematch
from tikki.server.tables.seats import Seats
from tikki.server.tables.standins import StandIns
from tikki.server.tables.storage import Clock, Storage
from tikki.server.tables.table import Connection, NewTable, Table
from tikki.server.tables.timers import Timers

log = logging.getLogger("tikki.server")

STATUSES = {
    "open": ("waiting",),
    "playing": ("playing",),
    "finished": ("finished",),
    "all": ("waiting", "playing", "finished"),
}
"""Lobby filters and the table statuses they show."""


class TableManager:
    """Every live table; creates, joins, moves, hints, lobby lists and restarts.

    Each request goes to the concern that serves it; the concerns are built here, each
    with its collaborators (see the module's docstring)."""

    def __init__(
        self,
        store: Store,
        bot_delay: float = 0.6,
        hint_bot: str = JUDGE,
        policy: Policy | None = None,
        ownership: Ownership | None = None,
    ) -> None:
        self.store = store
        self.policy = policy or Policy()
        self.ownership = ownership or Ownership()
        """Which tables this process owns: all of them, or those whose PostgreSQL lock
        it holds (``--cluster``: :mod:`tikki.server.cluster`)."""
        self._clock = Clock(now)
        self.storage = Storage(store)
        self.registry = Registry(self.ownership, self.policy, self._clock)
        self.stand_ins = StandIns(self.registry, self.storage, self._clock)
        self.moves = Moves(self.registry, self.storage, self.stand_ins, self.ownership, self._clock)
        self.bots = Bots(self.moves, self.registry, self.policy, bot_delay, hint_bot)
        wake = self.bots.wake
        self.leave = Leave(self.stand_ins, wake)
        self.finder = Finder(self.registry, self.storage, self.ownership, wake)
        self.timers = Timers(
            self.registry, self.storage, self.moves.ledger, self.leave, self.stand_ins,
            self.ownership, self.policy, wake,
        )  # fmt: skip
        self.seats = Seats(
            self.finder, self.registry, self.storage, self.ownership, self.policy, wake
        )
        self.creator = Creator(self.registry, self.storage, self.ownership, self.policy, wake)
        self.rematches = Rematch(self.creator, self.seats)
        self.background: dict[str, asyncio.Task[None]] = {}
        """The manager's background loops while it runs, by name."""
        self._started = False

    # --- settings the app sets after building the manager -----------------------------

    @property
    def clock(self) -> Callable[[], datetime]:
        """The wall clock of table ages (tests replace it)."""
        return self._clock.now

    @clock.setter
    def clock(self, clock: Callable[[], datetime]) -> None:
        self._clock.now = clock

    @property
    def tables(self) -> dict[str, Table]:
        """The tables in memory, by id."""
        return self.registry.tables

    @property
    def client_seeds(self) -> bool:
        """Accept a client's seed at tables with open seats too (``--allow-client-seeds``)."""
        return self.creator.client_seeds

    @client_seeds.setter
    def client_seeds(self, accept: bool) -> None:
        self.creator.client_seeds = accept

    @property
    def on_finished(self) -> Callable[[Table], None] | None:
        """Called when a game ends by a move (the app settles a rated table's ratings)."""
        return self.moves.ledger.on_finished

    @on_finished.setter
    def on_finished(self, listener: Callable[[Table], None] | None) -> None:
        self.moves.ledger.on_finished = listener

    @property
    def on_move(self) -> Callable[[bool, float], None] | None:
        """Told of each applied move: by a bot?, seconds from its arrival to its broadcast."""
        return self.moves.on_move

    @on_move.setter
    def on_move(self, listener: Callable[[bool, float], None] | None) -> None:
        self.moves.on_move = listener

    @property
    def bot_delay(self) -> float:
        """Seconds a bot waits before it moves."""
        return self.bots.bot_delay

    @bot_delay.setter
    def bot_delay(self, seconds: float) -> None:
        self.bots.bot_delay = seconds

    @property
    def hint_bot(self) -> str:
        """The bot that gives hints (``judge``: the analysis's judge)."""
        return self.bots.hint_bot

    @property
    def searches(self) -> SearchPool:
        """The search workers of tables where people sit."""
        return self.bots.searches

    @property
    def crowd_searches(self) -> SearchPool:
        """The crowd's own search workers (bot-only tables, analyses)."""
        return self.bots.crowd_searches

    # --- life cycle -----------------------------------------------------------------

    async def start(self) -> None:
        """Create the schema, rebuild every unfinished table and resume its bots."""
        if self._started:
            return
        self._started = True
        self.bots.running = True
        self.storage.restart()
        self.registry.reset()
        await self.storage.run(self.store.create_schema)
        if self.ownership.clustered:
            await self._start_cluster()
        else:
            await self._rebuild_unfinished()
        self._spawn(self.timers.sweep(), "expire-waiting-tables")
        self._spawn(self.timers.tick_loop(), "turn-timers")

    async def _rebuild_unfinished(self) -> None:
        """Rebuild every unfinished table from its stored moves and start its bots."""
        stored = await self.storage.run(self.store.unfinished)
        for row in stored:
            try:
                table = self.registry.rebuild(row)
                table.away_since = {s.seat: table.turn_since or now() for s in table.seats
                                    if s.kind == "human"}  # fmt: skip
            except (RulesError, IllegalMove) as err:
                log.error("table %s cannot be rebuilt and stays stopped: %s", row.id, err)
                continue
            self.registry.tables[table.id] = table
            self.bots.wake(table)
        log.info("rebuilt %d unfinished tables", len(self.registry.tables))

    async def _start_cluster(self) -> None:
        """Start as one process of a cluster: listen for the others, claim the live
        tables nobody holds, then go on claiming those whose owner died."""
        await self.ownership.start(self.finder.hand_over, self.finder.lobby_changed)
        try:
            await self.storage.read(self.store.open_reading)
        except Exception as err:  # the first lobby request opens it then
            log.warning("opening the lobby's connection failed: %s", err)
        claimed = await self.finder.claim_orphans()
        log.info("cluster node %s took %d live tables", self.ownership.node, len(claimed))
        self._spawn(self.finder.scan_loop(), "claim-orphan-tables")

    def _spawn(self, work: Coroutine[Any, Any, None], name: str) -> None:
        """Run one of the manager's background loops until :meth:`stop`."""
        self.background[name] = asyncio.create_task(work, name=name)

    async def stop(self) -> None:
        """Stop the bots, close the connections and release the database (a later
        :meth:`start` rebuilds everything from the database)."""
        tables = self.registry.tables.values()
        tasks = [t.bot_task for t in tables if t.bot_task is not None]
        tasks += self.background.values()
        self.background = {}
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for table in tables:
            for conn in table.connections:
                conn.close(1001)
        await self.ownership.stop()
        await self.bots.stop()
        await self.storage.aclose()
        await self.storage.run(self.store.close)
        self.storage.shutdown()
        self.registry.reset()
        self._started = False

    # --- requests, each served by its concern -----------------------------------------

    async def get(self, table_id: str) -> Table:
        """A table by id, from memory, the database or another process of a cluster."""
        return await self.finder.get(table_id)

    async def route(self, table_id: str, relayed: bool = False) -> Table | Hop:
        """Where a WebSocket of a table is served: here, or relayed to the process of a
        cluster that owns it (never taken over for a socket)."""
        return await self.finder.route(table_id, relayed)

    async def peek(self, table_id: str) -> Table:
        """A table to show in the lobby, never taken over from another process."""
        return await self.finder.peek(table_id)

    async def create(
        self, request: NewTable, address: str | None = None
    ) -> tuple[Table, dict[int, str]]:
        """Make, store and start a table; return it with its open seats' invite secrets."""
        return await self.creator.create(request, address)

    async def join(
        self,
        table_id: str,
        seat: int,
        name: str,
        invite: str | None = None,
        address: str | None = None,
    ) -> tuple[Table, str]:
        """Take an open seat; return the table and the seat's new token."""
        return await self.seats.join(table_id, seat, name, invite, address)

    async def move(
        self, table: Table, seat: int | None, move: str, seq: int, by_bot: bool = False
    ) -> None:
        """Check, apply, store and broadcast one move, then let the table's bots play."""
        await self.moves.move(table, seat, move, seq, by_bot)
        self.bots.wake(table)

    async def hint(self, table: Table, seat: int | None, address: str | None = None) -> str:
        """What the hint bot would play from this seat's view (only on the seat's turn):
        one search per position, counted against the asking ``address``'s share."""
        return await self.bots.hint(table, seat, address)

    async def resign(self, table: Table, seat: int | None) -> None:
        """Resign ``seat``: a Medium bot plays it to the end."""
        await self.leave.resign(table, seat)

    async def hand_to_bot(self, table: Table, by: int | None, seat: int) -> None:
        """Hand an away seat to a bot at the request of another seated person."""
        await self.leave.hand_to_bot(table, by, seat)

    async def come_back(self, table: Table, seat: int | None) -> bool:
        """The person of ``seat`` is back: their away stand-in stops; whether one did."""
        return await self.leave.come_back(table, seat)

    async def rematch(
        self,
        table: Table,
        seat: int | None,
        address: str | None = None,
        account: int | None = None,
    ) -> tuple[Table, int, str]:
        """Seat the player of ``seat`` (signed in to ``account``) at the finished table's
        rematch."""
        return await self.rematches.play_again(table, seat, address, account)

    async def revoke(self, table: Table, seat: int | None) -> str:
        """End every other device holding ``seat``; return the seat's new token."""
        return await self.seats.revoke(table, seat)

    def seen(self, table: Table, seat: int | None) -> None:
        """The person of ``seat`` acted: they are present."""
        self.seats.seen(table, seat)

    def connect(
        self, table: Table, seat: int | None, lang: str = "en", deltas: bool = False
    ) -> Connection:
        """Register a connection (its texts in ``lang``; ``deltas``: it takes history
        deltas, docs/protocol.md)."""
        return self.seats.connect(table, seat, lang, deltas)

    def disconnect(self, table: Table, conn: Connection) -> None:
        """Forget a connection."""
        self.seats.disconnect(table, conn)

    def keep_open(self, table: Table, seat: int | None) -> None:
        """A seated person keeps a waiting table open."""
        self.timers.keep_open(table, seat)

    async def tick(self) -> list[str]:
        """Act on every turn timer that ran out; the ids of the tables acted on."""
        return await self.timers.tick()

    async def expire(self) -> list[str]:
        """Remove the tables that waited for players past their expiry; their ids."""
        return await self.timers.expire()

    def search_slot(
        self, lane: str, key: str, people: bool = False
    ) -> AbstractAsyncContextManager[None]:
        """A fair turn in the search pool for other heavy work (analyses)."""
        return self.bots.search_slot(lane, key, people)

    def search_place(self, lane: str, key: str) -> int | None:
        """The place of a crowd search in the queue (1: next; ``None``: not waiting)."""
        return self.bots.search_place(lane, key)

    def bot_queue(self) -> int:
        """The tables where a bot is due to move."""
        return self.bots.queue()

    @property
    def owned(self) -> int:
        """Live tables this process owns."""
        return self.finder.owned

    # --- lobby ----------------------------------------------------------------------

    async def lobby(self, which: str, limit: int) -> list[Table]:
        """The newest tables of a lobby filter (``open``, ``playing``, ``finished``, ``all``);
        tables being played whose last move is older than the stalled expiry are left out
        (they stay reachable by their links)."""
        await self.timers.expire()
        statuses = STATUSES[which]
        tables = await self.finder.lobby(list(statuses), limit)
        return [t for t in tables if t.status in statuses and not self.stalled(t)]

    def stalled(self, table: Table) -> bool:
        """Whether a table being played has had no move for longer than the stalled expiry."""
        if table.status != "playing" or table.last_move is None or table.correspondence:
            return False
        idle = (self._clock() - table.last_move).total_seconds()
        return idle > self.policy.stalled_expiry
