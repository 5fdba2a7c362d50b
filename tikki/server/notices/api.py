"""Sending a notice: :func:`notify`, the one call every feature uses (a challenge, a
correspondence table's turn, a tournament starting).

The notice is stored (:class:`~.store.Notices`), the account's open pages get it over
``/ws/account`` at once (this process's sockets are woken, :mod:`~.wake`; a cluster's
other processes learn it by ``NOTIFY tikki_notices`` and wake theirs: the same path,
:meth:`Notifier.changed`, tells the open pages that notices were marked read), and
when the host configured SMTP and the account asked for mail, a mail goes out in a
worker thread (at most :data:`MAILS_PER_HOUR` an hour to one address).  Nothing here
raises into the caller: a notice that cannot be stored or mailed is logged and dropped
(the game goes on)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from tikki.server.notices.mail import SmtpSettings, send
from tikki.server.notices.store import Notices
from tikki.server.notices.wake import Wakes
from tikki.server.quota import RateLimiter

log = logging.getLogger("tikki.server")

MAILS_PER_HOUR = 20.0
"""Mails one e-mail address may be sent an hour (a burst of :data:`MAIL_BURST`), whichever
accounts gave it: an address is not checked to be its account's, so one person's
accounts cannot mail a stranger's inbox more than this."""
MAIL_BURST = 10.0

KINDS = ("your_turn", "challenge", "tournament_start")
"""The kinds of notice: it is your move at a correspondence table (``data``: ``table``,
``game``, ``title``, ``deadline``), a friend challenges you (``from``, ``game``,
``title``, ``challenge``), a tournament you entered starts (``tournament``: its id,
whose page ``/tournaments/ID`` the bell's list links, and ``name``)."""


class Notifier:
    """The app's notices and its mailer (``app.state.notices``)."""

    def __init__(self, store: Notices, smtp: SmtpSettings | None = None) -> None:
        self.store = store
        self.smtp = smtp
        self.mailing: set[asyncio.Task[bool]] = set()
        """Mails being sent (kept so that they are not collected half-way)."""
        self.wakes = Wakes()
        """This process's open account sockets, woken when a notice is stored."""
        self.mails = RateLimiter(MAILS_PER_HOUR / 60.0, MAIL_BURST)
        """Mails sent to each e-mail address (by the address, case folded)."""
        self.spread: Callable[[int], Awaitable[None]] | None = None
        """Tells the cluster's other processes of an account's new notice (set by the
        app: :meth:`~tikki.server.cluster.Ownership.notice`)."""

    async def notify(
        self, account_id: int, kind: str, data: dict[str, Any], sender: int | None = None
    ) -> int | None:
        """Store and deliver one notice; its id (``None``: dropped, see
        :meth:`Notices.add`).  A mail goes only for a new notice (not for the
        replacement of the same table's unread ``your_turn``: one mail until it is read).
        ``ValueError`` for a kind not in :data:`KINDS`."""
        if kind not in KINDS:
            raise ValueError(f"unknown notice kind {kind!r}: one of {', '.join(KINDS)}")
        try:
            added = await asyncio.to_thread(self.store.add, account_id, kind, data, sender)
        except Exception:
            log.exception("the %s notice for account %d was not stored", kind, account_id)
            return None
        if added is not None:
            await self.changed(account_id)
        if added is not None and added.fresh and self.smtp is not None:
            task = asyncio.create_task(self._mail(account_id, kind, data))
            self.mailing.add(task)
            task.add_done_callback(self.mailing.discard)
        return None if added is None else added.id

    async def changed(self, account_id: int) -> None:
        """The account's notices changed (one stored, some marked read): wake its open
        sockets here, and tell the other processes, so that every open page of the
        account sees it at once."""
        self.wakes.wake(account_id)
        if self.spread is not None:
            try:
                await self.spread(account_id)
            except Exception:  # their sockets read it at their next safety read
                log.exception("the cluster was not told of account %d's notice", account_id)

    async def _mail(self, account_id: int, kind: str, data: dict[str, Any]) -> bool:
        """Mail the notice if the account wants mail (in a worker thread)."""
        smtp = self.smtp
        try:
            to = await asyncio.to_thread(self.store.mail_to, account_id)
            if smtp is None or to is None:
                return False
            if self.mails.take(to.address.casefold()) > 0:
                log.warning("the %s notice mail for account %d was not sent: its address "
                            "had %g mails this hour", kind, account_id, MAILS_PER_HOUR)  # fmt: skip
                return False
            return await asyncio.to_thread(send, smtp, to.address, to.lang, kind, data)
        except Exception:
            log.exception("the %s notice mail for account %d failed", kind, account_id)
            return False

    async def settle(self) -> None:
        """Wait for the mails being sent (tests, and a server that stops)."""
        if self.mailing:
            await asyncio.gather(*self.mailing, return_exceptions=True)


def notifier_of(app_or_store: Any) -> Notifier:
    """The :class:`Notifier` of an app, a request or a websocket (``.app.state``), or
    the one given."""
    if isinstance(app_or_store, Notifier):
        return app_or_store
    holder: Any = getattr(app_or_store, "app", app_or_store)
    found: Notifier = holder.state.notices
    return found


async def notify(
    app_or_store: Any, account_id: int, kind: str, data: dict[str, Any], sender: int | None = None
) -> None:
    """Notify ``account_id`` of ``kind`` (:data:`KINDS`) with ``data`` (JSON): stored, sent
    live to its open pages, mailed if the host and the account want mail.  ``app_or_store``
    is the FastAPI app, a request or websocket, or a :class:`Notifier`; ``sender``, the
    account that caused it (a block between them drops it).  Never raises for a failure
    to store or mail (logged); ``ValueError`` for an unknown kind."""
    await notifier_of(app_or_store).notify(account_id, kind, data, sender)


__all__ = ["KINDS", "MAILS_PER_HOUR", "Notifier", "notifier_of", "notify"]
