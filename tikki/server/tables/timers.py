"""The tables' clocks, :class:`Timers`: turn timers (a bot plays the turn, or the others
may hand the seat to a bot), telling the others when a person has been away long enough,
and the expiry of tables waiting for players.  A timer's move is applied like any other
(:mod:`.ledger`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from tikki.i18n import _
from tikki.serve_settings import Policy
from tikki.server import botplay
from tikki.server.cluster import Ownership
from tikki.server.errors import ApiError
from tikki.server.tables.correspondence import HOURS, seconds_of
from tikki.server.tables.leave import Leave
from tikki.server.tables.ledger import Ledger
from tikki.server.tables.registry import Registry
from tikki.server.tables.standins import StandIns, unattended
from tikki.server.tables.storage import Storage
from tikki.server.tables.table import EXPIRED, STAND_IN, Table, Takeover

log = logging.getLogger("tikki.server")

TICK = 1.0
"""Seconds between two checks of the turn timers."""
TIMERS = (30, 60, 120)
"""The turn timers (seconds) a table may have; no timer is the default."""
ON_TIMEOUT = ("wait", "bot")
"""What happens when a turn timer runs out: the others may hand the seat to a bot
(``wait``), or a bot plays that turn (``bot``)."""


def allowed_timers(min_timer: int) -> str:
    """The turn timers a server accepts, in words (the correspondence allowances too)."""
    hours = ", ".join(f"'{h}h'" for h in HOURS)
    return _("{live}, or hours a move: {hours}", live=_live_timers(min_timer), hours=hours)


def _live_timers(min_timer: int) -> str:
    """The live turn timers a server accepts, in words."""
    timers = ", ".join(str(t) for t in TIMERS)
    if min_timer < TIMERS[0]:
        return _(
            "off (null), {timers} seconds, or (this server) any whole number {low}–{high}",
            timers=timers,
            low=min_timer,
            high=TIMERS[-1],
        )
    return _("off (null), {timers} seconds", timers=timers)


def parse_timer(value: Any, on_timeout: Any, min_timer: int) -> tuple[int | None, str]:
    """A create request's ``turn_timer`` and ``on_timeout`` checked: ``(seconds or None,
    on_timeout)``; :class:`ApiError` ``bad_timer`` names the allowed values."""
    if on_timeout is None:
        on_timeout = "wait"
    if on_timeout not in ON_TIMEOUT:
        raise ApiError(
            "bad_timer",
            _(
                "on_timeout is 'wait' (the others may hand the seat to a bot) or 'bot' (a bot "
                "plays that turn), not {value!r}",
                value=on_timeout,
            ),
        )
    if value is None or value == "off":
        return None, on_timeout
    allowance = seconds_of(value)  # a correspondence table: hours a move
    if allowance is not None:
        return allowance, on_timeout
    seconds = value if isinstance(value, int) and not isinstance(value, bool) else None
    if seconds is None and isinstance(value, str) and value.isascii() and value.isdigit():
        seconds = int(value)
    fits = seconds is not None and (
        seconds in TIMERS or (min_timer < TIMERS[0] and min_timer <= seconds <= TIMERS[-1])
    )
    if not fits:
        raise ApiError(
            "bad_timer",
            _(
                "turn_timer is {allowed}, not {value!r}",
                allowed=allowed_timers(min_timer),
                value=value,
            ),
        )
    return seconds, on_timeout


class Timers:
    """Turn timers, away announcements and the expiry of waiting tables."""

    def __init__(
        self,
        registry: Registry,
        storage: Storage,
        ledger: Ledger,
        leave: Leave,
        stand_ins: StandIns,
        ownership: Ownership,
        policy: Policy,
        wake: Callable[[Table], None],
    ) -> None:
        self.registry = registry
        self.storage = storage
        self.ledger = ledger
        self.leave = leave
        self.stand_ins = stand_ins
        self.wake = wake
        """Start a table's bots."""
        self.ownership = ownership
        self.policy = policy
        self.clock = registry.clock

    async def tick_loop(self) -> None:
        """Check the turn timers every :data:`TICK` seconds."""
        while True:
            await asyncio.sleep(TICK)
            try:
                await self.tick()
            except Exception:
                log.exception("checking the turn timers failed")

    async def tick(self) -> list[str]:
        """Act on every turn timer that ran out (on the manager's clock): a bot plays the
        turn (``on_timeout`` ``bot``), or the others learn that they may hand the seat to
        a bot (``wait``); tell the tables whose people have now been away long enough.
        Returns the ids of the tables whose timers were acted on."""
        due = []
        now = self.clock()
        away = timedelta(seconds=self.policy.away_after)
        for table in list(self.registry.tables.values()):
            if table.status != "playing":
                continue
            if _timer_ran_out(table, now):
                due.append(table)
            elif table.away_since and now - min(table.away_since.values()) >= away:
                self._announce_away(table)
        acted = []
        for table in due:
            if await self._time_out(table):
                acted.append(table.id)
        for table in list(self.registry.tables.values()):
            if table.away_since and unattended(table):
                try:
                    if await self.leave.hand_over_unattended(table) and table.id not in acted:
                        acted.append(table.id)
                except ApiError as err:
                    log.error("handing table %s's away seats to a bot failed: %s",
                              table.id, err.message)  # fmt: skip
        return acted

    @staticmethod
    def _announce_away(table: Table) -> None:
        """Broadcast once when seats become ones the others may hand to a bot."""
        ready = {s.seat for s in table.seats if table.hand_over_in(s) == 0}
        if ready - table.announced:
            table.broadcast()
        table.announced = ready

    async def _time_out(self, table: Table) -> bool:
        """Act on ``table``'s turn timer if it ran out; whether it did."""
        async with table.lock:
            timer = table.timer()
            if timer is None or timer["left"] > 0 or timer["timed_out"]:
                return False
            seat, seq = int(timer["seat"]), table.seq
            table.timed_out = seq
            if table.on_timeout == "bot":
                view = table.state.view(seat)
                move = botplay.choose(STAND_IN, table.game, view,
                                      botplay.bot_seed(table.seed, seat, seq, "timer"))  # fmt: skip
                try:
                    await self.ledger.apply(table, seat, move)
                except ApiError as err:
                    table.timed_out = None  # try again at the next tick
                    log.error("timer move at table %s failed: %s", table.id, err.message)
                    return False
                note = Takeover(seat, seq, STAND_IN, "timer", seq + 1)
                await self.stand_ins.note(table, note)  # the move stands
            log.info("table %s: seat %d's turn timer ran out at move %d (%s)",
                     table.id, seat, seq, table.on_timeout)  # fmt: skip
        table.broadcast()
        self.wake(table)
        return True

    async def sweep(self) -> None:
        """Expire waiting tables now and then (every tenth of the expiry, at most a minute)."""
        every = min(60.0, self.policy.waiting_expiry / 10)
        while True:
            await self.expire()
            await asyncio.sleep(every)

    async def expire(self) -> list[str]:
        """Remove the tables past their expiry (:meth:`Table.expires`: nobody played
        there for minutes, or nobody moved for a day); their connections are closed with
        4410.  Returns their ids."""
        moment = self.clock()
        old = [
            t
            for t in self.registry.tables.values()
            if (e := t.expires()) is not None and e <= moment
        ]
        gone = []
        for table in old:
            async with table.lock:
                if (e := table.expires()) is None or e > self.clock():
                    continue
                try:
                    await self.storage.run(self.storage.store.drop_table, table.id)
                except Exception:
                    log.exception("expiring table %s failed; it stays", table.id)
                    continue
                self.registry.tables.pop(table.id, None)
                for conn in table.connections:
                    conn.close(EXPIRED)
                gone.append(table.id)
                await self.ownership.release(table.id)
                await self.ownership.changed(table.id)
        if gone:
            log.info("expired %d waiting tables", len(gone))
        return gone

    def keep_open(self, table: Table, seat: int | None) -> None:
        """A seated person keeps a waiting table open: its expiry starts again."""
        if seat is None:
            raise ApiError(
                "spectator",
                _("only a person seated at a waiting table can keep it open: send your token"),
            )
        if table.status != "waiting":
            raise ApiError(
                "not_waiting",
                _("table {id} is not waiting for players: it needs no keeping open", id=table.id),
                table.seq,
            )
        table.kept = self.clock()
        table.broadcast()


def _timer_ran_out(table: Table, now: datetime) -> bool:
    """Whether the table's turn timer ran out by ``now`` and was not acted on yet (a
    quick test first: the server asks it of every table every second)."""
    if table.turn_timer is None or table.turn_since is None or table.timed_out == table.seq:
        return False
    if not table.played and table.lapses_unplayed:
        return False  # nobody moved within the first allowance: the table expires instead
    if now < table.turn_since + timedelta(seconds=table.turn_timer):
        return False
    timer = table.timer()
    return timer is not None and timer["left"] <= 0
