"""``tikki db``: the web table's database schema, versioned by Alembic's revisions
(:mod:`tikki.server.schema`).

``tikki db upgrade`` brings a database to this version's schema (what a cluster needs
before its processes of a new version start); ``tikki db current`` names its revision and
whether it is this version's newest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from tikki import extras
from tikki.commandline import console, fail
from tikki.i18n import _

if TYPE_CHECKING:
    from sqlalchemy import Engine

app = typer.Typer(
    name="db",
    help="the web table's database schema: its revision, and the upgrade to this version's",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
)

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help="sqlite:///PATH or postgresql://USER:PASS@HOST/DB "
        "(default: an SQLite file in the user's data directory)",
    ),
]


def require_extras(db: str | None) -> None:
    """Fail in words unless the extras the web table and the database ``db`` (a
    PostgreSQL URL, an SQLite one or ``None``) need are installed."""
    try:
        extras.require("web", _("the web table"))
        if db is not None and db.startswith("postgres"):
            extras.require("postgres", _("a PostgreSQL database"))
    except extras.MissingExtra as err:
        raise fail(str(err)) from None


def _engine(db: str | None) -> Engine:
    """The database's engine (the extras it needs checked first)."""
    require_extras(db)
    from tikki.server.db import default_db_url, make_engine

    return make_engine(db or default_db_url())


def _failed(db: str | None, err: Exception) -> typer.Exit:
    """The database could not be read or changed: one line in words."""
    return fail(_("cannot open the database {url!r}: {err}", url=db or "", err=err))


@app.command("upgrade")
def upgrade_command(db: DbOption = None) -> None:
    """Bring the database's schema to this version's newest revision (an empty database is
    made). Safe to run again; run it once before the processes of a new version start.

    Example: [bold]tikki db upgrade --db postgresql://tikki@localhost/tikki[/]
    """
    from tikki.server import schema

    engine = _engine(db)
    try:
        before, after = schema.upgrade(engine)
    except Exception as err:
        raise _failed(db, err) from None
    finally:
        engine.dispose()
    if before == after:
        console.print(_("the schema is at revision {rev}: nothing to do", rev=after))
    else:
        shown = before or _("none")
        console.print(_("the schema went from revision {old} to {new}", old=shown, new=after))


@app.command("current")
def current_command(db: DbOption = None) -> None:
    """Name the database's schema revision and this version's newest.

    Example: [bold]tikki db current --db sqlite:///tikki.sqlite[/]
    """
    from tikki.server import schema

    engine = _engine(db)
    try:
        at = schema.revision(engine)
    except Exception as err:
        raise _failed(db, err) from None
    finally:
        engine.dispose()
    head = schema.head()
    if at == head:
        console.print(_("revision {rev} (head): up to date", rev=at))
    elif at is None:
        console.print(_("no revision (empty, or made before migrations); head is {head}: "
                        "run tikki db upgrade", head=head))  # fmt: skip
    elif schema.known(at):
        console.print(_("revision {rev}; head is {head}: run tikki db upgrade", rev=at, head=head))
    else:
        console.print(_("revision {rev}, newer than this version's head {head}", rev=at, head=head))
