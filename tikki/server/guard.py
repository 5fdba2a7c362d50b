"""Bounded connections, on uvicorn's own protocols (h11 for HTTP, websockets).

uvicorn already bounds what it can (:func:`tikki.server.run.serve` sets them):
``limit_concurrency`` (503 past the cap), ``timeout_keep_alive`` (idle keep-alive
connections close) and ``h11_max_incomplete_event_size`` (request heads of at most
:data:`MAX_HEAD` bytes).  It has no cap on connections that were accepted but sent
nothing, nor per address, nor a deadline for a request's head; :class:`Guard` adds those:

- at most :attr:`Limits.max_connections` open connections on the server and
  :attr:`Limits.per_address` from one address (an IPv6 client's /64); a connection past
  either cap is answered ``503`` and closed at once, so its file descriptor is freed;
- a request's head must arrive within :attr:`Limits.header_timeout` seconds of the
  connection (or of the previous response), else the connection closes (slowloris);
- asyncio accepts at most :data:`ACCEPT_BATCH` connections at each wake-up of the
  listening socket (uvicorn's ``backlog``), before the guard has seen any of them, so a
  burst of queued connections fits in the spare descriptors (:data:`FILE_MARGIN`): out of
  them, asyncio stops accepting for a whole second; the kernel still queues
  :data:`LISTEN_BACKLOG` connections (:func:`tikki.server.run.bind`);
- when the process runs out of file descriptors all the same, one log line a second
  (:class:`AcceptErrors`) replaces asyncio's traceback per failed ``accept()``.

Request bodies have their own deadline in :class:`tikki.server.limits.BodyLimit`.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import itertools
import logging
import resource
import time
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from tikki.serve_settings import Limits
from tikki.server.quota import client_key

log = logging.getLogger("tikki.server")

MAX_HEAD = 16 * 1024
"""The largest request head (request line and headers) the server reads, in bytes."""
FILE_MARGIN = 256
"""File descriptors kept beyond the connection cap (database, workers, pipes, logs)."""
ACCEPT_BATCH = FILE_MARGIN // 8
"""The most connections asyncio accepts at one wake-up of the listening socket (uvicorn's
``backlog``): the guard sees them only after the batch, and a few batches must fit in
:data:`FILE_MARGIN`, or a reconnecting crowd runs the process out of descriptors."""
LISTEN_BACKLOG = 2048
"""The kernel's queue of connections not accepted yet (a full queue drops a newcomer's
SYN, and the client retries a second later)."""
REFUSED = b"HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\ncontent-length: 0\r\n\r\n"


class Throttled:
    """A log line at most once per ``every`` seconds; the lines held back are counted."""

    def __init__(self, every: float = 1.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.every = every
        self.clock = clock
        self.held = 0
        self._last = -float("inf")

    def warn(self, message: str, *args: Any) -> bool:
        """Log ``message % args`` with the count held back since the last line (or hold
        it back); whether it was logged."""
        now = self.clock()
        if now - self._last < self.every:
            self.held += 1
            return False
        self._last = now
        held, self.held = self.held, 0
        log.warning(message + " (%d more like it since the last line)", *args, held)
        return True


EVICT_SCAN = 64
"""How many of the oldest idle connections the guard weighs when it closes one."""


class Guard:
    """The open connections by address, and their caps."""

    def __init__(
        self,
        limits: Limits,
        clock: Callable[[], float] = time.monotonic,
        proxies: Sequence[str] = (),
    ) -> None:
        self.limits = limits
        self.proxies = trusted(proxies)
        """The trusted proxies: their connections carry many clients, so only the cap on
        the whole server applies to them (the proxy bounds each client's)."""
        self.open: dict[int, str] = {}
        """The address of each admitted transport (by ``id``)."""
        self.by_address: dict[str, int] = {}
        self.idle: dict[int, Callable[[], None]] = {}
        """The new HTTP connections that have sent no request yet, oldest first, each
        with the callable that closes it."""
        self.kept: dict[int, Callable[[], None]] = {}
        """The HTTP connections kept alive between requests, oldest first (closed for a
        newcomer only when no new connection sits idle)."""
        self.evicted = 0
        self.refused = 0
        self.warnings = Throttled(1.0, clock)

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        """Count a new connection, or refuse it (over a cap); an admitted one is ``True``.
        When the server is full, the oldest idle HTTP connection is closed to make room:
        connections that send nothing never keep a newcomer out."""
        if id(transport) in self.open:
            return True
        peer = transport.get_extra_info("peername")
        host = peer[0] if isinstance(peer, tuple) and peer else None
        address = client_key(host)
        held = self.by_address.get(address, 0)
        capped = held >= self.limits.per_address and not self.proxies(host)
        if len(self.open) >= self.limits.max_connections and not capped:
            self._evict_idle()
        if len(self.open) >= self.limits.max_connections or capped:
            self.refused += 1
            self.warnings.warn(
                "refused a connection from %s: %d open (cap %d), %d from it (cap %d)",
                address,
                len(self.open),
                self.limits.max_connections,
                held,
                self.limits.per_address,
            )
            return False
        self.open[id(transport)] = address
        self.by_address[address] = held + 1
        return True

    def waiting(
        self, transport: asyncio.BaseTransport, close: Callable[[], None], fresh: bool
    ) -> None:
        """The connection waits for a request head (``fresh``: its first): it may be
        closed for a newcomer."""
        self.busy(transport)
        (self.idle if fresh else self.kept)[id(transport)] = close

    def busy(self, transport: asyncio.BaseTransport) -> None:
        """The connection has a request (or became a WebSocket): it is not idle."""
        self.idle.pop(id(transport), None)
        self.kept.pop(id(transport), None)

    def _evict_idle(self) -> None:
        """Close an idle HTTP connection (and forget it at once), if any: one that never
        sent a request first, else one kept alive; of the oldest, one of the address that
        holds the most connections, so a crowd's churn closes its own, never a lone
        newcomer's that has not sent its request yet."""
        pool = self.idle or self.kept
        if not pool:
            return
        key = self._heaviest(pool)
        close = pool.pop(key)
        self._drop(key)
        self.evicted += 1
        close()

    def _heaviest(self, pool: dict[int, Callable[[], None]]) -> int:
        """Of the :data:`EVICT_SCAN` oldest connections in ``pool``, the oldest of the
        address that holds the most connections."""
        best, most = next(iter(pool)), -1
        for key in itertools.islice(pool, EVICT_SCAN):
            held = self.by_address.get(self.open.get(key, ""), 0)
            if held > most:
                best, most = key, held
        return best

    def forget(self, transport: asyncio.BaseTransport) -> None:
        """The connection closed."""
        self.busy(transport)
        self._drop(id(transport))

    def _drop(self, key: int) -> None:
        address = self.open.pop(key, None)
        if address is None:
            return
        left = self.by_address[address] - 1
        if left:
            self.by_address[address] = left
        else:
            del self.by_address[address]


def trusted(proxies: Sequence[str]) -> Callable[[str | None], bool]:
    """Whether a peer address is one of ``proxies`` (addresses, networks, or ``*``)."""
    if "*" in proxies:
        return lambda _host: True
    networks = []
    for proxy in proxies:
        with contextlib.suppress(ValueError):
            networks.append(ipaddress.ip_network(proxy, strict=False))

    def check(host: str | None) -> bool:
        if not host or not networks:
            return False
        try:
            address = ipaddress.ip_address(host.split("%", 1)[0])
        except ValueError:
            return False
        return any(address in network for network in networks)

    return check


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol under a :class:`Guard` and a deadline for request heads."""

    guard: ClassVar[Guard]
    _refused = False
    _head_timer: asyncio.TimerHandle | None = None
    _served = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Admit the connection, or answer 503 and close it at once."""
        super().connection_made(transport)
        if not self.guard.admit(transport):
            self._refused = True
            self.connections.discard(self)
            transport.write(REFUSED)
            transport.close()
            return
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        """Forget the connection."""
        self._disarm()
        if not self._refused:
            self.guard.forget(self.transport)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        """Read (nothing from a refused connection); a complete head ends its deadline."""
        if self._refused:
            return
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._disarm()

    def on_response_complete(self) -> None:
        """The next request's head has its own deadline."""
        self._served = True
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        """The connection becomes a WebSocket (still counted by the guard)."""
        self._disarm()
        super().handle_websocket_upgrade(event)

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(self.guard.limits.header_timeout, self._late)
        self.guard.waiting(self.transport, self._make_room, not self._served)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
            self.guard.busy(self.transport)

    def _make_room(self) -> None:
        """Closed, idle, for a newcomer to a full server (the guard forgot it already, and
        uvicorn's count of connections for ``limit_concurrency`` forgets it at once too)."""
        self._disarm()
        self.connections.discard(self)
        if not self.transport.is_closing():
            self.transport.close()

    def _late(self) -> None:
        """No complete request head in time: close the connection."""
        self._head_timer = None
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self.transport.close()


class GuardedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's websockets (sans-I/O) protocol, forgotten by the :class:`Guard` when it closes."""

    guard: ClassVar[Guard]

    def connection_lost(self, exc: Exception | None) -> None:
        """Forget the connection."""
        self.guard.forget(self.transport)
        super().connection_lost(exc)


def protocols(guard: Guard) -> tuple[type[GuardedH11], type[GuardedWebSocket]]:
    """uvicorn's ``http`` and ``ws`` protocol classes bound to ``guard``."""
    http = type("GuardedH11", (GuardedH11,), {"guard": guard})
    ws = type("GuardedWebSocket", (GuardedWebSocket,), {"guard": guard})
    return http, ws


class AcceptErrors:
    """An event-loop exception handler: ``accept()`` out of file descriptors gives one
    log line a second instead of a traceback each time; anything else goes on to the
    default handler."""

    MESSAGE = "socket.accept() out of system resource"

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.lines = Throttled(1.0, clock)

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """Handle one exception of the loop."""
        if context.get("message") == self.MESSAGE:
            self.lines.warn(
                "cannot accept connections: %s (raise the file limit, ulimit -n, or lower "
                "--max-connections)",
                context.get("exception"),
            )
            return
        loop.default_exception_handler(context)


def raise_file_limit(connections: int) -> int:
    """Raise this process's file limit above ``connections`` plus :data:`FILE_MARGIN`
    (as far as the hard limit allows); return the connection cap it leaves room for."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = connections + FILE_MARGIN
    if soft != resource.RLIM_INFINITY and soft < want:
        target = want if hard == resource.RLIM_INFINITY else min(want, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY:
        return connections
    return max(1, min(connections, soft - FILE_MARGIN))


__all__ = [
    "ACCEPT_BATCH",
    "FILE_MARGIN",
    "LISTEN_BACKLOG",
    "MAX_HEAD",
    "AcceptErrors",
    "Guard",
    "GuardedH11",
    "GuardedWebSocket",
    "Limits",
    "Throttled",
    "protocols",
    "raise_file_limit",
    "trusted",
]
