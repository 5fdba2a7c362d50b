"""The JSON text of a ``state`` message, its history encoded once per entry.

A state message carries the seat's whole history (docs/protocol.md), and the history is
most of its bytes; between two messages only its end changes.  The engine shares a
seat's history entries between successive views (read them, never change them:
:func:`tikki.events.history_of`), and a table's state takes over the history of the
state it replaces (:meth:`tikki.core.State.take_history`), so an entry that is the same
object as last time has the same JSON.  :class:`HistoryText` keeps each entry's text and
encodes only the entries that are new (or replaced); :func:`state_text` puts the message
together around it.  The text is byte for byte ``json.dumps(message)``; :func:`dumps`
is ``json.dumps`` without its Python layers.

A client that takes history deltas (docs/protocol.md) is sent only the entries from the
first one it does not have (:func:`same_start` of what it was sent and the new history),
with ``"history_from"``: :func:`delta_text`.

The table's public part (``Table.public``) is encoded apart, its fixed head and bot
seats once (``Table.public_text``), and put in the message's text in the place of
:data:`TABLE_MARK` (:func:`splice`).
"""

from __future__ import annotations

import json
import json.encoder
import operator
import secrets
from collections.abc import Callable, Sequence
from typing import Any, Final

from tikki.core import JSON

_MARK: Final = "tikki-history-" + secrets.token_hex(16)
"""Stands for the history while the rest of the message is encoded (random: no other
string of a message can be it)."""
_MARK_TEXT: Final = json.dumps(_MARK)
TABLE_MARK: Final = "tikki-table-" + secrets.token_hex(16)
"""Stands for the table's public part while a state message is encoded (random, as the
history's mark); :func:`splice` puts the part's text in its place."""
TABLE_MARK_TEXT: Final = json.dumps(TABLE_MARK)
""":data:`TABLE_MARK` as JSON text."""


def _c_dumps() -> Callable[[Any], str]:
    """``json.dumps`` with its defaults as one call of the C encoder, made once (``dumps``
    makes one per call, behind three Python frames), without ``check_circular``'s note of
    every container (a message is a tree: a cycle could not be encoded either way); the
    text is the same.  ``json.dumps`` itself where there is no C encoder."""
    make = getattr(json.encoder, "c_make_encoder", None)  # not in the stubs
    if make is None:  # pragma: no cover (CPython has it)
        return json.dumps
    encoder = json.JSONEncoder()
    encode = make(None, encoder.default, json.encoder.encode_basestring_ascii, None,
                  ": ", ", ", False, False, True)  # fmt: skip
    join = "".join

    def dumps(obj: Any) -> str:
        """``json.dumps(obj)``."""
        return join(encode(obj, 0))

    return dumps


dumps: Final = _c_dumps()
"""``json.dumps(obj)`` of a message or a part of one, byte for byte."""


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
        keep = same_start(entries, history)
        if keep < len(entries):
            del entries[keep:]
            del texts[keep:]
        for entry in history[keep:]:
            entries.append(entry)
            texts.append(dumps(entry))
        return "[" + ", ".join(texts) + "]"


def same_start(kept: Sequence[object], new: Sequence[object]) -> int:
    """How many entries at the start of ``new`` are those of ``kept`` (the same objects).

    >>> a, b, c = {"move": "a"}, {"move": "b"}, {"move": "b"}
    >>> same_start([a, b], [a, b, c]), same_start([a, b], [a, c]), same_start([a, b], [a])
    (2, 1, 1)
    """
    if all(map(operator.is_, kept, new)):
        return min(len(kept), len(new))
    for i, (a, b) in enumerate(zip(kept, new, strict=False)):
        if a is not b:
            return i
    raise AssertionError("unreachable")  # pragma: no cover


def state_text(message: JSON, history: HistoryText) -> str:
    """``json.dumps(message)`` of a ``state`` message, its ``view``'s history encoded by
    ``history`` (the seat's :class:`HistoryText`)."""
    view = message.get("view")
    if not isinstance(view, dict) or not isinstance(view.get("history"), list):
        return dumps(message)
    marked = dict(view)
    marked["history"] = _MARK
    outer = dict(message)
    outer["view"] = marked
    text = dumps(outer)
    at = text.find(_MARK_TEXT)
    if at < 0 or text.find(_MARK_TEXT, at + 1) >= 0:  # pragma: no cover (a random mark)
        return dumps(message)
    return text[:at] + history.encode(view["history"]) + text[at + len(_MARK_TEXT) :]


def delta_text(message: JSON, start: int, full: str | None = None) -> str:
    """``json.dumps`` of a ``state`` message for a client that takes history deltas: its
    view's history from entry ``start`` on, and ``"history_from": start`` last.  ``full``
    (for ``start`` 0: the whole message's text, :func:`state_text`'s) is taken as it is.

    >>> delta_text({"type": "state", "view": {"history": [1, 2, 3]}, "last": 3}, 2)
    '{"type": "state", "view": {"history": [3]}, "last": 3, "history_from": 2}'
    """
    if start == 0 and full is not None and full.endswith("}"):
        return full[:-1] + ', "history_from": 0}'
    view = dict(message["view"])
    view["history"] = view["history"][start:]
    outer = dict(message)
    outer["view"] = view
    outer["history_from"] = start
    return dumps(outer)


def splice(text: str, mark: str, part: str) -> str:
    """``text`` with the first ``mark`` (a mark's JSON text) replaced by ``part`` (a JSON
    text); ``text`` itself where there is no mark.

    >>> splice('{"a": "M", "b": 1}', '"M"', "[2]")
    '{"a": [2], "b": 1}'
    """
    at = text.find(mark)
    if at < 0:
        return text
    return text[:at] + part + text[at + len(mark) :]
