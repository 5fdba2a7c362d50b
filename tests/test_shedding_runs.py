"""``runs_in`` (worked on bitmasks) lists the runs the plain reading gives."""

from __future__ import annotations

import random

import pytest

from tikki.cards import SUIT_OF
from tikki.games.shedding import runs_in

pytestmark = pytest.mark.engine


def _reference(hand: list[int], max_len: int | None) -> list[tuple[int, int]]:
    """Every run of 2+ (at most ``max_len``) cards, by lowest card then length."""
    cards = sorted(set(hand))
    limit = len(cards) if max_len is None else max_len
    out: list[tuple[int, int]] = []
    for low in cards:
        length = 1
        while length < limit:
            nxt = low + length
            if nxt not in cards or SUIT_OF[nxt] != SUIT_OF[low]:
                break
            length += 1
            out.append((low, length))
    return out


def test_runs_in_matches_the_plain_reading() -> None:
    """Random hands, every length limit: the same runs in the same order."""
    rng = random.Random(17)
    for _ in range(20_000):
        hand = rng.sample(range(52), rng.randint(0, 30))
        limit = rng.choice([None, 1, 2, 3, 4, 13])
        assert runs_in(hand, limit) == _reference(hand, limit), (sorted(hand), limit)


def test_runs_do_not_cross_suits() -> None:
    """The ace of one suit and the two of the next are consecutive ints, not a run."""
    ace_spades, two_hearts = 12, 13
    assert runs_in([ace_spades, two_hearts]) == []
    assert runs_in([11, 12, 13]) == [(11, 2)]
