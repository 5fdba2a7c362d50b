"""Dealing hidden cards under per-place suit constraints, exactly and uniformly.

A determinizer knows how many hidden cards each place holds (a hand, the undealt rest)
and which suits a place cannot hold (a public void).  :func:`deal_constrained` deals a
pool of cards into such places so that every assignment allowed is equally likely:
exact constraint-aware dealing, not shuffling and hoping.

Cards are ints whose suit is ``card >> 4`` (four suits, as a colour game's cards are
``colour * 16 + value``); a place is ``(size, allowed suit mask)``.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence
from math import comb

from tikki.core import RulesError

ALL_SUITS = 0b1111
"""The mask of a place that may hold any suit."""


def deal_constrained(
    pool: Sequence[int], places: Sequence[tuple[int, int]], rng: random.Random
) -> list[list[int]]:
    """Deal ``pool`` into ``places`` (``(size, allowed colour mask)`` each), uniformly.

    Every assignment of the (physically distinct) cards to the places that gives each
    place its size and only allowed colours is equally likely.  The colour counts per
    group of places with the same mask are drawn first, weighted by how many card
    assignments each gives (exact integer counting), then the cards themselves.
    Raises :class:`RulesError` when no assignment exists.
    """
    return Dealer(pool, places).deal(rng)


class Dealer:
    """:func:`deal_constrained` for one pool and one set of places, drawn many times."""

    def __init__(self, pool: Sequence[int], places: Sequence[tuple[int, int]]) -> None:
        groups: dict[int, list[int]] = {}
        for i, (_, mask) in enumerate(places):
            groups.setdefault(mask, []).append(i)
        self.masks = sorted(groups, key=lambda m: (m == ALL_SUITS, m))
        self.members = [groups[m] for m in self.masks]
        self.sizes = [sum(places[i][0] for i in groups[m]) for m in self.masks]
        self.place_sizes = [size for size, _ in places]
        self.by_colour: list[list[int]] = [[], [], [], []]
        for c in sorted(pool):
            self.by_colour[c >> 4].append(c)
        self.remaining = tuple(len(b) for b in self.by_colour)
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self.choices: dict[
            tuple[int, tuple[int, ...]], tuple[list[tuple[int, ...]], list[int]]
        ] = {}
        if self.count(0, self.remaining) == 0:
            raise RulesError("no deal of the hidden cards agrees with the view")

    def count(self, j: int, rem: tuple[int, ...]) -> int:
        """How many card assignments deal ``rem`` (colour counts) to groups ``j`` on."""
        if j == len(self.masks) - 1:  # the last group takes what is left, if it may
            mask = self.masks[j]
            fits = sum(rem) == self.sizes[j] and all(mask >> k & 1 or not rem[k] for k in range(4))
            return 1 if fits else 0
        key = (j, rem)
        found = self.memo.get(key)
        if found is None:
            cumulative = self._options(j, rem)[1]
            found = self.memo[key] = cumulative[-1] if cumulative else 0
        return found

    def _options(self, j: int, rem: tuple[int, ...]) -> tuple[list[tuple[int, ...]], list[int]]:
        key = (j, rem)
        found = self.choices.get(key)
        if found is None:
            xs: list[tuple[int, ...]] = []
            cumulative: list[int] = []
            total = 0
            for x in _compositions(self.sizes[j], rem, self.masks[j]):
                weight = _ways(rem, x) * self.count(j + 1, _minus(rem, x))
                if weight:
                    total += weight
                    xs.append(x)
                    cumulative.append(total)
            found = self.choices[key] = (xs, cumulative)
        return found

    def deal(self, rng: random.Random) -> list[list[int]]:
        """One uniform deal: a list of cards per place, in the order of the places."""
        split: list[tuple[int, ...]] = []
        rem = self.remaining
        for j in range(len(self.masks) - 1):
            xs, cumulative = self._options(j, rem)
            x = xs[bisect_right(cumulative, rng.randrange(cumulative[-1]))]
            split.append(x)
            rem = _minus(rem, x)
        split.append(rem)
        by_colour = [cards[:] for cards in self.by_colour]
        for cards in by_colour:
            rng.shuffle(cards)
        out: list[list[int]] = [[] for _ in self.place_sizes]
        for j, x in enumerate(split):
            cards = []
            for colour in range(4):
                take = x[colour]
                if take:
                    cards.extend(by_colour[colour][:take])
                    del by_colour[colour][:take]
            rng.shuffle(cards)
            for i in self.members[j]:
                size = self.place_sizes[i]
                out[i] = cards[:size]
                del cards[:size]
        return out


def _ways(rem: tuple[int, ...], x: tuple[int, ...]) -> int:
    return comb(rem[0], x[0]) * comb(rem[1], x[1]) * comb(rem[2], x[2]) * comb(rem[3], x[3])


def _minus(rem: tuple[int, ...], x: tuple[int, ...]) -> tuple[int, ...]:
    return (rem[0] - x[0], rem[1] - x[1], rem[2] - x[2], rem[3] - x[3])


def _compositions(size: int, rem: tuple[int, ...], mask: int) -> list[tuple[int, ...]]:
    """Colour-count vectors of ``size`` cards within ``rem`` using only ``mask`` colours."""
    c0, c1, c2, c3 = (rem[k] if mask >> k & 1 else 0 for k in range(4))
    out: list[tuple[int, ...]] = []
    for a in range(max(0, size - c1 - c2 - c3), min(c0, size) + 1):
        r1 = size - a
        for b in range(max(0, r1 - c2 - c3), min(c1, r1) + 1):
            r2 = r1 - b
            for c in range(max(0, r2 - c3), min(c2, r2) + 1):
                out.append((a, b, c, r2 - c))
    return out


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """``rng.shuffle(cards)``: the same draws from ``rng`` and the same order, for a plain
    :class:`random.Random` written out (CPython's ``shuffle`` and ``_randbelow``, alike
    from 3.11 to 3.13) so that no Python call is made per card: the start of every game
    and deal.  Any other generator shuffles by its own method."""
    if type(rng) is not random.Random:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    steps = _STEPS.get(len(cards)) or _steps(len(cards))
    for i, n, k in steps:
        j: int = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}
""":func:`shuffle`'s steps by the list's length (:func:`_steps`)."""


def _steps(size: int) -> tuple[tuple[int, int, int], ...]:
    """The steps of :func:`shuffle` for ``size`` cards, memoised in :data:`_STEPS`: each
    place ``i`` from the last down to 1, the count ``i + 1`` of places to swap it with,
    and that count's bits (what ``_randbelow`` draws)."""
    steps = _STEPS[size] = tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
    return steps
