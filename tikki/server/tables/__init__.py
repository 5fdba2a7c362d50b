"""The table manager: every live table in memory, the one place where moves are applied.

Each :class:`Table` holds the engine State, its seats, its connections, ``seq`` (the
number of moves applied) and an asyncio lock.  :meth:`TableManager.move` checks a move
(seat, status, seq, turn, legality by the engine), applies it, stores it and sends every
connection its own seat's view.  Bots play their seats from a task per table; their turns
take fair slots (round-robin over creators' addresses, then tables) and searching bots
think in worker processes (:mod:`tikki.server.pool`).  Storage runs on one dedicated
thread, so the event loop never waits on the database and SQLite sees one writer.  The
limits on what one client may ask are :class:`~tikki.server.quota.Policy`.

One module per concern (in the spirit of lichess's ``round`` module), each a class that
receives its collaborators in its constructor and can be built and tested alone;
:class:`TableManager` is a thin façade that wires them:

- :mod:`.table`: one table's state (:class:`Table`, :class:`Connection`,
  :class:`NewTable`, the stand-ins' :class:`Takeover` records);
- :mod:`.turns`: whose turn it is and which bot plays it (plain functions);
- :mod:`.storage`: the storage thread and the shared clock;
- :mod:`.registry`: the tables in memory (rebuild, retire, forget, ownership checks);
- :mod:`.ownership`: finding a table (memory, database, another process of a cluster);
- :mod:`.standins`: bots playing people's seats (stored with the table);
- :mod:`.moves`: checking a move (with the stand-ins around it) and telling everyone;
- :mod:`.ledger`: applying and storing a move, finishing the game it ends;
- :mod:`.bots`: bot turns, fair slots, forced moves, hints;
- :mod:`.leave`: resigning, handing a seat to a bot, coming back;
- :mod:`.timers`: turn timers, away announcements, the expiry of waiting tables;
- :mod:`.seats`: joining, invites, a seat's devices, connections;
- :mod:`.creation`: making a table within the server's caps (:mod:`tikki.server.quota`);
- :mod:`.rematch`: playing again;
- :mod:`.manager`: :class:`TableManager`: the wiring, life cycle and the lobby.
"""

from __future__ import annotations

from tikki.server.tables.bots import BOT_TURNS, JUDGE
from tikki.server.tables.manager import STATUSES, TableManager
from tikki.server.tables.ownership import PEEK_TTL
from tikki.server.tables.registry import FINISHED_KEPT, STORED_BEFORE_REVISIONS
from tikki.server.tables.rematch import rematch_request
from tikki.server.tables.seats import check_invite, lock_seats
from tikki.server.tables.standins import ended
from tikki.server.tables.table import (
    EXPIRED,
    MOVED,
    REVOKED,
    STAND_IN,
    TAKEN_BACK,
    WHY,
    Connection,
    NewTable,
    Table,
    Takeover,
    active,
    hash_token,
    iso,
)
from tikki.server.tables.timers import ON_TIMEOUT, TICK, TIMERS, allowed_timers, parse_timer
from tikki.server.tables.turns import FORCED

__all__ = [
    "BOT_TURNS",
    "EXPIRED",
    "FINISHED_KEPT",
    "FORCED",
    "JUDGE",
    "MOVED",
    "ON_TIMEOUT",
    "PEEK_TTL",
    "REVOKED",
    "STAND_IN",
    "STATUSES",
    "STORED_BEFORE_REVISIONS",
    "TAKEN_BACK",
    "TICK",
    "TIMERS",
    "WHY",
    "Connection",
    "NewTable",
    "Table",
    "TableManager",
    "Takeover",
    "active",
    "allowed_timers",
    "check_invite",
    "ended",
    "hash_token",
    "iso",
    "lock_seats",
    "parse_timer",
    "rematch_request",
]
