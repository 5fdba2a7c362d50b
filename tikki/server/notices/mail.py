"""E-mail notices through an SMTP server the host configures: off unless
``TIKKI_SMTP_HOST`` is set (docs/hosting.md, "E-mail notices").

The settings come from the environment: ``TIKKI_SMTP_HOST``, ``TIKKI_SMTP_PORT``
(default 587, or 25 without STARTTLS), ``TIKKI_SMTP_FROM`` (the sender address),
``TIKKI_SMTP_USER`` and ``TIKKI_SMTP_PASSWORD`` (optional), ``TIKKI_SMTP_STARTTLS``
(``1``/``0``, default ``1``) and ``TIKKI_SITE_URL`` (the links in the mail).  A mail is
sent in a worker thread, never on the event loop; a failure is logged, never raised."""

from __future__ import annotations

import logging
import smtplib
import ssl
from collections.abc import Mapping
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any

from tikki.i18n import _, use

log = logging.getLogger("tikki.server")

TIMEOUT = 20.0
"""Seconds a mail may take to send."""


@dataclass(frozen=True)
class SmtpSettings:
    """How to reach the host's SMTP server."""

    host: str
    port: int
    sender: str
    user: str | None = None
    password: str | None = None
    starttls: bool = True
    site: str = ""

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> SmtpSettings | None:
        """The settings in ``env`` (``None``: e-mail is off, the default)."""
        host = env.get("TIKKI_SMTP_HOST", "").strip()
        if not host:
            return None
        starttls = env.get("TIKKI_SMTP_STARTTLS", "1").strip().lower() not in ("0", "no", "false")
        port = int(env.get("TIKKI_SMTP_PORT", "587" if starttls else "25"))
        return cls(
            host=host, port=port, sender=env.get("TIKKI_SMTP_FROM", f"tikki@{host}"),
            user=env.get("TIKKI_SMTP_USER") or None,
            password=env.get("TIKKI_SMTP_PASSWORD") or None,
            starttls=starttls, site=env.get("TIKKI_SITE_URL", "").rstrip("/"),
        )  # fmt: skip


def subject_and_body(kind: str, data: Mapping[str, Any], site: str) -> tuple[str, str]:
    """A notice's mail, in the active language."""
    table = str(data.get("table") or "")
    game = data.get("title") or data.get("game")
    link = f"{site}/t/{table}" if site and table else site
    if kind == "tournament_start" and site and data.get("tournament"):
        link = f"{site}/tournaments/{data['tournament']}"
    if kind == "your_turn":
        subject = _("tikki: your move at table {table}", table=table)
        body = _("It is your move in {game} at table {table}.", game=game, table=table)
    elif kind == "challenge":
        subject = _("tikki: {name} challenges you", name=data.get("from"))
        body = _("{name} challenges you to a game of {game}.", name=data.get("from"), game=game)
    else:
        subject = _("tikki: a tournament starts")
        body = _("The tournament {name} starts now.", name=data.get("name") or "")
    return subject, f"{body}\n\n{link}\n" if link else f"{body}\n"


def send(settings: SmtpSettings, to: str, lang: str, kind: str, data: Mapping[str, Any]) -> bool:
    """Send one notice by mail (blocking: run it in a worker thread); whether it went.
    A failure is logged, not raised."""
    message = EmailMessage()
    with use(lang):
        subject, body = subject_and_body(kind, data, settings.site)
    message["Subject"], message["From"], message["To"] = subject, settings.sender, to
    message.set_content(body)
    try:
        with smtplib.SMTP(settings.host, settings.port, timeout=TIMEOUT) as smtp:
            if settings.starttls:
                smtp.starttls(context=ssl.create_default_context())
            if settings.user and settings.password:
                smtp.login(settings.user, settings.password)
            smtp.send_message(message)
    except (OSError, smtplib.SMTPException) as err:
        log.warning("the %s notice mail was not sent: %s", kind, err)
        return False
    return True


__all__ = ["SmtpSettings", "send", "subject_and_body"]
