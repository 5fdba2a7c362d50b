"""One table's state: :class:`Table` (the engine State, its seats, its connections and
the lock around its moves), :class:`Connection` (one WebSocket), :class:`NewTable` (a parsed
create request) and :class:`Takeover` (a bot playing a person's seat: a *stand-in*,
:mod:`tikki.server.tables.leave`)."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from tikki import i18n
from tikki.core import JSON, Game, State
from tikki.i18n import _, use
from tikki.server import botplay
from tikki.server.db import StoredSeat, now
from tikki.server.errors import ApiError
from tikki.server.outbox import Outbox
from tikki.server.tables import correspondence
from tikki.server.tables.texts import (
    TABLE_MARK,
    TABLE_MARK_TEXT,
    HistoryText,
    delta_text,
    dumps,
    same_start,
    splice,
    state_text,
)
from tikki.views import LazyView

EXPIRED = 4410
"""The close code of a connection to a table that expired while waiting for players."""
REVOKED = 4401
"""The close code of a connection whose seat's device links were revoked."""
MOVED = 1012
"""The close code of a connection to a table that another process took over (a cluster:
:mod:`tikki.server.cluster`): "service restart", so the client connects again."""
STAND_IN = "heuristic"
"""The bot that plays for a person who left (the Medium level)."""
WHY = ("resigned", "away", "timeout", "timer")
"""Why a bot plays a person's seat (see :mod:`tikki.server.tables.leave`)."""
TAKEN_BACK = frozenset({"away", "timeout"})
"""Stand-ins that end when the person comes back."""
_SEATS_MARK = "tikki-seats-" + secrets.token_hex(16)
"""Stands for the seats while the rest of the public part is encoded (random)."""
_SEATS_MARK_TEXT = json.dumps(_SEATS_MARK)
_REST_MARKS = tuple(
    f"tikki-{key}-" + secrets.token_hex(16) for key in ("seq", "to-act", "timer", "expires")
)
"""Stand for the public part's values that change with each move while its other values'
text is kept (:meth:`Table._rest_text`; random, as :data:`_SEATS_MARK`)."""


def hash_token(token: str) -> str:
    """The stored form of a seat token (tokens are random, so a plain SHA-256 is enough)."""
    return hashlib.sha256(token.encode()).hexdigest()


def iso(moment: datetime | None) -> str | None:
    """A stored UTC time as ISO 8601 with ``Z``."""
    return None if moment is None else moment.isoformat(timespec="seconds") + "Z"


def seat_list(seats: Iterable[int]) -> str:
    """Seat numbers in words (``none`` for no seat)."""
    return ", ".join(str(s) for s in seats) or _("none")


@dataclass
class Takeover:
    """A bot playing a person's seat from move ``start`` (a seq) to ``end`` (``None``: on)."""

    seat: int
    start: int
    bot: str
    why: str
    end: int | None = None

    def json(self) -> JSON:
        """The stored and published form: ``{seat, from, to, bot, why}``."""
        return {"seat": self.seat, "from": self.start, "to": self.end, "bot": self.bot,
                "why": self.why}  # fmt: skip

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Takeover:
        """Read the stored form back."""
        return cls(int(data["seat"]), int(data["from"]), str(data["bot"]), str(data["why"]),
                   None if data.get("to") is None else int(data["to"]))  # fmt: skip


def active(takeovers: list[Takeover], seat: int) -> Takeover | None:
    """The stand-in playing ``seat`` now, if any."""
    for takeover in reversed(takeovers):
        if takeover.seat == seat:
            return takeover if takeover.end is None else None
    return None


@dataclass(eq=False)
class Connection:
    """One WebSocket: its seat (``None`` for a spectator) and its outbox (bounded in
    bytes, state messages coalesced: :class:`~tikki.server.outbox.Outbox`)."""

    seat: int | None
    outbox: Outbox = field(default_factory=Outbox)
    lang: str = "en"
    """The language of the connection's texts (bot names, error messages)."""
    changed: float = field(default_factory=time.monotonic)
    """When the connection was opened or last sent a state (``time.monotonic``): a
    watcher's idle time counts from it."""
    deltas: bool = False
    """The client takes history deltas (its ``hello`` said ``"history": "delta"``): each
    state carries only the history entries it was not sent yet (:meth:`Table.push_state`)."""

    @property
    def close_code(self) -> int | None:
        """Why the connection closes (``None`` while open)."""
        return self.outbox.close_code

    def push(self, text: str, state: bool = False, mark: object = None) -> None:
        """Queue one message (``state``: it replaces an unsent older state; ``mark``: the
        history it brings the client to); a connection that falls too far behind is
        dropped (1008)."""
        if state:
            self.changed = time.monotonic()
        self.outbox.push(text, state, mark)

    def close(self, code: int) -> None:
        """Close (1008: too slow, at once; 1001: the server stops, after the queue)."""
        self.outbox.close(code)


@dataclass(frozen=True)
class _Fixed:
    """The parts of :meth:`Table.public` that follow from the game and the creation time
    alone (computed once per table, not once per message)."""

    game: Game
    created: datetime
    name: str
    title: str
    players: int
    variant: Any
    options: dict[str, Any]
    created_text: str | None
    rules: str
    selecting_phases: tuple[str, ...]

    @classmethod
    def of(cls, table: Table) -> _Fixed:
        """Work them out for ``table``."""
        game = table.game
        options = game.options
        return cls(game, table.created, game.name, type(game).title, game.players,
                   options["variant"], options, iso(table.created), game.rules,
                   tuple(table.selecting_phases()))  # fmt: skip


@dataclass(eq=False)
class Table:
    """A live table: game, state, seats, connections and the lock around its moves."""

    id: str
    game: Game
    state: State
    seed: int
    seats: list[StoredSeat]
    status: str
    created: datetime
    finished: datetime | None = None
    seq: int = 0
    connections: set[Connection] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    memory_aids: bool = False
    forced_moves: bool = False
    """A person's only legal move (a lone card, a forced take) plays by itself."""
    rated: bool = False
    """A rated table (:mod:`tikki.server.ratings`), marked in the lobby and at the table."""
    forced: dict[int, int] = field(default_factory=dict)
    """The moves that played by themselves: history index -> seat (not stored: a restart
    forgets which they were)."""
    rematch: str | None = None
    """The id of this finished table's rematch ("Play again"), once one was asked for."""
    rematch_invites: dict[int, str] = field(default_factory=dict)
    """The invite secrets of the rematch's seats kept for this table's people (never sent)."""
    owner: str | None = None
    """The client address that created the table (``None`` once rebuilt after a restart)."""
    account: int | None = None
    """The account that created the table (``None``: a guest, the server, or rebuilt
    after a restart)."""
    turn_timer: int | None = None
    """Seconds a person has for each turn (``None``: no timer)."""
    on_timeout: str = "wait"
    """When the timer runs out: ``wait`` (the others may hand the seat to a bot) or
    ``bot`` (a bot plays that turn)."""
    takeovers: list[Takeover] = field(default_factory=list)
    """The bots that played or play people's seats (:mod:`tikki.server.tables.leave`)."""
    away_since: dict[int, datetime] = field(default_factory=dict)
    """When each seated person without a connection lost the last one."""
    turn_since: datetime | None = None
    """When the seat to act began its turn (the turn timer counts from it)."""
    last_move: datetime | None = None
    """When the newest move was made (or the game began): a stalled table leaves the lobby."""
    timed_out: int | None = None
    """The seq at which the turn timer last ran out."""
    away_after: float = 120.0
    """Seconds away after which the others may hand a seat to a bot."""
    announced: set[int] = field(default_factory=set)
    """The seats the others were last told they may hand to a bot."""
    clock: Callable[[], datetime] = now
    """The manager's clock (tests replace it)."""
    expiry: float = 600.0
    """Seconds a table nobody has played at lives from its creation (or its last
    keep-open, or its start), however many have joined it."""
    joined_expiry: float = 24 * 3600.0
    """Seconds a table where people have played lives after its last move."""
    kept: datetime | None = None
    """When a seated person last kept this waiting table open."""
    joined: bool = False
    """Whether someone from an address other than the creator's took a seat."""
    played: bool = False
    """Whether a move was made at a person's seat: only then has the table its long
    expiry (:attr:`joined_expiry`); joining a seat is not playing."""
    acted: dict[int, datetime] = field(default_factory=dict)
    """When each seated person last made an authenticated request (their presence)."""
    account_seats: set[int] = field(default_factory=set)
    """The seats an account holds (their people are no guests)."""
    history_texts: dict[int | None, HistoryText] = field(default_factory=dict, repr=False)
    """Each seat's history as last sent, entry by entry (:mod:`.texts`: a state message
    encodes only the entries new since)."""
    _fixed: _Fixed | None = field(default=None, repr=False)
    """What :meth:`public` takes from the game and the creation time, worked out once."""
    _bot_seats: dict[tuple[int, str | None, str | None, str], JSON] = field(
        default_factory=dict, repr=False
    )
    """Each bot seat's entry of :meth:`public` by seat, name, bot and language (a bot's
    entry changes with nothing else)."""
    _bot_seat_texts: dict[tuple[int, str | None, str | None, str], str] = field(
        default_factory=dict, repr=False
    )
    """The JSON text of each bot seat's entry, kept as :attr:`_bot_seats` is."""
    _seat_texts: dict[int, tuple[tuple[Any, ...], str]] = field(default_factory=dict, repr=False)
    """The JSON text of each other seat's entry as last encoded, with its values."""
    _head: tuple[_Fixed, str, str] | None = field(default=None, repr=False)
    """:meth:`public_text`'s head (from ``{"id"`` to the options, no closing brace), with
    the fixed part and the id it was made of."""
    _rest: tuple[_Fixed, tuple[Any, ...], tuple[str, ...]] | None = field(default=None, repr=False)
    """:meth:`public_text`'s part from ``status`` on as text pieces around the values that
    change with each move (:data:`_REST_MARKS`), with the fixed part and the values they
    were made of."""

    def expires(self) -> datetime | None:
        """When this table is removed unless something happens (``None``: finished).

        A table nobody has played at (waiting, or full but without a person's move) lives
        :attr:`expiry` seconds from its creation, its last keep-open or its start (a
        correspondence table being played: its first allowance from its start, or from
        the bots' moves before a person's turn, unless :attr:`lapses_unplayed` says
        otherwise); one where people played lives
        :attr:`joined_expiry` seconds from its last move (a correspondence table:
        :func:`.correspondence.expires`)."""
        if self.status == "finished":
            return None
        for s in self.seats:
            if s.kind != "bot":
                break
        else:
            return None  # bot-only tables finish by themselves
        timer = self.turn_timer
        allowance = timer if timer is not None and self.correspondence else None
        if (
            allowance is not None
            and (self.played or not self.lapses_unplayed)
            and self.status == "playing"
        ):
            return correspondence.expires(self.last_move or self.created, allowance)
        if self.played:
            return (self.last_move or self.created) + timedelta(seconds=self.joined_expiry)
        since = max(self.created, self.kept or self.created)
        if self.status == "playing" and self.last_move is not None:
            since = max(since, self.last_move)
        if allowance is not None and self.status == "playing":
            return since + timedelta(seconds=allowance)  # its first allowance
        return since + timedelta(seconds=self.expiry)

    @property
    def lapses_unplayed(self) -> bool:
        """Whether this is a correspondence table that is removed when nobody has moved
        within its first allowance (its turn timer does not act before that first move):
        every one but a rated table whose turn timer lets a bot play, as a tournament's,
        where the timer's bot plays on."""
        return self.correspondence and not (self.rated and self.on_timeout == "bot")

    @property
    def correspondence(self) -> bool:
        """Whether this is a correspondence table (:mod:`.correspondence`)."""
        return correspondence.is_correspondence(self.turn_timer)

    def devices(self, seat: int | None) -> int:
        """How many connections hold ``seat`` (0 for spectators)."""
        return 0 if seat is None else sum(1 for c in self.connections if c.seat == seat)

    @property
    def lane(self) -> str:
        """The group whose bots share fair turns: the creator's address, else the table."""
        return self.owner if self.owner is not None else f"table:{self.id}"

    @property
    def open_seats(self) -> list[int]:
        """Seats nobody holds yet."""
        return [s.seat for s in self.seats if s.kind == "open"]

    def connected(self, seat: StoredSeat) -> bool:
        """Whether a seat is present: bots always, humans with an open connection."""
        if seat.kind == "bot":
            return True
        return any(c.seat == seat.seat for c in self.connections)

    @property
    def to_act(self) -> int | None:
        """The seat to act (``None``: nobody, the game is over)."""
        return self.state.current_player

    def timer(self) -> JSON | None:
        """The running turn timer while a person is to act: ``{seat, seconds, left,
        timed_out}`` (``left`` in seconds when this is computed); ``None`` without one."""
        if self.turn_timer is None or self.status != "playing" or self.turn_since is None:
            return None
        seat = self.to_act
        if seat is None or self.seats[seat].kind != "human" or active(self.takeovers, seat):
            return None
        end = self.turn_since + timedelta(seconds=self.turn_timer)
        left = max(0.0, (end - self.clock()).total_seconds())
        return {"seat": seat, "seconds": self.turn_timer, "left": round(left, 1),
                "timed_out": self.timed_out == self.seq}  # fmt: skip

    def hand_over_in(self, seat: StoredSeat) -> float | None:
        """Seconds until the others may hand this person's seat to a bot (0: now);
        ``None`` while the person is here (or the seat is no person's, or a bot has it)."""
        if self.status != "playing" or seat.kind != "human" or active(self.takeovers, seat.seat):
            return None
        return self._hand_over_in(seat)

    def _hand_over_in(self, seat: StoredSeat) -> float | None:
        """:meth:`hand_over_in` of a playing table's person with no stand-in."""
        if self.timed_out == self.seq and self.to_act == seat.seat:
            return 0.0
        if self.correspondence:
            return None  # away between moves is normal: only the allowance counts
        since = self.away_since.get(seat.seat)
        if since is None:
            return None
        since = max(since, self.acted.get(seat.seat, since))  # acting by HTTP is presence
        return round(max(0.0, self.away_after - (self.clock() - since).total_seconds()), 1)

    def _seat_json(self, s: StoredSeat) -> JSON:
        if s.kind == "bot":  # a bot's entry changes only with its seat (and the language)
            key = (s.seat, s.name, s.bot, i18n.current())
            kept = self._bot_seats.get(key)
            if kept is None:
                kept = self._bot_seats[key] = self._seat_fields(s)
            return dict(kept)
        return self._seat_fields(s)

    def _seat_fields(self, s: StoredSeat) -> JSON:
        kind = s.kind
        human = kind == "human"
        stand_in = active(self.takeovers, s.seat) if human else None
        away = self.away_since.get(s.seat) if human else None
        hand_over = human and stand_in is None and self.status == "playing"
        return {
            "seat": s.seat,
            "kind": kind,
            "name": botplay.shown_name(s.name, s.bot) if s.name and kind == "bot" else s.name,
            "bot": s.bot,
            "anyone": kind == "open" and s.invite_hash is None,
            "connected": self.connected(s),
            "away_since": None if away is None else iso(away),
            "may_hand_over": hand_over and self._hand_over_in(s) == 0,
            "stand_in": None if stand_in is None else stand_in.bot,
            "resigned": stand_in is not None and stand_in.why == "resigned",
            "holder": self.holder(s),
        }

    def holder(self, s: StoredSeat) -> str | None:
        """Who holds a seat: ``account``, ``guest`` or ``bot`` (``None``: open)."""
        if s.kind == "bot":
            return "bot"
        if s.kind != "human":
            return None
        return "account" if s.seat in self.account_seats else "guest"

    def record(self, seat: int | None = None) -> JSON:
        """The game's record (``state.record``) with its seats: each one's name, and for
        a person the bots that played for them (``stand_ins``: ``{from, to, bot, why}``)."""
        out = self.state.record(seat)
        out["seats"] = [
            {
                "seat": s.seat,
                "kind": s.kind,
                "name": s.name,
                "bot": s.bot,
                "stand_ins": [
                    {k: v for k, v in t.json().items() if k != "seat"}
                    for t in self.takeovers
                    if t.seat == s.seat
                ],
            }
            for s in self.seats
        ]
        return out

    def public(self) -> JSON:
        """The table as everyone may see it (``TABLE``): no token, no seed before the end."""
        fixed = self._fixed_now()
        out = self._public_head(fixed)
        out["options"] = dict(fixed.options)  # the caller's own copy
        out.update(self._public_rest(fixed, [self._seat_json(s) for s in self.seats]))
        return out

    def public_text(self) -> str:
        """``json.dumps(self.public())``, byte for byte: its head (the id, the game and its
        options) encoded once while the game, the creation time and the id stay, each bot
        seat's entry once per seat, name, bot and language; the rest anew each time."""
        fixed = self._fixed_now()
        head = self._head
        if head is None or head[0] is not fixed or head[1] != self.id:
            text = dumps(self._public_head(fixed))
            head = self._head = (fixed, self.id, text[:-1])
        return head[2] + ", " + self._rest_text(fixed)

    def _rest_text(self, fixed: _Fixed) -> str:
        """The text of :meth:`public` from ``status`` on (no opening brace): while the
        table is not finished and has no stand-ins, its pieces around the seq, the seat to
        act, the seats, the timer and the expiry are kept while every other value of it
        stays (compared with its type: ``120`` and ``120.0`` are not the same text); the
        values that change with each move are put in as JSON text."""
        if self.status == "finished" or self.takeovers or self.finished is not None:
            rest = dumps(self._public_rest(fixed, _SEATS_MARK))
            return splice(rest[1:], _SEATS_MARK_TEXT, self._seats_text())
        turn_timer, away_after = self.turn_timer, self.away_after
        values = (
            self.status, self.memory_aids, self.forced_moves, self.rated, self.rematch,
            turn_timer, type(turn_timer), self.on_timeout, away_after, type(away_after),
        )  # fmt: skip
        kept = self._rest
        if kept is None or kept[0] is not fixed or kept[1] != values:
            kept = self._rest = (fixed, values, self._rest_pieces(fixed))
        seq, to_act, seats, timer, expires, end = kept[2]
        to_act_now = self.to_act if self.status == "playing" else None
        timer_now = self.timer()
        expires_now = self.expires()
        return "".join((
            seq, int.__repr__(self.seq),
            to_act, "null" if to_act_now is None else int.__repr__(to_act_now),
            seats, self._seats_text(),
            timer, "null" if timer_now is None else dumps(timer_now),
            expires, "null" if expires_now is None else dumps(iso(expires_now)),
            end,
        ))  # fmt: skip

    def _rest_pieces(self, fixed: _Fixed) -> tuple[str, ...]:
        """:meth:`_rest_text`'s pieces: the text of :meth:`public` from ``status`` on (no
        opening brace) cut at the seq, the seat to act, the seats, the timer and the
        expiry (each encoded in its place as one of :data:`_REST_MARKS`)."""
        rest = self._public_rest(fixed, _SEATS_MARK)
        for key, mark in zip(("seq", "to_act", "timer", "expires"), _REST_MARKS, strict=True):
            rest[key] = mark
        text = dumps(rest)[1:]
        pieces = []
        for mark in (_REST_MARKS[0], _REST_MARKS[1], _SEATS_MARK, _REST_MARKS[2], _REST_MARKS[3]):
            before, found, text = text.partition(json.dumps(mark))
            assert found, mark  # random marks: each is there once
            pieces.append(before)
        pieces.append(text)
        return tuple(pieces)

    def _public_head(self, fixed: _Fixed) -> JSON:
        """:meth:`public` up to its options (the game's own, not a copy)."""
        return {
            "id": self.id,
            "game": fixed.name,
            "title": fixed.title,
            "players": fixed.players,
            "variant": fixed.variant,
            "options": fixed.options,
        }

    def _fixed_now(self) -> _Fixed:
        """:attr:`_fixed`, worked out anew if the game or the creation time changed."""
        fixed = self._fixed
        if fixed is None or fixed.game is not self.game or fixed.created is not self.created:
            fixed = self._fixed = _Fixed.of(self)
        return fixed

    def _public_rest(self, fixed: _Fixed, seats: object) -> JSON:
        """:meth:`public` from ``status`` on, with ``seats`` as its seats."""
        over = self.status == "finished"
        return {
            "status": self.status,
            "seq": self.seq,
            "to_act": self.to_act if self.status == "playing" else None,
            "created": fixed.created_text,
            "finished": iso(self.finished),
            "seed": str(self.seed) if over else None,
            "seats": seats,
            "outcome": self.state.outcome if over else None,
            "rules": fixed.rules,
            "memory_aids": self.memory_aids,
            "forced_moves": self.forced_moves,
            "selecting_phases": list(fixed.selecting_phases),
            "rated": self.rated,
            "rematch": self.rematch,
            "turn_timer": self.turn_timer,
            "correspondence": self.correspondence,
            "on_timeout": self.on_timeout,
            "timer": self.timer(),
            "away_after": self.away_after,
            "takeovers": [t.json() for t in self.takeovers],
            "expires": iso(self.expires()),
        }

    def _seats_text(self) -> str:
        """The JSON text of :meth:`public`'s seats (a bot seat's entry kept by seat, name,
        bot and language, a person's encoded anew: it changes with connections and time)."""
        lang = i18n.current()
        kept = self._bot_seat_texts
        texts = []
        for s in self.seats:
            if s.kind == "bot":
                key = (s.seat, s.name, s.bot, lang)
                text = kept.get(key)
                if text is None:
                    text = kept[key] = dumps(self._seat_fields(s))
            else:
                text = self._seat_text(s)
            texts.append(text)
        return "[" + ", ".join(texts) + "]"

    def _seat_text(self, s: StoredSeat) -> str:
        """The JSON text of a person's (or an open) seat's entry, worked out anew and
        encoded only when one of its values changed (each field has one type:
        ``_seat_fields`` makes its flags bools and its texts ``str`` or ``None``, so equal
        values are equal texts)."""
        fields = self._seat_fields(s)
        values = tuple(fields.values())
        kept = self._seat_texts.get(s.seat)
        if kept is not None and kept[0] == values:
            return kept[1]
        text = dumps(fields)
        self._seat_texts[s.seat] = (values, text)
        return text

    def selecting_phases(self) -> list[str]:
        """The phases where a click on a card selects it (``WebParts.selecting_phases``),
        where this table's options allow plays of several cards."""
        if self.game.move_grammar().max_run < 2:
            return []
        return sorted(type(self.game).web.selecting_phases)

    def forced_of(self, seat: int | None) -> list[int]:
        """The history indices of ``seat``'s own moves that played by themselves (nobody
        else learns that a person had a single legal move)."""
        if not self.forced or seat is None:
            return []
        return sorted(i for i, s in self.forced.items() if s == seat)

    def state_message(self, seat: int | None, public: JSON | None = None) -> JSON:
        """The ``state`` message for one seat (``None``: spectators)."""
        return self._message(seat, public if public is not None else self.public())

    def _message(self, seat: int | None, public: JSON | str) -> JSON:
        """:meth:`state_message` with ``public`` as its table (:data:`~.texts.TABLE_MARK`:
        the text is spliced in when the message is encoded)."""
        view = self.state.view(seat)
        if type(view) is LazyView:  # encoded whole: its lazy parts built once, together
            view.complete()  # (reading the history first built it twice)
        history = view.get("history") or []
        return {
            "type": "state",
            "seq": self.seq,
            "seat": seat,
            "status": self.status,
            "table": public,
            "view": view,
            "last": history[-1] if history else None,
            "forced": self.forced_of(seat),
            "devices": self.devices(seat),
        }

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token holds; ``None`` without a token; :class:`ApiError` if wrong."""
        if token is None:
            return None
        digest = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                return s.seat
        raise ApiError(
            "bad_token",
            _(
                "this token holds no seat at table {id}: use the token "
                "returned when you joined, or watch without one",
                id=self.id,
            ),
        )

    def broadcast(self) -> None:
        """Send every connection its own seat's state (each view computed once)."""
        if not self.connections:
            return
        made = _Made()
        for conn in list(self.connections):
            self._push_state(conn, made)

    def push_state(self, conn: Connection) -> None:
        """Queue ``conn``'s state message alone (a watcher's first, the answer to a
        ``sync`` or a ``stale`` move), as :meth:`broadcast` does."""
        self._push_state(conn, _Made())

    def _push_state(self, conn: Connection, made: _Made) -> None:
        """Queue ``conn``'s state message, its text shared with ``made``'s connections of
        the same seat and language (and history start).  A connection that takes deltas
        gets the history from the first entry its outbox did not send it (the same
        objects: :func:`~.texts.same_start`) and ``history_from``; the others the
        whole message, ``json.dumps``'s byte for byte."""
        key = (conn.seat, conn.lang)
        message = made.messages.get(key)
        if message is None:
            message = made.messages[key] = self._message_of(conn, made.publics)
        view = message.get("view")
        history = view.get("history") if isinstance(view, dict) else None
        if not conn.deltas or not isinstance(history, list):
            conn.push(self._text(made, conn.seat, conn.lang, message), state=True)
            return
        sent = conn.outbox.sent_mark
        start = same_start(sent, history) if isinstance(sent, list) else 0
        text = made.texts.get((conn.seat, conn.lang, start))
        if text is None:
            full = self._text(made, conn.seat, conn.lang, message) if start == 0 else None
            text = delta_text(message, start, full)
            if full is None:
                text = splice(text, TABLE_MARK_TEXT, made.publics[conn.lang])
            made.texts[conn.seat, conn.lang, start] = text
        conn.push(text, state=True, mark=history)

    def _text(self, made: _Made, seat: int | None, lang: str, message: JSON) -> str:
        """The whole text of ``seat``'s ``message`` in ``lang`` (made once per broadcast)."""
        text = made.texts.get((seat, lang, None))
        if text is None:
            kept = self.history_texts.get(seat)
            if kept is None:
                kept = self.history_texts[seat] = HistoryText()
            text = splice(state_text(message, kept), TABLE_MARK_TEXT, made.publics[lang])
            made.texts[seat, lang, None] = text
        return text

    def _message_of(self, conn: Connection, publics: dict[str, str]) -> JSON:
        """``conn``'s state message, in its language, its table a mark (``publics``: the
        public part's text by language, shared by one broadcast's connections, spliced in
        when the message is encoded)."""
        if conn.lang == i18n.current():
            return self._state_message(conn, publics)
        with use(conn.lang):
            return self._state_message(conn, publics)

    def _state_message(self, conn: Connection, publics: dict[str, str]) -> JSON:
        if conn.lang not in publics:
            publics[conn.lang] = self.public_text()
        return self._message(conn.seat, TABLE_MARK)


class _Made:
    """What one broadcast worked out, shared by its connections: the public part's text by
    language, each (seat, language)'s message, and its texts by history start (``None``:
    the whole message).  A plain class with slots: one is made a move."""

    __slots__ = ("messages", "publics", "texts")

    def __init__(self) -> None:
        self.publics: dict[str, str] = {}
        self.messages: dict[tuple[int | None, str], JSON] = {}
        self.texts: dict[tuple[int | None, str, int | None], str] = {}


@dataclass
class NewTable:
    """What a create request asks for (already parsed)."""

    game: str
    players: int | None
    variant: str | None
    options: dict[str, Any]
    seats: list[tuple[str, str | None]]
    seed: int | None
    memory_aids: bool = False
    anyone: frozenset[int] = frozenset()
    """Open seats anyone may take (the others only with their invite secret)."""
    turn_timer: Any = None
    """The turn timer asked for (checked by :func:`~tikki.server.tables.timers.parse_timer`)."""
    on_timeout: Any = None
    """What happens when it runs out (``wait`` or ``bot``)."""
    forced_moves: bool = False
    """A person's only legal move plays by itself."""
    rated: bool = False
    """A rated table (:mod:`tikki.server.ratings`): only signed-in people take its seats."""
    table_id: str | None = None
    """The id to store it under, chosen by the caller (a tournament notes it before the
    table is made); ``None``: a fresh one.  Taken already: ``unavailable``, nothing made."""
    account: int | None = None
    """The signed-in account asking for the table (``None``: a guest, or the server
    itself): a correspondence table needs one (:mod:`.correspondence`)."""
    tokens: dict[int, str] = field(default_factory=dict)
    """The token of each ``("human", name)`` seat, chosen by the caller (stored hashed):
    a person seated from the start, as if they had joined when it was made."""
