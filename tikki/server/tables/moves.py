"""A person's (or a bot's) move: checked (seat, status, seq, turn, legality by the engine),
played on a copy of the state, stored, then swapped in; the one place where moves are
applied.  :class:`MovesMixin` builds on :class:`~tikki.server.tables.leave.LeaveMixin`: a
person who moves takes their seat back from a stand-in."""

from __future__ import annotations

import asyncio
import logging
from typing import NoReturn

from tikki.core import IllegalMove
from tikki.i18n import _
from tikki.server.db import MoveConflict, now
from tikki.server.errors import ApiError
from tikki.server.tables.leave import LeaveMixin
from tikki.server.tables.table import TAKEN_BACK, Table, active, seat_list

log = logging.getLogger("tikki.server")


class MovesMixin(LeaveMixin):
    """Check, apply, store and broadcast one move."""

    async def move(
        self, table: Table, seat: int | None, move: str, seq: int, by_bot: bool = False
    ) -> None:
        """Check and apply one move of ``seat`` made against ``seq``; store and broadcast it.

        A person's move ends a stand-in bot that plays while they were away (they are
        back); a resigned person's is refused.  ``by_bot``: the seat's bot (or stand-in)
        moves, refused once the person has taken the seat back."""
        arrived = asyncio.get_running_loop().time()
        async with table.lock:
            self._check_turn(table, seat, seq, moving=True)
            assert seat is not None
            forced = by_bot and self._forced(table, seat)
            if by_bot and not forced and self._bot_spec(table, seat) is None:
                message = _("seat {seat} is played by its person again", seat=seat)
                raise ApiError("not_your_turn", message)
            if not by_bot:
                stand_in = active(table.takeovers, seat)
                if stand_in is not None and stand_in.why in TAKEN_BACK:
                    _check_legal(table, move)  # an illegal move leaves the bot playing
                await self._take_back(table, seat)
            await self._apply(table, seat, move)
            if forced:
                table.forced[table.seq - 1] = seat
            stand_in = active(table.takeovers, seat) if by_bot else None
            if stand_in is not None and stand_in.why == "timeout":
                await self._end_stand_in(table, seat)  # that one turn only: the person is here
        table.broadcast()
        self._wake_bots(table)
        if self.on_move is not None:
            self.on_move(by_bot, asyncio.get_running_loop().time() - arrived)

    @staticmethod
    def _check_turn(table: Table, seat: int | None, seq: int | None, moving: bool) -> None:
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
            raise ApiError(
                "finished", _("the game is over: GET its record to review it"), table.seq
            )
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

    async def _apply(self, table: Table, seat: int, move: str) -> None:
        """Play the move on a copy, store it, then swap the copy in (readers never see a
        state ahead of its seq, nor a move that is not stored)."""
        self._check_owned(table)
        state = table.state.clone()
        try:
            state.play(move)
        except IllegalMove as err:
            raise ApiError("illegal_move", str(err), table.seq) from None
        outcome = state.outcome if state.is_over else None
        played = state.moves[-1]
        try:
            await self._db(self.store.add_move, table.id, table.seq, seat, played, outcome)
        except MoveConflict:
            await self._conflict(table)
        except Exception:
            log.exception("storing move %d of table %s failed", table.seq, table.id)
            raise ApiError(
                "unavailable", _("the move could not be stored: try again"), table.seq
            ) from None
        table.state = state
        table.seq += 1
        table.turn_since = table.last_move = self.clock()
        if outcome is not None:
            table.status = "finished"
            table.finished = now()
            self._retire(table)
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
        self._forget(table.id)
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


def _check_legal(table: Table, move: str) -> None:
    """Refuse (``illegal_move``) a move the engine would refuse, changing nothing."""
    try:
        table.state.clone().play(move)
    except IllegalMove as err:
        raise ApiError("illegal_move", str(err), table.seq) from None
