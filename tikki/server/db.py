"""The web table's storage: tables, seats and moves through one SQLAlchemy 2 data layer.

The same code serves SQLite (the default, an embedded file in the user's data directory,
in WAL mode) and PostgreSQL (``postgresql://…``, through psycopg 3).  Every table, seat
and move is written when it happens; :meth:`Store.unfinished` reads back what the server
needs to rebuild its tables after a restart.  The methods are synchronous: the server
calls them from one dedicated thread so that the event loop never waits on the disk.
"""

from __future__ import annotations

import contextlib
import functools
import operator
import os
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Connection,
    DateTime,
    Dialect,
    Engine,
    Float,
    ForeignKey,
    Integer,
    String,
    bindparam,
    create_engine,
    delete,
    event,
    exists,
    func,
    insert,
    select,
    type_coerce,
    update,
)
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError, OperationalError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column
from sqlalchemy.pool import StaticPool
from sqlalchemy.types import TypeDecorator

from tikki.server import schema
from tikki.server.pg_groups import (
    AsyncPostgresGroups,
    PostgresGroups,
    driver_error,
    newest_of_each_table,
)
from tikki.server.seeds import SEED_DIGITS

BOT_SPEC_MAX = 200
"""The longest bot spec a seat stores (the API's limit too)."""
USER_AGENT_MAX = 300
"""The longest ``User-Agent`` a session keeps (the rest is cut)."""


class Seed(TypeDecorator[int]):
    """A deal seed of up to :data:`~tikki.server.seeds.SEED_BITS` bits, stored exactly as
    its decimal text (SQLite and PostgreSQL integers hold only 64 bits)."""

    impl = String(SEED_DIGITS)
    cache_ok = True

    def process_bind_param(self, value: int | None, dialect: Dialect) -> str | None:
        """The seed as decimal text."""
        return None if value is None else str(value)

    def process_result_value(self, value: Any, dialect: Dialect) -> int | None:
        """The stored text (or, in a database from before, integer) as an int."""
        return None if value is None else int(value)


class MoveConflict(Exception):
    """A move was not stored: the table already has a move with its number (or is gone)."""

    def __init__(self, table_id: str, seq: int) -> None:
        super().__init__(f"table {table_id} already has move {seq}")
        self.table_id = table_id
        self.seq = seq


class Base(DeclarativeBase):
    """Declarative base of the web table's models."""


class TableRow(Base):
    """One table: the game, its options and seed, status and result."""

    __tablename__ = "tikki_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    variant: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(Seed)
    status: Mapped[str] = mapped_column(String(16), index=True)
    created: Mapped[datetime] = mapped_column(DateTime, index=True)
    finished: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    takeovers: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, nullable=True)
    """The bots that played people's seats (:class:`tikki.server.tables.Takeover`)."""


class SeatRow(Base):
    """One seat of a table: open (with its hashed invite secret, or none: open to anyone),
    a human (name, hashed token) or a bot (spec)."""

    __tablename__ = "tikki_seats"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tikki_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    name: Mapped[str | None] = mapped_column(String(80), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(BOT_SPEC_MAX), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    invite_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class MoveRow(Base):
    """One move: the table, its sequence number (0 = first move), seat and text."""

    __tablename__ = "tikki_moves"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tikki_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[str] = mapped_column(String(120))
    time: Mapped[datetime] = mapped_column(DateTime)


class AccountRow(Base):
    """A player's account (optional: guests play without one): the name as claimed, its
    confusable skeleton (unique: :func:`tikki.server.accounts.skeleton`), the Argon2 hash
    of its password and whether its profile is private."""

    __tablename__ = "tikki_accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(40))
    skeleton: Mapped[str] = mapped_column(String(200), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    created: Mapped[datetime] = mapped_column(DateTime)
    private: Mapped[bool] = mapped_column(Boolean, default=False)


class SessionRow(Base):
    """A signed-in browser: the SHA-256 of its session cookie and of its CSRF token."""

    __tablename__ = "tikki_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("tikki_accounts.id", ondelete="CASCADE"), index=True
    )
    csrf_hash: Mapped[str] = mapped_column(String(64))
    created: Mapped[datetime] = mapped_column(DateTime)
    last_seen: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    """When the session was last used (within :data:`~tikki.server.accounts.SEEN_EVERY`)."""
    user_agent: Mapped[str | None] = mapped_column(String(USER_AGENT_MAX), nullable=True)
    """The browser's ``User-Agent`` when it signed in (cut short), for the list of devices."""


class AccountSeatRow(Base):
    """A seat that an account played (joined signed in, or a guest's game attached)."""

    __tablename__ = "tikki_account_seats"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tikki_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("tikki_accounts.id", ondelete="CASCADE"), index=True
    )


class ChatRow(Base):
    """One chat message of a table (never part of its game record): its channel
    (``players`` or ``spectators``), sender key and name, and a quick phrase's id or a
    free text."""

    __tablename__ = "tikki_chat"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tikki_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel: Mapped[str] = mapped_column(String(16))
    sender: Mapped[str] = mapped_column(String(40))
    name: Mapped[str] = mapped_column(String(80))
    phrase: Mapped[str | None] = mapped_column(String(32), nullable=True)
    text: Mapped[str | None] = mapped_column(String(400), nullable=True)
    time: Mapped[datetime] = mapped_column(DateTime)


class TableExtraRow(Base):
    """A table's settings outside the game: who created it (a seat), whether its chat
    takes free text, whether it is rated and whether its ratings were applied."""

    __tablename__ = "tikki_table_extras"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tikki_tables.id", ondelete="CASCADE"), primary_key=True
    )
    host_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    free_text: Mapped[bool] = mapped_column(Boolean, default=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    settled: Mapped[bool] = mapped_column(Boolean, default=False)


class RatingRow(Base):
    """An account's OpenSkill rating in one game (mu, sigma) and its rated games."""

    __tablename__ = "tikki_ratings"

    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("tikki_accounts.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)


class RatingChangeRow(Base):
    """What one rated table did to an account's rating (the ordinal before and after)."""

    __tablename__ = "tikki_rating_changes"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tikki_tables.id", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("tikki_accounts.id", ondelete="CASCADE"), primary_key=True
    )
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)


class AnalysisRow(Base):
    """A finished analysis of one seat of a finished table: its accuracy (the share of
    decisions without a label), for the player's profile, and the whole result as the API
    answers it (``None`` in a row of an earlier version), so that it is computed once."""

    __tablename__ = "tikki_analyses"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tikki_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    accuracy: Mapped[float] = mapped_column(Float)
    decisions: Mapped[int] = mapped_column(Integer)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class SummaryRow(Base):
    """A table's lobby line as of its newest stored move, written in that move's own
    transaction: the moves stored, the seat to act, when the move was stored and whether
    a person has moved.  A process that does not own the table lists it from this row
    instead of replaying its moves."""

    __tablename__ = "tikki_table_summaries"

    table_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tikki_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer)
    to_act: Mapped[int | None] = mapped_column(Integer, nullable=True)
    last_move: Mapped[datetime] = mapped_column(DateTime)
    played: Mapped[bool] = mapped_column(Boolean, default=False)


@dataclass
class Summary:
    """A table's stored lobby line (:class:`SummaryRow`)."""

    seq: int
    to_act: int | None
    last_move: datetime
    played: bool


@dataclass
class MoveWrite:
    """One move to store: the table, its number, seat and text, the outcome when it ends
    the game, the seat to act after it and whether a person made it (or an earlier
    move)."""

    table_id: str
    seq: int
    seat: int
    move: str
    outcome: dict[str, Any] | None = None
    to_act: int | None = None
    played: bool = False


@dataclass
class StoredSeat:
    """A seat as stored."""

    seat: int
    kind: str
    name: str | None = None
    bot: str | None = None
    token_hash: str | None = None
    invite_hash: str | None = None


@dataclass
class StoredTable:
    """A table as stored, with its seats and (when loaded) its moves."""

    id: str
    game: str
    players: int
    variant: str
    options: dict[str, Any]
    seed: int
    status: str
    created: datetime
    finished: datetime | None
    outcome: dict[str, Any] | None
    seats: list[StoredSeat]
    moves: list[str]
    takeovers: list[dict[str, Any]] = field(default_factory=list)
    """The bots that played people's seats, as stored (``{seat, from, to, bot, why}``)."""
    last_move: datetime | None = None
    """When the newest move was stored (``None`` before the first)."""
    accounts: list[int] = field(default_factory=list)
    """The seats an account holds (the others' people are guests)."""
    summary: Summary | None = None
    """The stored lobby line (read by :meth:`Store.load_listed` only)."""


def now() -> datetime:
    """The current UTC time, without tzinfo (stored alike in SQLite and PostgreSQL)."""
    return datetime.now(UTC).replace(tzinfo=None)


def default_db_url() -> str:
    """The default database: ``$XDG_DATA_HOME/tikki/web.sqlite`` (or ``~/.local/share``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return f"sqlite:///{Path(base) / 'tikki' / 'web.sqlite'}"


def normalize_url(url: str) -> str:
    """Map ``postgresql://`` and ``postgres://`` to the psycopg 3 driver."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite files are created (with their directory) in WAL mode."""
    url = normalize_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    database = parsed.database or ""
    if database in ("", ":memory:"):
        engine = create_engine(url, poolclass=StaticPool, connect_args={"check_same_thread": False})
    else:
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False})
    event.listen(engine, "connect", _sqlite_pragmas)
    return engine


class Store:
    """Reads and writes tables, seats and moves; one short transaction per call."""

    groups_here = True
    """Whether a SQLite file's group commits may be written on the event loop
    (:meth:`add_moves_here`; :attr:`writes_here`).  A test that replaces
    :meth:`add_moves` (a slow or broken database) sets it ``False``: every group then goes
    to the storage thread, as the ones the loop could not write do."""

    def __init__(self, url: str) -> None:
        self.url = normalize_url(url)
        self.engine = make_engine(self.url)
        self._held: Any = None
        """The group commits' own pooled DBAPI connection, kept between groups on a SQLite
        file (:meth:`_group_connection`)."""
        self._here: Any = None
        """The event loop's own connection for group commits on a SQLite file
        (:meth:`add_moves_here`), made at its first group."""
        self._file = self.engine.dialect.name == "sqlite" and not isinstance(
            self.engine.pool, StaticPool
        )
        """A SQLite file (not an in-memory database's single connection)."""
        self._reader: Engine | None = None
        """The lobby's engine on PostgreSQL (:meth:`_reading`), made at its first read."""
        postgres = self.engine.dialect.name == "postgresql"
        self._groups = PostgresGroups(self.engine) if postgres else None
        """PostgreSQL's group commits: one statement, one round trip (:mod:`.pg_groups`)."""

    def create_schema(self, cluster: bool = False) -> None:
        """Bring the schema to the newest revision of :mod:`tikki.server.migrations` (an
        empty database is made; one made by an earlier version is upgraded).  On
        PostgreSQL this holds a transaction-level advisory lock, so that processes starting
        at once create it one after the other.  ``cluster``: a process of a cluster, which
        refuses a schema older than its code (:class:`~tikki.server.schema.SchemaBehind`)
        instead of changing it under the other processes."""
        schema.prepare(self.engine, cluster=cluster)

    def upgrade(self) -> None:
        """Run the pending schema revisions (``tikki db upgrade``)."""
        schema.upgrade(self.engine)

    def keep_analysis(self, table_id: str, seat: int, result: dict[str, Any]) -> None:
        """Store (or replace) the finished analysis of one seat: ``result`` as the API
        answers it (with its ``accuracy`` and ``decisions``)."""
        key = {"table_id": table_id, "seat": seat}
        row = key | {
            "accuracy": result["accuracy"],
            "decisions": len(result["decisions"]),
            "result": result,
        }
        with self.engine.begin() as connection:
            connection.execute(delete(AnalysisRow).filter_by(**key))
            connection.execute(insert(AnalysisRow), row)

    def kept_analysis(self, table_id: str, seat: int) -> dict[str, Any] | None:
        """The stored result of a seat's analysis (``None`` when none is kept)."""
        with self.engine.connect() as connection:
            result: dict[str, Any] | None = connection.execute(
                select(AnalysisRow.result).where(
                    AnalysisRow.table_id == table_id, AnalysisRow.seat == seat
                )
            ).scalar()
        return result

    def analysed_seats(self, table_id: str) -> list[int]:
        """The seats of a table whose analysis is kept, in order."""
        with self.engine.connect() as connection:
            seats = connection.execute(
                select(AnalysisRow.seat)
                .where(AnalysisRow.table_id == table_id, AnalysisRow.result.is_not(None))
                .order_by(AnalysisRow.seat)
            ).scalars()
            return list(seats)

    @property
    def writes_here(self) -> bool:
        """Whether group commits are tried on the event loop first: a SQLite file, unless
        :attr:`groups_here` was turned off."""
        return self._file and self.groups_here

    def add_moves_here(self, writes: list[MoveWrite]) -> None:
        """Store a group of moves that finish no game on a SQLite file, called on the event
        loop, on a connection of its own that never waits: ``busy_timeout`` 0 (while
        another connection holds the write lock, the driver's "database is locked" comes
        at once) and ``wal_autocheckpoint`` 0 (no checkpoint's fsync here:
        :meth:`checkpoint` runs them on the storage thread).  In WAL mode with
        ``synchronous=NORMAL`` the commit appends to the log, without an fsync.  Any error
        is raised after a rollback, nothing of the group stored (the caller hands the
        group to the storage thread); after any error but a refused key or the lock
        (:func:`_harmless`) the connection is made anew for the next group."""
        raw = self._here
        if raw is None:
            raw = self._here = self._here_connection()
        dialect = self.engine.dialect
        try:
            _write_rows(raw, writes, dialect)
        except BaseException as err:
            with contextlib.suppress(Exception):
                raw.rollback()
            if not _harmless(err, dialect.loaded_dbapi):
                self._here = None
                with contextlib.suppress(Exception):
                    raw.invalidate()
            raise

    def _here_connection(self) -> Any:
        """A pooled connection (its pragmas: WAL, ``synchronous``, foreign keys) made the
        event loop's: it neither waits for a lock nor checkpoints."""
        raw = self.engine.raw_connection()
        cursor = raw.cursor()
        try:
            cursor.execute("PRAGMA busy_timeout=0")
            cursor.execute("PRAGMA wal_autocheckpoint=0")
        finally:
            cursor.close()
        return raw

    def checkpoint(self) -> None:
        """A passive WAL checkpoint on a SQLite file (on the storage thread): the log's
        committed pages copied into the database, as far as no reader holds them back,
        without waiting for a lock; the event loop's group connection runs none itself."""
        raw = self._group_connection()
        cursor = raw.cursor()
        try:
            cursor.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        finally:
            cursor.close()
            if raw is not self._held:
                raw.close()

    def close(self) -> None:
        """Release every connection."""
        here, self._here = self._here, None
        if here is not None:  # its pragmas are not the pool's: not given back
            with contextlib.suppress(Exception):
                here.invalidate()
        if self._groups is not None:
            self._groups.close()
        held, self._held = self._held, None
        if held is not None:
            with contextlib.suppress(Exception):
                held.close()
        reader, self._reader = self._reader, None
        if reader is not None:
            reader.dispose()
        self.engine.dispose()

    def _group_connection(self) -> Any:
        """The pooled DBAPI connection of a group commit on SQLite (PostgreSQL's are
        :mod:`.pg_groups`').  On a SQLite file the same one is kept from group to group (a
        local file does not go away; the pool's checkout and checkin were a quarter of a
        group's CPU); an in-memory database's single connection goes back each time."""
        if self._held is not None:
            return self._held
        raw = self.engine.raw_connection()
        if self.engine.dialect.name == "sqlite" and not isinstance(self.engine.pool, StaticPool):
            self._held = raw
        return raw

    def add_table(self, table: StoredTable, again: bool = False) -> bool:
        """Store a new table with its seats; ``False`` if its id is taken (nothing stored).

        ``again``: a retry after the connection broke at an unknown point, so a table
        already stored under this id with this seed and creation time is this one."""
        if again and self._has_table(table):
            return True
        row = {
            "id": table.id,
            "game": table.game,
            "players": table.players,
            "variant": table.variant,
            "options": table.options,
            "seed": table.seed,
            "status": table.status,
            "created": table.created,
        }
        seats = [
            {
                "table_id": table.id,
                "seat": s.seat,
                "kind": s.kind,
                "name": s.name,
                "bot": s.bot,
                "token_hash": s.token_hash,
                "invite_hash": s.invite_hash,
            }
            for s in table.seats
        ]
        try:
            if self._groups is not None:  # PostgreSQL: one statement, one round trip
                self._groups.add_table(row, seats)
            else:
                with self.engine.begin() as connection:
                    connection.execute(insert(TableRow), row)
                    connection.execute(insert(SeatRow), seats)
        except IntegrityError:
            return False
        return True

    def _has_table(self, table: StoredTable) -> bool:
        """Whether this very table (its id, seed and creation time) is stored."""
        with Session(self.engine) as session:
            row = session.get(TableRow, table.id)
        return row is not None and (row.seed, row.created) == (table.seed, table.created)

    def take_seat(self, table_id: str, seat: StoredSeat, status: str) -> None:
        """Store a joined seat (name, hashed token) and the table's new status."""
        with self.engine.begin() as connection:
            connection.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat.seat)
                .values(
                    kind=seat.kind, name=seat.name, token_hash=seat.token_hash, invite_hash=None
                )
            )
            connection.execute(
                update(TableRow).where(TableRow.id == table_id).values(status=status)
            )

    def add_move(
        self,
        table_id: str,
        seq: int,
        seat: int,
        move: str,
        outcome: dict[str, Any] | None,
        again: bool = False,
        to_act: int | None = None,
        played: bool = False,
    ) -> None:
        """Store one move (one small insert) with the table's lobby line; with an outcome,
        also mark the table finished.

        :class:`MoveConflict` when the table already has move ``seq`` (another process
        stored it first: the ``(table_id, seq)`` key refuses a second one) or is gone.
        ``again``: a retry after the connection broke at an unknown point, so move ``seq``
        already stored with this seat and text is this move, committed before the break.
        ``to_act`` and ``played``: the lobby line after the move (:class:`SummaryRow`)."""
        write = MoveWrite(table_id, seq, seat, move, outcome, to_act, played)
        if again and self._has_move(table_id, seq, seat, move):
            return
        try:
            with self.engine.begin() as connection:
                self._write_moves(connection, [write])
        except IntegrityError as err:
            raise MoveConflict(table_id, seq) from err

    def loop_groups(self) -> AsyncPostgresGroups | None:
        """Group commits written from the event loop (:mod:`.pg_groups`) on PostgreSQL, a
        connection of their own; ``None`` on SQLite (its groups go to the storage
        thread)."""
        postgres = self.engine.dialect.name == "postgresql"
        return AsyncPostgresGroups(self.url, self.engine) if postgres else None

    def add_moves(self, writes: list[MoveWrite]) -> list[Exception | None]:
        """Store several moves of different tables in one transaction (a group commit):
        one multi-row insert, their lobby lines and the finished tables (on PostgreSQL one
        statement, :mod:`.pg_groups`).  What became of
        each move, in order: ``None`` (stored), :class:`MoveConflict`, or the error that
        stopped it.  When the key refuses any of them, nothing of the group is kept and
        each move is stored on its own (:meth:`add_move`), so that a conflict refuses that
        move only.  An error that is not a conflict (the database out of reach) is raised:
        whether the group was committed is then unknown."""
        if not writes:
            return []
        try:
            if self._groups is not None:
                self._groups.write(writes, now())
            elif any(w.outcome is not None for w in writes):
                with self.engine.begin() as connection:
                    self._write_moves(connection, writes)
            else:
                self._write_plain_moves(writes)
        except IntegrityError:
            return [self._one(write) for write in writes]
        return [None] * len(writes)

    def _write_plain_moves(self, writes: list[MoveWrite]) -> None:
        """:meth:`_write_moves` on SQLite for moves that finish no game, on the pool's DBAPI
        connection itself: the two prepared statements (:class:`Prepared`) and the commit,
        without SQLAlchemy's connection and transaction objects (about half of a group
        commit's CPU on the storage thread).  A driver's error is raised as SQLAlchemy
        raises it (``IntegrityError``, ``OperationalError``, …; the connection
        invalidated when the driver says it is broken), after a rollback."""
        dialect = self.engine.dialect
        raw = self._group_connection()
        try:
            _write_rows(raw, writes, dialect)
        except dialect.loaded_dbapi.Error as err:
            self._held = None  # checked in below (or invalidated): the next group checks out
            broken = dialect.is_disconnect(err, raw, None)
            if broken:
                raw.invalidate(err)
            else:
                with contextlib.suppress(Exception):
                    raw.rollback()
            raise driver_error(None, err, self.engine, broken) from err
        except BaseException:
            self._held = None  # nothing of the group stays pending on a kept connection
            with contextlib.suppress(Exception):
                raw.rollback()
            raise
        finally:
            if raw is not self._held:
                raw.close()

    def _one(self, write: MoveWrite) -> Exception | None:
        """One move of a refused group stored on its own; what became of it."""
        try:
            self.add_move(write.table_id, write.seq, write.seat, write.move, write.outcome,
                          to_act=write.to_act, played=write.played)  # fmt: skip
        except Exception as err:
            return err
        return None

    def _write_moves(self, connection: Connection, writes: list[MoveWrite]) -> None:
        """Insert the moves, upsert their tables' lobby lines, finish the ended tables."""
        rows, lines = _move_rows(writes)
        moment = rows[0]["time"]  # before the statements turn it into the driver's form
        _prepared(connection.dialect, "moves").run(connection, rows)
        _prepared(connection.dialect, "summaries").run(connection, lines)
        for w in writes:
            if w.outcome is not None:
                connection.execute(
                    update(TableRow)
                    .where(TableRow.id == w.table_id)
                    .values(status="finished", finished=moment, outcome=w.outcome)
                )

    def _has_move(self, table_id: str, seq: int, seat: int, move: str) -> bool:
        """Whether move ``seq`` of the table is stored with this seat and text."""
        query = select(MoveRow.seat, MoveRow.move).where(
            MoveRow.table_id == table_id, MoveRow.seq == seq
        )
        with Session(self.engine) as session:
            found = session.execute(query).first()
        return found is not None and (found.seat, found.move) == (seat, move)

    def set_takeovers(self, table_id: str, takeovers: list[dict[str, Any]]) -> None:
        """Store a table's stand-in bots (the whole list: it is short)."""
        with self.engine.begin() as connection:
            connection.execute(
                update(TableRow).where(TableRow.id == table_id).values(takeovers=takeovers)
            )

    def drop_table(self, table_id: str) -> None:
        """Delete a table with its seats and moves (an expired waiting table)."""
        with self.engine.begin() as connection:
            connection.execute(delete(MoveRow).where(MoveRow.table_id == table_id))
            connection.execute(delete(SummaryRow).where(SummaryRow.table_id == table_id))
            connection.execute(delete(SeatRow).where(SeatRow.table_id == table_id))
            connection.execute(delete(TableRow).where(TableRow.id == table_id))

    def table_ids(self, statuses: list[str], limit: int) -> list[str]:
        """Ids of the newest tables with one of ``statuses``."""
        query = (
            select(TableRow.id)
            .where(TableRow.status.in_(statuses))
            .order_by(TableRow.created.desc(), TableRow.id)
            .limit(limit)
        )
        with Session(self.engine) as session:
            return list(session.scalars(query))

    def load(self, table_id: str) -> StoredTable | None:
        """One table with its seats and moves, or ``None``."""
        with Session(self.engine) as session:
            row = session.get(TableRow, table_id)
            return None if row is None else self._stored(session, row)

    def load_many(self, table_ids: list[str]) -> list[StoredTable]:
        """Several tables with their seats and moves, read in one session (a cluster
        process taking over a dead one's tables); ids not stored are left out."""
        with Session(self.engine) as session:
            rows = session.scalars(select(TableRow).where(TableRow.id.in_(table_ids)))
            return [self._stored(session, row) for row in rows]

    def load_listed(self, table_ids: list[str]) -> list[StoredTable]:
        """Tables as the lobby lists them: their rows, seats, seat accounts and stored
        lobby lines (:attr:`StoredTable.summary`, ``None`` for a table without one), but
        never their moves; a handful of queries whatever the number of tables."""
        if not table_ids:
            return []
        query = _with_lines().where(TableRow.id.in_(table_ids))
        with Session(self.engine) as session:
            found = [(row, line) for row, line in session.execute(query)]
            return self._listed(session, found)

    def lobby(
        self, statuses: list[str], limit: int, known: Collection[str] = ()
    ) -> tuple[list[str], list[StoredTable]]:
        """A cluster process's lobby: the ids of the newest ``limit`` tables with one of
        ``statuses`` (as :meth:`table_ids`), and those of them not in ``known`` (the
        caller holds them or has a fresh copy): a live table with a lobby line as
        :meth:`load_listed` reads it (no moves), any other whole, with its moves (as
        :meth:`load`).  One statement (:func:`_lobby_query`: each table with its lobby
        line, seats and seat accounts), a second only for tables read whole; on
        PostgreSQL on a connection of its own in autocommit (:meth:`_reading`), so that
        neither a ping, a ``BEGIN`` nor a ``ROLLBACK`` costs a round trip: the reading
        thread waits for the GIL after each, behind a busy event loop."""
        query = _lobby_query(self.engine.dialect.name)
        with self._reading() as connection:
            found = connection.execute(query, {"statuses": list(statuses), "limit": limit}).all()
            wanted = [row for row in found if row.id not in known]
            whole = [r.id for r in wanted if r.line_seq is None or r.status == "finished"]
            moves = _moves_of(connection, whole)
        return [row.id for row in found], [_lobby_table(row, moves) for row in wanted]

    def open_reading(self) -> None:
        """Open the lobby's connection (:meth:`_reading`) now, not at the first lobby
        request (on PostgreSQL a new engine's first connection asks the server a few
        things first)."""
        with self._reading():
            pass

    def _reading(self) -> Connection:
        """A connection for the lobby's reads: on PostgreSQL from an engine of its own in
        autocommit and without the pool's ping (a connection broken by a restart fails
        its statement, the pool drops it, and :meth:`Storage.run
        <tikki.server.tables.storage.Storage.run>` tries again on a new one); on SQLite
        the store's own."""
        if self.engine.dialect.name == "sqlite":
            return self.engine.connect()
        if self._reader is None:
            self._reader = create_engine(self.url, isolation_level="AUTOCOMMIT", pool_size=1)
        return self._reader.connect()

    @staticmethod
    def _listed(
        session: Session, found: Sequence[tuple[TableRow, SummaryRow | None]], moves: bool = False
    ) -> list[StoredTable]:
        """The stored tables of ``found`` (rows with their lobby lines), their seats and
        seat accounts read together; ``moves``: their moves too (and the newest's time)."""
        ids = [row.id for row, _ in found]
        if not ids:
            return []
        seats: dict[str, list[StoredSeat]] = {}
        query = select(SeatRow).where(SeatRow.table_id.in_(ids))
        for s in session.scalars(query.order_by(SeatRow.table_id, SeatRow.seat)):
            seats.setdefault(s.table_id, []).append(
                StoredSeat(s.seat, s.kind, s.name, s.bot, s.token_hash, s.invite_hash)
            )
        linked: dict[str, list[int]] = {}
        for a in session.scalars(select(AccountSeatRow).where(AccountSeatRow.table_id.in_(ids))):
            linked.setdefault(a.table_id, []).append(a.seat)
        played: dict[str, list[str]] = {}
        last: dict[str, datetime] = {}
        if moves:
            query2 = select(MoveRow.table_id, MoveRow.move, MoveRow.time)
            query2 = query2.where(MoveRow.table_id.in_(ids)).order_by(MoveRow.table_id, MoveRow.seq)
            for table_id, move, moment in session.execute(query2):
                played.setdefault(table_id, []).append(move)
                last[table_id] = max(last.get(table_id, moment), moment)
        return [
            _stored_table(row, seats.get(row.id, []), played.get(row.id, []),
                          last.get(row.id), sorted(linked.get(row.id, [])), _summary(line))
            for row, line in found
        ]  # fmt: skip

    def unfinished(self) -> list[StoredTable]:
        """Every table still waiting or playing, with seats and moves, oldest first."""
        query = (
            select(TableRow)
            .where(TableRow.status != "finished")
            .order_by(TableRow.created, TableRow.id)
        )
        with Session(self.engine) as session:
            return [self._stored(session, row) for row in session.scalars(query)]

    def live_counts(self) -> tuple[int, int]:
        """The live (waiting or playing) tables of the whole database, and those of them
        where only bots play: the site-wide caps of a cluster."""
        with self.engine.connect() as connection:
            total, bots = connection.execute(_LIVE_COUNTS).one()
        return int(total or 0), int(bots or 0)

    def move_count(self, table_id: str) -> int:
        """Number of stored moves of a table."""
        with Session(self.engine) as session:
            query = select(func.count()).select_from(MoveRow).where(MoveRow.table_id == table_id)
            return int(session.scalar(query) or 0)

    @staticmethod
    def _stored(session: Session, row: TableRow) -> StoredTable:
        seats = session.scalars(
            select(SeatRow).where(SeatRow.table_id == row.id).order_by(SeatRow.seat)
        )
        moves = list(
            session.scalars(
                select(MoveRow.move).where(MoveRow.table_id == row.id).order_by(MoveRow.seq)
            )
        )
        last = session.scalar(select(func.max(MoveRow.time)).where(MoveRow.table_id == row.id))
        linked = session.scalars(
            select(AccountSeatRow.seat).where(AccountSeatRow.table_id == row.id)
        )
        return _stored_table(
            row, [StoredSeat(s.seat, s.kind, s.name, s.bot, s.token_hash, s.invite_hash)
                  for s in seats],
            moves, last, sorted(linked),
        )  # fmt: skip


def _stored_table(
    row: TableRow,
    seats: list[StoredSeat],
    moves: list[str],
    last: datetime | None,
    accounts: list[int],
    summary: Summary | None = None,
) -> StoredTable:
    """A stored table from its row and what was read beside it."""
    return StoredTable(
        id=row.id,
        game=row.game,
        players=row.players,
        variant=row.variant,
        options=dict(row.options),
        seed=row.seed,
        status=row.status,
        created=row.created,
        finished=row.finished,
        outcome=row.outcome,
        seats=seats,
        moves=moves,
        takeovers=list(row.takeovers or []),
        last_move=last,
        accounts=accounts,
        summary=summary,
    )


def _with_lines() -> Any:
    """Table rows with their lobby lines (``None`` where a table has none)."""
    return select(TableRow, SummaryRow).outerjoin(SummaryRow, SummaryRow.table_id == TableRow.id)


@functools.cache
def _lobby_query(dialect: str) -> Any:
    """The lobby's one statement, built once per dialect: the newest tables with one of
    the ``statuses`` (at most ``limit``), newest first, each with its lobby line
    (``line_*``, ``NULL`` without one), its seats (``seats``: a JSON array of ``[seat,
    kind, name, bot, token_hash, invite_hash]``) and the seats an account holds
    (``accounts``), aggregated by PostgreSQL's ``json_agg`` or SQLite's
    ``json_group_array`` (unordered: :func:`_lobby_table` sorts them)."""
    postgres = dialect == "postgresql"
    group = func.json_agg if postgres else func.json_group_array
    array = func.json_build_array if postgres else func.json_array
    seat = (SeatRow.seat, SeatRow.kind, SeatRow.name, SeatRow.bot, SeatRow.token_hash,
            SeatRow.invite_hash)  # fmt: skip
    seats = select(group(array(*seat))).where(SeatRow.table_id == TableRow.id)
    linked = select(group(AccountSeatRow.seat)).where(AccountSeatRow.table_id == TableRow.id)
    return (
        select(
            *TableRow.__table__.columns,
            SummaryRow.seq.label("line_seq"),
            SummaryRow.to_act.label("line_to_act"),
            SummaryRow.last_move.label("line_last_move"),
            SummaryRow.played.label("line_played"),
            type_coerce(seats.scalar_subquery(), JSON).label("seats"),
            type_coerce(linked.scalar_subquery(), JSON).label("accounts"),
        )
        .outerjoin(SummaryRow, SummaryRow.table_id == TableRow.id)
        .where(TableRow.status.in_(bindparam("statuses", expanding=True)))
        .order_by(TableRow.created.desc(), TableRow.id)
        .limit(bindparam("limit", type_=Integer))
    )


def _moves_of(connection: Connection, ids: list[str]) -> dict[str, list[tuple[str, datetime]]]:
    """The moves of the tables ``ids`` with their times, in order, by table (one
    statement; none for no tables)."""
    if not ids:
        return {}
    query = select(MoveRow.table_id, MoveRow.move, MoveRow.time)
    query = query.where(MoveRow.table_id.in_(ids)).order_by(MoveRow.table_id, MoveRow.seq)
    moves: dict[str, list[tuple[str, datetime]]] = {}
    for table_id, move, moment in connection.execute(query):
        moves.setdefault(table_id, []).append((move, moment))
    return moves


def _lobby_table(row: Any, moves: dict[str, list[tuple[str, datetime]]]) -> StoredTable:
    """A table as the lobby read it (a row of :func:`_lobby_query`): with its lobby line
    if it has one and is not finished, else read whole, with its ``moves`` (and the
    newest's time), as :meth:`Store.load_listed` and :meth:`Store.load` make them."""
    seats = sorted((StoredSeat(*s) for s in row.seats or []), key=lambda s: s.seat)
    line = None
    if row.line_seq is not None and row.status != "finished":
        line = Summary(row.line_seq, row.line_to_act, row.line_last_move, row.line_played)
    played = [] if line is not None else moves.get(row.id, [])
    last = max((moment for _, moment in played), default=None)
    return _stored_table(row, seats, [move for move, _ in played], last,
                         sorted(row.accounts or []), line)  # fmt: skip


def _summary(line: SummaryRow | None) -> Summary | None:
    """A stored lobby line as read (``None``: none)."""
    if line is None:
        return None
    return Summary(line.seq, line.to_act, line.last_move, line.played)


_LIVE_COUNTS = (
    select(
        func.count(),
        func.count().filter(
            ~exists().where(SeatRow.table_id == TableRow.id, SeatRow.kind != "bot")
        ),
    )
    .select_from(TableRow)
    .where(TableRow.status.in_(["waiting", "playing"]))
)
"""The live tables and the bot-only ones among them, in one statement (one round trip,
read at each table's creation in a cluster)."""


@functools.cache
def _upsert_summary(dialect: str) -> Any:
    """The statement that writes lobby lines (:class:`SummaryRow`), new or replacing:
    built once per dialect (building it and its cache key anew took about three times
    the rest of a one-move commit, on the storage thread every move waits for)."""
    make = postgresql_insert if dialect == "postgresql" else sqlite_insert
    statement = make(SummaryRow)
    columns = ("seq", "to_act", "last_move", "played")
    return statement.on_conflict_do_update(
        index_elements=[SummaryRow.table_id],
        set_={c: getattr(statement.excluded, c) for c in columns},
    )


def _write_rows(raw: Any, writes: list[MoveWrite], dialect: Dialect) -> None:
    """Insert a group's moves and upsert their lobby lines on the DBAPI connection ``raw``
    (the two prepared statements, :class:`Prepared`), and commit: the driver's own
    errors, the transaction left to the caller to roll back."""
    rows, lines = _move_rows(writes)
    cursor = raw.cursor()
    try:
        _prepared(dialect, "moves").execute(cursor, rows)
        _prepared(dialect, "summaries").execute(cursor, lines)
        raw.commit()
    finally:
        with contextlib.suppress(Exception):
            cursor.close()


def _harmless(err: BaseException, driver: Any) -> bool:
    """Whether a SQLite error leaves its connection as it was: a key refused a row, or
    another connection holds the lock ("database is locked", "busy")."""
    if isinstance(err, driver.IntegrityError):
        return True
    text = str(err).lower()
    return isinstance(err, driver.OperationalError) and ("locked" in text or "busy" in text)


def _move_rows(writes: list[MoveWrite]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The rows of a group of moves (stored now) and their tables' newest lobby lines."""
    moment = now()
    rows = [
        {"table_id": w.table_id, "seq": w.seq, "seat": w.seat, "move": w.move, "time": moment}
        for w in writes
    ]
    lines = [
        {"table_id": w.table_id, "seq": w.seq + 1, "to_act": w.to_act,
         "last_move": moment, "played": w.played}
        for w in newest_of_each_table(writes)
    ]  # fmt: skip
    return rows, lines


@dataclass(frozen=True)
class Prepared:
    """A statement compiled once for a dialect, run on the driver's own terms: its SQL
    text, the parameters' order (positional drivers; ``None``: named) and the bind
    processors of the parameters that have one (SQLite's date-times as text).  Running it
    is what SQLAlchemy's ``execute`` does for that statement, without building its cache
    key, looking up its compiled form and processing its parameters generically each
    time (most of a group commit's CPU on the storage thread)."""

    sql: str
    order: tuple[str, ...] | None
    processors: tuple[tuple[str, Any], ...]

    @classmethod
    def of(cls, statement: Any, columns: Sequence[str], dialect: Dialect) -> Prepared:
        """``statement`` compiled for ``dialect`` with parameters ``columns``."""
        compiled = statement.compile(dialect=dialect, column_keys=list(columns))
        order = tuple(compiled.positiontup) if compiled.positional else None
        processors = []
        for name, bind in compiled.binds.items():
            process = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if process is not None:
                processors.append((name, process))
        return cls(compiled.string, order, tuple(processors))

    def params(self, rows: list[dict[str, Any]]) -> list[Any]:
        """``rows`` as the driver takes them (processed, in order where positional)."""
        for name, process in self.processors:
            for row in rows:
                row[name] = process(row[name])
        take = self.take
        return rows if take is None else [take(row) for row in rows]

    @functools.cached_property
    def take(self) -> Callable[[dict[str, Any]], tuple[Any, ...]] | None:
        """A row's parameters in order (positional drivers); ``None``: named."""
        order = self.order
        if order is None:
            return None
        if len(order) == 1:
            return lambda row: (row[order[0]],)
        return operator.itemgetter(*order)

    def run(self, connection: Connection, rows: list[dict[str, Any]]) -> None:
        """Run it on ``connection`` for ``rows`` (one execute, or an executemany); the
        driver's errors come wrapped as SQLAlchemy's, as from ``connection.execute``."""
        params = self.params(rows)
        connection.exec_driver_sql(self.sql, params if len(params) > 1 else params[0])

    def execute(self, cursor: Any, rows: list[dict[str, Any]]) -> None:
        """Run it on a DBAPI ``cursor`` for ``rows`` (the driver's own errors)."""
        params = self.params(rows)
        if len(params) == 1:
            cursor.execute(self.sql, params[0])
        else:
            cursor.executemany(self.sql, params)


@functools.cache
def _prepared(dialect: Dialect, what: str) -> Prepared:
    """The storage thread's statements of a group commit, prepared once per dialect:
    ``moves`` inserts moves, ``summaries`` writes lobby lines."""
    if what == "moves":
        return Prepared.of(insert(MoveRow), ("table_id", "seq", "seat", "move", "time"), dialect)
    columns = ("table_id", "seq", "to_act", "last_move", "played")
    return Prepared.of(_upsert_summary(dialect.name), columns, dialect)


def is_outage(err: BaseException) -> bool:
    """Whether ``err`` says the database was out of reach (not running, restarting, the
    connection broken): worth trying again in a moment, unlike a refused statement."""
    if isinstance(err, (OperationalError, InterfaceError)):
        return True
    if isinstance(err, DBAPIError) and err.connection_invalidated:
        return True
    kinds = {kind.__name__ for kind in type(err).__mro__}
    return type(err).__module__.startswith("psycopg") and bool(
        kinds & {"OperationalError", "InterfaceError"}
    )


__all__ = [
    "BOT_SPEC_MAX",
    "AccountRow",
    "AccountSeatRow",
    "AnalysisRow",
    "Base",
    "ChatRow",
    "MoveConflict",
    "MoveRow",
    "MoveWrite",
    "RatingChangeRow",
    "RatingRow",
    "SeatRow",
    "Seed",
    "SessionRow",
    "Store",
    "StoredSeat",
    "StoredTable",
    "Summary",
    "SummaryRow",
    "TableExtraRow",
    "TableRow",
    "default_db_url",
    "is_outage",
    "make_engine",
    "normalize_url",
    "now",
]
