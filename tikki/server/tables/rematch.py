"""Play again: a finished table's rematch, the same game, options, people and bots with
every seat moved one place on: :class:`Rematch` makes the new table (:mod:`.creation`)
and each person's request takes their seat there (:mod:`.seats`)."""

from __future__ import annotations

from dataclasses import replace

from tikki.i18n import _
from tikki.server.errors import ApiError
from tikki.server.tables.creation import Creator
from tikki.server.tables.seats import Seats
from tikki.server.tables.table import NewTable, Table


class Rematch:
    """The rematch of a finished table."""

    def __init__(self, creator: Creator, seats: Seats) -> None:
        self.creator = creator
        self.seats = seats

    async def play_again(
        self, table: Table, seat: int | None, address: str | None = None, account: int | None = None
    ) -> tuple[Table, int, str]:
        """Seat the player of ``seat`` (a person at the finished ``table``) at its rematch:
        the same game, options, people and bots, every seat moved one place on, so the
        dealer moves on.  The first request makes the new table; each person's request
        takes that person's seat there (``account``: the asker's, whose a correspondence
        table's rematch is).  Return the new table, the new seat and its token."""
        if seat is None:
            raise ApiError(
                "spectator", _("spectators cannot ask for a rematch: a seat's token can")
            )
        if table.status != "finished":
            raise ApiError(
                "not_finished",
                _("table {id} is still being played: play again at its end", id=table.id),
            )
        async with table.lock:
            if table.rematch is None:
                wanted = replace(rematch_request(table), account=account)
                new, invites = await self.creator.create(wanted, address)
                table.rematch, table.rematch_invites = new.id, invites
        table.broadcast()
        new_seat = (seat - 1) % len(table.seats)
        try:
            new_table, token = await self.seats.join(
                table.rematch,
                new_seat,
                table.seats[seat].name or f"Seat {seat}",
                table.rematch_invites.get(new_seat),
            )
        except ApiError as err:
            if err.code == "seat_taken":
                raise ApiError(
                    "seat_taken",
                    _(
                        "you already hold seat {new_seat} at the rematch {rematch}: "
                        "its token was given with your first request",
                        new_seat=new_seat,
                        rematch=table.rematch,
                    ),
                ) from None
            raise
        return new_table, new_seat, token


def rematch_request(table: Table) -> NewTable:
    """The request for a finished table's rematch: the same game and options, bots at
    their seats and an invite-only open seat per person, all moved one place on (the
    player after the old seat 0 leads, the old seat 0 deals)."""
    n = len(table.seats)
    old = [table.seats[(j + 1) % n] for j in range(n)]
    return NewTable(
        game=table.game.name,
        players=n,
        variant=None,
        options=dict(table.game.options),
        seats=[("bot", s.bot) if s.kind == "bot" else ("open", None) for s in old],
        seed=None,
        memory_aids=table.memory_aids,
        turn_timer=table.turn_timer,
        on_timeout=table.on_timeout,
        forced_moves=table.forced_moves,
        rated=table.rated,
    )
