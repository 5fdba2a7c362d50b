"""The one place where a move is applied, :class:`Ledger`: the move is played on a copy
of the state (the engine refuses an illegal one), stored, then the copy is swapped in, so
no reader ever sees a state ahead of its seq nor a move that is not stored.  A move that
ends the game finishes the table.  The checks before a move (whose turn, which bot) are
the caller's: a person's or a bot's move comes through :mod:`.moves`, a turn timer's
move straight from :mod:`.timers`."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import NoReturn

from tikki.core import IllegalMove, State, TableState
from tikki.i18n import _
from tikki.server.cluster import Ownership
from tikki.server.db import MoveConflict, MoveWrite, now
from tikki.server.errors import ApiError
from tikki.server.tables.registry import Registry
from tikki.server.tables.storage import Clock, Storage
from tikki.server.tables.table import Table

log = logging.getLogger("tikki.server")


def _played(parent: State, state: State, move: str) -> str:
    """The canonical text of ``move``, just played on ``state`` (a copy of ``parent``):
    ``state.moves[-1]``, without building the list of every move where the engine's
    plumbing (:class:`TableState`) plays a legal text as it is."""
    if isinstance(parent, TableState) and move in parent.legal_moves():
        return move
    return state.moves[-1]


class Ledger:
    """Play, store and swap in one move; finish the table when it ends the game."""

    on_finished: Callable[[Table], None] | None = None
    """Called when a game ends by a move (the app settles a rated table's ratings)."""
    on_turn: Callable[[Table], None] | None = None
    """Called after a move that leaves the game going (the app tells a correspondence
    table's next person that it is their move)."""

    def __init__(
        self, registry: Registry, storage: Storage, ownership: Ownership, clock: Clock
    ) -> None:
        self.registry = registry
        self.storage = storage
        self.ownership = ownership
        self.clock = clock

    async def apply(
        self,
        table: Table,
        seat: int,
        move: str,
        queued: Callable[[], None] | None = None,
        person: bool = False,
    ) -> None:
        """Play the move on a copy, store it, then swap the copy in (readers never see a
        state ahead of its seq, nor a move that is not stored).  ``queued``: called once
        the move waits for its group commit, before it is stored; ``person``: a person
        made it and waits (acknowledged first in its group commit)."""
        self.registry.check_owned(table)
        parent = table.state
        state = parent.clone()
        try:
            state.play(move)
        except IllegalMove as err:
            raise ApiError("illegal_move", str(err), table.seq) from None
        outcome = state.outcome if state.is_over else None
        by_person = table.played or table.seats[seat].kind == "human"
        write = MoveWrite(table.id, table.seq, seat, _played(parent, state, move), outcome,
                          None if state.is_over else state.current_player, by_person)  # fmt: skip
        await self._store(table, write, queued, person)
        state.take_history(parent)  # its views extend the parent's history by the move
        table.state = state
        table.seq += 1
        table.turn_since = table.last_move = self.clock()
        table.played = by_person
        if outcome is not None:
            await self._finish(table)
        elif self.on_turn is not None:
            self.on_turn(table)

    async def _store(
        self,
        table: Table,
        write: MoveWrite,
        queued: Callable[[], None] | None = None,
        person: bool = False,
    ) -> None:
        """Store move ``table.seq`` (by group commit: acknowledged once committed);
        ``stale`` if another process stored it first, ``unavailable`` if the database
        fails (nothing changes then)."""
        try:
            await self.storage.add_move(write, queued, first=person)
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
