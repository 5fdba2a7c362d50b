"""The notices' API, ``/api/notices…``: the list (newest first, with the unread count),
marking notices read, and the account's own e-mail setting (never shown to another).

Every change carries the CSRF token and needs an account."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from tikki.i18n import _, current
from tikki.server import schemas
from tikki.server.accounts import ERRORS, accounts_of, signed_in
from tikki.server.errors import STATUS, ApiError
from tikki.server.notices.api import notifier_of
from tikki.server.notices.store import Notices

STATUS.update({"bad_email": 400})

ADDRESS = re.compile(r"^[^@\s]{1,64}@[^@\s.]+(\.[^@\s.]+)+$")
"""An e-mail address's form (nothing else about it is checked)."""

NOTICE_ERRORS: dict[int | str, dict[str, Any]] = {
    **ERRORS,
    400: {"model": schemas.ErrorBody, "description": "bad_email: not an e-mail address"},
}
"""The notices' routes' error answers."""


class Read(BaseModel):
    """The notices to mark read (``null``: all of them)."""

    ids: list[int] | None = Field(None, max_length=200)


class Email(BaseModel):
    """The account's e-mail for notices (``null`` forgets it) and whether it wants mail."""

    address: str | None = Field(None, max_length=254)
    wanted: bool = True


def _store(request: Request) -> Notices:
    return notifier_of(request).store


router = APIRouter(prefix="/api/notices", tags=["notices"], responses=NOTICE_ERRORS)
"""The notices' API: ``/api/notices…``."""


@router.get("")
async def listing(request: Request) -> dict[str, Any]:
    """Your newest notices (``notices``: ``{id, kind, data, created, read}``) and how many
    are unread (``unread``); ``mail``: whether this server sends notices by e-mail."""
    me = await accounts_of(request).require(request)
    found = await asyncio.to_thread(_store(request).listing, me.id)
    return {**found, "mail": notifier_of(request).smtp is not None}


@router.post("/read")
async def mark_read(body: Read, request: Request) -> dict[str, Any]:
    """Mark your notices ``ids`` read (``null``: all); the list after.  Your other open
    pages learn it at once over ``/ws/account`` (``notices_read``)."""
    me = await signed_in(request)
    store = _store(request)
    if await asyncio.to_thread(store.mark_read, me.id, body.ids):
        await notifier_of(request).changed(me.id)  # the account's other pages see it
    found = await asyncio.to_thread(store.listing, me.id)
    return {**found, "mail": notifier_of(request).smtp is not None}


@router.get("/email")
async def email(request: Request) -> dict[str, Any]:
    """Your e-mail for notices (``address``, ``wanted``) and whether this server mails
    them at all (``mail``: the host configured SMTP)."""
    me = await accounts_of(request).require(request)
    found = await asyncio.to_thread(_store(request).email, me.id)
    return {**found, "mail": notifier_of(request).smtp is not None}


@router.post("/email")
async def set_email(body: Email, request: Request) -> dict[str, Any]:
    """Give (or with ``null`` forget) your e-mail for notices; the mail is written in the
    language of this request.  Nobody else ever sees it."""
    me = await signed_in(request)
    address = None if body.address is None else body.address.strip()
    if address == "":
        address = None
    if address is not None and not ADDRESS.match(address):
        raise ApiError("bad_email", _("{address!r} is not an e-mail address", address=address[:60]))
    store = _store(request)
    await asyncio.to_thread(store.set_email, me.id, address, body.wanted, current())
    found = await asyncio.to_thread(store.email, me.id)
    return {**found, "mail": notifier_of(request).smtp is not None}


__all__ = ["router"]
