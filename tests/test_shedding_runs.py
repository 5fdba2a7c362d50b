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


def test_myllymattis_run_texts_are_the_plain_reading_of_its_runs() -> None:
    """Myllymatti's run texts (looked up by card: ``_RUN_TEXTS``) are the cards of each
    run ``_runs`` lists, joined by ``+``, in its order (MM-17), for random sorted hands
    and every subset of starts a lead or a reply gives."""
    from tikki.cards import CARD_TEXT
    from tikki.games.myllymatti import _run_texts, _runs

    rng = random.Random(17)
    for _ in range(2000):
        hand = sorted(rng.sample(range(52), rng.randint(0, 20)))
        starts = [c for c in hand if rng.random() < 0.6]
        for chosen in (hand, starts):
            plain = ["+".join(CARD_TEXT[c] for c in run) for run in _runs(hand, chosen)]
            assert _run_texts(hand, chosen) == plain
    # the spades' top: no run goes on from the ace to the next suit's two
    assert _run_texts([10, 11, 12, 13], [10, 11, 12, 13]) == ["QS+KS", "QS+KS+AS", "KS+AS"]
