"""The web server's settings, each a ``tikki serve`` option declared once.

:class:`Policy` (what one client may ask of the server, :mod:`tikki.server.quota`) and
:class:`Limits` (bounds on connections, :mod:`tikki.server.guard`) are dataclasses whose
fields, made by :func:`setting`, carry each setting's default, command-line flag and help
text: ``tikki serve`` builds its options from them (:func:`options`), and
:func:`check_positive` names the flag of a value out of range.  This module imports no
part of the server (nor the ``web`` extra), so that the command line may read it.
"""

from __future__ import annotations

import os
import typing
from dataclasses import dataclass, field, fields
from typing import Any

from tikki.i18n import _


def cores() -> int:
    """The number of CPU cores this process may use (``--bot-workers 0``: one per core)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def setting(default: Any, flag: str, help: str, *, positive: bool = True) -> Any:
    """A dataclass field with its ``tikki serve`` ``flag`` and ``help``; ``positive``: a
    value must be > 0 (:func:`check_positive`)."""
    return field(default=default, metadata={"flag": flag, "help": help, "positive": positive})


def options(cls: type[Any]) -> list[tuple[str, Any, str, str, Any]]:
    """``(name, type, flag, help, default)`` of each setting of the dataclass ``cls``, in
    its order."""
    hints = typing.get_type_hints(cls)
    return [
        (f.name, hints[f.name], f.metadata["flag"], f.metadata["help"], f.default)
        for f in fields(cls)
        if "flag" in f.metadata
    ]


def check_positive(settings: Any) -> None:
    """:class:`ValueError` naming the flag of the first positive setting that is not > 0."""
    for f in fields(settings):
        value = getattr(settings, f.name)
        if f.metadata.get("positive") and not value > 0:
            raise ValueError(
                _("{option} is a number > 0, not {value}", option=f.metadata["flag"], value=value)
            )


@dataclass(frozen=True)
class Policy:
    """The server's limits (defaults suit a public server on a small machine)."""

    allow_bot_specs: bool = setting(
        False,
        "--allow-bot-specs",
        "accept any bot spec, not only Easy/Medium/Hard/Expert",
        positive=False,
    )
    """Accept any bot spec the server can run, not only the named levels."""
    bot_workers: int = setting(
        0, "--bot-workers", "processes for searching bots (0: one per core)", positive=False
    )
    """Worker processes for searching bots (0: one per core)."""
    create_per_minute: float = setting(
        10, "--create-rate", "tables one address may create per minute"
    )
    """Tables one client address may create per minute (a burst of as many)."""
    join_per_minute: float = setting(30, "--join-rate", "seats one address may take per minute")
    """Seats one client address may take per minute (a burst of as many)."""
    tables_per_address: int = setting(
        20, "--tables-per-address", "live tables one address may create"
    )
    """Live (waiting or playing) tables one client address may have created."""
    max_tables: int = setting(2000, "--max-tables", "live tables in all")
    """Live tables on the whole server (exact, however many ask at once)."""
    waiting_per_address: int = setting(
        5, "--waiting-per-address", "tables nobody played at yet that one address may have"
    )
    """Tables nobody has played at yet (waiting, or full without a person's move), joined
    or not, per creator's address (a crowd of addresses cannot fill the server's cap with
    tables they join for each other)."""
    max_bot_tables: int = setting(
        200, "--max-bot-tables", "live tables where only bots play, in all"
    )
    """Live tables where only bots play, on the whole server (their searches queue
    behind people's tables)."""
    correspondence_per_account: int = setting(
        30,
        "--correspondence-per-account",
        "live correspondence tables (hours a move) one account may create or sit at",
    )
    """Live correspondence tables (hours a move) one account may have created or hold a
    seat at; a guest makes none (it has no notices nor a 'your turn' list)."""
    tournament_bots_per_address: int = setting(
        32,
        "--tournament-bots-per-address",
        "bots the accounts of one address may enter in their tournaments not yet over",
    )
    """Bots the accounts of one client address may have entered, together, in the
    tournaments they created that are not over yet (their tables are made outside the
    address's caps on tables: this keeps one address's share of the bot-only tables
    small)."""
    challenges_per_address: int = setting(
        3,
        "--challenges-per-address",
        "open challenges one person may have waiting from the accounts of one address",
    )
    """Open challenges one account may have waiting from the accounts of one client
    address together (the rest of its waiting list stays open to the others)."""
    max_analyses: int = setting(16, "--max-analyses", "analyses running or queued at once, in all")
    """Analyses running or queued at once on the whole server."""
    waiting_expiry: float = setting(
        600,
        "--waiting-expiry",
        "seconds a table lives while nobody plays at it, joined or not (a seated "
        "person's 'keep open' starts the time again)",
    )
    """Seconds after which a table nobody has played at (waiting for players, or full
    without a person's move) is removed, however many joined it (a seated person's "keep
    open" of a waiting table starts the time again)."""
    joined_expiry: float = setting(
        24 * 3600,
        "--joined-expiry",
        "seconds a table where people played may go without a move",
    )
    """Seconds after its last move at which a table where people have played is removed
    (the long expiry starts with play, not with a join)."""
    watchers_per_table: int = setting(
        200, "--watchers-per-table", "WebSocket connections one table may have"
    )
    """WebSocket connections one table may have."""
    watchers_per_address: int = setting(
        32, "--watchers-per-address", "WebSocket connections one address may hold"
    )
    """WebSocket connections one client address may have open."""
    watcher_idle: float = setting(
        300,
        "--watcher-idle",
        "seconds a watcher's WebSocket stays open without a table change or a message "
        "other than ping",
    )
    """Seconds after which a spectator's WebSocket that saw no table change and sent no
    message but ``ping`` is closed (4408; the page reconnects when its person acts)."""
    connects_per_minute: float = setting(
        60, "--connect-rate", "WebSocket connections one address may open a minute"
    )
    """WebSocket connections one client address may open a minute (a burst of as many)."""
    hints_per_minute: float = setting(30, "--hint-rate", "hints one address may ask for a minute")
    """Hints one client address may ask for a minute (a burst of 10)."""
    puzzles_per_minute: float = setting(
        20, "--puzzle-rate", "puzzle attempts one account (a guest: one address) may make a minute"
    )
    """Puzzle attempts one account (a guest: one client address) may make a minute (a burst
    of 10)."""
    reads_per_minute: float = setting(
        120, "--read-rate", "lobby lists and records one address may read a minute"
    )
    """Expensive reads (lobby, records, replays, analyses) one client address may make a
    minute (a burst of 30)."""
    sync_per_minute: float = setting(
        60, "--sync-rate", "sync messages a connection may send per minute"
    )
    """``sync`` messages one connection may send per minute (a burst of 10)."""
    analysis_iterations: int = setting(
        1000,
        "--analysis-iterations",
        "the judge's search iterations per decision ('Analyse my game', hints)",
        positive=False,
    )
    """The judge's budget of "Analyse my game": the expert's search iterations per decision
    (more: surer and slower; the hints use it too)."""
    away_after: float = setting(
        120,
        "--away-after",
        "seconds a seated person may be away before the others may hand the seat to a bot",
    )
    """Seconds a seated person may be away (no connection) before the others may hand the
    seat to a bot."""
    stalled_expiry: float = setting(
        3600,
        "--stalled-expiry",
        "seconds without a move after which a table being played leaves the lobby",
    )
    """Seconds after the last move at which a table being played leaves the lobby's list
    (it stays reachable by its link)."""
    min_turn_timer: int = setting(
        30,
        "--min-turn-timer",
        "shortest turn timer a table may ask for (below 30: tests and demos)",
        positive=False,
    )
    """The shortest turn timer a table may ask for (below 30 only for tests and demos:
    then any whole number of seconds from it to 120 is accepted)."""

    def __post_init__(self) -> None:
        check_positive(self)
        if self.analysis_iterations < 1:
            raise ValueError(
                _("--analysis-iterations is 1 or more, not {value}", value=self.analysis_iterations)
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


@dataclass(frozen=True)
class Limits:
    """The server's bounds on connections (each a ``tikki serve`` option)."""

    max_connections: int = setting(
        2048, "--max-connections", "open connections (HTTP and WebSocket)"
    )
    """Open connections (HTTP and WebSocket) on the whole server."""
    per_address: int = setting(64, "--connections-per-address", "open connections from one address")
    """Open connections from one client address."""
    header_timeout: float = setting(10.0, "--header-timeout", "seconds a request's head may take")
    """Seconds a request's head may take to arrive."""
    keep_alive: int = setting(5, "--keep-alive", "seconds an idle keep-alive connection stays open")
    """Seconds an idle keep-alive connection stays open."""
    body_timeout: float = setting(10.0, "--body-timeout", "seconds a request's body may take")
    """Seconds a request's body may take to arrive."""
    seat_reserve: float = setting(
        0.25,
        "--seat-reserve",
        "share of --max-connections kept for seated players (watchers are refused beyond the rest)",
    )
    """The share of :attr:`max_connections` kept for seated players: watchers' WebSockets
    are refused beyond the rest, so a crowd of watchers cannot keep a player out."""

    def __post_init__(self) -> None:
        check_positive(self)
        if not self.seat_reserve < 1:
            raise ValueError(
                _("--seat-reserve is a share below 1, not {value}", value=self.seat_reserve)
            )

    @property
    def most_watchers(self) -> int:
        """The watchers' WebSockets the server holds at once (the rest is the players')."""
        return max(1, int(self.max_connections * (1 - self.seat_reserve)))


__all__ = ["Limits", "Policy", "check_positive", "cores", "options", "setting"]
