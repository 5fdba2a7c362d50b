"""Seats and who holds them: taking an open seat (with its invite secret), the seat's
token and its devices (revoking them, presence), and the connections of a table:
:class:`Seats`."""

from __future__ import annotations

import hmac
import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import replace

from tikki.i18n import _
from tikki.serve_settings import Policy
from tikki.server.cluster import Ownership
from tikki.server.db import StoredSeat
from tikki.server.errors import ApiError
from tikki.server.quota import RateLimiter
from tikki.server.tables.ownership import Finder
from tikki.server.tables.registry import Registry
from tikki.server.tables.storage import Storage
from tikki.server.tables.table import REVOKED, Connection, Table, hash_token, seat_list

log = logging.getLogger("tikki.server")


class Seats:
    """Join, seat custody (presence, revoking a seat's devices) and connections."""

    def __init__(
        self,
        finder: Finder,
        registry: Registry,
        storage: Storage,
        ownership: Ownership,
        policy: Policy,
        wake: Callable[[Table], None],
    ) -> None:
        self.finder = finder
        self.registry = registry
        self.storage = storage
        self.ownership = ownership
        self.policy = policy
        self.clock = registry.clock
        self.wake = wake
        self.joins = RateLimiter(policy.join_per_minute)
        """Seats taken per address."""

    async def join(
        self,
        table_id: str,
        seat: int,
        name: str,
        invite: str | None = None,
        address: str | None = None,
    ) -> tuple[Table, str]:
        """Take an open seat for the client at ``address`` (with its ``invite`` secret
        unless it is open to anyone); return the table and the seat's new token."""
        table = await self.finder.get(table_id)
        if not 0 <= seat < len(table.seats):
            raise ApiError(
                "unknown_seat",
                _(
                    "table {table_id} has no seat {seat}: seats are 0–{last}",
                    table_id=table_id,
                    seat=seat,
                    last=len(table.seats) - 1,
                ),
            )
        if address is not None and table.seats[seat].kind == "open":
            self.joins.spend(
                address,
                lambda: _(
                    "your address may take {join_per_minute:g} seats a minute",
                    join_per_minute=self.policy.join_per_minute,
                ),
            )
        async with table.lock:
            self.registry.check_owned(table)
            held = table.seats[seat]
            if held.kind != "open":
                raise ApiError("seat_taken", _taken_message(table, held))
            check_invite(table, held, invite)
            token = secrets.token_urlsafe(24)
            new = StoredSeat(seat, "human", name, None, hash_token(token))
            status = "playing" if len(table.open_seats) == 1 else "waiting"
            await self.storage.write(
                _("your seat {seat}", seat=seat),
                self.storage.store.take_seat,
                table.id,
                new,
                status,
            )
            table.seats[seat] = new
            table.status = status
            table.away_since[seat] = self.clock()
            table.joined = table.joined or (address is not None and address != table.owner)
            if status == "playing":
                table.turn_since = table.last_move = self.clock()
        table.broadcast()
        self.wake(table)
        await self.ownership.changed(table.id)
        return table, token

    def seen(self, table: Table, seat: int | None) -> None:
        """The person of ``seat`` acted (an authenticated request): they are present, so
        the time until the others may hand their seat to a bot starts again from now."""
        if seat is not None:
            table.acted[seat] = self.clock()

    async def revoke(self, table: Table, seat: int | None) -> str:
        """Give ``seat`` a new token and end every other session holding it (their
        connections close with :data:`REVOKED`); return the new token."""
        if seat is None:
            raise ApiError("spectator", _("spectators hold no seat: send the seat's token"))
        async with table.lock:
            token = secrets.token_urlsafe(24)
            held = table.seats[seat]
            new = replace(held, token_hash=hash_token(token))
            await self.storage.write(
                _("your seat {seat}", seat=seat),
                self.storage.store.take_seat,
                table.id,
                new,
                table.status,
            )
            table.seats[seat] = new
        text = json.dumps(
            ApiError(
                "revoked",
                _("this device's link to the seat was revoked by its holder"),
                table.seq,
            ).message_json()
        )
        for conn in list(table.connections):
            if conn.seat == seat:
                conn.push(text)
                conn.close(REVOKED)
        log.info("table %s: seat %d's device links were revoked", table.id, seat)
        return token

    def connect(
        self, table: Table, seat: int | None, lang: str = "en", deltas: bool = False
    ) -> Connection:
        """Register a connection (its texts in ``lang``; ``deltas``: it takes history
        deltas); others learn that the seat is present."""
        conn = Connection(seat, lang=lang, deltas=deltas)
        table.connections.add(conn)
        if seat is not None:
            table.away_since.pop(seat, None)
        if seat is not None:
            table.broadcast()
        else:
            table.push_state(conn)
        return conn

    def disconnect(self, table: Table, conn: Connection) -> None:
        """Forget a connection; others learn when its seat is no longer present."""
        table.connections.discard(conn)
        if conn.seat is not None and not any(c.seat == conn.seat for c in table.connections):
            table.away_since[conn.seat] = self.clock()
            table.broadcast()


def lock_seats(seats: list[StoredSeat], anyone: frozenset[int]) -> dict[int, str]:
    """Give every open seat not in ``anyone`` a fresh invite secret (stored hashed);
    return the secrets by seat."""
    invites: dict[int, str] = {}
    for seat in seats:
        if seat.kind == "open" and seat.seat not in anyone:
            invites[seat.seat] = secrets.token_urlsafe(16)
            seat.invite_hash = hash_token(invites[seat.seat])
    return invites


def check_invite(table: Table, seat: StoredSeat, invite: str | None) -> None:
    """Refuse (``bad_invite``) to seat anyone without the seat's invite secret."""
    if seat.invite_hash is None:
        return
    if invite is not None and hmac.compare_digest(hash_token(invite), seat.invite_hash):
        return
    anyone = [s.seat for s in table.seats if s.kind == "open" and s.invite_hash is None]
    kept = _(
        "seat {seat} of table {table} is kept for the holder of its invite link: "
        "open the link you were sent (it ends in #invite=…)",
        seat=seat.seat,
        table=table.id,
    )
    if anyone:
        kept += _(", or take a seat open to anyone: {seats}", seats=seat_list(anyone))
    raise ApiError("bad_invite", kept)


def _taken_message(table: Table, held: StoredSeat) -> str:
    who = held.name or held.kind
    return _(
        "seat {seat} of table {table} is taken ({who}): open seats are {open}",
        seat=held.seat,
        table=table.id,
        who=who,
        open=seat_list(table.open_seats),
    )
