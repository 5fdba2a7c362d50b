"""Notices: an account's notifications (your turn at a correspondence table, a
challenge, a tournament starting), shown in the site's bell, sent live over
``/ws/account``, shown by the browser's Notification API while a page is open, and
mailed when the host configured SMTP and the account gave an address.

Every feature sends one with :func:`~.api.notify`::

    await notify(request.app, account_id, "challenge", {"from": "Anna", ...})

:mod:`~.rows` holds the tables, :mod:`~.store` reads and writes them, :mod:`~.routes`
is the HTTP API (``/api/notices…``), :mod:`~.live` the account socket's part and
:mod:`~.mail` the e-mail."""

from __future__ import annotations

from tikki.server.notices.api import KINDS, Notifier, notifier_of, notify
from tikki.server.notices.store import Notices

__all__ = ["KINDS", "Notices", "Notifier", "notifier_of", "notify"]
