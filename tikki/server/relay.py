"""A WebSocket relayed to the process of a cluster that owns its table.

A socket that reaches a process which does not own its table is served there all the
same: the process opens one WebSocket of its own to the owner (``/ws/tables/{id}`` at the
owner's noted address, :class:`~tikki.server.cluster.Hop`) and passes every message on,
both ways, unchanged.  The owner sees an ordinary connection: it reads the ``hello``,
checks the token, and sends that connection its own seat's states (a hand never goes to
another seat's socket), so the relay needs no table of its own and the table never moves
for a socket.  The relayed socket shows the owner's secret (:data:`SECRET`) and carries
the client's address (:data:`CLIENT`), so the owner's limits count the person, not the
relaying process.

When the owner closes (the table moved, the owner stops, a refusal), the client is
closed with the owner's code and reason, so it does what it would have done connected
to the owner itself (1012: connect again, and be routed to the new owner)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from urllib.parse import quote

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from tikki.server.cluster import Hop
from tikki.server.tables.table import MOVED

log = logging.getLogger("tikki.server")

SECRET = "x-tikki-hop"
"""The header of a relayed socket: the owner's secret (from ``tikki_nodes``)."""
CLIENT = "x-tikki-client"
"""The header of a relayed socket: the client's address (the key of its limits)."""
OPEN_TIMEOUT = 5.0
"""Seconds the relay waits for the owner to accept its socket."""
UNSENDABLE = frozenset({1005, 1006, 1015})
"""Close codes that only say what happened to a connection and cannot be sent: the
client is closed with :data:`~tikki.server.tables.table.MOVED` instead."""


class HopFailed(Exception):
    """The owner could not be reached (its address is wrong, or it stopped)."""


def hop_url(hop: Hop, table_id: str, query: str) -> str:
    """The owner's WebSocket URL of the table (``ws://`` for ``http://``), with the
    client's query string (``?lang=``)."""
    base = hop.url.rstrip("/")
    scheme, sep, rest = base.partition("://")
    ws = {"http": "ws", "https": "wss"}.get(scheme, scheme)
    url = f"{ws}{sep}{rest}/ws/tables/{quote(table_id, safe='')}"
    return f"{url}?{query}" if query else url


async def open_hop(hop: Hop, table_id: str, websocket: WebSocket, address: str) -> ClientConnection:
    """This process's socket to the owner, for one client socket (:class:`HopFailed` if
    the owner does not accept it within :data:`OPEN_TIMEOUT` seconds)."""
    headers = {SECRET: hop.secret, CLIENT: address}
    language = websocket.headers.get("accept-language")
    if language:
        headers["accept-language"] = language
    url = hop_url(hop, table_id, websocket.scope.get("query_string", b"").decode("latin-1"))
    try:
        return await connect(
            url,
            additional_headers=headers,
            open_timeout=OPEN_TIMEOUT,
            max_size=None,  # the owner's states, whatever their size
            compression=None,
            user_agent_header=None,
        )
    except (OSError, TimeoutError, InvalidHandshake, InvalidURI) as err:
        raise HopFailed(f"{hop.node} at {hop.url}: {err}") from None


async def relay(websocket: WebSocket, upstream: ClientConnection) -> None:
    """Pass messages both ways until one side goes; close the other like it."""
    down = asyncio.create_task(_down(upstream, websocket))
    up = asyncio.create_task(_up(websocket, upstream))
    try:
        done, _pending = await asyncio.wait((down, up), return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (down, up):
            task.cancel()
        await asyncio.gather(down, up, return_exceptions=True)
    if down in done:  # the owner closed: so does the client, alike
        code = upstream.close_code
        reason = upstream.close_reason or ""
        if code is None or code in UNSENDABLE:
            code, reason = MOVED, ""
        with contextlib.suppress(Exception):
            await websocket.close(code, reason)
    with contextlib.suppress(Exception):
        await upstream.close()


async def _down(upstream: ClientConnection, websocket: WebSocket) -> None:
    """The owner's messages to the client, until the owner closes."""
    with contextlib.suppress(ConnectionClosed):
        async for message in upstream:
            if isinstance(message, str):
                await websocket.send_text(message)
            else:
                await websocket.send_bytes(message)


async def _up(websocket: WebSocket, upstream: ClientConnection) -> None:
    """The client's messages to the owner, until the client goes."""
    with contextlib.suppress(ConnectionClosed, WebSocketDisconnect):
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text, data = message.get("text"), message.get("bytes")
            if text is not None:
                await upstream.send(text)
            elif data is not None:
                await upstream.send(data)


__all__ = ["CLIENT", "SECRET", "HopFailed", "hop_url", "open_hop", "relay"]
