"""The friends' API, ``/api/friends…``: follow and unfollow, block and unblock, the list
(who is online and at which table, the challenges), and challenges to a table with
chosen options (accept, decline, cancel; the challenger takes the seat an accepted one
kept for it).

Every change carries the CSRF token and needs an account.  Challenges cannot flood a
person or hoard tables: an account has at most :data:`OPEN_CHALLENGES` open at once, at
most one to the same person, sends at most :data:`CHALLENGES_PER_MINUTE` a minute (the
accounts of one address :data:`CHALLENGES_PER_ADDRESS` together), and a person has at
most :data:`INCOMING` waiting, at most ``--challenges-per-address`` of them from the
accounts of one address (so others still reach them); no table exists until a challenge
is accepted, and then within the accepting address's caps like any new table (a game
that lasts days within the accepting account's cap on them too)."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from tikki.core import RulesError
from tikki.i18n import _
from tikki.server import botplay, chat, ratings, schemas
from tikki.server.accounts import ERRORS, Account, accounts_of, address_of, signed_in, skeleton
from tikki.server.db import now
from tikki.server.errors import STATUS, ApiError
from tikki.server.friends.blocks import friends_of
from tikki.server.friends.store import CHALLENGE_LIFE, ORIGIN, Friends, Person
from tikki.server.notices import notify, turns
from tikki.server.plain import printable
from tikki.server.quota import RateLimiter, rate_limited
from tikki.server.tables import NewTable, TableManager
from tikki.server.tables.creation import check_game
from tikki.server.tables.timers import parse_timer

OPEN_CHALLENGES = 3
"""Challenges one account may have open at once."""
INCOMING = 10
"""Open challenges one account may have waiting for its answer."""
CHALLENGES_PER_MINUTE = 6.0
"""Challenges one account may send a minute (a burst of :data:`CHALLENGE_BURST`)."""
CHALLENGE_BURST = 3.0
CHALLENGES_PER_ADDRESS = 12.0
"""Challenges the accounts of one client address may send a minute together (a burst of
:data:`ADDRESS_BURST`): more accounts do not flood a person faster."""
ADDRESS_BURST = 10.0
CHANGES_PER_MINUTE = 30.0
"""Follows, unfollows, blocks and unblocks one account may make a minute."""

STATUS.update(
    {
        "yourself": 400,
        "too_many_challenges": 409,
        "challenge_gone": 409,
        "unknown_challenge": 404,
    }
)

FRIEND_ERRORS: dict[int | str, dict[str, Any]] = {
    **ERRORS,
    400: {"model": schemas.ErrorBody, "description": "yourself, bad options, bot or timer"},
    403: {"model": schemas.ErrorBody, "description": "csrf; blocked: a block between you"},
    404: {"model": schemas.ErrorBody, "description": "unknown player or challenge"},
    409: {
        "model": schemas.ErrorBody,
        "description": "too_many_challenges (open ones: yours, to one person, or theirs); "
        "challenge_gone (answered, withdrawn or expired)",
    },
    429: {
        "model": schemas.ErrorBody,
        "description": "rate_limited: too many challenges or changes a minute (Retry-After)",
    },
}
"""The friends' routes' error answers."""


class Name(BaseModel):
    """Another account, by name."""

    name: str = Field(max_length=200)


class Challenge(BaseModel):
    """A challenge: to whom, and the table's options (the challenger sits at seat 1, the
    challenged at seat 2, bots of level ``bot`` at the others)."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200, description="the account challenged")
    game: str = Field(max_length=40, examples=schemas.FEATURED)
    players: int = Field(2, ge=2, le=16)
    variant: str | None = Field(None, max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    bot: str = Field("heuristic", max_length=200, description="the other seats' bot level")
    turn_timer: int | str | None = None
    on_timeout: str | None = Field(None, max_length=10)
    memory_aids: bool = False
    forced_moves: bool = True


class Limits:
    """The per-account rates of the friends' routes (of this process)."""

    def __init__(self) -> None:
        self.challenges = RateLimiter(CHALLENGES_PER_MINUTE, CHALLENGE_BURST)
        self.addresses = RateLimiter(CHALLENGES_PER_ADDRESS, ADDRESS_BURST)
        self.changes = RateLimiter(CHANGES_PER_MINUTE, CHANGES_PER_MINUTE)


def _manager(request: Request) -> TableManager:
    manager: TableManager = request.app.state.manager
    return manager


def _limits(request: Request) -> Limits:
    limits: Limits | None = getattr(request.app.state, "friend_limits", None)
    if limits is None:
        limits = request.app.state.friend_limits = Limits()
    return limits


async def _other(friends: Friends, me: Account, name: str) -> Person:
    """The account named ``name``: ``unknown_player``, or ``yourself`` for one's own."""
    person = await asyncio.to_thread(friends.person, skeleton(name)) if printable(name) else None
    if person is None:
        raise ApiError("unknown_player", _("no account is named {name!r}", name=name[:40]))
    if person.id == me.id:
        raise ApiError("yourself", _("that is your own account: pick someone else"))
    return person


async def _unblocked(friends: Friends, me: Account, other: Person) -> None:
    """``blocked`` when either of the two blocked the other."""
    mine, theirs = await asyncio.to_thread(friends.blocks, me.id, other.id)
    if mine:
        raise ApiError("blocked", _("you blocked {name}: unblock them first", name=other.name))
    if theirs:
        raise ApiError(
            "blocked", _("{name} does not take follows or challenges from you", name=other.name)
        )


async def _pair_change(
    request: Request, body: Name, change: Callable[[Friends, int, int], None], follow: bool
) -> dict[str, Any]:
    """A follow or block change (``change(friends, me, other)``) within the account's rate,
    then the account's listing; a follow is refused across a block."""
    me = await signed_in(request)
    _limits(request).changes.spend(
        str(me.id),
        lambda: _("you may change {n:g} follows or blocks a minute", n=CHANGES_PER_MINUTE),
    )
    friends = friends_of(request)
    other = await _other(friends, me, body.name)
    if follow:
        await _unblocked(friends, me, other)
    await asyncio.to_thread(change, friends, me.id, other.id)
    return await asyncio.to_thread(friends.listing, me.id)


router = APIRouter(prefix="/api/friends", tags=["friends"], responses=FRIEND_ERRORS)
"""The friends' API: ``/api/friends…``."""


@router.get("")
async def listing(request: Request) -> dict[str, Any]:
    """The accounts you follow (``online``; ``table``: the live table where they sit with
    the page open), your followers, the accounts you blocked, the open challenges to you
    (``incoming``) and yours (``outgoing``: open, or accepted with your seat to take)."""
    me = await accounts_of(request).require(request)
    return await asyncio.to_thread(friends_of(request).listing, me.id)


@router.post("/follow")
async def follow(body: Name, request: Request) -> dict[str, Any]:
    """Follow an account: see when it is online and at which table."""
    return await _pair_change(request, body, Friends.follow, follow=True)


@router.post("/unfollow")
async def unfollow(body: Name, request: Request) -> dict[str, Any]:
    """Stop following an account."""
    return await _pair_change(request, body, Friends.unfollow, follow=False)


@router.post("/block")
async def block(body: Name, request: Request) -> dict[str, Any]:
    """Block an account: it cannot follow or challenge you, its chat is not shown to
    you (nor yours to it), and neither of you may sit at a table the other sits at.  The
    follows between you end and the open challenges are withdrawn."""
    return await _pair_change(request, body, Friends.block, follow=False)


@router.post("/unblock")
async def unblock(body: Name, request: Request) -> dict[str, Any]:
    """Unblock an account."""
    return await _pair_change(request, body, Friends.unblock, follow=False)


def _table_request(body: Challenge | dict[str, Any], timer_min: int) -> NewTable:
    """The table a challenge asks for: the two people's open seats, then the bots."""
    given = body.model_dump() if isinstance(body, Challenge) else body
    players = int(given["players"])
    seats: list[tuple[str, str | None]] = [("open", None), ("open", None)]
    seats += [("bot", given["bot"])] * (players - 2)
    wanted = NewTable(
        game=given["game"], players=players, variant=given["variant"],
        options=given["options"], seats=seats, seed=None,
        memory_aids=given["memory_aids"], turn_timer=given["turn_timer"],
        on_timeout=given["on_timeout"], forced_moves=given["forced_moves"],
    )  # fmt: skip
    game = check_game(wanted)
    parse_timer(wanted.turn_timer, wanted.on_timeout, timer_min)
    if players > 2:
        try:
            botplay.check_spec(given["bot"], game)
        except RulesError as err:
            raise ApiError("bad_bot", str(err)) from None
    return wanted


@router.post("/challenges", status_code=201)
async def challenge(body: Challenge, request: Request) -> dict[str, Any]:
    """Challenge an account to a table with these options; it sees the challenge at once
    (on any page with its friends panel) and may accept or decline it within 15 minutes."""
    me = await signed_in(request)
    friends = friends_of(request)
    other = await _other(friends, me, body.name)
    await _unblocked(friends, me, other)
    _table_request(body, _manager(request).policy.min_turn_timer)
    mine, theirs, pair = await asyncio.to_thread(friends.open_counts, me.id, other.id)
    if pair:
        raise ApiError(
            "too_many_challenges",
            _("you have already challenged {name}: wait for the answer or withdraw it",
              name=other.name),
        )  # fmt: skip
    if mine >= OPEN_CHALLENGES:
        raise ApiError(
            "too_many_challenges",
            _("you may have {n} challenges open at once: withdraw one or wait for the answers",
              n=OPEN_CHALLENGES),
        )  # fmt: skip
    if theirs >= INCOMING:
        raise ApiError(
            "too_many_challenges",
            _("{name} has too many challenges waiting: try again later", name=other.name),
        )
    origin = _origin(request)
    await _check_from_address(request, friends, other, origin)
    limits = _limits(request)
    limits.addresses.spend(
        address_of(request),
        lambda: _("your address may send {n:g} challenges a minute", n=CHALLENGES_PER_ADDRESS),
    )
    limits.challenges.spend(
        str(me.id), lambda: _("you may send {n:g} challenges a minute", n=CHALLENGES_PER_MINUTE)
    )
    options = {**body.model_dump(exclude={"name"}), ORIGIN: origin}
    challenge_id = await asyncio.to_thread(friends.add_challenge, me.id, other.id, options)
    told = {"from": me.name, "game": body.game, "challenge": challenge_id}
    await notify(request.app, other.id, "challenge", told, sender=me.id)
    found = await asyncio.to_thread(friends.challenge, challenge_id)
    assert found is not None
    return _public(found)


def _origin(request: Request) -> str:
    """The sender's address as a challenge keeps it: a digest, never the address."""
    return hashlib.sha256(f"challenge\0{address_of(request)}".encode()).hexdigest()[:16]


async def _check_from_address(
    request: Request, friends: Friends, other: Person, origin: str
) -> None:
    """Refuse (``rate_limited``) a challenge to ``other`` when the accounts of the
    sender's address have their share of ``other``'s waiting list already; Retry-After:
    until the first of them expires."""
    cap = _manager(request).policy.challenges_per_address
    made = await asyncio.to_thread(friends.waiting_from, other.id, origin)
    if len(made) < cap:
        return
    wait = (min(made) + CHALLENGE_LIFE - now()).total_seconds()
    raise rate_limited(
        _(
            "your address has {n} challenges waiting for {name}, the most one address may: "
            "wait for the answers (or withdraw one)",
            n=len(made),
            name=other.name,
        ),
        wait,
    )


def _public(found: dict[str, Any]) -> dict[str, Any]:
    """A challenge without its parties' ids."""
    return {k: v for k, v in found.items() if k not in ("from_id", "to_id")}


async def _mine(request: Request, challenge_id: str, side: str) -> tuple[Account, dict[str, Any]]:
    """A challenge of the request's account on ``side`` (``from_id`` or ``to_id``),
    still open; ``unknown_challenge`` or ``challenge_gone`` otherwise."""
    me = await signed_in(request)
    found = None
    if printable(challenge_id):
        found = await asyncio.to_thread(friends_of(request).challenge, challenge_id[:16])
    if found is None or found[side] != me.id:
        raise ApiError("unknown_challenge", _("you have no such challenge"))
    if found["state"] != "open":
        raise ApiError("challenge_gone", _gone(found["state"]))
    return me, found


def _gone(state: str) -> str:
    """Why a challenge can no longer be answered."""
    return {
        "accepted": _("this challenge was already accepted"),
        "declined": _("this challenge was declined"),
        "cancelled": _("this challenge was withdrawn"),
    }.get(state, _("this challenge has expired: challenges wait 15 minutes"))


@router.post("/challenges/{challenge_id}/accept", response_model=schemas.Joined)
async def accept(challenge_id: str, request: Request) -> dict[str, Any]:
    """Accept a challenge: the table is made with both of you seated (you at seat 2); the
    answer holds your seat's token, and the challenger's page takes its seat."""
    me, found = await _mine(request, challenge_id, "to_id")
    friends = friends_of(request)
    if not await asyncio.to_thread(friends.answer, found["id"], "accepted"):
        raise ApiError("challenge_gone", _gone("gone"))
    manager = _manager(request)
    address = address_of(request)
    try:
        wanted = _table_request(found["options"], manager.policy.min_turn_timer)
        table, invites = await manager.create(replace(wanted, account=me.id), address)
    except ApiError:
        await asyncio.to_thread(friends.reopen, found["id"])
        raise
    _table, theirs = await manager.join(table.id, 0, found["from"], invites.get(0), None)
    await _seated(request, table, 0, found["from_id"], address)
    await asyncio.to_thread(friends.seat, found["id"], table.id, theirs)
    _table, token = await manager.join(table.id, 1, me.name, invites.get(1), address)
    await _seated(request, table, 1, me.id, address)
    await chat.after_join(request, table, 1, address)
    await turns.first_move(request.app, table, here=1)  # a game that lasts days
    return {"seat": 1, "token": token, "table": table.public()}


async def _seated(request: Request, table: Any, seat: int, account: int, address: str) -> None:
    """Link a seat taken through a challenge to its account."""
    await asyncio.to_thread(accounts_of(request).link, account, table.id, seat)
    await ratings.after_join(request, table, seat, address, True)


@router.post("/challenges/{challenge_id}/decline")
async def decline(challenge_id: str, request: Request) -> dict[str, Any]:
    """Decline a challenge to you."""
    me, found = await _mine(request, challenge_id, "to_id")
    friends = friends_of(request)
    if not await asyncio.to_thread(friends.answer, found["id"], "declined"):
        raise ApiError("challenge_gone", _gone("gone"))
    return await asyncio.to_thread(friends.listing, me.id)


@router.post("/challenges/{challenge_id}/cancel")
async def cancel(challenge_id: str, request: Request) -> dict[str, Any]:
    """Withdraw your challenge."""
    me, found = await _mine(request, challenge_id, "from_id")
    friends = friends_of(request)
    if not await asyncio.to_thread(friends.answer, found["id"], "cancelled"):
        raise ApiError("challenge_gone", _gone("gone"))
    return await asyncio.to_thread(friends.listing, me.id)


@router.post("/challenges/{challenge_id}/seat", response_model=schemas.Joined)
async def take_seat(challenge_id: str, request: Request) -> dict[str, Any]:
    """The challenger takes the seat an accepted challenge kept for it (seat 1): its
    token, given once."""
    me = await signed_in(request)
    taken = None
    if printable(challenge_id):
        taken = await asyncio.to_thread(friends_of(request).take_seat, challenge_id[:16], me.id)
    if taken is None:
        raise ApiError(
            "unknown_challenge", _("no accepted challenge of yours keeps a seat to take")
        )
    table_id, token = taken
    table = await _manager(request).get(table_id)
    return {"seat": 0, "token": token, "table": table.public()}


__all__ = ["CHALLENGES_PER_MINUTE", "INCOMING", "OPEN_CHALLENGES", "router"]
