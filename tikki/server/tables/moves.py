"""A person's (or a bot's) move, :class:`Moves`: whose turn it is (:mod:`.turns`), the
stand-ins around it (a person who moves takes their seat back from a stand-in:
:mod:`.standins`), the move applied and stored (:mod:`.ledger`), then every connection
told."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from tikki.server.cluster import Ownership
from tikki.server.tables import turns
from tikki.server.tables.ledger import Ledger
from tikki.server.tables.registry import Registry
from tikki.server.tables.standins import StandIns
from tikki.server.tables.storage import Clock, Storage
from tikki.server.tables.table import Table


class Moves:
    """Check, apply, store and broadcast one move."""

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
        self.stand_ins = stand_ins
        self.ledger = Ledger(registry, storage, ownership, clock)
        """Where the move is applied and stored (a turn timer's move goes there too)."""

    async def move(
        self,
        table: Table,
        seat: int | None,
        move: str,
        seq: int,
        by_bot: bool = False,
        queued: Callable[[], None] | None = None,
    ) -> None:
        """Check and apply one move of ``seat`` made against ``seq``; store and broadcast
        it (the caller wakes the table's bots).

        A person's move ends a stand-in bot that plays while they were away (they are
        back); a resigned person's is refused.  ``by_bot``: the seat's bot (or stand-in)
        moves, refused once the person has taken the seat back; ``queued``: called once
        the move waits for its group commit (:meth:`Storage.add_move`)."""
        arrived = asyncio.get_running_loop().time()
        async with table.lock:
            seat, forced = turns.mover(table, seat, seq, by_bot)
            if table.takeovers:  # a stand-in may play, or have played, this seat
                async with self.stand_ins.around_move(table, seat, move, by_bot):
                    await self.ledger.apply(table, seat, move, queued, person=not by_bot)
            else:
                await self.ledger.apply(table, seat, move, queued, person=not by_bot)
            if forced:
                table.forced[table.seq - 1] = seat
        table.broadcast()
        if self.on_move is not None:
            self.on_move(by_bot, asyncio.get_running_loop().time() - arrived)
