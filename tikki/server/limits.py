"""The door every HTTP request passes: its body at most 4096 bytes (or a path's own
limit), in time, and no NUL character in its path, its query or its JSON strings."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Mapping

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tikki.i18n import N_, _

MAX_MESSAGE = 4096
"""The largest request body or WebSocket message the server reads, in bytes."""


class BodyLimit:
    """ASGI middleware: answer ``413 too_large`` to HTTP bodies over ``limit`` bytes, and
    ``422 bad_request`` to a request with a NUL character (:func:`holds_nul`).

    The body (at most ``limit`` bytes) is read before the app runs and handed to it whole.
    No route takes a NUL (no name, text or id may hold one, and PostgreSQL refuses it in
    a query), so it is refused here once for every route.
    """

    def __init__(
        self, app: ASGIApp, limit: int = MAX_MESSAGE, paths: Mapping[str, int] | None = None
    ) -> None:
        self.app = app
        self.limit = limit
        self.paths = dict(paths or {})
        """Paths allowed a larger body than ``limit`` (an uploaded record to replay)."""
        self.timeout = BODY_TIMEOUT
        """Seconds the whole body may take to arrive (else ``408 too_slow``) unless the
        app's ``state.body_timeout`` says otherwise."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the body's size, then run the app on it."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.paths.get(scope.get("path", ""), self.limit)
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await self._refuse(send, limit)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        timeout = self._timeout(scope)
        deadline = asyncio.get_running_loop().time() + timeout
        while more:
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                await _answer(send, 408, "too_slow", _(BODY_LATE, seconds=f"{timeout:g}"))
                return
            if message["type"] != "http.request":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await self._refuse(send, limit)
                return
            chunks.append(chunk)
            more = bool(message.get("more_body", False))
        body = b"".join(chunks)
        if holds_nul(scope, body):
            await _answer(send, 422, "bad_request", _(NUL_REFUSED))
            return
        await self.app(scope, _replay(body, receive), send)

    def _timeout(self, scope: Scope) -> float:
        return _timeout_of(scope, self.timeout)

    async def _refuse(self, send: Send, limit: int) -> None:
        detail = {
            "code": "too_large",
            "message": _(
                "the request body is over {limit} bytes: send at most {limit}", limit=limit
            ),
        }
        body = json.dumps({"detail": detail}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def _timeout_of(scope: Scope, default: float) -> float:
    app = scope.get("app")
    value = getattr(getattr(app, "state", None), "body_timeout", None)
    return float(value) if isinstance(value, int | float) else default


NUL_REFUSED = N_(
    "the request holds a NUL character (in its path, its query or a JSON string as "
    "\\u0000): no name, text or id may hold one; send it without"
)
_JSON_NUL = re.compile(rb"(?<!\\)(?:\\\\)*\\u0000")
"""A JSON string's NUL escape, not preceded by an escaped backslash's odd one out."""


def holds_nul(scope: Scope, body: bytes) -> bool:
    r"""Whether an HTTP request holds a NUL: its decoded path, its query (raw or
    ``%00``), or its body (raw, or as a JSON string's ``\u0000``; an escaped backslash
    before ``u0000`` is text, not a NUL).

    >>> holds_nul({"path": "/api/x", "query_string": b"a=%00"}, b"")
    True
    >>> holds_nul({"path": "/api/x"}, rb'{"name": "an\u0000na"}')
    True
    >>> holds_nul({"path": "/api/x"}, rb'{"name": "an\\u0000na"}')
    False
    """
    query = bytes(scope.get("query_string") or b"").lower()
    return (
        "\x00" in str(scope.get("path", ""))
        or b"\x00" in query
        or b"%00" in query
        or b"\x00" in body
        or _JSON_NUL.search(body) is not None
    )


BODY_TIMEOUT = 10.0
"""Seconds a request body may take to arrive by default (``--body-timeout``)."""
BODY_LATE = N_("the request body did not arrive within {seconds} s: send it at once")


async def _answer(send: Send, status: int, code: str, message: str) -> None:
    """Send a JSON error answer ``{"detail": {code, message}}`` and close the connection
    (the rest of a late body is not read)."""
    body = json.dumps({"detail": {"code": code, "message": message}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


__all__ = ["BODY_TIMEOUT", "MAX_MESSAGE", "BodyLimit"]
