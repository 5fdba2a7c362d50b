"""What the API's routers share: the documented error answers, the ``Authorization``
header, and the dependencies that hand a handler the app's objects from ``app.state``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Header, Request

from tikki.i18n import _
from tikki.server import schemas
from tikki.server.analysis import Analyses
from tikki.server.errors import ApiError
from tikki.server.quota import Throttles, client_key
from tikki.server.tables import Table, TableManager

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": schemas.ErrorBody, "description": text}
    for status, text in (
        (400, "bad request: bad options, bot spec or illegal move"),
        (403, "bad token or invite, a spectator tried to play, or a guest asked for hours a move"),
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
"""The ``Authorization`` header of a request made for a seat."""


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


async def _address(request: Request) -> str:
    return client_address(request)


async def _manager(request: Request) -> TableManager:
    manager: TableManager = request.app.state.manager
    return manager


async def _throttles(request: Request) -> Throttles:
    throttles: Throttles = request.app.state.throttles
    return throttles


async def _analyses(request: Request) -> Analyses:
    analyses: Analyses = request.app.state.analyses
    return analyses


Address = Annotated[str, Depends(_address)]
"""The client's address (:func:`client_address`), as a handler's parameter."""
Manager = Annotated[TableManager, Depends(_manager)]
"""The app's :class:`~tikki.server.tables.TableManager`, as a handler's parameter."""
ThrottlesOf = Annotated[Throttles, Depends(_throttles)]
"""The app's rate limits per address, as a handler's parameter."""
AnalysesOf = Annotated[Analyses, Depends(_analyses)]
"""The app's analysis jobs, as a handler's parameter."""


def seat_of(manager: TableManager, table: Table, authorization: str | None) -> int | None:
    """The seat the request's token holds (``None``: no token); an authenticated request
    counts as its person's presence, so someone playing by HTTP is never away."""
    seat = table.seat_of(bearer(authorization))
    manager.seen(table, seat)
    return seat


@dataclass(frozen=True)
class Seated:
    """The table a request's path names and the seat its token holds there."""

    table: Table
    seat: int | None
    """``None``: no token (a spectator)."""


async def _seated(table_id: str, manager: Manager, authorization: Auth = None) -> Seated:
    table = await manager.get(table_id)
    return Seated(table, seat_of(manager, table, authorization))


At = Annotated[Seated, Depends(_seated)]
"""The path's table (``{table_id}``) and the request's seat (:func:`seat_of`), as a
handler's parameter."""


__all__ = [
    "ERRORS",
    "Address",
    "AnalysesOf",
    "At",
    "Auth",
    "Manager",
    "Seated",
    "ThrottlesOf",
    "bearer",
    "client_address",
    "seat_of",
]
