"""Stand-ins: a bot (:data:`~tikki.server.tables.table.STAND_IN`, the Medium level)
playing a person's seat.  Each stand-in is a :class:`~tikki.server.tables.table.Takeover`:
which seat, from which move (``seq``) to which (``None`` while it plays on), which bot
and why:

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
``TABLE.takeovers`` and written into the game's record.  :class:`StandIns` starts, stores
and ends them (the lock of the table is held by its caller); the people's requests that
lead to them are :mod:`tikki.server.tables.leave`, the timers that start the ``timeout``
and ``timer`` ones :mod:`tikki.server.tables.timers`."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from tikki.core import IllegalMove
from tikki.i18n import _
from tikki.server import botplay
from tikki.server.errors import ApiError
from tikki.server.tables.registry import Registry
from tikki.server.tables.storage import Clock, Storage
from tikki.server.tables.table import STAND_IN, TAKEN_BACK, Table, Takeover, active

log = logging.getLogger("tikki.server")


class StandIns:
    """Start, store and end the bots that play people's seats."""

    def __init__(self, registry: Registry, storage: Storage, clock: Clock) -> None:
        self.registry = registry
        self.storage = storage
        self.clock = clock

    async def store(self, table: Table, takeovers: list[Takeover]) -> None:
        """Store a table's new stand-ins, then use them (nothing changes if storing fails)."""
        self.registry.check_owned(table)
        stored = [t.json() for t in takeovers]
        await self.storage.write(
            "the seat's bot", self.storage.store.set_takeovers, table.id, stored
        )
        table.takeovers = takeovers

    async def note(self, table: Table, takeover: Takeover) -> None:
        """Add a stand-in that has already played (its move stands even if storing it
        fails: the log says why)."""
        try:
            await self.store(table, [*table.takeovers, takeover])
        except ApiError:
            table.takeovers = [*table.takeovers, takeover]

    async def hand_over(self, table: Table, seat: int) -> str:
        """Give ``seat`` (which may be handed over now) a stand-in and return why:
        ``timeout`` when its person is here but their turn timer ran out (the bot plays
        that one turn), ``away`` when they have no connection (the bot plays until they
        come back)."""
        here = seat not in table.away_since
        timed_out = table.timed_out == table.seq and table.state.current_player == seat
        why = "timeout" if timed_out and here else "away"
        takeover = Takeover(seat, table.seq, stand_in(table), why)
        await self.store(table, [*table.takeovers, takeover])
        return why

    async def resign(self, table: Table, seat: int) -> None:
        """A Medium bot plays ``seat`` to the end; refused if the seat resigned already."""
        now_playing = active(table.takeovers, seat)
        if now_playing is not None and now_playing.why == "resigned":
            message = _(
                "you resigned at move {move}: a bot plays your seat to the end",
                move=now_playing.start,
            )
            raise ApiError("resigned", message, table.seq)
        kept = ended(table.takeovers, seat, table.seq)
        await self.store(table, [*kept, Takeover(seat, table.seq, stand_in(table), "resigned")])

    async def end(self, table: Table, seat: int) -> None:
        """End the stand-in of ``seat`` now (its move stands even if storing the end
        fails: the log says why)."""
        takeovers = ended(table.takeovers, seat, table.seq)
        try:
            await self.store(table, takeovers)
        except ApiError:
            table.takeovers = takeovers

    @asynccontextmanager
    async def around_move(
        self, table: Table, seat: int, move: str, by_bot: bool
    ) -> AsyncIterator[None]:
        """The stand-in of ``seat`` around one move made there (the body applies it):
        before a person's move their away stand-in ends (a resigned seat is refused);
        after a bot's move a ``timeout`` stand-in, which plays that one turn, ends (the
        person is here)."""
        now_playing = active(table.takeovers, seat)
        if now_playing is not None and not by_bot:
            await self._person_moves(table, now_playing, move)
        yield
        if now_playing is not None and by_bot and now_playing.why == "timeout":
            await self.end(table, seat)

    async def _person_moves(self, table: Table, now_playing: Takeover, move: str) -> None:
        """The person whose seat ``now_playing`` plays moves: refused if they resigned,
        else their stand-in ends (not for an illegal move, which leaves it playing)."""
        if now_playing.why not in TAKEN_BACK:
            message = _(
                "you resigned at move {move}: a bot plays your seat to the end; you can "
                "still watch",
                move=now_playing.start,
            )
            raise ApiError("resigned", message, table.seq)
        _check_legal(table, move)
        await self._back(table, now_playing.seat)

    async def take_back(self, table: Table, seat: int) -> bool:
        """End the away stand-in of ``seat`` (its person is back; a resigned seat's bot
        plays on).  Returns whether a stand-in ended."""
        now_playing = active(table.takeovers, seat)
        if now_playing is None or now_playing.why not in TAKEN_BACK:
            return False
        await self._back(table, seat)
        return True

    async def _back(self, table: Table, seat: int) -> None:
        """The away stand-in of ``seat`` ends: its person plays again."""
        await self.store(table, ended(table.takeovers, seat, table.seq))
        table.turn_since = self.clock()
        log.info("table %s: seat %d is back at move %d; its bot stops", table.id, seat, table.seq)


def ended(takeovers: list[Takeover], seat: int, seq: int) -> list[Takeover]:
    """A copy of ``takeovers`` with the stand-in of ``seat`` ended at ``seq``."""
    out = []
    for takeover in takeovers:
        if takeover.seat == seat and takeover.end is None:
            takeover = Takeover(takeover.seat, takeover.start, takeover.bot, takeover.why, seq)
        out.append(takeover)
    return out


def _check_legal(table: Table, move: str) -> None:
    """Refuse (``illegal_move``) a move the engine would refuse, changing nothing."""
    try:
        table.state.clone().play(move)
    except IllegalMove as err:
        raise ApiError("illegal_move", str(err), table.seq) from None


def unattended(table: Table) -> list[int]:
    """The away seats the server hands to a bot by itself: seats that may be handed over,
    whose person has no connection, at a table where no other person who still plays
    (seated, present, no stand-in) is left to do it."""
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


def stand_in(table: Table) -> str:
    """The bot that plays a person's seat to the end or until they come back: the Medium
    level as this game runs it (a modest search where the game has no heuristic of its
    own, :func:`botplay.level_spec`)."""
    return botplay.level_spec(STAND_IN, table.game)
