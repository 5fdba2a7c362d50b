"""The JSON text of a ``state`` message, its history encoded once per entry.

A state message carries the seat's whole history (docs/protocol.md), and the history is
most of its bytes; between two messages only its end changes.  The engine shares a
seat's history entries between successive views (read them, never change them:
:func:`tikki.events.history_of`), and a table's state takes over the history of the
state it replaces (:meth:`tikki.core.State.take_history`), so an entry that is the same
object as last time has the same JSON.  :class:`HistoryText` keeps each entry's text and
encodes only the entries that are new (or replaced); :func:`state_text` puts the message
together around it.  The text is byte for byte ``json.dumps(message)``.
"""

from __future__ import annotations

import json
import operator
import secrets
from typing import Final

from tikki.core import JSON

_MARK: Final = "tikki-history-" + secrets.token_hex(16)
"""Stands for the history while the rest of the message is encoded (random: no other
string of a message can be it)."""
_MARK_TEXT: Final = json.dumps(_MARK)
PUBLIC_MARK: Final = "tikki-table-" + secrets.token_hex(16)
"""Stands for the table's public part (``table``) of a message whose text
:func:`state_text` is given that part's text (:meth:`Table.public_text`)."""
_PUBLIC_MARK_TEXT: Final = json.dumps(PUBLIC_MARK)
PUBLIC_CHANGING: Final = frozenset(
    {"status", "seq", "to_act", "finished", "seed", "seats", "outcome", "rematch", "timer",
     "takeovers", "expires"}
)  # fmt: skip
"""The entries of a table's public part that change as it is played (the others follow
from the game and the table's settings)."""


class PublicText:
    """A table's public part as JSON text, its entries that do not change between moves
    (all but :data:`PUBLIC_CHANGING`) encoded once: the text is made of those texts, in
    the part's order, and the changing entries encoded anew each time.  Kept while what
    the fixed entries are made of (``fixed``: the game, the table's id and settings) is
    the same."""

    __slots__ = ("_fixed", "_pieces")

    def __init__(self, fixed: tuple[object, ...], public: JSON) -> None:
        self._fixed = fixed
        pieces: list[str] = []
        text = "{"
        for key, value in public.items():
            if key in PUBLIC_CHANGING:
                pieces.append(text + json.dumps(key) + ": ")
                pieces.append(key)
                text = ", "
            else:
                text += json.dumps(key) + ": " + json.dumps(value) + ", "
        pieces.append("}" if text == ", " else text.removesuffix(", ") + "}")
        self._pieces = pieces

    def fits(self, fixed: tuple[object, ...]) -> bool:
        """Whether the fixed entries are made of ``fixed`` (the same objects and values)."""
        kept = self._fixed
        return len(kept) == len(fixed) and all(
            a is b or (type(a) is type(b) and a == b) for a, b in zip(kept, fixed, strict=True)
        )

    def encode(self, changing: JSON) -> str:
        """``json.dumps`` of the public part whose changing entries are ``changing``."""
        pieces = self._pieces
        dumps = json.dumps
        out = [pieces[0]]
        for i in range(1, len(pieces) - 1, 2):
            out.append(dumps(changing[pieces[i]]))
            out.append(pieces[i + 1])
        return "".join(out)


class HistoryText:
    """One seat's history as JSON text, kept between messages: the entries encoded last
    time (the objects themselves) and each one's text."""

    __slots__ = ("_entries", "_texts")

    def __init__(self) -> None:
        self._entries: list[JSON] = []
        self._texts: list[str] = []

    def encode(self, history: list[JSON]) -> str:
        """``json.dumps(history)``, encoding only the entries that are not the ones it
        encoded last time at the same place."""
        entries, texts = self._entries, self._texts
        keep = _same_start(entries, history)
        if keep < len(entries):
            del entries[keep:]
            del texts[keep:]
        dumps = json.dumps
        for entry in history[keep:]:
            entries.append(entry)
            texts.append(dumps(entry))
        return "[" + ", ".join(texts) + "]"


def _same_start(kept: list[JSON], new: list[JSON]) -> int:
    """How many entries at the start of ``new`` are those of ``kept`` (the same objects)."""
    if all(map(operator.is_, kept, new)):
        return min(len(kept), len(new))
    for i, (a, b) in enumerate(zip(kept, new, strict=False)):
        if a is not b:
            return i
    raise AssertionError("unreachable")  # pragma: no cover


def state_text(message: JSON, history: HistoryText, public: str | None = None) -> str:
    """``json.dumps(message)`` of a ``state`` message, its ``view``'s history encoded by
    ``history`` (the seat's :class:`HistoryText`).  ``public``: the text of the table's
    public part, which the message's ``table`` holds :data:`PUBLIC_MARK` for."""
    view = message.get("view")
    if not isinstance(view, dict) or not isinstance(view.get("history"), list):
        return _with_public(json.dumps(message), public)
    marked = dict(view)
    marked["history"] = _MARK
    outer = dict(message)
    outer["view"] = marked
    text = json.dumps(outer)
    at = text.find(_MARK_TEXT)
    if at < 0 or text.find(_MARK_TEXT, at + 1) >= 0:  # pragma: no cover (a random mark)
        return _with_public(json.dumps(message), public)
    text = text[:at] + history.encode(view["history"]) + text[at + len(_MARK_TEXT) :]
    return _with_public(text, public)


def _with_public(text: str, public: str | None) -> str:
    """``text`` with the table's public part's text in place of its mark (random: no
    other string of a message is it)."""
    if public is None:
        return text
    at = text.find(_PUBLIC_MARK_TEXT)
    if at < 0:  # pragma: no cover (the caller always puts the mark in)
        raise ValueError("the message holds no mark of the table's public part")
    return text[:at] + public + text[at + len(_PUBLIC_MARK_TEXT) :]
