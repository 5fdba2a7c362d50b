"""A game's record and replay: ``/api/tables/{id}/record``, ``/api/tables/{id}/replay``
and ``/api/replay`` (an uploaded record)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Header, Query, Request, Response

from tikki.i18n import _
from tikki.server import replay
from tikki.server.errors import ApiError
from tikki.server.routes.common import (
    ERRORS,
    Address,
    Auth,
    Manager,
    ThrottlesOf,
    bearer,
    seat_of,
)

router = APIRouter(prefix="/api", responses=ERRORS)

SeatQuery = Annotated[
    str | None,
    Query(description="a seat number, 'all' (every hand, after the end) or none"),
]
"""Whose view a replay shows."""


async def _replays(request: Request) -> replay.Replays:
    replays: replay.Replays = request.app.state.replays
    return replays


ReplaysOf = Annotated[replay.Replays, Depends(_replays)]
"""The app's replay answers (bounded, cached, limited per address)."""


@router.get("/tables/{table_id}/record", response_model=dict[str, Any])
async def record(
    table_id: str,
    manager: Manager,
    throttles: ThrottlesOf,
    address: Address,
    authorization: Auth = None,
) -> dict[str, Any]:
    """The full record of a finished game; before the end, a seat's own record."""
    throttles.read(address)
    table = await manager.get(table_id)
    seat = seat_of(manager, table, authorization)
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
    manager: Manager,
    replays: ReplaysOf,
    address: Address,
    seat: SeatQuery = None,
    authorization: Auth = None,
    accept_encoding: Annotated[str | None, Header()] = None,
) -> Response:
    """The game's positions move by move as ``seat`` saw them (``frames[k]``: after
    ``k`` moves) and its log (``history``).  Before the end: the spectators' view, or
    your own seat's with its token.  Gzipped for a client that accepts it; at most
    2,000 moves (``422 too_long``); a finished table's answers are cached."""
    table = await manager.get(table_id)
    own = table.seat_of(bearer(authorization))
    wanted = replay.parse_seat(seat, len(table.seats))
    over = table.status == "finished"
    replay.allowed(wanted, over, own)
    extra = {"table": table.public()}
    key = replay.key_of("table", table.id, wanted, extra) if over else None
    built = await replays.build(address, key, table.state.record(), wanted, extra)
    return replay.answer(built, accept_encoding)


@router.post("/replay", response_model=dict[str, Any])
async def record_replay(
    record: Annotated[dict[str, Any], Body(description="a full record (seed and moves)")],
    replays: ReplaysOf,
    address: Address,
    seat: SeatQuery = None,
    accept_encoding: Annotated[str | None, Header()] = None,
) -> Response:
    """Replay an uploaded record (at most 64 KiB of JSON and 2,000 moves): its positions
    move by move as ``seat`` saw them, as for a table.  A game that is not over shows
    the spectators' view only."""
    players = record.get("players")
    wanted = replay.parse_seat(seat, players if isinstance(players, int) else 16)
    seats = record.get("seats") if isinstance(record.get("seats"), list) else None
    extra = {"seats": seats}
    key = replay.key_of("upload", record, wanted)
    built = await replays.build(address, key, record, wanted, extra, upload=True)
    return replay.answer(built, accept_encoding)
