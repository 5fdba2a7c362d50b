"""``tikki cluster``: the processes of a cluster (``tikki serve --cluster``) on one
PostgreSQL database, as the operator steers them.

``tikki cluster drain NODE`` tells the process NODE to hand every table to the others
(one at a time, each between two moves) and take no new ones, and waits until it holds
none: then it can stop without a takeover.  ``tikki cluster rebalance`` tells every
process holding more than its share to hand the excess to those below theirs (after a
restart, the restarted process holds few).  Both speak through the database
(``NOTIFY tikki_cluster``), so they need only its URL (:mod:`tikki.server.cluster`).
"""

from __future__ import annotations

import json
import time
from typing import Annotated, Any

import typer

from tikki import extras
from tikki.commandline import console, fail
from tikki.i18n import N_, _

app = typer.Typer(
    name="cluster",
    help="the processes of a cluster (serve --cluster): drain one, rebalance the tables",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
)

DbOption = Annotated[
    str, typer.Option("--db", help="the cluster's database: postgresql://USER:PASS@HOST/DB")
]
WaitOption = Annotated[
    float, typer.Option("--wait", min=0, help="seconds to wait for the tables to move")
]
POLL = 0.2
"""Seconds between two readings of who holds what."""


def _connect(db: str) -> Any:
    """A connection to the cluster's database (the extras it needs checked first)."""
    try:
        extras.require("postgres", _("a PostgreSQL database"))
    except extras.MissingExtra as err:
        raise fail(str(err)) from None
    import psycopg

    from tikki.server.cluster import is_postgres, libpq_url

    if not is_postgres(db):
        raise fail(_("--cluster needs a PostgreSQL database (--db postgresql://USER:PASS@HOST/DB), "
                     "not {url}", url=db))  # fmt: skip
    try:
        return psycopg.connect(libpq_url(db), autocommit=True)
    except Exception as err:
        raise fail(_("cannot open the database {url!r}: {err}", url=db, err=err)) from None


def _holdings(conn: Any) -> dict[str, list[str]]:
    """Each live process and the live tables it holds."""
    import psycopg

    from tikki.server.cluster import HOLDINGS, holdings

    try:
        return holdings(conn.execute(HOLDINGS, {"ns": _namespace(conn)}).fetchall())
    except psycopg.errors.UndefinedTable:
        return {}


def _namespace(conn: Any) -> str:
    row = conn.execute("SELECT current_schema()").fetchone()
    return str(row[0]) if row and row[0] else "public"


def _order(conn: Any, **payload: str) -> None:
    from tikki.server.cluster import CLUSTER

    text = json.dumps({"ns": _namespace(conn), **payload})
    conn.execute("SELECT pg_notify(%s, %s)", [CLUSTER, text])


def _shown(held: dict[str, list[str]]) -> str:
    """``a: 10, b: 9`` (tables per process)."""
    return ", ".join(f"{node}: {len(tables)}" for node, tables in sorted(held.items()))


@app.command("drain")
def drain_command(
    node: Annotated[
        str, typer.Argument(help="the process's name (serve --node)", metavar=N_("NODE"))
    ],
    db: DbOption,
    wait: WaitOption = 60.0,
) -> None:
    """Have the process NODE hand every table to the others and take no new ones; wait
    until it holds none (then stop it: no table waits for a takeover).

    Example: [bold]tikki cluster drain node-a --db postgresql://tikki@localhost/tikki[/]
    """
    with _connect(db) as conn:
        held = _holdings(conn)
        if node not in held:
            raise fail(_("no process named {node!r} in the cluster (its processes: {nodes})",
                         node=node, nodes=", ".join(sorted(held)) or _("none")))  # fmt: skip
        before = len(held[node])
        _order(conn, drain=node)
        deadline = time.monotonic() + wait
        while held.get(node) and time.monotonic() < deadline:
            time.sleep(POLL)
            held = _holdings(conn)
    left = len(held.get(node, []))
    if left:
        raise fail(_("{node} still holds {n} tables after {s:g} s (tables per process: "
                     "{shown})", node=node, n=left, s=wait, shown=_shown(held)))  # fmt: skip
    console.print(_("{node} drained: its {n} tables went to the others (tables per process: "
                    "{shown})", node=node, n=before, shown=_shown(held)))  # fmt: skip


@app.command("rebalance")
def rebalance_command(db: DbOption, wait: WaitOption = 30.0) -> None:
    """Have every process that holds more than its share of the live tables hand the
    excess to those below theirs, one table at a time, each between two moves.

    Example: [bold]tikki cluster rebalance --db postgresql://tikki@localhost/tikki[/]
    """
    with _connect(db) as conn:
        _order(conn, rebalance="1")
        deadline = time.monotonic() + wait
        held = _holdings(conn)
        before = _count(held)
        while time.monotonic() < deadline and not (_settled(held) and _count(held) >= before):
            time.sleep(POLL)
            before, held = _count(held), _holdings(conn)
    console.print(_("tables per process: {shown}", shown=_shown(held) or _("none")))


def _count(held: dict[str, list[str]]) -> int:
    """The tables held, all processes together: fewer than at the poll before while a
    table is between two processes (handed over, not yet taken), the same again once it
    is taken (a table that ended meanwhile leaves it lower for good: the next poll)."""
    return sum(len(tables) for tables in held.values())


def _settled(held: dict[str, list[str]]) -> bool:
    """Whether no process hands over another table by the processes' own rule (the
    server's ``rebalance``): none holds more than its share (the live tables over the
    processes, rounded up) while another holds fewer than the share rounded down.
    Nine, nine and seven of 25 is settled: a spread of one table is not always made."""
    counts = [len(tables) for tables in held.values()]
    if len(counts) < 2:
        return True
    total = sum(counts)
    return max(counts) <= -(-total // len(counts)) or min(counts) >= total // len(counts)


__all__ = ["app", "drain_command", "rebalance_command"]
