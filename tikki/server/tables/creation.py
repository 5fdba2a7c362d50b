"""Making a table, :class:`Creator`: the request checked (game, options, seats, timer),
admitted within the server's caps (:class:`~tikki.server.quota.TableCaps`), stored under a
fresh id and started."""

from __future__ import annotations

import functools
import logging
import secrets
from collections.abc import Callable
from datetime import datetime

from tikki.core import RULES_REVISION, Game, RulesError, load, memory_aid_titles
from tikki.i18n import _
from tikki.serve_settings import Policy
from tikki.server import botplay, seeds
from tikki.server.cluster import Ownership
from tikki.server.db import StoredSeat, StoredTable, now
from tikki.server.errors import ApiError
from tikki.server.quota import TableCaps, TableCounts
from tikki.server.tables.correspondence import check_account, is_correspondence, seated_at
from tikki.server.tables.registry import Registry
from tikki.server.tables.seats import lock_seats
from tikki.server.tables.storage import Storage, report
from tikki.server.tables.table import NewTable, Table, hash_token
from tikki.server.tables.timers import parse_timer

log = logging.getLogger("tikki.server")


class Creator:
    """Check, admit, store and start new tables."""

    client_seeds = False
    """Accept a client's seed at tables with open seats too (``--allow-client-seeds``)."""

    def __init__(
        self,
        registry: Registry,
        storage: Storage,
        ownership: Ownership,
        policy: Policy,
        wake: Callable[[Table], None],
    ) -> None:
        self.registry = registry
        self.storage = storage
        self.ownership = ownership
        self.policy = policy
        self.wake = wake
        self.caps = TableCaps(policy)
        self._pending: list[tuple[str | None, bool]] = []
        """Tables admitted and being stored: (creator's address, only bots)."""
        self._corresponding: list[int] = []
        """The accounts of the correspondence tables admitted and being stored."""

    async def create(
        self, request: NewTable, address: str | None = None
    ) -> tuple[Table, dict[int, str]]:
        """Make, store and start a table for the client at ``address``; return it with the
        invite secret of each open seat that is not open to anyone.  :class:`ApiError`
        names what is wrong (``rate_limited`` when a limit is reached)."""
        game = check_game(request)
        timer, on_timeout = parse_timer(
            request.turn_timer, request.on_timeout, self.policy.min_turn_timer
        )
        seats = self._seats(game, request.seats, request.tokens)
        invites = lock_seats(seats, request.anyone)
        seed = seeds.deal_seed(request.seed, [s.kind for s in seats], self.client_seeds)
        bots_only = all(s.kind == "bot" for s in seats)
        account = request.account if is_correspondence(timer) and address else None
        if address is not None and is_correspondence(timer):
            await self._check_correspondence(account)
        if account is not None:
            self._corresponding.append(account)  # counted by its cap until stored
        try:
            site = await self._site_counts()
            self.caps.admit(self._counts(address, site), address, bots_only)
            self._pending.append((address, bots_only))  # counted by the caps until stored
            try:
                table = await self._make(request, game, seats, seed, address, timer, on_timeout)
            finally:
                self._pending.remove((address, bots_only))
        finally:
            if account is not None:
                self._corresponding.remove(account)
        return table, invites

    async def _check_correspondence(self, account: int | None) -> None:
        """A person's new correspondence table: an account's (no guest's), within its
        cap on live ones (those it made here, and those where it holds a seat)."""
        if account is None:
            check_account(None, 0, self.policy)
            return
        mine = {t.id for t in self.registry.live if t.account == account and t.correspondence}
        try:
            mine |= await self.storage.run(seated_at, self.storage.store.engine, account)
        except Exception as err:  # the database's outage: this process's count then
            report("counting an account's correspondence tables", err)
        check_account(account, len(mine) + self._corresponding.count(account), self.policy)

    def _counts(self, address: str | None, site: tuple[int, int] | None) -> TableCounts:
        """What the caps count for a new table of ``address``: this process's tables and
        those being created (with ``site``, a cluster's counts in the database, the whole
        site's where they are more)."""
        live = self.registry.live
        pending = self._pending
        n_live = len(live) + len(pending)
        bots = sum(1 for t in live if all(s.kind == "bot" for s in t.seats))
        bots += sum(1 for _a, b in pending if b)
        if site is not None:
            n_live = max(n_live, site[0] + len(pending))
            bots = max(bots, site[1] + sum(1 for _a, b in pending if b))
        own = sum(1 for t in live if t.owner == address)
        own += sum(1 for a, _b in pending if a == address)
        ends = [e for t in live if t.owner == address and not t.played and (e := t.expires())]
        lone = len(ends) + sum(1 for a, b in pending if a == address and not b)
        wait = (min(ends) - self.registry.clock()).total_seconds() if ends else None
        return TableCounts(n_live, bots, own, lone, wait)

    async def _make(
        self,
        request: NewTable,
        game: Game,
        seats: list[StoredSeat],
        seed: int,
        address: str | None,
        timer: int | None,
        on_timeout: str,
    ) -> Table:
        """Store and start an admitted table."""
        state = game.new_state(seed=seed)
        status = "waiting" if any(s.kind == "open" for s in seats) else "playing"
        created = now()
        table_id = await self._store(
            request, game, seats, seed, (status, created), timer, on_timeout
        )
        policy = self.policy
        table = Table(
            table_id, game, state, seed, seats, status, created,
            memory_aids=request.memory_aids, owner=address, account=request.account,
            turn_timer=timer,
            on_timeout=on_timeout, turn_since=created, last_move=created,
            forced_moves=request.forced_moves, rated=request.rated,
            away_after=policy.away_after, clock=self.registry.clock,
            expiry=policy.waiting_expiry, joined_expiry=policy.joined_expiry,
        )  # fmt: skip
        table.away_since = {s.seat: created for s in seats if s.kind == "human"}
        self.registry.tables[table_id] = table
        self.wake(table)
        await self.ownership.changed(table_id)
        return table

    async def _store(
        self,
        request: NewTable,
        game: Game,
        seats: list[StoredSeat],
        seed: int,
        began: tuple[str, datetime],
        timer: int | None,
        on_timeout: str,
    ) -> str:
        """Store the new table (its status and creation time ``began``) under a fresh id
        (locked first in a cluster); its id."""
        status, created = began
        for _attempt in range(1 if request.table_id else 10):
            table_id = request.table_id or secrets.token_hex(4)
            stored = StoredTable(
                table_id, game.name, game.players, game.options["variant"],
                {**game.options, "rules": game.rules, "memory_aids": request.memory_aids,
                 "turn_timer": timer, "on_timeout": on_timeout,
                 "forced_moves": request.forced_moves, "rated": request.rated},
                seed, status, created, None, None, seats, [],
            )  # fmt: skip
            if table_id in self.registry.tables or not await self._lock_new(table_id):
                continue
            store = self.storage.store
            again = functools.partial(store.add_table, again=True)
            if await self.storage.write(_("the new table"), store.add_table, stored, again=again):
                return table_id
            await self.ownership.release(table_id)
        raise ApiError("unavailable", _("no free table id could be stored: try again"))

    async def _lock_new(self, table_id: str) -> bool:
        """Lock a new table's id before storing it (a cluster; ``False``: taken)."""
        try:
            return await self.ownership.acquire(table_id)
        except Exception as err:
            report(f"locking the new table {table_id}", err, table_id)
            raise ApiError(
                "unavailable", _("{what} could not be stored: try again", what=_("the new table"))
            ) from None

    async def _site_counts(self) -> tuple[int, int] | None:
        """A cluster's live tables and bot-only tables in the whole database (``None``
        without a cluster, or when they cannot be read: this process's count then)."""
        if not self.ownership.clustered:
            return None
        try:
            return await self.storage.run(self.storage.store.live_counts)
        except Exception as err:
            report("counting the cluster's live tables", err)
            return None

    def _seats(
        self, game: Game, wanted: list[tuple[str, str | None]], tokens: dict[int, str]
    ) -> list[StoredSeat]:
        """The seats of a create request checked: open ones, bots with their specs, and
        people seated by the server with their ``tokens``."""
        seats: list[StoredSeat] = []
        for i, (kind, spec) in enumerate(wanted):
            if kind == "open":
                seats.append(StoredSeat(i, "open"))
                continue
            if kind == "human" and i in tokens:  # seated by the caller (a tournament)
                seats.append(StoredSeat(i, "human", spec, None, hash_token(tokens[i])))
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


def check_game(request: NewTable) -> Game:
    """The game of a create request, its options and seats checked (``bad_options``)."""
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
                "a table of {players} players needs {players} seats (open or bot), got {n_seats}",
                players=game.players,
                n_seats=len(request.seats),
            ),
        )
    return game
