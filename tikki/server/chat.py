"""Table chat: quick phrases (sent as ids, shown in each reader's language) and free text.

- Two channels: ``players`` (the seated people) and ``spectators``.  During the game the
  players read their own channel only; spectators read both; after the end everyone
  reads both.
- Free text is at most :data:`TEXT_MAX` characters, rate-limited per sender, and can be
  switched off by the table's creator (the seat the creating browser's address took
  first).  It is stored as sent and shown as text (the page never parses it as HTML).
- Messages are stored with the table (``tikki_chat``) and never enter its game record.
- Reading is a long poll: ``GET …/chat?after=SEQ&wait=true`` answers at once when there is
  something newer, else after at most :data:`WAIT` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from pydantic import BaseModel, Field
from sqlalchemy import Engine, insert, select

from tikki.i18n import _
from tikki.server.accounts import ERRORS, accounts_of, address_of
from tikki.server.db import ChatRow, TableExtraRow, now
from tikki.server.errors import STATUS, ApiError
from tikki.server.friends.blocks import hidden_senders
from tikki.server.plain import one_line
from tikki.server.quota import RateLimiter
from tikki.server.ratings import upsert_extra
from tikki.server.routes.common import bearer
from tikki.server.tables import Table, TableManager, iso

PHRASES = ("gg", "wp", "thanks", "oops", "hurry")
"""The quick phrases' ids: Good game, Well played, Thanks, Oops, Hurry up, please."""
TEXT_MAX = 200
"""The longest free text, in characters."""
MESSAGES_PER_MINUTE = 12.0
"""Messages one sender may send a minute (a burst of :data:`BURST`)."""
BURST = 5.0
KEEP = 200
"""Messages a table keeps in each channel (older ones are dropped from what is shown), so
the spectators' messages never push the players' out."""
SPECTATORS_PER_MINUTE = 30
"""Messages all of a table's spectators together may send a minute (as many at once)."""
WAIT = 25.0
"""The longest a long poll waits, in seconds."""

STATUS.update({"chat_off": 409, "bad_chat": 400})


class ChatMessage(BaseModel):
    """A message to send: a quick phrase's id or a free text."""

    phrase: str | None = Field(default=None, max_length=32)
    text: str | None = Field(default=None, max_length=TEXT_MAX * 4)


class ChatSettings(BaseModel):
    """The creator's chat settings."""

    free_text: bool


@dataclass
class Room:
    """One table's chat in memory: its messages, settings and waiting readers."""

    messages: list[dict[str, Any]]
    host_seat: int | None
    free_text: bool
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    writing: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while a message takes its number and is stored: one at a time per room."""

    def seq(self) -> int:
        """The newest message's number (0: none)."""
        return self.messages[-1]["seq"] if self.messages else 0


class Chat:
    """Every table's chat room, loaded from the database on first use."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.rooms: dict[str, Room] = {}
        self.limits = RateLimiter(MESSAGES_PER_MINUTE, BURST)
        self.spectators = RateLimiter(SPECTATORS_PER_MINUTE, SPECTATORS_PER_MINUTE)
        """The spectators' channel of each table, all senders together."""
        self.closing = False
        """The server is stopping: long polls answer at once."""

    def close(self) -> None:
        """The server stops: every waiting reader gets its answer now, and no read waits
        from now on (a long poll must not hold up a graceful stop)."""
        self.closing = True
        for room in self.rooms.values():
            room.changed.set()

    def _load(self, table_id: str) -> Room:
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(ChatRow).where(ChatRow.table_id == table_id).order_by(ChatRow.seq)
            ).all()
            extra = connection.execute(
                select(TableExtraRow).where(TableExtraRow.table_id == table_id)
            ).first()
        messages = [
            {
                "seq": r.seq,
                "channel": r.channel,
                "sender": r.sender,
                "name": r.name,
                "phrase": r.phrase,
                "text": r.text,
                "time": iso(r.time),
            }
            for r in rows
        ]
        host = None if extra is None else extra.host_seat
        free = True if extra is None else bool(extra.free_text)
        return Room(kept(messages), host, free)

    async def room(self, table_id: str) -> Room:
        """A table's room (loaded once)."""
        room = self.rooms.get(table_id)
        if room is None:
            loaded = await asyncio.to_thread(self._load, table_id)
            room = self.rooms.setdefault(table_id, loaded)
        return room

    def _store(self, table_id: str, message: dict[str, Any]) -> None:
        row = {k: v for k, v in message.items() if k != "time"}
        with self.engine.begin() as connection:
            connection.execute(insert(ChatRow), {**row, "table_id": table_id, "time": now()})

    async def set_host(self, table: Table, seat: int) -> None:
        """Make ``seat`` the creator's seat unless the table has one."""
        room = await self.room(table.id)
        if room.host_seat is None:
            room.host_seat = seat
            await asyncio.to_thread(upsert_extra, self.engine, table.id, {"host_seat": seat})

    async def post(
        self, table: Table, seat: int | None, sender: str, name: str, body: ChatMessage
    ) -> dict[str, Any]:
        """Add a message; ``bad_chat``, ``chat_off`` or ``rate_limited`` when refused."""
        room = await self.room(table.id)
        phrase, text = body.phrase, clean(body.text)
        if (phrase is None) == (text is None) or (phrase is not None and phrase not in PHRASES):
            raise ApiError(
                "bad_chat",
                _(
                    "send one quick phrase ({phrases}) or a text of 1–{n} characters",
                    phrases=", ".join(PHRASES),
                    n=TEXT_MAX,
                ),
            )
        if text is not None and not room.free_text:
            raise ApiError(
                "chat_off", _("the table's creator switched free text off: send a quick phrase")
            )
        self.limits.spend(
            f"{table.id}:{sender}",
            lambda: _("you may send {n:g} messages a minute", n=MESSAGES_PER_MINUTE),
        )
        if seat is None:
            self.spectators.spend(
                table.id,
                lambda: _(
                    "this table's spectators may send {n:g} messages a minute together",
                    n=SPECTATORS_PER_MINUTE,
                ),
            )
        async with room.writing:  # the next number, stored before another takes one
            message = {
                "seq": room.seq() + 1,
                "channel": "players" if seat is not None else "spectators",
                "sender": sender,
                "name": name,
                "phrase": phrase,
                "text": text,
                "time": iso(now()),
            }
            await asyncio.to_thread(self._store, table.id, message)
            room.messages = kept([*room.messages, message])
        room.changed.set()
        room.changed = asyncio.Event()
        return message

    async def settings(self, table: Table, seat: int | None, free_text: bool) -> Room:
        """The creator switches free text on or off."""
        room = await self.room(table.id)
        if seat is None or seat != room.host_seat:
            raise ApiError("spectator", _("only the table's creator may change its chat"))
        room.free_text = free_text
        await asyncio.to_thread(upsert_extra, self.engine, table.id, {"free_text": free_text})
        room.changed.set()
        room.changed = asyncio.Event()
        return room


def kept(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The newest :data:`KEEP` messages of each channel, in their order."""
    counts: dict[str, int] = {}
    newest_first = []
    for message in reversed(messages):
        channel = message["channel"]
        counts[channel] = counts.get(channel, 0) + 1
        if counts[channel] <= KEEP:
            newest_first.append(message)
    return newest_first[::-1]


def clean(text: str | None) -> str | None:
    """A free text without control characters and outer spaces (``None`` if empty);
    ``bad_chat`` when it is too long."""
    if text is None:
        return None
    kept = one_line(text)
    if len(kept) > TEXT_MAX:
        raise ApiError(
            "bad_chat", _("a message has at most {n} characters, not {m}", n=TEXT_MAX, m=len(kept))
        )
    return kept or None


def readable(message: dict[str, Any], seat: int | None, over: bool) -> bool:
    """Whether a reader (``seat``; ``None``: a spectator) sees a message now."""
    return over or seat is None or message["channel"] == "players"


def _answer(room: Room, table: Table, seat: int | None, after: int) -> dict[str, Any]:
    over = table.status == "finished"
    return {
        "messages": [m for m in room.messages if m["seq"] > after and readable(m, seat, over)],
        "seq": room.seq(),
        "free_text": room.free_text,
        "host": seat is not None and seat == room.host_seat,
        "channel": "players" if seat is not None else "spectators",
        "people": sum(s.kind in ("human", "open") for s in table.seats) >= 2,
        "you": None,
    }


def _unseen(table: Table, hidden: set[str]) -> list[str]:
    """The names of the seated people a block keeps from this reader's chat, either way
    (the page says so, so that a message is not thought read)."""
    seats = (int(h.removeprefix("seat:")) for h in hidden if h.startswith("seat:"))
    return sorted({str(table.seats[s].name) for s in seats if table.seats[s].name})


def _chat(request: Request) -> Chat:
    chat: Chat = request.app.state.chat
    return chat


def _manager(request: Request) -> TableManager:
    manager: TableManager = request.app.state.manager
    return manager


async def _who(
    request: Request, table: Table, authorization: str | None
) -> tuple[int | None, str, str]:
    """The seat, sender key and shown name of the request's person."""
    seat = table.seat_of(bearer(authorization))
    if seat is not None:
        return seat, f"seat:{seat}", table.seats[seat].name or _("Player")
    account = await accounts_of(request).current(request)
    if account is not None:
        return None, f"account:{account.id}", account.name
    key = hashlib.sha256(f"{table.id}:{address_of(request)}".encode()).hexdigest()[:10]
    return None, f"guest:{key}", _("Spectator")


Auth = Annotated[str | None, Header(description="Bearer TOKEN: a seat token (none: a spectator)")]


router = APIRouter(prefix="/api/tables/{table_id}/chat", tags=["chat"], responses=ERRORS)
"""The chat API: ``/api/tables/{id}/chat…``."""


@router.get("")
async def read(
    table_id: str,
    request: Request,
    after: Annotated[int, Query(ge=0, le=2**31)] = 0,
    wait: Annotated[bool, Query(description="wait up to 25 s for a newer message")] = False,
    authorization: Auth = None,
) -> dict[str, Any]:
    """The messages after ``after`` this reader sees (never those of an account it
    blocked or that blocked it), and the chat's settings; ``unseen``: the names of the
    seated people a block keeps from this chat either way."""
    table = await _manager(request).get(table_id)
    seat, sender, _name = await _who(request, table, authorization)
    room = await _chat(request).room(table.id)
    answer = _answer(room, table, seat, after)
    if wait and not answer["messages"] and room.seq() <= after and not _chat(request).closing:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(room.changed.wait(), WAIT)
        answer = _answer(room, table, seat, after)
    hidden = await hidden_senders(request, table.id, seat)  # blocked either way
    answer["messages"] = [m for m in answer["messages"] if m["sender"] not in hidden]
    answer["unseen"] = _unseen(table, hidden)
    answer["you"] = sender
    return answer


@router.post("", status_code=201)
async def send(
    table_id: str, body: ChatMessage, request: Request, authorization: Auth = None
) -> dict[str, Any]:
    """Send a quick phrase (its id) or a free text to your channel."""
    table = await _manager(request).get(table_id)
    seat, sender, name = await _who(request, table, authorization)
    return await _chat(request).post(table, seat, sender, name, body)


@router.post("/settings")
async def settings(
    table_id: str, body: ChatSettings, request: Request, authorization: Auth = None
) -> dict[str, Any]:
    """The table's creator switches free text on or off."""
    table = await _manager(request).get(table_id)
    seat, _sender, _name = await _who(request, table, authorization)
    room = await _chat(request).settings(table, seat, body.free_text)
    return {"free_text": room.free_text}


async def after_join(request: Request, table: Table, seat: int, address: str) -> None:
    """The creator's first seat becomes the chat's host seat."""
    if table.owner is not None and table.owner == address:
        await _chat(request).set_host(table, seat)


__all__ = [
    "KEEP",
    "PHRASES",
    "SPECTATORS_PER_MINUTE",
    "TEXT_MAX",
    "Chat",
    "after_join",
    "clean",
    "kept",
    "readable",
    "router",
]
