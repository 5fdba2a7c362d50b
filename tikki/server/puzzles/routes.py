"""The puzzles' API, ``/api/puzzles…``, and the page, ``/puzzles``.

Before an attempt a player is sent the seat's view and nothing more
(:func:`~.catalogue.public`); the attempt's answer says right or wrong and adds the
answer, the explanation in the player's language, the themes and, for an account's first
attempt, the rating change (an attempt is a match between the account and the puzzle:
:mod:`~.store`).  Guests solve unrated.  Attempts are limited to
:attr:`~tikki.serve_settings.Policy.puzzles_per_minute` an account (a guest: an address)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from tikki.i18n import _
from tikki.server import web
from tikki.server.accounts import ERRORS, Account, accounts_of, address_of
from tikki.server.errors import STATUS, ApiError
from tikki.server.puzzles.catalogue import (
    Catalogue,
    Puzzle,
    catalogue,
    daily,
    next_step,
    public,
    solved,
)
from tikki.server.puzzles.store import PuzzleStore, Rated
from tikki.server.quota import RateLimiter

ATTEMPT_BURST = 10.0
"""Attempts one account (a guest: one address) may make at once before the server's
``--puzzle-rate`` (:attr:`~tikki.serve_settings.Policy.puzzles_per_minute`) applies."""
PAGE = 100
"""The most puzzles one listing gives."""

STATUS.update({"unknown_puzzle": 404, "bad_attempt": 400, "unknown_theme": 404})

PUZZLE_ERRORS: dict[int | str, dict[str, Any]] = {
    **ERRORS,
    400: {"model": ERRORS[400]["model"], "description": "bad_attempt: not the seat's moves"},
    404: {"model": ERRORS[404]["model"], "description": "unknown puzzle, game or theme"},
    429: {"model": ERRORS[400]["model"], "description": "rate_limited: too many attempts"},
}


class Attempt(BaseModel):
    """The moves the player chose, in order: as many as the puzzle's ``moves``, or for a
    puzzle of several moves the moves so far (a step at a time)."""

    model_config = ConfigDict(extra="forbid")
    moves: list[Annotated[str, Field(max_length=80)]] = Field(min_length=1, max_length=8)


def store_of(request: Request) -> PuzzleStore:
    """The app's :class:`PuzzleStore` (made on first use)."""
    found: PuzzleStore | None = getattr(request.app.state, "puzzles", None)
    if found is None:
        found = request.app.state.puzzles = PuzzleStore(request.app.state.manager.store.engine)
    return found


def _limiter(request: Request) -> RateLimiter:
    found: RateLimiter | None = getattr(request.app.state, "puzzle_limits", None)
    if found is None:
        rate = request.app.state.manager.policy.puzzles_per_minute
        found = request.app.state.puzzle_limits = RateLimiter(rate, ATTEMPT_BURST)
    return found


def _found(puzzle_id: str) -> Puzzle:
    puzzle = catalogue().get(puzzle_id[:32])
    if puzzle is None:
        raise ApiError("unknown_puzzle", _("there is no puzzle {id!r}", id=puzzle_id[:32]))
    return puzzle


def _check_filters(found: Catalogue, game: str | None, theme: str | None) -> None:
    if game is not None and game not in found.games():
        raise ApiError("unknown_game", _("there are no puzzles of the game {game!r}", game=game))
    if theme is not None and not any(theme in p.themes for p in found.by_id.values()):
        raise ApiError("unknown_theme", _("no puzzle has the theme {theme!r}", theme=theme))


router = APIRouter(prefix="/api/puzzles", tags=["puzzles"], responses=PUZZLE_ERRORS)
"""The puzzles' API."""


@router.get("")
async def listing(
    game: Annotated[str | None, Query(max_length=40)] = None,
    theme: Annotated[str | None, Query(max_length=40)] = None,
    offset: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=PAGE)] = PAGE,
) -> dict[str, Any]:
    """The puzzles (ids and games) of a game and/or a theme, and the games and themes there
    are.  A theme is a hint: choosing one says something of the answers."""
    from tikki.puzzles.words import THEMES, theme_title

    found = catalogue()
    _check_filters(found, game, theme)
    chosen = found.select(game, theme)
    present = {t for p in found.by_id.values() for t in p.themes}
    return {
        "total": len(chosen),
        "puzzles": [{"id": p.id, "game": p.game} for p in chosen[offset : offset + limit]],
        "games": found.games(),
        "themes": [{"id": t, "title": theme_title(t)} for t in THEMES if t in present],
    }


@router.get("/daily")
async def today(request: Request) -> dict[str, Any]:
    """Today's puzzle, the same for everyone: chosen from the UTC date (it changes at
    00:00 UTC), the games in turn."""
    day = datetime.now(UTC).date()
    puzzle = daily(catalogue(), day)
    if puzzle is None:
        raise ApiError("unknown_puzzle", _("there are no puzzles"))
    return {"date": day.isoformat(), **await _shown(request, puzzle)}


@router.get("/next")
async def following(
    request: Request,
    game: Annotated[str | None, Query(max_length=40)] = None,
    after: Annotated[str | None, Query(max_length=32)] = None,
) -> dict[str, Any]:
    """The next puzzle after ``after``: for an account, one it has not attempted, its
    rating (mu) nearest the account's puzzle rating; for a guest, the next in order."""
    found = catalogue()
    _check_filters(found, game, None)
    pool = found.select(game)
    if not pool:
        raise ApiError("unknown_puzzle", _("there are no puzzles"))
    me = await accounts_of(request).current(request)
    ids = [p.id for p in pool]
    start = ids.index(after) + 1 if after in ids else 0
    order = [p for p in pool[start:] + pool[:start] if p.id != after] or pool
    if me is not None:
        store = store_of(request)
        done = await asyncio.to_thread(store.attempted, me.id)
        mine = await asyncio.to_thread(store.player, me.id)
        mu = 25.0 if mine is None else mine.mu
        now = await asyncio.to_thread(store.mus)
        order = sorted(
            [p for p in order if p.id not in done] or order,
            key=lambda p: abs(now.get(p.id, p.mu) - mu),
        )
    return await _shown(request, order[0])


@router.get("/me")
async def mine(request: Request) -> dict[str, Any]:
    """Your puzzle rating (``null`` before your first rated attempt)."""
    me = await accounts_of(request).require(request)
    rating = await asyncio.to_thread(store_of(request).player, me.id)
    return {"name": me.name, "rating": None if rating is None else rating.json()}


@router.get("/{puzzle_id}")
async def one(puzzle_id: str, request: Request) -> dict[str, Any]:
    """A puzzle as its solver meets it: the seat's view, nothing of the answer."""
    return await _shown(request, _found(puzzle_id))


async def _shown(request: Request, puzzle: Puzzle) -> dict[str, Any]:
    """A puzzle before the attempt, and for an account whether its attempt would be rated."""
    me = await accounts_of(request).current(request)
    rated = False
    if me is not None:
        rated = puzzle.id not in await asyncio.to_thread(store_of(request).attempted, me.id)
    return {**public(puzzle), "rated": rated}


@router.post("/{puzzle_id}/attempt")
async def attempt(puzzle_id: str, body: Attempt, request: Request) -> dict[str, Any]:
    """Try the puzzle: right or wrong, then the answer, the explanation in your language,
    the themes and, for an account's first attempt, the rating change.  A puzzle of
    several moves is tried a step at a time, each call with every move so far: a right
    move that is not the last gets the others' replies and the next position (nothing is
    rated yet); a wrong move at any step ends the attempt, and the attempt is rated once,
    solved only if every step was right."""
    puzzle = _found(puzzle_id)
    found = accounts_of(request)
    me: Account | None = None
    if await found.current(request) is not None:
        me = await found.check_csrf(request)
    key = f"a{me.id}" if me is not None else f"g{address_of(request)}"
    wrong = _check_moves(puzzle, body.moves)
    rate = request.app.state.manager.policy.puzzles_per_minute
    _limiter(request).spend(key, lambda: _("you may try {n:g} puzzles a minute", n=rate))
    if wrong is None and len(body.moves) < len(puzzle.answer):
        return {
            "id": puzzle.id,
            "right": True,
            "final": False,
            **next_step(puzzle, len(body.moves)),
        }
    right = wrong is None
    ended = len(body.moves) - 1 if wrong is None else wrong
    out: dict[str, Any] = {"id": puzzle.id, "right": right, "final": True, **solved(puzzle, ended)}
    store = store_of(request)
    if me is None:
        rating = await asyncio.to_thread(store.puzzle_rating, puzzle)
        return {**out, "rated": False, "puzzle_rating": rating.json(), "player": None}
    played = body.moves[: ended + 1]  # those after a wrong one were not read
    rated = await asyncio.to_thread(store.attempt, me.id, puzzle, played, right)
    return {**out, **_rating_change(rated)}


def _check_moves(puzzle: Puzzle, moves: list[str]) -> int | None:
    """The step of the first wrong move (``None``: all right), which ends the attempt:
    the moves after it are not read (refusing them unrated would tell which moves were
    right); ``bad_attempt`` unless there are no more moves than the answer's, each legal
    at its step."""
    if len(moves) > len(puzzle.answer):
        raise ApiError(
            "bad_attempt",
            _("this puzzle takes {n} moves, not {k}", n=len(puzzle.answer), k=len(moves)),
        )
    for step, move in enumerate(moves):
        legal = [str(m) for m in puzzle.step_view(step).get("legal_moves", ())]
        if move not in legal:
            raise ApiError(
                "bad_attempt",
                _("{move!r} is not a move here: the moves are {moves}", move=move[:20],
                  moves=", ".join(legal)),
            )  # fmt: skip
        if move != puzzle.answer[step]:
            return step
    return None


def _rating_change(rated: Rated) -> dict[str, Any]:
    """The ratings after an account's attempt (``rated``: it was the first)."""
    return {
        "rated": rated.first,
        "puzzle_rating": rated.puzzle.json(),
        "player": {"before": rated.before.json(), "after": rated.after.json()},
    }


def pages() -> APIRouter:
    """The puzzles page: ``/puzzles`` (the daily puzzle) and ``/puzzles/{id}``."""
    return web.page_routes("puzzles", "puzzles.html")


__all__ = ["ATTEMPT_BURST", "pages", "router", "store_of"]
