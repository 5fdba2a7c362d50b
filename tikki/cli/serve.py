"""``tikki serve``: the web table.

Its options are this function's own (where to listen, the database, the bots' pace, the
cluster) and the server's limits, built from the fields of
:class:`tikki.serve_settings.Policy` and :class:`~tikki.serve_settings.Limits`, which declare
each limit's flag, help text and default once (:mod:`tikki.serve_settings`).
"""

from __future__ import annotations

import inspect
from typing import Annotated, Any

import typer

from tikki.cli.db import require_extras
from tikki.commandline import console, fail
from tikki.serve_settings import Limits, Policy, options


def serve_command(
    host: Annotated[str, typer.Option("--host", help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="port (0: pick a free one)")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help="sqlite:///PATH or postgresql://USER:PASS@HOST/DB "
            "(default: an SQLite file in the user's data directory)",
        ),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option("--bot-delay", help="seconds a bot waits before it moves")
    ] = 0.6,
    hint_bot: Annotated[
        str,
        typer.Option(
            "--hint-bot",
            help="the bot that answers hints (judge: the analysis's judge, the expert's search)",
        ),
    ] = "judge",
    allow_client_seeds: Annotated[
        bool,
        typer.Option(
            "--allow-client-seeds",
            help="accept a creator's seed at tables with open seats too (tests and demos "
            "only: the creator then knows every hand)",
        ),
    ] = False,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            help="comma-separated addresses of the proxies whose X-Forwarded-For counts "
            "(default: none, the client's own address is its key)",
        ),
    ] = None,
    cluster: Annotated[
        bool,
        typer.Option(
            "--cluster",
            help="share the tables of a PostgreSQL --db with other tikki serve --cluster "
            "processes: each table is played by one of them, and the others take it over "
            "when that one stops or dies (docs/hosting.md)",
        ),
    ] = False,
    node: Annotated[
        str | None,
        typer.Option("--node", help="this process's name in a cluster (default: host:pid)"),
    ] = None,
    **limits: Any,
) -> None:
    """Run the web table: play in the browser with friends and bots.

    Example: [bold]tikki serve --port 8000 --db sqlite:///tikki.sqlite[/]
    """
    require_extras(db)
    from tikki.server.run import ServeError, serve

    try:
        policy = Policy(**{k: v for k, v in limits.items() if k in POLICY})
        bounds = Limits(**{k: v for k, v in limits.items() if k in LIMITS})
        serve(
            host, port, db, bot_delay, hint_bot, announce=console.print,
            client_seeds=allow_client_seeds, policy=policy, limits=bounds,
            forwarded_allow_ips=forwarded_allow_ips, cluster=cluster, node=node,
        )  # fmt: skip
    except (ServeError, ValueError) as err:
        raise fail(str(err)) from None


def _parameters(cls: type[Any]) -> list[inspect.Parameter]:
    """A ``tikki serve`` option for each setting of ``cls`` (its flag, help and default)."""
    return [
        inspect.Parameter(
            name,
            inspect.Parameter.KEYWORD_ONLY,
            default=default,
            annotation=Annotated[kind, typer.Option(flag, help=text)],
        )
        for name, kind, flag, text, default in options(cls)
    ]


POLICY = frozenset(name for name, *_rest in options(Policy))
"""The settings of :class:`Policy` among the options."""
LIMITS = frozenset(name for name, *_rest in options(Limits))
"""The settings of :class:`Limits` among the options."""

_own = list(inspect.signature(serve_command, eval_str=True).parameters.values())[:-1]
serve_command.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
    [
        *(p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in _own),
        *_parameters(Policy),
        *_parameters(Limits),
    ],
    return_annotation=None,
)
