"""The Mattis determinizer's dealing: hidden cards consistent with a seat's view (RULINGS C-4).

:func:`tikki.games.mattis.Mattis.sampler` reads the view once into a *template* state
holding everything the seat knows, and gets a dealer from here for the hidden cards; each
sample deals them into a clone of the template.  This module works on the view and on
plain cards and facts handed to it, never on the game's state, so the game imports it
and it imports nothing of the game.

* Phase 1 (:func:`collect_dealer`): the unseen cards go to the other hands and the stock
  so that every must-match and slough fact of the history holds (``facts``: a seat held a
  card of some ranks, or none; ``draws``: who drew how many hidden cards when).  A drawn
  hand is first checked for a card of every rank set the seat must still hold, then the
  whole deal for feasibility (a matching of facts to cards, earliest deadline first).
* Phase 2 (:func:`shed_dealer`): every card is public but the dreck split (AM-9): the
  dreck cards whose place the seat does not know are dealt at random among the seats
  holding them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from heapq import heappop, heappush
from typing import Any, Final, NamedTuple

from tikki.cards import RANK_OF, TEXT_CARD, ints_of
from tikki.core import RulesError

HOLDS_NONE: Final = 0
HOLDS: Final = 1
NO_MATCH: Final = 2
"""The kinds of public fact: a seat held none of some ranks, held one (it was asked to
slough), or did not match (AM-3)."""
FACT_KINDS = ("none", "holds", "no-match")
"""The kinds' names in the view's ``facts``."""

Fact = tuple[int, int, int, int]
"""A public fact: after ``t`` moves, a seat, a rank mask, the kind."""
Draw = tuple[int, int, int]
"""Who drew how many hidden cards after ``t`` moves: ``(t, seat, count)``."""
Hands = list[list[int]]
"""Every seat's hand, seat by seat."""


class Known(NamedTuple):
    """What the template state knows of the first phase, read from the view."""

    shown: int
    """The shown last stock card (-1: none)."""
    shown_owner: int
    """The seat that drew it (-1: none)."""
    history: list[tuple[int, str, int]]
    """Each move so far: ``(seat, move, card turned from the stock or -1)``."""
    draws: list[Draw]
    facts: list[Fact]


def shed_dealer(
    view: Mapping[str, Any],
    seat: int,
    fallen: list[int],
    plays: Sequence[Sequence[Any]],
    received: list[int],
) -> Callable[[random.Random], tuple[Hands, dict[int, list[int]]]]:
    """Phase 2: deal the dreck cards whose place is unknown among the seats holding them.

    ``fallen``, ``plays`` and ``received``: the template's fallen cards, the plays of the
    trick and how many dreck cards each seat received.  Each deal gives every hand and the
    secret dreck cards of the seats whose split it decided.
    """
    known = [ints_of(h) for h in view["hands"]]
    known[seat] = ints_of(view["hand"])
    sizes = view["hand_sizes"]
    placed = {c for h in known for c in h}
    dreck = view["dreck"]
    unplaced = [c for c in ints_of(dreck["cards"]) if c not in placed] if dreck else []
    unplaced = [c for c in unplaced if c not in fallen and not _in_plays(plays, c)]
    mine = ints_of(dreck["mine"]) if dreck is not None else None
    # the dreck cards still secret in other hands: received, not the viewer's, not yet shed
    unknown: set[int] = set()
    if dreck is not None:
        unknown = set(ints_of(dreck["cards"])) - set(mine or ()) - _shed_since_dreck(view)
    n = len(sizes)

    def deal(rng: random.Random) -> tuple[Hands, dict[int, list[int]]]:
        pool = unplaced[:]
        rng.shuffle(pool)
        hands: Hands = []
        secret: dict[int, list[int]] = {}
        for s in range(n):
            missing = sizes[s] - len(known[s])
            got = pool[:missing]
            del pool[:missing]
            hands.append(sorted(known[s] + got))
            if s != seat and received[s]:
                secret[s] = sorted(got or [c for c in known[s] if c in unknown])
        if pool or any(len(h) != sizes[s] for s, h in enumerate(hands)):
            raise RulesError("the view's dreck does not add up")
        if mine is not None:
            secret[seat] = mine[:]
        return hands, secret

    return deal


def _shed_since_dreck(view: Mapping[str, Any]) -> set[int]:
    """The cards shed since the dreck was dealt (a shed dreck card is secret no more)."""
    shed: set[int] = set()
    dealt = False
    for entry in view.get("history") or []:
        if dealt:
            shed.update(TEXT_CARD[t] for t in str(entry["move"]).split("+") if t in TEXT_CARD)
        elif any(e.get("type") == "dreck" for e in entry.get("events") or []):
            dealt = True
    return shed


def _in_plays(plays: Sequence[Sequence[Any]], card: int) -> bool:
    return any(card in cs for _, cs in plays)


INF = 1 << 40


class _SeatFacts(NamedTuple):
    """What one other seat's hidden hand must fit (phase 1; see :func:`collect_dealer`)."""

    size: int
    fixed: list[int]
    slots: list[int]
    played: list[tuple[int, int]]
    negatives: list[tuple[int, int]]
    positives: list[tuple[int, int]]
    allowed: list[bool]
    needs: list[int]


def collect_dealer(
    view: Mapping[str, Any], seat: int, unseen: list[int], known: Known
) -> Callable[[random.Random], tuple[Hands, list[int]]]:
    """Phase 1: deal the unseen cards so that every public fact of the history holds.

    ``unseen``: the cards the seat has not seen, in the deck's order; ``known``: what the
    template read of the history.  Each deal gives every hand and the stock.
    Times are ``3t`` for what a slough lap showed after ``t`` moves, ``3t + 1`` for the
    draws that follow it, ``3t + 2`` for move ``t`` itself (a card played by it is held
    until then; a failure to match is seen then).
    Each other seat's hidden acquisitions (the deal and its draws, with their times) are
    matched to the cards it played from hand (known, with the time they left) and to its
    current hidden hand (sampled), so that no card of a rank it was known not to hold was
    held then, and it held a card of each rank set it was known to hold.  Seats are
    sampled one by one by rejection; the rest of the unseen cards is the stock.  The
    facts are read once per view; each deal only samples.
    """
    n = len(view["hand_sizes"])
    own = ints_of(view["hand"])
    stock_size = view["stock_size"]
    facts = {s: _seat_facts(known, view, s) for s in range(n) if s != seat}
    others = list(facts)

    def deal(rng: random.Random) -> tuple[Hands, list[int]]:
        for _ in range(500):
            rng.shuffle(others)
            pool = unseen[:]
            hands: dict[int, list[int]] = {}
            for s in others:
                hand = _sample_hand(pool, facts[s], rng)
                if hand is None:
                    break
                hands[s] = hand
                taken = set(hand)
                pool = [c for c in pool if c not in taken]
            else:
                rng.shuffle(pool)
                if len(pool) != stock_size:
                    raise RulesError("the view's card counts do not add up to the deck")
                full: Hands = []
                for s in range(n):
                    h = own[:] if s == seat else hands[s] + facts[s].fixed
                    full.append(h)
                return full, pool
        raise RulesError("no deal is consistent with the view's public facts")

    return deal


def _seat_facts(known: Known, view: Mapping[str, Any], s: int) -> _SeatFacts:
    """Seat ``s``'s acquisition times, played cards and facts, read from the template."""
    fixed = [known.shown] if view["shown_in_hand"] and known.shown_owner == s else []
    played: list[tuple[int, int]] = []
    for t, (who, move, card) in enumerate(known.history):
        if who != s or card >= 0 or move in ("stock", "pass"):
            continue
        c = TEXT_CARD[move[7:]] if move.startswith("slough") else TEXT_CARD[move]
        played.append((c, 3 * t + 2))
    slots: list[int] = []
    for t, who, k in known.draws:
        if who == s:
            slots.extend([3 * t + 1] * k)
    negatives: list[tuple[int, int]] = []
    positives: list[tuple[int, int]] = []
    for t, who, mask, kind in known.facts:
        if who != s:
            continue
        if kind == HOLDS:
            positives.append((3 * t, mask))
        else:
            negatives.append((3 * t + 2 if kind == NO_MATCH else 3 * t, mask))
    latest = max(slots, default=-1)
    last_none = [-1] * 13
    for t, mask in negatives:
        for r in range(13):
            if mask >> r & 1 and t > last_none[r]:
                last_none[r] = t
    allowed = [last_none[RANK_OF[c]] < latest for c in range(52)]
    witnesses = played + [(c, INF) for c in fixed]
    needs = [
        mask
        for t, mask in positives
        if not any(mask >> RANK_OF[c] & 1 and r >= t for c, r in witnesses)
    ]
    size = view["hand_sizes"][s] - len(fixed)
    return _SeatFacts(size, fixed, slots, played, negatives, positives, allowed, needs)


def _sample_hand(pool: list[int], f: _SeatFacts, rng: random.Random) -> list[int] | None:
    """A random hidden hand of ``f.size`` cards from ``pool`` fitting one seat's facts.

    Uniform draws are checked first for a card of each rank set the seat must still hold
    (a quick necessary condition), then fully by :func:`_feasible`.
    """
    size = f.size
    if size == 0:
        return [] if _feasible(f.slots, f.played, f.fixed, f.negatives, f.positives) else None
    allowed = f.allowed
    candidates = [c for c in pool if allowed[c]]
    if len(candidates) < size:
        return None
    needs = f.needs
    for attempt in range(60):
        if attempt < 30:
            hand: list[int] | None = rng.sample(candidates, size)
            assert hand is not None
            if needs:
                held = 0
                for c in hand:
                    held |= 1 << RANK_OF[c]
                if any(not mask & held for mask in needs):
                    continue
        else:
            hand = _seeded_hand(
                candidates, size, f.played + [(c, INF) for c in f.fixed], f.positives, rng
            )
        if hand is None:
            return None
        if _feasible(f.slots, f.played, f.fixed + hand, f.negatives, f.positives):
            return hand
    return None


def _seeded_hand(
    candidates: list[int],
    size: int,
    played: list[tuple[int, int]],
    positives: list[tuple[int, int]],
    rng: random.Random,
) -> list[int] | None:
    """A hand holding a witness for each known holding no played card can explain."""
    hand: list[int] = []
    for t, mask in positives:
        if any(mask >> RANK_OF[c] & 1 and r >= t for c, r in played):
            continue
        if any(mask >> RANK_OF[c] & 1 for c in hand):
            continue
        witnesses = [c for c in candidates if mask >> RANK_OF[c] & 1 and c not in hand]
        if not witnesses or len(hand) >= size:
            return None
        hand.append(rng.choice(witnesses))
    rest = [c for c in candidates if c not in hand]
    if len(rest) < size - len(hand):
        return None
    hand.extend(rng.sample(rest, size - len(hand)))
    return hand


def _feasible(
    slots: list[int],
    played: list[tuple[int, int]],
    hand: list[int],
    negatives: list[tuple[int, int]],
    positives: list[tuple[int, int]],
) -> bool:
    """Whether the seat's cards can be matched to its acquisition times under its facts.

    A card is held from its acquisition to the move that played it (``INF`` for a card
    still in hand), so it must be acquired in a window: after the last "none" fact for
    its rank while it was held, and not after it was played.  A "holds" fact at ``t``
    picks a witness of its ranks held at ``t``, which narrows that card's window to end at
    ``t``.  Witnesses are chosen depth first; each choice is checked by matching windows
    to times earliest deadline first (exact for windows and points).
    """
    cards = [(c, r) for c, r in played] + [(c, INF) for c in hand]
    k = len(cards)
    if k != len(slots):
        return False
    ranks = [RANK_OF[c] for c, _ in cards]
    lows: list[int] = []
    for i, (_, release) in enumerate(cards):
        bit = 1 << ranks[i]
        low = -1
        for t, mask in negatives:
            if mask & bit and low < t <= release:
                low = t
        if low >= release:
            return False
        lows.append(low)
    times = sorted(slots)
    by_low = sorted(range(k), key=lows.__getitem__)

    def matchable(deadlines: list[int]) -> bool:
        heap: list[int] = []
        p = 0
        for a in times:
            while p < k and lows[by_low[p]] < a:
                heappush(heap, deadlines[by_low[p]])
                p += 1
            if not heap or heappop(heap) < a:
                return False
        return p == k

    facts = sorted(set(positives))
    chosen: list[int] = []
    budget = [3000]

    def pick(fi: int, deadlines: list[int]) -> bool:
        budget[0] -= 1
        if budget[0] < 0:
            return False
        if fi == len(facts):
            return True
        t, mask = facts[fi]
        for i in chosen:
            if mask >> ranks[i] & 1 and cards[i][1] >= t:
                return pick(fi + 1, deadlines)
        tried: set[tuple[int, int, int]] = set()
        for i in range(k):
            if not mask >> ranks[i] & 1 or cards[i][1] < t or lows[i] >= t:
                continue
            key = (ranks[i], lows[i], deadlines[i])
            if key in tried:
                continue
            tried.add(key)
            narrowed = deadlines[:]
            narrowed[i] = min(narrowed[i], t)
            if matchable(narrowed):
                chosen.append(i)
                if pick(fi + 1, narrowed):
                    return True
                chosen.pop()
        return False

    deadlines = [r for _, r in cards]
    return matchable(deadlines) and pick(0, deadlines)


__all__ = [
    "FACT_KINDS",
    "HOLDS",
    "HOLDS_NONE",
    "NO_MATCH",
    "Draw",
    "Fact",
    "Hands",
    "Known",
    "collect_dealer",
    "shed_dealer",
]
