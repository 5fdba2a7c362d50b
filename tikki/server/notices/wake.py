"""Waking the account sockets at once when a notice is stored: each open socket of an
account waits on an :class:`asyncio.Event` kept here, and :meth:`Wakes.wake` sets every
one of that account (the notifier calls it for a notice stored by this process; a
cluster's ``tikki_notices`` notification calls it for one stored by another).  Each
event is set on its own socket's event loop, so a wake from another thread is safe."""

from __future__ import annotations

import asyncio
import contextlib
import threading


class Wakes:
    """The events of the open account sockets of this process, by account."""

    def __init__(self) -> None:
        self.waiting: dict[int, set[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = {}
        self.lock = threading.Lock()

    def add(self, account: int) -> asyncio.Event:
        """A new socket of ``account`` (on the running loop): the event it waits on."""
        event = asyncio.Event()
        with self.lock:
            self.waiting.setdefault(account, set()).add((asyncio.get_running_loop(), event))
        return event

    def discard(self, account: int, event: asyncio.Event) -> None:
        """A socket closed: forget its event."""
        with self.lock:
            found = self.waiting.get(account, set())
            found -= {pair for pair in found if pair[1] is event}
            if not found:
                self.waiting.pop(account, None)

    def wake(self, account: int) -> int:
        """Wake every open socket of ``account``; how many."""
        with self.lock:
            found = list(self.waiting.get(account, ()))
        for loop, event in found:
            with contextlib.suppress(RuntimeError):  # its loop closed: the socket is gone
                loop.call_soon_threadsafe(event.set)
        return len(found)


__all__ = ["Wakes"]
