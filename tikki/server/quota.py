"""What one client may ask of the server: rates, caps and the life of a waiting table.

:class:`Policy` holds every limit (each a ``tikki serve`` option); :class:`RateLimiter` is
a token bucket per client address.  A refusal is :func:`rate_limited`: ``429`` with
``{code: "rate_limited", message}`` and a ``Retry-After`` header.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from tikki.i18n import _
from tikki.server.errors import ApiError
from tikki.server.pool import cores

CAP_RETRY = 60
"""``Retry-After`` (seconds) when a cap on live tables is reached."""


@dataclass(frozen=True)
class Policy:
    """The server's limits (defaults suit a public server on a small machine)."""

    allow_bot_specs: bool = False
    """Accept any bot spec the server can run, not only the named levels."""
    bot_workers: int = 0
    """Worker processes for searching bots (0: one per core)."""
    create_per_minute: float = 10
    """Tables one client address may create per minute (a burst of as many)."""
    join_per_minute: float = 30
    """Seats one client address may take per minute (a burst of as many)."""
    tables_per_address: int = 20
    """Live (waiting or playing) tables one client address may have created."""
    max_tables: int = 2000
    """Live tables on the whole server."""
    waiting_expiry: float = 24 * 3600
    """Seconds after which a table still waiting for players is removed."""
    sync_per_minute: float = 60
    """``sync`` messages one connection may send per minute (a burst of 10)."""
    analysis_samples: int = 60
    """Determinizations per decision of "Analyse my game" (more: surer and slower)."""
    away_after: float = 120
    """Seconds a seated person may be away (no connection) before the others may hand the
    seat to a bot."""
    stalled_expiry: float = 3600
    """Seconds after the last move at which a table being played leaves the lobby's list
    (it stays reachable by its link)."""
    min_turn_timer: int = 30
    """The shortest turn timer a table may ask for (below 30 only for tests and demos:
    then any whole number of seconds from it to 120 is accepted)."""

    def __post_init__(self) -> None:
        numbers = {
            "--create-rate": self.create_per_minute,
            "--join-rate": self.join_per_minute,
            "--tables-per-address": self.tables_per_address,
            "--max-tables": self.max_tables,
            "--waiting-expiry": self.waiting_expiry,
            "--sync-rate": self.sync_per_minute,
            "--away-after": self.away_after,
            "--stalled-expiry": self.stalled_expiry,
        }
        for option, value in numbers.items():
            if not value > 0:
                raise ValueError(
                    _("{option} is a number > 0, not {value}", option=option, value=value)
                )
        if self.analysis_samples < 2:
            raise ValueError(
                _("--analysis-samples is 2 or more, not {value}", value=self.analysis_samples)
            )
        if not 1 <= self.min_turn_timer <= 30:
            raise ValueError(
                _("--min-turn-timer is 1–30 seconds, not {value}", value=self.min_turn_timer)
            )
        if self.bot_workers < 0:
            raise ValueError(
                _(
                    "--bot-workers is 0 (one per core) or more, not {bot_workers}",
                    bot_workers=self.bot_workers,
                )
            )

    @property
    def workers(self) -> int:
        """Search worker processes."""
        return self.bot_workers or cores()


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

    def _prune(self, now: float) -> None:
        rate, burst = self.rate, self.burst
        full = [k for k, (t, then) in self._buckets.items() if t + (now - then) * rate >= burst]
        for key in full:
            del self._buckets[key]


__all__ = ["CAP_RETRY", "Policy", "RateLimiter", "rate_limited"]
