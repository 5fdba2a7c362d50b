"""The size limit on everything a client sends: 4096 bytes per body or message."""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tikki.i18n import _

MAX_MESSAGE = 4096
"""The largest request body or WebSocket message the server reads, in bytes."""


class BodyLimit:
    """ASGI middleware: answer ``413 too_large`` to HTTP bodies over ``limit`` bytes.

    The body (at most ``limit`` bytes) is read before the app runs and handed to it whole.
    """

    def __init__(self, app: ASGIApp, limit: int = MAX_MESSAGE) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the body's size, then run the app on it."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await self._refuse(send)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._refuse(send)
                return
            chunks.append(chunk)
            more = bool(message.get("more_body", False))
        await self.app(scope, _replay(b"".join(chunks), receive), send)

    async def _refuse(self, send: Send) -> None:
        detail = {
            "code": "too_large",
            "message": _(
                "the request body is over {limit} bytes: send at most {limit}", limit=self.limit
            ),
        }
        body = json.dumps({"detail": detail}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
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


__all__ = ["MAX_MESSAGE", "BodyLimit"]
