"""Alembic's environment: the migrations run on the connection the caller gives
(``config.attributes["connection"]``), or on ``sqlalchemy.url`` when Alembic's own command
line is used to write a new revision."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from tikki.server.db import Base, make_engine


def _run(connection: Connection) -> None:
    """Run the pending revisions on ``connection`` in one transaction."""
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def _main() -> None:
    """Run on the given connection, or on a new one to ``sqlalchemy.url``."""
    given = context.config.attributes.get("connection")
    if given is not None:
        _run(given)
        return
    url = context.config.get_main_option("sqlalchemy.url") or ""
    with make_engine(url).begin() as connection:
        _run(connection)


if hasattr(context, "config"):  # run by Alembic (not imported to collect doctests)
    _main()
