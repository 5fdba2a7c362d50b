"""A person's (or a bot's) move: checked (seat, status, seq, turn, legality by the engine),
played on a copy of the state, stored, then swapped in; the one place where moves are
applied.  A person who moves takes their seat back from a stand-in."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import NoReturn

from tikki.core import IllegalMove
from tikki.i18n import _
from tikki.server.cluster import Ownership
from tikki.server.db import MoveConflict, MoveWrite, now
from tikki.server.errors import ApiError
from tikki.server.tables import turns
from tikki.server.tables.registry import Registry
from tikki.server.tables.standins import StandIns
from tikki.server.tables.storage import Clock, Storage
from tikki.server.tables.table import Table

log = logging.getLogger("tikki.server")


class Moves:
    """Check, apply, store and broadcast one move."""

    on_finished: Callable[[Table], None] | None = None
    """Called when a game ends by a move (the app settles a rated table's ratings)."""
    on_move: Callable[[bool, float], None] | None = None
    """Told of each applied move: by a bot?, seconds from its arrival to its broadcast
    (:mod:`tikki.server.metrics`)."""

    def __init__(
        self,
        registry: Registry,
        storage: Storage,
        stand_ins: StandIns,
        ownership: Ownership,
        clock: Clock,
    ) -> None:
        self.registry = registry
        self.storage = storage
        self.stand_ins = stand_ins
        self.ownership = ownership
        self.clock = clock

    async def move(
        self, table: Table, seat: int | None, move: str, seq: int, by_bot: bool = False
    ) -> None:
        """Check and apply one move of ``seat`` made against ``seq``; store and broadcast
        it (the caller wakes the table's bots).

        A person's move ends a stand-in bot that plays while they were away (they are
        back); a resigned person's is refused.  ``by_bot``: the seat's bot (or stand-in)
        moves, refused once the person has taken the seat back."""
        arrived = asyncio.get_running_loop().time()
        async with table.lock:
            seat, forced = turns.mover(table, seat, seq, by_bot)
            if not by_bot:
                await self.stand_ins.person_moves(table, seat, move)
            await self.apply(table, seat, move)
            if forced:
                table.forced[table.seq - 1] = seat
            if by_bot:
                await self.stand_ins.bot_moved(table, seat)
        table.broadcast()
        if self.on_move is not None:
            self.on_move(by_bot, asyncio.get_running_loop().time() - arrived)

    async def apply(self, table: Table, seat: int, move: str) -> None:
        """Play the move on a copy, store it, then swap the copy in (readers never see a
        state ahead of its seq, nor a move that is not stored)."""
        self.registry.check_owned(table)
        state = table.state.clone()
        try:
            state.play(move)
        except IllegalMove as err:
            raise ApiError("illegal_move", str(err), table.seq) from None
        outcome = state.outcome if state.is_over else None
        by_person = table.played or table.seats[seat].kind == "human"
        write = MoveWrite(table.id, table.seq, seat, state.moves[-1], outcome,
                          None if state.is_over else state.current_player, by_person)  # fmt: skip
        await self._store(table, write)
        table.state = state
        table.seq += 1
        table.turn_since = table.last_move = self.clock()
        table.played = by_person
        if outcome is not None:
            await self._finish(table)

    async def _store(self, table: Table, write: MoveWrite) -> None:
        """Store move ``table.seq`` (by group commit: acknowledged once committed);
        ``stale`` if another process stored it first, ``unavailable`` if the database
        fails (nothing changes then)."""
        try:
            await self.storage.add_move(write)
        except MoveConflict:
            await self._conflict(table)
        except ApiError as err:
            err.seq = table.seq
            raise
        except Exception:
            log.exception("storing move %d of table %s failed", table.seq, table.id)
            raise ApiError(
                "unavailable", _("the move could not be stored: try again"), table.seq
            ) from None

    async def _finish(self, table: Table) -> None:
        """The game ended by the move just applied."""
        table.status = "finished"
        table.finished = now()
        self.registry.retire(table)
        await self.ownership.release(table.id)
        await self.ownership.changed(table.id)
        if self.on_finished is not None:
            self.on_finished(table)

    async def _conflict(self, table: Table) -> NoReturn:
        """Another process stored move ``table.seq`` first (the lock holder changed under
        this one): forget the table, so that the next request reads it back with that
        move, and refuse this move as stale."""
        log.warning("table %s: move %d was stored by another process first; forgetting it",
                    table.id, table.seq)  # fmt: skip
        self.registry.forget(table.id)
        await self.ownership.release(table.id)
        raise ApiError(
            "stale",
            _(
                "another server stored move {seq} of table {id} first: ask for the current "
                "state and play again",
                seq=table.seq,
                id=table.id,
            ),
            table.seq,
        )
