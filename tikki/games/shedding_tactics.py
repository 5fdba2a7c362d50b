"""Phase-1 rules of thumb shared by the shedding games' tactics.

Written once on card ints (:mod:`tikki.cards`), they serve both the games' fast greedy
playouts (``random_playout(rng, greedy=p)``), which read them off the state, and the
heuristic bots (:mod:`tikki.bots.heuristic`), which read them off a view.  ``None`` means
"turn the stock" where a card is asked for.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence

from tikki.cards import RANK_OF, RANKS

LEAD_MAX = RANKS.index("8")
"""Lead low: the highest card still led from hand rather than turning the stock."""


def lead_low(cards: Sequence[int], can_stock: bool) -> int | None:
    """Leading: the lowest card if it is an eight or lower, else the stock while allowed
    (a blind card may well be lower), else still the lowest card."""
    low = lowest(cards)
    return low if RANK_OF[low] <= LEAD_MAX or not can_stock else None


def lowest(cards: Sequence[int]) -> int:
    """The lowest-ranked of ``cards`` (the first of equals), as ``min(key=rank)`` but a
    loop: playouts call it on every move."""
    low = cards[0]
    low_rank = RANK_OF[low]
    for c in cards:
        r = RANK_OF[c]
        if r < low_rank:
            low, low_rank = c, r
    return low


def highest(cards: Sequence[int]) -> int:
    """The highest-ranked of ``cards`` (the first of equals), as ``max(key=rank)``."""
    high = cards[0]
    high_rank = RANK_OF[high]
    for c in cards:
        r = RANK_OF[c]
        if r > high_rank:
            high, high_rank = c, r
    return high


def lowest_loser(cards: Sequence[int], best: int) -> int | None:
    """Lose cheaply: the lowest card ranked below ``best`` (the best rank of the round)."""
    low, low_rank = None, best
    for c in cards:  # a loop, not min() over a list: the hot path of every playout
        r = RANK_OF[c]
        if r < low_rank:
            low, low_rank = c, r
    return low


def highest_winner(cards: Sequence[int], best: int) -> int | None:
    """When you must win, win with the highest card (ranked above ``best``)."""
    winners = [c for c in cards if RANK_OF[c] > best]
    return max(winners, key=RANK_OF.__getitem__) if winners else None


def share_below(unseen: Iterable[int], best: int) -> float:
    """The share of the ``unseen`` cards ranked below ``best`` (0 with none unseen)."""
    ranks = [RANK_OF[c] for c in unseen]
    if not ranks:
        return 0.0
    return sum(1 for r in ranks if r < best) / len(ranks)


def collect(
    cards: Sequence[int],
    can_stock: bool,
    best: int | None,
    stock_pays: Callable[[int], bool],
    rng: random.Random,
) -> int | None:
    """A phase-1 card, or ``None`` for the stock: lead low (``best`` is ``None`` when
    leading); else lose with the lowest card; else turn the stock when ``stock_pays(best)``
    (the unseen cards are likely lower); else win with the highest card; else the stock
    while allowed, else any card."""
    if best is None:
        return lead_low(cards, can_stock)
    loser = lowest_loser(cards, best)
    if loser is not None:
        return loser
    if can_stock and stock_pays(best):
        return None
    winner = highest_winner(cards, best)
    if winner is not None:
        return winner
    return None if can_stock else rng.choice(list(cards))
