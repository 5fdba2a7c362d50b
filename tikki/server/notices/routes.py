"""The notices' API, ``/api/notices…``: the list (newest first, with the unread count),
marking notices read, and the account's own e-mail setting (never shown to another).

Every change carries the CSRF token and needs an account."""

from __future__ import annotations

import asyncio
import re
from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from tikki.i18n import _, current
from tikki.server import schemas
from tikki.server.accounts import ERRORS, accounts_of, signed_in
from tikki.server.errors import STATUS, ApiError
from tikki.server.notices.api import notifier_of
from tikki.server.notices.store import Notices
from tikki.server.plain import printable

STATUS.update({"bad_email": 400})

_OUT = r'\s@,;:<>()\[\]\\"'
"""What no part of an address may hold: spaces, a second ``@``, and the characters a
mail header reads as a list, a display name or a comment."""
ADDRESS = re.compile(rf"^[^{_OUT}]{{1,64}}@[^{_OUT}.]+(\.[^{_OUT}.]+)+$")
"""An e-mail address's form: one address (no list, no display name, nothing a mail
header would read as a second recipient); nothing else about it is checked."""
LARGEST_ID = 2**31 - 1
"""The largest id a notice can have (the column is a 32-bit integer)."""

NOTICE_ERRORS: dict[int | str, dict[str, Any]] = {
    **ERRORS,
    400: {"model": schemas.ErrorBody, "description": "bad_email: not an e-mail address"},
}
"""The notices' routes' error answers."""


class Read(BaseModel):
    """The notices to mark read (``null``: all of them)."""

    ids: list[Annotated[int, Field(ge=1, le=LARGEST_ID)]] | None = Field(None, max_length=200)


class Email(BaseModel):
    """The account's e-mail for notices (``null`` forgets it) and whether it wants mail."""

    address: str | None = Field(None, max_length=254)
    wanted: bool = True


def _store(request: Request) -> Notices:
    return notifier_of(request).store


def _address_like(address: str) -> bool:
    """Whether ``address`` has an e-mail address's form and no control or format
    character (a NUL, which PostgreSQL refuses; a right-to-left override).

    >>> _address_like("anna@example.org"), _address_like("x,ben@example.org")
    (True, False)
    >>> _address_like("an\\x00na@example.org"), _address_like("an\\u202ena@example.org")
    (False, False)
    """
    return printable(address) and ADDRESS.match(address) is not None


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
    if address is not None and not _address_like(address):
        raise ApiError("bad_email", _("{address!r} is not an e-mail address", address=address[:60]))
    store = _store(request)
    await asyncio.to_thread(store.set_email, me.id, address, body.wanted, current())
    found = await asyncio.to_thread(store.email, me.id)
    return {**found, "mail": notifier_of(request).smtp is not None}


__all__ = ["router"]
