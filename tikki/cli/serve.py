"""``tikki serve``: the web table."""

from __future__ import annotations

from typing import Annotated

import typer

from tikki import extras
from tikki.cli.shared import (
    console,
    fail,
)
from tikki.i18n import _


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
    allow_bot_specs: Annotated[
        bool,
        typer.Option(
            "--allow-bot-specs", help="accept any bot spec, not only Easy/Medium/Hard/Expert"
        ),
    ] = False,
    bot_workers: Annotated[
        int, typer.Option("--bot-workers", help="processes for searching bots (0: one per core)")
    ] = 0,
    create_rate: Annotated[
        float, typer.Option("--create-rate", help="tables one address may create per minute")
    ] = 10,
    join_rate: Annotated[
        float, typer.Option("--join-rate", help="seats one address may take per minute")
    ] = 30,
    tables_per_address: Annotated[
        int, typer.Option("--tables-per-address", help="live tables one address may create")
    ] = 20,
    max_tables: Annotated[int, typer.Option("--max-tables", help="live tables in all")] = 2000,
    waiting_expiry: Annotated[
        float,
        typer.Option(
            "--waiting-expiry",
            help="seconds a table may wait for players unless someone from another address "
            "joins (its creator's 'keep open' starts the time again)",
        ),
    ] = 600,
    joined_expiry: Annotated[
        float,
        typer.Option(
            "--joined-expiry", help="seconds a table someone else joined may wait for players"
        ),
    ] = 86400,
    max_bot_tables: Annotated[
        int, typer.Option("--max-bot-tables", help="live tables where only bots play, in all")
    ] = 200,
    waiting_per_address: Annotated[
        int,
        typer.Option(
            "--waiting-per-address",
            help="waiting tables nobody else joined that one address may have",
        ),
    ] = 5,
    max_analyses: Annotated[
        int, typer.Option("--max-analyses", help="analyses running or queued at once, in all")
    ] = 16,
    watchers_per_table: Annotated[
        int, typer.Option("--watchers-per-table", help="WebSocket connections one table may have")
    ] = 200,
    watchers_per_address: Annotated[
        int,
        typer.Option("--watchers-per-address", help="WebSocket connections one address may hold"),
    ] = 32,
    connect_rate: Annotated[
        float,
        typer.Option("--connect-rate", help="WebSocket connections one address may open a minute"),
    ] = 60,
    hint_rate: Annotated[
        float, typer.Option("--hint-rate", help="hints one address may ask for a minute")
    ] = 30,
    read_rate: Annotated[
        float,
        typer.Option("--read-rate", help="lobby lists and records one address may read a minute"),
    ] = 120,
    max_connections: Annotated[
        int, typer.Option("--max-connections", help="open connections (HTTP and WebSocket)")
    ] = 2048,
    connections_per_address: Annotated[
        int,
        typer.Option("--connections-per-address", help="open connections from one address"),
    ] = 64,
    header_timeout: Annotated[
        float, typer.Option("--header-timeout", help="seconds a request's head may take")
    ] = 10,
    body_timeout: Annotated[
        float, typer.Option("--body-timeout", help="seconds a request's body may take")
    ] = 10,
    keep_alive: Annotated[
        int, typer.Option("--keep-alive", help="seconds an idle keep-alive connection stays open")
    ] = 5,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            help="comma-separated addresses of the proxies whose X-Forwarded-For counts "
            "(default: none, the client's own address is its key)",
        ),
    ] = None,
    sync_rate: Annotated[
        float, typer.Option("--sync-rate", help="sync messages a connection may send per minute")
    ] = 60,
    analysis_iterations: Annotated[
        int,
        typer.Option(
            "--analysis-iterations",
            help="the judge's search iterations per decision ('Analyse my game', hints)",
        ),
    ] = 1000,
    away_after: Annotated[
        float,
        typer.Option(
            "--away-after",
            help="seconds a seated person may be away before the others may hand the seat to a bot",
        ),
    ] = 120,
    stalled_expiry: Annotated[
        float,
        typer.Option(
            "--stalled-expiry",
            help="seconds without a move after which a table being played leaves the lobby",
        ),
    ] = 3600,
    min_turn_timer: Annotated[
        int,
        typer.Option(
            "--min-turn-timer",
            help="shortest turn timer a table may ask for (below 30: tests and demos)",
        ),
    ] = 30,
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
) -> None:
    """Run the web table: play in the browser with friends and bots.

    Example: [bold]tikki serve --port 8000 --db sqlite:///tikki.sqlite[/]
    """
    try:
        extras.require("web", _("the web table"))
        if db is not None and db.startswith("postgres"):
            extras.require("postgres", _("a PostgreSQL database"))
    except extras.MissingExtra as err:
        raise fail(str(err)) from None
    from tikki.server.guard import Limits
    from tikki.server.quota import Policy
    from tikki.server.run import ServeError, serve

    try:
        policy = Policy(
            allow_bot_specs=allow_bot_specs,
            bot_workers=bot_workers,
            create_per_minute=create_rate,
            join_per_minute=join_rate,
            tables_per_address=tables_per_address,
            max_tables=max_tables,
            waiting_expiry=waiting_expiry,
            joined_expiry=joined_expiry,
            max_bot_tables=max_bot_tables,
            waiting_per_address=waiting_per_address,
            max_analyses=max_analyses,
            watchers_per_table=watchers_per_table,
            watchers_per_address=watchers_per_address,
            connects_per_minute=connect_rate,
            hints_per_minute=hint_rate,
            reads_per_minute=read_rate,
            sync_per_minute=sync_rate,
            analysis_iterations=analysis_iterations,
            away_after=away_after,
            stalled_expiry=stalled_expiry,
            min_turn_timer=min_turn_timer,
        )
        serve(
            host, port, db, bot_delay, hint_bot, announce=console.print,
            client_seeds=allow_client_seeds, policy=policy,
            limits=Limits(max_connections, connections_per_address, header_timeout,
                          keep_alive, body_timeout),
            forwarded_allow_ips=forwarded_allow_ips, cluster=cluster, node=node,
        )  # fmt: skip
    except (ServeError, ValueError) as err:
        raise fail(str(err)) from None
