"""The manager's shared core, :class:`ManagerBase`: its state, its storage thread and the
registry of live tables (rebuilding a table from its stored moves, finding one in memory
or in the database, retiring finished ones, forgetting one another process took).

Each concern of :class:`~tikki.server.tables.TableManager` is a mixin over this class in a
module of its own.  A mixin that builds on another inherits it (moves on leave, bots and
timers on moves, rematch on seats); the few calls that go the other way are declared here
as abstract methods, so each module says what it needs and mypy checks that the manager
provides it."""

from __future__ import annotations

import asyncio
import logging
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any, TypeVar

from tikki.core import IllegalMove, RulesError, load
from tikki.i18n import _
from tikki.server.cluster import Ownership
from tikki.server.db import Store, StoredTable, now
from tikki.server.errors import ApiError
from tikki.server.pool import CROWD_NICE, BotPool, FairSlots, SearchPool
from tikki.server.quota import Policy, RateLimiter
from tikki.server.tables.table import MOVED, NewTable, Table, Takeover

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


class ManagerBase(ABC):
    """The state every concern of the table manager shares, and the registry of its tables."""

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

    # --- storage ------------------------------------------------------------------

    async def _db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a storage call on the storage thread (never on the event loop)."""
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

    def _now(self) -> datetime:
        """The manager's clock as it is when called (tests replace :attr:`clock`)."""
        return self.clock()

    # --- the registry of tables ------------------------------------------------------

    def _rebuild(self, row: StoredTable) -> Table:
        """A live table rebuilt from its stored row (its moves replayed)."""
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
            raise unknown_table(table_id)
        table = self._rebuild_or_refuse(row)
        if table_id in self.tables:
            return self.tables[table_id]
        if self.ownership.clustered and table.status != "finished":
            raise table_moving(table_id)  # another process took it meanwhile
        self.tables[table_id] = table
        if table.status == "finished":
            self._retire(table)
        else:
            self._wake_bots(table)
        return table

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

    # --- provided by the other concerns ----------------------------------------------

    @abstractmethod
    def _wake_bots(self, table: Table) -> None:
        """Start the table's bot turns if a bot is to act (:mod:`.bots`)."""

    @staticmethod
    @abstractmethod
    def _bot_spec(table: Table, seat: int) -> str | None:
        """The bot that plays ``seat``: its own, or its person's stand-in (:mod:`.bots`)."""

    @staticmethod
    @abstractmethod
    def _forced(table: Table, seat: int) -> bool:
        """Whether ``seat``'s person has a move that plays by itself (:mod:`.bots`)."""

    @abstractmethod
    async def _get_clustered(self, table_id: str) -> Table:
        """A table another process of a cluster holds, taken over (:mod:`.ownership`)."""

    @abstractmethod
    async def create(
        self, request: NewTable, address: str | None = None
    ) -> tuple[Table, dict[int, str]]:
        """Make, store and start a table (:mod:`.manager`)."""


def table_moving(table_id: str) -> ApiError:
    """The refusal while a table moves between the processes of a cluster."""
    return ApiError(
        "unavailable",
        _("table {id} is moving to another server: try again in a moment", id=table_id),
    )


def unknown_table(table_id: str) -> ApiError:
    """The ``unknown_table`` refusal."""
    return ApiError(
        "unknown_table",
        _(
            "there is no table {table_id!r}: GET /api/tables lists the open ones",
            table_id=table_id,
        ),
    )
