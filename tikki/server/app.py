"""The FastAPI application: the HTTP API, the WebSocket and the front end's files.

``create_app(db_url=None, bot_delay=0.6, hint_bot="judge")`` builds one app with its
own :class:`~tikki.server.tables.TableManager`; the protocol is ``docs/protocol.md``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import APIRouter, Body, FastAPI, Header, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

import tikki
from tikki import i18n
from tikki.core import games
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
    schemas,
    web,
    ws,
)
from tikki.server.analysis import Analyses
from tikki.server.cluster import ClusterOwnership
from tikki.server.db import Store, default_db_url
from tikki.server.errors import ApiError
from tikki.server.lang import LanguageMiddleware
from tikki.server.limits import BODY_TIMEOUT, MAX_MESSAGE, BodyLimit
from tikki.server.outbox import TransportControl
from tikki.server.quota import Policy, Throttles, client_key
from tikki.server.tables import STATUSES, NewTable, Table, TableManager

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": schemas.ErrorBody, "description": text}
    for status, text in (
        (400, "bad request: bad options, bot spec or illegal move"),
        (403, "bad token or invite, or a spectator tried to play"),
        (404, "unknown table, seat or game"),
        (
            409,
            "conflict: seat taken, stale seq, not your turn, not started, finished, "
            "resigned, not away",
        ),
        (413, "request body over 4096 bytes"),
        (422, "malformed request body or parameters"),
        (429, "rate_limited: too many tables or seats from this address (see Retry-After)"),
        (503, "storage unavailable"),
    )
}
"""The error answers every operation documents."""

Auth = Annotated[
    str | None,
    Header(description="Bearer TOKEN: the seat token returned when joining"),
]


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header (``None`` without one)."""
    if authorization is None:
        return None
    scheme, _sep, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError("bad_token", _("send the seat token as 'Authorization: Bearer TOKEN'"))
    return token.strip()


def client_address(request: Request) -> str:
    """The client's address (the key of its rate limits; an IPv6 client's /64).  Behind a
    trusted proxy (``--forwarded-allow-ips``) uvicorn has put the forwarded address here."""
    return client_key(request.client.host if request.client is not None else None)


def _manager(request: Request) -> TableManager:
    manager: TableManager = request.app.state.manager
    return manager


def _throttles(request: Request) -> Throttles:
    throttles: Throttles = request.app.state.throttles
    return throttles


def _seat(request: Request, table: Table, authorization: str | None) -> int | None:
    """The seat the request's token holds (``None``: no token); an authenticated request
    counts as its person's presence, so someone playing by HTTP is never away."""
    seat = table.seat_of(bearer(authorization))
    _manager(request).seen(table, seat)
    return seat


def _created(table: Table, secrets: dict[int, str]) -> dict[str, Any]:
    """The create answer: the table and one invite link per open seat (its secret in the
    URL's fragment, which browsers never send in a request)."""
    invites = []
    for seat in table.open_seats:
        url = f"/t/{table.id}?seat={seat}"
        if seat in secrets:
            url += f"#invite={secrets[seat]}"
        invites.append({"seat": seat, "url": url, "anyone": seat not in secrets})
    return {"table": table.public(), "invites": invites}


def api_router() -> APIRouter:
    """The HTTP API of docs/protocol.md."""
    router = APIRouter(prefix="/api", responses=ERRORS)

    @router.get("/games", response_model=schemas.GamesInfo)
    async def list_games() -> dict[str, Any]:
        """The games, their players, variants and options, and the bot levels offered."""
        described = web.with_renderers(i18n.localized_games(games()))
        return {"games": described, "bots": botplay.levels()}

    @router.get("/games/{game}/rules", response_model=schemas.RulesText)
    async def game_rules(
        game: str,
        response: Response,
        lang: Annotated[
            str | None, Query(description="en, fi or de; else Accept-Language, else en")
        ] = None,
        accept_language: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """A game's rules as markdown in English, Finnish or German (``lang``: the one served).

        ``?lang=`` wins, then ``Accept-Language``; anything else is English.  The page
        ``/rules/{game}`` renders the same text.
        """
        served = i18n.spoken(i18n.negotiate(accept_language, lang))
        response.headers["Vary"] = "Accept-Language"
        return {"game": game, "lang": served, "markdown": web.rules_markdown(game, served)}

    @router.post("/tables", status_code=201, response_model=schemas.Created)
    async def create_table(body: schemas.CreateTable, request: Request) -> dict[str, Any]:
        """Create a table; the answer has an invite link per open seat."""
        wanted = NewTable(
            game=body.game,
            players=body.players,
            variant=body.variant,
            options=body.options,
            seats=[(s.kind, s.bot) for s in body.seats],
            seed=None if body.seed is None else int(body.seed),
            anyone=frozenset(i for i, s in enumerate(body.seats) if s.anyone),
            memory_aids=body.memory_aids,
            turn_timer=body.turn_timer,
            on_timeout=body.on_timeout,
            forced_moves=body.forced_moves,
            rated=body.rated,
        )
        await ratings.check_create(request, body.rated)
        table, invites = await _manager(request).create(wanted, client_address(request))
        await ratings.on_create(request, table.id, body.rated)
        return _created(table, invites)

    @router.get("/tables", response_model=schemas.TableList)
    async def lobby(
        request: Request,
        status: Annotated[
            str, Query(pattern="^(open|playing|finished|all)$", description="which tables")
        ] = "open",
        limit: Annotated[int, Query(ge=1, le=200)] = 50,
    ) -> dict[str, Any]:
        """Tables waiting for players (or playing, finished, all), newest first."""
        assert status in STATUSES
        _throttles(request).read(client_address(request))
        tables = await _manager(request).lobby(status, limit)
        return {"tables": [t.public() for t in tables]}

    @router.get("/tables/{table_id}", response_model=schemas.TableInfo)
    async def table_info(table_id: str, request: Request) -> dict[str, Any]:
        """One table (no token, no seed before the end); a bot-only table whose bot waits
        for a search slot says its place in the queue (``queue``)."""
        manager = _manager(request)
        table = await manager.get(table_id)
        out = table.public()
        if all(s.kind == "bot" for s in table.seats):
            out["queue"] = manager.search_place(table.lane, table.id)
        return out

    @router.post("/tables/{table_id}/seats/{seat}", response_model=schemas.Joined)
    async def join(
        table_id: str, seat: int, body: schemas.JoinRequest, request: Request
    ) -> dict[str, Any]:
        """Join an open seat (with its invite secret unless it is open to anyone); the
        answer holds the seat's token."""
        manager = _manager(request)
        await ratings.check_join(request, table_id)
        name = await accounts.on_join(request, body.name)
        table, token = await manager.join(
            table_id, seat, name, body.invite, client_address(request)
        )
        await accounts.after_join(request, table.id, seat)
        await chat.after_join(request, table, seat, client_address(request))
        return {"seat": seat, "token": token, "table": table.public()}

    @router.get("/tables/{table_id}/state", response_model=schemas.StateMessage)
    async def seat_state(
        table_id: str, request: Request, authorization: Auth = None
    ) -> dict[str, Any]:
        """A seat's state message (with its token), or the spectators' one."""
        table = await _manager(request).get(table_id)
        return table.state_message(_seat(request, table, authorization))

    @router.post("/tables/{table_id}/moves", response_model=schemas.StateMessage)
    async def play(
        table_id: str, body: schemas.MoveRequest, request: Request, authorization: Auth = None
    ) -> dict[str, Any]:
        """Play a move made against state ``seq``; the answer is the seat's new state."""
        manager = _manager(request)
        table = await manager.get(table_id)
        seat = _seat(request, table, authorization)
        await manager.move(table, seat, body.move, body.seq)
        return table.state_message(seat)

    @router.post("/tables/{table_id}/hint", response_model=schemas.Hint)
    async def hint(table_id: str, request: Request, authorization: Auth = None) -> dict[str, Any]:
        """A bot's suggestion from this seat's view (on the seat's turn)."""
        manager = _manager(request)
        table = await manager.get(table_id)
        seat = _seat(request, table, authorization)
        _throttles(request).hint(client_address(request))
        move = await manager.hint(table, seat)
        return {"move": move, "bot": manager.hint_bot}

    @router.post("/tables/{table_id}/resign", response_model=schemas.StateMessage)
    async def resign(table_id: str, request: Request, authorization: Auth = None) -> dict[str, Any]:
        """Resign your seat: a Medium bot plays it to the end and the record says so; you
        can still watch. The answer is your seat's new state."""
        manager = _manager(request)
        table = await manager.get(table_id)
        seat = _seat(request, table, authorization)
        await manager.resign(table, seat)
        return table.state_message(seat)

    @router.post("/tables/{table_id}/seats/{seat}/bot", response_model=schemas.StateMessage)
    async def hand_to_bot(
        table_id: str, seat: int, request: Request, authorization: Auth = None
    ) -> dict[str, Any]:
        """Let a bot play for a person who is away (or whose turn timer ran out): asked by
        another seated person. The person takes the seat back by reconnecting."""
        manager = _manager(request)
        table = await manager.get(table_id)
        mine = _seat(request, table, authorization)
        await manager.hand_to_bot(table, mine, seat)
        return table.state_message(mine)

    @router.post("/tables/{table_id}/back", response_model=schemas.StateMessage)
    async def come_back(
        table_id: str, request: Request, authorization: Auth = None
    ) -> dict[str, Any]:
        """Take your seat back from the bot that played it while you were away (a
        WebSocket ``hello`` with your token does the same)."""
        manager = _manager(request)
        table = await manager.get(table_id)
        seat = _seat(request, table, authorization)
        if seat is None:
            message = _("spectators hold no seat to take back: send its token")
            raise ApiError("spectator", message)
        await manager.come_back(table, seat)
        return table.state_message(seat)

    @router.post("/tables/{table_id}/rematch", response_model=schemas.Joined)
    async def rematch(
        table_id: str, request: Request, authorization: Auth = None
    ) -> dict[str, Any]:
        """Play again: a person seated at this finished table takes a seat at its rematch
        (same game, options, people and bots, every seat moved one on); the first request
        makes the rematch, each person's own request seats that person with a new token."""
        manager = _manager(request)
        table = await manager.get(table_id)
        seat = _seat(request, table, authorization)
        new, new_seat, token = await manager.rematch(table, seat, client_address(request))
        await ratings.on_rematch(request, table.id, new.id)
        await accounts.after_join(request, new.id, new_seat)
        return {"seat": new_seat, "token": token, "table": new.public()}

    @router.post("/tables/{table_id}/keep", response_model=schemas.StateMessage)
    async def keep_open(
        table_id: str, request: Request, authorization: Auth = None
    ) -> dict[str, Any]:
        """Keep a waiting table open: a seated person starts its expiry again (a table
        nobody from another address has joined is removed after ``--waiting-expiry``)."""
        manager = _manager(request)
        table = await manager.get(table_id)
        seat = _seat(request, table, authorization)
        manager.keep_open(table, seat)
        return table.state_message(seat)

    @router.post("/tables/{table_id}/revoke", response_model=schemas.Revoked)
    async def revoke(table_id: str, request: Request, authorization: Auth = None) -> dict[str, Any]:
        """Revoke the seat's device links: the seat gets a new token (returned: keep it)
        and every connection holding the seat is closed (4401), this device's too."""
        manager = _manager(request)
        table = await manager.get(table_id)
        seat = _seat(request, table, authorization)
        token = await manager.revoke(table, seat)
        return {"seat": seat, "token": token}

    @router.post(
        "/tables/{table_id}/analysis/{seat}", status_code=202, response_model=schemas.AnalysisJob
    )
    async def start_analysis(table_id: str, seat: int, request: Request) -> dict[str, Any]:
        """Start the analysis of a seat's moves at a finished table ("Analyse my game"):
        every legal move's value from that seat's view.  Asking again returns the same
        job; poll it with GET."""
        table = await _manager(request).get(table_id)
        analyses: Analyses = request.app.state.analyses
        return analyses.start(table, seat, client_address(request)).public()

    @router.get("/tables/{table_id}/analysis/{seat}", response_model=schemas.AnalysisJob)
    async def get_analysis(table_id: str, seat: int, request: Request) -> dict[str, Any]:
        """The analysis job of a seat: its progress, then every decision's verdict."""
        table = await _manager(request).get(table_id)
        analyses: Analyses = request.app.state.analyses
        return analyses.get(table, seat).public()

    @router.get("/tables/{table_id}/record", response_model=dict[str, Any])
    async def record(table_id: str, request: Request, authorization: Auth = None) -> dict[str, Any]:
        """The full record of a finished game; before the end, a seat's own record."""
        _throttles(request).read(client_address(request))
        table = await _manager(request).get(table_id)
        seat = _seat(request, table, authorization)
        if table.status == "finished":
            return table.record()
        if seat is None:
            raise ApiError(
                "not_finished",
                _(
                    "table {table_id} is not finished: its full record is "
                    "published at the end; a seat's own record needs its token",
                    table_id=table_id,
                ),
            )
        return table.record(seat)

    @router.get("/tables/{table_id}/replay", response_model=dict[str, Any])
    async def table_replay(
        table_id: str,
        request: Request,
        seat: Annotated[
            str | None,
            Query(description="a seat number, 'all' (every hand, after the end) or none"),
        ] = None,
        authorization: Auth = None,
        accept_encoding: Annotated[str | None, Header()] = None,
    ) -> Response:
        """The game's positions move by move as ``seat`` saw them (``frames[k]``: after
        ``k`` moves) and its log (``history``).  Before the end: the spectators' view, or
        your own seat's with its token.  Gzipped for a client that accepts it."""
        table = await _manager(request).get(table_id)
        own = table.seat_of(bearer(authorization))
        wanted = replay.parse_seat(seat, len(table.seats))
        over = table.status == "finished"
        replay.allowed(wanted, over, own)
        out = replay.frames(table.state.record(), wanted)
        out["table"] = table.public()
        return replay.answer(out, accept_encoding)

    @router.post("/replay", response_model=dict[str, Any])
    async def record_replay(
        record: Annotated[dict[str, Any], Body(description="a full record (seed and moves)")],
        seat: Annotated[
            str | None,
            Query(description="a seat number, 'all' (every hand, after the end) or none"),
        ] = None,
        accept_encoding: Annotated[str | None, Header()] = None,
    ) -> Response:
        """Replay an uploaded record (at most 64 KiB of JSON): its positions move by move
        as ``seat`` saw them, as for a table.  A game that is not over shows the
        spectators' view only."""
        players = record.get("players")
        wanted = replay.parse_seat(seat, players if isinstance(players, int) else 16)
        out = replay.frames(record, wanted)
        replay.allowed(wanted, bool(out["over"]), None)
        out["seats"] = record.get("seats") if isinstance(record.get("seats"), list) else None
        return replay.answer(out, accept_encoding)

    return router


async def _api_error(_request: Request, err: Exception) -> JSONResponse:
    assert isinstance(err, ApiError)
    headers = None if err.retry_after is None else {"Retry-After": str(err.retry_after)}
    return JSONResponse({"detail": err.detail()}, status_code=err.status, headers=headers)


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
        yield
        await _app.state.ratings.stop()
        analyses.stop()
        await manager.stop()

    app = FastAPI(
        title="tikki web table",
        version=tikki.__version__,
        description="Play Myllymatti, Mattis and Mückenstich with friends and bots. "
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
    app.state.accounts = accounts.Accounts(manager.store.engine)
    app.state.chat = chat.Chat(manager.store.engine)
    app.state.ratings = ratings.Ratings(manager.store.engine)
    manager.on_finished = app.state.ratings.finished
    app.state.max_message = max_message
    app.state.body_timeout = body_timeout
    app.add_middleware(BodyLimit, limit=max_message, paths={"/api/replay": replay.MAX_RECORD})
    app.add_middleware(headers.SecurityHeaders)
    app.add_middleware(LanguageMiddleware)  # every text below in the request's language
    app.add_middleware(TransportControl)  # outermost: it needs the server's own send
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.include_router(api_router())
    app.include_router(accounts.router())
    app.include_router(chat.router())
    app.include_router(ratings.router())
    app.include_router(profile.router())
    app.include_router(ws.router())
    app.include_router(web.router())
    app.include_router(headers.docs_router())
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


__all__ = ["bearer", "cluster_ownership", "create_app"]
