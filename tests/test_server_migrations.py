"""The web table's schema versions (Alembic): a database made by the start-up of the
versions before migrations upgrades cleanly to the newest revision, whose schema is the
models'; ``tikki db current`` / ``tikki db upgrade``; a cluster process refuses a schema
older than its code, naming the command, and starts on one newer than its code."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, insert, inspect
from typer.testing import CliRunner

import tikki.server.friends.rows
import tikki.server.names
import tikki.server.notices.rows
import tikki.server.puzzles.rows
import tikki.server.ratings
import tikki.server.tournaments.rows
from tikki.cli import app
from tikki.server import schema
from tikki.server.db import Base, SeatRow, Store, TableRow, make_engine, now

assert tikki.server.names and tikki.server.ratings  # their tables are the models' too

SUMMARIES = "tikki_table_summaries"
"""The first table added after the start-up code that made schemas without revisions."""
ADDED = {
    SUMMARIES,
    *tikki.server.friends.rows.TABLES,
    *tikki.server.puzzles.rows.TABLES,
    *tikki.server.notices.rows.TABLES,
    *tikki.server.tournaments.rows.TABLES,
}
"""Every table added after that start-up code (each by its own revision)."""


def old_startup(url: str) -> None:
    """What a server's start did before migrations: create every table it knew (no
    ``alembic_version``), with a table and its seat in it."""
    engine = make_engine(url)
    with engine.begin() as connection:
        known = [t for t in Base.metadata.sorted_tables if t.name not in ADDED]
        Base.metadata.create_all(connection, tables=known)
        connection.execute(
            insert(TableRow),
            {"id": "t1", "game": "mattis", "players": 2, "variant": "standard",
             "options": {}, "seed": 7, "status": "playing", "created": now()},
        )  # fmt: skip
        connection.execute(insert(SeatRow), {"table_id": "t1", "seat": 0, "kind": "bot"})
    engine.dispose()


def differences(url: str) -> list[object]:
    """What differs between the database's schema and the models' (nothing: the same)."""
    engine = make_engine(url)
    with engine.connect() as connection:
        found = compare_metadata(
            MigrationContext.configure(connection, opts={"compare_type": True}), Base.metadata
        )
    engine.dispose()
    return list(found)


def at(url: str) -> str | None:
    """The database's revision."""
    engine = make_engine(url)
    try:
        return schema.revision(engine)
    finally:
        engine.dispose()


def tikki_db(*args: str) -> str:
    """``tikki db ARGS`` as its user runs it: what it printed (it must succeed)."""
    result = CliRunner().invoke(app, ["db", *args])
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())


def check_old_database_upgrades(url: str) -> None:
    """A database of the start-up code before migrations: no revision, then the head by
    ``tikki db upgrade``, its rows kept and its schema the models'."""
    old_startup(url)
    assert at(url) is None
    assert "no revision" in tikki_db("current", "--db", url)
    said = tikki_db("upgrade", "--db", url)
    assert f"from revision none to {schema.head()}" in said
    assert at(url) == schema.head()
    assert differences(url) == []
    assert f"revision {schema.head()} (head)" in tikki_db("current", "--db", url)
    assert "nothing to do" in tikki_db("upgrade", "--db", url)
    store = Store(url)
    stored = store.load("t1")
    store.close()
    assert stored is not None and stored.seed == 7 and stored.seats[0].kind == "bot"


def check_fresh_is_models(url: str) -> None:
    """The revisions from nothing make the models' schema, at the head."""
    store = Store(url)
    store.create_schema()
    store.create_schema()  # a second start changes nothing
    store.close()
    assert at(url) == schema.head()
    assert differences(url) == []


def check_cluster_start(url: str) -> None:
    """A cluster process: an empty database is made; an older schema is refused (naming
    the command) and left as it was; after ``tikki db upgrade`` it starts."""
    Store(url).create_schema(cluster=True)
    assert at(url) == schema.head()


def check_cluster_refuses_older(url: str) -> None:
    """An older schema (made before migrations) stops a cluster process, unchanged."""
    old_startup(url)
    store = Store(url)
    with pytest.raises(schema.SchemaBehind, match="tikki db upgrade"):
        store.create_schema(cluster=True)
    assert at(url) is None
    with store.engine.connect() as connection:
        assert not _has_table(connection, SUMMARIES)
    tikki_db("upgrade", "--db", url)
    store.create_schema(cluster=True)
    store.close()
    assert at(url) == schema.head()


def check_newer_schema_runs(url: str) -> None:
    """A revision newer than the code (the next release's, expand-only) is accepted by a
    cluster process and by a single one, and left as it is."""
    Store(url).create_schema()
    engine = make_engine(url)
    with engine.begin() as connection:
        connection.exec_driver_sql("UPDATE alembic_version SET version_num = 'ffff-next'")
    engine.dispose()
    store = Store(url)
    store.create_schema(cluster=True)
    store.create_schema()
    store.close()
    assert at(url) == "ffff-next"
    assert "newer than this version" in tikki_db("current", "--db", url)


def _has_table(connection: Connection, name: str) -> bool:
    """Whether the database has table ``name``."""
    return name in inspect(connection).get_table_names()


CHECKS: list[Callable[[str], None]] = [
    check_old_database_upgrades,
    check_fresh_is_models,
    check_cluster_start,
    check_cluster_refuses_older,
    check_newer_schema_runs,
]


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.__name__)
def test_sqlite(check: Callable[[str], None], tmp_path: Path) -> None:
    check(f"sqlite:///{tmp_path / 'tikki.sqlite'}")


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.__name__)
def test_postgres(check: Callable[[str], None], postgres_url: str) -> None:
    check(postgres_url)


def test_revisions_form_one_line() -> None:
    """One head, each revision after the one before (no branches to merge)."""
    revisions = list(schema.script().walk_revisions())
    assert len(schema.script().get_heads()) == 1
    assert revisions[-1].down_revision is None
    assert [r.revision for r in reversed(revisions)] == sorted(r.revision for r in revisions)
