"""Mückenstich's rollout tactics and the search's belief, on card ints.

The game's fast greedy playout (``random_playout(rng, greedy=p)``) plays these quick forms
of the rules of thumb of :mod:`tikki.bots.heuristic.mueckenstich` (numbered as there):
:func:`cheap_discard`, :func:`cheap_card`, :func:`cheap_trump`, and at the scoring
:func:`cheap_double` and :func:`cheap_drop`.  A search (``expert``, the analysis) draws its
states through :func:`belief`, which sets the other seats' discards aside as rule 1 does;
with inference on (``expert:inference=policy``) it weights them by :func:`likelihood`, how
likely the other seats' cards so far were under :func:`cheap_card` in each.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple, cast

from tikki.cards import COLOURS, MOSQUITO
from tikki.core import Game, State
from tikki.games.mueckenstich import (
    MOSQUITO_PENALTY,
    TEXT_CARD,
    MueckenstichState,
    trick_winner,
)
from tikki.games.mueckenstich import hidden_places as hidden_places  # points puzzles' worlds
from tikki.games.mueckenstich import with_hidden as with_hidden

_CHEAP_ORDER: tuple[int, ...] = tuple((c & 15) * 4 + (c >> 4) for c in range(64))
"""Cheapest card first: by value, then colour."""
_DUMP_ORDER: tuple[int, ...] = tuple(
    100 if c & 15 == MOSQUITO else (c & 15) * 4 + (c >> 4) for c in range(64)
)
"""A seat void in the colour led throws a mosquito, else its highest card."""


def _first_max(cards: Sequence[int], order: Sequence[int]) -> int:
    """``max(cards, key=order.__getitem__)`` (the first of equals), as a loop."""
    best, key = cards[0], order[cards[0]]
    for c in cards:
        k = order[c]
        if k > key:
            best, key = c, k
    return best


def _first_min(cards: Sequence[int], order: Sequence[int]) -> int:
    """``min(cards, key=order.__getitem__)`` (the first of equals), as a loop."""
    best, key = cards[0], order[cards[0]]
    for c in cards:
        k = order[c]
        if k < key:
            best, key = c, k
    return best


def cheap_discard(hand: Sequence[int]) -> int | None:
    """A discard, cheaply: a mosquito when the hand holds one (else ``None``: any card)."""
    card = _first_max(hand, _CHEAP_ORDER)
    return card if card & 15 == MOSQUITO else None


def cheap_card(
    options: list[int], trick: Sequence[tuple[int, int]], seat: int, led: int, trump: int, n: int
) -> int:
    """A card, cheaply: void in the colour led, throw a mosquito (else the highest card);
    last to play, win a trick worth having with the lowest winner and duck any other with
    the highest card that does not win it; following a trick that holds a mosquito, the
    highest card that does not take it; otherwise the lowest number card (a trick's worth:
    +1 a number card, -5 a mosquito)."""
    if trick and options[0] >> 4 != led:
        return _first_max(options, _DUMP_ORDER)
    low = _first_min(options, _CHEAP_ORDER)
    if not trick:
        return low
    worth = 1
    for _, c in trick:  # loops, not generators or min(key=...): playouts call this
        worth += -MOSQUITO_PENALTY if c & 15 == MOSQUITO else 1
    last = len(trick) == n - 1
    if worth > 0 and not last:
        return low
    wins = [c for c in options if trick_winner([*trick, (seat, c)], led, trump)[0] == seat]
    if worth > 0 and wins:
        return _first_min(wins, _CHEAP_ORDER)
    ducks = [c for c in options if c not in wins]
    return _first_max(ducks, _CHEAP_ORDER) if ducks else low


def cheap_trump(trick: Sequence[tuple[int, int]], seat: int, led: int, trump: int) -> int:
    """A trump, cheaply: the first colour that leaves the trick so far to another seat,
    else keep the current one (any colour when there is none)."""
    if not trick:
        return max(trump, 0)
    for colour in range(4):
        if trick_winner(trick, led, colour)[0] != seat:
            return colour
    return max(trump, 0)


def _edges(piles: Sequence[Sequence[int]], seat: int) -> list[int]:
    """For each colour, ``seat``'s number cards in it times ``n - 1`` minus the others'
    (what one point per card of that colour is worth to ``seat`` against the others' mean,
    scaled by ``n - 1``)."""
    n = len(piles)
    edge = [0, 0, 0, 0]
    for s in range(n):
        weight = n - 1 if s == seat else -1
        for c in piles[s]:
            if c & 15 != MOSQUITO:
                edge[c >> 4] += weight
    return edge


def cheap_double(piles: Sequence[Sequence[int]], seat: int) -> int:
    """A doubled colour, cheaply (rule 10 without the look-ahead): the colour whose
    doubling raises ``seat``'s score most against the others' mean."""
    edge = _edges(piles, seat)
    best = 0
    for colour in range(1, 4):
        if edge[colour] > edge[best]:
            best = colour
    return best


def cheap_drop(piles: Sequence[Sequence[int]], seat: int, doubled: int) -> int:
    """A dropped colour, cheaply (rule 11): the colour other than ``doubled`` whose cards
    lower the others' mean most against ``seat``'s own score."""
    edge = _edges(piles, seat)
    best = -1
    for colour in range(4):
        if colour != doubled and (best < 0 or edge[colour] < edge[best]):
            best = colour
    return best


# --- the search's belief: who set aside what --------------------------------------------------

SET_ASIDE = 0.5
"""The chance the belief gives each hidden discard of another seat of being a mosquito that
would bite it, where its hand was dealt one (rule 1).  :func:`belief`."""


def belief(game: Game, view: Mapping[str, Any]) -> Callable[[random.Random], MueckenstichState]:
    """The states a search (``expert``, the analysis) draws from ``view``: the game's uniform
    determinizer's, then each other seat's hidden discards hold the mosquitoes that would bite
    it, as rule 1 sets them aside (with chance :data:`SET_ASIDE` each).

    The determinizer deals the hidden cards uniformly, as if a seat set aside any two cards:
    it leaves about two mosquitoes too many in the others' hands (4 players: 3.8 out of play
    where 5.8 were), and a search then expects the seat to be bitten more often than it is:
    the analysis predicted the round's points about one point low (``benchmarks/judge.py``).
    A swap keeps every card count, void and the view (a card of a colour the seat is void
    in never goes to its hand); only the view and ``rng`` are read."""
    sample = cast(Callable[[random.Random], MueckenstichState], game.sampler(view))
    seat: int = view["seat"]
    others = [o for o in range(game.players) if o != seat and view["discard_counts"][o]]

    def draw(rng: random.Random) -> MueckenstichState:
        state = sample(rng)
        for o in others:
            set_aside(state._hands[o], state._discards[o], state._voids[o], state._piles[o], rng)
        return state

    return draw


def set_aside(
    hand: list[int], discards: list[int], void: int, pile: Sequence[int], rng: random.Random
) -> None:
    """Swap the mosquitoes of ``hand`` that would bite its seat (no mosquito of that colour in
    ``pile``) into ``discards`` in place of other cards (not of a ``void`` colour), each
    with chance :data:`SET_ASIDE`; ``hand`` stays sorted."""
    bitten = 0
    for c in pile:
        if c & 15 == MOSQUITO:
            bitten |= 1 << (c >> 4)
    changed = False
    for i, card in enumerate(discards):
        if (card & 15 == MOSQUITO and not bitten >> (card >> 4) & 1) or void >> (card >> 4) & 1:
            continue
        if SET_ASIDE < 1.0 and rng.random() >= SET_ASIDE:
            continue
        biting = [
            j for j, c in enumerate(hand) if c & 15 == MOSQUITO and not bitten >> (c >> 4) & 1
        ]
        if not biting:
            break
        j = biting[int(rng.random() * len(biting))]
        discards[i], hand[j] = hand[j], card
        changed = True
    if changed:
        hand.sort()


# --- inference: how likely the others' cards were in a world --------------------------------

RULE_WEIGHT = 0.15
"""The opponent model of :func:`likelihood`: a seat plays :func:`cheap_card`'s card with
chance ``RULE_WEIGHT + (1 - RULE_WEIGHT) / k``, each other of its ``k`` distinct playable
cards with chance ``(1 - RULE_WEIGHT) / k`` (never 0).  ``benchmarks/predict.py`` measures
how often the rule names the card bots play: 41% of ``heuristic``'s against 29% by chance
(``RULE_WEIGHT`` 0.17 would match it), no better than chance for ``ismcts:iterations=500``
(28.5% against 29.6%: 0).  A model that knows little is trusted little."""


class Play(NamedTuple):
    """A card another seat played this deal, with the table as it was: ``held`` is the
    card and every card the seat played after it this deal (all in its hand then)."""

    seat: int
    card: int
    trick: tuple[tuple[int, int], ...]
    led: int
    trump: int
    held: tuple[int, ...]


def observed_plays(view: Mapping[str, Any]) -> list[Play]:
    """The cards the other seats played in the deal in progress, from the view's public
    history alone (the trick, colour led and trump before each)."""
    history: list[Mapping[str, Any]] = view["history"]
    start = 0
    for i in range(len(history) - 1, -1, -1):
        if any(
            e.get("type") == "phase" and e.get("phase") == "play"
            for e in history[i].get("events", ())
        ):
            start = i + 1
            break
    else:
        return []
    raw: list[tuple[int, int, tuple[tuple[int, int], ...], int, int]] = []
    trick: list[tuple[int, int]] = []
    led = trump = -1
    for entry in history[start:]:
        move: str = entry["move"]
        seat: int = entry["seat"]
        if move.startswith("trump "):
            trump = COLOURS.index(move[-1])
        elif move in TEXT_CARD:
            card = TEXT_CARD[move]
            raw.append((seat, card, tuple(trick), led, trump))
            if not trick:
                led = card >> 4
            trick.append((seat, card))
        if any(e.get("type") == "trick" for e in entry.get("events", ())):
            trick, led = [], -1
    me: int = view["seat"]
    plays: list[Play] = []
    for i, (seat, card, before, was_led, was_trump) in enumerate(raw):
        if seat != me:
            later = tuple(c for s, c, *_ in raw[i + 1 :] if s == seat)
            plays.append(Play(seat, card, before, was_led, was_trump, (card, *later)))
    return plays


def _chance(play: Play, hand: Sequence[int], n: int, weight: float) -> float:
    """The model's chance of ``play`` from ``hand`` (the seat's cards now in a world)."""
    cards = [*hand, *play.held]
    led = play.led
    if led >= 0:
        follow = [c for c in cards if c >> 4 == led]
        if follow:
            cards = follow
    options = sorted(set(cards))
    k = len(options)
    if k < 2:
        return 1.0
    rest = (1.0 - weight) / k
    picked = cheap_card(options, play.trick, play.seat, led, play.trump, n)
    return weight + rest if picked == play.card else rest


def likelihood(game: Game, view: Mapping[str, Any]) -> Callable[[State], float] | None:
    """A world's weight: the product, over the other seats' cards this deal, of the
    chance :data:`RULE_WEIGHT`'s model gives each card from the seat's hand in the world
    (its cards now and those it played since); ``None`` before any such card.  The view's
    history is read once; a seat's factor is kept for each hand it is dealt in a world."""
    plays = observed_plays(view)
    if not plays:
        return None
    n = game.players
    by_seat: dict[int, list[Play]] = {}
    for play in plays:
        by_seat.setdefault(play.seat, []).append(play)
    known: dict[tuple[int, tuple[int, ...]], float] = {}

    def weigh(state: State) -> float:
        hands = cast(MueckenstichState, state)._hands
        total = 1.0
        for seat, seen in by_seat.items():
            key = (seat, tuple(hands[seat]))
            factor = known.get(key)
            if factor is None:
                factor = 1.0
                for play in seen:
                    factor *= _chance(play, key[1], n, RULE_WEIGHT)
                known[key] = factor
            total *= factor
        return total

    return weigh
