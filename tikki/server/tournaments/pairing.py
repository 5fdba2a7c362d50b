"""The pure rules of a tournament: seating entrants at tables, the points of a finished
table, and the standings.  No database, no clock: :mod:`~.runner` feeds them what it
read.

**Points by place.**  At a table of ``n`` seats the seat in place ``p`` (1 best) scores
``n - p``: the winner ``n - 1``, the last 0.  Seats tied share the better place (two
first at a table of 4 score 3 each).  An abandoned game scores 0 for every seat.

**Byes.**  A Swiss round seats ``n // size`` tables; the ``n % size`` left over sit out
with a bye, worth the mean points of a table, ``(size - 1) / 2``.  The bye goes to the
lowest-placed entrants among those with the fewest byes so far, so that nobody has a
second bye while another has none.

**Swiss seating.**  The first round seats the entrants by rating
(:func:`by_rating`: an account's rating in the game, a bot's its level's anchored
rating, on one scale); each later round by the standings, entrants level in every
tie-break of the standings in the order of rating, then of entry (:func:`pairing_order`).
Tables are filled from the top down, each seat
going to the entrant who has met the table's others the fewest times (then the nearest
in the standings); then entrants are swapped between tables while a swap lowers the
number of pairs that meet again (then the spread of places at the tables).

**Standings** (both kinds): points; then (Swiss) the opponents' points, the sum of the
points of everyone met at a table (once per meeting); then first places; then fewer
games (an arena's points in fewer games rank higher); then the order of entry."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

Pair = frozenset[int]
"""Two entrants who sat at one table."""


def place_points(places: Sequence[float] | None, n: int) -> list[float]:
    """The points of each seat of a finished table from its places (1 best, ties share
    the better place; ``None``: abandoned, 0 for every seat).

    >>> place_points([1.0, 3.0, 2.0], 3)
    [2.0, 0.0, 1.0]
    >>> place_points([1.0, 1.0, 3.0, 4.0], 4)
    [3.0, 3.0, 1.0, 0.0]
    >>> place_points(None, 3)
    [0.0, 0.0, 0.0]
    """
    if places is None:
        return [0.0] * n
    return [float(n) - p for p in places]


def bye_points(size: int) -> float:
    """The points of a bye: the mean points of a table of ``size``.

    >>> bye_points(3), bye_points(4)
    (1.0, 1.5)
    """
    return (size - 1) / 2


def met_pairs(tables: Sequence[Sequence[int]]) -> Counter[Pair]:
    """How often each pair of entrants sat at one table."""
    met: Counter[Pair] = Counter()
    for table in tables:
        for a, b in combinations(table, 2):
            met[frozenset((a, b))] += 1
    return met


def repeats(tables: Sequence[Sequence[int]], met: Mapping[Pair, int]) -> int:
    """The pairs of ``tables`` who already met (each counted once per earlier meeting)."""
    return sum(met.get(frozenset((a, b)), 0) for t in tables for a, b in combinations(t, 2))


def pick_byes(order: Sequence[int], byes: Mapping[int, int], count: int) -> list[int]:
    """``count`` entrants to sit out: the fewest byes first, the lowest placed among them.

    >>> pick_byes([1, 2, 3, 4], {4: 1}, 1)
    [3]
    """
    ranked = sorted(range(len(order)), key=lambda i: (byes.get(order[i], 0), -i))
    return [order[i] for i in ranked[:count]]


def by_rating(entrants: Sequence[int], ratings: Mapping[int, float]) -> list[int]:
    """The entrants by rating, best first (an entrant without one counts as a new
    account's 0; equal ratings in the order of entry).

    >>> by_rating([1, 2, 3, 4], {2: 15.0, 3: -6.0, 4: 15.0})
    [2, 4, 1, 3]
    """
    entry = {e: i for i, e in enumerate(entrants)}
    return sorted(entrants, key=lambda e: (-ratings.get(e, 0.0), entry[e]))


def swiss_round(
    order: Sequence[int], size: int, met: Mapping[Pair, int], byes: Mapping[int, int]
) -> tuple[list[list[int]], list[int]]:
    """Seat one Swiss round: ``order`` is the standings (best first); the tables of
    ``size`` and the entrants with a bye (see the module's docstring)."""
    if size < 2:
        raise ValueError("a table has at least 2 seats")
    sitting_out = pick_byes(order, byes, len(order) % size)
    playing = [e for e in order if e not in sitting_out]
    rank = {e: i for i, e in enumerate(playing)}
    tables = _improve(_fill(playing, size, met, rank), met, rank)
    if repeats(tables, met):
        found = _search(playing, size, met, repeats(tables, met))
        if found is not None:
            tables = _improve(found, met, rank)
    return tables, sitting_out


def _fill(
    playing: list[int], size: int, met: Mapping[Pair, int], rank: Mapping[int, int]
) -> list[list[int]]:
    """Fill tables from the top down, each seat to the entrant who met the table least."""
    free = list(playing)
    tables: list[list[int]] = []
    while free:
        table = [free.pop(0)]
        while len(table) < size:
            best = min(free, key=lambda e: (_met_with(e, table, met), rank[e]))
            free.remove(best)
            table.append(best)
        tables.append(table)
    return tables


SEARCH_NODES = 5_000
"""The most seatings :func:`_search` tries before it keeps what it has."""


def _search(
    playing: list[int], size: int, met: Mapping[Pair, int], bound: int
) -> list[list[int]] | None:
    """A seating with fewer meetings again than ``bound`` (depth first, each seat
    trying the entrants who met the table least first; at most :data:`SEARCH_NODES`
    tries), or ``None``."""
    best: list[list[int]] | None = None
    budget = [SEARCH_NODES]
    pos = {e: i for i, e in enumerate(playing)}

    def walk(free: list[int], tables: list[list[int]], cost: int) -> None:
        nonlocal best, bound
        budget[0] -= 1
        if cost >= bound or budget[0] < 0:
            return
        if not free:
            best, bound = [list(t) for t in tables], cost
            return
        if not tables or len(tables[-1]) == size:
            walk(free[1:], [*tables, [free[0]]], cost)
            return
        table = tables[-1]
        later = [e for e in free if pos[e] > pos[table[-1]]]
        for e in sorted(later, key=lambda e: _met_with(e, table, met)):
            added = _met_with(e, table, met)
            table.append(e)
            walk([f for f in free if f != e], tables, cost + added)
            table.pop()
            if bound == 0 or budget[0] < 0:
                return

    walk(list(playing), [], 0)
    return best


def _met_with(entrant: int, table: Sequence[int], met: Mapping[Pair, int]) -> int:
    return sum(met.get(frozenset((entrant, o)), 0) for o in table)


def _cost(
    table: Sequence[int], met: Mapping[Pair, int], rank: Mapping[int, int]
) -> tuple[int, int]:
    """A table's meetings again, then the spread of its places."""
    places = [rank[e] for e in table]
    return repeats([table], met), max(places) - min(places)


def _improve(
    tables: list[list[int]], met: Mapping[Pair, int], rank: Mapping[int, int]
) -> list[list[int]]:
    """Swap entrants between tables while a swap lowers the cost (bounded passes)."""
    for _pass in range(20):
        changed = False
        for i, j in combinations(range(len(tables)), 2):
            changed |= _best_swap(tables, i, j, met, rank)
        if not changed:
            break
    return tables


def _best_swap(
    tables: list[list[int]], i: int, j: int, met: Mapping[Pair, int], rank: Mapping[int, int]
) -> bool:
    """Make the one swap between tables ``i`` and ``j`` that lowers their cost most."""
    a, b = tables[i], tables[j]
    before = _pair_cost(a, b, met, rank)
    best: tuple[tuple[int, int], int, int] | None = None
    for x in range(len(a)):
        for y in range(len(b)):
            na, nb = list(a), list(b)
            na[x], nb[y] = b[y], a[x]
            cost = _pair_cost(na, nb, met, rank)
            if cost < before and (best is None or cost < best[0]):
                best = (cost, x, y)
    if best is None:
        return False
    x, y = best[1], best[2]
    a[x], b[y] = b[y], a[x]
    return True


def _pair_cost(
    a: Sequence[int], b: Sequence[int], met: Mapping[Pair, int], rank: Mapping[int, int]
) -> tuple[int, int]:
    ca, cb = _cost(a, met, rank), _cost(b, met, rank)
    return ca[0] + cb[0], ca[1] + cb[1]


def arena_table(
    waiting: Sequence[int], size: int, met: Mapping[Pair, int], points: Mapping[int, float]
) -> list[int] | None:
    """An arena's next table from the entrants ``waiting`` (longest wait first): the
    first, then those who met the table least (then nearest in points); ``None`` while
    fewer than ``size`` wait."""
    if len(waiting) < size:
        return None
    free = list(waiting)
    table = [free.pop(0)]
    while len(table) < size:
        lead = points.get(table[0], 0.0)
        best = min(free, key=lambda e: (_met_with(e, table, met), abs(points.get(e, 0.0) - lead)))
        free.remove(best)
        table.append(best)
    return table


def pairing_order(
    entrants: Sequence[int],
    results: Sequence[Result],
    byes: Sequence[int],
    size: int,
    ratings: Mapping[int, float],
) -> list[int]:
    """The order a Swiss round is seated in (see :func:`swiss_round`): the standings,
    those level in every tie-break by rating (as the first round, :func:`by_rating`),
    then by entry; before any result, by rating alone.

    >>> pairing_order([1, 2, 3], [], [], 3, {3: 5.0})
    [3, 1, 2]
    >>> pairing_order([1, 2, 3], [Result((1, 2, 3), (0.0, 2.0, 0.0), None)], [], 3, {3: 5.0})
    [2, 3, 1]
    """
    return [line.entrant for line in standings(by_rating(entrants, ratings), results, byes, size)]


@dataclass
class Line:
    """One entrant's line in the standings."""

    entrant: int
    points: float = 0.0
    games: int = 0
    firsts: int = 0
    byes: int = 0
    opponents: float = 0.0
    met: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Result:
    """A finished table: its entrants by seat and each seat's points and place."""

    seats: tuple[int, ...]
    points: tuple[float, ...]
    places: tuple[float, ...] | None


def standings(
    entrants: Sequence[int],
    results: Sequence[Result],
    byes: Sequence[int],
    size: int,
    swiss: bool = True,
) -> list[Line]:
    """The standings, best first (see the module's docstring for the order); ``byes``
    lists one entrant per bye (an entrant twice: two byes)."""
    lines = {e: Line(e) for e in entrants}
    for result in results:
        for seat, entrant in enumerate(result.seats):
            line = lines[entrant]
            line.points += result.points[seat]
            line.games += 1
            line.firsts += result.places is not None and result.places[seat] == 1.0
            line.met += [o for o in result.seats if o != entrant]
    for entrant in byes:
        lines[entrant].points += bye_points(size)
        lines[entrant].byes += 1
    for line in lines.values():
        line.opponents = sum(lines[o].points for o in line.met if o in lines) if swiss else 0.0
    entry = {e: i for i, e in enumerate(entrants)}
    return sorted(
        lines.values(),
        key=lambda s: (-s.points, -s.opponents, -s.firsts, s.games, entry[s.entrant]),
    )


__all__ = [
    "Line",
    "Pair",
    "Result",
    "arena_table",
    "by_rating",
    "bye_points",
    "met_pairs",
    "pairing_order",
    "pick_byes",
    "place_points",
    "repeats",
    "standings",
    "swiss_round",
]
