"""The table manager, :class:`TableManager`: creates, joins, moves, hints, lobby lists and
restarts (the package's text: :mod:`tikki.server.tables`)."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import secrets
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, NoReturn, TypeVar

from tikki.core import (
    JSON,
    RULES_REVISION,
    Game,
    IllegalMove,
    RulesError,
    load,
    memory_aid_titles,
)
from tikki.i18n import _, use
from tikki.server import botplay, leave, seeds
from tikki.server.cluster import SCAN_EVERY, LocksLost, Ownership
from tikki.server.db import MoveConflict, Store, StoredSeat, StoredTable, now
from tikki.server.errors import ApiError
from tikki.server.leave import STAND_IN, TAKEN_BACK, Takeover, active
from tikki.server.pool import CROWD_NICE, BotPool, FairSlots, SearchPool
from tikki.server.quota import CAP_RETRY, Policy, RateLimiter, rate_limited
from tikki.server.tables.table import (
    EXPIRED,
    MOVED,
    REVOKED,
    Connection,
    NewTable,
    Table,
    hash_token,
)

log = logging.getLogger("tikki.server")
T = TypeVar("T")

BOT_TURNS = 4
"""Bot turns (decide, apply, store, send) in progress at once; the others wait their turn,
so people's moves never queue behind a flood of bot moves."""
FINISHED_KEPT = 1000
"""Finished tables kept in memory (older ones are read back from the database on demand)."""
STORED_BEFORE_REVISIONS = "r1"
"""The rulings revision of a table stored without one: tables store the revision they
were created under (``"rules"`` beside the options) since revision r2; an older row was
created under r1, and finishes under r1 after a restart."""
JUDGE = "judge"
"""The default hint bot: the analysis's judge (the expert's search at its budget)."""
TICK = 1.0
"""Seconds between two checks of the turn timers."""
FORCED = "forced"
"""What plays a person's forced move (their only legal move) by itself, as the terminal
does: the table option ``forced_moves`` (the lobby's default; off for an API client that
does not ask, which sends every move itself)."""
"""The close code of a connection to a table that expired while waiting for players."""
PEEK_TTL = 2.0
"""Seconds a cluster process shows its copy of another process's table in the lobby
before reading it again (a lobby change of that table drops the copy at once)."""
STATUSES = {
    "open": ("waiting",),
    "playing": ("playing",),
    "finished": ("finished",),
    "all": ("waiting", "playing", "finished"),
}
"""Lobby filters and the table statuses they show."""


class TableManager:
    """Every live table; creates, joins, moves, hints, lobby lists and restarts."""

    client_seeds = False
    """Accept a client's seed at tables with open seats too (``--allow-client-seeds``)."""
    on_finished: Callable[[Table], None] | None = None
    """Called when a game ends by a move (the app settles a rated table's ratings)."""

    def __init__(
        self,
        store: Store,
        bot_delay: float = 0.6,
        hint_bot: str = "judge",
        policy: Policy | None = None,
        ownership: Ownership | None = None,
    ) -> None:
        self.store = store
        self.ownership = ownership or Ownership()
        """Which tables this process owns: all of them, or those whose PostgreSQL lock
        it holds (``--cluster``: :mod:`tikki.server.cluster`)."""
        self._loading: dict[str, asyncio.Future[Table]] = {}
        """Tables being taken over from another process (or the database), by id."""
        self._peeked: dict[str, tuple[float, Table]] = {}
        """Copies of other processes' tables for the lobby, with when they were read."""
        self._scanner: asyncio.Task[None] | None = None
        self.bot_delay = bot_delay
        self.hint_bot = hint_bot
        self.policy = policy or Policy()
        self.clock: Callable[[], datetime] = now
        """The wall clock of table ages (tests replace it)."""
        self.tables: dict[str, Table] = {}
        self._finished: deque[str] = deque()
        self._db_thread = ThreadPoolExecutor(1, thread_name_prefix="tikki-db")
        self._search_slots = BotPool(self.policy.workers)
        self.searches = SearchPool(self._search_slots.size)
        self.crowd_searches = SearchPool(self._search_slots.crowd_size, nice=CROWD_NICE)
        """The crowd's own workers (bot-only tables, analyses), at the lowest priority."""
        self._turn_slots = FairSlots(BOT_TURNS)
        self.creates = RateLimiter(self.policy.create_per_minute)
        self._pending: list[tuple[str | None, bool]] = []
        """Tables admitted and being stored: (creator's address, only bots)."""
        self.joins = RateLimiter(self.policy.join_per_minute)
        self._sweeper: asyncio.Task[None] | None = None
        self._ticker: asyncio.Task[None] | None = None
        self._started = False
        self.on_move: Callable[[bool, float], None] | None = None
        """Told of each applied move: by a bot?, seconds from its arrival to its broadcast
        (:mod:`tikki.server.metrics`)."""

    async def _db(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db_thread, fn, *args)

    async def _write(self, what: str, fn: Callable[..., T], *args: Any) -> T:
        """A storage write that changes nothing when it fails: ``503 unavailable``."""
        try:
            return await self._db(fn, *args)
        except Exception:
            log.exception("storing %s failed", what)
            raise ApiError(
                "unavailable", _("{what} could not be stored: try again", what=what)
            ) from None

    # --- life cycle -----------------------------------------------------------------

    async def start(self) -> None:
        """Create the schema, rebuild every unfinished table and resume its bots."""
        if self._started:
            return
        self._started = True
        self._db_thread = ThreadPoolExecutor(1, thread_name_prefix="tikki-db")
        self.tables = {}
        self._finished.clear()
        await self._db(self.store.create_schema)
        if self.ownership.clustered:
            await self._start_cluster()
            return
        stored = await self._db(self.store.unfinished)
        for row in stored:
            try:
                table = self._rebuild(row)
                table.away_since = {s.seat: table.turn_since or now() for s in table.seats
                                    if s.kind == "human"}  # fmt: skip
            except (RulesError, IllegalMove) as err:
                log.error("table %s cannot be rebuilt and stays stopped: %s", row.id, err)
                continue
            self.tables[table.id] = table
            self._wake_bots(table)
        log.info("rebuilt %d unfinished tables", len(self.tables))
        self._sweeper = asyncio.create_task(self._sweep(), name="expire-waiting-tables")
        self._ticker = asyncio.create_task(self._tick_loop(), name="turn-timers")

    async def stop(self) -> None:
        """Stop the bots, close the connections and release the database (a later
        :meth:`start` rebuilds everything from the database)."""
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None]
        tasks += [t for t in (self._sweeper, self._ticker, self._scanner) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for table in self.tables.values():
            for conn in table.connections:
                conn.close(1001)
        await self.ownership.stop()
        await asyncio.to_thread(self.searches.stop)
        await asyncio.to_thread(self.crowd_searches.stop)
        await self._db(self.store.close)
        self._db_thread.shutdown(wait=True)
        self.tables = {}
        self._started = False

    def _rebuild(self, row: StoredTable) -> Table:
        options = dict(row.options)
        rules = options.pop("rules", STORED_BEFORE_REVISIONS)
        memory_aids = bool(options.pop("memory_aids", False))
        forced_moves = bool(options.pop("forced_moves", False))
        rated = bool(options.pop("rated", False))
        turn_timer = options.pop("turn_timer", None)
        on_timeout = options.pop("on_timeout", "wait")
        game = load(row.game, row.players, rules=rules, **options)
        state = game.new_state(seed=row.seed)
        for move in row.moves:
            state.play(move)
        status = row.status
        if state.is_over:
            status = "finished"
        return Table(
            id=row.id,
            game=game,
            state=state,
            seed=row.seed,
            seats=row.seats,
            status=status,
            created=row.created,
            finished=row.finished,
            seq=len(row.moves),
            memory_aids=memory_aids,
            forced_moves=forced_moves,
            rated=rated,
            turn_timer=turn_timer,
            on_timeout=on_timeout,
            takeovers=[Takeover.from_json(t) for t in row.takeovers],
            turn_since=self.clock(),
            last_move=row.last_move or row.created,
            away_after=self.policy.away_after,
            clock=self._now,
            expiry=self.policy.waiting_expiry,
            joined_expiry=self.policy.joined_expiry,
        )

    # --- a cluster of processes (tikki.server.cluster) ------------------------------

    @property
    def owned(self) -> int:
        """Live tables this process owns (all of them without ``--cluster``): the
        metrics' ``tables owned``."""
        return sum(1 for t in self.tables.values() if t.status != "finished")

    async def _start_cluster(self) -> None:
        """Start as one process of a cluster: listen for the others, claim the live
        tables nobody holds, then go on claiming those whose owner died."""
        await self.ownership.start(self._hand_over_table, self._lobby_changed)
        claimed = await self._claim_orphans()
        log.info("cluster node %s took %d live tables", self.ownership.node, len(claimed))
        self._scanner = asyncio.create_task(self._scan_loop(), name="claim-orphan-tables")
        self._sweeper = asyncio.create_task(self._sweep(), name="expire-waiting-tables")
        self._ticker = asyncio.create_task(self._tick_loop(), name="turn-timers")

    async def _scan_loop(self) -> None:
        """Claim the orphans every :data:`~tikki.server.cluster.SCAN_EVERY` seconds, and
        at once when a process says it stopped."""
        wanted = self.ownership.scan_wanted
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wanted.wait(), SCAN_EVERY)
            wanted.clear()
            try:
                await self._claim_orphans()
            except Exception:
                log.exception("claiming the tables of stopped processes failed")
                await asyncio.sleep(SCAN_EVERY)

    async def _claim_orphans(self) -> list[str]:
        """Lock the live tables nobody holds and rebuild them from their stored moves;
        forget every table if the lock connection broke (the others take them)."""
        try:
            claimed = await self.ownership.claim_orphans(self._loading)
        except LocksLost as lost:
            log.error("the cluster's lock connection broke: %d tables go to other processes",
                      len(lost.tables))  # fmt: skip
            for table_id in lost.tables:
                self._forget(table_id)
            return []
        if not claimed:
            return []
        began = asyncio.get_running_loop().time()
        try:
            rows = await self._db(self.store.load_many, claimed)
        except Exception:
            log.exception("reading %d tables to take over failed; another process may",
                          len(claimed))  # fmt: skip
            rows = []
        for row in rows:
            await self._adopt(row)
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
        row = await self._db(self.store.load, table_id)
        if row is None:
            await self.ownership.release(table_id)
            return None
        return await self._adopt(row)

    async def _adopt(self, row: StoredTable) -> Table | None:
        """Rebuild a stored table whose lock this process holds, keep it in memory and
        start its bots (``None``, lock kept, if its moves do not replay)."""
        table_id = row.id
        try:
            table = self._rebuild(row)
        except (RulesError, IllegalMove) as err:
            log.error("table %s cannot be rebuilt and stays stopped: %s", row.id, err)
            return None
        if not self.ownership.holds(table_id):
            return None  # handed over while it was being read
        table.away_since = {s.seat: table.turn_since or now() for s in table.seats
                            if s.kind == "human"}  # fmt: skip
        self.tables[table_id] = table
        self._peeked.pop(table_id, None)
        if table.status == "finished":
            self._retire(table)
            await self.ownership.release(table_id)
        else:
            self._wake_bots(table)
        return table

    async def _get_clustered(self, table_id: str) -> Table:
        """A table that this process of a cluster does not hold: take it over (its owner
        hands it over, or died) and rebuild it; one take-over per table at a time."""
        pending = self._loading.get(table_id)
        if pending is None:
            pending = asyncio.ensure_future(self._take_over(table_id))
            self._loading[table_id] = pending
            pending.add_done_callback(lambda _done: self._loading.pop(table_id, None))
        return await asyncio.shield(pending)

    async def _take_over(self, table_id: str) -> Table:
        if not 0 < len(table_id) <= 32:
            raise _unknown(table_id)
        try:
            taken = await self.ownership.take(table_id)
        except Exception:
            log.exception("taking table %s over failed", table_id)
            taken = False
        if not taken:
            raise _moving(table_id)
        table = await self._load_owned(table_id)
        return table if table is not None else await self._from_store(table_id)

    async def _hand_over_table(self, table_id: str) -> None:
        """Another process asks for a table this one owns: finish the move in flight,
        forget the table, close its connections (they connect again, and reach the new
        owner) and release its lock."""
        table = self.tables.get(table_id)
        if table is not None:
            async with table.lock:
                self._forget(table_id)
        await self.ownership.release(table_id)
        log.info("table %s handed over to another process", table_id)

    def _forget(self, table_id: str) -> None:
        """Drop a table from memory: stop its bots, close its connections (:data:`MOVED`)."""
        table = self.tables.pop(table_id, None)
        if table is None:
            return
        task = table.bot_task
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        for conn in list(table.connections):
            conn.close(MOVED)

    def _check_owned(self, table: Table) -> None:
        """Refuse (``moved``) to change a table this process of a cluster no longer owns
        (handed over while the request waited, or its lock connection broke)."""
        if not self.ownership.clustered:
            return
        if self.tables.get(table.id) is table and self.ownership.holds(table.id):
            return
        raise ApiError(
            "moved",
            _(
                "table {id} moved to another server while your request waited: "
                "connect again and send it again",
                id=table.id,
            ),
            table.seq,
        )

    async def _conflict(self, table: Table) -> NoReturn:
        """Another process stored move ``table.seq`` first (the lock holder changed under
        this one): forget the table, so that the next request reads it back with that
        move, and refuse this move as stale."""
        log.warning("table %s: move %d was stored by another process first; forgetting it",
                    table.id, table.seq)  # fmt: skip
        self._forget(table.id)
        await self.ownership.release(table.id)
        raise ApiError(
            "stale",
            _(
                "another server stored move {seq} of table {id} first: ask for the current "
                "state and play again",
                seq=table.seq,
                id=table.id,
            ),
            table.seq,
        )

    def _lobby_changed(self, table_id: str) -> None:
        """Another process changed a table's lobby entry: read it again when shown."""
        self._peeked.pop(table_id, None)

    async def peek(self, table_id: str) -> Table:
        """A table to show in the lobby: this process's own (or, without a cluster, the
        one :meth:`get` returns); in a cluster, another process's table as read from the
        database at most :data:`PEEK_TTL` seconds ago, never taken over."""
        if not self.ownership.clustered or table_id in self.tables:
            return await self.get(table_id)
        moment = asyncio.get_running_loop().time()
        cached = self._peeked.get(table_id)
        if cached is not None and moment - cached[0] < PEEK_TTL:
            return cached[1]
        row = await self._db(self.store.load, table_id)
        if row is None:
            raise _unknown(table_id)
        table = self._rebuild_or_refuse(row)
        if table.status == "finished" and table_id not in self.tables:
            self.tables[table_id] = table
            self._retire(table)
            return table
        if len(self._peeked) > FINISHED_KEPT:
            self._peeked = {k: v for k, v in self._peeked.items() if moment - v[0] < PEEK_TTL}
        self._peeked[table_id] = (moment, table)
        return table

    # --- lookup ---------------------------------------------------------------------

    async def get(self, table_id: str) -> Table:
        """A table by id, from memory or (finished tables) from the database."""
        table = self.tables.get(table_id)
        if table is not None and (table.status == "finished" or self.ownership.holds(table_id)):
            return table
        if self.ownership.clustered:
            return await self._get_clustered(table_id)
        return await self._from_store(table_id)

    async def _from_store(self, table_id: str) -> Table:
        """A table read back from the database (a finished one, or one that was
        forgotten after another process stored a move first) and kept in memory."""
        row = None
        if 0 < len(table_id) <= 32:
            row = await self._db(self.store.load, table_id)
        if row is None:
            raise _unknown(table_id)
        table = self._rebuild_or_refuse(row)
        if table_id in self.tables:
            return self.tables[table_id]
        if self.ownership.clustered and table.status != "finished":
            raise _moving(table_id)  # another process took it meanwhile
        self.tables[table_id] = table
        if table.status == "finished":
            self._retire(table)
        else:
            self._wake_bots(table)
        return table

    def _rebuild_or_refuse(self, row: StoredTable) -> Table:
        """:meth:`_rebuild`, or ``unknown_table`` if the stored moves do not replay."""
        try:
            return self._rebuild(row)
        except (RulesError, IllegalMove) as err:
            raise ApiError(
                "unknown_table",
                _("table {table_id!r} cannot be rebuilt: {err}", table_id=row.id, err=err),
            ) from None

    def _retire(self, table: Table) -> None:
        """Note a finished table; forget the oldest beyond :data:`FINISHED_KEPT`."""
        self._finished.append(table.id)
        while len(self._finished) > FINISHED_KEPT:
            self.tables.pop(self._finished.popleft(), None)

    async def lobby(self, which: str, limit: int) -> list[Table]:
        """The newest tables of a lobby filter (``open``, ``playing``, ``finished``, ``all``);
        tables being played whose last move is older than the stalled expiry are left out
        (they stay reachable by their links)."""
        await self.expire()
        statuses = STATUSES[which]
        ids = await self._db(self.store.table_ids, list(statuses), limit)
        tables = [await self.peek(table_id) for table_id in ids]
        return [t for t in tables if t.status in statuses and not self.stalled(t)]

    def stalled(self, table: Table) -> bool:
        """Whether a table being played has had no move for longer than the stalled expiry."""
        if table.status != "playing" or table.last_move is None:
            return False
        idle = (self.clock() - table.last_move).total_seconds()
        return idle > self.policy.stalled_expiry

    def _now(self) -> datetime:
        """The manager's clock as it is when called (tests replace :attr:`clock`)."""
        return self.clock()

    # --- create and join ------------------------------------------------------------

    async def create(
        self, request: NewTable, address: str | None = None
    ) -> tuple[Table, dict[int, str]]:
        """Make, store and start a table for the client at ``address``; return it with the
        invite secret of each open seat that is not open to anyone.  :class:`ApiError`
        names what is wrong (``rate_limited`` when a limit is reached)."""
        game = self._game(request)
        timer, on_timeout = leave.parse_timer(
            request.turn_timer, request.on_timeout, self.policy.min_turn_timer
        )
        seats = self._seats(game, request.seats)
        invites = lock_seats(seats, request.anyone)
        seed = seeds.deal_seed(request.seed, [s.kind for s in seats], self.client_seeds)
        bots_only = all(s.kind == "bot" for s in seats)
        site = await self._site_counts()
        self._admit(address, bots_only, site)
        self._pending.append((address, bots_only))  # counted by the caps until stored
        try:
            return await self._make(request, game, seats, invites, seed, address, timer, on_timeout)
        finally:
            self._pending.remove((address, bots_only))

    async def _make(
        self,
        request: NewTable,
        game: Game,
        seats: list[StoredSeat],
        invites: dict[int, str],
        seed: int,
        address: str | None,
        timer: int | None,
        on_timeout: str,
    ) -> tuple[Table, dict[int, str]]:
        """Store and start an admitted table."""
        state = game.new_state(seed=seed)
        status = "waiting" if any(s.kind == "open" for s in seats) else "playing"
        created = now()
        for _attempt in range(10):
            table_id = secrets.token_hex(4)
            stored = StoredTable(
                table_id, game.name, game.players, game.options["variant"],
                {**game.options, "rules": game.rules, "memory_aids": request.memory_aids,
                 "turn_timer": timer, "on_timeout": on_timeout,
                 "forced_moves": request.forced_moves, "rated": request.rated},
                seed, status, created, None, None, seats, [],
            )  # fmt: skip
            if table_id in self.tables or not await self._lock_new(table_id):
                continue
            if await self._write(_("the new table"), self.store.add_table, stored):
                break
            await self.ownership.release(table_id)
        else:
            raise ApiError("unavailable", _("no free table id could be stored: try again"))
        table = Table(
            table_id, game, state, seed, seats, status, created,
            memory_aids=request.memory_aids, owner=address, turn_timer=timer,
            on_timeout=on_timeout, turn_since=created, last_move=created,
            forced_moves=request.forced_moves, rated=request.rated,
            away_after=self.policy.away_after, clock=self._now,
            expiry=self.policy.waiting_expiry, joined_expiry=self.policy.joined_expiry,
        )  # fmt: skip
        self.tables[table_id] = table
        self._wake_bots(table)
        await self.ownership.changed(table_id)
        return table, invites

    async def _lock_new(self, table_id: str) -> bool:
        """Lock a new table's id before storing it (a cluster; ``False``: taken)."""
        try:
            return await self.ownership.acquire(table_id)
        except Exception:
            log.exception("locking the new table %s failed", table_id)
            raise ApiError(
                "unavailable", _("{what} could not be stored: try again", what=_("the new table"))
            ) from None

    async def _site_counts(self) -> tuple[int, int] | None:
        """A cluster's live tables and bot-only tables in the whole database (``None``
        without a cluster, or when they cannot be read: this process's count then)."""
        if not self.ownership.clustered:
            return None
        try:
            return await self._db(self.store.live_counts)
        except Exception:
            log.exception("counting the cluster's live tables failed")
            return None

    def _admit(
        self, address: str | None, bots_only: bool = False, site: tuple[int, int] | None = None
    ) -> None:
        """Refuse a new table over the caps or the creation rate (nothing is spent then).

        Tables being created count too, so the caps hold however many ask at once; with
        ``site`` (a cluster's counts in the database) the table caps hold for the site."""
        live = [t for t in self.tables.values() if t.status != "finished"]
        policy = self.policy
        n_live = len(live) + len(self._pending)
        if site is not None:
            n_live = max(n_live, site[0] + len(self._pending))
        if n_live >= policy.max_tables:
            raise rate_limited(
                _(
                    "the server has {n_live} live tables, its limit: join a "
                    "waiting table from the lobby, or create one later",
                    n_live=n_live,
                ),
                CAP_RETRY,
            )
        if bots_only:
            bots = sum(1 for t in live if all(s.kind == "bot" for s in t.seats))
            bots += sum(1 for _a, b in self._pending if b)
            if site is not None:
                bots = max(bots, site[1] + sum(1 for _a, b in self._pending if b))
            if bots >= policy.max_bot_tables:
                raise rate_limited(
                    _(
                        "the server has {n} tables where only bots play, its limit: "
                        "sit at a table yourself, or try later",
                        n=bots,
                    ),
                    CAP_RETRY,
                )
        if address is None:
            return
        own = sum(1 for t in live if t.owner == address)
        own += sum(1 for a, _b in self._pending if a == address)
        if own >= policy.tables_per_address:
            raise rate_limited(
                _(
                    "your address has {own} live tables, the limit per address: "
                    "finish one (or let a waiting one expire) before creating "
                    "more",
                    own=own,
                ),
                CAP_RETRY,
            )
        if not bots_only:
            lone = sum(1 for t in live if t.owner == address and t.expires() and not t.joined)
            lone += sum(1 for a, b in self._pending if a == address and not b)
            if lone >= policy.waiting_per_address:
                raise rate_limited(
                    _(
                        "your address has {n} tables waiting for players that nobody else "
                        "joined, the limit: share their invite links, or let one expire",
                        n=lone,
                    ),
                    CAP_RETRY,
                )
        self.creates.spend(
            address,
            lambda: _(
                "your address may create {create_per_minute:g} tables a minute",
                create_per_minute=policy.create_per_minute,
            ),
        )

    @staticmethod
    def _game(request: NewTable) -> Game:
        options = dict(request.options)
        if "rules" in options:
            raise ApiError(
                "bad_options",
                _(
                    "rules is not an option: new tables play rulings revision {revision}",
                    revision=RULES_REVISION,
                ),
            )
        if request.variant is not None:
            options["variant"] = request.variant
        players = request.players if request.players is not None else len(request.seats)
        try:
            game = load(request.game, players, **options)
        except (RulesError, TypeError, ValueError) as err:
            raise ApiError("bad_options", str(err)) from None
        if request.memory_aids and not game.memory_aids:
            raise ApiError(
                "bad_options",
                _(
                    "memory_aids is a {games} table option: the other games show every card",
                    games=memory_aid_titles(),
                ),
            )
        if len(request.seats) != game.players:
            raise ApiError(
                "bad_options",
                _(
                    "a table of {players} players needs {players} seats (open or "
                    "bot), got {n_seats}",
                    players=game.players,
                    n_seats=len(request.seats),
                ),
            )
        return game

    def _seats(self, game: Game, wanted: list[tuple[str, str | None]]) -> list[StoredSeat]:
        seats: list[StoredSeat] = []
        for i, (kind, spec) in enumerate(wanted):
            if kind == "open":
                seats.append(StoredSeat(i, "open"))
                continue
            if spec is None:
                raise ApiError(
                    "bad_bot", _("seat {i} is a bot seat: give its spec, e.g. heuristic", i=i)
                )
            try:
                spec = botplay.check_spec(spec, game, self.policy.allow_bot_specs)
            except RulesError as err:
                raise ApiError("bad_bot", _("seat {i}: {err}", i=i, err=err)) from None
            bots = sum(1 for s in seats if s.kind == "bot")
            seats.append(StoredSeat(i, "bot", botplay.label(spec, bots), spec))
        return seats

    async def join(
        self,
        table_id: str,
        seat: int,
        name: str,
        invite: str | None = None,
        address: str | None = None,
    ) -> tuple[Table, str]:
        """Take an open seat for the client at ``address`` (with its ``invite`` secret
        unless it is open to anyone); return the table and the seat's new token."""
        table = await self.get(table_id)
        if not 0 <= seat < len(table.seats):
            raise ApiError(
                "unknown_seat",
                _(
                    "table {table_id} has no seat {seat}: seats are 0–{last}",
                    table_id=table_id,
                    seat=seat,
                    last=len(table.seats) - 1,
                ),
            )
        if address is not None and table.seats[seat].kind == "open":
            self.joins.spend(
                address,
                lambda: _(
                    "your address may take {join_per_minute:g} seats a minute",
                    join_per_minute=self.policy.join_per_minute,
                ),
            )
        async with table.lock:
            self._check_owned(table)
            held = table.seats[seat]
            if held.kind != "open":
                raise ApiError("seat_taken", _taken_message(table, held))
            check_invite(table, held, invite)
            token = secrets.token_urlsafe(24)
            new = StoredSeat(seat, "human", name, None, hash_token(token))
            status = "playing" if len(table.open_seats) == 1 else "waiting"
            await self._write(
                _("your seat {seat}", seat=seat), self.store.take_seat, table.id, new, status
            )
            table.seats[seat] = new
            table.status = status
            table.away_since[seat] = self.clock()
            table.joined = table.joined or (address is not None and address != table.owner)
            if status == "playing":
                table.turn_since = table.last_move = self.clock()
        table.broadcast()
        self._wake_bots(table)
        await self.ownership.changed(table.id)
        return table, token

    # --- rematch --------------------------------------------------------------------

    async def rematch(
        self, table: Table, seat: int | None, address: str | None = None
    ) -> tuple[Table, int, str]:
        """Seat the player of ``seat`` (a person at the finished ``table``) at its rematch:
        the same game, options, people and bots, every seat moved one place on, so the
        dealer moves on.  The first request makes the new table; each person's request
        takes that person's seat there.  Return the new table, the new seat and its token."""
        if seat is None:
            raise ApiError(
                "spectator", _("spectators cannot ask for a rematch: a seat's token can")
            )
        if table.status != "finished":
            raise ApiError(
                "not_finished",
                _("table {id} is still being played: play again at its end", id=table.id),
            )
        async with table.lock:
            if table.rematch is None:
                new, invites = await self.create(rematch_request(table), address)
                table.rematch, table.rematch_invites = new.id, invites
        table.broadcast()
        new_seat = (seat - 1) % len(table.seats)
        try:
            new_table, token = await self.join(
                table.rematch,
                new_seat,
                table.seats[seat].name or f"Seat {seat}",
                table.rematch_invites.get(new_seat),
            )
        except ApiError as err:
            if err.code == "seat_taken":
                raise ApiError(
                    "seat_taken",
                    _(
                        "you already hold seat {new_seat} at the rematch {rematch}: "
                        "its token was given with your first request",
                        new_seat=new_seat,
                        rematch=table.rematch,
                    ),
                ) from None
            raise
        return new_table, new_seat, token

    # --- moves ----------------------------------------------------------------------

    async def move(
        self, table: Table, seat: int | None, move: str, seq: int, by_bot: bool = False
    ) -> None:
        """Check and apply one move of ``seat`` made against ``seq``; store and broadcast it.

        A person's move ends a stand-in bot that plays while they were away (they are
        back); a resigned person's is refused.  ``by_bot``: the seat's bot (or stand-in)
        moves, refused once the person has taken the seat back."""
        arrived = asyncio.get_running_loop().time()
        async with table.lock:
            self._check_turn(table, seat, seq, moving=True)
            assert seat is not None
            forced = by_bot and self._forced(table, seat)
            if by_bot and not forced and self._bot_spec(table, seat) is None:
                message = _("seat {seat} is played by its person again", seat=seat)
                raise ApiError("not_your_turn", message)
            if not by_bot:
                stand_in = active(table.takeovers, seat)
                if stand_in is not None and stand_in.why in TAKEN_BACK:
                    _check_legal(table, move)  # an illegal move leaves the bot playing
                await self._take_back(table, seat)
            await self._apply(table, seat, move)
            if forced:
                table.forced[table.seq - 1] = seat
            stand_in = active(table.takeovers, seat) if by_bot else None
            if stand_in is not None and stand_in.why == "timeout":
                await self._end_stand_in(table, seat)  # that one turn only: the person is here
        table.broadcast()
        self._wake_bots(table)
        if self.on_move is not None:
            self.on_move(by_bot, asyncio.get_running_loop().time() - arrived)

    @staticmethod
    def _check_turn(table: Table, seat: int | None, seq: int | None, moving: bool) -> None:
        verb = "play" if moving else "ask for a hint"
        if seat is None:
            raise ApiError(
                "spectator",
                _("spectators cannot {verb}: join an open seat and use its token", verb=verb),
                table.seq,
            )
        if table.status == "waiting":
            raise ApiError(
                "not_started",
                _(
                    "the game has not started: seats {seat_list} are still open; "
                    "wait until every seat is taken",
                    seat_list=_seat_list(table.open_seats),
                ),
                table.seq,
            )
        if table.status == "finished":
            raise ApiError(
                "finished", _("the game is over: GET its record to review it"), table.seq
            )
        if seq is not None and seq != table.seq:
            raise ApiError(
                "stale",
                _(
                    "move made against state {seq}, the table is at state {now}: "
                    "send your move again with the current seq",
                    seq=seq,
                    now=table.seq,
                ),
                table.seq,
            )
        to_act = table.state.current_player
        if to_act != seat:
            raise ApiError(
                "not_your_turn",
                _(
                    "it is seat {to_act}'s turn, not yours (seat {seat}): wait for your turn",
                    to_act=to_act,
                    seat=seat,
                ),
                table.seq,
            )

    async def _apply(self, table: Table, seat: int, move: str) -> None:
        """Play the move on a copy, store it, then swap the copy in (readers never see a
        state ahead of its seq, nor a move that is not stored)."""
        self._check_owned(table)
        state = table.state.clone()
        try:
            state.play(move)
        except IllegalMove as err:
            raise ApiError("illegal_move", str(err), table.seq) from None
        outcome = state.outcome if state.is_over else None
        played = state.moves[-1]
        try:
            await self._db(self.store.add_move, table.id, table.seq, seat, played, outcome)
        except MoveConflict:
            await self._conflict(table)
        except Exception:
            log.exception("storing move %d of table %s failed", table.seq, table.id)
            raise ApiError(
                "unavailable", _("the move could not be stored: try again"), table.seq
            ) from None
        table.state = state
        table.seq += 1
        table.turn_since = table.last_move = self.clock()
        if outcome is not None:
            table.status = "finished"
            table.finished = now()
            self._retire(table)
            await self.ownership.release(table.id)
            await self.ownership.changed(table.id)
            if self.on_finished is not None:
                self.on_finished(table)

    # --- bots and hints -------------------------------------------------------------

    def _wake_bots(self, table: Table) -> None:
        if table.status != "playing" or not self._started:
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        if self._bot_to_act(table) is None:
            return
        table.bot_task = asyncio.create_task(self._bot_turns(table), name=f"bots-{table.id}")

    @staticmethod
    def _bot_spec(table: Table, seat: int) -> str | None:
        """The bot that plays ``seat``: its own, or the stand-in for its person."""
        held = table.seats[seat]
        if held.kind == "bot":
            return held.bot
        stand_in = active(table.takeovers, seat) if held.kind == "human" else None
        return None if stand_in is None else stand_in.bot

    @classmethod
    def _bot_to_act(cls, table: Table) -> tuple[int, str] | None:
        """The seat to act and its bot, when a bot (or a stand-in) is to act."""
        if table.status != "playing":
            return None
        seat = table.state.current_player
        if seat is None:
            return None
        spec = cls._bot_spec(table, seat)
        if spec is None and cls._forced(table, seat):
            return seat, FORCED
        return None if spec is None else (seat, spec)

    @staticmethod
    def _forced(table: Table, seat: int) -> bool:
        """Whether ``seat`` is a person (no bot playing for them) to act with a single
        legal move at a table that plays forced moves by themselves."""
        return (
            table.forced_moves
            and table.seats[seat].kind == "human"
            and active(table.takeovers, seat) is None
            and table.state.current_player == seat
            and len(table.state.legal_moves()) == 1
        )

    async def _bot_turns(self, table: Table) -> None:
        """Play the bot seats for as long as a bot is to act."""
        while (bot := self._bot_to_act(table)) is not None:
            await asyncio.sleep(self.bot_delay)
            if self._bot_to_act(table) != bot:
                continue  # a person came back meanwhile
            seat, spec = bot
            seq = table.seq
            move = None
            if spec == FORCED:
                move = table.state.legal_moves()[0]
            elif not botplay.is_cheap(spec):
                view = table.state.view(seat)
                seed = botplay.bot_seed(table.seed, seat, seq)
                move = await self._think(spec, table, view, seed)
            async with self._turn_slots.slot(table.lane, table.id):
                if not await self._bot_move(table, seat, spec, seq, move):
                    return

    async def _bot_move(
        self, table: Table, seat: int, spec: str, seq: int, move: str | None = None
    ) -> bool:
        """Play one bot move (a cheap bot decides here, on the event loop); ``False`` when
        the move was refused for good (the bots of this table stop)."""
        if move is None:
            seed = botplay.bot_seed(table.seed, seat, seq)
            move = await self._think(spec, table, table.state.view(seat), seed)
        try:
            await self.move(table, seat, move, seq, by_bot=True)
        except ApiError as err:
            if err.code in ("stale", "not_your_turn") and self._bot_to_act(table) is None:
                return False  # the person took the seat back before the bot moved
            if err.code in ("stale", "not_your_turn") and spec == FORCED:
                return True  # the person played their forced move first: play on
            log.error("bot move %r at table %s refused: %s", move, table.id, err.message)
            if err.code != "unavailable":
                return False
            await asyncio.sleep(1.0)
        return True

    def search_slot(
        self, lane: str, key: str, people: bool = False
    ) -> AbstractAsyncContextManager[None]:
        """A fair turn in the search pool for other heavy work (analyses: the crowd's
        share, behind people's tables), by ``lane``."""
        return self._search_slots.slot(lane, key, people)

    def bot_queue(self) -> int:
        """The tables where a bot is due to move (waiting its delay, its turn or its
        search)."""
        return sum(1 for t in self.tables.values() if t.bot_task and not t.bot_task.done())

    def search_place(self, lane: str, key: str) -> int | None:
        """The place of a crowd search in the queue (1: next; ``None``: not waiting)."""
        return self._search_slots.place(lane, key)

    async def _think(self, spec: str, table: Table, view: JSON, seed: int) -> str:
        """The bot's move: cheap bots (well under a millisecond) decide on the event loop,
        searching ones in a worker process, in their fair turn (never on the loop)."""
        game = table.game
        try:
            if botplay.is_cheap(spec):
                return botplay.choose(spec, game, view, seed)
            people = any(s.kind == "human" for s in table.seats)
            pool = self.searches if people else self.crowd_searches
            async with self._search_slots.slot(table.lane, table.id, people):
                return await pool.choose(spec, game, view, seed)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot %s failed; playing a random move instead", spec)
            return botplay.choose("random", game, view, seed)

    async def hint(self, table: Table, seat: int | None) -> str:
        """What the hint bot would play from this seat's view (only on the seat's turn).

        The default hint bot, ``judge``, is the analysis's judge (:func:`tikki.analysis.hint`:
        the expert's search at the analysis's budget and seed for this move), so the hint
        is the move "Analyse my game" will rate best here."""
        self._check_turn(table, seat, None, moving=False)
        assert seat is not None
        view = table.state.view(seat)
        if self.hint_bot == JUDGE:
            return await self._judge_hint(table, view)
        seed = botplay.bot_seed(table.seed, seat, table.seq, "hint")
        return await self._think(self.hint_bot, table, view, seed)

    async def _judge_hint(self, table: Table, view: JSON) -> str:
        """The judge's move for ``view``, in a worker process in the table's fair turn."""
        from tikki import analysis

        game = table.game
        number = len(table.state.moves) + 1
        task: analysis.Task = (
            game.name, game.players, game.rules, tuple(sorted(game.options.items())), view,
            number, "", "", analysis.decision_seed(0, number),
        )  # fmt: skip
        iterations = self.policy.analysis_iterations
        async with self._search_slots.slot(table.lane, table.id):
            return await self.searches.run(analysis.best_task, task, iterations)

    # --- people who leave: resign, hand over, come back, turn timers -----------------

    async def _set_takeovers(self, table: Table, takeovers: list[Takeover]) -> None:
        """Store a table's new stand-ins, then use them (nothing changes if storing fails)."""
        self._check_owned(table)
        stored = [t.json() for t in takeovers]
        await self._write("the seat's bot", self.store.set_takeovers, table.id, stored)
        table.takeovers = takeovers

    @staticmethod
    def _check_playing(table: Table, seat: int | None, resigning: bool) -> int:
        """``seat`` if it may resign (``resigning``) or hand a seat to a bot now."""
        if seat is None:
            if resigning:
                message = _("spectators cannot resign: only a seat's token can")
            else:
                message = _("spectators cannot hand a seat to a bot: only a seat's token can")
            raise ApiError("spectator", message)
        if table.status != "playing":
            over = table.status == "finished"
            raise ApiError(
                "finished" if over else "not_started",
                _not_playing(table.id, over, resigning),
                table.seq,
            )
        return seat

    async def resign(self, table: Table, seat: int | None) -> None:
        """Resign ``seat``: a Medium bot plays it to the end (the record says so); its
        person can still watch with the token."""
        seat = self._check_playing(table, seat, resigning=True)
        async with table.lock:
            now_playing = active(table.takeovers, seat)
            if now_playing is not None and now_playing.why == "resigned":
                message = _(
                    "you resigned at move {move}: a bot plays your seat to the end",
                    move=now_playing.start,
                )
                raise ApiError("resigned", message, table.seq)
            kept = leave.ended(table.takeovers, seat, table.seq)
            await self._set_takeovers(
                table, [*kept, Takeover(seat, table.seq, STAND_IN, "resigned")]
            )
        log.info("table %s: seat %d resigned at move %d; a bot plays it", table.id, seat, table.seq)
        table.broadcast()
        self._wake_bots(table)

    async def hand_to_bot(self, table: Table, by: int | None, seat: int) -> None:
        """Hand the seat of a person who is away (for :attr:`Policy.away_after`) or whose
        turn timer ran out to a Medium bot, at the request of another seated person."""
        by = self._check_playing(table, by, resigning=False)
        if not 0 <= seat < len(table.seats):
            raise ApiError(
                "unknown_seat",
                _(
                    "table {table_id} has no seat {seat}: seats are 0–{last}",
                    table_id=table.id,
                    seat=seat,
                    last=len(table.seats) - 1,
                ),
            )
        if seat == by:
            raise ApiError("not_away", _("this is your own seat: resign to hand it to a bot"))
        async with table.lock:
            held = table.seats[seat]
            wait = table.hand_over_in(held)
            if wait is None or wait > 0:
                raise ApiError("not_away", _not_away(table, held, wait), table.seq)
            why = await self._hand_over(table, seat)
        log.info("table %s: seat %d (%s) handed to a bot by seat %d (%s) at move %d",
                 table.id, seat, why, by, held.name, table.seq)  # fmt: skip
        table.broadcast()
        self._wake_bots(table)

    async def _hand_over(self, table: Table, seat: int) -> str:
        """Give ``seat`` (which may be handed over now; the lock is held) a stand-in and
        return why: ``timeout`` when its person is here but their turn timer ran out (the
        bot plays that one turn), ``away`` when they have no connection (the bot plays
        until they come back)."""
        here = seat not in table.away_since
        timed_out = table.timed_out == table.seq and table.state.current_player == seat
        why = "timeout" if timed_out and here else "away"
        takeover = Takeover(seat, table.seq, STAND_IN, why)
        await self._set_takeovers(table, [*table.takeovers, takeover])
        return why

    @staticmethod
    def unattended(table: Table) -> list[int]:
        """The away seats the server hands to a bot by itself: seats that may be handed
        over, whose person has no connection, at a table where no other person who
        still plays (seated, present, no stand-in) is left to do it."""
        if table.status != "playing":
            return []
        still_playing = [
            s.seat
            for s in table.seats
            if s.kind == "human" and table.connected(s) and active(table.takeovers, s.seat) is None
        ]
        return [
            s.seat
            for s in table.seats
            if s.seat in table.away_since
            and table.hand_over_in(s) == 0
            and not [p for p in still_playing if p != s.seat]
        ]

    async def _hand_over_unattended(self, table: Table) -> bool:
        """Hand every :meth:`unattended` seat of ``table`` to a bot; whether any was."""
        async with table.lock:
            seats = self.unattended(table)
            for seat in seats:
                await self._hand_over(table, seat)
                log.info("table %s: seat %d handed to a bot by the server at move %d "
                         "(nobody who still plays is here)", table.id, seat, table.seq)  # fmt: skip
        if seats:
            table.broadcast()
            self._wake_bots(table)
        return bool(seats)

    async def come_back(self, table: Table, seat: int | None) -> bool:
        """The person of ``seat`` is back: a stand-in that played while they were away
        stops at once.  Returns whether one did."""
        if seat is None:
            return False
        async with table.lock:
            back = await self._take_back(table, seat, refuse_resigned=False)
        if back:
            table.broadcast()
        return back

    async def _end_stand_in(self, table: Table, seat: int) -> None:
        """End the stand-in of ``seat`` now (the lock is held; its move stands even if
        storing the end fails: the log says why)."""
        takeovers = leave.ended(table.takeovers, seat, table.seq)
        try:
            await self._set_takeovers(table, takeovers)
        except ApiError:
            table.takeovers = takeovers

    async def _take_back(self, table: Table, seat: int, refuse_resigned: bool = True) -> bool:
        """End the away stand-in of ``seat`` (the lock is held); refuse a resigned seat."""
        stand_in = active(table.takeovers, seat)
        if stand_in is None:
            return False
        if stand_in.why not in TAKEN_BACK:
            if refuse_resigned:
                raise ApiError(
                    "resigned",
                    _(
                        "you resigned at move {move}: a bot plays your seat to the end; you can "
                        "still watch",
                        move=stand_in.start,
                    ),
                    table.seq,
                )
            return False
        await self._set_takeovers(table, leave.ended(table.takeovers, seat, table.seq))
        table.turn_since = self.clock()
        log.info("table %s: seat %d is back at move %d; its bot stops", table.id, seat, table.seq)
        return True

    async def _tick_loop(self) -> None:
        """Check the turn timers every :data:`TICK` seconds."""
        while True:
            await asyncio.sleep(TICK)
            try:
                await self.tick()
            except Exception:
                log.exception("checking the turn timers failed")

    async def tick(self) -> list[str]:
        """Act on every turn timer that ran out (on the manager's clock): a bot plays the
        turn (``on_timeout`` ``bot``), or the others learn that they may hand the seat to
        a bot (``wait``); tell the tables whose people have now been away long enough.
        Returns the ids of the tables whose timers were acted on."""
        due = []
        now = self.clock()
        away = timedelta(seconds=self.policy.away_after)
        for table in list(self.tables.values()):
            if table.status != "playing":
                continue
            if _timer_ran_out(table, now):
                due.append(table)
            elif table.away_since and now - min(table.away_since.values()) >= away:
                self._announce_away(table)
        acted = []
        for table in due:
            if await self._time_out(table):
                acted.append(table.id)
        for table in list(self.tables.values()):
            if table.away_since and self.unattended(table):
                try:
                    if await self._hand_over_unattended(table) and table.id not in acted:
                        acted.append(table.id)
                except ApiError as err:
                    log.error("handing table %s's away seats to a bot failed: %s",
                              table.id, err.message)  # fmt: skip
        return acted

    @staticmethod
    def _announce_away(table: Table) -> None:
        """Broadcast once when seats become ones the others may hand to a bot."""
        ready = {s.seat for s in table.seats if table.hand_over_in(s) == 0}
        if ready - table.announced:
            table.broadcast()
        table.announced = ready

    async def _time_out(self, table: Table) -> bool:
        async with table.lock:
            timer = table.timer()
            if timer is None or timer["left"] > 0 or timer["timed_out"]:
                return False
            seat, seq = int(timer["seat"]), table.seq
            table.timed_out = seq
            if table.on_timeout == "bot":
                view = table.state.view(seat)
                move = botplay.choose(STAND_IN, table.game, view,
                                      botplay.bot_seed(table.seed, seat, seq, "timer"))  # fmt: skip
                try:
                    await self._apply(table, seat, move)
                except ApiError as err:
                    table.timed_out = None  # try again at the next tick
                    log.error("timer move at table %s failed: %s", table.id, err.message)
                    return False
                note = Takeover(seat, seq, STAND_IN, "timer", seq + 1)
                try:
                    await self._set_takeovers(table, [*table.takeovers, note])
                except ApiError:
                    table.takeovers = [*table.takeovers, note]  # the move stands; log said why
            log.info("table %s: seat %d's turn timer ran out at move %d (%s)",
                     table.id, seat, seq, table.on_timeout)  # fmt: skip
        table.broadcast()
        self._wake_bots(table)
        return True

    # --- expiry ---------------------------------------------------------------------

    async def _sweep(self) -> None:
        """Expire waiting tables now and then (every tenth of the expiry, at most a minute)."""
        every = min(60.0, self.policy.waiting_expiry / 10)
        while True:
            await self.expire()
            await asyncio.sleep(every)

    async def expire(self) -> list[str]:
        """Remove the tables that have waited for players longer than the expiry; their
        connections are closed with 4410.  Returns their ids."""
        moment = self.clock()
        old = [t for t in self.tables.values() if (e := t.expires()) is not None and e <= moment]
        gone = []
        for table in old:
            async with table.lock:
                if table.status != "waiting":
                    continue
                try:
                    await self._db(self.store.drop_table, table.id)
                except Exception:
                    log.exception("expiring table %s failed; it stays", table.id)
                    continue
                self.tables.pop(table.id, None)
                for conn in table.connections:
                    conn.close(EXPIRED)
                gone.append(table.id)
                await self.ownership.release(table.id)
                await self.ownership.changed(table.id)
        if gone:
            log.info("expired %d waiting tables", len(gone))
        return gone

    def keep_open(self, table: Table, seat: int | None) -> None:
        """A seated person keeps a waiting table open: its expiry starts again."""
        if seat is None:
            raise ApiError(
                "spectator",
                _("only a person seated at a waiting table can keep it open: send your token"),
            )
        if table.status != "waiting":
            raise ApiError(
                "not_waiting",
                _("table {id} is not waiting for players: it needs no keeping open", id=table.id),
                table.seq,
            )
        table.kept = self.clock()
        table.broadcast()

    # --- seat custody ---------------------------------------------------------------

    def seen(self, table: Table, seat: int | None) -> None:
        """The person of ``seat`` acted (an authenticated request): they are present, so
        the time until the others may hand their seat to a bot starts again from now."""
        if seat is not None:
            table.acted[seat] = self.clock()

    async def revoke(self, table: Table, seat: int | None) -> str:
        """Give ``seat`` a new token and end every other session holding it (their
        connections close with :data:`REVOKED`); return the new token."""
        if seat is None:
            raise ApiError("spectator", _("spectators hold no seat: send the seat's token"))
        async with table.lock:
            token = secrets.token_urlsafe(24)
            held = table.seats[seat]
            new = replace(held, token_hash=hash_token(token))
            await self._write(
                _("your seat {seat}", seat=seat), self.store.take_seat, table.id, new, table.status
            )
            table.seats[seat] = new
        text = json.dumps(
            ApiError(
                "revoked",
                _("this device's link to the seat was revoked by its holder"),
                table.seq,
            ).message_json()
        )
        for conn in list(table.connections):
            if conn.seat == seat:
                conn.push(text)
                conn.close(REVOKED)
        log.info("table %s: seat %d's device links were revoked", table.id, seat)
        return token

    # --- connections ----------------------------------------------------------------

    def connect(self, table: Table, seat: int | None, lang: str = "en") -> Connection:
        """Register a connection (its texts in ``lang``); others learn that the seat is
        present."""
        conn = Connection(seat, lang=lang)
        table.connections.add(conn)
        if seat is not None:
            table.away_since.pop(seat, None)
        if seat is not None:
            table.broadcast()
        else:
            with use(lang):
                conn.push(json.dumps(table.state_message(None)), state=True)
        return conn

    def disconnect(self, table: Table, conn: Connection) -> None:
        """Forget a connection; others learn when its seat is no longer present."""
        table.connections.discard(conn)
        if conn.seat is not None and not any(c.seat == conn.seat for c in table.connections):
            table.away_since[conn.seat] = self.clock()
            table.broadcast()


def _moving(table_id: str) -> ApiError:
    """The refusal while a table moves between the processes of a cluster."""
    return ApiError(
        "unavailable",
        _("table {id} is moving to another server: try again in a moment", id=table_id),
    )


def _unknown(table_id: str) -> ApiError:
    """The ``unknown_table`` refusal."""
    return ApiError(
        "unknown_table",
        _(
            "there is no table {table_id!r}: GET /api/tables lists the open ones",
            table_id=table_id,
        ),
    )


def rematch_request(table: Table) -> NewTable:
    """The request for a finished table's rematch: the same game and options, bots at
    their seats and an invite-only open seat per person, all moved one place on (the
    player after the old seat 0 leads, the old seat 0 deals)."""
    n = len(table.seats)
    old = [table.seats[(j + 1) % n] for j in range(n)]
    return NewTable(
        game=table.game.name,
        players=n,
        variant=None,
        options=dict(table.game.options),
        seats=[("bot", s.bot) if s.kind == "bot" else ("open", None) for s in old],
        seed=None,
        memory_aids=table.memory_aids,
        turn_timer=table.turn_timer,
        on_timeout=table.on_timeout,
        forced_moves=table.forced_moves,
        rated=table.rated,
    )


def lock_seats(seats: list[StoredSeat], anyone: frozenset[int]) -> dict[int, str]:
    """Give every open seat not in ``anyone`` a fresh invite secret (stored hashed);
    return the secrets by seat."""
    invites: dict[int, str] = {}
    for seat in seats:
        if seat.kind == "open" and seat.seat not in anyone:
            invites[seat.seat] = secrets.token_urlsafe(16)
            seat.invite_hash = hash_token(invites[seat.seat])
    return invites


def check_invite(table: Table, seat: StoredSeat, invite: str | None) -> None:
    """Refuse (``bad_invite``) to seat anyone without the seat's invite secret."""
    if seat.invite_hash is None:
        return
    if invite is not None and hmac.compare_digest(hash_token(invite), seat.invite_hash):
        return
    anyone = [s.seat for s in table.seats if s.kind == "open" and s.invite_hash is None]
    kept = _(
        "seat {seat} of table {table} is kept for the holder of its invite link: "
        "open the link you were sent (it ends in #invite=…)",
        seat=seat.seat,
        table=table.id,
    )
    if anyone:
        kept += _(", or take a seat open to anyone: {seats}", seats=_seat_list(anyone))
    raise ApiError("bad_invite", kept)


def _timer_ran_out(table: Table, now: datetime) -> bool:
    """Whether the table's turn timer ran out by ``now`` and was not acted on yet (a
    quick test first: the server asks it of every table every second)."""
    if table.turn_timer is None or table.turn_since is None or table.timed_out == table.seq:
        return False
    if now < table.turn_since + timedelta(seconds=table.turn_timer):
        return False
    timer = table.timer()
    return timer is not None and timer["left"] <= 0


def _check_legal(table: Table, move: str) -> None:
    """Refuse (``illegal_move``) a move the engine would refuse, changing nothing."""
    try:
        table.state.clone().play(move)
    except IllegalMove as err:
        raise ApiError("illegal_move", str(err), table.seq) from None


def _not_playing(table: str, over: bool, resigning: bool) -> str:
    """Why a table that is not being played refuses a resign or a hand-over."""
    if over and resigning:
        return _("table {table} is finished: only a game being played lets you resign", table=table)
    if over:
        return _(
            "table {table} is finished: only a game being played lets you hand a seat to a bot",
            table=table,
        )
    if resigning:
        return _("table {table} is waiting: only a game being played lets you resign", table=table)
    return _(
        "table {table} is waiting: only a game being played lets you hand a seat to a bot",
        table=table,
    )


def _not_away(table: Table, held: StoredSeat, wait: float | None) -> str:
    who = held.name or held.kind
    seat = held.seat
    if held.kind != "human":
        return _(
            "seat {seat} ({who}) is not a person's seat: only a person who is away can be replaced",
            seat=seat,
            who=who,
        )
    if active(table.takeovers, held.seat) is not None:
        return _("a bot already plays seat {seat} ({who})", seat=seat, who=who)
    if wait is None:
        return _(
            "seat {seat} ({who}) is here: a seat can be handed to a bot after its person has "
            "been away {away} s, or when their turn timer ran out",
            seat=seat,
            who=who,
            away=f"{table.away_after:g}",
        )
    return _(
        "seat {seat} ({who}) has been away a short while: you may hand it to a bot in {wait} s",
        seat=seat,
        who=who,
        wait=f"{wait:g}",
    )


def _seat_list(seats: Iterable[int]) -> str:
    return ", ".join(str(s) for s in seats) or _("none")


def _taken_message(table: Table, held: StoredSeat) -> str:
    who = held.name or held.kind
    return _(
        "seat {seat} of table {table} is taken ({who}): open seats are {open}",
        seat=held.seat,
        table=table.id,
        who=who,
        open=_seat_list(table.open_seats),
    )


__all__ = ["TableManager", "check_invite", "lock_seats", "rematch_request"]
