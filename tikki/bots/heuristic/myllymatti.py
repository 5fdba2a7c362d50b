"""Heuristic policy for Myllymatti (all variants), from the source's tactics.

Rules of thumb, in the order they are tried:

Phase 1 — collecting (collect few cards; what you win lands on your own pile)
1. *Lose cheaply and dump very low cards*: if a card of yours is lower than the best card
   already in this round, play the lowest such card — the winner collects your junk.
2. *Turn the stock in a kina (or any forced win) without a good card*: when every card of
   yours would win or tie, count the unseen cards (every card played so far is tracked);
   if more than half of them are lower than the best card on the table, turn the stock.
3. *When you must win, keep your low cards*: win with your highest card (it comes back to
   your pile, and a high card is worth having in phase 2); never tie if you can help it.
4. *Leading*: lead your lowest card if it is low (eight or less); otherwise turn the stock
   while allowed, so the opponent has nothing to aim at.

Rules 1–4 are :func:`tikki.games.shedding_tactics.collect`, on card ints; the game's fast
greedy playout plays rule 1 from the state, and
:func:`tikki.games.myllymatti_tactics.cheapest_card` in phase 2.

Phase 2 — shedding (every hand is public)
5. *Finish tricks*: if your play makes the trick fall, play the cheapest beater (its cards
   leave the game).
6. *Beat with the suit, not with trumps*: the lowest beater of the top card's suit (with
   runs, the longest run starting from it).
7. *Pick up high cards and trumps rather than spend trumps*: if only trumps beat, take
   when the top card is a trump or a jack or higher, unless you are nearly out.
8. *Lead one suit upwards from the bottom*: lead the lowest card (or run) of the non-trump
   suit you hold most of, so the others run out of it and must spend trumps.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from tikki.cards import CARD_TEXT, RANK_OF, RANKS, SUITS, TEXT_CARD
from tikki.core import Game
from tikki.games import shedding_tactics as shedding


def _rank(card: str) -> int:
    return RANKS.index(card[0])


def choose(game: Game, view: Mapping[str, Any], rng: random.Random) -> str:
    """The heuristic move for a Myllymatti view."""
    if view["hands"] is None:
        return _collect(view, rng)
    return _shed(view)


def _collect(view: Mapping[str, Any], rng: random.Random) -> str:
    legal: list[str] = view["legal_moves"]
    cards = [TEXT_CARD[m] for m in legal if m != "stock"]
    trick = view["trick"]
    round_cards = trick["cards"][len(trick["cards"]) - trick["round_played"] :]
    best = max(RANK_OF[TEXT_CARD[e["card"]]] for e in round_cards) if round_cards else None
    card = shedding.collect(
        cards, "stock" in legal, best, lambda b: _lower_share(view, b) > 0.5, rng
    )
    return "stock" if card is None else CARD_TEXT[card]


def _lower_share(view: Mapping[str, Any], best: int) -> float:
    """The share of unseen cards ranked below ``best`` (perfect card tracking)."""
    seen = set(view["hand"])
    for pile in view["piles"]:
        seen.update(pile)
    seen.update(e["card"] for e in view["trick"]["cards"])
    return shedding.share_below((c for c, t in enumerate(CARD_TEXT) if t not in seen), best)


def _shed(view: Mapping[str, Any]) -> str:
    legal: list[str] = view["legal_moves"]
    trump = view["trump"]
    plays = view["trick"]["plays"]
    hand: list[str] = view["hand"]
    if not plays:
        return _lead(legal, hand, trump)
    beaters = [m for m in legal if m != "take"]
    if not beaters:
        return "take"
    suited = [m for m in beaters if m[1] != trump]
    size = view["trick"]["size"] or 0
    if len(plays) + 1 >= size:
        return _cheapest(suited or beaters, longest=True)
    if suited:
        return _cheapest(suited, longest=True)
    top = max(plays[-1]["cards"], key=_rank)
    nearly_out = len(hand) <= 2
    if not nearly_out and (top[1] == trump or _rank(top) >= RANKS.index("J")):
        return "take"
    return _cheapest(beaters, longest=False)


def _cheapest(moves: list[str], longest: bool) -> str:
    """The move starting from the lowest card; among those, the longest (or shortest) run."""
    sign = -1 if longest else 1
    return min(moves, key=lambda m: (_rank(m.split("+")[0]), sign * m.count("+")))


def _lead(legal: list[str], hand: list[str], trump: str) -> str:
    counts = {s: sum(1 for c in hand if c[1] == s) for s in SUITS if s != trump}
    suits = sorted((s for s in counts if counts[s]), key=lambda s: (-counts[s], s))
    for suit in suits:
        options = [m for m in legal if m[1] == suit]
        if options:
            return _cheapest(options, longest=True)
    return _cheapest(legal, longest=False)
