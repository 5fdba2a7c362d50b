"""What a login or a registration may cost the server, and how guessing is slowed.

Checking a password is the server's most expensive request: an Argon2id hash (64 MiB,
three passes, four lanes) takes every core for a third of a second.  So:

- :class:`Hashing` runs every hash in a small pool of its own (:data:`HASH_THREADS`
  threads at the lowest CPU priority, :data:`HASH_NICE`) with a short queue
  (:data:`HASH_QUEUE`): a hash that finds the queue full is refused at once
  (``503 unavailable`` with ``Retry-After``), and people's moves and bots (on the event
  loop and in the search workers, at a higher priority) keep their cores;
- :class:`LoginLimits` spends one token of a server-wide bucket per attempt
  (:data:`ATTEMPTS_PER_SECOND`, logins and registrations together), and counts failed
  logins per (account, address) pair with a growing delay: :data:`FREE_FAILURES` wrong
  passwords, then a wait of 1, 2, 4, … s (at most :data:`MAX_DELAY`) before the pair may
  try again; a right password clears the pair.  Nobody elsewhere can lock the owner out:
  another address's failures delay only that address.  Guessing one account from many
  addresses is bounded by :data:`ACCOUNT_FAILURES_PER_HOUR` failures an hour across all
  of them; past it, only addresses that signed in to the account before (within
  :data:`KNOWN_DAYS`) may try.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from tikki.i18n import _
from tikki.server.errors import ApiError
from tikki.server.quota import RateLimiter, rate_limited

T = TypeVar("T")

HASH_THREADS = 1
"""Password hashes computed at once (each uses every core for a moment)."""
HASH_QUEUE = 4
"""Hashes that may wait for the pool; one more is refused (``503``)."""
HASH_NICE = 19
"""The hashing thread's CPU priority below the server's (the lowest)."""
HASH_RETRY = 2
"""``Retry-After`` (seconds) of a hash refused because the queue is full."""
ATTEMPTS_PER_SECOND = 4.0
"""Logins and registrations the whole server takes a second (a burst of twice as many)."""
FREE_FAILURES = 5
"""Wrong passwords one address may send for one account before its delays begin."""
MAX_DELAY = 900.0
"""The longest wait (seconds) between one address's tries of one account."""
ACCOUNT_FAILURES_PER_HOUR = 200.0
"""Wrong passwords one account takes an hour from all addresses together (a burst of as
many); past it, only addresses it was signed in from may try."""
KNOWN_DAYS = 30
"""How long an address that signed in to an account stays known to it."""
KEPT = 50_000
"""The most (account, address) pairs remembered; the oldest are forgotten first."""


class Hashing:
    """A dedicated pool for password hashes with a short queue that refuses when full."""

    def __init__(
        self, threads: int = HASH_THREADS, queue: int = HASH_QUEUE, nice: int = HASH_NICE
    ) -> None:
        self.threads = threads
        self.queue = queue
        self.nice = nice
        self.pending = 0
        """Hashes running or waiting."""
        self.refused = 0
        self._executor: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def _pool(self) -> ThreadPoolExecutor:
        if self._executor is None:
            self._executor = ThreadPoolExecutor(
                self.threads, thread_name_prefix="tikki-hash", initializer=self._lower
            )
        return self._executor

    def _lower(self) -> None:
        """Run this thread (and the hash's own lanes, which inherit it) at low priority."""
        with contextlib.suppress(OSError, AttributeError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), self.nice)

    async def run(self, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` in the pool; ``unavailable`` (503, ``Retry-After``) when
        :attr:`queue` hashes already wait."""
        with self._lock:
            if self.pending >= self.threads + self.queue:
                self.refused += 1
                raise ApiError(
                    "unavailable",
                    _(
                        "the server is checking too many passwords right now: try again "
                        "in {wait} s",
                        wait=HASH_RETRY,
                    ),
                    retry_after=HASH_RETRY,
                )
            self.pending += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool(), fn, *args)
        finally:
            with self._lock:
                self.pending -= 1

    def stop(self) -> None:
        """End the pool's threads (hashes waiting are dropped)."""
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)


class LoginLimits:
    """The server-wide attempt rate, per-pair delays after failed logins, and the cap on
    one account's failures from all addresses."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.server = RateLimiter(ATTEMPTS_PER_SECOND * 60, ATTEMPTS_PER_SECOND * 2, clock)
        self.accounts = RateLimiter(
            ACCOUNT_FAILURES_PER_HOUR / 60, ACCOUNT_FAILURES_PER_HOUR, clock
        )
        self.failures: OrderedDict[tuple[str, str], tuple[int, float]] = OrderedDict()
        """(account, address) -> (failures in a row, when the pair may try again)."""
        self.known: OrderedDict[tuple[str, str], float] = OrderedDict()
        """(account, address) -> when the address last signed in to the account."""

    def attempt(self, account: str | None, address: str) -> None:
        """Refuse (``rate_limited``, ``Retry-After``) an attempt on ``account`` (``None``:
        a registration) from ``address`` that must wait; nothing is counted then."""
        now = self.clock()
        if account is not None:
            _count, free_at = self.failures.get((account, address), (0, now))
            if free_at > now:
                raise rate_limited(
                    _("too many wrong passwords for this account from your address"),
                    free_at - now,
                )
            crowded = self.accounts.wait(account)
            if crowded > 0 and not self._known(account, address, now):
                raise rate_limited(
                    _(
                        "this account has had {n:g} wrong passwords in an hour: only "
                        "addresses that signed in to it before may try now",
                        n=ACCOUNT_FAILURES_PER_HOUR,
                    ),
                    crowded,
                )
        wait = self.server.take("server")
        if wait > 0:
            raise rate_limited(
                _("the server takes {n:g} logins a second from everyone", n=ATTEMPTS_PER_SECOND),
                wait,
            )

    def failed(self, account: str, address: str) -> None:
        """Count a wrong password for ``account`` from ``address``."""
        now = self.clock()
        count, _free_at = self.failures.pop((account, address), (0, now))
        count += 1
        self.failures[account, address] = (count, now + delay(count))
        self.accounts.take(account)
        while len(self.failures) > KEPT:
            self.failures.popitem(last=False)

    def succeeded(self, account: str, address: str) -> None:
        """A right password: the pair's failures are cleared and the address is known."""
        self.failures.pop((account, address), None)
        self.known.pop((account, address), None)
        self.known[account, address] = self.clock()
        while len(self.known) > KEPT:
            self.known.popitem(last=False)

    def _known(self, account: str, address: str, now: float) -> bool:
        when = self.known.get((account, address))
        return when is not None and now - when < KNOWN_DAYS * 86400


def delay(failures: int) -> float:
    """Seconds a pair waits after its ``failures``-th wrong password in a row: none for
    the first :data:`FREE_FAILURES`, then 1, 2, 4, … up to :data:`MAX_DELAY`."""
    over = failures - FREE_FAILURES
    if over < 0:
        return 0.0
    return min(MAX_DELAY, math.pow(2.0, min(over, 30)))


__all__ = [
    "ACCOUNT_FAILURES_PER_HOUR",
    "ATTEMPTS_PER_SECOND",
    "FREE_FAILURES",
    "HASH_QUEUE",
    "HASH_THREADS",
    "MAX_DELAY",
    "Hashing",
    "LoginLimits",
    "delay",
]
