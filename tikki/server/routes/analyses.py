"""``/api/tables/{id}/analysis/{seat}``: "Analyse my game", a job started, then polled;
``/api/tables/{id}/analyses``: the seats analysed."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from tikki.server import schemas
from tikki.server.routes.common import ERRORS, Address, AnalysesOf, Manager

router = APIRouter(prefix="/api", responses=ERRORS)


@router.get("/tables/{table_id}/analyses", response_model=schemas.AnalysedSeats)
async def analysed_seats(table_id: str, manager: Manager, analyses: AnalysesOf) -> dict[str, Any]:
    """The seats of a finished table whose analysis is running, done or kept (the table
    page shows a kept one at once)."""
    table = await manager.get(table_id)
    return {"table": table.id, "seats": await analyses.seats(table)}


@router.post(
    "/tables/{table_id}/analysis/{seat}", status_code=202, response_model=schemas.AnalysisJob
)
async def start_analysis(
    table_id: str, seat: int, manager: Manager, analyses: AnalysesOf, address: Address
) -> dict[str, Any]:
    """Start the analysis of a seat's moves at a finished table ("Analyse my game"):
    every legal move's value from that seat's view.  Asking again returns the same
    job; poll it with GET."""
    table = await manager.get(table_id)
    return (await analyses.start(table, seat, address)).public()


@router.get("/tables/{table_id}/analysis/{seat}", response_model=schemas.AnalysisJob)
async def get_analysis(
    table_id: str, seat: int, manager: Manager, analyses: AnalysesOf
) -> dict[str, Any]:
    """The analysis job of a seat: its progress, then every decision's verdict."""
    table = await manager.get(table_id)
    return (await analyses.get(table, seat)).public()
