"""The tables' storage thread: every database call of the table manager runs on one
dedicated thread, so the event loop never waits on the database and SQLite sees one
writer."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any, TypeVar

from tikki.i18n import _
from tikki.server.db import Store, now
from tikki.server.errors import ApiError

log = logging.getLogger("tikki.server")
T = TypeVar("T")


class Clock:
    """The wall clock of table ages, shared by every part of the manager; tests replace
    :attr:`now` to move time on."""

    def __init__(self, now: Callable[[], datetime] = now) -> None:
        self.now = now

    def __call__(self) -> datetime:
        """The time as the clock tells it when called."""
        return self.now()


class Storage:
    """The database of the tables (:class:`~tikki.server.db.Store`) behind its thread."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="tikki-db")

    def restart(self) -> None:
        """A fresh storage thread (the manager starts again after :meth:`shutdown`)."""
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="tikki-db")

    def shutdown(self) -> None:
        """Wait for the calls in flight and stop the thread."""
        self._thread.shutdown(wait=True)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a storage call on the storage thread (never on the event loop)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, fn, *args)

    async def write(self, what: str, fn: Callable[..., T], *args: Any) -> T:
        """A storage write that changes nothing when it fails: ``503 unavailable``."""
        try:
            return await self.run(fn, *args)
        except Exception:
            log.exception("storing %s failed", what)
            raise ApiError(
                "unavailable", _("{what} could not be stored: try again", what=what)
            ) from None
