"""``/api/tables``: create a table, list the lobby, read a table, join a seat."""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from tikki.server import accounts, chat, names, ratings, schemas
from tikki.server.friends import blocks
from tikki.server.routes.common import ERRORS, Address, Manager, ThrottlesOf
from tikki.server.tables import STATUSES, NewTable, Table

router = APIRouter(prefix="/api", responses=ERRORS)


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


@router.post("/tables", status_code=201, response_model=schemas.Created)
async def create_table(
    body: schemas.CreateTable, request: Request, manager: Manager, address: Address
) -> dict[str, Any]:
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
    await ratings.check_create(request, wanted)
    account = await accounts.accounts_of(request).current(request)
    if account is not None:  # a correspondence table is an account's (tables.correspondence)
        wanted = replace(wanted, account=account.id)
    table, invites = await manager.create(wanted, address)
    await ratings.on_create(request, table.id, body.rated)
    return _created(table, invites)


@router.get("/tables", response_model=schemas.TableList)
async def lobby(
    manager: Manager,
    throttles: ThrottlesOf,
    address: Address,
    status: Annotated[
        str, Query(pattern="^(open|playing|finished|all)$", description="which tables")
    ] = "open",
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> dict[str, Any]:
    """Tables waiting for players (or playing, finished, all), newest first."""
    assert status in STATUSES
    throttles.read(address)
    tables = await manager.lobby(status, limit)
    return {"tables": [t.public() for t in tables]}


@router.get("/tables/{table_id}", response_model=schemas.TableInfo)
async def table_info(table_id: str, manager: Manager) -> dict[str, Any]:
    """One table (no token, no seed before the end); a bot-only table whose bot waits
    for a search slot says its place in the queue (``queue``)."""
    table = await manager.get(table_id)
    out = table.public()
    if all(s.kind == "bot" for s in table.seats):
        out["queue"] = manager.search_place(table.lane, table.id)
    return out


@router.post("/tables/{table_id}/seats/{seat}", response_model=schemas.Joined)
async def join(
    table_id: str,
    seat: int,
    body: schemas.JoinRequest,
    request: Request,
    manager: Manager,
    address: Address,
) -> dict[str, Any]:
    """Join an open seat (with its invite secret unless it is open to anyone); the
    answer holds the seat's token."""
    await manager.get(table_id)  # an unknown table is refused before anything is kept of it
    await ratings.check_join(request, table_id)
    await blocks.check_join(request, table_id)  # nobody sits with an account blocked either way
    name = await accounts.on_join(request, body.name)
    signed_in = await accounts.accounts_of(request).current(request) is not None
    if not signed_in:
        await names.check_guest(request, name)
    table, token = await manager.join(table_id, seat, name, body.invite, address)
    await accounts.after_join(request, table.id, seat)
    await ratings.after_join(request, table, seat, address, signed_in)
    await chat.after_join(request, table, seat, address)
    return {"seat": seat, "token": token, "table": table.public()}
