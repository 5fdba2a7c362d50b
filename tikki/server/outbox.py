"""What a WebSocket connection still has to send, and the task that sends it.

A client that never reads must not pin the server's memory.  So each connection's
:class:`Outbox` is bounded in bytes (:data:`OUTBOX_BYTES`), state messages *coalesce* (a
connection holds at most one unsent state: the newest, in the place of the first one not
yet sent; :attr:`Outbox.sent_mark` says what the newest state that left brought the
client to, so a history delta is relative to what the connection was actually sent), and
:func:`write` gives each send :data:`SEND_TIMEOUT` seconds: a connection that stays
behind past that is dropped at the transport (close code 1008 where a close frame can
still get through).  :class:`TransportControl` is the ASGI middleware that lets the
writer drop a connection at once instead of waiting on a peer that does not read, and
that caps the kernel's send buffer of each WebSocket (:data:`SEND_BUFFER`), so a peer
that does not read is noticed in seconds, not after megabytes.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections import deque
from collections.abc import Callable, Coroutine, Generator
from typing import Any, Protocol

from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

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
SEND_KEY = "tikki.send"
"""Where :class:`TransportControl` puts the server's own ``send`` in a WebSocket's ASGI
scope (:func:`peer`: a text message goes to it without the middlewares' wrappers)."""


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
        self._items: deque[str | _State | _Rest] = deque()
        self._state: str | None = None
        self._state_mark: object = None
        self.sent_mark: object = None
        """The ``mark`` of the newest state message that left the outbox (sent, or being
        sent): what the client has (:meth:`Table.push_state
        <tikki.server.tables.table.Table.push_state>`: its history); a state still
        queued, or replaced unsent, does not count."""
        self._ready = asyncio.Event()
        self._idle: Socket | None = None
        """The writer's peer while the writer waits with nothing queued and nothing being
        sent (:func:`write`): a message pushed then is sent at once, in the pusher's
        pass of the event loop, not by waking the writer's task."""

    def __len__(self) -> int:
        return len(self._items)

    def push(self, text: str, state: bool = False, mark: object = None) -> None:
        """Queue one message; a ``state`` replaces an unsent older state (``mark``: what
        it brings the client to, :attr:`sent_mark` once it leaves).  Over the byte limit
        the outbox closes with 1008 and drops what it holds."""
        if self.close_code is not None:
            return
        if self._idle is not None:
            if state:
                self.sent_mark = mark
            self._send_now(self._idle, text)
            return
        if state:
            if self._state is None:
                self._items.append(STATE)
            self._state = text
            self._state_mark = mark
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
            self._state = self._state_mark = None
            self.size = 0
        self._ready.set()

    def _send_now(self, peer: Socket, text: str) -> None:
        """Send ``text`` to the idle writer's ``peer`` at once.  A send whose first step
        does not finish (the transport's buffer is full: the peer does not read) is
        queued as it stands, for the writer to finish under its timeout; a send that
        fails counts as sent (the peer is gone), as in :func:`write`."""
        rest = _begin(peer.send_text(text))
        if rest is None:
            return
        self._idle = None  # the writer wakes to finish this send before anything else
        self._items.append(rest)
        self._ready.set()

    async def next(self) -> str | None:
        """The next message to send; ``None`` once closed (and, but for 1008, emptied)."""
        item = await self._next(None)
        assert not isinstance(item, _Rest)
        return item

    async def _next(self, peer: Socket | None) -> str | _Rest | None:
        """:meth:`next` for the writer of ``peer``: while it waits, messages pushed are sent
        at once (:attr:`_idle`); a send begun so that waits comes back as a :class:`_Rest`."""
        while not self._items:
            if self.close_code is not None:
                return None
            self._ready.clear()
            self._idle = peer
            try:
                await self._ready.wait()
            finally:
                self._idle = None
        item = self._items.popleft()
        if isinstance(item, _State):
            text, self._state = self._state, None
            self.sent_mark, self._state_mark = self._state_mark, None
            assert text is not None
            return text
        if isinstance(item, _Rest):
            return item
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
    while (item := await outbox._next(peer)) is not None:
        send = item if isinstance(item, _Rest) else peer.send_text(item)
        if not await _within(send, timeout):
            outbox.close(TOO_SLOW)
            break
    code = outbox.close_code or 1000
    closed = await _within(peer.close(code), CLOSE_TIMEOUT if code == TOO_SLOW else timeout)
    if (code == TOO_SLOW and abort is not None) or (not closed and abort is not None):
        abort()


async def _within(send: Coroutine[Any, Any, None] | _Rest, timeout: float) -> bool:
    """Whether ``send`` finished within ``timeout`` (errors count as finished).  Its first
    step runs at once: a send that does not wait (the transport takes the frame) needs no
    timer; one that waits (the peer does not read), or a :class:`_Rest`, finishes under
    ``asyncio.timeout`` in the writer's own task (not ``wait_for``: no task of its own)."""
    rest = send if isinstance(send, _Rest) else _begin(send)
    if rest is None:
        return True
    try:
        async with asyncio.timeout(timeout):
            await rest
    except TimeoutError:
        return False
    except Exception:
        return True
    return True


def _begin(send: Coroutine[Any, Any, None]) -> _Rest | None:
    """Run ``send`` to its first wait: the rest of it, or ``None`` when it finished there
    (``StopIteration``) or failed (the peer is gone: nothing more to send)."""
    try:
        return _Rest(send, send.send(None))
    except Exception:
        return None


class _Rest:
    """The rest of a coroutine that already ran to its first wait (``waiting``: what it
    yielded there), to be awaited like the coroutine itself."""

    __slots__ = ("_coro", "_waiting")

    def __init__(self, coro: Coroutine[Any, Any, None], waiting: Any) -> None:
        self._coro = coro
        self._waiting = waiting

    def __await__(self) -> Generator[Any, Any, None]:
        coro, waiting = self._coro, self._waiting
        while True:
            try:
                sent = yield waiting
            except GeneratorExit:
                coro.close()
                raise
            except BaseException as err:  # a cancellation (the timeout): passed on
                try:
                    waiting = coro.throw(err)
                except StopIteration:
                    return
            else:
                try:
                    waiting = coro.send(sent)
                except StopIteration:
                    return


class _Direct:
    """A WebSocket whose text messages go straight to the server's own ``send`` (the one
    :class:`TransportControl` sees), not through Starlette's ``send_text`` and the
    middlewares' ``send`` wrappers, none of which changes a ``websocket.send``: the same
    frame, with Starlette's checks and its state kept (a connection not open any more
    sends through Starlette, which refuses; a broken transport is a disconnect)."""

    __slots__ = ("_send", "_websocket")

    def __init__(self, websocket: WebSocket, send: Send) -> None:
        self._websocket = websocket
        self._send = send

    async def send_text(self, data: str) -> None:
        """Send one text message."""
        websocket = self._websocket
        if websocket.application_state is not WebSocketState.CONNECTED:
            await websocket.send_text(data)
            return
        try:
            await self._send({"type": "websocket.send", "text": data})
        except OSError:
            websocket.application_state = WebSocketState.DISCONNECTED
            raise WebSocketDisconnect(code=1006) from None

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        """Send a close frame (through Starlette, which notes the close)."""
        await self._websocket.close(code, reason)


def peer(websocket: WebSocket) -> Socket:
    """What the writer sends ``websocket``'s messages to: the server's own ``send`` where
    :class:`TransportControl` gave it (:class:`_Direct`), else the WebSocket itself."""
    send = websocket.scope.get(SEND_KEY)
    return websocket if send is None else _Direct(websocket, send)


class TransportControl:
    """ASGI middleware: put a callable that drops a WebSocket's connection at once into
    its scope (``scope["tikki.abort"]``) and cap its socket's send buffer, when the server
    exposes its transport; the server's own ``send`` goes into the scope too
    (``scope["tikki.send"]``: :func:`peer`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Add the abort callable (WebSockets only), then run the app."""
        if scope["type"] == "websocket":
            scope[SEND_KEY] = send
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
    "peer",
    "write",
]
