"""An HTTP request for a table that another process of the cluster owns, forwarded to
the owner and answered as the owner answered.

Any process serves any request: a request under ``/api/tables/{id}`` that reaches a
process which does not hold the table (state, move, join, keep, resign, rematch...) is
sent on to the owner (its address and secret from ``tikki_nodes``, as a relayed socket's,
:mod:`tikki.server.relay`) with one internal HTTP request, and the owner's status, headers
and body go back unchanged.  The forwarded request shows the owner's secret
(:data:`~tikki.server.relay.SECRET`) and carries the client's address
(:data:`~tikki.server.relay.CLIENT`), so the owner's limits count the person; a forwarded
request is never forwarded again (the table moved meanwhile: the process serves it as its
own, or says the table is moving).  So a wrong route costs one hop between processes,
never a handover: tables move only when their owner dies, drains or is told to
rebalance."""

from __future__ import annotations

import asyncio
import json
import logging
import re
from typing import TYPE_CHECKING, Any

import httpx
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tikki.server.errors import UNAVAILABLE_RETRY
from tikki.server.relay import CLIENT, SECRET
from tikki.server.tables import storage
from tikki.server.tables.ownership import ROUTE_PAUSE
from tikki.server.tables.registry import table_moving

if TYPE_CHECKING:
    from tikki.server.cluster import Hop
    from tikki.server.tables import TableManager

log = logging.getLogger("tikki.server")

TABLE_PATH = re.compile(r"^/api/tables/([^/]{1,32})(?:/.*)?$")
"""The paths of one table's requests (the table id, at most 32 characters)."""
TIMEOUT = httpx.Timeout(60.0, connect=5.0)
"""The forwarded request's limits: the owner's answer may wait for a search (a hint), the
connection not long (an owner that cannot be reached: the table is moving)."""
HOP_BY_HOP = frozenset(
    {b"connection", b"keep-alive", b"transfer-encoding", b"upgrade", b"te", b"trailer",
     b"proxy-connection", b"content-length", SECRET.encode(), CLIENT.encode()}
)  # fmt: skip
"""Headers that belong to one connection (or to the hop itself), never passed on."""


def _manager(scope: Scope) -> TableManager:
    manager: TableManager = scope["app"].state.manager
    return manager


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return str(value.decode("latin-1"))
    return None


class Forward:
    """ASGI middleware: forward a table's HTTP request to the process that owns it; on
    the owner, take a forwarded request's client address as the request's own."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._client: httpx.AsyncClient | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve the request here, or forward it to the table's owner."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        manager = _manager(scope)
        ownership = manager.ownership
        if not ownership.clustered:
            await self.app(scope, receive, send)
            return
        if ownership.relayed(_header(scope, SECRET.encode())):
            forwarded = _header(scope, CLIENT.encode()) or ""
            if 0 < len(forwarded) <= 64:
                scope = {**scope, "client": (forwarded, 0)}
            await self.app(scope, receive, send)
            return
        hop = await self._owner(manager, scope["path"])
        if hop is None:
            await self.app(scope, receive, send)
            return
        body = await _body(receive)
        if not await self._forward(hop, scope, body, send):  # nobody else owns it now
            await self.app(scope, _replay(body, receive), send)

    async def _owner(self, manager: TableManager, path: str) -> Hop | None:
        """The other process that owns the path's table (``None``: no table's path, this
        process holds it, nobody does, or the owner cannot be found: served here)."""
        match = TABLE_PATH.match(path)
        if match is None:
            return None
        table_id = match.group(1)
        if manager.registry.held(table_id) is not None:
            return None
        return await manager.finder.owner(table_id)

    async def _forward(self, hop: Hop, scope: Scope, body: bytes, send: Send) -> bool:
        """One request to the owner; its answer to the client, unchanged.  An owner that
        cannot be reached (it stopped or died: the request never got there) is looked up
        again, as :meth:`~tikki.server.tables.ownership.Finder.route` waits for a table
        between owners, and the request goes to the next one; the table's
        ``503 unavailable`` only past that wait.  ``False`` (nothing answered) when this
        process holds the table now and serves the request itself."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + storage.OUTAGE_WAIT
        pause = storage.FIRST_PAUSE
        while True:
            try:
                answer = await self._send(hop, scope, body)
                break
            except httpx.HTTPError as err:
                log.warning("forwarding %s %s to %s failed: %s", scope["method"],
                            scope["path"], hop.node, err)  # fmt: skip
                if not isinstance(err, httpx.ConnectError) or loop.time() + pause > deadline:
                    await _moving(scope, send)
                    return True
            await asyncio.sleep(pause)
            pause = min(2 * pause, ROUTE_PAUSE)
            found = await self._owner(_manager(scope), scope["path"])
            if found is None:
                return False
            hop = found
        await _answer(answer, send)
        return True

    async def _send(self, hop: Hop, scope: Scope, body: bytes) -> httpx.Response:
        """The request sent to ``hop``; its answer, streamed."""
        headers = [(k, v) for k, v in scope["headers"] if k.lower() not in HOP_BY_HOP]
        client = scope.get("client")
        headers += [(SECRET.encode(), hop.secret.encode()),
                    (CLIENT.encode(), (client[0] if client else "").encode("latin-1"))]  # fmt: skip
        query = scope.get("query_string", b"").decode("latin-1")
        url = hop.url.rstrip("/") + scope.get("raw_path", scope["path"].encode()).decode("latin-1")
        if query:
            url += "?" + query
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=TIMEOUT, follow_redirects=False)
        request = self._client.build_request(scope["method"], url, headers=headers, content=body)
        return await self._client.send(request, stream=True)


async def _answer(answer: httpx.Response, send: Send) -> None:
    """The owner's answer to the client, unchanged."""
    try:
        out = [(k, v) for k, v in answer.headers.raw if k.lower() not in HOP_BY_HOP]
        await send({"type": "http.response.start", "status": answer.status_code,
                    "headers": out})  # fmt: skip
        async for chunk in answer.aiter_raw():
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})
    finally:
        await answer.aclose()


def _replay(body: bytes, receive: Receive) -> Receive:
    """``receive`` for the app after the body was read here: the body once, then what
    the client sends next (its disconnect)."""
    given = [False]

    async def again() -> Message:
        if not given[0]:
            given[0] = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again


async def _body(receive: Receive) -> bytes:
    """The request's whole body (the body limit outside this middleware bounds it)."""
    chunks = []
    while True:
        message: Message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


async def _moving(scope: Scope, send: Send) -> None:
    """``503 unavailable`` with ``Retry-After``: the owner could not be reached (it is
    stopping or died; the table soon has a new owner)."""
    match = TABLE_PATH.match(scope["path"])
    err = table_moving(match.group(1) if match else "")
    body: dict[str, Any] = {"detail": err.detail()}
    data = json.dumps(body).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode()),
               (b"retry-after", str(UNAVAILABLE_RETRY).encode())]  # fmt: skip
    await send({"type": "http.response.start", "status": err.status, "headers": headers})
    await send({"type": "http.response.body", "body": data})


__all__ = ["TABLE_PATH", "Forward"]
