"""People who leave a table: resigning, handing an away seat to a bot, coming back.
:class:`Leave` takes these requests; the bots that then play the seats are stand-ins
(:mod:`tikki.server.tables.standins`)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from tikki.i18n import _
from tikki.server.db import StoredSeat
from tikki.server.errors import ApiError
from tikki.server.tables.standins import StandIns, unattended
from tikki.server.tables.table import Table, active

log = logging.getLogger("tikki.server")


class Leave:
    """Resign, hand a seat to a bot, come back; ``wake`` starts a table's bots."""

    def __init__(self, stand_ins: StandIns, wake: Callable[[Table], None]) -> None:
        self.stand_ins = stand_ins
        self.wake = wake

    async def resign(self, table: Table, seat: int | None) -> None:
        """Resign ``seat``: a Medium bot plays it to the end (the record says so); its
        person can still watch with the token."""
        seat = _check_playing(table, seat, resigning=True)
        async with table.lock:
            await self.stand_ins.resign(table, seat)
        log.info("table %s: seat %d resigned at move %d; a bot plays it", table.id, seat, table.seq)
        table.broadcast()
        self.wake(table)

    async def hand_to_bot(self, table: Table, by: int | None, seat: int) -> None:
        """Hand the seat of a person who is away (for ``Policy.away_after``) or whose turn
        timer ran out to a Medium bot, at the request of another seated person."""
        by = _check_playing(table, by, resigning=False)
        if not 0 <= seat < len(table.seats):
            raise ApiError(
                "unknown_seat",
                _(
                    "table {table_id} has no seat {seat}: seats are 0–{last}",
                    table_id=table.id,
                    seat=seat,
                    last=len(table.seats) - 1,
                ),
            )
        if seat == by:
            raise ApiError("not_away", _("this is your own seat: resign to hand it to a bot"))
        async with table.lock:
            held = table.seats[seat]
            wait = table.hand_over_in(held)
            if wait is None or wait > 0:
                raise ApiError("not_away", _not_away(table, held, wait), table.seq)
            why = await self.stand_ins.hand_over(table, seat)
        log.info("table %s: seat %d (%s) handed to a bot by seat %d (%s) at move %d",
                 table.id, seat, why, by, held.name, table.seq)  # fmt: skip
        table.broadcast()
        self.wake(table)

    async def hand_over_unattended(self, table: Table) -> bool:
        """Hand every :func:`~tikki.server.tables.standins.unattended` seat of ``table``
        to a bot; whether any was."""
        async with table.lock:
            seats = unattended(table)
            for seat in seats:
                await self.stand_ins.hand_over(table, seat)
                log.info("table %s: seat %d handed to a bot by the server at move %d "
                         "(nobody who still plays is here)", table.id, seat, table.seq)  # fmt: skip
        if seats:
            table.broadcast()
            self.wake(table)
        return bool(seats)

    async def come_back(self, table: Table, seat: int | None) -> bool:
        """The person of ``seat`` is back: a stand-in that played while they were away
        stops at once.  Returns whether one did."""
        if seat is None:
            return False
        async with table.lock:
            back = await self.stand_ins.take_back(table, seat)
        if back:
            table.broadcast()
        return back


def _check_playing(table: Table, seat: int | None, resigning: bool) -> int:
    """``seat`` if it may resign (``resigning``) or hand a seat to a bot now."""
    if seat is None:
        if resigning:
            message = _("spectators cannot resign: only a seat's token can")
        else:
            message = _("spectators cannot hand a seat to a bot: only a seat's token can")
        raise ApiError("spectator", message)
    if table.status != "playing":
        over = table.status == "finished"
        raise ApiError(
            "finished" if over else "not_started",
            _not_playing(table.id, over, resigning),
            table.seq,
        )
    return seat


def _not_playing(table: str, over: bool, resigning: bool) -> str:
    """Why a table that is not being played refuses a resign or a hand-over."""
    if over and resigning:
        return _("table {table} is finished: only a game being played lets you resign", table=table)
    if over:
        return _(
            "table {table} is finished: only a game being played lets you hand a seat to a bot",
            table=table,
        )
    if resigning:
        return _("table {table} is waiting: only a game being played lets you resign", table=table)
    return _(
        "table {table} is waiting: only a game being played lets you hand a seat to a bot",
        table=table,
    )


def _not_away(table: Table, held: StoredSeat, wait: float | None) -> str:
    """Why ``held`` may not be handed to a bot (``wait``: seconds until it may)."""
    who = held.name or held.kind
    seat = held.seat
    if held.kind != "human":
        return _(
            "seat {seat} ({who}) is not a person's seat: only a person who is away can be replaced",
            seat=seat,
            who=who,
        )
    if active(table.takeovers, held.seat) is not None:
        return _("a bot already plays seat {seat} ({who})", seat=seat, who=who)
    if wait is None:
        return _(
            "seat {seat} ({who}) is here: a seat can be handed to a bot after its person has "
            "been away {away} s, or when their turn timer ran out",
            seat=seat,
            who=who,
            away=f"{table.away_after:g}",
        )
    return _(
        "seat {seat} ({who}) has been away a short while: you may hand it to a bot in {wait} s",
        seat=seat,
        who=who,
        wait=f"{wait:g}",
    )
