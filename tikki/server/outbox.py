"""What a WebSocket connection still has to send, and the task that sends it.

A client that never reads must not pin the server's memory.  So each connection's
:class:`Outbox` is bounded in bytes (:data:`OUTBOX_BYTES`), state messages *coalesce* (a
connection holds at most one unsent state: the newest, in the place of the first one not
yet sent), and :func:`write` gives each send :data:`SEND_TIMEOUT` seconds: a connection
that stays behind past that is dropped at the transport (close code 1008 where a close
frame can still get through).  :class:`TransportControl` is the ASGI middleware that
lets the writer drop a connection at once instead of waiting on a peer that does not
read, and that caps the kernel's send buffer of each WebSocket (:data:`SEND_BUFFER`), so
a peer that does not read is noticed in seconds, not after megabytes.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Protocol

from starlette.types import ASGIApp, Receive, Scope, Send

OUTBOX_BYTES = 256 * 1024
"""Unsent bytes one connection may hold besides its newest state; over that it is
dropped as too slow (1008)."""
SEND_TIMEOUT = 10.0
"""Seconds one message may take to go out before the connection is dropped (1008)."""
CLOSE_TIMEOUT = 1.0
"""Seconds a dropped connection's close frame may take before the transport is aborted."""
TOO_SLOW = 1008
"""The close code of a connection dropped for falling behind."""
SEND_BUFFER = 64 * 1024
"""The kernel send buffer of a WebSocket's socket, in bytes (Linux doubles it)."""
ABORT_KEY = "tikki.abort"
"""Where :class:`TransportAbort` puts the abort callable in a WebSocket's ASGI scope."""


class _State:
    """The place of the (single) unsent state message in an outbox."""


STATE = _State()


class Outbox:
    """Unsent messages of one connection, bounded in bytes; states coalesce."""

    def __init__(self, limit: int = OUTBOX_BYTES) -> None:
        self.limit = limit
        self.size = 0
        """Bytes of the queued messages other than the state."""
        self.close_code: int | None = None
        self._items: deque[str | _State] = deque()
        self._state: str | None = None
        self._ready = asyncio.Event()

    def __len__(self) -> int:
        return len(self._items)

    def push(self, text: str, state: bool = False) -> None:
        """Queue one message; a ``state`` replaces an unsent older state.  Over the byte
        limit the outbox closes with 1008 and drops what it holds."""
        if self.close_code is not None:
            return
        if state:
            if self._state is None:
                self._items.append(STATE)
            self._state = text
        elif self.size + len(text) > self.limit:
            self.close(TOO_SLOW)
            return
        else:
            self._items.append(text)
            self.size += len(text)
        self._ready.set()

    def close(self, code: int) -> None:
        """Close: 1008 drops the unsent messages at once; other codes (1001: the server
        stops; 4410: the table expired) close after them."""
        if self.close_code is not None:
            return
        self.close_code = code
        if code == TOO_SLOW:
            self._items.clear()
            self._state = None
            self.size = 0
        self._ready.set()

    async def next(self) -> str | None:
        """The next message to send; ``None`` once closed (and, but for 1008, emptied)."""
        while not self._items:
            if self.close_code is not None:
                return None
            self._ready.clear()
            await self._ready.wait()
        item = self._items.popleft()
        if isinstance(item, _State):
            text, self._state = self._state, None
            assert text is not None
            return text
        self.size -= len(item)
        return item


class Socket(Protocol):
    """What the writer needs of a WebSocket."""

    async def send_text(self, data: str) -> None:
        """Send one text message."""

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        """Send a close frame."""


async def write(
    peer: Socket,
    outbox: Outbox,
    abort: Callable[[], None] | None,
    timeout: float = SEND_TIMEOUT,
) -> None:
    """Send the outbox until it closes; drop the connection (``abort``) when a send takes
    longer than ``timeout`` or the outbox overflowed."""
    while (text := await outbox.next()) is not None:
        if not await _within(peer.send_text(text), timeout):
            outbox.close(TOO_SLOW)
            break
    code = outbox.close_code or 1000
    closed = await _within(peer.close(code), CLOSE_TIMEOUT if code == TOO_SLOW else timeout)
    if (code == TOO_SLOW and abort is not None) or (not closed and abort is not None):
        abort()


async def _within(send: Awaitable[None], timeout: float) -> bool:
    """Whether ``send`` finished within ``timeout`` (errors count as finished).  The send
    runs in the writer's own task (``asyncio.timeout``, not ``wait_for``: no task of its
    own and no extra passes of the event loop for a send that does not wait)."""
    try:
        async with asyncio.timeout(timeout):
            await send
    except TimeoutError:
        return False
    except Exception:  # the peer is gone: nothing more to send
        return True
    return True


class TransportControl:
    """ASGI middleware: put a callable that drops a WebSocket's connection at once into
    its scope (``scope["tikki.abort"]``) and cap its socket's send buffer, when the server
    exposes its transport."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Add the abort callable (WebSockets only), then run the app."""
        if scope["type"] == "websocket":
            transport = getattr(getattr(send, "__self__", None), "transport", None)
            abort = getattr(transport, "abort", None)
            if callable(abort):
                scope[ABORT_KEY] = abort
            sock = transport.get_extra_info("socket") if transport is not None else None
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        await self.app(scope, receive, send)


def aborter(scope: Scope) -> Callable[[], None] | None:
    """The abort callable of a WebSocket's scope, if the server gave one."""
    abort = scope.get(ABORT_KEY)
    if abort is None:
        return None

    def run() -> None:
        with contextlib.suppress(Exception):
            abort()

    return run


__all__ = [
    "CLOSE_TIMEOUT",
    "OUTBOX_BYTES",
    "SEND_BUFFER",
    "SEND_TIMEOUT",
    "TOO_SLOW",
    "Outbox",
    "TransportControl",
    "aborter",
    "write",
]
