"""Myllymatti's rollout tactics: the heuristic's quick rules on card ints.

The game's fast greedy playout (``random_playout(rng, greedy=p)``) plays rule 1 of
:mod:`tikki.bots.heuristic.myllymatti` (lose cheaply, :func:`lowest_loser`) in phase 1 and
:func:`cheapest_card` in phase 2, read off the state.
"""

from __future__ import annotations

from collections.abc import Sequence

from tikki.cards import RANK_OF, SUIT_OF
from tikki.games.shedding_tactics import lowest_loser as lowest_loser  # rule 1, for playouts

_COST: tuple[tuple[int, ...], ...] = tuple(
    tuple(RANK_OF[c] + 13 * (SUIT_OF[c] == trump) for c in range(52)) for trump in range(5)
)
"""``_COST[trump][card]``: what spending a card costs a fast playout (trumps dearest;
index 4: no trump)."""


def cheapest_card(options: Sequence[int], trump: int) -> int:
    """Phase 2 for fast playouts, the quick form of rules 6 and 8: the lowest card of
    ``options``, a trump (``trump``; -1: none) dearer than any other card."""
    cost = _COST[trump if trump >= 0 else 4]
    best, best_cost = options[0], cost[options[0]]
    for c in options:  # a loop, not min(key=...): the hot path of every playout
        k = cost[c]
        if k < best_cost:
            best, best_cost = c, k
    return best
