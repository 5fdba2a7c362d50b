"""The FastAPI application: the HTTP API, the WebSocket and the front end's files.

``create_app(db_url=None, bot_delay=0.6, hint_bot="judge")`` builds one app with its
own :class:`~tikki.server.tables.TableManager`; the protocol is ``docs/protocol.md``.
"""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import InterfaceError, OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException

import tikki
from tikki.i18n import _
from tikki.server import (
    accounts,
    botplay,
    chat,
    headers,
    metrics,
    profile,
    ratings,
    replay,
    tournaments,
    web,
    ws,
)
from tikki.server.analysis import Analyses
from tikki.server.cluster import ClusterOwnership
from tikki.server.db import Store, default_db_url, is_outage
from tikki.server.errors import UNAVAILABLE_RETRY, ApiError
from tikki.server.forward import Forward
from tikki.server.friends import Friends, presence
from tikki.server.friends import routes as friend_routes
from tikki.server.lang import LanguageMiddleware
from tikki.server.limits import BODY_TIMEOUT, MAX_MESSAGE, BodyLimit
from tikki.server.notices import Notices, Notifier
from tikki.server.notices import routes as notice_routes
from tikki.server.notices.mail import SmtpSettings
from tikki.server.notices.turns import TurnNotices
from tikki.server.outbox import TransportControl
from tikki.server.puzzles import routes as puzzle_routes
from tikki.server.quota import Policy, Throttles
from tikki.server.routes import ROUTERS
from tikki.server.tables import TableManager
from tikki.server.tables.storage import outage

log = logging.getLogger("tikki.server")


async def _api_error(_request: Request, err: Exception) -> JSONResponse:
    assert isinstance(err, ApiError)
    retry = err.retry_after
    if retry is None and err.status == 503:  # every 503 says when to try again
        retry = UNAVAILABLE_RETRY
    headers = None if retry is None else {"Retry-After": str(retry)}
    return JSONResponse({"detail": err.detail()}, status_code=err.status, headers=headers)


async def _database_away(request: Request, err: Exception) -> JSONResponse:
    """A database call outside the tables' storage thread (accounts, chat, ratings) found
    the database out of reach: ``503 unavailable`` with ``Retry-After``, not a 500."""
    if not is_outage(err):
        raise err
    log.error("the database is not answering: %s", str(err).strip().splitlines()[0])
    return await _api_error(request, outage())


async def _invalid(_request: Request, err: Exception) -> JSONResponse:
    assert isinstance(err, RequestValidationError)
    problems = []
    for e in err.errors()[:3]:
        where = ".".join(str(p) for p in e.get("loc", ()) if p != "body")
        error = (e.get("ctx") or {}).get("error")  # our own (translated) ValueError
        said = str(error) if e.get("type") == "value_error" and error else e.get("msg")
        problems.append(f"{where}: {said or 'invalid'}")
    message = _(
        "malformed request: {problems} (see /docs for the request format)",
        problems="; ".join(problems),
    )
    return JSONResponse({"detail": {"code": "bad_request", "message": message}}, status_code=422)


HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}
"""Codes of the errors Starlette itself raises (unknown paths, wrong methods)."""


async def _http_error(_request: Request, err: Exception) -> JSONResponse:
    assert isinstance(err, StarletteHTTPException)
    if err.status_code == 400:  # FastAPI could not decode the body
        message = _(
            "malformed request: {detail}; send a JSON body (UTF-8), see /docs", detail=err.detail
        )
        return JSONResponse({"detail": {"code": "bad_request", "message": message}}, 422)
    code = HTTP_CODES.get(err.status_code, "http_error")
    detail = {"code": code, "message": _("{detail}: see /docs for the API", detail=err.detail)}
    return JSONResponse({"detail": detail}, err.status_code, headers=err.headers)


def create_app(
    db_url: str | None = None,
    bot_delay: float = 0.6,
    hint_bot: str = "judge",
    max_message: int = MAX_MESSAGE,
    client_seeds: bool = False,
    policy: Policy | None = None,
    body_timeout: float = BODY_TIMEOUT,
    cluster: bool = False,
    node: str | None = None,
) -> FastAPI:
    """The web table app on the database ``db_url`` (default: the user's SQLite file),
    with the limits of ``policy`` (default: :class:`~tikki.server.quota.Policy`);
    ``client_seeds`` accepts a creator's seed at tables with open seats too; ``cluster``
    shares the PostgreSQL database's tables with other processes (:mod:`~tikki.server.
    cluster`; ``node`` names this one)."""
    name, _params = tikki.bots.parse_spec(hint_bot)
    if hint_bot != "judge" and name not in botplay.ALLOWED:
        raise ValueError(
            _(
                "the hint bot is judge, random, heuristic or ismcts, not {hint_bot!r}",
                hint_bot=hint_bot,
            )
        )
    store = Store(db_url or default_db_url())
    ownership = cluster_ownership(store, node) if cluster else None
    manager = TableManager(store, bot_delay, hint_bot, policy, ownership)
    analyses = Analyses(manager, manager.policy.analysis_iterations, manager.policy.max_analyses)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await manager.start()
        tournaments.start(_app)
        yield
        await tournaments.stop(_app)
        await _app.state.ratings.stop()
        analyses.stop()
        await manager.stop()

    app = FastAPI(
        title="tikki web table",
        version=tikki.__version__,
        description="Play card games (GET /api/games lists them) with friends and bots. "
        "The WebSocket protocol is described in docs/protocol.md.",
        lifespan=lifespan,
        docs_url=None,  # served from local files by headers.docs_router
        redoc_url=None,
        swagger_ui_oauth2_redirect_url=None,
    )
    manager.client_seeds = client_seeds
    app.state.manager = manager
    app.state.cluster = manager.ownership  # /healthz asks it whether it is alive
    app.state.analyses = analyses
    app.state.throttles = Throttles(manager.policy)
    app.state.replays = replay.Replays(manager.bots.crowd_run)
    app.state.accounts = accounts.Accounts(manager.store.engine)
    app.state.chat = chat.Chat(manager.store.engine)
    app.state.ratings = ratings.Ratings(manager.store.engine)
    app.state.friends = Friends(manager.store.engine)
    app.state.notices = Notifier(Notices(manager.store.engine), SmtpSettings.from_env(os.environ))
    app.state.notices.spread = manager.ownership.notice  # the cluster's sockets learn it
    manager.ownership.noticed = app.state.notices.wakes.wake
    manager.on_finished = app.state.ratings.finished
    manager.moves.ledger.on_turn = TurnNotices(app)  # a correspondence table's next mover
    app.state.max_message = max_message
    app.state.body_timeout = body_timeout
    app.add_middleware(Forward)  # innermost: a table another process owns goes there
    app.add_middleware(BodyLimit, limit=max_message, paths={"/api/replay": replay.MAX_RECORD})
    app.add_middleware(headers.SecurityHeaders)
    app.add_middleware(LanguageMiddleware)  # every text below in the request's language
    app.add_middleware(TransportControl)  # outermost: it needs the server's own send
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(OperationalError, _database_away)
    app.add_exception_handler(InterfaceError, _database_away)
    for router in ROUTERS:  # the HTTP API, one router per resource
        app.include_router(router)
    app.include_router(accounts.router)
    app.include_router(chat.router)
    app.include_router(ratings.router)
    app.include_router(profile.router())
    app.include_router(friend_routes.router)
    app.include_router(puzzle_routes.router)
    app.include_router(puzzle_routes.pages())
    app.include_router(notice_routes.router)
    tournaments.install(app)
    app.include_router(ws.router)
    app.include_router(presence.router)
    app.include_router(web.router)
    app.include_router(headers.docs_router)
    app.include_router(metrics.install(app))  # /healthz, /metrics
    return app


def cluster_ownership(store: Store, node: str | None) -> ClusterOwnership:
    """The ownership of a cluster process; ``ValueError`` unless the database is
    PostgreSQL (SQLite has no lock another process's death releases)."""
    if store.engine.dialect.name != "postgresql":
        raise ValueError(
            _(
                "--cluster needs a PostgreSQL database (--db postgresql://USER:PASS@HOST/DB), "
                "not {url}",
                url=store.engine.url.render_as_string(),
            )
        )
    return ClusterOwnership(store.url, node)


__all__ = ["cluster_ownership", "create_app"]
