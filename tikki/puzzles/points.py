"""Points puzzles: positions of a game scored in points where one move scores clearly more,
proven exactly (a game opts in with ``hidden_places`` and ``with_hidden`` in its tactics
module, :func:`applies`).

**The margin rule.**  A position of a round's last deal (its ``play`` phase: a card, or
the trump to name after a mosquito) is a puzzle when one move, the answer, scores at least
:data:`MARGIN` more points *this round* than every other legal move, in **every** world
consistent with the seat's view.  A move's points in a world are its exact value there
(:class:`tikki.bots.endgame.Solver` with :class:`RoundEnd`): the seat plays to score the
most, the other seats together play to leave it the least, to the round's scoring
(``double`` and ``drop`` included).  So the answer's points are a guarantee in each world,
and in each world every other move can be held to at least :data:`MARGIN` points fewer.

**Worlds.**  The cards hidden from the seat are the other hands, the other seats' discards
and the undealt cards (MS-3, MS-4).  Only the hands can change the rest of the round: the
discards and the undealt cards are out of it.  :func:`hand_worlds` enumerates every way
the hidden pool may fill the other hands (sizes and public voids respected; identical
cards are one card, C-4) and lays the rest into the discards and the undealt cards in a
fixed order: one world stands for every deal that differs only there, and those all play
and score the same.  The 3-player round's first deal is not tried (its score waits on the
second deal, dealt from cards no one has seen).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, cast

from tikki.bots.endgame import LOSS, WIN, OutOfBudget, Solver, cards_in_hands
from tikki.core import Game, RulesError, State, tactics

MARGIN = 2
"""The fewest points by which the answer beats every other move, in every world."""
CARDS = 12
"""The most cards in all hands for a position to be tried."""
MOST_WORLDS = 2000
"""The most worlds (ways the other hands may lie) a view may have to be tried."""
NODES = 20_000
"""The solver's budget (positions) for one move in one world."""
BOUNDS = (-100, 200)
"""Every round score a seat can have lies between these (the solver's window)."""


def applies(game: Game) -> bool:
    """Whether ``game`` has points puzzles: it is scored in points and its tactics module
    enumerates the hidden cards' places (``hidden_places``, ``with_hidden``)."""
    if game.value_kind != "points" or not game.bots.tactics:
        return False
    parts = tactics(game.name)
    return hasattr(parts, "hidden_places") and hasattr(parts, "with_hidden")


class TooMany(Exception):
    """The view has more than the allowed number of worlds."""


class RoundEnd:
    """The search's end: the round of ``root`` scored (or the match over); its value is
    what the round gave the seat."""

    def __init__(self, root: State) -> None:
        state = cast(Any, root)
        self.round = state.round
        self.base = state.returns_so_far()

    def __call__(self, state: State, seat: int) -> int | None:
        """The seat's points this round once it is scored, else ``None``."""
        ms = cast(Any, state)
        if not ms.is_over and ms.round == self.round:
            return None
        return round(float(ms.returns_so_far()[seat]) - float(self.base[seat]))


def candidate(game: Game, state: State, cards: int = CARDS) -> bool:
    """Whether a position is tried: the round's last deal, its play phase, a
    choice, few cards in the hands."""
    ms = cast(Any, state)
    deals = int(getattr(game, "deals", 1))
    return (
        state.phase == "play"
        and ms._deal == deals - 1
        and len(state.legal_moves()) > 1
        and cards_in_hands(state) <= cards
    )


def _sub_multisets(
    counts: Sequence[tuple[int, int]], size: int, mask: int
) -> Iterator[list[tuple[int, int]]]:
    """Every way to take ``size`` cards of the allowed colours from ``counts`` (card, how
    many), as (card, how many taken), in order."""
    if size == 0:
        yield []
        return
    if not counts:
        return
    (card, have), rest = counts[0], counts[1:]
    top = min(have, size) if mask >> (card >> 4) & 1 else 0
    for take in range(top, -1, -1):
        for more in _sub_multisets(rest, size - take, mask):
            yield ([(card, take)] if take else []) + more


def _count_hand(counts: Sequence[tuple[int, int]], size: int, mask: int) -> int:
    """How many ways to take ``size`` cards of the allowed colours from ``counts``
    (identical cards are one card): a product of polynomials, kept to degree ``size``."""
    ways = [1] + [0] * size
    for card, have in counts:
        if not mask >> (card >> 4) & 1:
            continue
        top = min(have, size)
        ways = [sum(ways[n - k] for k in range(min(top, n) + 1)) for n in range(size + 1)]
    return ways[size]


def count_worlds(pool: Sequence[int], hands: Sequence[tuple[int, int]], most: int) -> int:
    """How many worlds :func:`hand_worlds` would list for ``pool`` dealt into ``hands``
    (``(size, allowed colour mask)``), counted without listing them; once past ``most``
    the count stops early and returns some number above ``most``."""

    def count(i: int, left: Counter[int], cap: int) -> int:
        size, mask = hands[i]
        items = sorted(left.items())
        if i == len(hands) - 1:
            return _count_hand(items, size, mask)
        total = 0
        for pick in _sub_multisets(items, size, mask):
            total += count(i + 1, left - Counter(dict(pick)), cap - total)
            if total > cap:
                break
        return total

    return count(0, Counter(pool), most) if hands else 1


def hand_worlds(game: Game, view: Mapping[str, Any], most: int = MOST_WORLDS) -> list[State]:
    """Every way the cards hidden from the seat may lie in the other hands (see the
    module), as states; raises :class:`TooMany` past ``most``, :class:`RulesError` for a
    view that does not add up."""
    seat = int(view["seat"])
    parts = tactics(game.name)
    template, pool, places = parts.hidden_places(cast(Any, game), view, seat)
    hands = places[0:-1:2]
    if count_worlds(pool, hands, most) > most:
        raise TooMany
    found: list[list[list[int]]] = []

    def fill(i: int, left: Counter[int], dealt: list[list[int]]) -> None:
        if i == len(hands):
            rest = sorted(left.elements())
            laid: list[list[int]] = []
            for k, hand in enumerate(dealt):
                size = places[2 * k + 1][0]
                laid += [hand, rest[:size]]
                rest = rest[size:]
            found.append([*laid, rest])
            if len(found) > most:
                raise TooMany
            return
        size, mask = hands[i]
        for pick in _sub_multisets(sorted(left.items()), size, mask):
            taken = Counter(dict(pick))
            fill(i + 1, left - taken, [*dealt, sorted(taken.elements())])

    fill(0, Counter(pool), [])
    if not found:
        raise RulesError("no deal of the hidden cards agrees with the view")
    return [parts.with_hidden(template, seat, dealt) for dealt in found]


def points_of(state: State, move: str, nodes: int = NODES) -> int | None:
    """The seat's exact points this round after ``move`` in ``state`` (see the module);
    ``None`` if the search needs more than ``nodes`` positions."""
    seat = state.current_player
    assert seat is not None
    solver = Solver(seat, end=RoundEnd(state), bounds=BOUNDS)
    child = state.clone()
    child.play(move)
    try:
        return solver.value(child, max_nodes=nodes)
    except OutOfBudget:
        return None


def judge(
    legal: Sequence[str], points: Mapping[str, list[int]]
) -> tuple[str | None, str, dict[str, list[int]]]:
    """The answer by the margin rule (or ``None``), why, and each move's per-world value
    in the escape puzzles' terms: the answer :data:`WIN` in every world, every other move
    :data:`LOSS` where it trails by :data:`MARGIN` or more (so all of them)."""
    n = len(next(iter(points.values())))
    best = [max(legal, key=lambda m: points[m][i]) for i in range(n)]
    answer = best[0]
    for i in range(n):
        others = [points[m][i] for m in legal if m != answer]
        if points[answer][i] - max(others) < MARGIN:
            return None, "no-margin", {}
    values = {m: [WIN if m == answer else LOSS] * n for m in legal}
    return answer, "unique", values


def margin(answer: str, points: Mapping[str, list[int]]) -> int:
    """The least, over the worlds, of the answer's lead over the best other move."""
    n = len(points[answer])
    return min(
        points[answer][i] - max(v[i] for m, v in points.items() if m != answer) for i in range(n)
    )


def summary(points: Mapping[str, list[int]]) -> dict[str, list[int]]:
    """What a stored puzzle keeps of the points: per move, the least and the most it
    scores over the worlds."""
    return {m: [min(v), max(v)] for m, v in points.items()}
