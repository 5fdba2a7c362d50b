"""Heuristic policy for Mattis (2–5 players, either ``max_sequence``), from the source's tactics.

The shedding games' spirit (collect little, shed cheaply) plus Mattis's sloughing and sequences.
It reads only the view.  Rules of thumb, in the order they are tried:

Always
0. *No choice, no thought*: a single legal move (a forced must-match, a lone ``pass``) is
   played at once.

Phase 1 — collecting (whatever a trick holds ends on its winner's pile, then in his
phase-2 hand)
1. *Must match* (AM-3): when every legal move is a card of the rank to match, play it (the
   war that may follow is played by rules 2–5 like any round).
2. *Lead low*: leading a trick or a war round, play your lowest card if it is an eight or
   lower; with only high cards, turn the stock while it is allowed (a blind card may
   well be lower, and the hand keeps its cards), else still the lowest card.
3. *Lose cheaply and dump your junk*: following, if a card of yours is lower than the best
   card of the round, play the **lowest** such card.  It loses, the winner collects it,
   and its rank becomes a losing rank that everyone may slough onto the winner.  (Playing
   the highest loser instead lost 2–3 points more often in self-play, near the noise.)
4. *Turn the stock rather than win for sure*: if every card of yours would win or tie,
   count the unseen cards (every card played, turned, sloughed or piled so far is
   tracked); if at least 30% of them rank below the best card, turn the stock.
5. *When you must win, win with your highest card*: it lands on your own pile anyway, and
   the lower cards stay in hand to lose the next tricks.
6. *Slough onto someone else's trick, never your own* (AM-5): in a slough lap, pass while
   you could still win the trick (you are yet to play in the current round, or you hold
   its best rank); once you cannot win, slough every card you can, highest first — each
   one goes to the winner's pile instead of yours, and the draw refills your hand from the
   stock, which ends phase 1 sooner.  (Never sloughing lost about 3 points more often.)

Phase 2 — shedding (every hand is public apart from who got which dreck card)
7. *Go out when you can*: a play that empties your hand is played at once.
8. *Lead upwards from the bottom, with sequences*: lead the non-trump play whose lowest
   card is lowest, the longest sequence that starts there (it sheds two or three cards
   for one play); between suits, the one you hold most of.  Trumps are led only when you
   hold nothing else.  (Leading from the longest suit lost 3 points more often, leading
   single cards 11: low sequences are the cheapest cards to be rid of.)
9. *Beat with the cheapest play, suit before trump*: the beater whose lowest card is
   lowest, the longest sequence from it, of the top play's suit if you have one; trumps
   only when the suit cannot beat.  (Beating with single cards lost 8 points more often;
   greedily shedding the most cards per play, whatever their ranks, 5 points.)
10. *Take only when beating would cost the trump ace*: ``take`` picks up the whole trick
    (AM-12), so it is dear; take only a lone card that only your trump ace would beat,
    unless you are nearly out (two cards or fewer).  With no beater at all, take.
    (Taking a lone high card or trump rather than trumping it was no better.)

Measured by self-play duels: one variant against two copies of these rules, 900 games
on duplicate deals (the 95% interval of a loss rate is about ±3 points).  Tried and left
out, with no measurable gain: beating or leading with the play the next player cannot
beat (hands are public), winning with the lowest winning card, other stock thresholds.
Against two random players the rules lose under 1% of 3-player games.

The rules are written once, on card ints, beside the game (:mod:`tikki.games.mattis_tactics`):
``collect`` (rules 2–5, :mod:`tikki.games.shedding_tactics`), ``slough`` (rule 6) and
``shed`` (rules 7–10) serve both :func:`choose`, which reads them off a view, and the
game's fast greedy playout, which reads them off the state and plays ``cheap_collect`` in
phase 1 (rules 2, 3 and 5 without the card counting of rule 4) and the lead of rule 8
without its suit count.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from tikki.cards import CARD_TEXT, RANK_OF, SUITS, TEXT_CARD
from tikki.core import Game
from tikki.games import shedding_tactics as shedding
from tikki.games.mattis_tactics import STOCK_SHARE, Play, shed, slough


def _rank(card: str) -> int:
    return RANK_OF[TEXT_CARD[card]]


def choose(game: Game, view: Mapping[str, Any], rng: random.Random) -> str:
    """The heuristic move for a Mattis view (one of ``view["legal_moves"]``)."""
    legal: list[str] = view["legal_moves"]
    if len(legal) == 1:
        return legal[0]
    if view["phase"] == "collect":
        if view["trick"]["slough_lap"] is not None:
            return _slough(view)
        return _collect(view, rng)
    return _shed(view)


def _round_cards(view: Mapping[str, Any]) -> list[tuple[int, int]]:
    """``(seat, rank)`` of the cards played (not sloughed) in the current round."""
    trick = view["trick"]
    played = [(e["seat"], _rank(e["card"])) for e in trick["cards"] if e["how"] != "slough"]
    k: int = trick["round_played"]
    return played[len(played) - k :] if k else []


def _unseen(view: Mapping[str, Any]) -> list[int]:
    """The cards this seat has not seen: other hands and the stock."""
    seen = set(view["hand"])
    for pile in view["piles"]:
        seen.update(pile)
    seen.update(e["card"] for e in view["trick"]["cards"])
    seen.update(e["card"] for e in view["history"] if "card" in e)
    if view["shown_card"]:
        seen.add(view["shown_card"])
    return [c for c, text in enumerate(CARD_TEXT) if text not in seen]


def _slough(view: Mapping[str, Any]) -> str:
    sloughs = [TEXT_CARD[m[7:]] for m in view["legal_moves"] if m != "pass"]
    card = slough(view["seat"], view["trick"]["round"], _round_cards(view), sloughs)
    return "pass" if card is None else "slough " + CARD_TEXT[card]


def _collect(view: Mapping[str, Any], rng: random.Random) -> str:
    legal: list[str] = view["legal_moves"]
    texts = [m for m in legal if m != "stock"]
    can_stock = "stock" in legal
    if not texts:
        return "stock"
    match = view["trick"]["match_rank"]
    if not can_stock and match is not None and all(c[0] == match for c in texts):
        return texts[0]
    played = _round_cards(view)
    best = max(r for _, r in played) if played else None
    card = shedding.collect(
        [TEXT_CARD[t] for t in texts],
        can_stock,
        best,
        lambda b: shedding.share_below(_unseen(view), b) >= STOCK_SHARE,
        rng,
    )
    return "stock" if card is None else CARD_TEXT[card]


def _shed(view: Mapping[str, Any]) -> str:
    legal: list[str] = view["legal_moves"]
    hand: list[str] = view["hand"]
    singles: list[int] = []
    runs: list[Play] = []
    for move in legal:
        if "+" in move:
            runs.append((TEXT_CARD[move[:2]], move.count("+") + 1))
        elif move != "take":
            singles.append(TEXT_CARD[move])
    plays = view["trick"]["plays"]
    counts = None if plays else [sum(1 for c in hand if c[1] == s) for s in SUITS]
    lone = len(plays) == 1 and len(plays[0]["cards"]) == 1
    trump = -1 if view["trump"] is None else SUITS.index(view["trump"])
    play = shed(singles, runs, len(hand), trump, lone, counts)
    if play is None:
        return "take"
    low, length = play
    return "+".join(CARD_TEXT[low + i] for i in range(length))
