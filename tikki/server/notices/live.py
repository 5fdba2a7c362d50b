"""The notices on the account socket (``/ws/account``): each new notice of the account
is sent as ``{"type": "notice", "notice": NOTICE, "unread": N}``, read from the database
(so that a notice stored by any process of a cluster reaches every page)."""

from __future__ import annotations

import asyncio
import json

from fastapi import WebSocket

from tikki.server.notices.api import notifier_of


class Feed:
    """The notices one account socket has sent: it starts after the newest one stored
    when the socket opened (the page reads the older ones by ``GET /api/notices``)."""

    def __init__(self, websocket: WebSocket, account: int) -> None:
        self.websocket = websocket
        self.account = account
        self.last: int | None = None

    async def send_new(self) -> None:
        """Send the notices stored since the last call (the first call only marks where
        the socket starts)."""
        store = notifier_of(self.websocket).store
        if self.last is None:
            self.last = await asyncio.to_thread(store.newest, self.account)
            return
        fresh = await asyncio.to_thread(store.after, self.account, self.last)
        if not fresh:
            return
        unread = (await asyncio.to_thread(store.listing, self.account, 0))["unread"]
        for notice in fresh:
            message = {"type": "notice", "notice": notice, "unread": unread}
            await self.websocket.send_text(json.dumps(message))
            self.last = notice["id"]


__all__ = ["Feed"]
