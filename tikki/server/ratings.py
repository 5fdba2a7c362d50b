"""Ratings on one scale with the bots: OpenSkill (Plackett–Luce, as the arena).

- A table created with ``rated: true`` takes only signed-in people (a guest's join is
  refused); bots may sit too.
- When a rated table is finished its people's ratings are updated by one Plackett–Luce
  update over every seat's place; a bot seat takes part with its level's *anchored*
  rating (``bot_ratings.json``, written by ``benchmarks/anchors.py`` from arena runs of
  the levels against each other), which never moves: the people's ratings are on the
  bots' scale, so "about the level of Hard" is a measured statement.
- A rating is provisional until :data:`PROVISIONAL_GAMES` rated games.
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
import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from sqlalchemy import Engine, and_, insert, select, update
from sqlalchemy.exc import IntegrityError, OperationalError

from tikki.core import games
from tikki.i18n import _
from tikki.server.accounts import ERRORS, accounts_of
from tikki.server.db import (
    AccountRow,
    AccountSeatRow,
    RatingChangeRow,
    RatingRow,
    SeatRow,
    TableExtraRow,
    TableRow,
)
from tikki.server.errors import STATUS, ApiError

if TYPE_CHECKING:
    from tikki.server.tables import Table

log = logging.getLogger(__name__)
ANCHORS = Path(__file__).resolve().parent / "bot_ratings.json"
"""The bot levels' anchored ratings per game (``benchmarks/anchors.py``)."""
KEPT = 10_000
"""Tables whose rated mark is kept in memory (the oldest are read again when asked)."""
PROVISIONAL_GAMES = 10
"""Rated games before a rating stops being provisional."""

STATUS.update({"rated_needs_account": 403})


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
        bots = anchors().get(table.game, {})
        model = _model()
        teams: list[list[Any]] = []
        people: dict[int, int] = {}
        for s in seats:
            if s.kind == "bot" and s.bot in bots:
                anchor = bots[s.bot]
                teams.append([model.rating(mu=anchor["mu"], sigma=anchor["sigma"])])
            elif s.kind == "human" and s.seat in links and links[s.seat] not in people.values():
                people[s.seat] = links[s.seat]
                old = connection.execute(
                    select(RatingRow.mu, RatingRow.sigma).where(
                        RatingRow.account_id == links[s.seat], RatingRow.game == table.game
                    )
                ).first()
                teams.append([model.rating() if old is None else model.rating(*old)])
            else:
                return  # a guest, an unanchored bot or one account twice: not rated
        if ranks is None or not people:
            return
        new = model.rate(teams, ranks=ranks)
        for seat, account_id in people.items():
            before, after = teams[seat][0], new[seat][0]
            exists = connection.execute(
                select(RatingRow.games).where(
                    RatingRow.account_id == account_id, RatingRow.game == table.game
                )
            ).first()
            values = {"mu": after.mu, "sigma": after.sigma}
            if exists is None:
                connection.execute(
                    insert(RatingRow),
                    {"account_id": account_id, "game": table.game, "games": 1, **values},
                )
            else:
                connection.execute(
                    update(RatingRow)
                    .where(RatingRow.account_id == account_id, RatingRow.game == table.game)
                    .values(games=exists.games + 1, **values)
                )
            connection.execute(
                insert(RatingChangeRow),
                {
                    "table_id": table.id,
                    "account_id": account_id,
                    "before": ordinal(before.mu, before.sigma),
                    "after": ordinal(after.mu, after.sigma),
                },
            )

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
        people.sort(key=lambda p: -p["rating"])
        return people[:limit]

    async def leaderboard(self, game: str, limit: int = 100) -> dict[str, Any]:
        """A game's people by rating (public profiles only) and the bots' reference lines."""
        await self.settle()
        people = await asyncio.to_thread(self._board, game, limit)
        return {"game": game, "people": people, "bots": bot_lines(game)}


def rating_json(mu: float, sigma: float, games: int) -> dict[str, Any]:
    """A rating as the API shows it."""
    return {
        "rating": round(ordinal(mu, sigma), 2),
        "mu": round(mu, 3),
        "sigma": round(sigma, 3),
        "games": games,
        "provisional": games < PROVISIONAL_GAMES,
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


async def check_create(request: Request, rated: bool) -> None:
    """Refuse a rated table asked for by a guest."""
    if rated and await accounts_of(request).current(request) is None:
        raise ApiError(
            "rated_needs_account",
            _("rated tables need an account: sign in (or create one) first"),
        )


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
    "anchors",
    "bot_lines",
    "check_create",
    "check_join",
    "on_create",
    "on_rematch",
    "ordinal",
    "places",
    "router",
]
