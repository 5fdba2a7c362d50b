"""The table manager, :class:`TableManager`: its concerns composed (bots, timers, leave,
moves, rematch, seats, the cluster's glue), its life cycle (start, stop, restart), making
a table (options, seats, the server's limits) and the lobby."""

from __future__ import annotations

import asyncio
import logging
import secrets
from concurrent.futures import ThreadPoolExecutor

from tikki.core import RULES_REVISION, Game, IllegalMove, RulesError, load, memory_aid_titles
from tikki.i18n import _
from tikki.server import botplay, seeds
from tikki.server.db import StoredSeat, StoredTable, now
from tikki.server.errors import ApiError
from tikki.server.quota import CAP_RETRY, rate_limited
from tikki.server.tables.bots import BotsMixin
from tikki.server.tables.ownership import OwnershipMixin
from tikki.server.tables.rematch import RematchMixin
from tikki.server.tables.seats import lock_seats
from tikki.server.tables.table import NewTable, Table
from tikki.server.tables.timers import TimersMixin, parse_timer

log = logging.getLogger("tikki.server")

STATUSES = {
    "open": ("waiting",),
    "playing": ("playing",),
    "finished": ("finished",),
    "all": ("waiting", "playing", "finished"),
}
"""Lobby filters and the table statuses they show."""


class TableManager(BotsMixin, TimersMixin, RematchMixin, OwnershipMixin):
    """Every live table; creates, joins, moves, hints, lobby lists and restarts.

    Its concerns are mixins, one a module: :mod:`.moves`, :mod:`.bots`, :mod:`.leave`,
    :mod:`.timers`, :mod:`.seats`, :mod:`.rematch` and :mod:`.ownership`, over
    :class:`~tikki.server.tables.base.ManagerBase` (the shared state and the registry)."""

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

    async def _start_cluster(self) -> None:
        """Start as one process of a cluster: listen for the others, claim the live
        tables nobody holds, then go on claiming those whose owner died."""
        await self.ownership.start(self._hand_over_table, self._lobby_changed)
        claimed = await self._claim_orphans()
        log.info("cluster node %s took %d live tables", self.ownership.node, len(claimed))
        self._scanner = asyncio.create_task(self._scan_loop(), name="claim-orphan-tables")
        self._sweeper = asyncio.create_task(self._sweep(), name="expire-waiting-tables")
        self._ticker = asyncio.create_task(self._tick_loop(), name="turn-timers")

    # --- create ---------------------------------------------------------------------

    async def create(
        self, request: NewTable, address: str | None = None
    ) -> tuple[Table, dict[int, str]]:
        """Make, store and start a table for the client at ``address``; return it with the
        invite secret of each open seat that is not open to anyone.  :class:`ApiError`
        names what is wrong (``rate_limited`` when a limit is reached)."""
        game = self._game(request)
        timer, on_timeout = parse_timer(
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

    # --- lobby ----------------------------------------------------------------------

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
