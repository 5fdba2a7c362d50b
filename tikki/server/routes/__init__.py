"""The HTTP API of ``docs/protocol.md``, one module-level router per resource.

:mod:`~tikki.server.routes.games` (the games and their rules), :mod:`~.tables` (create,
list, read and join tables), :mod:`~.seats` (what a seated person does: moves, hints,
resigning, handing a seat to a bot and taking it back, rematch, keeping a table open,
revoking links), :mod:`~.analyses` ("Analyse my game") and :mod:`~.records` (records and
replays).  :func:`tikki.server.app.create_app` includes :data:`ROUTERS` in this order; a
handler gets the app's objects (the table manager, the throttles, the analyses) through
the FastAPI dependencies of :mod:`~.common`, which read ``app.state``.
"""

from __future__ import annotations

from fastapi import APIRouter

from tikki.server.routes import analyses, games, records, seats, tables

ROUTERS: tuple[APIRouter, ...] = (
    games.router,
    tables.router,
    seats.router,
    analyses.router,
    records.router,
)
"""The API's routers, in the order their paths are listed in ``/openapi.json``."""

__all__ = ["ROUTERS"]
