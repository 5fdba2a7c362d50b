"""Presence and the friends' notifications over a socket.

``/ws/account`` is the socket a signed-in page (the lobby, a profile) keeps open: while
it is open the account is online, and it sends ``{"type": "friends", "friends": LIST}``
(the answer of ``GET /api/friends``) at once and whenever that list changes (a
challenge comes, is answered or withdrawn; a followed account comes, goes or sits
down), read from the database every :data:`POLL` seconds, so that it holds on every
process of a cluster.  A table's socket (``/ws/tables/ID``) of a signed-in browser
counts too, with its table (:func:`at_table`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from tikki.i18n import _
from tikki.server.accounts import SESSION_COOKIE, Accounts
from tikki.server.errors import ApiError
from tikki.server.friends.store import BEAT, Friends
from tikki.server.notices.live import Feed
from tikki.server.quota import Throttles, client_key
from tikki.server.relay import SECRET

log = logging.getLogger("tikki.server")

POLL = 3.0
"""Seconds between the account socket's reads of the friends' list."""
NOT_SIGNED_IN = 4401
"""The close code of an account socket without a session."""


async def _account_id(websocket: WebSocket) -> int | None:
    """The signed-in account of the socket's session cookie (``None``: a guest)."""
    token = websocket.cookies.get(SESSION_COOKIE)
    if not token:
        return None
    accounts: Accounts = websocket.app.state.accounts
    found = await asyncio.to_thread(accounts._session, token)
    return None if found is None else found.id


class Beat:
    """A presence row kept fresh while a socket is open."""

    def __init__(self, friends: Friends, account: int, table_id: str | None) -> None:
        self.friends = friends
        self.account = account
        self.table_id = table_id
        self.key: str | None = None
        self.task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Beat:
        self.key = await asyncio.to_thread(self.friends.arrive, self.account, self.table_id)
        self.task = asyncio.create_task(self._beat())
        return self

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(BEAT)
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.friends.beat, str(self.key))

    async def __aexit__(self, *_exc: object) -> None:
        if self.task is not None:
            self.task.cancel()
        if self.key is not None:  # submitted at once: a cancelled socket's row goes too
            loop = asyncio.get_running_loop()
            leaving = loop.run_in_executor(None, self.friends.leave, self.key)
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.shield(leaving)


@contextlib.asynccontextmanager
async def at_table(websocket: WebSocket, table_id: str) -> AsyncIterator[None]:
    """While a table's socket is open, its signed-in account is online there (a socket
    relayed from another process was counted by that one).  Presence is best effort: a
    database that does not answer leaves the socket served as before."""
    beat: Beat | None = None
    try:
        manager = websocket.app.state.manager
        relayed = manager.ownership.relayed(websocket.headers.get(SECRET))
        account = None if relayed else await _account_id(websocket)
        if account is not None:
            beat = await Beat(websocket.app.state.friends, account, table_id[:32]).__aenter__()
    except Exception as err:  # the table is served without presence
        log.warning("presence at table %s not kept: %s", table_id, err)
    try:
        yield
    finally:
        if beat is not None:
            await beat.__aexit__()


router = APIRouter()
"""The account socket's route."""


@router.websocket("/ws/account")
async def account_socket(websocket: WebSocket) -> None:
    """A signed-in page's socket: presence, and the friends' list when it changes."""
    throttles: Throttles = websocket.app.state.throttles
    address = client_key(websocket.client.host if websocket.client is not None else None)
    await websocket.accept()
    try:
        throttles.open_socket(address)
    except ApiError as err:
        await _close(websocket, err.message_json(), 4429)
        return
    try:
        account = await _account_id(websocket)
        if account is None:
            error = ApiError("not_signed_in", _("sign in first: this needs an account"))
            await _close(websocket, error.message_json(), NOT_SIGNED_IN)
            return
        friends: Friends = websocket.app.state.friends
        async with Beat(friends, account, None):
            await _serve(websocket, friends, account)
    finally:
        throttles.close_socket(address)


async def _close(websocket: WebSocket, message: dict[str, object], code: int) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(json.dumps(message))
        await websocket.close(code)


async def _drain(websocket: WebSocket) -> None:
    """Read (and ignore) the client's messages until it goes."""
    with contextlib.suppress(WebSocketDisconnect):
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return


async def _serve(websocket: WebSocket, friends: Friends, account: int) -> None:
    """Send the list, then again whenever it changes, until the client goes."""
    reader = asyncio.create_task(_drain(websocket))
    last = ""
    feed = Feed(websocket, account)  # the account's new notices, sent as they come
    with contextlib.suppress(Exception):
        await feed.send_new()  # where the socket starts
    follower: asyncio.Task[None] | None = None
    try:
        while not reader.done():
            with contextlib.suppress(Exception):  # a database hiccup: try again next time
                listing = await asyncio.to_thread(friends.listing, account)
                digest = friends.digest_of(listing)
                if digest != last:
                    await websocket.send_text(json.dumps({"type": "friends", "friends": listing}))
                    last = digest
            if follower is None:  # after the first list: the notices' read state, then news
                follower = asyncio.create_task(feed.follow())
            await asyncio.wait({reader}, timeout=POLL)
    finally:
        reader.cancel()
        if follower is not None:
            follower.cancel()


__all__ = ["POLL", "at_table", "router"]
