"""Pydantic models of every HTTP request and answer (they make ``/openapi.json``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from tikki.core import games
from tikki.i18n import _
from tikki.server.db import BOT_SPEC_MAX
from tikki.server.seeds import SEED_DIGITS, SEED_MAX

Int = Annotated[int, Field(strict=True)]
SeedNumber = Annotated[int, Field(strict=True, ge=0, le=SEED_MAX)]
SeedText = Annotated[str, Field(pattern=f"^[0-9]{{1,{SEED_DIGITS}}}$")]


class ErrorDetail(BaseModel):
    """What went wrong: a code, a message saying what would be right, the table's seq."""

    code: str = Field(examples=["stale"])
    message: str = Field(examples=["move made against state 11, the table is at state 12"])
    seq: int | None = Field(None, description="the table's current seq, where it matters")


class ErrorBody(BaseModel):
    """Every error answer."""

    detail: ErrorDetail


class SeatRequest(BaseModel):
    """One seat of a new table: open for a person, or a bot with its spec."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["open", "bot"]
    bot: str | None = Field(
        None,
        max_length=BOT_SPEC_MAX,
        description="bot spec: random, heuristic, ismcts:iterations=1000",
    )
    anyone: bool = Field(
        False,
        description="an open seat anyone may take (the lobby offers it); by default only "
        "the holder of its invite link may",
    )


FEATURED = [name for name, info in games().items() if info["featured"]][:1]
"""The example game of the schema: the one the lobby offers first."""


class CreateTable(BaseModel):
    """A new table: game, options, one entry per seat, an optional seed."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=40, examples=FEATURED)
    players: Int | None = Field(None, ge=1, le=16, description="default: one per seat")
    variant: str | None = Field(None, max_length=40, examples=["standard"])
    options: dict[str, Any] = Field(default_factory=dict, examples=[{"runs": False}])
    seats: list[SeatRequest] = Field(min_length=1, max_length=16)
    seed: SeedNumber | SeedText | None = Field(
        None,
        description="only for a table whose seats are all bots (else 400 seed_not_allowed): "
        "a whole number 0–2**128-1, or its decimal text; default: a secret random seed",
    )

    @field_validator("seed")
    @classmethod
    def _seed_number(cls, value: int | str | None) -> int | None:
        if isinstance(value, str):
            number = int(value)
            if number > SEED_MAX:
                raise ValueError(_("a seed is a whole number 0–{most}", most=SEED_MAX))
            return number
        return value

    memory_aids: bool = Field(
        False,
        description="a table option of the games that declare memory_aids (GET /api/games): "
        "show won tricks during a round",
    )
    forced_moves: bool = Field(
        False,
        description="a person's only legal move (a lone card, a forced take) plays by "
        "itself, as in the terminal (the lobby's default); false (the API's default): "
        "the client sends every move",
    )
    turn_timer: int | str | None = Field(
        None,
        description="seconds each person has per turn: null or 'off' (default), 30, 60 "
        "or 120; or hours a move at a correspondence table: '12h', '24h', '48h', '72h' "
        "(else 400 bad_timer)",
        examples=[60],
    )
    on_timeout: str | None = Field(
        None,
        max_length=10,
        description="when the timer runs out: 'wait' (default: the others may hand the "
        "seat to a bot) or 'bot' (a Medium bot plays that turn)",
    )
    rated: bool = Field(
        False,
        description="a rated table: only signed-in people may take its seats, and the "
        "result updates their ratings (the creator must be signed in)",
    )


class SeatInfo(BaseModel):
    """A seat as everyone sees it (never its token)."""

    seat: int
    kind: Literal["open", "human", "bot"]
    name: str | None
    bot: str | None
    anyone: bool = Field(description="an open seat anyone may take; false: invite only")
    connected: bool
    away_since: str | None = Field(
        None, description="a seated person without a connection: since when (UTC)"
    )
    may_hand_over: bool = Field(
        False,
        description="the others may now hand this person's seat to a bot: away for "
        "TABLE.away_after seconds, or their turn timer ran out",
    )
    stand_in: str | None = Field(
        None, description="the bot playing this person's seat now (resigned or away)"
    )
    resigned: bool = Field(False, description="the person resigned: a bot plays to the end")
    holder: Literal["account", "guest", "bot"] | None = Field(
        None,
        description="who holds the seat: a signed-in account, a guest or a bot (null: open)",
    )


class TurnTimer(BaseModel):
    """The running turn timer of the person to act."""

    seat: int
    seconds: int = Field(description="the table's turn timer")
    left: float = Field(description="seconds left when this message was made")
    timed_out: bool = Field(description="the timer ran out (on_timeout wait)")


class TakeoverInfo(BaseModel):
    """A bot that played a person's seat from move ``from`` to move ``to``."""

    model_config = ConfigDict(populate_by_name=True)
    seat: int
    start: int = Field(alias="from", description="the seq of the bot's first move")
    end: int | None = Field(alias="to", description="where the person took over again")
    bot: str
    why: Literal["resigned", "away", "timeout", "timer"]


class TableInfo(BaseModel):
    """A table as everyone sees it (``TABLE``): no token, and no seed before the end."""

    id: str
    game: str
    title: str
    players: int
    variant: str
    options: dict[str, Any]
    status: Literal["waiting", "playing", "finished"]
    seq: int = Field(description="moves applied so far")
    to_act: int | None = Field(description="the seat to act while playing")
    created: str
    finished: str | None
    seed: str | None = Field(
        description="null until the game is over, then the seed as decimal text"
    )
    seats: list[SeatInfo]
    outcome: dict[str, Any] | None
    rules: str = Field(description="the rulings revision the table plays")
    memory_aids: bool = Field(description="won tricks shown during a round (memory aids)")
    forced_moves: bool = Field(False, description="a person's only legal move plays by itself")
    selecting_phases: list[str] = Field(
        default_factory=list,
        description="phases whose plays may be several cards (sequences, runs) at this"
        " table: a page selects a clicked card there and plays the selection",
    )
    rated: bool = Field(
        False, description="a rated table: only signed-in people sit; results move ratings"
    )
    rematch: str | None = Field(
        None, description="the id of this finished table's rematch, once a player asked"
    )
    turn_timer: int | None = Field(None, description="seconds per turn; null: no timer")
    correspondence: bool = Field(
        False, description="a correspondence table: turn_timer is hours a move (12-72 h)"
    )
    on_timeout: Literal["wait", "bot"] = "wait"
    timer: TurnTimer | None = Field(None, description="the person to act's running timer")
    away_after: float = Field(
        120, description="seconds a person may be away before the others may hand the seat to a bot"
    )
    takeovers: list[TakeoverInfo] = Field(default_factory=list)
    expires: str | None = Field(
        None,
        description="while waiting: when the table is removed unless someone joins"
        " (POST /api/tables/{id}/keep starts the time again)",
    )
    queue: int | None = Field(
        None,
        description="GET /api/tables/{id} of a bot-only table whose bot waits for a search"
        " slot: its place in the queue behind people's tables (1: next)",
    )


class Invite(BaseModel):
    """The invite link of an open seat: its secret is in the fragment (``#invite=``)."""

    seat: int
    url: str = Field(examples=["/t/5f2c9a1e?seat=1#invite=Zm9vYmFy"])
    anyone: bool = Field(description="the seat is open to anyone: the link holds no secret")


class Created(BaseModel):
    """A created table and the invite links of its open seats."""

    table: TableInfo
    invites: list[Invite]


class TableList(BaseModel):
    """Lobby tables, newest first."""

    tables: list[TableInfo]


class JoinRequest(BaseModel):
    """Join an open seat under a display name."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=40, examples=["Anna"])
    invite: str | None = Field(
        None, max_length=100, description="the seat's invite secret (its link's #invite=)"
    )

    @field_validator("name")
    @classmethod
    def _printable(cls, value: str) -> str:
        value = value.strip()
        if not value or not value.isprintable():
            raise ValueError(_("a name is 1–40 printable characters, not only spaces"))
        return value


class Joined(BaseModel):
    """A joined seat: its token (keep it: it is the only proof of holding the seat)."""

    seat: int
    token: str
    table: TableInfo


class MoveRequest(BaseModel):
    """A move made against state ``seq``."""

    model_config = ConfigDict(extra="forbid")
    move: str = Field(min_length=1, max_length=200, examples=["7H"])
    seq: Int = Field(ge=0, examples=[12])


class StateMessage(BaseModel):
    """A seat's state (the WebSocket ``state`` message)."""

    type: Literal["state"]
    seq: int
    seat: int | None
    status: Literal["waiting", "playing", "finished"]
    table: TableInfo
    view: dict[str, Any]
    last: dict[str, Any] | None
    forced: list[int] = Field(
        default_factory=list,
        description="history indices of this seat's own moves that played by themselves",
    )
    devices: int = Field(0, description="connections (devices) that hold this seat now")


class Revoked(BaseModel):
    """A seat's new token after its device links were revoked."""

    seat: int
    token: str = Field(description="the seat's new token: every other device's is void")


class Hint(BaseModel):
    """A bot's suggestion for the seat to act."""

    move: str
    bot: str


class LevelGame(BaseModel):
    """Where a bot level that plays only some games plays one of them."""

    players: list[int] = Field(description="the player counts it plays")
    variants: list[str] = Field(description="the variants it plays (their options at default)")


class BotLevel(BaseModel):
    """A bot level the lobby offers."""

    spec: str
    label: str
    aliases: list[str] = Field(
        default_factory=list, description="specs that run for this level in some games"
    )
    games: dict[str, LevelGame] | None = Field(
        default=None,
        description="the games this level plays, with their player counts and variants"
        " (null: every game)",
    )


class RulesText(BaseModel):
    """A game's rules as markdown."""

    game: str = Field(examples=FEATURED)
    lang: str = Field(examples=["en"], description="the language of the text")
    markdown: str


class AnalysisJob(BaseModel):
    """An analysis of one seat's moves at a finished table (see ``tikki analyse``)."""

    table: str
    seat: int
    status: str = Field(description="running, done or failed")
    done: int = Field(description="decisions judged so far")
    total: int = Field(description="decisions to judge (0 until the record is read)")
    analysis: dict[str, Any] | None = Field(
        default=None,
        description="when done: game, seat, kind (not_loser or points), thresholds, accuracy,"
        " counts, worst (move numbers) and decisions (number, phase, played, values, best,"
        " loss, error, label, value)",
    )
    message: str | None = Field(default=None, description="why it failed")
    queue: int | None = Field(
        default=None,
        description="while its next decision waits for a search slot: its place in the queue"
        " of analyses and bot-only tables (1: next); people's tables go first",
    )


class AnalysedSeats(BaseModel):
    """The seats of a finished table whose analysis is running, done or kept."""

    table: str
    seats: list[int] = Field(description="the seats analysed (or being analysed), in order")


class GamesInfo(BaseModel):
    """The games with their players, variants and options, and the bot levels."""

    games: dict[str, dict[str, Any]]
    bots: list[BotLevel]


__all__ = [
    "AnalysedSeats",
    "BotLevel",
    "CreateTable",
    "Created",
    "ErrorBody",
    "ErrorDetail",
    "GamesInfo",
    "Hint",
    "Invite",
    "JoinRequest",
    "Joined",
    "MoveRequest",
    "RulesText",
    "SeatInfo",
    "SeatRequest",
    "StateMessage",
    "TableInfo",
    "TableList",
    "TakeoverInfo",
    "TurnTimer",
]
