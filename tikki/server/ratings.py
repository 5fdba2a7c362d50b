"""Ratings on one scale with the bots: OpenSkill (Plackett–Luce, as the arena).

- A table created with ``rated: true`` takes only signed-in people (a guest's join, and
  a guest's rematch, are refused); bots may sit too.  Only the game as the rules have it
  is rated: every option at its default (:func:`nonstandard`).
- When a rated table is finished its people's ratings are updated by one Plackett–Luce
  update over every seat's place; a bot seat takes part with its level's *anchored*
  rating (``bot_ratings.json``, written by ``benchmarks/anchors.py`` from arena runs of
  the levels against each other), which never moves: the people's ratings are on the
  bots' scale, so "about the level of Hard" is a measured statement.
- A seat its person resigned or left to a bot (a ``resigned`` or ``away`` stand-in, or
  turn-timer bots for more than :data:`TIMER_SHARE` of its moves) places last, whatever
  the bot made of it (:func:`forfeits`).
- A rating is provisional until :data:`PROVISIONAL_GAMES` rated games and a deviation
  (sigma) of at most :data:`PROVISIONAL_SIGMA` (lichess: a rating deviation above a
  threshold): marked so, left off the leaderboard, and as an opponent it weighs
  :data:`PROVISIONAL_WEIGHT` (a game against provisional people moves a rating that
  much of a full game's change).
- Two accounts that joined one table from one client address are not rated by it
  (only a short hash of the address, salted with the table's id, is kept:
  :func:`address_key`).
- Ratings are applied as soon as a rated game ends (:meth:`Ratings.finished`), and any
  table left unsettled (a server stopped in between) before a leaderboard or a profile
  is read (:meth:`Ratings.settle`), in the order the tables finished.  Each table is
  claimed in the transaction that applies it, and the people's rating rows are locked
  while they are read and written, so several server processes on one database apply
  each game once and lose no update.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from sqlalchemy import Engine, ForeignKey, Integer, String, and_, delete, insert, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Mapped, mapped_column

from tikki.core import RulesError, game_class, games
from tikki.i18n import _
from tikki.server.accounts import ERRORS, accounts_of
from tikki.server.db import (
    AccountRow,
    AccountSeatRow,
    Base,
    MoveRow,
    RatingChangeRow,
    RatingRow,
    SeatRow,
    TableExtraRow,
    TableRow,
)
from tikki.server.errors import STATUS, ApiError

if TYPE_CHECKING:
    from tikki.server.tables import NewTable, Table

log = logging.getLogger(__name__)
ANCHORS = Path(__file__).resolve().parent / "bot_ratings.json"
"""The bot levels' anchored ratings per game (``benchmarks/anchors.py``)."""
KEPT = 10_000
"""Tables whose rated mark is kept in memory (the oldest are read again when asked)."""
PROVISIONAL_GAMES = 10
"""Rated games before a rating stops being provisional."""
PROVISIONAL_SIGMA = 7.0
"""The largest sigma of an established rating (a new one starts at 25/3; ten rated games
against bots bring it to about 6.4)."""
PROVISIONAL_WEIGHT = 0.1
"""The share of a full game's change that a provisional opponent's result makes."""
TIMER_SHARE = 0.25
"""A seat whose moves turn-timer bots played more than this share of places last."""
LEFT = frozenset({"resigned", "away"})
"""Stand-ins that mean the person left the seat to a bot."""
KEY_CHARS = 6
"""Hex digits kept of a seat's address hash: enough to tell two addresses at one table
apart, too few to name an address."""

STATUS.update({"rated_needs_account": 403, "rated_options": 400})


class RatedAddressRow(Base):
    """The address key (:func:`address_key`) of a person who joined a rated table's seat."""

    __tablename__ = "tikki_rated_addresses"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tikki_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(16))


@functools.cache
def _model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


def ordinal(mu: float, sigma: float) -> float:
    """The shown rating: mu − 3 sigma (the arena's ``ordinal``)."""
    return mu - 3 * sigma


def anchors() -> dict[str, dict[str, dict[str, Any]]]:
    """``{game: {bot spec: {label, mu, sigma}}}`` (empty without the file)."""
    try:
        data = json.loads(ANCHORS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    ratings: dict[str, dict[str, dict[str, Any]]] = data.get("ratings", {})
    return ratings


def places(outcome: dict[str, Any] | None, n: int) -> list[float] | None:
    """Each seat's place (1 best; ties share) from a game's outcome; ``None`` if none."""
    if not outcome or outcome.get("abandoned"):
        return None
    if "scores" in outcome:
        scores = outcome["scores"]
        return [1.0 + sum(1 for o in scores if o > sc) for sc in scores]
    order = outcome.get("out_order")
    if not isinstance(order, list):
        return None
    return [float(order.index(s) + 1) if s in order else float(n) for s in range(n)]


def upsert_extra(engine: Engine, table_id: str, values: dict[str, Any]) -> None:
    """Set a table's extra settings (``tikki_table_extras``)."""
    with engine.begin() as connection:
        found = connection.execute(
            select(TableExtraRow.table_id).where(TableExtraRow.table_id == table_id)
        ).first()
        if found is None:
            connection.execute(insert(TableExtraRow), {"table_id": table_id, **values})
        else:
            connection.execute(
                update(TableExtraRow).where(TableExtraRow.table_id == table_id).values(**values)
            )


class Ratings:
    """Rated tables, the people's ratings and the leaderboards."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.rated: dict[str, bool] = {}
        self.lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()

    def finished(self, table: Table) -> None:
        """A game has ended: settle it now if it is rated (the table manager calls this)."""
        if not table.rated:
            return
        task = asyncio.get_running_loop().create_task(self.settle(), name=f"rate-{table.id}")
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("settling ratings failed", exc_info=task.exception())

    async def stop(self) -> None:
        """Let the settling under way end (before the database closes)."""
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def _is_rated(self, table_id: str) -> bool:
        with self.engine.connect() as connection:
            return bool(
                connection.execute(
                    select(TableExtraRow.rated).where(TableExtraRow.table_id == table_id)
                ).scalar()
            )

    async def is_rated(self, table_id: str) -> bool:
        """Whether a table is rated."""
        known = self.rated.get(table_id)
        if known is None:
            known = await asyncio.to_thread(self._is_rated, table_id)
            self._keep(table_id, known)
        return known

    def _keep(self, table_id: str, rated: bool) -> None:
        """Remember whether a table is rated, forgetting the oldest past :data:`KEPT`."""
        self.rated[table_id] = rated
        while len(self.rated) > KEPT:
            del self.rated[next(iter(self.rated))]

    async def mark_rated(self, table_id: str) -> None:
        """Make a new table rated."""
        self._keep(table_id, True)
        await asyncio.to_thread(upsert_extra, self.engine, table_id, {"rated": True})

    def _pending(self) -> list[Any]:
        """The finished, rated, unsettled tables, oldest first."""
        query = (
            select(TableRow)
            .join(TableExtraRow, TableExtraRow.table_id == TableRow.id)
            .where(
                and_(
                    TableExtraRow.rated.is_(True),
                    TableExtraRow.settled.is_(False),
                    TableRow.status == "finished",
                )
            )
            .order_by(TableRow.finished, TableRow.id)
        )
        with self.engine.connect() as connection:
            return list(connection.execute(query).all())

    def _settle_one(self, row: Any) -> bool:
        """Claim and apply one table in one transaction; ``False`` if another process
        (or an earlier call) has already claimed it."""
        with self.engine.begin() as connection:
            claimed = connection.execute(
                update(TableExtraRow)
                .where(TableExtraRow.table_id == row.id, TableExtraRow.settled.is_(False))
                .values(settled=True)
            ).rowcount
            if claimed != 1:
                return False
            self._apply(connection, row)
        return True

    def _settle(self) -> int:
        """Apply every finished, rated, unsettled table, oldest first; how many."""
        done = 0
        for row in self._pending():
            try:
                done += self._settle_one(row)
            except (IntegrityError, OperationalError) as err:
                # two processes made one person's first rating at once (or the database
                # was busy): rolled back, the table stays unsettled and is applied next time
                log.warning("ratings of table %s not applied yet: %s", row.id, err)
                break
        return done

    def _apply(self, connection: Any, table: Any) -> None:
        """Apply one finished rated table's result to its people's ratings (nothing for
        a table that cannot be rated: a guest, an unanchored bot, one account twice,
        options off the rules, no places)."""
        seats = connection.execute(
            select(SeatRow).where(SeatRow.table_id == table.id).order_by(SeatRow.seat)
        ).all()
        links = dict(
            connection.execute(
                select(AccountSeatRow.seat, AccountSeatRow.account_id).where(
                    AccountSeatRow.table_id == table.id
                )
            ).all()
        )
        # lock the people's rating rows, in one order (no two processes wait on each other)
        connection.execute(
            select(RatingRow.account_id)
            .where(RatingRow.account_id.in_(sorted(set(links.values()))))
            .where(RatingRow.game == table.game)
            .order_by(RatingRow.account_id)
            .with_for_update()  # PostgreSQL: held until this table is applied
        ).all()
        ranks = places(table.outcome, len(seats))
        if ranks is None or nonstandard(table.game, table.options):
            return
        entrants = _entrants(connection, table.game, seats, links)
        if entrants is None or not entrants.people:
            return
        moves = connection.execute(
            select(MoveRow.seq, MoveRow.seat).where(MoveRow.table_id == table.id)
        ).all()
        ranks = last_for(ranks, forfeits(table.takeovers or [], [(m.seq, m.seat) for m in moves]))
        keys = dict(
            connection.execute(
                select(RatedAddressRow.seat, RatedAddressRow.key).where(
                    RatedAddressRow.table_id == table.id
                )
            ).all()
        )
        shared = same_address(keys, entrants.people)
        new = _model().rate(entrants.teams, ranks=ranks)
        for seat, account_id in entrants.people.items():
            if seat not in shared:
                before, full = entrants.teams[seat][0], new[seat][0]
                weight = entrants.weight_for(seat)
                after = (before.mu + weight * (full.mu - before.mu),
                         before.sigma + weight * (full.sigma - before.sigma))  # fmt: skip
                _write(connection, table, account_id, entrants.games[seat], before, after)

    async def settle(self) -> None:
        """Apply the ratings of the rated tables finished since the last time."""
        async with self.lock:
            await asyncio.to_thread(self._settle)

    def _board(self, game: str, limit: int) -> list[dict[str, Any]]:
        query = (
            select(AccountRow.name, RatingRow.mu, RatingRow.sigma, RatingRow.games)
            .join(RatingRow, RatingRow.account_id == AccountRow.id)
            .where(RatingRow.game == game, AccountRow.private.is_(False))
        )
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        people = [rating_json(r.mu, r.sigma, r.games) | {"name": r.name} for r in rows]
        people = [p for p in people if not p["provisional"]]
        people.sort(key=lambda p: -p["rating"])
        return people[:limit]

    async def leaderboard(self, game: str, limit: int = 100) -> dict[str, Any]:
        """A game's people by rating (public profiles with established ratings only) and
        the bots' reference lines."""
        await self.settle()
        people = await asyncio.to_thread(self._board, game, limit)
        return {"game": game, "people": people, "bots": bot_lines(game)}


class Entrants:
    """The seats of a rated table as the update sees them: one OpenSkill team per seat,
    the people's accounts and rated games by seat, and who is provisional."""

    def __init__(self) -> None:
        self.teams: list[list[Any]] = []
        self.people: dict[int, int] = {}
        self.games: dict[int, int] = {}
        self.provisional: set[int] = set()

    def weight_for(self, seat: int) -> float:
        """How much of its full change ``seat`` takes: the mean weight of its opponents
        (bots and established people 1, provisional people :data:`PROVISIONAL_WEIGHT`)."""
        others = [s for s in range(len(self.teams)) if s != seat]
        if not others:
            return 1.0
        weights = [PROVISIONAL_WEIGHT if s in self.provisional else 1.0 for s in others]
        return sum(weights) / len(weights)


def _entrants(
    connection: Any, game: str, seats: list[Any], links: dict[int, int]
) -> Entrants | None:
    """The :class:`Entrants` of a table's seats; ``None`` if it cannot be rated (a guest,
    an unanchored bot or one account twice)."""
    bots = anchors().get(game, {})
    model = _model()
    out = Entrants()
    for s in seats:
        if s.kind == "bot" and s.bot in bots:
            anchor = bots[s.bot]
            out.teams.append([model.rating(mu=anchor["mu"], sigma=anchor["sigma"])])
        elif s.kind == "human" and s.seat in links and links[s.seat] not in out.people.values():
            out.people[s.seat] = links[s.seat]
            old = connection.execute(
                select(RatingRow.mu, RatingRow.sigma, RatingRow.games).where(
                    RatingRow.account_id == links[s.seat], RatingRow.game == game
                )
            ).first()
            rating = model.rating() if old is None else model.rating(old.mu, old.sigma)
            out.games[s.seat] = 0 if old is None else int(old.games)
            if provisional(out.games[s.seat], rating.sigma):
                out.provisional.add(s.seat)
            out.teams.append([rating])
        else:
            return None
    return out


def _write(
    connection: Any,
    table: Any,
    account_id: int,
    games: int,
    before: Any,
    after: tuple[float, float],
) -> None:
    """Store one person's new rating (``after``: mu, sigma) and the change it made."""
    values = {"mu": after[0], "sigma": after[1]}
    key = (RatingRow.account_id == account_id, RatingRow.game == table.game)
    if connection.execute(select(RatingRow.games).where(*key)).first() is None:
        connection.execute(
            insert(RatingRow), {"account_id": account_id, "game": table.game, "games": 1, **values}
        )
    else:
        connection.execute(update(RatingRow).where(*key).values(games=games + 1, **values))
    connection.execute(
        insert(RatingChangeRow),
        {
            "table_id": table.id,
            "account_id": account_id,
            "before": ordinal(before.mu, before.sigma),
            "after": ordinal(*after),
        },
    )


def provisional(games: int, sigma: float) -> bool:
    """Whether a rating is provisional: fewer than :data:`PROVISIONAL_GAMES` rated games,
    or a sigma above :data:`PROVISIONAL_SIGMA`."""
    return games < PROVISIONAL_GAMES or sigma > PROVISIONAL_SIGMA


def nonstandard(game: str, options: dict[str, Any]) -> list[str]:
    """The options of a table that differ from the game's rules (``name=value``; the
    variant too, unless ``standard``); empty for a table that may be rated."""
    try:
        specs = game_class(game).option_specs
    except (RulesError, KeyError):
        return [f"game={game}"]
    off = [f"{o.name}={options[o.name]}" for o in specs
           if o.name in options and options[o.name] != o.default]  # fmt: skip
    variant = options.get("variant", "standard")
    return ([] if variant == "standard" else [f"variant={variant}"]) + off


def forfeits(takeovers: list[dict[str, Any]], moves: list[tuple[int, int]]) -> set[int]:
    """The seats whose person left them to a bot: a ``resigned`` or ``away`` stand-in,
    or turn-timer stand-ins that played more than :data:`TIMER_SHARE` of the seat's
    moves (``moves``: each move's seq and seat)."""
    out = {int(t["seat"]) for t in takeovers if t.get("why") in LEFT}
    for seat in {int(t["seat"]) for t in takeovers} - out:
        spans = [(int(t["from"]), t.get("to")) for t in takeovers if int(t["seat"]) == seat]
        own = [seq for seq, s in moves if s == seat]
        by_bot = [q for q in own if any(a <= q and (b is None or q < int(b)) for a, b in spans)]
        if own and len(by_bot) > TIMER_SHARE * len(own):
            out.add(seat)
    return out


def last_for(ranks: list[float], seats: set[int]) -> list[float]:
    """The places with ``seats`` moved behind every other seat (sharing the last place);
    the others keep theirs."""
    if not seats:
        return ranks
    last = max(ranks) + 1.0
    return [last if i in seats else r for i, r in enumerate(ranks)]


def address_key(table_id: str, address: str) -> str:
    """A seat's address as kept for a rated table: :data:`KEY_CHARS` hex digits of its
    hash salted with the table's id (equal addresses at one table give equal keys)."""
    return hashlib.sha256(f"{table_id}\0{address}".encode()).hexdigest()[:KEY_CHARS]


def same_address(keys: dict[int, str], people: dict[int, int]) -> set[int]:
    """The people's seats that share an address key with another account's seat."""
    by_key: dict[str, set[int]] = {}
    for seat, account_id in people.items():
        if seat in keys:
            by_key.setdefault(keys[seat], set()).add(account_id)
    return {s for s in people if s in keys and len(by_key[keys[s]]) > 1}


def rating_json(mu: float, sigma: float, games: int) -> dict[str, Any]:
    """A rating as the API shows it."""
    return {
        "rating": round(ordinal(mu, sigma), 2),
        "mu": round(mu, 3),
        "sigma": round(sigma, 3),
        "games": games,
        "provisional": provisional(games, sigma),
    }


def bot_lines(game: str) -> list[dict[str, Any]]:
    """The bot levels' anchored ratings in a game, best first."""
    lines = [
        {"bot": spec, "label": a["label"], **rating_json(a["mu"], a["sigma"], 0)}
        for spec, a in anchors().get(game, {}).items()
    ]
    for line in lines:
        del line["games"], line["provisional"]
    return sorted(lines, key=lambda line: -float(line["rating"]))


def ratings_of(request: Request) -> Ratings:
    """The app's :class:`Ratings`."""
    ratings: Ratings = request.app.state.ratings
    return ratings


router = APIRouter(prefix="/api/ratings", tags=["ratings"], responses=ERRORS)
"""The ratings API: ``/api/ratings…``."""


@router.get("")
async def bots() -> dict[str, Any]:
    """The bot levels' anchored ratings in every game."""
    return {"games": {game: bot_lines(game) for game in anchors()}}


@router.get("/{game}")
async def leaderboard(game: str, request: Request) -> dict[str, Any]:
    """A game's leaderboard: people (public profiles) and the bots as reference lines."""
    if game not in games():
        raise ApiError(
            "unknown_game",
            _("no game {game!r}: {known}", game=game[:40], known=", ".join(sorted(games()))),
        )
    return await ratings_of(request).leaderboard(game)


async def on_create(request: Request, table_id: str, rated: bool) -> None:
    """Mark a new table rated (asked by the lobby's option)."""
    if rated:
        await ratings_of(request).mark_rated(table_id)


async def on_rematch(request: Request, table_id: str, rematch_id: str) -> None:
    """A rated table's rematch ("Play again") is rated too."""
    ratings = ratings_of(request)
    if await ratings.is_rated(table_id) and not await ratings.is_rated(rematch_id):
        await ratings.mark_rated(rematch_id)


async def check_create(request: Request, wanted: NewTable) -> None:
    """Refuse a rated table asked for by a guest, or with options off the rules."""
    if not wanted.rated:
        return
    if await accounts_of(request).current(request) is None:
        raise ApiError(
            "rated_needs_account",
            _("rated tables need an account: sign in (or create one) first"),
        )
    options = dict(wanted.options)
    if wanted.variant is not None:
        options["variant"] = wanted.variant
    off = nonstandard(wanted.game, options) if wanted.game in games() else []
    if off:
        raise ApiError(
            "rated_options",
            _(
                "only the game as its rules have it is rated: {options} differ; "
                "play it unrated, or leave every option at its default",
                options=", ".join(off),
            ),
        )


async def check_rematch(request: Request, table: Table) -> None:
    """Refuse a guest's rematch of a rated table (a guest holds no rated seat)."""
    if table.rated and await accounts_of(request).current(request) is None:
        raise ApiError(
            "rated_needs_account",
            _("this table is rated: sign in to play its rematch (a rated seat needs an account)"),
        )


def _keep_address(engine: Engine, table_id: str, seat: int, key: str) -> None:
    with engine.begin() as connection:
        connection.execute(
            delete(RatedAddressRow).where(
                RatedAddressRow.table_id == table_id, RatedAddressRow.seat == seat
            )
        )
        connection.execute(
            insert(RatedAddressRow), {"table_id": table_id, "seat": seat, "key": key}
        )


async def after_join(
    request: Request, table: Table, seat: int, address: str, signed_in: bool
) -> None:
    """A person took ``seat``: mark it an account's (``signed_in``; the others learn it),
    and at a rated table keep the key of the address it was taken from."""
    if signed_in and seat not in table.account_seats:
        table.account_seats.add(seat)
        table.broadcast()
    if table.rated:
        key = address_key(table.id, address)
        await asyncio.to_thread(_keep_address, ratings_of(request).engine, table.id, seat, key)


async def check_join(request: Request, table_id: str) -> None:
    """Refuse a guest's join at a rated table."""
    rated = await ratings_of(request).is_rated(table_id)
    if rated and await accounts_of(request).current(request) is None:
        raise ApiError(
            "rated_needs_account",
            _("this table is rated: sign in (or create an account) to take a seat"),
        )


__all__ = [
    "PROVISIONAL_GAMES",
    "Ratings",
    "after_join",
    "anchors",
    "bot_lines",
    "check_create",
    "check_join",
    "check_rematch",
    "forfeits",
    "nonstandard",
    "on_create",
    "on_rematch",
    "ordinal",
    "places",
    "provisional",
    "router",
]
