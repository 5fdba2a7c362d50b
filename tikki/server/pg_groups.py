"""A group commit on PostgreSQL in one statement and one round trip.

The moves of a group, their tables' lobby lines and the tables they finish are written by
one statement (two data-modifying ``WITH`` parts and an upsert, each over ``unnest`` of
arrays) on a connection of its own in autocommit: PostgreSQL runs it as one transaction,
so the group is stored whole or not at all, and the client waits for one answer.  The
pooled way took four waits (the pool's ping, the moves, the lobby lines, the commit) and
about three times the Python: each wait is one more hand-over of the GIL between the
storage thread and the event loop, and the storage thread's Python is time the loop
cannot run (issue 50's saturation rows)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, make_url
from sqlalchemy.exc import DBAPIError

if TYPE_CHECKING:
    from tikki.server.db import MoveWrite

CONNECT_TIMEOUT = 5
"""Seconds the event loop's group connection waits to be made (libpq's own bound)."""
GROUP_SQL = """\
WITH stored AS (
    INSERT INTO tikki_moves (table_id, seq, seat, move, time)
    SELECT id, seq, seat, move, %(now)s::timestamp
    FROM unnest(%(ids)s::varchar[], %(seqs)s::int[], %(seats)s::int[], %(moves)s::varchar[])
        AS m(id, seq, seat, move)
), ended AS (
    UPDATE tikki_tables SET status = 'finished', finished = %(now)s::timestamp,
        outcome = e.outcome::json
    FROM unnest(%(ended)s::varchar[], %(outcomes)s::text[]) AS e(id, outcome)
    WHERE tikki_tables.id = e.id
)
INSERT INTO tikki_table_summaries (table_id, seq, to_act, last_move, played)
SELECT id, seq, to_act, %(now)s::timestamp, played
FROM unnest(%(line_ids)s::varchar[], %(line_seqs)s::int[], %(to_act)s::int[],
            %(played)s::bool[]) AS s(id, seq, to_act, played)
ON CONFLICT (table_id) DO UPDATE SET seq = excluded.seq, to_act = excluded.to_act,
    last_move = excluded.last_move, played = excluded.played"""
"""The group's statement: the moves, the finished tables (status, time and outcome, as
:meth:`~tikki.server.db.Store.add_move` marks one) and the lobby lines, new or replacing."""


TABLE_SQL = """\
WITH made AS (
    INSERT INTO tikki_tables (id, game, players, variant, options, seed, status, created)
    VALUES (%(id)s, %(game)s, %(players)s, %(variant)s, %(options)s::json, %(seed)s,
            %(status)s, %(created)s::timestamp)
)
INSERT INTO tikki_seats (table_id, seat, kind, name, bot, token_hash, invite_hash)
SELECT %(id)s, seat, kind, name, bot, token_hash, invite_hash
FROM unnest(%(seats)s::int[], %(kinds)s::varchar[], %(names)s::varchar[], %(bots)s::varchar[],
            %(tokens)s::varchar[], %(invites)s::varchar[])
    AS s(seat, kind, name, bot, token_hash, invite_hash)"""
"""A new table and its seats: one statement (the seats' key to the table is checked at
its end, when the table's row is there)."""


def table_params(table: dict[str, Any], seats: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """:data:`TABLE_SQL`'s parameters: the table's row (its options as JSON text, its
    seed as decimal text, as :class:`~tikki.server.db.Seed` stores it) and the seats'
    columns as arrays."""
    return table | {
        "options": json.dumps(table["options"]),
        "seed": str(table["seed"]),
        "seats": [s["seat"] for s in seats],
        "kinds": [s["kind"] for s in seats],
        "names": [s["name"] for s in seats],
        "bots": [s["bot"] for s in seats],
        "tokens": [s["token_hash"] for s in seats],
        "invites": [s["invite_hash"] for s in seats],
    }


def newest_of_each_table(writes: Sequence[MoveWrite]) -> list[MoveWrite]:
    """The newest move of each table among ``writes`` (its lobby line's)."""
    newest: dict[str, MoveWrite] = {}
    for w in writes:
        if w.table_id not in newest or newest[w.table_id].seq < w.seq:
            newest[w.table_id] = w
    return list(newest.values())


def driver_error(sql: str | None, err: Exception, engine: Engine, broken: bool) -> Exception:
    """The driver's ``err`` as SQLAlchemy raises it (``IntegrityError``,
    ``OperationalError``, …; ``broken``: the connection was lost)."""
    dbapi_error = engine.dialect.loaded_dbapi.Error
    return DBAPIError.instance(sql, None, err, dbapi_error, connection_invalidated=broken)


def group_params(writes: Sequence[MoveWrite], moment: datetime) -> dict[str, Any]:
    """The statement's arrays for ``writes`` stored at ``moment``: every move; the newest
    move of each table for its lobby line; the tables ended with their outcomes."""
    lines = newest_of_each_table(writes)
    ended = [w for w in writes if w.outcome is not None]
    return {
        "now": moment,
        "ids": [w.table_id for w in writes],
        "seqs": [w.seq for w in writes],
        "seats": [w.seat for w in writes],
        "moves": [w.move for w in writes],
        "ended": [w.table_id for w in ended],
        "outcomes": [json.dumps(w.outcome) for w in ended],
        "line_ids": [w.table_id for w in lines],
        "line_seqs": [w.seq + 1 for w in lines],
        "to_act": [w.to_act for w in lines],
        "played": [w.played for w in lines],
    }


class PostgresGroups:
    """The group commits' own PostgreSQL connection (taken from the engine's pool, with
    its ping, then detached from it and kept in autocommit) and their statement."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._raw: Any = None
        """The kept psycopg connection (detached from the pool); ``None``: none yet, or
        the last one failed and was closed."""

    def write(self, writes: Sequence[MoveWrite], moment: datetime) -> None:
        """Store ``writes`` at ``moment`` whole, or raise what stopped them (the driver's
        error as SQLAlchemy raises it: ``IntegrityError`` when a key refused a move,
        ``OperationalError`` when the database is out of reach; nothing was stored, or,
        for a broken connection, whether it was is unknown).  A connection that failed is
        closed: the next group takes a fresh one."""
        self._run(GROUP_SQL, group_params(writes, moment))

    def add_table(self, table: dict[str, Any], seats: Sequence[dict[str, Any]]) -> None:
        """Store a new table's row and seats (the columns as
        :meth:`~tikki.server.db.Store.add_table` names them) in one statement; raises as
        :meth:`write` (``IntegrityError``: the id is taken, nothing stored)."""
        self._run(TABLE_SQL, table_params(table, seats))

    def _run(self, sql: str, params: dict[str, Any]) -> None:
        """Run one statement on the kept connection (errors as :meth:`write` says)."""
        raw = self._connection()
        dialect = self.engine.dialect
        try:
            with raw.cursor() as cursor:
                cursor.execute(sql, params)
        except dialect.loaded_dbapi.Error as err:
            broken = dialect.is_disconnect(err, raw, None)
            self.close()
            raise driver_error(sql, err, self.engine, broken) from err
        except BaseException:
            self.close()
            raise

    def _connection(self) -> Any:
        """The kept connection, made when there is none."""
        if self._raw is None:
            fairy = self.engine.raw_connection()  # the pool's ping: a live connection
            raw: Any = fairy.driver_connection
            fairy.detach()  # never back to the pool: it is in autocommit from now on
            raw.rollback()  # the ping's transaction
            raw.autocommit = True
            self._raw = raw
        return self._raw

    def close(self) -> None:
        """Close the kept connection (if any)."""
        raw, self._raw = self._raw, None
        if raw is not None:
            with contextlib.suppress(Exception):
                raw.close()


class AsyncPostgresGroups:
    """:class:`PostgresGroups` on the event loop (psycopg's async connection): the loop
    sends a group's statement and goes on with its work; no thread is woken and no GIL
    changes hands for a group."""

    def __init__(self, url: str, engine: Engine) -> None:
        self.conninfo = make_url(url).set(drivername="postgresql").render_as_string(False)
        """libpq's form of the database's URL."""
        self.engine = engine
        """The store's engine (its dialect turns the driver's errors into SQLAlchemy's)."""
        self._conn: Any = None

    async def write(self, writes: Sequence[MoveWrite], moment: datetime) -> None:
        """As :meth:`PostgresGroups.write`, awaited on the event loop."""
        dbapi = self.engine.dialect.loaded_dbapi
        try:
            conn = await self._connection()
            async with conn.cursor() as cursor:
                await cursor.execute(GROUP_SQL, group_params(writes, moment))
        except dbapi.Error as err:
            broken = self._conn is None or self._conn.broken or self._conn.closed
            await self.close()
            raise driver_error(GROUP_SQL, err, self.engine, broken) from err
        except BaseException:
            await self.close()
            raise

    async def _connection(self) -> Any:
        """The kept connection, made (in autocommit) when there is none."""
        if self._conn is None:
            import psycopg  # the PostgreSQL extra's driver, as the engine's

            self._conn = await psycopg.AsyncConnection.connect(
                self.conninfo, autocommit=True, connect_timeout=CONNECT_TIMEOUT
            )
        return self._conn

    async def close(self) -> None:
        """Close the kept connection (if any)."""
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()
