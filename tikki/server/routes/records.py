"""A game's record and replay: ``/api/tables/{id}/record``, ``/api/tables/{id}/replay``
and ``/api/replay`` (an uploaded record)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Header, Query, Response

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
    seat: SeatQuery = None,
    authorization: Auth = None,
    accept_encoding: Annotated[str | None, Header()] = None,
) -> Response:
    """The game's positions move by move as ``seat`` saw them (``frames[k]``: after
    ``k`` moves) and its log (``history``).  Before the end: the spectators' view, or
    your own seat's with its token.  Gzipped for a client that accepts it."""
    table = await manager.get(table_id)
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
    seat: SeatQuery = None,
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
