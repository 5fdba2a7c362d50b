"""The tournaments' storage, one short transaction per call (synchronous: the routes and
the runner call it in a worker thread).

Every change the runner makes is conditional on the state it read (a round is added
only while the tournament is at the round before, a game's points are written only
once, a table is made only for a game nobody claimed lately), so that two processes, or
one that resumes after another died, never do a step twice.

An entrant who withdraws from a running tournament is listed in its settings
(``withdrawn``: entrant ids, :meth:`Tournaments.withdraw`); a round or an arena's table
is added only while none of its entrants is listed there (checked in the transaction
that adds it, with the tournament's row locked), so nobody is seated after withdrawing."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Engine, delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from tikki.server.db import AccountRow, RatingRow, TableRow, now
from tikki.server.tournaments.rows import ByeRow, EntrantRow, GameRow, TournamentRow

LIVE = ("open", "running")
"""The statuses of a tournament not over yet."""


@dataclass(frozen=True)
class Entrant:
    """An entrant: an account's (``account_id``) or a bot's (``bot``: its spec)."""

    id: int
    name: str
    account_id: int | None
    bot: str | None


@dataclass(frozen=True)
class Game:
    """One table of a tournament as stored."""

    id: int
    round: int
    number: int
    seats: tuple[int, ...]
    table_id: str | None
    claimed: datetime | None
    tokens: dict[str, str]
    points: tuple[float, ...] | None
    places: tuple[float, ...] | None
    created: datetime
    """When it was seated (by the tournaments' clock)."""

    @property
    def ready(self) -> bool:
        """Whether its table is made and noted, people seated (a noted id with a claim
        still on it: being made, or its maker died, see :meth:`Tournaments.claim`); a
        scored game's table was."""
        return self.table_id is not None and (self.claimed is None or self.points is not None)


@dataclass(frozen=True)
class Snapshot:
    """A tournament with its entrants (in order of entry), games and byes."""

    row: TournamentRow
    entrants: list[Entrant]
    games: list[Game]
    byes: list[tuple[int, int]]
    """(round, entrant) of every bye."""
    creator: str = ""
    """The creator's account name."""


class Full(Exception):
    """The tournament has as many entrants as its cap."""


class _Withdrawn(Exception):
    """A round or table to add seats an entrant who withdrew meanwhile (rolled back)."""


def withdrawn(row: TournamentRow) -> set[int]:
    """The entrants who withdrew from a tournament while it ran."""
    return set(_gone(row.settings))


def _gone(settings: dict[str, Any]) -> list[int]:
    """The entrants listed as withdrawn in a tournament's ``settings``, in the order they
    withdrew (the one reading of that list)."""
    return [int(e) for e in settings.get("withdrawn") or ()]


def _locked_settings(connection: Connection, tournament_id: str) -> dict[str, Any]:
    """Lock a tournament's row for this transaction (an update that changes nothing:
    SQLite has no ``FOR UPDATE``) and read its settings."""
    connection.execute(
        update(TournamentRow)
        .where(TournamentRow.id == tournament_id)
        .values(round=TournamentRow.round)
    )
    settings = connection.execute(
        select(TournamentRow.settings).where(TournamentRow.id == tournament_id)
    ).scalar_one_or_none()
    return dict(settings or {})


def _check_seats(connection: Connection, tournament_id: str, seats: list[int]) -> None:
    """:class:`_Withdrawn` if one of ``seats`` withdrew (the tournament's row locked)."""
    if set(_gone(_locked_settings(connection, tournament_id))) & set(seats):
        raise _Withdrawn(tournament_id)


class Tournaments:
    """Tournaments, entrants and games in the server's database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # ------------------------------------------------------------------ tournaments

    def create(self, values: dict[str, Any]) -> str:
        """Store a new tournament (status ``open``); its id."""
        tournament_id = secrets.token_hex(5)
        row = {"id": tournament_id, "status": "open", "round": 0, **values}
        with self.engine.begin() as connection:
            connection.execute(insert(TournamentRow), row)
        return tournament_id

    def open_by(self, creator: int) -> int:
        """How many of ``creator``'s tournaments are not over."""
        with self.engine.connect() as connection:
            return int(
                connection.execute(
                    select(func.count())
                    .select_from(TournamentRow)
                    .where(TournamentRow.creator_id == creator, TournamentRow.status.in_(LIVE))
                ).scalar_one()
            )

    def listing(self, limit: int) -> list[dict[str, Any]]:
        """The newest tournaments, those not over first, with their entrant counts (those
        starting together in the order of their ids)."""
        counts = (
            select(EntrantRow.tournament_id, func.count().label("n"))
            .group_by(EntrantRow.tournament_id)
            .subquery()
        )
        query = (
            select(TournamentRow, func.coalesce(counts.c.n, 0))
            .outerjoin(counts, counts.c.tournament_id == TournamentRow.id)
            .order_by(
                TournamentRow.status.in_(LIVE).desc(), TournamentRow.starts.desc(), TournamentRow.id
            )
            .limit(limit)
        )
        with Session(self.engine) as session:
            rows = session.execute(query).all()
            return [{**_public(r[0]), "entrants": int(r[1])} for r in rows]

    def load(self, tournament_id: str) -> Snapshot | None:
        """A tournament with everything in it, or ``None``."""
        with Session(self.engine) as session:
            row = session.get(TournamentRow, tournament_id)
            if row is None:
                return None
            entrants = session.scalars(
                select(EntrantRow)
                .where(EntrantRow.tournament_id == tournament_id)
                .order_by(EntrantRow.id)
            )
            games = session.scalars(
                select(GameRow)
                .where(GameRow.tournament_id == tournament_id)
                .order_by(GameRow.round, GameRow.number)
            )
            byes = session.execute(
                select(ByeRow.round, ByeRow.entrant_id).where(ByeRow.tournament_id == tournament_id)
            ).all()
            creator = session.scalar(select(AccountRow.name).where(AccountRow.id == row.creator_id))
            return Snapshot(
                row,
                [Entrant(e.id, e.name, e.account_id, e.bot) for e in entrants],
                [_game(g) for g in games],
                sorted((int(b.round), int(b.entrant_id)) for b in byes),
                creator or "",
            )

    def due(self, moment: datetime) -> list[str]:
        """The tournaments to run now: running, or open with their start time come."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(TournamentRow.id).where(
                    or_(
                        TournamentRow.status == "running",
                        (TournamentRow.status == "open") & (TournamentRow.starts <= moment),
                    )
                )
            ).all()
        return [r.id for r in rows]

    def lease(self, tournament_id: str, node: str, moment: datetime, seconds: float) -> bool:
        """Take or keep the right to run a tournament until ``seconds`` from ``moment``:
        whether this ``node`` holds it (another's lease not yet run out: no)."""
        with self.engine.begin() as connection:
            result = connection.execute(
                update(TournamentRow)
                .where(
                    TournamentRow.id == tournament_id,
                    or_(
                        TournamentRow.lease_node.is_(None),
                        TournamentRow.lease_node == node,
                        TournamentRow.lease_until < moment,
                    ),
                )
                .values(lease_node=node, lease_until=moment + timedelta(seconds=seconds))
            )
        return result.rowcount == 1

    def set_status(self, tournament_id: str, was: str, status: str) -> bool:
        """Move a tournament from ``was`` to ``status``; whether it was at ``was``."""
        with self.engine.begin() as connection:
            result = connection.execute(
                update(TournamentRow)
                .where(TournamentRow.id == tournament_id, TournamentRow.status == was)
                .values(status=status)
            )
        return result.rowcount == 1

    def start_now(self, tournament_id: str, moment: datetime) -> None:
        """Move an open tournament's start to ``moment`` (earlier only)."""
        with self.engine.begin() as connection:
            connection.execute(
                update(TournamentRow)
                .where(
                    TournamentRow.id == tournament_id,
                    TournamentRow.status == "open",
                    TournamentRow.starts > moment,
                )
                .values(starts=moment)
            )

    # ------------------------------------------------------------------ entrants

    def enter(self, tournament_id: str, account_id: int | None, bot: str | None, name: str) -> int:
        """Add an entrant to an open tournament; its id.  :class:`Full` at the cap,
        ``IntegrityError`` for an account already in, ``LookupError`` when the
        tournament is not open."""
        with self.engine.begin() as connection:
            row = connection.execute(
                select(TournamentRow.cap, TournamentRow.status)
                .where(TournamentRow.id == tournament_id)
                .with_for_update()
            ).first()
            if row is None or row.status != "open":
                raise LookupError(tournament_id)
            count = connection.execute(
                select(func.count())
                .select_from(EntrantRow)
                .where(EntrantRow.tournament_id == tournament_id)
            ).scalar_one()
            if count >= row.cap:
                raise Full(tournament_id)
            values = {"tournament_id": tournament_id, "account_id": account_id, "bot": bot}
            result = connection.execute(
                insert(EntrantRow).values(**values, name=name, joined=now())
            )
            key = result.inserted_primary_key
            assert key is not None
            return int(key[0])

    def leave(self, tournament_id: str, account_id: int) -> bool:
        """Take an account out of an open tournament; whether it was in."""
        with self.engine.begin() as connection:
            status = connection.execute(
                select(TournamentRow.status).where(TournamentRow.id == tournament_id)
            ).scalar_one_or_none()
            if status != "open":
                return False
            result = connection.execute(
                delete(EntrantRow).where(
                    EntrantRow.tournament_id == tournament_id, EntrantRow.account_id == account_id
                )
            )
        return result.rowcount == 1

    def withdraw(self, tournament_id: str, account_id: int) -> str:
        """Withdraw an account from a running tournament: ``"withdrawn"``, or why not:
        ``"unknown"``, the tournament's status when it is not running,
        ``"not_entered"`` or ``"already"``."""
        with self.engine.begin() as connection:
            settings = _locked_settings(connection, tournament_id)
            status = connection.execute(
                select(TournamentRow.status).where(TournamentRow.id == tournament_id)
            ).scalar_one_or_none()
            if status is None:
                return "unknown"
            if status != "running":
                return str(status)
            entrant = connection.execute(
                select(EntrantRow.id).where(
                    EntrantRow.tournament_id == tournament_id, EntrantRow.account_id == account_id
                )
            ).scalar_one_or_none()
            if entrant is None:
                return "not_entered"
            gone = _gone(settings)
            if entrant in gone:
                return "already"
            connection.execute(
                update(TournamentRow)
                .where(TournamentRow.id == tournament_id)
                .values(settings={**settings, "withdrawn": [*gone, int(entrant)]})
            )
        return "withdrawn"

    # ------------------------------------------------------------------ games

    def add_round(
        self,
        tournament_id: str,
        was: int,
        tables: list[list[int]],
        byes: list[int],
        moment: datetime,
    ) -> bool:
        """Seat Swiss round ``was + 1`` (its tables and byes) at ``moment``, only while the
        tournament is at round ``was`` and none of them withdrew; whether this call did it."""
        try:
            with self.engine.begin() as connection:
                result = connection.execute(
                    update(TournamentRow)
                    .where(TournamentRow.id == tournament_id, TournamentRow.round == was)
                    .values(round=was + 1)
                )
                if result.rowcount != 1:
                    return False
                _check_seats(connection, tournament_id, [*(e for t in tables for e in t), *byes])
                for number, seats in enumerate(tables):
                    connection.execute(
                        insert(GameRow), _new_game(tournament_id, was + 1, number, seats, moment)
                    )
                for entrant in byes:
                    connection.execute(
                        insert(ByeRow),
                        {"tournament_id": tournament_id, "round": was + 1, "entrant_id": entrant},
                    )
        except _Withdrawn:
            return False
        return True

    def add_game(self, tournament_id: str, number: int, seats: list[int], moment: datetime) -> bool:
        """Add an arena's game number ``number`` at ``moment``; whether this call did (the
        number taken, or one of ``seats`` withdrew: no)."""
        try:
            with self.engine.begin() as connection:
                _check_seats(connection, tournament_id, seats)
                connection.execute(
                    insert(GameRow), _new_game(tournament_id, 0, number, seats, moment)
                )
        except (IntegrityError, _Withdrawn):
            return False
        return True

    def claim(
        self,
        game_id: int,
        moment: datetime,
        stale: timedelta,
        table_id: str,
        tokens: dict[str, str],
    ) -> tuple[str, dict[str, str]] | None:
        """Claim the making of a game's table (not ready, nobody claimed it since ``moment
        - stale``): the table's id and the people's seat tokens to make it with, those
        noted by an earlier claim (its maker died: the table may be made already), else
        ``table_id`` and ``tokens``, noted now, before the table is made; ``None``: not
        claimed."""
        with self.engine.begin() as connection:
            row = connection.execute(
                select(GameRow.table_id, GameRow.tokens, GameRow.claimed, GameRow.points).where(
                    GameRow.id == game_id
                )
            ).first()
            if row is None or row.points is not None:
                return None
            if row.table_id is not None and row.claimed is None:
                return None
            noted = row.table_id is not None
            values: dict[str, Any] = {"claimed": moment}
            if not noted:
                values.update(table_id=table_id, tokens=tokens)
            result = connection.execute(
                update(GameRow)
                .where(
                    GameRow.id == game_id,
                    GameRow.table_id == row.table_id if noted else GameRow.table_id.is_(None),
                    or_(GameRow.claimed.is_(None), GameRow.claimed < moment - stale),
                )
                .values(**values)
            )
        if result.rowcount != 1:
            return None
        return (str(row.table_id), dict(row.tokens or {})) if noted else (table_id, tokens)

    def set_table(self, game_id: int, table_id: str) -> bool:
        """Note that the claimed table ``table_id`` of a game is made, its people seated
        (once; the game is then ready); whether this call did."""
        with self.engine.begin() as connection:
            result = connection.execute(
                update(GameRow)
                .where(
                    GameRow.id == game_id,
                    GameRow.table_id == table_id,
                    GameRow.claimed.is_not(None),
                )
                .values(claimed=None)
            )
        return result.rowcount == 1

    def table_result(self, table_id: str) -> tuple[str, dict[str, Any] | None] | None:
        """A table's status and outcome (``None``: no such table, e.g. expired)."""
        with self.engine.connect() as connection:
            row = connection.execute(
                select(TableRow.status, TableRow.outcome).where(TableRow.id == table_id)
            ).first()
        return None if row is None else (str(row.status), row.outcome)

    def score(self, game_id: int, points: list[float], places: list[float] | None) -> bool:
        """Write a finished game's points and places (once); whether this call did."""
        with self.engine.begin() as connection:
            result = connection.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.points.is_(None))
                .values(points=points, places=places)
            )
        return result.rowcount == 1

    # ------------------------------------------------------------------ people

    def ratings(self, game: str, accounts: list[int]) -> dict[int, tuple[float, float]]:
        """The ratings (mu, sigma) in ``game`` of those of ``accounts`` that have one."""
        if not accounts:
            return {}
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(RatingRow.account_id, RatingRow.mu, RatingRow.sigma).where(
                    RatingRow.game == game, RatingRow.account_id.in_(accounts)
                )
            ).all()
        return {int(r.account_id): (float(r.mu), float(r.sigma)) for r in rows}

    def entered(self, account_id: int) -> list[dict[str, Any]]:
        """The tournaments an account entered (newest first), for its profile."""
        with Session(self.engine) as session:
            rows = session.scalars(
                select(TournamentRow)
                .join(EntrantRow, EntrantRow.tournament_id == TournamentRow.id)
                .where(EntrantRow.account_id == account_id)
                .order_by(TournamentRow.starts.desc(), TournamentRow.id)
                .limit(50)
            )
            return [_public(r) for r in rows]


def _new_game(
    tournament_id: str, n_round: int, number: int, seats: list[int], moment: datetime
) -> dict[str, Any]:
    return {
        "tournament_id": tournament_id,
        "round": n_round,
        "number": number,
        "seats": seats,
        "created": moment,
    }


def _game(row: GameRow) -> Game:
    return Game(
        row.id, row.round, row.number, tuple(row.seats), row.table_id, row.claimed,
        dict(row.tokens or {}),
        None if row.points is None else tuple(row.points),
        None if row.places is None else tuple(row.places), row.created,
    )  # fmt: skip


def iso(moment: datetime | None) -> str | None:
    """A stored time as ISO text (UTC), or ``None``."""
    return None if moment is None else moment.isoformat(timespec="seconds") + "Z"


def _public(row: TournamentRow) -> dict[str, Any]:
    """A tournament as the API shows it (no lease)."""
    return {
        "id": row.id,
        "name": row.name,
        "kind": row.kind,
        "game": row.game,
        "players": row.players,
        "variant": row.settings.get("variant"),
        "rounds": row.rounds,
        "minutes": row.minutes,
        "cap": row.cap,
        "starts": iso(row.starts),
        "status": row.status,
        "round": row.round,
    }


__all__ = ["LIVE", "Entrant", "Full", "Game", "Snapshot", "Tournaments", "iso", "withdrawn"]
