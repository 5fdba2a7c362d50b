"""``/api/tables/{id}/…``: what a seated person does at a table (its token in the
``Authorization`` header): read the state, move, ask a hint, resign, hand an away
person's seat to a bot and take one's own back, play again, keep a waiting table open,
revoke the seat's device links."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from tikki.i18n import _
from tikki.server import accounts, ratings, schemas
from tikki.server.errors import ApiError
from tikki.server.routes.common import ERRORS, Address, At, Manager, ThrottlesOf

router = APIRouter(prefix="/api", responses=ERRORS)


@router.get("/tables/{table_id}/state", response_model=schemas.StateMessage)
async def seat_state(at: At) -> dict[str, Any]:
    """A seat's state message (with its token), or the spectators' one."""
    return at.table.state_message(at.seat)


@router.post("/tables/{table_id}/moves", response_model=schemas.StateMessage)
async def play(at: At, body: schemas.MoveRequest, manager: Manager) -> dict[str, Any]:
    """Play a move made against state ``seq``; the answer is the seat's new state."""
    await manager.move(at.table, at.seat, body.move, body.seq)
    return at.table.state_message(at.seat)


@router.post("/tables/{table_id}/hint", response_model=schemas.Hint)
async def hint(
    at: At, manager: Manager, throttles: ThrottlesOf, address: Address
) -> dict[str, Any]:
    """A bot's suggestion from this seat's view (on the seat's turn)."""
    throttles.hint(address)
    move = await manager.hint(at.table, at.seat, address)
    return {"move": move, "bot": manager.hint_bot}


@router.post("/tables/{table_id}/resign", response_model=schemas.StateMessage)
async def resign(at: At, manager: Manager) -> dict[str, Any]:
    """Resign your seat: a Medium bot plays it to the end and the record says so; you
    can still watch. The answer is your seat's new state."""
    await manager.resign(at.table, at.seat)
    return at.table.state_message(at.seat)


@router.post("/tables/{table_id}/seats/{seat}/bot", response_model=schemas.StateMessage)
async def hand_to_bot(at: At, seat: int, manager: Manager) -> dict[str, Any]:
    """Let a bot play for a person who is away (or whose turn timer ran out): asked by
    another seated person. The person takes the seat back by reconnecting."""
    await manager.hand_to_bot(at.table, at.seat, seat)
    return at.table.state_message(at.seat)


@router.post("/tables/{table_id}/back", response_model=schemas.StateMessage)
async def come_back(at: At, manager: Manager) -> dict[str, Any]:
    """Take your seat back from the bot that played it while you were away (a
    WebSocket ``hello`` with your token does the same)."""
    if at.seat is None:
        message = _("spectators hold no seat to take back: send its token")
        raise ApiError("spectator", message)
    await manager.come_back(at.table, at.seat)
    return at.table.state_message(at.seat)


@router.post("/tables/{table_id}/rematch", response_model=schemas.Joined)
async def rematch(at: At, request: Request, manager: Manager, address: Address) -> dict[str, Any]:
    """Play again: a person seated at this finished table takes a seat at its rematch
    (same game, options, people and bots, every seat moved one on); the first request
    makes the rematch, each person's own request seats that person with a new token."""
    await ratings.check_rematch(request, at.table)
    account = await accounts.accounts_of(request).current(request)
    mine = account.id if account is not None else None
    new, new_seat, token = await manager.rematch(at.table, at.seat, address, mine)
    await ratings.on_rematch(request, at.table.id, new.id)
    await accounts.after_join(request, new.id, new_seat)
    signed_in = account is not None
    await ratings.after_join(request, new, new_seat, address, signed_in)
    return {"seat": new_seat, "token": token, "table": new.public()}


@router.post("/tables/{table_id}/keep", response_model=schemas.StateMessage)
async def keep_open(at: At, manager: Manager) -> dict[str, Any]:
    """Keep a waiting table open: a seated person starts its expiry again (a table
    nobody from another address has joined is removed after ``--waiting-expiry``)."""
    manager.keep_open(at.table, at.seat)
    return at.table.state_message(at.seat)


@router.post("/tables/{table_id}/revoke", response_model=schemas.Revoked)
async def revoke(at: At, manager: Manager) -> dict[str, Any]:
    """Revoke the seat's device links: the seat gets a new token (returned: keep it)
    and every connection holding the seat is closed (4401), this device's too."""
    token = await manager.revoke(at.table, at.seat)
    return {"seat": at.seat, "token": token}
