"""Finding a table wherever it is, :class:`Finder`: in memory, in the database, or (a
cluster of processes, ``--cluster``, :mod:`tikki.server.cluster`) at another process.  In
a cluster it claims the tables nobody holds, hands its own over when another process
asks (a drain, a rebalance), routes a WebSocket or an HTTP request of another process's
table to that process (:meth:`Finder.route`, :meth:`Finder.owner`: never a takeover), and
shows other processes' tables in the lobby without taking them."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field, fields

from tikki.core import IllegalMove, RulesError
from tikki.server.cluster import SCAN_EVERY, Hop, LocksLost, Ownership
from tikki.server.db import StoredTable, now
from tikki.server.errors import ApiError
from tikki.server.tables import storage as storage_module
from tikki.server.tables.registry import (
    FINISHED_KEPT,
    Registry,
    table_moved,
    table_moving,
    unknown_table,
)
from tikki.server.tables.storage import Storage, outage, report
from tikki.server.tables.table import Table

log = logging.getLogger("tikki.server")


def possible(table_id: str) -> bool:
    """Whether ``table_id`` may name a stored table (else it is unknown without asking
    the database: PostgreSQL refuses a NUL in a query, a 500).

    >>> possible("9effda52"), possible(""), possible("a" * 33), possible("ab\\x00")
    (True, False, False, False)
    """
    return 0 < len(table_id) <= 32 and "\x00" not in table_id


PEEK_TTL = 2.0
"""Seconds a cluster process shows its copy of another process's table in the lobby
before reading it again (a lobby change of that table drops the copy at once), and the
most a lobby's list read is shown again (a lobby change of any table drops it)."""
ROUTE_PAUSE = 0.5
"""The longest pause (s) between two tries of :meth:`Finder.route` while a table is
between owners."""


@dataclass(eq=False)
class Listed(Table):
    """Another process's live table as the lobby lists it, from its stored lobby line
    (:class:`~tikki.server.db.SummaryRow`): its state is the deal's (its moves are not
    replayed), its seq, seat to act and last move the line's.  Shown, never played."""

    listed_to_act: int | None = None

    @property
    def to_act(self) -> int | None:
        """The seat to act as the lobby line says."""
        return self.listed_to_act


@dataclass
class LobbyRead:
    """A lobby's list as read: its tables' ids in order, when the read began (the event
    loop's time) and the lobby changes heard of then, and the tables left out since
    (gone, or not rebuilt)."""

    ids: list[str]
    at: float
    changes: int
    gone: set[str] = field(default_factory=set)


class Finder:
    """A table by id wherever it is; the cluster's glue: claim, take over, hand over and
    peek at tables."""

    def __init__(
        self,
        registry: Registry,
        storage: Storage,
        ownership: Ownership,
        wake: Callable[[Table], None],
    ) -> None:
        self.registry = registry
        self.storage = storage
        self.ownership = ownership
        """Which tables this process owns: all of them, or those whose PostgreSQL lock
        it holds (``--cluster``: :mod:`tikki.server.cluster`)."""
        self.wake = wake
        self._loading: dict[str, asyncio.Future[Table]] = {}
        """Tables being taken over from another process (or the database), by id."""
        self._peeked: dict[str, tuple[float, Table]] = {}
        """Copies of other processes' tables for the lobby, with when they were read."""
        self._lobbies: dict[tuple[tuple[str, ...], int], LobbyRead] = {}
        """The lobbies' lists last read, by statuses and limit (:meth:`lobby`)."""
        self._lobby_reads: dict[
            tuple[tuple[str, ...], int], tuple[int, asyncio.Future[list[Table]]]
        ] = {}
        """The lobby reads under way, with the lobby changes seen when each began."""
        self._lobby_changes = 0
        """How many lobby changes this process has heard of (:meth:`lobby_changed`)."""
        self.draining = False
        """Whether this process hands every table to the others and takes no new ones
        (``tikki cluster drain``)."""
        ownership.ordered = self.obey

    async def get(self, table_id: str) -> Table:
        """A table by id, from memory or (finished tables) from the database."""
        table = self.registry.held(table_id)
        if table is not None:
            return table
        if self.ownership.clustered:
            return await self._get_clustered(table_id)
        return await self._from_store(table_id)

    async def route(self, table_id: str, relayed: bool = False) -> Table | Hop:
        """Where a WebSocket or an HTTP request of ``table_id`` is served: here (the
        table, from memory, the database, or claimed when nobody holds it) or at the
        other process of a cluster that owns it (its :class:`~tikki.server.cluster.Hop`:
        the socket is relayed or the request forwarded, the table stays where it is).  A
        ``relayed`` socket (from another process) is never relayed again: the table moved
        meanwhile, and it is refused ``moved``.

        While the table is between owners (the database restarted and took every lock
        with it, another process is claiming it) or its owner cannot be read, it is asked
        again after pauses that double, for up to
        :data:`~tikki.server.tables.storage.OUTAGE_WAIT` seconds, then refused
        ``unavailable`` (a ``503`` with ``Retry-After``)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + storage_module.OUTAGE_WAIT
        pause = storage_module.FIRST_PAUSE
        while True:
            try:
                return await self._route_once(table_id, relayed)
            except ApiError as err:
                if err.code != "unavailable" or loop.time() + pause > deadline:
                    raise
            await asyncio.sleep(pause)
            pause = min(2 * pause, ROUTE_PAUSE)

    async def _route_once(self, table_id: str, relayed: bool) -> Table | Hop:
        """One try of :meth:`route`."""
        table = self.registry.held(table_id)
        if table is not None or not self.ownership.clustered:
            return table if table is not None else await self.get(table_id)
        if possible(table_id) and table_id not in self._loading:
            try:
                hop = await self.ownership.route(table_id)
            except Exception as err:
                report(f"finding the owner of table {table_id}", err, table_id)
                raise outage() from None
            if hop is not None:
                if relayed:
                    raise table_moved(table_id)
                return hop
        return await self.get(table_id)

    async def owner(self, table_id: str) -> Hop | None:
        """The other process of a cluster that owns ``table_id`` now, where an HTTP
        request for it is forwarded (``None``: this process holds it or has just taken
        it over, or the table cannot be found: the request is served here, and answers
        why).  Waits as :meth:`route` does while the table is between owners."""
        if not self.ownership.clustered or not possible(table_id):
            return None
        if self.registry.held(table_id) is not None:
            return None
        try:
            found = await self.route(table_id)
        except ApiError:
            return None  # served here: unknown, or still unavailable (said there)
        return found if isinstance(found, Hop) else None

    async def _from_store(self, table_id: str) -> Table:
        """A table read back from the database (a finished one, or one that was
        forgotten after another process stored a move first) and kept in memory."""
        row = None
        if possible(table_id):
            row = await self.storage.run(self.storage.store.load, table_id)
        if row is None:
            raise unknown_table(table_id)
        table = self.registry.rebuild_or_refuse(row)
        tables = self.registry.tables
        if table_id in tables:
            return tables[table_id]
        if self.ownership.clustered and table.status != "finished":
            raise table_moving(table_id)  # another process took it meanwhile
        tables[table_id] = table
        if table.status == "finished":
            self.registry.retire(table)
        else:
            self.wake(table)
        return table

    @property
    def owned(self) -> int:
        """Live tables this process owns (all of them without ``--cluster``): the
        metrics' ``tables owned``."""
        return len(self.registry.live)

    async def scan_loop(self) -> None:
        """Claim the orphans every :data:`~tikki.server.cluster.SCAN_EVERY` seconds, and
        at once when a process says it stopped."""
        wanted = self.ownership.scan_wanted
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wanted.wait(), SCAN_EVERY)
            wanted.clear()
            if self.draining:
                continue
            try:
                await self.claim_orphans()
            except Exception as err:
                report("claiming the tables of stopped processes", err)
                await asyncio.sleep(SCAN_EVERY)

    async def claim_orphans(self) -> list[str]:
        """Lock the live tables nobody holds and rebuild them from their stored moves;
        forget every table if the lock connection broke (the others take them)."""
        try:
            claimed = await self.ownership.claim_orphans(self._loading)
        except LocksLost as lost:
            if lost.tables:
                log.error("the cluster's lock connection broke: %d tables go to whichever "
                          "process claims them first", len(lost.tables))  # fmt: skip
            for table_id in lost.tables:
                self.registry.forget(table_id)
            return []
        if not claimed:
            return []
        began = asyncio.get_running_loop().time()
        try:
            rows = await self.storage.run(self.storage.store.load_many, claimed)
        except Exception as err:
            report(f"reading {len(claimed)} tables to take over (another process may)", err)
            rows = []
        for row in rows:
            if await self._adopt(row) is not None:
                self.ownership.counts["takeovers"] += 1
                log.info("took over table %s (nobody held it)", row.id, extra={"table": row.id})
        found = {row.id for row in rows}
        for table_id in claimed:
            if table_id not in found:
                await self.ownership.release(table_id)
        log.info("took over %d tables nobody held in %.2f s", len(rows),
                 asyncio.get_running_loop().time() - began)  # fmt: skip
        return claimed

    async def _load_owned(self, table_id: str) -> Table | None:
        """Rebuild a table whose lock this process has just taken from its stored moves
        and run its bots and timers; ``None`` (lock released) if it is not stored, or
        (lock kept, so nobody retries it) if it cannot be rebuilt."""
        row = await self.storage.run(self.storage.store.load, table_id)
        if row is None:
            await self.ownership.release(table_id)
            return None
        return await self._adopt(row)

    async def _adopt(self, row: StoredTable) -> Table | None:
        """Rebuild a stored table whose lock this process holds, keep it in memory and
        start its bots (``None``, lock kept, if its moves do not replay)."""
        table_id = row.id
        try:
            table = self.registry.rebuild(row)
        except (RulesError, IllegalMove) as err:
            log.error("table %s cannot be rebuilt and stays stopped: %s", row.id, err)
            return None
        if not self.ownership.holds(table_id):
            return None  # handed over while it was being read
        table.away_since = {s.seat: table.turn_since or now() for s in table.seats
                            if s.kind == "human"}  # fmt: skip
        if self.registry.tables.get(table_id) not in (None, table):
            self.registry.forget(table_id)  # a copy from before the lock was lost
        self.registry.tables[table_id] = table
        self._peeked.pop(table_id, None)
        if table.status == "finished":
            self.registry.retire(table)
            await self.ownership.release(table_id)
        else:
            self.wake(table)
        return table

    async def _get_clustered(self, table_id: str) -> Table:
        """A table that this process of a cluster does not hold: take it over if nobody
        holds it (its owner died or stopped) and rebuild it (``unavailable``: another
        process holds it); one take-over per table at a time."""
        pending = self._loading.get(table_id)
        if pending is None:
            pending = asyncio.ensure_future(self._take_over(table_id))
            self._loading[table_id] = pending
            pending.add_done_callback(lambda _done: self._loading.pop(table_id, None))
        return await asyncio.shield(pending)

    async def _take_over(self, table_id: str) -> Table:
        if not possible(table_id):
            raise unknown_table(table_id)
        if self.draining:  # it takes no table: a finished one is only read
            return await self._from_store(table_id)
        try:  # never asked of its owner: a request for it is forwarded there
            taken = await self.ownership.acquire(table_id)
        except Exception as err:
            report(f"taking table {table_id} over", err, table_id)
            taken = False
        if not taken:
            raise table_moving(table_id)
        table = await self._load_owned(table_id)
        if table is not None and table.status != "finished":  # (a finished one is read)
            self.ownership.counts["takeovers"] += 1
            log.info("took over table %s for a request (nobody held it)", table_id,
                     extra={"table": table_id})  # fmt: skip
        return table if table is not None else await self._from_store(table_id)

    async def hand_over(self, table_id: str, to: str = "", why: str = "asked") -> None:
        """Hand a table this process owns over (another process asks, or ``to`` it for a
        drain or rebalance): finish the move in flight, forget the table, close its
        connections (they connect again, and reach the new owner), release its lock."""
        table = self.registry.tables.get(table_id)
        if table is not None:
            async with table.lock:
                self.registry.forget(table_id)
        await self.ownership.release(table_id)
        self.ownership.counts["handovers"] += 1
        log.info("handed table %s over to %s (%s)", table_id, to or "another process", why,
                 extra={"table": table_id})  # fmt: skip

    async def obey(self, order: str, table_id: str) -> None:
        """An order from the cluster: ``drain`` this process, ``rebalance``, or
        ``take`` a table another process handed to this one."""
        try:
            if order == "drain":
                await self.drain()
            elif order == "rebalance":
                await self.rebalance()
            elif order == "take":
                await self.take_handed(table_id)
        except Exception as err:
            report(f"the cluster's order {order}", err, table_id or None)

    async def drain(self) -> None:
        """Hand every table to the other processes, one at a time, each between two moves
        (to the one holding fewest), and take no new ones: claim no orphan, take no table
        for a request; go on handing over what is made here until the process stops."""
        if self.draining:
            return
        self.draining = True
        log.info("draining: handing %d tables to the other processes", self.owned)
        said = False
        while True:
            mine = sorted(t.id for t in self.registry.live)
            if mine:
                said = False
                held = await self.ownership.holdings()
                others = {n: len(t) for n, t in held.items() if n != self.ownership.node}
                if not others:
                    log.warning("draining: no other process to take %d tables", len(mine))
                for table_id in mine if others else []:
                    target = min(others, key=lambda n: (others[n], n))
                    await self.push(table_id, target, "drain")
                    others[target] += 1
            elif not said:
                said = True
                log.info("drained: this process holds no table")
            await asyncio.sleep(SCAN_EVERY)

    async def rebalance(self) -> None:
        """Hand over the tables above this process's share (the live tables over the
        processes, rounded up) to the processes below theirs, one at a time, each
        between two moves; a draining process keeps draining instead."""
        if self.draining:
            return
        held = await self.ownership.holdings()
        counts = {n: len(t) for n, t in held.items()}
        me = self.ownership.node
        if me not in counts or len(counts) < 2:
            return
        total = sum(counts.values())
        share = -(-total // len(counts))  # rounded up
        mine = sorted(t.id for t in self.registry.live)
        given = 0
        while len(mine) > share:
            target = min((n for n in counts if n != me), key=lambda n: (counts[n], n))
            if counts[target] >= total // len(counts):
                break  # every other process holds its share
            await self.push(mine.pop(), target, "rebalance")
            counts[target] += 1
            given += 1
        log.info("rebalanced: handed %d tables over (held %d, share %d of %d tables, %d "
                 "processes)", given, len(mine) + given, share, total, len(counts))  # fmt: skip

    async def push(self, table_id: str, target: str, why: str) -> None:
        """Hand a table this process owns to the process ``target`` (drain, rebalance):
        finish its move in flight, forget it, release its lock, and tell ``target`` to
        claim it (or any process's next scan does)."""
        await self.hand_over(table_id, target, why)
        await self.ownership.order(take=table_id, node=target)

    async def take_handed(self, table_id: str) -> None:
        """Claim a table another process handed to this one (drain, rebalance), unless
        this process drains or another claimed it first."""
        if self.draining or self.registry.held(table_id) is not None:
            return
        if table_id in self._loading or not await self.ownership.acquire(table_id):
            return
        table = await self._load_owned(table_id)
        if table is not None and table.status != "finished":
            self.ownership.counts["takeovers"] += 1
            log.info("took over table %s (handed to this process)", table_id,
                     extra={"table": table_id})  # fmt: skip

    def lobby_changed(self, table_id: str) -> None:
        """A table's lobby entry changed (another process's, from the cluster's
        :data:`~tikki.server.cluster.LOBBY` notification, or this one's): read it again
        when shown, and the lobbies' lists with it."""
        self._peeked.pop(table_id, None)
        self._lobbies.clear()
        self._lobby_changes += 1

    async def lobby(self, statuses: list[str], limit: int) -> list[Table]:
        """The newest ``limit`` tables with one of ``statuses``, in order, as the lobby
        shows them (:meth:`peek` each).  In a cluster, one read on the reading thread
        (:meth:`Store.lobby <tikki.server.db.Store.lobby>`) finds them and the tables
        among them that this process neither holds nor has copied less than
        :data:`PEEK_TTL` seconds ago: another process's live tables are listed from their
        stored lobby lines (:class:`Listed`: their moves never read nor replayed), the
        others as :meth:`peek` reads them.  Tables gone meanwhile are left out.

        The list read is kept (:class:`LobbyRead`) and shown again, without a read,
        while no lobby changed (:meth:`lobby_changed`) and each of its tables is held
        here or copied less than :data:`PEEK_TTL` seconds ago; requests that come while
        it is read wait for that read, made by the first of them on its own (a task of
        its own would cost two more passes of a busy event loop).  So a burst of lobby
        requests costs one read."""
        if not self.ownership.clustered:
            store = self.storage.store
            ids = await self.storage.read(store.table_ids, statuses, limit)
            return [await self.peek(table_id) for table_id in ids]
        key = (tuple(statuses), limit)
        moment = asyncio.get_running_loop().time()
        kept = self._lobbies.get(key)
        if kept is not None and self._still_shown(kept, moment):
            return await self._entries(kept, {}, moment)
        pending = self._lobby_reads.get(key)
        if pending is not None and pending[0] == self._lobby_changes:
            await asyncio.wait([pending[1]])  # (never cancels the read)
            if not pending[1].cancelled():
                return pending[1].result()
        return await self._read_shared(key, moment)

    async def _read_shared(self, key: tuple[tuple[str, ...], int], moment: float) -> list[Table]:
        """:meth:`_read_lobby`, its outcome shared with the requests that wait for it."""
        future: asyncio.Future[list[Table]] = asyncio.get_running_loop().create_future()
        self._lobby_reads[key] = (self._lobby_changes, future)
        try:
            found = await self._read_lobby(key, moment)
        except BaseException as err:
            self._read_failed(future, err)
            raise
        finally:
            pending = self._lobby_reads.get(key)
            if pending is not None and pending[1] is future:
                del self._lobby_reads[key]
        future.set_result(found)
        return found

    @staticmethod
    def _read_failed(future: asyncio.Future[list[Table]], err: BaseException) -> None:
        """A lobby read failed: so do the requests waiting for it (a cancelled one's
        read again themselves)."""
        if isinstance(err, asyncio.CancelledError):
            future.cancel()
        else:
            future.set_exception(err)
            future.exception()  # retrieved: each waiting request raises it

    def _still_shown(self, kept: LobbyRead, moment: float) -> bool:
        """Whether the lobby ``kept`` is shown as it is: it was read less than
        :data:`PEEK_TTL` seconds ago (a lobby change whose notification was lost is
        seen as late as a copy's), no lobby changed since, and each of its tables is
        held here, left out, or copied less than :data:`PEEK_TTL` seconds ago."""
        if kept.changes != self._lobby_changes or moment - kept.at >= PEEK_TTL:
            return False
        tables, peeked = self.registry.tables, self._peeked
        return all(
            t in tables or t in kept.gone or (t in peeked and moment - peeked[t][0] < PEEK_TTL)
            for t in kept.ids
        )

    async def _read_lobby(self, key: tuple[tuple[str, ...], int], moment: float) -> list[Table]:
        """Read a lobby (:meth:`lobby`), copy its tables and keep the list read unless a
        lobby changed meanwhile."""
        statuses, limit = key
        changes = self._lobby_changes
        known = frozenset(self.registry.tables) | {
            t for t, (at, _) in self._peeked.items() if moment - at < PEEK_TTL
        }
        store = self.storage.store
        ids, rows = await self.storage.read(store.lobby, list(statuses), limit, known)
        read = LobbyRead(ids, moment, changes)
        found = await self._entries(read, {row.id: row for row in rows}, moment)
        if changes == self._lobby_changes:
            self._lobbies[key] = read
        return found

    async def _entries(
        self, read: LobbyRead, rows: dict[str, StoredTable], moment: float
    ) -> list[Table]:
        """The tables of a lobby read, each as :meth:`_lobby_entry` finds it (``rows``:
        those just read); the tables gone meanwhile are left out (and noted)."""
        found: list[Table] = []
        for table_id in read.ids:
            if table_id in read.gone:
                continue
            try:
                found.append(await self._lobby_entry(table_id, rows.get(table_id), moment))
            except ApiError:
                read.gone.add(table_id)
        return found

    async def _lobby_entry(self, table_id: str, row: StoredTable | None, moment: float) -> Table:
        """One table of the lobby: held here, the fresh copy, the ``row`` just read (its
        lobby line, or the whole table), else (held here or copied until just now) as
        :meth:`peek` finds it."""
        if table_id in self.registry.tables:
            return await self.get(table_id)
        cached = self._peeked.get(table_id)
        if row is None and cached is not None and moment - cached[0] < PEEK_TTL:
            return cached[1]
        if row is None:
            return await self.peek(table_id)
        if row.summary is not None:
            listed = self._listed(row)
            if listed is not None:
                self._peeked[table_id] = (moment, listed)
                return listed
            return await self.peek(table_id)
        return self._keep_peeked(row, moment)

    def _listed(self, row: StoredTable) -> Listed | None:
        """A live table as its stored lobby line shows it (``None``: it has no line, or
        is finished, or its game cannot be made: it is read whole)."""
        line = row.summary
        if line is None or row.status == "finished":
            return None
        try:
            table = self.registry.rebuild(row)
        except (RulesError, IllegalMove):
            return None
        table.seq, table.last_move, table.played = line.seq, line.last_move, line.played
        values = {f.name: getattr(table, f.name) for f in fields(Table)}
        return Listed(**values, listed_to_act=line.to_act)

    async def peek(self, table_id: str) -> Table:
        """A table to show in the lobby: this process's own (or, without a cluster, the
        one :meth:`get` returns); in a cluster, another process's table as read from the
        database at most :data:`PEEK_TTL` seconds ago, never taken over."""
        if not self.ownership.clustered or table_id in self.registry.tables:
            return await self.get(table_id)
        moment = asyncio.get_running_loop().time()
        cached = self._peeked.get(table_id)
        if cached is not None and moment - cached[0] < PEEK_TTL:
            return cached[1]
        row = None
        if possible(table_id):
            row = await self.storage.run(self.storage.store.load, table_id)
        if row is None:
            raise unknown_table(table_id)
        return self._keep_peeked(row, moment)

    def _keep_peeked(self, row: StoredTable, moment: float) -> Table:
        """Another process's table read whole (with its moves), replayed and kept as the
        lobby's copy (a finished one as :meth:`get` keeps it)."""
        table = self.registry.rebuild_or_refuse(row)
        if table.status == "finished" and row.id not in self.registry.tables:
            self.registry.tables[row.id] = table
            self.registry.retire(table)
            return table
        if len(self._peeked) > FINISHED_KEPT:
            self._peeked = {k: v for k, v in self._peeked.items() if moment - v[0] < PEEK_TTL}
        self._peeked[row.id] = (moment, table)
        return table
