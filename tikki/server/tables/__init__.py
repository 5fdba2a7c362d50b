"""The table manager: every live table in memory, the one place where moves are applied.

Each :class:`Table` holds the engine State, its seats, its connections, ``seq`` (the
number of moves applied) and an asyncio lock.  :meth:`TableManager.move` checks a move
(seat, status, seq, turn, legality by the engine), applies it, stores it and sends every
connection its own seat's view.  Bots play their seats from a task per table; their turns
take fair slots (round-robin over creators' addresses, then tables) and searching bots
think in worker processes (:mod:`tikki.server.pool`).  Storage runs on one dedicated
thread, so the event loop never waits on the database and SQLite sees one writer.  The
limits on what one client may ask are :class:`~tikki.server.quota.Policy`.

:mod:`.table` holds one table's state, :mod:`.manager` the manager.
"""

from __future__ import annotations

from tikki.server.tables.manager import (
    BOT_TURNS,
    FINISHED_KEPT,
    FORCED,
    JUDGE,
    PEEK_TTL,
    STATUSES,
    STORED_BEFORE_REVISIONS,
    TICK,
    TableManager,
    check_invite,
    lock_seats,
    rematch_request,
)
from tikki.server.tables.table import (
    EXPIRED,
    MOVED,
    REVOKED,
    Connection,
    NewTable,
    Table,
    hash_token,
    iso,
)

__all__ = [
    "BOT_TURNS",
    "EXPIRED",
    "FINISHED_KEPT",
    "FORCED",
    "JUDGE",
    "MOVED",
    "PEEK_TTL",
    "REVOKED",
    "STATUSES",
    "STORED_BEFORE_REVISIONS",
    "TICK",
    "Connection",
    "NewTable",
    "Table",
    "TableManager",
    "check_invite",
    "hash_token",
    "iso",
    "lock_seats",
    "rematch_request",
]
