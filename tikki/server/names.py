"""Names people can trust: no name that looks like another's, no name that poses as the
server's own words or its bots.

- :func:`likeness` is a name's confusable skeleton in the sense of Unicode TR #39: NFKC
  and case folding, then every character replaced by its prototype in Unicode's
  confusables table (as ``confusable-homoglyphs`` ships it; a character that looks like
  several, ``m`` and ``rn``, becomes those several), and everything that is no letter or
  digit (spaces, dots, hyphens, apostrophes, brackets, marks) left out.  "rnike" and
  "mike", "Anna." and "Anna", "Аnna" (a Cyrillic А) and "ANNA" look alike.
- :func:`reserved` says whether a name poses as one of :data:`RESERVED` (in English,
  Finnish or German; a number after it does not help: "Player 2"), a bot's name or a bot
  level ("Aino", "Aino (Hard)", "Expert").
- Every account's likeness is kept (:class:`NameKeyRow`), so that a new account's name
  and a guest's name are checked against every account's by one indexed look-up
  (:func:`check_account_name`, :func:`check_guest_name`).
"""

from __future__ import annotations

import asyncio
import functools
import unicodedata
from collections.abc import Callable, Iterable, Iterator

from fastapi import Request
from sqlalchemy import Engine, ForeignKey, Integer, String, insert, select
from sqlalchemy.orm import Mapped, mapped_column

from tikki.i18n import _, tr, use
from tikki.server import botplay
from tikki.server.db import AccountRow, Base
from tikki.server.errors import STATUS, ApiError

RESERVED: tuple[str, ...] = (
    "anonymous", "player", "spectator", "admin", "administrator", "moderator",
    "bot", "server", "system", "tikki", "nobody",
    "anonyymi", "pelaaja", "katsoja", "ylläpitäjä", "botti",
    "anonym", "spieler", "zuschauer",
)  # fmt: skip
"""Words no name may be (a person would take them for the server's own)."""
LANGUAGES = ("en", "fi", "de")
"""The languages whose level names are reserved."""
DIGITS = "0123456789 "

STATUS.update({"reserved_name": 400, "name_taken": 409})


class NameKeyRow(Base):
    """An account's name likeness (:func:`likeness`), looked up when a name is claimed."""

    __tablename__ = "tikki_name_keys"

    account_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("tikki_accounts.id", ondelete="CASCADE"), primary_key=True
    )
    key: Mapped[str] = mapped_column(String(400), index=True)


DIRECTION_MARKS = "\u200e\u200f"
"""The bidirectional marks that wrap some entries of the confusables table."""


def confusable_pairs(strip_keys: bool) -> Iterator[tuple[str, str]]:
    """Each (character, look-alike) pair of Unicode's confusables table (as
    ``confusable-homoglyphs`` ships it), the look-alike without its direction marks (and
    the character too with ``strip_keys``)."""
    from confusable_homoglyphs.confusables import (  # type: ignore[import-untyped]
        confusables_data,
    )

    for key, glyphs in confusables_data.items():
        char = key.strip(DIRECTION_MARKS) if strip_keys else key
        for glyph in glyphs:
            yield char, glyph["c"].strip(DIRECTION_MARKS)


def smallest_alike(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Each single character of the pairs that looks like another one, mapped to the
    smallest character of its group of look-alikes (the pairs of longer texts ignored)."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    for char, other in pairs:
        if len(char) == 1 and len(other) == 1:
            a, b = find(char), find(other)
            if a != b:
                parent[max(a, b)] = min(a, b)
    return {c: find(c) for c in parent}


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype: a character that looks like a sequence
    ("m" like "rn") becomes that sequence; the others the smallest character of their
    group of look-alikes."""
    pairs = list(confusable_pairs(strip_keys=True))
    longer: dict[str, str] = {}
    for char, other in pairs:
        if len(char) != 1 and len(other) == 1 and char.isascii() and char.isalnum():
            longer[other] = min(longer.get(other, char), char)
    table = smallest_alike(pairs)
    table.update(longer)
    return table


def likeness(name: str) -> str:
    """The form two names share when they look alike (TR #39's skeleton, letters and
    digits only): "rnike" and "mike" give the same, as do "Anna." and "Anna"."""
    table = _prototypes()
    text = unicodedata.normalize("NFKC", name).casefold()
    for _round in range(3):
        text = "".join(table.get(c, c) for c in text).casefold()
        text = unicodedata.normalize("NFKC", text)
    return "".join(c for c in text if unicodedata.category(c)[0] in "LN")


@functools.cache
def _reserved_keys() -> frozenset[str]:
    """The likenesses of :data:`RESERVED`, the bots' names and levels, and each bot
    name with each level as a table shows it (``Aino (Hard)``), in every language."""
    words: set[str] = set(RESERVED) | set(botplay.BOT_NAMES)
    for lang in LANGUAGES:
        with use(lang):
            levels = [tr(text) for _spec, text in botplay.LEVELS]
        words.update(levels)
        words.update(f"{bot} ({level})" for bot in botplay.BOT_NAMES for level in levels)
    return frozenset(likeness(w) for w in words)


def reserved(name: str) -> bool:
    """Whether ``name`` poses as a reserved word, a bot or a bot level (a number after
    it too: "Player 2", "Aino2")."""
    keys = _reserved_keys()
    shown = unicodedata.normalize("NFKC", name)
    return likeness(shown) in keys or likeness(shown.rstrip(DIGITS)) in keys


def refuse_reserved(name: str) -> None:
    """``reserved_name`` in words if ``name`` poses as the server's words or a bot."""
    if reserved(name):
        raise ApiError(
            "reserved_name",
            _(
                "the name {name!r} is kept for the server and its bots (anonymous, player, "
                "spectator, admin, the bots' names and levels): choose another",
                name=name[:40],
            ),
        )


def _account_with(engine: Engine, key: str) -> str | None:
    """The name of an account whose likeness is ``key`` (``None``: none)."""
    query = (
        select(AccountRow.name)
        .join(NameKeyRow, NameKeyRow.account_id == AccountRow.id)
        .where(NameKeyRow.key == key)
        .limit(1)
    )
    with engine.connect() as connection:
        found = connection.execute(query).scalar()
    return None if found is None else str(found)


def fill_keys(engine: Engine) -> int:
    """Keep the likeness of every account that has none yet (accounts made before
    likenesses were kept); how many were added."""
    query = (
        select(AccountRow.id, AccountRow.name)
        .outerjoin(NameKeyRow, NameKeyRow.account_id == AccountRow.id)
        .where(NameKeyRow.key.is_(None))
    )
    with engine.begin() as connection:
        rows = connection.execute(query).all()
        if rows:
            connection.execute(
                insert(NameKeyRow), [{"account_id": r.id, "key": likeness(r.name)} for r in rows]
            )
    return len(rows)


def keep(engine: Engine, account_id: int, name: str) -> None:
    """Keep a new account's likeness."""
    with engine.begin() as connection:
        connection.execute(insert(NameKeyRow), {"account_id": account_id, "key": likeness(name)})


def _refuse_lookalike(engine: Engine, name: str, words: Callable[[str], str]) -> None:
    """Refuse a reserved name (``reserved_name``), or one that looks like an account's
    (``name_taken``, in the ``words`` given the account's name); blocking."""
    refuse_reserved(name)
    fill_keys(engine)
    other = _account_with(engine, likeness(name))
    if other is not None:
        raise ApiError("name_taken", words(other))


def check_account_name(engine: Engine, name: str) -> None:
    """Refuse a new account's name that is reserved (``reserved_name``) or looks like an
    account's (``name_taken``), in words (a blocking call: run it in a thread)."""
    _refuse_lookalike(
        engine,
        name,
        lambda other: _(
            "the name {name!r} looks like the account {other!r}: choose one that "
            "cannot be taken for it",
            name=name[:40],
            other=other,
        ),
    )


def check_guest_name(engine: Engine, name: str) -> None:
    """Refuse a guest's name that is reserved, a bot's, or looks like an account's (a
    guest cannot pass for someone with an account), in words (blocking: a thread)."""
    _refuse_lookalike(
        engine,
        name,
        lambda other: _(
            "{name!r} looks like the account {other!r}: a guest plays under a name of "
            "their own (or signs in)",
            name=name[:40],
            other=other,
        ),
    )


async def check_guest(request: Request, name: str) -> None:
    """:func:`check_guest_name` against the app's accounts, in a worker thread."""
    engine: Engine = request.app.state.manager.store.engine
    await asyncio.to_thread(check_guest_name, engine, name)


__all__ = [
    "DIRECTION_MARKS",
    "RESERVED",
    "NameKeyRow",
    "check_account_name",
    "check_guest",
    "check_guest_name",
    "confusable_pairs",
    "fill_keys",
    "keep",
    "likeness",
    "reserved",
    "smallest_alike",
]
