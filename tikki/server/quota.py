"""What one client may ask of the server: rates, caps and the life of a waiting table.

:class:`Policy` holds every limit (each a ``tikki serve`` option); :class:`RateLimiter` is
a token bucket per client address.  A refusal is :func:`rate_limited`: ``429`` with
``{code: "rate_limited", message}`` and a ``Retry-After`` header.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from tikki.i18n import _
from tikki.serve_settings import Policy
from tikki.server.errors import ApiError

CAP_RETRY = 60
"""``Retry-After`` (seconds) when a cap on live tables is reached."""


def client_key(host: str | None) -> str:
    """The key of a client's limits: its IPv4 address, the /64 network of an IPv6 one
    (one home or host gets a whole /64), ``unknown`` without one."""
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def rate_limited(message: str, retry_after: float) -> ApiError:
    """The refusal of a request over a limit; retry after ``retry_after`` seconds."""
    wait = max(1, math.ceil(retry_after))
    return ApiError(
        "rate_limited",
        _("{message}: try again in {wait} s", message=message, wait=wait),
        retry_after=wait,
    )


class RateLimiter:
    """A token bucket per key: ``per_minute`` tokens a minute, at most ``burst`` saved."""

    PRUNE_AT = 10_000
    """Keys kept before full (idle) buckets are forgotten."""

    def __init__(
        self,
        per_minute: float,
        burst: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = per_minute / 60.0
        self.burst = burst if burst is not None else max(1.0, per_minute)
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}

    def take(self, key: str) -> float:
        """Spend one token of ``key``: 0 if there was one, else the seconds until there is."""
        now = self.clock()
        tokens, then = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens < 1:
            self._buckets[key] = (tokens, now)
            return (1 - tokens) / self.rate
        if len(self._buckets) >= self.PRUNE_AT:
            self._prune(now)
        self._buckets[key] = (tokens - 1, now)
        return 0.0

    def wait(self, key: str) -> float:
        """The seconds until ``key`` has a token (0: it has one now); nothing is spent."""
        now = self.clock()
        tokens, then = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        return 0.0 if tokens >= 1 else (1 - tokens) / self.rate

    def spend(self, key: str, refusal: Callable[[], str]) -> None:
        """Spend one token of ``key``; ``rate_limited`` with the words of ``refusal`` and
        the seconds to wait when there is none."""
        wait = self.take(key)
        if wait > 0:
            raise rate_limited(refusal(), wait)

    def _prune(self, now: float) -> None:
        rate, burst = self.rate, self.burst
        full = [k for k, (t, then) in self._buckets.items() if t + (now - then) * rate >= burst]
        for key in full:
            del self._buckets[key]


class Throttles:
    """The per-address limits outside the table manager: WebSocket connects, hints and
    expensive reads (token buckets), and the WebSockets each address holds open."""

    def __init__(self, policy: Policy, clock: Callable[[], float] = time.monotonic) -> None:
        self.policy = policy
        self.connects = RateLimiter(policy.connects_per_minute, clock=clock)
        self.hints = RateLimiter(policy.hints_per_minute, HINT_BURST, clock=clock)
        self.reads = RateLimiter(policy.reads_per_minute, READ_BURST, clock=clock)
        self.sockets: dict[str, int] = {}
        """Open WebSockets by client address."""
        self.watching = 0
        """Open watchers' (spectators') WebSockets on the server."""
        self.most_watchers: int | None = None
        """The watchers' share of the server's connections (``None``: no cap; ``tikki
        serve`` sets it from :attr:`Limits.most_watchers`)."""

    def read(self, address: str) -> None:
        """Spend one expensive read of ``address``; ``rate_limited`` when it has none."""
        self.reads.spend(
            address,
            lambda: _(
                "your address may make {n:g} such requests a minute",
                n=self.policy.reads_per_minute,
            ),
        )

    def hint(self, address: str) -> None:
        """Spend one hint of ``address``; ``rate_limited`` when it has none."""
        self.hints.spend(
            address,
            lambda: _(
                "your address may ask for {n:g} hints a minute", n=self.policy.hints_per_minute
            ),
        )

    def open_socket(self, address: str) -> None:
        """Count a new WebSocket of ``address``; ``rate_limited`` over the connect rate or
        the address's cap (then nothing is counted)."""
        self.connects.spend(
            address,
            lambda: _(
                "your address may open {n:g} connections a minute",
                n=self.policy.connects_per_minute,
            ),
        )
        held = self.sockets.get(address, 0)
        if held >= self.policy.watchers_per_address:
            raise rate_limited(
                _(
                    "your address has {n} connections open, its limit: close one first",
                    n=held,
                ),
                CAP_RETRY,
            )
        self.sockets[address] = held + 1

    def watch(self) -> None:
        """Count a new watcher's WebSocket; ``rate_limited`` when the watchers' share of
        the server's connections is taken (the rest is kept for seated players)."""
        if self.most_watchers is not None and self.watching >= self.most_watchers:
            raise rate_limited(
                _(
                    "the server holds {n} watchers, its limit (the other connections are "
                    "kept for seated players): watch later",
                    n=self.watching,
                ),
                CAP_RETRY,
            )
        self.watching += 1

    def unwatch(self) -> None:
        """Forget one watcher's WebSocket."""
        self.watching = max(0, self.watching - 1)

    def close_socket(self, address: str) -> None:
        """Forget one WebSocket of ``address``."""
        left = self.sockets.get(address, 0) - 1
        if left > 0:
            self.sockets[address] = left
        else:
            self.sockets.pop(address, None)


@dataclass(frozen=True)
class TableCounts:
    """What the caps on new tables count: live tables, those where only bots play, and
    the asking address's live tables and its tables that nobody has played at yet,
    joined or not (tables being created included)."""

    live: int
    bot_tables: int
    own: int = 0
    lone: int = 0
    lone_wait: float | None = None
    """Seconds until the first of those unplayed tables expires (``None``: none)."""


def check_live_tables(n: int, policy: Policy) -> None:
    """The server's cap on live tables."""
    if n >= policy.max_tables:
        message = _(
            "the server has {n_live} live tables, its limit: join a "
            "waiting table from the lobby, or create one later",
            n_live=n,
        )
        raise rate_limited(message, CAP_RETRY)


def check_bot_tables(n: int, policy: Policy) -> None:
    """The server's cap on tables where only bots play."""
    if n >= policy.max_bot_tables:
        message = _(
            "the server has {n} tables where only bots play, its limit: "
            "sit at a table yourself, or try later",
            n=n,
        )
        raise rate_limited(message, CAP_RETRY)


def check_own_tables(n: int, policy: Policy) -> None:
    """The cap on one address's live tables."""
    if n >= policy.tables_per_address:
        message = _(
            "your address has {own} live tables, the limit per address: "
            "finish one (or let a waiting one expire) before creating "
            "more",
            own=n,
        )
        raise rate_limited(message, CAP_RETRY)


def check_lone_tables(n: int, policy: Policy, wait: float | None = None) -> None:
    """The cap on one address's tables that nobody has played at yet (waiting, or full
    without a person's move), whoever joined them; ``wait``: the seconds until the first
    of them expires (a correspondence table's first allowance is hours)."""
    if n < policy.waiting_per_address:
        return
    if wait is not None and wait > 3600:
        message = _(
            "your address has {n} tables where nobody played yet, the limit: play at "
            "one, or let one expire (the first in {hours} h)",
            n=n,
            hours=round(wait / 3600),
        )
    else:
        message = _(
            "your address has {n} tables where nobody played yet, the limit: play at "
            "one, or let one expire (in minutes)",
            n=n,
        )
    raise rate_limited(message, CAP_RETRY)


class TableCaps:
    """Whether a new table may be made: the caps on live tables (the server's, the
    bot-only ones, an address's, an address's unplayed ones) and the creation rate."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.creates = RateLimiter(policy.create_per_minute)

    def admit(self, counts: TableCounts, address: str | None, bots_only: bool) -> None:
        """Refuse (``rate_limited``) a new table over a cap or the creation rate; nothing
        is spent then."""
        policy = self.policy
        check_live_tables(counts.live, policy)
        if bots_only:
            check_bot_tables(counts.bot_tables, policy)
        if address is None:
            return
        check_own_tables(counts.own, policy)
        if not bots_only:
            check_lone_tables(counts.lone, policy, counts.lone_wait)
        self.creates.spend(
            address,
            lambda: _(
                "your address may create {create_per_minute:g} tables a minute",
                create_per_minute=policy.create_per_minute,
            ),
        )


HINT_BURST = 10
"""Hints an address may ask for at once before :attr:`Policy.hints_per_minute` applies."""
READ_BURST = 30
"""Expensive reads an address may make at once before the rate applies."""


__all__ = [
    "CAP_RETRY",
    "HINT_BURST",
    "READ_BURST",
    "Policy",
    "RateLimiter",
    "TableCaps",
    "TableCounts",
    "Throttles",
    "client_key",
    "rate_limited",
]
