"""``/api/tournaments…``: list, create (signed in), enter and leave before the start,
withdraw while it runs, add bots (the creator), one tournament's standings and rounds,
and your seat at its table now.

Tournaments cannot hoard tables or flood the site: an account has at most
:data:`OPEN_PER_CREATOR` tournaments not yet over (the accounts of one address
:data:`OPEN_PER_ADDRESS`), creates at most
:data:`CREATES_PER_HOUR` an hour, a tournament takes at most :data:`MAX_CAP` entrants
and starts within :data:`MAX_AHEAD`; its tables exist only while it runs, each within
the site's caps like any new table (a bot-only table waits while the site holds its
``--max-bot-tables``), and the accounts of one address may have entered at most
``--tournament-bots-per-address`` bots together in the tournaments they made that are
not over yet (:func:`_check_bots`), so one address takes a small share of the bot-only
tables."""

from __future__ import annotations

import asyncio
import hashlib
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from tikki.core import RulesError
from tikki.i18n import _
from tikki.server import botplay, ratings, schemas, web
from tikki.server.accounts import ERRORS, Account, accounts_of, signed_in
from tikki.server.db import now
from tikki.server.errors import STATUS, ApiError
from tikki.server.friends.blocks import friends_of
from tikki.server.plain import one_line
from tikki.server.quota import CAP_RETRY, RateLimiter, rate_limited
from tikki.server.routes.common import client_address
from tikki.server.tables import NewTable
from tikki.server.tables.correspondence import is_correspondence
from tikki.server.tables.creation import check_game
from tikki.server.tables.table import Table
from tikki.server.tables.timers import parse_timer
from tikki.server.tournaments.rows import EntrantRow, TournamentRow
from tikki.server.tournaments.runner import table_of
from tikki.server.tournaments.store import LIVE, Full, Snapshot, Tournaments, iso, withdrawn

OPEN_PER_CREATOR = 3
"""Tournaments one account may have open or running at once."""
OPEN_PER_ADDRESS = 9
"""Tournaments the accounts of one client address may have open or running at once, three
accounts' worth (their tables are made by the runner, outside the address's caps on
tables)."""
CREATES_PER_HOUR = 6.0
"""Tournaments one account may create an hour (a burst of :data:`CREATE_BURST`)."""
CREATE_BURST = 3.0
JOINS_PER_MINUTE = 20.0
"""Entries, leaves and bot additions one account may make a minute."""
MAX_CAP = 64
"""The most entrants a tournament takes."""
MAX_AHEAD = timedelta(days=7)
"""How far ahead a tournament may start."""

STATUS.update(
    {
        "unknown_tournament": 404,
        "bad_tournament": 400,
        "too_many_tournaments": 409,
        "tournament_full": 409,
        "tournament_started": 409,
        "already_entered": 409,
        "not_yours": 403,
        "too_few_entrants": 409,
        "tournament_not_started": 409,
        "tournament_over": 409,
        "not_entered": 409,
        "already_withdrawn": 409,
    }
)

TOURNAMENT_ERRORS: dict[int | str, dict[str, Any]] = {
    **ERRORS,
    400: {
        "model": schemas.ErrorBody,
        "description": "bad_tournament, bad_options, bad_timer, bad_bot",
    },
    403: {
        "model": schemas.ErrorBody,
        "description": "csrf; not_yours: not your tournament; blocked: a block between you "
        "and an entrant",
    },
    404: {"model": schemas.ErrorBody, "description": "unknown_tournament"},
    409: {
        "model": schemas.ErrorBody,
        "description": "too_many_tournaments, tournament_full, tournament_started, "
        "already_entered, too_few_entrants, tournament_not_started, tournament_over, "
        "not_entered, already_withdrawn",
    },
    429: {"model": schemas.ErrorBody, "description": "rate_limited (Retry-After)"},
}
"""The tournaments' routes' error answers."""


class NewTournament(BaseModel):
    """A tournament: its name, kind (``swiss``: ``rounds``; ``arena``: ``minutes``), the
    game and its options, the seats at each table, the start and the cap on entrants."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=80)
    kind: Literal["swiss", "arena"] = "swiss"
    game: str = Field(max_length=40, examples=schemas.FEATURED)
    players: int = Field(3, ge=3, le=6, description="the seats at each table")
    variant: str | None = Field(None, max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    rounds: int | None = Field(None, ge=1, le=12, description="a Swiss tournament's rounds")
    minutes: int | None = Field(None, ge=5, le=240, description="an arena's length")
    starts: datetime | None = Field(None, description="the start (UTC); none: in 5 minutes")
    cap: int = Field(16, ge=3, le=MAX_CAP)
    turn_timer: int | str | None = Field(
        60,
        description="as a table's: seconds each turn (30, 60 or 120), null or 'off' (no "
        "timer); or hours a move (a Swiss tournament only): '12h', '24h', '48h', '72h' or "
        "'correspondence' (else 400 bad_timer)",
        examples=[60, "24h"],
    )


class Bots(BaseModel):
    """Bots to enter: their level (a bot spec) and how many."""

    model_config = ConfigDict(extra="forbid")
    bot: str = Field("heuristic", max_length=200)
    count: int = Field(1, ge=1, le=MAX_CAP)


class Limits:
    """The per-account rates of the tournaments' routes (of this process)."""

    def __init__(self) -> None:
        self.creates = RateLimiter(CREATES_PER_HOUR / 60.0, CREATE_BURST)
        self.changes = RateLimiter(JOINS_PER_MINUTE, JOINS_PER_MINUTE)


def store_of(request: Request) -> Tournaments:
    """The app's tournaments."""
    found: Tournaments = request.app.state.tournaments
    return found


def _limits(request: Request) -> Limits:
    limits: Limits | None = getattr(request.app.state, "tournament_limits", None)
    if limits is None:
        limits = request.app.state.tournament_limits = Limits()
    return limits


async def _snapshot(request: Request, tournament_id: str) -> Snapshot:
    found = None
    if tournament_id.isascii() and tournament_id.isalnum():  # ids are hex; a NUL stops here
        found = await asyncio.to_thread(store_of(request).load, tournament_id[:16])
    if found is None:
        raise ApiError(
            "unknown_tournament", _("no tournament has the id {id!r}", id=tournament_id[:16])
        )
    return found


def _bad(message: str) -> ApiError:
    return ApiError("bad_tournament", message)


def _check(body: NewTournament, min_timer: int) -> tuple[datetime, dict[str, Any]]:
    """A create request checked: its start (naive UTC) and the tables' settings."""
    if body.kind == "swiss" and body.rounds is None:
        raise _bad(_("a Swiss tournament needs its number of rounds (1 to 12)"))
    if body.kind == "arena" and body.minutes is None:
        raise _bad(_("an arena needs its length in minutes (5 to 240)"))
    if body.cap < body.players:
        raise _bad(_("the cap must be at least the seats of one table ({n})", n=body.players))
    moment = now()
    starts = body.starts or moment + timedelta(minutes=5)
    try:
        if starts.tzinfo is not None:
            starts = starts.astimezone(UTC).replace(tzinfo=None)
    except OverflowError:  # year 1 east of UTC, year 9999 west of it
        starts = datetime.min
    starts = starts.replace(microsecond=0)
    if starts < moment - timedelta(minutes=1) or starts > moment + MAX_AHEAD:
        raise _bad(_("the start must be between now and 7 days from now"))
    wanted = NewTable(
        game=body.game, players=body.players, variant=body.variant, options=body.options,
        seats=[("open", None)] * body.players, seed=None, turn_timer=body.turn_timer,
        on_timeout="bot", rated=True,
    )  # fmt: skip
    check_game(wanted)
    timer, _on_timeout = parse_timer(body.turn_timer, "bot", min_timer)
    if body.kind == "arena" and is_correspondence(timer):
        raise ApiError(
            "bad_timer",
            _("an arena lasts minutes: its turn timer cannot be hours a move (a Swiss "
              "tournament may have one)"),
        )  # fmt: skip
    settings = {"variant": body.variant, "options": body.options, "turn_timer": timer}
    return starts, settings


def shown_name(name: str) -> str:
    """A tournament's name as everyone is shown it: without control or format characters
    (a NUL, an escape, a right-to-left override), its spaces collapsed.

    >>> shown_name("  Spring\\u202e  cup\\x00\\n")
    'Spring cup'
    """
    return one_line(name)


def _origin(request: Request) -> str:
    """The creator's address as a tournament keeps it: a digest, never the address."""
    return hashlib.sha256(f"tournament\0{client_address(request)}".encode()).hexdigest()[:16]


def _open_from(store: Tournaments, origin: str) -> int:
    """How many tournaments not over yet were created from the address ``origin``."""
    with store.engine.connect() as connection:
        rows = connection.execute(
            select(TournamentRow.settings).where(TournamentRow.status.in_(LIVE))
        ).scalars()
        return sum(1 for settings in rows if (settings or {}).get("origin") == origin)


def _bots_from(store: Tournaments, origins: set[str]) -> int:
    """How many bots are entered in the tournaments not over yet that were created from
    the addresses ``origins``."""
    with store.engine.connect() as connection:
        rows = connection.execute(
            select(TournamentRow.id, TournamentRow.settings).where(TournamentRow.status.in_(LIVE))
        ).all()
        ids = [r.id for r in rows if (r.settings or {}).get("origin") in origins]
        if not ids:
            return 0
        counted = connection.execute(
            select(func.count())
            .select_from(EntrantRow)
            .where(EntrantRow.tournament_id.in_(ids), EntrantRow.bot.is_not(None))
        ).scalar()
        return int(counted or 0)


async def _check_bots(request: Request, snapshot: Snapshot, count: int) -> None:
    """Refuse (``rate_limited``) ``count`` more bots in a tournament when the address that
    made it, or the asker's, would have more than its cap entered in its tournaments not
    over yet (the runner makes their tables outside the address's caps on tables)."""
    cap = request.app.state.manager.policy.tournament_bots_per_address
    origins = {str(snapshot.row.settings.get("origin")), _origin(request)}
    held = await asyncio.to_thread(_bots_from, store_of(request), origins)
    if held + count > cap:
        raise rate_limited(
            _(
                "your address has {n} bots entered in its tournaments that are not over, "
                "and may have {cap}: add at most {left}, or invite people instead",
                n=held,
                cap=cap,
                left=max(0, cap - held),
            ),
            CAP_RETRY,
        )


router = APIRouter(prefix="/api/tournaments", tags=["tournaments"], responses=TOURNAMENT_ERRORS)
"""The tournaments' API: ``/api/tournaments…``."""


@router.get("")
async def listing(request: Request) -> dict[str, Any]:
    """The newest tournaments (those not over first) with their entrant counts."""
    return {"tournaments": await asyncio.to_thread(store_of(request).listing, 50)}


@router.post("", status_code=201)
async def create(body: NewTournament, request: Request) -> dict[str, Any]:
    """Create a tournament (signed in); you may enter it and add bots until it starts."""
    me = await signed_in(request)
    starts, settings = _check(body, request.app.state.manager.policy.min_turn_timer)
    store = store_of(request)
    if await asyncio.to_thread(store.open_by, me.id) >= OPEN_PER_CREATOR:
        raise ApiError(
            "too_many_tournaments",
            _("you may have {n} tournaments open at once: wait until one is over",
              n=OPEN_PER_CREATOR),
        )  # fmt: skip
    origin = _origin(request)
    if await asyncio.to_thread(_open_from, store, origin) >= OPEN_PER_ADDRESS:
        raise ApiError(
            "too_many_tournaments",
            _("your address has {n} tournaments open at once, its limit: wait until one "
              "is over", n=OPEN_PER_ADDRESS),
        )  # fmt: skip
    _limits(request).creates.spend(
        str(me.id), lambda: _("you may create {n:g} tournaments an hour", n=CREATES_PER_HOUR)
    )
    settings["origin"] = origin
    values = {
        "name": shown_name(body.name) or body.game, "creator_id": me.id, "kind": body.kind,
        "game": body.game, "players": body.players, "settings": settings,
        "rounds": body.rounds if body.kind == "swiss" else None,
        "minutes": body.minutes if body.kind == "arena" else None,
        "cap": body.cap, "starts": starts, "created": now(),
    }  # fmt: skip
    tournament_id = await asyncio.to_thread(store.create, values)
    return await _detail(request, await _snapshot(request, tournament_id), me)


@router.get("/{tournament_id}")
async def detail(tournament_id: str, request: Request) -> dict[str, Any]:
    """One tournament: its entrants, standings (place, points and tie-breaks), rounds
    (each table with its entrants, live table and points) and, signed in, your entry."""
    me = await accounts_of(request).current(request)
    return await _detail(request, await _snapshot(request, tournament_id), me)


async def _open_for_change(request: Request, tournament_id: str) -> tuple[Account, Snapshot]:
    """The signed-in account and an open tournament, within the account's rate."""
    me = await signed_in(request)
    _limits(request).changes.spend(
        str(me.id), lambda: _("you may enter or leave {n:g} times a minute", n=JOINS_PER_MINUTE)
    )
    snapshot = await _snapshot(request, tournament_id)
    if snapshot.row.status != "open":
        raise ApiError("tournament_started", _("this tournament has started: entries are closed"))
    return me, snapshot


@router.post("/{tournament_id}/join")
async def join(tournament_id: str, request: Request) -> dict[str, Any]:
    """Enter a tournament before it starts."""
    me, snapshot = await _open_for_change(request, tournament_id)
    await _check_blocks(request, snapshot, me)
    await _enter(request, snapshot, me.id, None, me.name)
    return await _detail(request, await _snapshot(request, tournament_id), me)


@router.post("/{tournament_id}/leave")
async def leave(tournament_id: str, request: Request) -> dict[str, Any]:
    """Leave a tournament before it starts."""
    me, snapshot = await _open_for_change(request, tournament_id)
    await asyncio.to_thread(store_of(request).leave, snapshot.row.id, me.id)
    return await _detail(request, await _snapshot(request, tournament_id), me)


@router.post("/{tournament_id}/withdraw")
async def withdraw(tournament_id: str, request: Request) -> dict[str, Any]:
    """Withdraw from a tournament while it runs: you are seated at no new table and
    given no bye; your seat at the table you sit at now is resigned at once (a bot
    plays it to the end) and that table counts, and your results stay in the
    standings.  Before the start, leave it instead (``…/leave``)."""
    me = await signed_in(request)
    _limits(request).changes.spend(
        str(me.id), lambda: _("you may enter or leave {n:g} times a minute", n=JOINS_PER_MINUTE)
    )
    snapshot = await _snapshot(request, tournament_id)
    outcome = await asyncio.to_thread(store_of(request).withdraw, snapshot.row.id, me.id)
    if outcome != "withdrawn":
        raise _not_withdrawn(outcome, tournament_id)
    snapshot = await _snapshot(request, tournament_id)
    await request.app.state.tournament_runner.resign_withdrawn(snapshot)
    return await _detail(request, snapshot, me)


def _not_withdrawn(outcome: str, tournament_id: str) -> ApiError:
    """Why a withdrawal was refused, in words."""
    if outcome == "open":
        return ApiError(
            "tournament_not_started",
            _("this tournament has not started yet: leave it instead"),
        )
    if outcome == "not_entered":
        return ApiError("not_entered", _("you have not entered this tournament"))
    if outcome == "already":
        return ApiError("already_withdrawn", _("you have already withdrawn from this tournament"))
    if outcome == "unknown":
        return ApiError(
            "unknown_tournament", _("no tournament has the id {id!r}", id=tournament_id[:16])
        )
    return ApiError(
        "tournament_over", _("this tournament is over: there is nothing to withdraw from")
    )


@router.post("/{tournament_id}/bots")
async def add_bots(tournament_id: str, body: Bots, request: Request) -> dict[str, Any]:
    """Enter bots of one level (the tournament's creator, before the start)."""
    me, snapshot = await _open_for_change(request, tournament_id)
    if snapshot.row.creator_id != me.id:
        raise ApiError("not_yours", _("only the tournament's creator may add bots"))
    game = check_game(
        NewTable(game=snapshot.row.game, players=snapshot.row.players,
                 variant=snapshot.row.settings.get("variant"),
                 options=dict(snapshot.row.settings.get("options") or {}),
                 seats=[("open", None)] * snapshot.row.players, seed=None)
    )  # fmt: skip
    try:
        spec = botplay.check_spec(body.bot, game)
    except RulesError as err:
        raise ApiError("bad_bot", str(err)) from None
    await _check_bots(request, snapshot, body.count)
    bots = sum(1 for e in snapshot.entrants if e.bot is not None)
    for i in range(body.count):
        await _enter(request, snapshot, None, spec, botplay.label(spec, bots + i))
    return await _detail(request, await _snapshot(request, tournament_id), me)


@router.post("/{tournament_id}/start")
async def start_now(tournament_id: str, request: Request) -> dict[str, Any]:
    """Start a tournament now instead of at its time (its creator, with at least one
    table's entrants); the first tables are seated within seconds."""
    me, snapshot = await _open_for_change(request, tournament_id)
    if snapshot.row.creator_id != me.id:
        raise ApiError("not_yours", _("only the tournament's creator may start it early"))
    if len(snapshot.entrants) < snapshot.row.players:
        raise ApiError(
            "too_few_entrants",
            _("a table needs {n} entrants: wait for more, or add bots", n=snapshot.row.players),
        )
    await asyncio.to_thread(store_of(request).start_now, snapshot.row.id, now())
    return await _detail(request, await _snapshot(request, tournament_id), me)


async def _check_blocks(request: Request, snapshot: Snapshot, me: Account) -> None:
    """Refuse (``blocked``) an entry where a block stands between the account and an
    entrant: the two would be seated at one table (a block keeps them apart)."""
    friends = friends_of(request)
    shunned = await asyncio.to_thread(friends.shunned, me.id)
    for other in shunned & {e.account_id for e in snapshot.entrants}:
        mine, _theirs = await asyncio.to_thread(friends.blocks, me.id, other)
        if mine:
            raise ApiError(
                "blocked", _("you blocked a player in this tournament: unblock them first to enter")
            )
        raise ApiError(
            "blocked", _("a player in this tournament has blocked you: you cannot enter")
        )


async def _enter(
    request: Request, snapshot: Snapshot, account: int | None, bot: str | None, name: str
) -> None:
    try:
        await asyncio.to_thread(store_of(request).enter, snapshot.row.id, account, bot, name)
    except Full:
        raise ApiError(
            "tournament_full",
            _("this tournament is full ({n} entrants)", n=snapshot.row.cap),
        ) from None
    except IntegrityError:
        raise ApiError("already_entered", _("you have already entered this tournament")) from None
    except LookupError:
        raise ApiError(
            "tournament_started", _("this tournament has started: entries are closed")
        ) from None


@router.get("/{tournament_id}/seat", response_model=schemas.Joined)
async def seat(tournament_id: str, request: Request) -> dict[str, Any]:
    """Your seat at the tournament's table you play now: its token (yours only).  You
    take the seat from this client: its address key is kept as at any rated table's
    seat (two accounts at one table from one address are not rated by it)."""
    me = await accounts_of(request).require(request)
    snapshot = await _snapshot(request, tournament_id)
    mine = {e.id for e in snapshot.entrants if e.account_id == me.id}
    for game in reversed(snapshot.games):
        if game.points is not None or not game.ready:
            continue
        for number, entrant in enumerate(game.seats):
            token = game.tokens.get(str(number))
            if entrant in mine and token is not None:
                table = await _seat_table(request, str(game.table_id))
                await ratings.after_join(request, table, number, client_address(request), True)
                return {"seat": number, "token": token, "table": table.public()}
    raise ApiError("unknown_tournament", _("you have no table in this tournament now"))


async def _seat_table(request: Request, table_id: str) -> Table:
    """A tournament table to show with a seat: this process's own (or taken over: nobody
    holds it), or in a cluster the copy of another process's table that the lobby shows
    (never taken over: the table's own requests are forwarded to its owner)."""
    manager = request.app.state.manager
    if await manager.finder.owner(table_id) is not None:
        found: Table = await manager.peek(table_id)
    else:
        found = await manager.get(table_id)
    return found


async def _detail(request: Request, snapshot: Snapshot, me: Account | None) -> dict[str, Any]:
    """A tournament as :func:`detail` answers."""
    row = snapshot.row
    names = {e.id: e for e in snapshot.entrants}
    shown = {e.id: botplay.shown_name(e.name, e.bot) for e in snapshot.entrants}
    lines = table_of(snapshot)
    mine = next((e.id for e in snapshot.entrants if me is not None and e.account_id == me.id), None)
    gone = withdrawn(row)
    rounds: dict[int, list[dict[str, Any]]] = {}
    for game in snapshot.games:
        rounds.setdefault(game.round, []).append(
            {"table": game.table_id if game.ready else None,
             "seats": [shown[e] for e in game.seats],
             "entrants": list(game.seats), "points": game.points, "places": game.places,
             "seated": iso(game.created)}
        )  # fmt: skip
    return {
        "id": row.id, "name": row.name, "kind": row.kind, "game": row.game,
        "players": row.players, "variant": row.settings.get("variant"),
        "options": dict(row.settings.get("options") or {}),
        "turn_timer": row.settings.get("turn_timer"), "rounds": row.rounds,
        "minutes": row.minutes, "cap": row.cap, "starts": iso(row.starts),
        "ends": iso(row.starts + timedelta(minutes=row.minutes)) if row.minutes else None,
        "status": row.status, "round": row.round, "creator": snapshot.creator,
        "mine": row.creator_id == (me.id if me else None), "entered": mine,
        "withdrawn": mine is not None and mine in gone,
        "entrants": [{"id": e.id, "name": shown[e.id], "bot": e.bot is not None,
                      "withdrawn": e.id in gone} for e in snapshot.entrants],
        "standings": [
            {"place": i + 1, "entrant": s.entrant, "name": shown[s.entrant],
             "bot": names[s.entrant].bot is not None, "points": s.points, "games": s.games,
             "firsts": s.firsts, "byes": s.byes, "opponents": s.opponents,
             "withdrawn": s.entrant in gone}
            for i, s in enumerate(lines)
        ],
        "games": [{"round": r, "tables": t} for r, t in sorted(rounds.items())],
    }  # fmt: skip


def results_of(store: Tournaments, account_id: int) -> list[dict[str, Any]]:
    """An account's tournaments for its profile (newest first, at most 20): each with
    its status, the account's place among how many, and its points."""
    answer = []
    for found in store.entered(account_id)[:20]:
        snapshot = store.load(found["id"])
        if snapshot is None:
            continue
        mine = {e.id for e in snapshot.entrants if e.account_id == account_id}
        lines = table_of(snapshot)
        place = next((i + 1 for i, s in enumerate(lines) if s.entrant in mine), None)
        points = next((s.points for s in lines if s.entrant in mine), 0.0)
        answer.append({**found, "place": place, "of": len(lines), "points": points})
    return answer


async def profile_results(request: Request, account_id: int) -> list[dict[str, Any]]:
    """:func:`results_of` in a worker thread (the profile's ``tournaments``)."""
    return await asyncio.to_thread(results_of, store_of(request), account_id)


def pages() -> APIRouter:
    """The tournaments' page: ``/tournaments`` (the list and the form) and
    ``/tournaments/{id}`` (one tournament's standings, live)."""
    return web.page_routes("tournaments", "tournaments.html")


__all__ = [
    "CREATES_PER_HOUR",
    "MAX_CAP",
    "OPEN_PER_CREATOR",
    "NewTournament",
    "pages",
    "router",
    "store_of",
]
