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
"""

from __future__ import annotations

import json
import json.encoder
import operator
import secrets
from collections.abc import Callable
from typing import Any, Final

from tikki.core import JSON

_MARK: Final = "tikki-history-" + secrets.token_hex(16)
"""Stands for the history while the rest of the message is encoded (random: no other
string of a message can be it)."""
_MARK_TEXT: Final = json.dumps(_MARK)


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
        keep = _same_start(entries, history)
        if keep < len(entries):
            del entries[keep:]
            del texts[keep:]
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
