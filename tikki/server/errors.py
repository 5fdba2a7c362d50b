"""Protocol errors: a code, a message that says what is wrong and what would be right."""

from __future__ import annotations

from typing import Any

STATUS = {
    "bad_request": 422,
    "bad_message": 400,
    "bad_options": 400,
    "bad_bot": 400,
    "seed_not_allowed": 400,
    "illegal_move": 400,
    "bad_record": 400,
    "bad_timer": 400,
    "bad_token": 403,
    "bad_invite": 403,
    "spectator": 403,
    "unknown_table": 404,
    "unknown_seat": 404,
    "unknown_game": 404,
    "seat_taken": 409,
    "not_started": 409,
    "finished": 409,
    "not_your_turn": 409,
    "stale": 409,
    "not_finished": 409,
    "resigned": 409,
    "not_away": 409,
    "not_waiting": 409,
    "moved": 409,
    "revoked": 403,
    "no_help_rated": 403,
    "too_slow": 408,
    "not_found": 404,
    "too_large": 413,
    "unavailable": 503,
    "rate_limited": 429,
}
"""The HTTP status of every error code."""


class ApiError(Exception):
    """A refused request; nothing was changed.  ``seq`` is the table's state, if known."""

    def __init__(
        self, code: str, message: str, seq: int | None = None, retry_after: int | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.seq = seq
        self.retry_after = retry_after
        """Seconds to wait before trying again (``rate_limited``: the ``Retry-After``)."""

    @property
    def status(self) -> int:
        """The HTTP status for this error."""
        return STATUS.get(self.code, 400)

    def detail(self) -> dict[str, Any]:
        """The HTTP error body's ``detail``."""
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.seq is not None:
            out["seq"] = self.seq
        return out

    def message_json(self) -> dict[str, Any]:
        """The WebSocket ``error`` message."""
        return {"type": "error", **self.detail()}


UNAVAILABLE_RETRY = 1
"""The ``Retry-After`` (s) of a ``503 unavailable`` that names none (a table moving)."""


__all__ = ["STATUS", "UNAVAILABLE_RETRY", "ApiError"]
