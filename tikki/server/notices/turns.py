"""Correspondence turns: the ``your_turn`` notice when a move leaves a correspondence
table to a person who does not have it open (live tables send none: their people are
there), and the "your turn" list, ``GET /api/notices/turns``: an account's
correspondence tables where it is to move, with each one's deadline.  A person who
opens the table at their seat has read its ``your_turn`` notices (:func:`opened`)."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from typing import Any

from fastapi import FastAPI, Request
from sqlalchemy import select

from tikki.server.accounts import accounts_of
from tikki.server.db import AccountSeatRow, TableRow
from tikki.server.errors import ApiError
from tikki.server.notices.api import notifier_of
from tikki.server.notices.routes import router
from tikki.server.tables import TableManager
from tikki.server.tables.table import Table, active, iso

log = logging.getLogger("tikki.server")

LISTED = 50
"""The most tables the "your turn" list reads."""


def deadline(table: Table) -> str | None:
    """When the seat to move runs out of its allowance (ISO, UTC)."""
    if table.turn_timer is None or table.turn_since is None:
        return None
    return iso(table.turn_since + timedelta(seconds=table.turn_timer))


def awaits(table: Table) -> int | None:
    """The seat whose person is to move at a correspondence table (``None``: nobody's:
    a bot's turn, a stand-in plays, or no correspondence table)."""
    seat = table.to_act
    if not table.correspondence or table.status != "playing" or seat is None:
        return None
    if table.seats[seat].kind != "human" or active(table.takeovers, seat) is not None:
        return None
    return seat


class TurnNotices:
    """Tell a correspondence table's next person that it is their move (the ledger's
    ``on_turn``)."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app
        self.sending: set[asyncio.Task[None]] = set()

    def __call__(self, table: Table) -> None:
        seat = awaits(table)
        if seat is None or table.devices(seat) > 0:
            return  # no one to tell, or they have the table open
        task = asyncio.create_task(send_turn(self.app, table, seat))
        self.sending.add(task)
        task.add_done_callback(self.sending.discard)

    async def settle(self) -> None:
        """Wait for the notices being sent (tests, and a server that stops)."""
        if self.sending:
            await asyncio.gather(*self.sending, return_exceptions=True)


async def send_turn(app: FastAPI, table: Table, seat: int) -> None:
    """Tell the account at ``seat`` that it is its move at ``table`` (logged, never
    raised, when that fails)."""
    data = {"table": table.id, "game": table.game.name, "title": type(table.game).title,
            "seat": seat, "deadline": deadline(table)}  # fmt: skip
    try:
        seated = await asyncio.to_thread(app.state.friends.seated, table.id)
        account = seated.get(seat)
        if account is not None:
            await notifier_of(app).notify(account, "your_turn", data)
    except Exception:
        log.exception("the your_turn notice of table %s was not sent", table.id)


async def first_move(app: FastAPI, table: Table, here: int) -> None:
    """A correspondence game begins: the seat to move learns it unless it is ``here``
    (the person whose page is going to the table)."""
    seat = awaits(table)
    if seat is not None and seat != here:
        await send_turn(app, table, seat)


async def opened(app: FastAPI, table: Table, seat: int | None) -> None:
    """A person opened ``table`` at their ``seat``: their ``your_turn`` notices of it
    are read, and their other open pages learn it at once (logged, never raised, when
    that fails; a watcher marks nothing)."""
    if seat is None or not table.correspondence:
        return
    try:
        account = (await asyncio.to_thread(app.state.friends.seated, table.id)).get(seat)
        notifier = notifier_of(app)
        if account is None:
            return
        if await asyncio.to_thread(notifier.store.read_turns, account, table.id) > 0:
            await notifier.changed(account)  # the bell of the account's other pages
    except Exception:
        log.exception("the your_turn notices of table %s were not marked read", table.id)


def _playing(request: Request, account: int) -> list[tuple[str, int]]:
    """The account's seats at tables being played, newest first."""
    manager: TableManager = request.app.state.manager
    with manager.store.engine.connect() as connection:
        rows = connection.execute(
            select(AccountSeatRow.table_id, AccountSeatRow.seat)
            .join(TableRow, TableRow.id == AccountSeatRow.table_id)
            .where(AccountSeatRow.account_id == account, TableRow.status == "playing")
            .order_by(TableRow.created.desc())
            .limit(LISTED)
        ).all()
    return [(r.table_id, r.seat) for r in rows]


@router.get("/turns")
async def turns(request: Request) -> dict[str, Any]:
    """Your correspondence tables where it is your move (``tables``: ``{id, game, title,
    seat, deadline}``, the nearest deadline first)."""
    me = await accounts_of(request).require(request)
    manager: TableManager = request.app.state.manager
    out: list[dict[str, Any]] = []
    for table_id, seat in await asyncio.to_thread(_playing, request, me.id):
        try:
            table = await manager.peek(table_id)
        except ApiError:
            continue
        if awaits(table) == seat:
            out.append({"id": table.id, "game": table.game.name, "title": type(table.game).title,
                        "seat": seat, "deadline": deadline(table)})  # fmt: skip
    out.sort(key=lambda t: str(t["deadline"] or ""))
    return {"tables": out}


__all__ = ["TurnNotices", "awaits", "deadline", "first_move", "opened", "send_turn", "turns"]
