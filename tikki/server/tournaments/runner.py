"""Running tournaments, :class:`Runner`: every process of the site runs one; each step
reads the tournament from the database and does what is due (start it, make the tables
of its games, score the finished ones, seat the next round or the arena's next tables,
finish it), so a tournament goes on whichever process runs it.

One process at a time runs a tournament: the one holding its lease
(:meth:`~.store.Tournaments.lease`, :data:`LEASE` seconds, renewed each step); when that
process dies the lease runs out and another takes over where the database says it
stands.  Each change is conditional on what was read (see :mod:`~.store`), so a step
done twice changes nothing.  A table is made through the site's own table creation
(:class:`~tikki.server.tables.creation.Creator`) as a rated table (no hints while it is
played), with the people seated from the start and linked to their accounts.  Its id
and the people's seat tokens are noted on the game first, with the claim to make it
(:meth:`~.store.Tournaments.claim`); the table is stored with its seats in one write;
then it is marked rated, the people's accounts linked, and the game marked ready.  A
process that dies at any point leaves either no table or the noted one: another claims
the game after :data:`STALE` and makes the noted table if it is not stored, or does
what is left after making it (each step again changes nothing), so a game has one
table and it is counted once.

An entrant who withdrew (:meth:`~.store.Tournaments.withdraw`) is seated at no new
table and given no bye; at the table it sits at when it withdraws its seat is resigned
at once (:meth:`Runner.resign_withdrawn`: a bot plays it to the end, as when a person
resigns, so the table need not wait for the withdrawn person's clock), and that table
counts for every seat; its results stay in the standings.  A tournament with fewer
entrants left than one table's seats finishes once its tables are scored.

Two entrants whose accounts have a block between them (made after both entered: an entry
across a block is refused) are seated apart wherever the seating can (:data:`BLOCKED`)."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import Counter
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

from tikki.server.accounts import Accounts
from tikki.server.db import now
from tikki.server.errors import ApiError
from tikki.server.friends.store import Friends
from tikki.server.ratings import anchors, ordinal
from tikki.server.ratings import places as places_of
from tikki.server.tables import NewTable, TableManager
from tikki.server.tables.storage import report
from tikki.server.tables.table import Table, active
from tikki.server.tournaments.pairing import (
    Pair,
    Result,
    arena_table,
    met_pairs,
    pairing_order,
    place_points,
    standings,
    swiss_round,
)
from tikki.server.tournaments.store import Entrant, Game, Snapshot, Tournaments, withdrawn

log = logging.getLogger("tikki.server")

LEASE = 10.0
"""Seconds a process keeps the right to run a tournament after its last step."""
BLOCKED = 1000
"""The meetings a block between two entrants' accounts weighs in the seating: more than
any pair that met again (a block keeps two people from one table)."""
STALE = timedelta(seconds=30)
"""How long a claim to make a game's table holds before another process may make it."""

Notify = Callable[[int, dict[str, Any]], Awaitable[None]]
"""Told of each account whose tournament starts (its id, the notice's data)."""
Made = Callable[[str], Awaitable[None]]
"""Told of each table made for a tournament, before its people sit (the app marks it
rated: its results move the people's ratings like any rated table's)."""


def results(snapshot: Snapshot) -> list[Result]:
    """The scored games of a tournament."""
    return [Result(g.seats, g.points, g.places) for g in snapshot.games if g.points is not None]


def table_of(snapshot: Snapshot) -> list[Any]:
    """The standings of a tournament (see :func:`~.pairing.standings`)."""
    row = snapshot.row
    return standings(
        [e.id for e in snapshot.entrants],
        results(snapshot),
        [e for _r, e in snapshot.byes],
        row.players,
        row.kind == "swiss",
    )


def seeding(snapshot: Snapshot, people: dict[int, tuple[float, float]]) -> dict[int, float]:
    """Each entrant's rating on the bots' scale (the shown rating, mu - 3 sigma): an
    account's in the tournament's game (``people``: mu and sigma by account; none yet:
    left out, a new account's 0), a bot's its level's anchored rating (a level without
    one: left out)."""
    bots = anchors().get(snapshot.row.game, {})
    out: dict[int, float] = {}
    for entrant in snapshot.entrants:
        if entrant.account_id is not None and entrant.account_id in people:
            out[entrant.id] = ordinal(*people[entrant.account_id])
        elif entrant.bot is not None and entrant.bot in bots:
            out[entrant.id] = ordinal(bots[entrant.bot]["mu"], bots[entrant.bot]["sigma"])
    return out


class Runner:
    """Run every due tournament, one step each :attr:`every` seconds."""

    every = 1.0
    """Seconds between two steps (tests make it shorter)."""

    def __init__(
        self,
        store: Tournaments,
        manager: TableManager,
        accounts: Accounts,
        node: str,
        notify: Notify | None = None,
        made: Made | None = None,
    ) -> None:
        self.store = store
        self.manager = manager
        self.accounts = accounts
        self.node = node
        self.notify = notify
        self.made = made
        self.clock: Callable[[], datetime] = now
        """The tournaments' clock: start times, an arena's end, leases (tests replace it)."""
        self.ticks = 0
        """Steps taken over every due tournament so far."""

    async def run(self) -> None:
        """Step every due tournament until cancelled."""
        while True:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception as err:  # tried again at the next step
                report("running the tournaments", err)
            await asyncio.sleep(self.every)

    async def tick(self) -> None:
        """One step of every due tournament this process holds (or may take) the lease of."""
        moment = self.clock()
        for tournament_id in await asyncio.to_thread(self.store.due, moment):
            try:
                if await asyncio.to_thread(
                    self.store.lease, tournament_id, self.node, moment, LEASE
                ):
                    await self.step(tournament_id)
            except Exception as err:  # one tournament's failure holds up no other
                report(f"tournament {tournament_id}: this step", err)
        self.ticks += 1

    async def step(self, tournament_id: str) -> None:
        """Do what is due in one tournament."""
        snapshot = await self._load(tournament_id)
        if snapshot is None:
            return
        if snapshot.row.status == "open":
            await self._start(snapshot)
            return
        if snapshot.row.status != "running":
            return
        await self._make_tables(snapshot)
        await self.resign_withdrawn(snapshot)
        await self._score(snapshot)
        snapshot = await self._load(tournament_id)
        assert snapshot is not None
        if snapshot.row.kind == "swiss":
            seated = await self._swiss(snapshot)
        else:
            seated = await self._arena(snapshot)
        if seated:
            fresh = await self._load(tournament_id)
            assert fresh is not None
            await self._make_tables(fresh)

    async def _load(self, tournament_id: str) -> Snapshot | None:
        return await asyncio.to_thread(self.store.load, tournament_id)

    async def _start(self, snapshot: Snapshot) -> None:
        """Start a tournament whose time came (cancel it with too few entrants)."""
        row = snapshot.row
        if len(snapshot.entrants) < row.players:
            await asyncio.to_thread(self.store.set_status, row.id, "open", "cancelled")
            return
        if not await asyncio.to_thread(self.store.set_status, row.id, "open", "running"):
            return
        if self.notify is not None:
            data = {"tournament": row.id, "name": row.name}
            for entrant in snapshot.entrants:
                if entrant.account_id is not None:
                    await self.notify(entrant.account_id, data)

    async def _make_tables(self, snapshot: Snapshot) -> None:
        """Make the table of every game that has none ready (claimed first)."""
        entrants = {e.id: e for e in snapshot.entrants}
        for game in snapshot.games:
            if game.ready:
                continue
            people = {str(i): secrets.token_urlsafe(24)
                      for i, e in enumerate(game.seats) if entrants[e].bot is None}  # fmt: skip
            fresh = secrets.token_hex(4)
            claimed = await asyncio.to_thread(
                self.store.claim, game.id, self.clock(), STALE, fresh, people
            )
            if claimed is None:
                continue
            try:
                await self._make_table(snapshot, game, entrants, *claimed)
            except ApiError as refused:  # a cap of the site (its bot tables): tried again
                log.warning(
                    "the table of tournament %s's game %d waits: %s (%s)",
                    snapshot.row.id, game.id, refused.message, refused.code,
                )  # fmt: skip
            except Exception as err:
                report(f"making the table of tournament {snapshot.row.id}'s game {game.id}", err)

    async def _make_table(
        self,
        snapshot: Snapshot,
        game: Game,
        entrants: dict[int, Entrant],
        table_id: str,
        tokens: dict[str, str],
    ) -> None:
        """Make one game's claimed table ``table_id`` with its people seated (their
        ``tokens``) unless it is stored already, mark it rated, link the people's
        accounts, and mark the game ready."""
        seated = [entrants[e] for e in game.seats]
        if await asyncio.to_thread(self.store.table_result, table_id) is None:
            await self._create(snapshot, seated, table_id, tokens)
        if self.made is not None:
            await self.made(table_id)
        for seat, entrant in enumerate(seated):
            if entrant.account_id is not None:
                await asyncio.to_thread(self.accounts.link, entrant.account_id, table_id, seat)
        await asyncio.to_thread(self.store.set_table, game.id, table_id)

    async def _create(
        self, snapshot: Snapshot, seated: list[Entrant], table_id: str, tokens: dict[str, str]
    ) -> None:
        """Store and start the table ``table_id`` of ``seated`` (people with their
        ``tokens``, bots with their levels)."""
        settings = snapshot.row.settings
        wanted = NewTable(
            game=snapshot.row.game, players=snapshot.row.players,
            variant=settings.get("variant"), options=dict(settings.get("options") or {}),
            seats=[("bot", e.bot) if e.bot is not None else ("human", e.name) for e in seated],
            seed=None, turn_timer=settings.get("turn_timer"), on_timeout="bot",
            forced_moves=True, rated=True, table_id=table_id,
            tokens={int(seat): token for seat, token in tokens.items()},
        )  # fmt: skip
        table, _invites = await self.manager.create(wanted)
        table.account_seats.update(i for i, e in enumerate(seated) if e.account_id is not None)
        table.broadcast()

    async def resign_withdrawn(self, snapshot: Snapshot) -> None:
        """Resign the seats of the entrants who withdrew at the unscored tables this
        process holds (the withdrawal's route calls it, and every step of the runner;
        a table held by another process of a cluster that does not run the tournament
        is left to that seat's turn timer)."""
        gone = withdrawn(snapshot.row)
        for game in snapshot.games:
            if game.points is not None or game.table_id is None or not gone & set(game.seats):
                continue
            table = self.manager.registry.held(game.table_id)
            if table is None or table.status != "playing":
                continue
            for seat, entrant in enumerate(game.seats):
                if entrant in gone and _plays_on(table, seat):
                    try:
                        await self.manager.resign(table, seat)
                    except ApiError as err:  # it finished meanwhile
                        log.info("table %s: seat %d was not resigned: %s", table.id, seat, err)

    async def _score(self, snapshot: Snapshot) -> None:
        """Score every game whose table finished (or is gone: 0 for every seat)."""
        for game in snapshot.games:
            if not game.ready or game.points is not None:
                continue
            assert game.table_id is not None
            found = await asyncio.to_thread(self.store.table_result, game.table_id)
            if found is not None and found[0] != "finished":
                continue
            n = len(game.seats)
            places = None if found is None else places_of(found[1], n)
            points = place_points(places, n)
            await asyncio.to_thread(self.store.score, game.id, points, places)

    async def _swiss(self, snapshot: Snapshot) -> bool:
        """Seat the next round once every game of this one is scored, or finish after
        the last; whether a round was seated."""
        row = snapshot.row
        current = [g for g in snapshot.games if g.round == row.round]
        if any(g.points is None for g in current):
            return False
        gone = withdrawn(row)
        if row.round >= (row.rounds or 0) or len(snapshot.entrants) - len(gone) < row.players:
            await asyncio.to_thread(self.store.set_status, row.id, "running", "finished")
            return False
        accounts = [e.account_id for e in snapshot.entrants if e.account_id is not None]
        people = await asyncio.to_thread(self.store.ratings, row.game, accounts)
        order = pairing_order(
            [e.id for e in snapshot.entrants], results(snapshot),
            [e for _r, e in snapshot.byes], row.players, seeding(snapshot, people),
        )  # fmt: skip
        order = [e for e in order if e not in gone]
        met = met_pairs([g.seats for g in snapshot.games]) + await self._apart(snapshot)
        byes: dict[int, int] = {}
        for _r, entrant in snapshot.byes:
            byes[entrant] = byes.get(entrant, 0) + 1
        tables, out = swiss_round(order, row.players, met, byes)
        return await asyncio.to_thread(
            self.store.add_round, row.id, row.round, tables, out, self.clock()
        )

    async def _apart(self, snapshot: Snapshot) -> Counter[Pair]:
        """The entrants whose accounts have a block between them, as pairs that met
        :data:`BLOCKED` times: the seating keeps them apart wherever it can."""
        people = {e.account_id: e.id for e in snapshot.entrants if e.account_id is not None}
        blocked = await asyncio.to_thread(Friends(self.store.engine).blocked_pairs, list(people))
        return Counter({frozenset(people[a] for a in pair): BLOCKED for pair in blocked})

    async def _arena(self, snapshot: Snapshot) -> bool:
        """Seat the waiting entrants at new tables until the clock ends; finish once it
        ended and every game is scored; whether a table was seated."""
        row = snapshot.row
        ends = row.starts + timedelta(minutes=row.minutes or 0)
        moment = self.clock()
        left = len(snapshot.entrants) - len(withdrawn(row))
        if moment >= ends or left < row.players:
            if all(g.points is not None for g in snapshot.games):
                await asyncio.to_thread(self.store.set_status, row.id, "running", "finished")
            return False
        waiting = _waiting(snapshot)
        points = {line.entrant: line.points for line in table_of(snapshot)}
        met = met_pairs([g.seats for g in snapshot.games]) + await self._apart(snapshot)
        number = max((g.number for g in snapshot.games), default=-1) + 1
        seated = False
        while (table := arena_table(waiting, row.players, met, points)) is not None:
            if not await asyncio.to_thread(self.store.add_game, row.id, number, table, moment):
                break
            seated = True
            number += 1
            waiting = [e for e in waiting if e not in table]
        return seated


def _plays_on(table: Table, seat: int) -> bool:
    """Whether ``seat`` is a person's who has not resigned it."""
    now_playing = active(table.takeovers, seat)
    resigned = now_playing is not None and now_playing.why == "resigned"
    return table.seats[seat].kind == "human" and not resigned


def _waiting(snapshot: Snapshot) -> list[int]:
    """An arena's entrants at no table, the longest waiting first (the earliest last
    game, then the order of entry); those who withdrew are not waiting."""
    busy: set[int] = withdrawn(snapshot.row)
    last: dict[int, int] = {}
    for game in snapshot.games:
        for entrant in game.seats:
            last[entrant] = game.number
            if game.points is None:
                busy.add(entrant)
    free = [e.id for e in snapshot.entrants if e.id not in busy]
    return sorted(free, key=lambda e: last.get(e, -1))


__all__ = ["LEASE", "STALE", "Notify", "Runner", "results", "seeding", "table_of"]
