"""Optional accounts: a claimed name with a password, sessions in cookies, and the seats
an account played.

Guests play exactly as without accounts; nothing here is needed to play.

- Passwords are hashed with Argon2id (``argon2-cffi``), checked in a worker thread.
- Names are unique across case and confusable characters: :func:`skeleton` maps a name
  to NFKC, case-folded text whose confusable characters (Unicode's confusables table, as
  shipped by ``confusable-homoglyphs``) are replaced by one representative each.
- A session is a random token in an ``HttpOnly``, ``SameSite=Lax`` cookie (``Secure`` over
  HTTPS, or always with ``TIKKI_SECURE_COOKIES=1``); the server stores its SHA-256 only.
  Logging in issues a new session (the browser's old one ends); logging out ends every
  session of the account.  The owner sees each session as a device (the browser and
  system its ``User-Agent`` names, when it began, when it was last used) and may end one.
- A new password must be hard enough to guess (:func:`tikki.server.passwords.weakness`).
- Every state-changing request of this module carries the CSRF token (double submit: the
  ``tikki_csrf`` cookie's value in the ``X-CSRF-Token`` header; once signed in, it must also
  be the session's own token).
- Logins are limited per client address, server-wide, and per (account, address) pair
  with growing delays after wrong passwords (:mod:`tikki.server.logins`); every hash runs
  in a small pool of its own that refuses when its queue is full.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import hmac
import os
import re
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field
from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from tikki.i18n import _
from tikki.server import names
from tikki.server.db import (
    USER_AGENT_MAX,
    AccountRow,
    AccountSeatRow,
    ChatRow,
    RatingChangeRow,
    RatingRow,
    SeatRow,
    SessionRow,
    now,
)
from tikki.server.errors import STATUS, ApiError
from tikki.server.logins import Hashing, LoginLimits
from tikki.server.passwords import device, weakness
from tikki.server.quota import RateLimiter, client_key
from tikki.server.schemas import ErrorBody

SESSION_COOKIE = "tikki_session"
"""The cookie that holds a signed-in browser's session token (HttpOnly)."""
CSRF_COOKIE = "tikki_csrf"
"""The cookie whose value state-changing requests repeat in :data:`CSRF_HEADER`."""
CSRF_HEADER = "x-csrf-token"
SESSION_DAYS = 30
"""How long a session cookie lives."""
SEEN_EVERY = timedelta(minutes=5)
"""How stale a session's ``last_seen`` may get before a request writes it again."""
NAME_MIN, NAME_MAX = 3, 24
PASSWORD_MIN, PASSWORD_MAX = 8, 128
LOGINS_PER_ADDRESS = 20.0
"""Login (and registration) attempts per minute from one client address."""
ANONYMOUS = "anonymous"
"""The name a deleted account's seats are left with."""

STATUS.update(
    {
        "bad_name": 400,
        "bad_password": 400,
        "name_taken": 409,
        "wrong_password": 401,
        "not_signed_in": 401,
        "csrf": 403,
        "private": 403,
        "unknown_player": 404,
        "unknown_session": 404,
    }
)

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody, "description": text}
    for status, text in (
        (400, "bad name, password or request"),
        (401, "wrong name or password, or not signed in"),
        (403, "csrf: the X-CSRF-Token header is missing or wrong; a private profile"),
        (404, "unknown player, session, table or game"),
        (409, "the name (or one that looks like it) is taken"),
        (413, "request body over 4096 bytes"),
        (422, "malformed request body or parameters"),
        (429, "rate_limited: too many logins for this account or address (see Retry-After)"),
        (503, "storage unavailable"),
    )
}
"""The error answers of the account, chat and rating operations."""

HASHER = PasswordHasher()
"""Argon2id with the library's current defaults."""
NAME_CHARS = re.compile(r"^[\w .'-]+$")


@functools.cache
def _confusable_map() -> dict[str, str]:
    """Each confusable character's representative: the smallest character of its group
    in Unicode's confusables table (as ``confusable-homoglyphs`` ships it)."""
    return names.smallest_alike(names.confusable_pairs(strip_keys=False))


def skeleton(name: str) -> str:
    """The form two names share when they look alike: NFKC, case-folded, each confusable
    character replaced by its group's representative ("Anna", "ANNA", "Аnna" with a
    Cyrillic А, "Ａnna" all give the same skeleton)."""
    table = _confusable_map()
    text = unicodedata.normalize("NFKC", name)
    for _round in range(2):
        text = "".join(table.get(c, c) for c in text).casefold()
        text = unicodedata.normalize("NFKC", text)
    return " ".join(text.split())


def check_name(name: str) -> str:
    """The name as it will be shown (spaces trimmed), or ``bad_name`` saying what is allowed."""
    shown = " ".join(name.split())
    if len(shown) > NAME_MAX:
        raise ApiError(
            "bad_name",
            _(
                "a name has at most {high} characters; this one has {n}",
                high=NAME_MAX,
                n=len(shown),
            ),
        )
    if not NAME_MIN <= len(shown) <= NAME_MAX or not NAME_CHARS.match(shown) or "_" in shown:
        raise ApiError(
            "bad_name",
            _(
                "a name has {low}–{high} letters, digits, spaces, dots, hyphens or "
                "apostrophes, not {name!r}",
                low=NAME_MIN,
                high=NAME_MAX,
                name=name[:40],
            ),
        )
    return shown


def check_password(password: str, name: str = "") -> None:
    """``bad_password`` unless the password's length is allowed and it is hard enough to
    guess (the account's ``name`` counts as known to a guesser)."""
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ApiError(
            "bad_password",
            _(
                "a password has {low}–{high} characters, not {n}",
                low=PASSWORD_MIN,
                high=PASSWORD_MAX,
                n=len(password),
            ),
        )
    reason = weakness(password, name)
    if reason is not None:
        raise ApiError("bad_password", reason)


def digest(token: str) -> str:
    """The stored form of a random token (SHA-256 suffices for random secrets)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Account:
    """A signed-in account as a request sees it."""

    id: int
    name: str
    private: bool
    csrf_hash: str
    session: str = ""
    """The public id of the request's session (:func:`session_id`)."""


def session_id(token_hash: str) -> str:
    """A session's id in the list of devices: derived from its stored hash, so that the
    list never shows what the cookie's hash is."""
    return digest(f"session:{token_hash}")[:24]


class Accounts:
    """Accounts and sessions in the server's database, and the login limits."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.per_address = RateLimiter(LOGINS_PER_ADDRESS)
        self.logins = LoginLimits()
        """The server-wide attempt rate and the delays after wrong passwords."""
        self.hashing = Hashing()
        """The password hashes' own small pool."""
        self.dummy_hash = HASHER.hash(secrets.token_urlsafe(16))
        """Checked against when a name is unknown, so both answers take as long."""

    # ------------------------------------------------------------------ storage (sync)

    def _create(self, name: str, password_hash: str) -> int | None:
        row = {
            "name": name,
            "skeleton": skeleton(name),
            "password_hash": password_hash,
            "created": now(),
            "private": False,
        }
        try:
            with self.engine.begin() as connection:
                result = connection.execute(insert(AccountRow).returning(AccountRow.id), row)
                return int(result.scalar_one())
        except IntegrityError:
            return None

    def _by_skeleton(self, key: str) -> AccountRow | None:
        with Session(self.engine, expire_on_commit=False) as session:
            row = session.scalars(select(AccountRow).where(AccountRow.skeleton == key)).first()
            session.expunge_all()
            return row

    def _new_session(
        self, account_id: int, old: str | None, user_agent: str | None = None
    ) -> tuple[str, str]:
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
        started = now()
        with self.engine.begin() as connection:
            if old is not None:
                connection.execute(delete(SessionRow).where(SessionRow.token_hash == digest(old)))
            connection.execute(
                insert(SessionRow),
                {
                    "token_hash": digest(token),
                    "account_id": account_id,
                    "csrf_hash": digest(csrf),
                    "created": started,
                    "last_seen": started,
                    "user_agent": (user_agent or "")[:USER_AGENT_MAX] or None,
                },
            )
        return token, csrf

    def _session(self, token: str) -> Account | None:
        """The session's account; its ``last_seen`` is written when older than
        :data:`SEEN_EVERY`."""
        hashed = digest(token)
        query = (
            select(
                AccountRow.id,
                AccountRow.name,
                AccountRow.private,
                SessionRow.csrf_hash,
                SessionRow.last_seen,
            )
            .join(SessionRow, SessionRow.account_id == AccountRow.id)
            .where(
                SessionRow.token_hash == hashed,
                SessionRow.created > now() - timedelta(days=SESSION_DAYS),
            )
        )
        with self.engine.connect() as connection:
            row = connection.execute(query).first()
        if row is None:
            return None
        seen = now()
        if row.last_seen is None or seen - row.last_seen > SEEN_EVERY:
            with self.engine.begin() as connection:
                connection.execute(
                    update(SessionRow).where(SessionRow.token_hash == hashed).values(last_seen=seen)
                )
        return Account(row.id, row.name, row.private, row.csrf_hash, session_id(hashed))

    def _sessions(self, account_id: int) -> list[Any]:
        """The account's live sessions, newest first."""
        with self.engine.connect() as connection:
            return list(
                connection.execute(
                    select(
                        SessionRow.token_hash,
                        SessionRow.created,
                        SessionRow.last_seen,
                        SessionRow.user_agent,
                    )
                    .where(
                        SessionRow.account_id == account_id,
                        SessionRow.created > now() - timedelta(days=SESSION_DAYS),
                    )
                    .order_by(SessionRow.created.desc())
                ).all()
            )

    def _end_session(self, account_id: int, public_id: str) -> bool:
        """End the account's session of that id; whether there was one."""
        for row in self._sessions(account_id):
            if hmac.compare_digest(session_id(row.token_hash), public_id):
                with self.engine.begin() as connection:
                    connection.execute(
                        delete(SessionRow).where(SessionRow.token_hash == row.token_hash)
                    )
                return True
        return False

    def _end_other_sessions(self, account_id: int, token: str) -> None:
        with self.engine.begin() as connection:
            connection.execute(
                delete(SessionRow).where(
                    SessionRow.account_id == account_id, SessionRow.token_hash != digest(token)
                )
            )

    def _end_sessions(self, account_id: int) -> None:
        with self.engine.begin() as connection:
            connection.execute(delete(SessionRow).where(SessionRow.account_id == account_id))

    def _set_private(self, account_id: int, private: bool) -> None:
        with self.engine.begin() as connection:
            connection.execute(
                update(AccountRow).where(AccountRow.id == account_id).values(private=private)
            )

    def _password_hash(self, account_id: int) -> str:
        with self.engine.connect() as connection:
            return str(
                connection.execute(
                    select(AccountRow.password_hash).where(AccountRow.id == account_id)
                ).scalar_one()
            )

    def _delete(self, account_id: int) -> list[tuple[str, int]]:
        """Delete an account with its sessions, ratings and seat links; its seats keep
        the name :data:`ANONYMOUS`.  Returns the seats it played."""
        with self.engine.begin() as connection:
            seats = [
                (r.table_id, r.seat)
                for r in connection.execute(
                    select(AccountSeatRow.table_id, AccountSeatRow.seat).where(
                        AccountSeatRow.account_id == account_id
                    )
                )
            ]
            for table_id, seat in seats:
                connection.execute(
                    update(SeatRow)
                    .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                    .values(name=ANONYMOUS)
                )
            for table_id, seat in seats:  # the chat's names too
                connection.execute(
                    update(ChatRow)
                    .where(ChatRow.table_id == table_id, ChatRow.sender == f"seat:{seat}")
                    .values(name=ANONYMOUS)
                )
            connection.execute(
                update(ChatRow)
                .where(ChatRow.sender == f"account:{account_id}")
                .values(name=ANONYMOUS)
            )
            for model in (AccountSeatRow, SessionRow, RatingRow, RatingChangeRow):
                connection.execute(delete(model).where(model.account_id == account_id))
            connection.execute(delete(AccountRow).where(AccountRow.id == account_id))
        return seats

    def link(self, account_id: int, table_id: str, seat: int) -> None:
        """Record that the account played ``seat`` at ``table_id`` (again: no change)."""
        with self.engine.begin() as connection:
            taken = connection.execute(
                select(AccountSeatRow.account_id).where(
                    AccountSeatRow.table_id == table_id, AccountSeatRow.seat == seat
                )
            ).first()
            if taken is None:
                connection.execute(
                    insert(AccountSeatRow),
                    {"table_id": table_id, "seat": seat, "account_id": account_id},
                )

    # ------------------------------------------------------------------ requests

    async def current(self, request: Request) -> Account | None:
        """The account of the request's session cookie, or ``None`` (a guest)."""
        token = request.cookies.get(SESSION_COOKIE)
        if not token:
            return None
        return await asyncio.to_thread(self._session, token)

    async def require(self, request: Request) -> Account:
        """The request's account; ``not_signed_in`` for a guest."""
        account = await self.current(request)
        if account is None:
            raise ApiError("not_signed_in", _("sign in first: this needs an account"))
        return account

    async def check_csrf(self, request: Request) -> Account | None:
        """Refuse (``csrf``) a state-changing request without the right CSRF token; the
        request's account, if signed in."""
        sent = request.headers.get(CSRF_HEADER, "")
        cookie = request.cookies.get(CSRF_COOKIE, "")
        account = await self.current(request)
        good = bool(sent) and hmac.compare_digest(sent.encode(), cookie.encode())
        if good and account is not None:
            good = hmac.compare_digest(digest(sent), account.csrf_hash)
        if not good:
            raise ApiError(
                "csrf",
                _(
                    "this request lacks its CSRF token: reload the page and try again "
                    "(send the tikki_csrf cookie's value as X-CSRF-Token)"
                ),
            )
        return account

    def limit_login(self, key: str | None, address: str) -> None:
        """Spend one login attempt of the account ``key`` (``None``: a registration) from
        the address: refused while the pair waits after wrong passwords, over the
        address's rate or over the server's (:class:`~tikki.server.logins.LoginLimits`)."""
        self.logins.attempt(key, address)
        self.per_address.spend(
            address, lambda: _("your address may try {n:g} logins a minute", n=LOGINS_PER_ADDRESS)
        )

    async def register(self, name: str, password: str) -> int:
        """Create an account; ``name_taken`` if its name (or one that looks alike) is."""
        shown = check_name(name)
        check_password(password, shown)
        await asyncio.to_thread(names.check_account_name, self.engine, shown)
        hashed = await self.hashing.run(HASHER.hash, password)
        account_id = await asyncio.to_thread(self._create, shown, hashed)
        if account_id is None:
            raise ApiError(
                "name_taken",
                _("the name {name!r} (or one that looks like it) is taken", name=shown),
            )
        await asyncio.to_thread(names.keep, self.engine, account_id, shown)
        return account_id

    async def verify(self, name: str, password: str) -> AccountRow:
        """The account whose name and password these are; ``wrong_password`` otherwise
        (the same answer for an unknown name)."""
        row = None
        if "\x00" not in name:  # no name holds one; PostgreSQL refuses it in a query
            row = await asyncio.to_thread(self._by_skeleton, skeleton(name))
        stored = row.password_hash if row is not None else self.dummy_hash
        try:
            good: bool = await self.hashing.run(HASHER.verify, stored, password)
        except (VerificationError, InvalidHashError):
            good = False
        if row is None or not good:
            raise ApiError("wrong_password", _("wrong name or password"))
        return row

    async def sign_in(self, request: Request, response: Response, account_id: int) -> str:
        """Start a new session (ending the browser's old one) and set its cookies; the
        new CSRF token."""
        old = request.cookies.get(SESSION_COOKIE)
        agent = request.headers.get("user-agent")
        token, csrf = await asyncio.to_thread(self._new_session, account_id, old, agent)
        secure = secure_cookies(request)
        response.set_cookie(
            SESSION_COOKIE,
            token,
            max_age=SESSION_DAYS * 86400,
            httponly=True,
            samesite="lax",
            secure=secure,
            path="/",
        )
        set_csrf(response, csrf, secure)
        return csrf


def secure_cookies(request: Request) -> bool:
    """Whether cookies get the ``Secure`` flag: over HTTPS (behind a proxy: with uvicorn's
    ``--forwarded-allow-ips``), or always with ``TIKKI_SECURE_COOKIES=1``."""
    return request.url.scheme == "https" or os.environ.get("TIKKI_SECURE_COOKIES") == "1"


def set_csrf(response: Response, csrf: str, secure: bool) -> None:
    """Set the CSRF cookie (readable by the page's script, sent to this site only)."""
    response.set_cookie(
        CSRF_COOKIE, csrf, max_age=SESSION_DAYS * 86400, samesite="strict", secure=secure, path="/"
    )


def accounts_of(request: Request) -> Accounts:
    """The app's :class:`Accounts`."""
    accounts: Accounts = request.app.state.accounts
    return accounts


async def signed_in(request: Request) -> Account:
    """The account of a state-changing request: its CSRF token checked (``csrf``), then
    signed in (``not_signed_in``)."""
    accounts = accounts_of(request)
    return await accounts.check_csrf(request) or await accounts.require(request)


def address_of(request: Request) -> str:
    """The client's rate-limit key."""
    return client_key(request.client.host if request.client is not None else None)


class Credentials(BaseModel):
    """A name and a password."""

    name: str = Field(max_length=200)
    password: str = Field(max_length=PASSWORD_MAX * 4)


class GuestSeat(BaseModel):
    """A guest's seat to attach: the table and the seat's token."""

    table: str = Field(max_length=32)
    token: str = Field(max_length=200)


class Register(Credentials):
    """A new account, with the guest seats of this browser to attach to it."""

    games: list[GuestSeat] = Field(default_factory=list, max_length=40)


class Attach(BaseModel):
    """Guest seats to attach to the signed-in account."""

    games: list[GuestSeat] = Field(max_length=40)


class Settings(BaseModel):
    """An account's settings."""

    private: bool


class Password(BaseModel):
    """The account's password (to confirm deleting it)."""

    password: str = Field(max_length=PASSWORD_MAX * 4)


class NewPassword(Password):
    """The account's password and the one to replace it."""

    new_password: str = Field(max_length=PASSWORD_MAX * 4)


def session_json(row: Any, current: str) -> dict[str, Any]:
    """One session in the list of devices (no secret: its id is derived from the hash)."""
    browser, system = device(row.user_agent)
    public = session_id(row.token_hash)
    return {
        "id": public,
        "created": row.created.isoformat(timespec="seconds") + "Z",
        "last_seen": (row.last_seen or row.created).isoformat(timespec="seconds") + "Z",
        "browser": browser,
        "system": system,
        "current": public == current,
    }


def me(account: Account | None) -> dict[str, Any]:
    """The ``/api/account`` answer's account."""
    if account is None:
        return {"account": None}
    return {"account": {"name": account.name, "private": account.private}}


async def attach(request: Request, account_id: int, games: list[GuestSeat]) -> int:
    """Attach the guest seats whose tokens are right; how many were attached."""
    manager = request.app.state.manager
    accounts = accounts_of(request)
    done = 0
    for game in games:
        try:
            table = await manager.get(game.table)
            seat = table.seat_of(game.token)
        except ApiError:
            continue
        if seat is not None:
            await asyncio.to_thread(accounts.link, account_id, table.id, seat)
            done += 1
    return done


router = APIRouter(prefix="/api/account", tags=["accounts"], responses=ERRORS)
"""The account API: ``/api/account…``."""


@router.get("")
async def who(request: Request, response: Response) -> dict[str, Any]:
    """The signed-in account (``null`` for a guest); sets the CSRF cookie a guest's
    register and login requests repeat."""
    account = await accounts_of(request).current(request)
    if account is None and not request.cookies.get(CSRF_COOKIE):
        set_csrf(response, secrets.token_urlsafe(24), secure_cookies(request))
    return me(account)


@router.post("/register", status_code=201)
async def register(body: Register, request: Request, response: Response) -> dict[str, Any]:
    """Claim a name with a password and sign in; the guest seats sent are attached."""
    accounts = accounts_of(request)
    await accounts.check_csrf(request)
    accounts.limit_login(None, address_of(request))
    account_id = await accounts.register(body.name, body.password)
    await accounts.sign_in(request, response, account_id)
    attached = await attach(request, account_id, body.games)
    return {"account": {"name": check_name(body.name), "private": False}, "attached": attached}


@router.post("/login")
async def login(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    """Sign in: a new session replaces this browser's old one."""
    accounts = accounts_of(request)
    await accounts.check_csrf(request)
    key, address = skeleton(body.name), address_of(request)
    accounts.limit_login(key, address)
    try:
        row = await accounts.verify(body.name, body.password)
    except ApiError as err:
        if err.code == "wrong_password":
            accounts.logins.failed(key, address)
        raise
    accounts.logins.succeeded(key, address)
    if HASHER.check_needs_rehash(row.password_hash):
        hashed = await accounts.hashing.run(HASHER.hash, body.password)
        await asyncio.to_thread(_rehash, accounts.engine, row.id, hashed)
    await accounts.sign_in(request, response, row.id)
    return {"account": {"name": row.name, "private": row.private}}


@router.post("/logout")
async def logout(request: Request, response: Response) -> dict[str, Any]:
    """Sign out everywhere: every session of the account ends."""
    accounts = accounts_of(request)
    account = await accounts.check_csrf(request)
    if account is not None:
        await asyncio.to_thread(accounts._end_sessions, account.id)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return {"account": None}


@router.get("/sessions")
async def sessions(request: Request) -> dict[str, Any]:
    """The account's sessions, one per signed-in device, newest first: when each began,
    when it was last used, the browser and system its ``User-Agent`` names (``null`` when
    unknown), and which is this one."""
    accounts = accounts_of(request)
    account = await accounts.require(request)
    rows = await asyncio.to_thread(accounts._sessions, account.id)
    return {"sessions": [session_json(row, account.session) for row in rows]}


@router.delete("/sessions/{session}")
async def end_session(session: str, request: Request, response: Response) -> dict[str, Any]:
    """Sign out one device: end the account's session of that id (this browser's own
    too, which signs it out)."""
    accounts = accounts_of(request)
    account = await signed_in(request)
    if not await asyncio.to_thread(accounts._end_session, account.id, session[:64]):
        raise ApiError("unknown_session", _("this account has no such session (signed out?)"))
    if session == account.session:
        response.delete_cookie(SESSION_COOKIE, path="/")
        return {"account": None}
    return me(account)


async def _confirmed(request: Request, accounts: Accounts, password: str) -> Account:
    """The signed-in account whose ``password`` confirms a change (CSRF checked; a wrong
    password counts as a failed login of this address, ``wrong_password``)."""
    account = await signed_in(request)
    key, address = f"id:{account.id}", address_of(request)
    accounts.limit_login(key, address)
    stored = await asyncio.to_thread(accounts._password_hash, account.id)
    try:
        await accounts.hashing.run(HASHER.verify, stored, password)
    except (VerificationError, InvalidHashError):
        accounts.logins.failed(key, address)
        raise ApiError("wrong_password", _("wrong password")) from None
    return account


@router.post("/password")
async def change_password(body: NewPassword, request: Request) -> dict[str, Any]:
    """Change the password (the current one confirms it; the new one must be hard enough
    to guess); every other session of the account ends."""
    accounts = accounts_of(request)
    account = await _confirmed(request, accounts, body.password)
    check_password(body.new_password, account.name)
    hashed = await accounts.hashing.run(HASHER.hash, body.new_password)
    await asyncio.to_thread(_rehash, accounts.engine, account.id, hashed)
    token = request.cookies.get(SESSION_COOKIE, "")
    await asyncio.to_thread(accounts._end_other_sessions, account.id, token)
    return me(account)


@router.post("/games")
async def attach_games(body: Attach, request: Request) -> dict[str, Any]:
    """Attach this browser's guest seats (table and seat token) to the account."""
    account = await signed_in(request)
    return {"attached": await attach(request, account.id, body.games)}


@router.post("/settings")
async def settings(body: Settings, request: Request) -> dict[str, Any]:
    """Change the account's settings (``private``: the profile shows to its owner only)."""
    accounts = accounts_of(request)
    account = await signed_in(request)
    await asyncio.to_thread(accounts._set_private, account.id, body.private)
    return {"account": {"name": account.name, "private": body.private}}


@router.post("/delete")
async def delete_account(body: Password, request: Request, response: Response) -> dict[str, Any]:
    """Delete the account with its sessions and ratings (the password confirms it);
    its games stay, their seats named "anonymous"."""
    accounts = accounts_of(request)
    account = await _confirmed(request, accounts, body.password)
    seats = await asyncio.to_thread(accounts._delete, account.id)
    _anonymise_live(request, seats, account.id)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return {"account": None, "anonymised": len(seats)}


def _rehash(engine: Engine, account_id: int, hashed: str) -> None:
    with engine.begin() as connection:
        connection.execute(
            update(AccountRow).where(AccountRow.id == account_id).values(password_hash=hashed)
        )


def _anonymise_live(request: Request, seats: list[tuple[str, int]], account_id: int) -> None:
    """Rename a deleted account's seats and chat messages in what the server holds in
    memory."""
    tables = request.app.state.manager.tables
    rooms = request.app.state.chat.rooms
    for table_id, seat in seats:
        table = tables.get(table_id)
        if table is not None and 0 <= seat < len(table.seats):
            table.seats[seat].name = ANONYMOUS
    senders = {f"account:{account_id}"}
    for table_id, room in rooms.items():
        mine = senders | {f"seat:{seat}" for t, seat in seats if t == table_id}
        for message in room.messages:
            if message["sender"] in mine:
                message["name"] = ANONYMOUS


async def on_join(request: Request, name: str) -> str:
    """The name a joining person gets: a signed-in account's own name, else the one sent."""
    account = await accounts_of(request).current(request)
    return name if account is None else account.name


async def after_join(request: Request, table_id: str, seat: int) -> None:
    """Link the seat just joined to the signed-in account (if any)."""
    accounts = accounts_of(request)
    account = await accounts.current(request)
    if account is not None:
        await asyncio.to_thread(accounts.link, account.id, table_id, seat)


__all__ = [
    "ANONYMOUS",
    "CSRF_COOKIE",
    "SESSION_COOKIE",
    "Account",
    "Accounts",
    "after_join",
    "on_join",
    "router",
    "skeleton",
]
