"""Players' profiles: an account's games with result, opponents and rating
change, links to each game's replay and analysis, per-game statistics and ratings, and
all its finished games' records at once.  Public by default; a private profile shows to
its owner only.  Pages: ``/players/{name}`` (a profile) and ``/account`` (sign in, sign up,
settings)."""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from sqlalchemy import Engine, select

from tikki.i18n import _
from tikki.server import web
from tikki.server.accounts import ERRORS, accounts_of, address_of, skeleton
from tikki.server.db import (
    AccountRow,
    AccountSeatRow,
    AnalysisRow,
    RatingChangeRow,
    RatingRow,
    SeatRow,
    TableRow,
)
from tikki.server.errors import ApiError
from tikki.server.puzzles.routes import store_of
from tikki.server.ratings import places, rating_json, ratings_of
from tikki.server.tables import TableManager, iso
from tikki.server.tournaments.routes import profile_results as tournament_results

MAX_GAMES = 500
"""The most games a profile lists (newest first)."""


def _account(engine: Engine, name: str) -> Any:
    with engine.connect() as connection:
        return connection.execute(
            select(AccountRow.id, AccountRow.name, AccountRow.private).where(
                AccountRow.skeleton == skeleton(name)
            )
        ).first()


def _games(engine: Engine, account_id: int, game: str | None) -> list[dict[str, Any]]:
    query = (
        select(TableRow, AccountSeatRow.seat)
        .join(AccountSeatRow, AccountSeatRow.table_id == TableRow.id)
        .where(AccountSeatRow.account_id == account_id)
        .order_by(TableRow.created.desc(), TableRow.id)
        .limit(MAX_GAMES)
    )
    if game is not None:
        query = query.where(TableRow.game == game)
    out = []
    with engine.connect() as connection:
        for row in connection.execute(query).all():
            seats = connection.execute(
                select(SeatRow.seat, SeatRow.kind, SeatRow.name, SeatRow.bot)
                .where(SeatRow.table_id == row.id)
                .order_by(SeatRow.seat)
            ).all()
            change = connection.execute(
                select(RatingChangeRow.before, RatingChangeRow.after).where(
                    RatingChangeRow.table_id == row.id, RatingChangeRow.account_id == account_id
                )
            ).first()
            analysed = connection.execute(
                select(AnalysisRow.accuracy, AnalysisRow.result.is_not(None)).where(
                    AnalysisRow.table_id == row.id, AnalysisRow.seat == row.seat
                )
            ).first()
            accuracy = None if analysed is None else analysed[0]
            kept = analysed is not None and bool(analysed[1])
            out.append(
                _game_json(row, list(seats), change) | {"accuracy": accuracy, "analysed": kept}
            )
    return out


def _game_json(row: Any, seats: list[Any], change: Any) -> dict[str, Any]:
    seat = row.seat
    over = row.status == "finished"
    ranks = places(row.outcome, len(seats)) if over else None
    scores = (row.outcome or {}).get("scores") if over else None
    return {
        "table": row.id,
        "game": row.game,
        "status": row.status,
        "created": iso(row.created),
        "finished": iso(row.finished),
        "seat": seat,
        "place": None if ranks is None else int(ranks[seat]),
        "last": None if ranks is None else ranks[seat] == max(ranks) and min(ranks) != max(ranks),
        "points": None if not isinstance(scores, list) else scores[seat],
        "opponents": [
            {"seat": s.seat, "kind": s.kind, "name": s.name, "bot": s.bot}
            for s in seats
            if s.seat != seat
        ],
        "rating_change": None
        if change is None
        else {"before": round(change.before, 2), "after": round(change.after, 2)},
        "replay": f"/replay/{row.id}",
        "analysis": f"/t/{row.id}?seat={seat}#analysis",
    }


def _ratings(engine: Engine, account_id: int) -> dict[str, Any]:
    with engine.connect() as connection:
        rows = connection.execute(
            select(RatingRow.game, RatingRow.mu, RatingRow.sigma, RatingRow.games).where(
                RatingRow.account_id == account_id
            )
        ).all()
    return {r.game: rating_json(r.mu, r.sigma, r.games) for r in rows}


def statistics(games: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per game: finished games, how often first and last, and the average points (games
    with scores)."""
    out: dict[str, dict[str, Any]] = {}
    for g in games:
        if g["status"] != "finished":
            continue
        s = out.setdefault(g["game"], {"games": 0, "first": 0, "last": 0, "points": []})
        s["games"] += 1
        s["first"] += g["place"] == 1
        s["last"] += bool(g["last"])
        if g["points"] is not None:
            s["points"].append(g["points"])
    for s in out.values():
        points = s.pop("points")
        s["average_points"] = round(sum(points) / len(points), 2) if points else None
    return out


async def _visible(request: Request, name: str) -> Any:
    """The account named ``name`` if the request may see its profile."""
    engine = request.app.state.manager.store.engine
    row = await asyncio.to_thread(_account, engine, name)
    if row is None:
        raise ApiError("unknown_player", _("no player named {name!r}", name=name[:40]))
    if row.private:
        me = await accounts_of(request).current(request)
        if me is None or me.id != row.id:
            raise ApiError("private", _("{name}'s profile is private", name=row.name))
    return row


def router() -> APIRouter:
    """The profile API (``/api/players/{name}``) and the profile and account pages."""
    routes = APIRouter(tags=["players"], responses=ERRORS)

    @routes.get("/api/players/{name}")
    async def profile(
        name: str,
        request: Request,
        game: Annotated[str | None, Query(max_length=32, description="only this game")] = None,
    ) -> dict[str, Any]:
        """A player's games (result, opponents, rating change, replay and analysis
        links), ratings, puzzle rating, tournaments (place, points) and per-game
        statistics."""
        row = await _visible(request, name)
        await ratings_of(request).settle()
        engine = request.app.state.manager.store.engine
        games = await asyncio.to_thread(_games, engine, row.id, game)
        puzzles = await asyncio.to_thread(store_of(request).player, row.id)
        return {
            "name": row.name,
            "private": row.private,
            "ratings": await asyncio.to_thread(_ratings, engine, row.id),
            "puzzle_rating": None if puzzles is None else puzzles.json(),
            "tournaments": await tournament_results(request, row.id),
            "statistics": statistics(games),
            "games": games,
        }

    @routes.get("/api/players/{name}/records")
    async def records(name: str, request: Request) -> Response:
        """Every finished game's full record, as one JSON download."""
        row = await _visible(request, name)
        request.app.state.throttles.read(address_of(request))
        engine = request.app.state.manager.store.engine
        games = await asyncio.to_thread(_games, engine, row.id, None)
        manager: TableManager = request.app.state.manager
        out = []
        for g in games:
            if g["status"] == "finished":
                table = await manager.get(g["table"])
                out.append(table.record())
        body = json.dumps({"player": row.name, "records": out})
        filename = f"tikki-{row.id}-records.json"
        return Response(
            body,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    @routes.get("/players/{name}", include_in_schema=False)
    async def profile_page(name: str) -> Response:
        return web.page("profile.html")

    @routes.get("/account", include_in_schema=False)
    async def account_page() -> Response:
        return web.page("account.html")

    return routes


__all__ = ["router", "statistics"]
