"""Pieces shared by the shedding games (Myllymatti, Mattis): seats with cards, runs.

French cards are ints (:mod:`tikki.cards`), ``suit * 13 + rank``, so the cards of one
suit in consecutive ranks are consecutive ints: a run (Myllymatti) or sequence (Mattis)
is ``low, low + 1, …`` within one suit, written low to high, ``5H+6H+7H``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import reduce
from itertools import pairwise
from operator import or_
from typing import Any, TypeVar

from tikki.cards import CARD_TEXT, SUIT_OF

T = TypeVar("T")
U = TypeVar("U")


def grown(kept: list[Any], items: list[T], convert: Callable[[T], U]) -> list[U]:
    """A new list of ``convert`` over ``items``, a list that only ever grows, converting
    only the items added since the last call (issue 17: views kept up to date).

    ``kept`` is ``[items, converted]`` from the last call (``[None, []]`` at first); for
    another list (or a shorter one) everything is converted again.  The converted items
    are shared between the lists returned: read them, never change them.
    """
    done: list[U] = kept[1]
    if kept[0] is not items or len(done) > len(items):
        kept[0] = items
        done = kept[1] = []
    if len(done) < len(items):
        done.extend(map(convert, items[len(done) :]))
    return done[:]


def next_with_cards(hands: Sequence[Sequence[int]], seat: int) -> int:
    """The first seat clockwise from ``seat`` (itself included) holding cards, or ``-1``."""
    n = len(hands)
    for k in range(n):
        s = (seat + k) % n
        if hands[s]:
            return s
    return -1


def holders(hands: Iterable[Sequence[int]]) -> int:
    """How many hands hold at least one card."""
    return sum(1 for h in hands if h)


def is_run(cards: Sequence[int]) -> bool:
    """Whether ``cards`` (low to high) are of one suit in consecutive ranks."""
    return all(SUIT_OF[b] == SUIT_OF[a] and b == a + 1 for a, b in pairwise(cards))


def run_text(low: int, length: int) -> str:
    """The canonical text of the run of ``length`` cards starting at ``low``."""
    return "+".join(CARD_TEXT[low + i] for i in range(length))


def runs_in(hand: Iterable[int], max_len: int | None = None) -> list[tuple[int, int]]:
    """Every run of 2 or more (at most ``max_len``) cards in ``hand``: ``(low, length)``.

    Ordered by lowest card, then length.  Worked on a bitmask of the hand: bit ``c`` of
    ``links`` says that ``c`` and ``c + 1`` are held and of one suit.
    """
    held = reduce(or_, map(_BIT.__getitem__, hand), 0)
    links = held & (held >> 1) & _NOT_ACES
    limit = held.bit_count() if max_len is None else max_len
    if not links or limit < 2:
        return []
    out: list[tuple[int, int]] = []
    rest = links
    while rest:
        bit = rest & -rest
        rest ^= bit
        c = bit.bit_length() - 1
        length = 2
        out.append((c, 2))
        while length < limit and links >> (c + length - 1) & 1:
            length += 1
            out.append((c, length))
    return out


_BIT: tuple[int, ...] = tuple(1 << c for c in range(52))
_NOT_ACES = sum(1 << c for c in range(52) if c % 13 != 12)
"""The cards that may link to the next int: all but the aces (the next int is a new suit)."""


def run_texts(hand: Iterable[int], starts: Iterable[int], max_len: int | None = None) -> list[str]:
    """Texts of every run of 2+ (at most ``max_len``) cards in ``hand`` starting in ``starts``."""
    held = set(hand)
    out: list[str] = []
    for c in starts:
        text = CARD_TEXT[c]
        nxt = c + 1
        length = 1
        while nxt in held and SUIT_OF[nxt] == SUIT_OF[c] and (max_len is None or length < max_len):
            text += "+" + CARD_TEXT[nxt]
            out.append(text)
            nxt += 1
            length += 1
    return out
