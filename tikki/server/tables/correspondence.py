"""Correspondence tables: games that last days.  A correspondence table is a table whose
turn timer is an allowance of hours a move (:data:`HOURS`), chosen at creation or in a
challenge as ``turn_timer: "24h"``; it is stored with the table's options like any turn
timer, so it survives restarts, and the allowance counts from the last move (not from
the restart).

What differs from a live table: a person away between moves is normal (nobody may hand
their seat to a bot, nor does the server, until their allowance runs out: then the
turn timers' stand-in rules apply, :mod:`.timers`); the table is kept :data:`KEEP`
after its last move; it stays in the lobby while it waits for a move; and the seat to
move gets a ``your_turn`` notice (:mod:`tikki.server.notices`) unless its person has
the table open."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Engine, select

from tikki.i18n import _
from tikki.serve_settings import Policy
from tikki.server.db import AccountSeatRow, TableRow
from tikki.server.errors import STATUS, ApiError
from tikki.server.quota import CAP_RETRY, rate_limited

STATUS.update({"correspondence_needs_account": 403})

HOURS = (12, 24, 48, 72)
"""The allowances (hours a move) a correspondence table may have."""
DEFAULT_HOURS = 24
"""The allowance of ``turn_timer: "correspondence"``."""
KEEP = timedelta(days=21)
"""How long a correspondence table is kept after its last move."""


def seconds_of(value: Any) -> int | None:
    """The allowance in seconds that a ``turn_timer`` value asks for (``"24h"``,
    ``"correspondence"``, or the seconds of one of :data:`HOURS`); ``None`` when the
    value is no correspondence allowance.

    >>> seconds_of("48h"), seconds_of("correspondence"), seconds_of(43200), seconds_of(60)
    (172800, 86400, 43200, None)
    """
    if value == "correspondence":
        return DEFAULT_HOURS * 3600
    if isinstance(value, str) and value.endswith("h") and value[:-1].isdigit():
        hours = int(value[:-1])
        return hours * 3600 if hours in HOURS else None
    if isinstance(value, int) and not isinstance(value, bool) and value in _SECONDS:
        return value
    return None


_SECONDS = {h * 3600 for h in HOURS}


def is_correspondence(turn_timer: int | None) -> bool:
    """Whether a table with this turn timer is a correspondence table."""
    return turn_timer is not None and turn_timer >= HOURS[0] * 3600


def expires(last_move: datetime, turn_timer: int) -> datetime:
    """When a correspondence table where people played is removed unless someone moves
    (:data:`KEEP` after its last move, at least two allowances)."""
    return last_move + max(KEEP, timedelta(seconds=2 * turn_timer))


def seated_at(engine: Engine, account: int) -> set[str]:
    """The live correspondence tables where ``account`` holds a seat (in the database:
    every process's, and those of before a restart)."""
    with engine.connect() as connection:
        rows = connection.execute(
            select(TableRow.id, TableRow.options)
            .join(AccountSeatRow, AccountSeatRow.table_id == TableRow.id)
            .where(
                AccountSeatRow.account_id == account,
                TableRow.status.in_(("waiting", "playing")),
            )
        ).all()
    return {r.id for r in rows if _timer_of(r.options)}


def _timer_of(options: Any) -> bool:
    """Whether stored table options hold a correspondence allowance."""
    timer = options.get("turn_timer") if isinstance(options, dict) else None
    return isinstance(timer, int) and is_correspondence(timer)


def check_account(account: int | None, held: int, policy: Policy) -> None:
    """Refuse a new correspondence table to a guest (``correspondence_needs_account``),
    or to an account that ``held`` live ones already, its cap (``rate_limited``)."""
    if account is None:
        raise ApiError(
            "correspondence_needs_account",
            _(
                "games that last days (hours a move) need an account, which gets the "
                "'your turn' notices: sign in (or create one) first, or pick a turn "
                "timer of seconds"
            ),
        )
    if held >= policy.correspondence_per_account:
        raise rate_limited(
            _(
                "you have {n} live games that last days, the limit per account: finish "
                "one (or let one expire) before starting more",
                n=held,
            ),
            CAP_RETRY,
        )


__all__ = [
    "DEFAULT_HOURS",
    "HOURS",
    "KEEP",
    "check_account",
    "expires",
    "is_correspondence",
    "seated_at",
    "seconds_of",
]
