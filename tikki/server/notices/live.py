"""The notices on the account socket (``/ws/account``): each new notice of the account
is sent as ``{"type": "notice", "notice": NOTICE, "unread": N}``, and notices marked read
elsewhere (another page opened the bell, or the table of a ``your_turn``) as
``{"type": "notices_read", "unread": N, "unread_ids": [ID, ...]}`` (the newest unread
ones, newest first), so that every open page of the account shows the same bell; the
read state is also sent once when the socket opens (after the first friends' list).  They
are read from the database as soon as the notices change (:mod:`~.wake`: woken at once
by this process's notifier, or by a cluster's ``tikki_notices`` notification for a
change another process made), and again every :data:`SAFETY` seconds in case a
notification was missed."""

from __future__ import annotations

import asyncio
import contextlib
import json

from fastapi import WebSocket

from tikki.server.notices.api import notifier_of
from tikki.server.notices.store import SHOWN

SAFETY = 30.0
"""Seconds between two reads of an account socket's notices when nothing woke it (a
cluster notification lost with a broken connection)."""


class Feed:
    """The notices one account socket has sent: it starts after the newest one stored
    when the socket opened (the page reads the older ones by ``GET /api/notices``)."""

    def __init__(self, websocket: WebSocket, account: int) -> None:
        self.websocket = websocket
        self.account = account
        self.last: int | None = None
        self.unread: list[int] | None = None
        """The unread ids the page knows of (as :meth:`Notices.unread` lists them;
        ``None``: not told yet, so the next read sends them whatever they are)."""

    async def send_new(self) -> None:
        """Send the notices stored since the last call, then the read state if notices
        were marked read meanwhile, or if the page was not told it yet (the first call
        only marks where the socket starts; the page read its list before it opened
        the socket, and a notice read in between, such as the ``your_turn`` of the
        table the page opens, is told by the second)."""
        store = notifier_of(self.websocket).store
        if self.last is None:
            self.last = await asyncio.to_thread(store.newest, self.account)
            return
        fresh = await asyncio.to_thread(store.after, self.account, self.last)
        count, unread = await asyncio.to_thread(store.unread, self.account)
        for notice in fresh:
            await self._send({"type": "notice", "notice": notice, "unread": count})
            self.last = notice["id"]
        known = None
        if self.unread is not None:
            fresh_unread = (n["id"] for n in fresh if not n["read"])
            known = sorted({*self.unread, *fresh_unread}, reverse=True)[:SHOWN]
        if known != unread:
            await self._send({"type": "notices_read", "unread": count, "unread_ids": unread})
        self.unread = unread

    async def _send(self, message: dict[str, object]) -> None:
        await self.websocket.send_text(json.dumps(message))

    async def follow(self) -> None:
        """Send each new notice as soon as this socket is woken (or after
        :data:`SAFETY` seconds), until cancelled."""
        wakes = notifier_of(self.websocket).wakes
        woken = wakes.add(self.account)
        try:
            while True:
                woken.clear()  # before the read: a notice stored meanwhile wakes it again
                with contextlib.suppress(Exception):  # a database hiccup: the next time
                    await self.send_new()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(woken.wait(), SAFETY)
        finally:
            wakes.discard(self.account, woken)


__all__ = ["SAFETY", "Feed"]
