"""The web table's schema versions: Alembic's revisions in :mod:`tikki.server.migrations`.

A database made before migrations (tables but no ``alembic_version``) is at no revision;
the baseline creates what it lacks and the next revision adds the columns of later
versions, so it upgrades like any other.  A server on SQLite (or one process on
PostgreSQL) brings its database to the newest revision when it starts; a process of a
cluster (``--cluster``) refuses a schema older than its code (:class:`SchemaBehind`),
since the other processes still run on it: the operator runs ``tikki db upgrade`` first
(docs/hosting.md, "Upgrading").  A schema newer than the code (a revision it does not
know) is accepted: releases change the schema only by adding, so the code before still
runs on it during a rolling upgrade.
"""

from __future__ import annotations

import functools
from pathlib import Path

from alembic.config import Config
from alembic.runtime.environment import EnvironmentContext
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, inspect

from tikki.i18n import _

LOCATION = str(Path(__file__).with_name("migrations"))
"""Where the revisions are (``tikki/server/migrations``)."""
SCHEMA_LOCK = 0x74696B6B69
"""The advisory lock key (``tikki`` in ASCII) under which PostgreSQL schemas change."""


class SchemaBehind(Exception):
    """A cluster process found its database older than its code."""


def config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for tikki's revisions (on ``connection`` when given)."""
    cfg = Config()
    cfg.set_main_option("script_location", LOCATION)
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


@functools.cache
def script() -> ScriptDirectory:
    """The revisions (read once)."""
    return ScriptDirectory.from_config(config())


def head() -> str:
    """The newest revision this code knows."""
    newest = script().get_current_head()
    assert newest is not None
    return newest


def current(connection: Connection) -> str | None:
    """The database's revision (``None``: empty, or made before migrations)."""
    return MigrationContext.configure(connection).get_current_revision()


def known(revision: str) -> bool:
    """Whether this code knows ``revision`` (a newer release's is unknown)."""
    return revision in {r.revision for r in script().walk_revisions()}


def empty(connection: Connection) -> bool:
    """Whether the database has none of tikki's tables yet (the cluster's own list of
    processes aside)."""
    names = inspect(connection).get_table_names()
    return not any(name.startswith("tikki_") and name != "tikki_nodes" for name in names)


def _lock(connection: Connection) -> None:
    """On PostgreSQL, wait for the schema's transaction lock (processes starting at once)."""
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))


def _migrate(connection: Connection, target: str = "heads") -> None:
    """Run the revisions from the database's to ``target`` on ``connection``."""
    scripts = script()
    with EnvironmentContext(
        config(connection),
        scripts,
        fn=lambda rev, _context: scripts._upgrade_revs(target, rev),
        destination_rev=target,
    ):
        scripts.run_env()


def upgrade_on(connection: Connection) -> tuple[str | None, str]:
    """Bring the database on ``connection`` to the newest revision (in its transaction):
    the revision before and after.  A revision newer than this code's is left alone."""
    _lock(connection)
    before = current(connection)
    if before is None or (before != head() and known(before)):
        _migrate(connection)
    return before, current(connection) or head()


def upgrade(engine: Engine) -> tuple[str | None, str]:
    """:func:`upgrade_on` in a transaction of its own (``tikki db upgrade``)."""
    with engine.begin() as connection:
        return upgrade_on(connection)


def revision(engine: Engine) -> str | None:
    """The database's revision (``tikki db current``)."""
    with engine.connect() as connection:
        return current(connection)


def behind(connection: Connection) -> bool:
    """Whether the database is older than this code (a revision before its head, or made
    before migrations); an empty database is not."""
    at = current(connection)
    if at is None:
        return not empty(connection)
    return at != head() and known(at)


def prepare(engine: Engine, cluster: bool = False) -> None:
    """The start of a server: bring the schema to the newest revision, except in a
    cluster, where an older schema is refused (:class:`SchemaBehind`, naming the command)
    and only an empty database is made."""
    with engine.begin() as connection:
        _lock(connection)
        if cluster and behind(connection):
            raise SchemaBehind(
                _(
                    "the database's schema ({found}) is older than this version's ({head}): "
                    "run `tikki db upgrade --db URL` once before starting the cluster's "
                    "processes",
                    found=current(connection) or _("before migrations"),
                    head=head(),
                )
            )
        upgrade_on(connection)
