"""Friends: following another account, seeing who is online and at which table,
challenging a friend to a table with chosen options, and blocking an account.

:mod:`~.rows` holds the tables, :mod:`~.store` reads and writes them, :mod:`~.routes`
is the HTTP API (``/api/friends…``), :mod:`~.presence` the account socket
(``/ws/account``: presence and the notifications) and :mod:`~.blocks` what a block
means at the tables (their chat and their seats)."""

from __future__ import annotations

from tikki.server.friends.store import Friends

__all__ = ["Friends"]
