"""``/api/tables/{id}/analysis/{seat}``: "Analyse my game", a job started, then polled."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from tikki.server import schemas
from tikki.server.routes.common import ERRORS, Address, AnalysesOf, Manager

router = APIRouter(prefix="/api", responses=ERRORS)


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
    return analyses.start(table, seat, address).public()


@router.get("/tables/{table_id}/analysis/{seat}", response_model=schemas.AnalysisJob)
async def get_analysis(
    table_id: str, seat: int, manager: Manager, analyses: AnalysesOf
) -> dict[str, Any]:
    """The analysis job of a seat: its progress, then every decision's verdict."""
    table = await manager.get(table_id)
    return analyses.get(table, seat).public()
