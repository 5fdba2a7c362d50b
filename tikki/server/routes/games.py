"""``/api/games``: the games, their options and bot levels, and their rules texts."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Response

from tikki import i18n
from tikki.core import games, localized_games
from tikki.server import botplay, schemas, web
from tikki.server.routes.common import ERRORS

router = APIRouter(prefix="/api", responses=ERRORS)


@router.get("/games", response_model=schemas.GamesInfo)
async def list_games() -> dict[str, Any]:
    """The games, their players, variants and options, and the bot levels offered."""
    described = web.with_renderers(localized_games(games()))
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
