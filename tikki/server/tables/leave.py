"""People who leave a table (issue #12): resigning, away seats, stand-ins.

A *stand-in* is a bot (:data:`STAND_IN`, the Medium level) playing a person's seat. Each
stand-in is a :class:`Takeover`: which seat, from which move (``seq``) to which (``None``
while it plays on), which bot and why:

- ``resigned``: the person resigned; the bot plays to the end;
- ``away``: the person has no connection (for ``away_after`` seconds, or when their turn
  timer ran out) and the seat was handed to a bot: by another seated person (one who
  resigned and still watches too), or by the server itself when no other person who still
  plays is at the table, so that every table finishes; the bot plays until they come back;
- ``timeout``: the person is here, but their turn timer ran out (a table whose
  ``on_timeout`` is ``wait``) and another person let a bot play: the bot plays that one
  turn only (a timer running out is not being away);
- ``timer``: the turn timer ran out at a table whose ``on_timeout`` is ``bot``: the bot
  plays that one turn.

``away`` and ``timeout`` stand-ins end when the person comes back (reconnects with the
seat's token, or plays).  The takeovers are stored with the table, published in
``TABLE.takeovers`` and written into the game's record.

:class:`LeaveMixin` is the table manager's part: resigning, handing a seat to a bot (by
another person, or by the server when nobody who still plays is left), coming back.  The
records are :class:`~tikki.server.tables.table.Takeover`; the turn timers, which start
the ``timeout`` and ``timer`` stand-ins, are :mod:`tikki.server.tables.timers`.
"""

from __future__ import annotations

import logging

from tikki.i18n import _
from tikki.server import botplay
from tikki.server.db import StoredSeat
from tikki.server.errors import ApiError
from tikki.server.tables.base import ManagerBase
from tikki.server.tables.table import STAND_IN, TAKEN_BACK, Table, Takeover, active, ended

log = logging.getLogger("tikki.server")


class LeaveMixin(ManagerBase):
    """People who leave: resign, hand a seat to a bot, come back (stand-ins stored with
    the table)."""

    async def _set_takeovers(self, table: Table, takeovers: list[Takeover]) -> None:
        """Store a table's new stand-ins, then use them (nothing changes if storing fails)."""
        self._check_owned(table)
        stored = [t.json() for t in takeovers]
        await self._write("the seat's bot", self.store.set_takeovers, table.id, stored)
        table.takeovers = takeovers

    @staticmethod
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

    async def resign(self, table: Table, seat: int | None) -> None:
        """Resign ``seat``: a Medium bot plays it to the end (the record says so); its
        person can still watch with the token."""
        seat = self._check_playing(table, seat, resigning=True)
        async with table.lock:
            now_playing = active(table.takeovers, seat)
            if now_playing is not None and now_playing.why == "resigned":
                message = _(
                    "you resigned at move {move}: a bot plays your seat to the end",
                    move=now_playing.start,
                )
                raise ApiError("resigned", message, table.seq)
            kept = ended(table.takeovers, seat, table.seq)
            await self._set_takeovers(
                table, [*kept, Takeover(seat, table.seq, _stand_in(table), "resigned")]
            )
        log.info("table %s: seat %d resigned at move %d; a bot plays it", table.id, seat, table.seq)
        table.broadcast()
        self._wake_bots(table)

    async def hand_to_bot(self, table: Table, by: int | None, seat: int) -> None:
        """Hand the seat of a person who is away (for :attr:`Policy.away_after`) or whose
        turn timer ran out to a Medium bot, at the request of another seated person."""
        by = self._check_playing(table, by, resigning=False)
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
            why = await self._hand_over(table, seat)
        log.info("table %s: seat %d (%s) handed to a bot by seat %d (%s) at move %d",
                 table.id, seat, why, by, held.name, table.seq)  # fmt: skip
        table.broadcast()
        self._wake_bots(table)

    async def _hand_over(self, table: Table, seat: int) -> str:
        """Give ``seat`` (which may be handed over now; the lock is held) a stand-in and
        return why: ``timeout`` when its person is here but their turn timer ran out (the
        bot plays that one turn), ``away`` when they have no connection (the bot plays
        until they come back)."""
        here = seat not in table.away_since
        timed_out = table.timed_out == table.seq and table.state.current_player == seat
        why = "timeout" if timed_out and here else "away"
        takeover = Takeover(seat, table.seq, _stand_in(table), why)
        await self._set_takeovers(table, [*table.takeovers, takeover])
        return why

    @staticmethod
    def unattended(table: Table) -> list[int]:
        """The away seats the server hands to a bot by itself: seats that may be handed
        over, whose person has no connection, at a table where no other person who
        still plays (seated, present, no stand-in) is left to do it."""
        if table.status != "playing":
            return []
        still_playing = [
            s.seat
            for s in table.seats
            if s.kind == "human" and table.connected(s) and active(table.takeovers, s.seat) is None
        ]
        return [
            s.seat
            for s in table.seats
            if s.seat in table.away_since
            and table.hand_over_in(s) == 0
            and not [p for p in still_playing if p != s.seat]
        ]

    async def _hand_over_unattended(self, table: Table) -> bool:
        """Hand every :meth:`unattended` seat of ``table`` to a bot; whether any was."""
        async with table.lock:
            seats = self.unattended(table)
            for seat in seats:
                await self._hand_over(table, seat)
                log.info("table %s: seat %d handed to a bot by the server at move %d "
                         "(nobody who still plays is here)", table.id, seat, table.seq)  # fmt: skip
        if seats:
            table.broadcast()
            self._wake_bots(table)
        return bool(seats)

    async def come_back(self, table: Table, seat: int | None) -> bool:
        """The person of ``seat`` is back: a stand-in that played while they were away
        stops at once.  Returns whether one did."""
        if seat is None:
            return False
        async with table.lock:
            back = await self._take_back(table, seat, refuse_resigned=False)
        if back:
            table.broadcast()
        return back

    async def _end_stand_in(self, table: Table, seat: int) -> None:
        """End the stand-in of ``seat`` now (the lock is held; its move stands even if
        storing the end fails: the log says why)."""
        takeovers = ended(table.takeovers, seat, table.seq)
        try:
            await self._set_takeovers(table, takeovers)
        except ApiError:
            table.takeovers = takeovers

    async def _take_back(self, table: Table, seat: int, refuse_resigned: bool = True) -> bool:
        """End the away stand-in of ``seat`` (the lock is held); refuse a resigned seat."""
        stand_in = active(table.takeovers, seat)
        if stand_in is None:
            return False
        if stand_in.why not in TAKEN_BACK:
            if refuse_resigned:
                raise ApiError(
                    "resigned",
                    _(
                        "you resigned at move {move}: a bot plays your seat to the end; you can "
                        "still watch",
                        move=stand_in.start,
                    ),
                    table.seq,
                )
            return False
        await self._set_takeovers(table, ended(table.takeovers, seat, table.seq))
        table.turn_since = self.clock()
        log.info("table %s: seat %d is back at move %d; its bot stops", table.id, seat, table.seq)
        return True


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


def _stand_in(table: Table) -> str:
    """The bot that plays a person's seat to the end or until they come back: the Medium
    level as this game runs it (a modest search where the game has no heuristic of its
    own, :func:`botplay.level_spec`)."""
    return botplay.level_spec(STAND_IN, table.game)
