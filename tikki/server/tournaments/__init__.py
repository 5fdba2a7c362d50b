"""Tournaments: Swiss tournaments (tables of 3 to 6 seated by the standings, byes) and
timed arenas (play, sit down again, until the clock ends), of people and bots together.

:mod:`~.pairing` holds the pure rules (seating, points by place, standings),
:mod:`~.rows` the tables, :mod:`~.store` reads and writes them, :mod:`~.runner` runs
the tournaments from the database (any process of a cluster), :mod:`~.routes` is the
HTTP API (``/api/tournaments…``).  :func:`install` wires them into an app."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import FastAPI

from tikki.server.tournaments.routes import pages, router
from tikki.server.tournaments.runner import Runner
from tikki.server.tournaments.store import Tournaments


async def tournament_starting(app: FastAPI, account_id: int, data: dict[str, Any]) -> None:
    """Tell an account that a tournament it entered starts (the site's notices)."""
    from tikki.server.notices import notify

    if getattr(app.state, "notices", None) is not None:
        await notify(app, account_id, "tournament_start", data)


def install(app: FastAPI) -> None:
    """Give ``app`` its tournaments (``app.state.tournaments``), their runner
    (``app.state.tournament_runner``, started by :func:`start`) and their routes."""
    manager = app.state.manager
    store = Tournaments(manager.store.engine)
    app.state.tournaments = store

    async def notify(account_id: int, data: dict[str, Any]) -> None:
        await tournament_starting(app, account_id, data)

    app.state.tournament_runner = Runner(
        store, manager, app.state.accounts, manager.ownership.node, notify,
        app.state.ratings.mark_rated,
    )  # fmt: skip
    app.include_router(router)
    app.include_router(pages())


def start(app: FastAPI) -> None:
    """Start running the tournaments (after the table manager started)."""
    runner: Runner = app.state.tournament_runner
    app.state.tournament_task = asyncio.create_task(runner.run(), name="tournaments")


async def stop(app: FastAPI) -> None:
    """Stop running the tournaments (before the table manager stops)."""
    task: asyncio.Task[None] | None = getattr(app.state, "tournament_task", None)
    if task is not None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


__all__ = ["Runner", "Tournaments", "install", "start", "stop", "tournament_starting"]
