"""Heuristic policy for Mückenstich (3–6 players), from the rulebook's tactics and MS-1..MS-11.

The policy reads only the view: the own hand and discards, the public history (every card
played is public, C-4), the piles won so far, the public voids and the current trick.  It
tracks every card: the *unseen* cards are the deck minus the own hand, the own discards,
everything in the piles and the current trick (they lie in other hands, other discards or
the undealt rest).

The yardstick is the arena's (docs/design.md, "Measuring strength"): my score minus the mean of
the others'.  A trick worth ``v`` to its winner is worth ``v`` to me if I win it and
``-v / (n - 1)`` if another seat does, where a trick's worth to a seat is its number cards
(+1 each) minus 5 for each mosquito colour not yet in that seat's pile (MS-10: only the
first mosquito of a colour bites).

Rules of thumb
--------------
Discarding (MS-4)
1. *Set aside mosquitoes that would bite you*: a mosquito of a colour not yet in your pile
   is the first thing to discard, the loneliest first (a mosquito with few cards of its
   colour beside it is soon forced onto a trick of that colour, which it then wins).
   A mosquito of a colour already in your pile (3 players, second deal) bites no more:
   keep it, it wins tricks for free.
2. *Build a void for the mosquito you must keep*: holding three or more such mosquitoes,
   first set aside the only card of a colour (one without a mosquito), so that you can
   throw a mosquito when that colour is led.
3. *Otherwise discard the lowest card of your longest colour*: a low card only ducks, and
   a long colour has ducks to spare; the high cards win the clean tricks (measured against
   random seats: about one point a round better than discarding high cards with 3 players,
   the same with 4 and 5).

Playing a card (MS-6..MS-9)
4. *Weigh every legal card by the trick it makes*: for each card (and, for a mosquito,
   each trump colour it could name) find who wins the trick as it stands, then estimate
   the chance that the seats still to play overtake it — from the unseen cards that beat
   it (higher cards of the colour led, trumps for seats known void, every unseen mosquito,
   which names a new trump) and the hand sizes — and what they will add (number cards,
   or mosquitoes thrown by seats void in the colour led).  The card with the best expected
   worth wins.
5. *Avoid mosquitoes*: do not win a trick holding a mosquito of a colour that would bite
   you, unless its number cards pay for it; win tricks with number cards and with
   mosquitoes that no longer bite you.
6. *Dump your own mosquitoes on tricks others win*: when void in the colour led, throw a
   mosquito and name a trump that leaves the trick with another seat — preferably one
   whom it bites; as the last to play this is exact.
7. *Name trumps that win or lose tricks as wanted* (MS-8): after a mosquito, name the
   colour that gives the trick to whom it should go (yourself if it pays, else the seat it
   hurts most); among equal choices prefer a colour in which you hold high cards, for the
   tricks to come.
8. *Keep what is worth keeping*: playing a card also costs or gains something for later —
   a high card (a future trick winner, judged against the unseen cards of its colour) is a
   small loss, a card that empties a colour while you still hold mosquitoes that would bite
   you a small gain (a new void to throw them into).  An unwanted mosquito leaving the hand
   gains nothing beyond the trick's worth, which already counts its bite for the taker.
9. *Take few tricks when it pays*: while you have strictly the fewest tricks and naming the
   doubled colour would gain you points, winning a trick that costs you that right is
   charged with the gain, more so near the end of the deal.

Scoring choices (MS-10), from the public piles
10. *Double* the colour that raises your score most against the others' mean, looking ahead
    to the colour the dropper will then drop (the same rule below, played for him).
11. *Drop* the colour (not the doubled one) that lowers the others' mean most against your
    own score.

Fast playouts (the game's ``random_playout(rng, greedy=p)``) play quicker rules, written
on card ints beside the game (:mod:`tikki.games.mueckenstich_tactics`):
``cheap_discard``, ``cheap_card``, ``cheap_trump``, and at the scoring ``cheap_double``
and ``cheap_drop`` (rules 10 and 11 without the look-ahead: over the same 80 deals,
``ismcts:iterations=1000`` against three heuristic seats gained +1.84 points a round with
them, +1.06 with uniform choices).
Both use the game's public :func:`~tikki.games.mueckenstich.trick_winner`
and :func:`~tikki.games.mueckenstich.score_pile`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from tikki.cards import COLOURS, MOSQUITO
from tikki.core import Game
from tikki.games.mueckenstich import (
    DECK,
    MOSQUITO_PENALTY,
    TEXT_CARD,
    score_pile,
    trick_winner,
)

COPIES: dict[int, int] = dict(Counter(DECK))
"""How many copies of each card int the deck has (MS-1)."""

BEAT = 0.5
"""Chance that a seat holding a card that beats the trick actually plays it (0.5 measured
better than 0.8 or 1.0)."""
DUMP = 1.5
"""How much likelier than chance a seat void in the colour led throws a mosquito."""
LIABILITY = 0.0
"""What an unwanted mosquito leaving the hand is worth beyond the trick (rule 8; 2.0 cost
about half a point a round against random seats)."""
KEEP_HIGH = 0.6
"""The cost of spending a card that beats every unseen card of its colour (rule 8)."""
VOID_BONUS = 0.5
"""The worth of emptying a colour while holding unwanted mosquitoes (rule 8)."""
TRUMP_STRENGTH = 0.1
"""The worth per high card held in the colour named trump (rule 7)."""


def _colour(card: int) -> int:
    return card >> 4


def _value(card: int) -> int:
    return card & 15


_card = TEXT_CARD.__getitem__


class _Table:
    """What the view tells about the current deal, read once per decision."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.me: int = view["seat"]
        self.n: int = view["players"]
        self.hand = [_card(t) for t in view["hand"]]
        self.piles = [[_card(t) for t in p] for p in view["piles"]]
        self.bitten = [0] * self.n
        self.numbers = [[0, 0, 0, 0] for _ in range(self.n)]
        for s, pile in enumerate(self.piles):
            for c in pile:
                if _value(c) == MOSQUITO:
                    self.bitten[s] |= 1 << _colour(c)
                else:
                    self.numbers[s][_colour(c)] += 1
        self.trick = [(e["seat"], _card(e["card"])) for e in view["trick"]]
        self.led = -1 if view["led"] is None else COLOURS.index(view["led"])
        self.trump = -1 if view["trump"] is None else COLOURS.index(view["trump"])
        self.voids = [sum(1 << COLOURS.index(k) for k in v) for v in view["voids"]]
        self.sizes: list[int] = list(view["hand_sizes"])
        self.tricks: list[int] = list(view["tricks"])
        unseen = dict(COPIES)
        known = [*self.hand, *(_card(t) for t in view["discards"]), *(c for _, c in self.trick)]
        for pile in self.piles:
            known.extend(pile)
        for c in known:
            unseen[c] -= 1
        self.unseen = {c: k for c, k in unseen.items() if k > 0}
        self.total_unseen = max(1, sum(self.unseen.values()))
        self.in_play = sum(self.sizes) - self.sizes[self.me]
        self.tricks_left = max(self.sizes)

    # --- worth of tricks -----------------------------------------------------------------

    def worth(self, seat: int, cards: Sequence[int]) -> float:
        """The score a trick of ``cards`` brings ``seat``: number cards minus new bites."""
        bites = 0
        plus = 0
        for c in cards:
            if _value(c) == MOSQUITO:
                bites |= 1 << _colour(c)
            else:
                plus += 1
        return plus - MOSQUITO_PENALTY * (bites & ~self.bitten[seat]).bit_count()

    def later(self, trick: Sequence[tuple[int, int]]) -> list[int]:
        """The seats still to play to ``trick``, in order."""
        start = trick[-1][0] if trick else self.me
        return [(start + i) % self.n for i in range(1, self.n - len(trick) + 1)]

    def _holds(self, seat: int, count: int) -> float:
        """The chance that ``seat`` holds at least one of ``count`` unseen cards."""
        if count <= 0:
            return 0.0
        share = min(1.0, self.sizes[seat] / self.total_unseen)
        return 1.0 - (1.0 - share) ** count

    def _beaters(self, seat: int, led: int, trump: int, best: int) -> int:
        """Unseen cards with which ``seat`` could overtake the best card ``best``."""
        colour = _colour(best)
        count = 0
        if self.voids[seat] >> led & 1:
            for c, k in self.unseen.items():
                if _colour(c) == led:
                    continue
                if _value(c) == MOSQUITO or (
                    trump >= 0
                    and trump != led
                    and _colour(c) == trump
                    and (colour != trump or c >= best)
                ):
                    count += k
            return count
        for c, k in self.unseen.items():
            if _colour(c) == led and ((c >= best and colour == led) or _value(c) == MOSQUITO):
                count += k
        return count

    def _added(self, seat: int, led: int, winner: int) -> float:
        """The worth to ``winner`` of the card ``seat`` is expected to add to the trick."""
        void = self.voids[seat] >> led & 1
        mosq = 0
        numbers = 0
        for c, k in self.unseen.items():
            if (_colour(c) == led) != bool(void):
                if _value(c) == MOSQUITO:
                    if not self.bitten[winner] >> _colour(c) & 1:
                        mosq += k
                else:
                    numbers += k
        pool = mosq + numbers
        if pool == 0:
            return 1.0
        p_mosq = min(1.0, mosq / pool * (DUMP if void else 1.0))
        return (1.0 - p_mosq) - MOSQUITO_PENALTY * p_mosq

    def evaluate(self, trick: Sequence[tuple[int, int]], led: int, trump: int) -> float:
        """The expected worth to me of ``trick`` (my card in it) once it is finished."""
        seat, best = trick_winner(trick, led, trump)
        cards = [c for _, c in trick]
        others = self.n - 1
        rest = self.later(trick)
        if not rest:
            if seat == self.me:
                return self.worth(seat, cards) - self._doubling_cost()
            return -self.worth(seat, cards) / others
        hold = 1.0
        if seat == self.me:
            for p in rest:
                hold *= 1.0 - BEAT * self._holds(p, self._beaters(p, led, trump, best))
        win = self.worth(self.me, cards) + sum(self._added(p, led, self.me) for p in rest)
        win -= self._doubling_cost()
        taker = seat if seat != self.me else rest[0]
        lose = -(self.worth(taker, cards) + sum(self._added(p, led, taker) for p in rest))
        lose /= others
        if seat != self.me:
            return lose
        return hold * win + (1.0 - hold) * lose

    def _doubling_cost(self) -> float:
        """What winning one more trick may cost me in the right to double (rule 9)."""
        me = self.me
        fewest = min(t for s, t in enumerate(self.tricks) if s != me)
        if self.tricks[me] >= fewest or self.tricks[me] + 1 < fewest:
            return 0.0
        gain = max(self.double_gain(c) for c in range(4))
        if gain <= 0:
            return 0.0
        return gain * (1.0 if self.tricks_left <= 3 else 0.4)

    def double_gain(self, colour: int) -> float:
        """How much doubling ``colour`` now raises my score against the others' mean."""
        mine = self.numbers[self.me][colour]
        theirs = sum(self.numbers[s][colour] for s in range(self.n) if s != self.me)
        return mine - theirs / (self.n - 1)

    # --- keeping cards -----------------------------------------------------------------

    def keep_cost(self, card: int) -> float:
        """What spending ``card`` from the hand costs for later (negative: a gain)."""
        colour = _colour(card)
        if _value(card) == MOSQUITO:
            if not self.bitten[self.me] >> colour & 1:
                return -LIABILITY
            return KEEP_HIGH
        higher = sum(k for c, k in self.unseen.items() if _colour(c) == colour and c > card)
        lower = sum(k for c, k in self.unseen.items() if _colour(c) == colour and c < card)
        cost = KEEP_HIGH * lower / max(1, higher + lower)
        same = sum(1 for c in self.hand if _colour(c) == colour)
        if same == 1 and self._unwanted_mosquitoes(exclude=card):
            cost -= VOID_BONUS
        return cost

    def _unwanted_mosquitoes(self, exclude: int = -1) -> int:
        return sum(
            1
            for c in self.hand
            if c != exclude and _value(c) == MOSQUITO and not self.bitten[self.me] >> _colour(c) & 1
        )

    def trump_bonus(self, colour: int) -> float:
        """A small worth of naming ``colour`` trump for the tricks to come (rule 7)."""
        strong = sum(1 for c in self.hand if _colour(c) == colour and _value(c) >= 9)
        return TRUMP_STRENGTH * strong


def choose(game: Game, view: Mapping[str, Any], rng: random.Random) -> str:
    """The heuristic move for a Mückenstich view."""
    legal: list[str] = view["legal_moves"]
    if len(legal) == 1:
        return legal[0]
    table = _Table(view)
    phase = view["phase"]
    if phase == "discard":
        return _discard(table, legal)
    if phase == "score":
        return _score(table, view, legal)
    if view["naming_trump"]:
        return _name_trump(table, legal)
    return _play(table, legal)


def _best(scored: list[tuple[float, str]]) -> str:
    """The move with the highest worth (the first listed among equals: deterministic)."""
    best_move, best_worth = scored[0][1], scored[0][0]
    for worth, move in scored[1:]:
        if worth > best_worth + 1e-9:
            best_move, best_worth = move, worth
    return best_move


def _discard(table: _Table, legal: list[str]) -> str:
    hand = table.hand
    per_colour = [0, 0, 0, 0]
    mosquitoes = [0, 0, 0, 0]
    for c in hand:
        if _value(c) == MOSQUITO:
            mosquitoes[_colour(c)] += 1
        else:
            per_colour[_colour(c)] += 1
    unwanted = table._unwanted_mosquitoes()
    scored = []
    for move in legal:
        card = _card(move.split()[1])
        colour = _colour(card)
        if _value(card) == MOSQUITO:
            bitten = table.bitten[table.me] >> colour & 1
            worth = -10.0 if bitten else 20.0 - per_colour[colour]
        elif unwanted >= 3 and per_colour[colour] == 1 and not mosquitoes[colour]:
            worth = 30.0
        else:
            worth = -_value(card) / 12 + per_colour[colour] / 20
        scored.append((worth, move))
    return _best(scored)


def _play(table: _Table, legal: list[str]) -> str:
    trick = table.trick
    scored = []
    for move in legal:
        card = _card(move)
        led = table.led if trick else _colour(card)
        after = [*trick, (table.me, card)]
        if _value(card) == MOSQUITO:
            worth = max(table.evaluate(after, led, t) + table.trump_bonus(t) for t in range(4))
        else:
            worth = table.evaluate(after, led, table.trump)
        scored.append((worth - table.keep_cost(card), move))
    return _best(scored)


def _name_trump(table: _Table, legal: list[str]) -> str:
    led = table.led
    scored = []
    for move in legal:
        trump = COLOURS.index(move[-1])
        scored.append((table.evaluate(table.trick, led, trump) + table.trump_bonus(trump), move))
    return _best(scored)


def _final_scores(table: _Table, doubled: int, dropped: int) -> list[int]:
    return [score_pile(pile, doubled, dropped) for pile in table.piles]


def _advantage(table: _Table, seat: int, doubled: int, dropped: int) -> float:
    scores = _final_scores(table, doubled, dropped)
    return scores[seat] - (sum(scores) - scores[seat]) / (table.n - 1)


def _drop_for(table: _Table, seat: int, doubled: int) -> int:
    """The colour ``seat`` drops when ``doubled`` is doubled (rule 11)."""
    options = [c for c in range(4) if c != doubled]
    return max(options, key=lambda c: (_advantage(table, seat, doubled, c), -c))


def _score(table: _Table, view: Mapping[str, Any], legal: list[str]) -> str:
    me = table.me
    if legal[0].startswith("double"):
        most = max(view["mosquitoes"])
        dropper = -1
        if most > 0 and view["mosquitoes"].count(most) == 1:
            dropper = view["mosquitoes"].index(most)
        scored = []
        for move in legal:
            doubled = COLOURS.index(move[-1])
            dropped = _drop_for(table, dropper, doubled) if dropper >= 0 else -1
            scored.append((_advantage(table, me, doubled, dropped), move))
        return _best(scored)
    doubled = -1 if view["doubled"] is None else COLOURS.index(view["doubled"])
    return f"drop {COLOURS[_drop_for(table, me, doubled)]}"
