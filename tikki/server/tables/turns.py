"""Whose turn it is and who plays it: the checks before a move or a hint, and which bot
(its own, a person's stand-in, or :data:`FORCED`) is to act.  Plain functions of a
:class:`~tikki.server.tables.table.Table`, shared by the moves, the bots and the hints."""

from __future__ import annotations

from tikki.i18n import _
from tikki.server.errors import ApiError
from tikki.server.tables.table import Table, active, seat_list

FORCED = "forced"
"""What plays a person's forced move (their only legal move) by itself, as the terminal
does: the table option ``forced_moves`` (the lobby's default; off for an API client that
does not ask, which sends every move itself)."""


def bot_spec(table: Table, seat: int) -> str | None:
    """The bot that plays ``seat``: its own, or the stand-in for its person."""
    held = table.seats[seat]
    if held.kind == "bot":
        return held.bot
    stand_in = active(table.takeovers, seat) if held.kind == "human" else None
    return None if stand_in is None else stand_in.bot


def forced(table: Table, seat: int) -> bool:
    """Whether ``seat`` is a person (no bot playing for them) to act with a single legal
    move at a table that plays forced moves by themselves."""
    return (
        table.forced_moves
        and table.seats[seat].kind == "human"
        and active(table.takeovers, seat) is None
        and table.state.current_player == seat
        and len(table.state.legal_moves()) == 1
    )


def bot_to_act(table: Table) -> tuple[int, str] | None:
    """The seat to act and its bot, when a bot (or a stand-in, or a forced move) is to act."""
    if table.status != "playing":
        return None
    seat = table.state.current_player
    if seat is None:
        return None
    spec = bot_spec(table, seat)
    if spec is None and forced(table, seat):
        return seat, FORCED
    return None if spec is None else (seat, spec)


def mover(table: Table, seat: int | None, seq: int, by_bot: bool) -> tuple[int, bool]:
    """The seat that may move now against ``seq`` and whether its move is a forced one the
    server plays for its person; a bot (``by_bot``) is refused once the person has taken
    the seat back."""
    seat = check_turn(table, seat, seq, moving=True)
    if not by_bot:
        return seat, False
    bot = bot_to_act(table)
    if bot is None:
        message = _("seat {seat} is played by its person again", seat=seat)
        raise ApiError("not_your_turn", message)
    return seat, bot[1] == FORCED


def check_turn(table: Table, seat: int | None, seq: int | None, moving: bool) -> int:
    """``seat`` if it may play (``moving``) or ask for a hint now, against ``seq`` (``None``:
    any); else the :class:`ApiError` that says why not."""
    verb = "play" if moving else "ask for a hint"
    if seat is None:
        raise ApiError(
            "spectator",
            _("spectators cannot {verb}: join an open seat and use its token", verb=verb),
            table.seq,
        )
    if table.status == "waiting":
        raise ApiError(
            "not_started",
            _(
                "the game has not started: seats {seat_list} are still open; "
                "wait until every seat is taken",
                seat_list=seat_list(table.open_seats),
            ),
            table.seq,
        )
    if table.status == "finished":
        raise ApiError("finished", _("the game is over: GET its record to review it"), table.seq)
    if seq is not None and seq != table.seq:
        raise ApiError(
            "stale",
            _(
                "move made against state {seq}, the table is at state {now}: "
                "send your move again with the current seq",
                seq=seq,
                now=table.seq,
            ),
            table.seq,
        )
    to_act = table.state.current_player
    if to_act != seat:
        raise ApiError(
            "not_your_turn",
            _(
                "it is seat {to_act}'s turn, not yours (seat {seat}): wait for your turn",
                to_act=to_act,
                seat=seat,
            ),
            table.seq,
        )
    return seat
