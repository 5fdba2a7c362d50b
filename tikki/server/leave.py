"""People who leave a table (issue #12): turn timers, resigning, away seats, stand-ins.

A *stand-in* is a bot (:data:`STAND_IN`, the Medium level) playing a person's seat. Each
stand-in is a :class:`Takeover`: which seat, from which move (``seq``) to which (``None``
while it plays on), which bot and why:

- ``resigned``: the person resigned; the bot plays to the end;
- ``away``: the person has no connection (for ``away_after`` seconds, or when their turn
  timer ran out) and the seat was handed to a bot: by another seated person (one who
  resigned and still watches too), or by the server itself when no other person who still
  plays is at the table, so that every table finishes; the bot plays until they come back;
- ``timeout``: the person is here, but their turn timer ran out (a table whose
  ``on_timeout`` is ``wait``) and another person let a bot play: the bot plays that one
  turn only (a timer running out is not being away);
- ``timer``: the turn timer ran out at a table whose ``on_timeout`` is ``bot``: the bot
  plays that one turn.

``away`` and ``timeout`` stand-ins end when the person comes back (reconnects with the
seat's token, or plays).  The takeovers are stored with the table, published in
``TABLE.takeovers`` and written into the game's record.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tikki.core import JSON
from tikki.i18n import _
from tikki.server.errors import ApiError

TIMERS = (30, 60, 120)
"""The turn timers (seconds) a table may have; no timer is the default."""
ON_TIMEOUT = ("wait", "bot")
"""What happens when a turn timer runs out: the others may hand the seat to a bot
(``wait``), or a bot plays that turn (``bot``)."""
STAND_IN = "heuristic"
"""The bot that plays for a person who left (the Medium level)."""
WHY = ("resigned", "away", "timeout", "timer")
"""Why a bot plays a person's seat (see the module's text)."""
TAKEN_BACK = frozenset({"away", "timeout"})
"""Stand-ins that end when the person comes back."""


@dataclass
class Takeover:
    """A bot playing a person's seat from move ``start`` (a seq) to ``end`` (``None``: on)."""

    seat: int
    start: int
    bot: str
    why: str
    end: int | None = None

    def json(self) -> JSON:
        """The stored and published form: ``{seat, from, to, bot, why}``."""
        return {"seat": self.seat, "from": self.start, "to": self.end, "bot": self.bot,
                "why": self.why}  # fmt: skip

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Takeover:
        """Read the stored form back."""
        return cls(int(data["seat"]), int(data["from"]), str(data["bot"]), str(data["why"]),
                   None if data.get("to") is None else int(data["to"]))  # fmt: skip


def active(takeovers: list[Takeover], seat: int) -> Takeover | None:
    """The stand-in playing ``seat`` now, if any."""
    for takeover in reversed(takeovers):
        if takeover.seat == seat:
            return takeover if takeover.end is None else None
    return None


def ended(takeovers: list[Takeover], seat: int, seq: int) -> list[Takeover]:
    """A copy of ``takeovers`` with the stand-in of ``seat`` ended at ``seq``."""
    out = []
    for takeover in takeovers:
        if takeover.seat == seat and takeover.end is None:
            takeover = Takeover(takeover.seat, takeover.start, takeover.bot, takeover.why, seq)
        out.append(takeover)
    return out


def allowed_timers(min_timer: int) -> str:
    """The turn timers a server accepts, in words."""
    timers = ", ".join(str(t) for t in TIMERS)
    if min_timer < TIMERS[0]:
        return _(
            "off (null), {timers} seconds, or (this server) any whole number {low}–{high}",
            timers=timers,
            low=min_timer,
            high=TIMERS[-1],
        )
    return _("off (null), {timers} seconds", timers=timers)


def parse_timer(value: Any, on_timeout: Any, min_timer: int) -> tuple[int | None, str]:
    """A create request's ``turn_timer`` and ``on_timeout`` checked: ``(seconds or None,
    on_timeout)``; :class:`ApiError` ``bad_timer`` names the allowed values."""
    if on_timeout is None:
        on_timeout = "wait"
    if on_timeout not in ON_TIMEOUT:
        raise ApiError(
            "bad_timer",
            _(
                "on_timeout is 'wait' (the others may hand the seat to a bot) or 'bot' (a bot "
                "plays that turn), not {value!r}",
                value=on_timeout,
            ),
        )
    if value is None or value == "off":
        return None, on_timeout
    seconds = value if isinstance(value, int) and not isinstance(value, bool) else None
    if seconds is None and isinstance(value, str) and value.isascii() and value.isdigit():
        seconds = int(value)
    fits = seconds is not None and (
        seconds in TIMERS or (min_timer < TIMERS[0] and min_timer <= seconds <= TIMERS[-1])
    )
    if not fits:
        raise ApiError(
            "bad_timer",
            _(
                "turn_timer is {allowed}, not {value!r}",
                allowed=allowed_timers(min_timer),
                value=value,
            ),
        )
    return seconds, on_timeout


__all__ = [
    "ON_TIMEOUT",
    "STAND_IN",
    "TAKEN_BACK",
    "TIMERS",
    "WHY",
    "Takeover",
    "active",
    "allowed_timers",
    "ended",
    "parse_timer",
]
