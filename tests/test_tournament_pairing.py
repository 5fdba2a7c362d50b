"""The pure rules of tournaments (tikki.server.tournaments.pairing): Swiss seating with
byes and as few meetings again as can be, an arena's next table, points by place and the
standings with their tie-breaks."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from tikki.server.tournaments.pairing import (
    Result,
    arena_table,
    bye_points,
    met_pairs,
    pairing_order,
    place_points,
    repeats,
    standings,
    swiss_round,
)


@given(st.integers(3, 40), st.integers(3, 6), st.integers(0, 2**32 - 1))
@settings(max_examples=60, deadline=None)
def test_a_round_seats_everyone_once_and_the_rest_sit_out(n: int, size: int, seed: int) -> None:
    rng = random.Random(seed)
    order = rng.sample(range(100), n)
    if n < size:
        return
    history = [rng.sample(order, size) for _ in range(rng.randint(0, 6))]
    tables, byes = swiss_round(order, size, met_pairs(history), {})
    assert all(len(t) == size for t in tables)
    assert len(tables) == n // size and len(byes) == n % size
    seated = [e for t in tables for e in t] + byes
    assert sorted(seated) == sorted(order)


@given(st.integers(6, 30), st.integers(3, 6), st.integers(0, 2**32 - 1))
@settings(max_examples=50, deadline=None)
def test_no_more_meetings_again_than_slicing_the_standings(n: int, size: int, seed: int) -> None:
    """The seating never repeats more pairs than seating the standings in slices would."""
    rng = random.Random(seed)
    order = list(range(n))
    rng.shuffle(order)
    history = [rng.sample(order, size) for _ in range(rng.randint(1, 8))]
    met = met_pairs(history)
    tables, byes = swiss_round(order, size, met, {})
    playing = [e for e in order if e not in byes]
    sliced = [playing[i : i + size] for i in range(0, len(playing) - size + 1, size)]
    assert repeats(tables, met) <= repeats(sliced, met)


def partitions(items: list[int], size: int) -> Iterator[list[list[int]]]:
    """Every way to split ``items`` into tables of ``size`` (an independent brute force)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for others in combinations(rest, size - 1):
        left = [e for e in rest if e not in others]
        for tail in partitions(left, size):
            yield [[first, *others], *tail]


def test_twelve_at_tables_of_three_meet_again_as_little_as_can_be() -> None:
    """Twelve entrants, tables of 3, four rounds with the standings shuffled each round:
    each round has the fewest meetings again of all 15,400 seatings, and the first three
    rounds none."""
    every = list(partitions(list(range(12)), 3))
    for seed in range(4):
        rng = random.Random(seed)
        order = list(range(12))
        played: list[list[int]] = []
        for n_round in range(4):
            rng.shuffle(order)
            met = met_pairs(played)
            tables, byes = swiss_round(order, 3, met, {})
            assert byes == []
            least = min(repeats(p, met) for p in every)
            assert repeats(tables, met) == least, (seed, n_round)
            if n_round < 3:
                assert least == 0
            played += tables


@given(st.integers(1, 6), st.integers(3, 6))
@settings(max_examples=30, deadline=None)
def test_the_bye_rotates(n_tables: int, size: int) -> None:
    """Over rounds, nobody gets a second bye while another entrant has none."""
    n = n_tables * size + 1
    order = list(range(n))
    byes: Counter[int] = Counter()
    for _round in range(n):
        _tables, out = swiss_round(order, size, {}, byes)
        assert len(out) == 1
        byes.update(out)
        assert max(byes.values()) - min(byes.get(e, 0) for e in order) <= 1
    assert set(byes.values()) == {1}


def test_the_bye_goes_to_the_lowest_placed() -> None:
    tables, byes = swiss_round([5, 4, 3, 2, 1, 0, 9], 3, {}, {})
    assert byes == [9]
    assert tables[0][0] == 5


def test_points_by_place_and_ties() -> None:
    assert place_points([2.0, 1.0, 3.0], 3) == [1.0, 2.0, 0.0]
    assert place_points([1.0, 1.0, 3.0, 4.0], 4) == [3.0, 3.0, 1.0, 0.0]
    assert place_points(None, 4) == [0.0] * 4
    assert bye_points(3) == 1.0 and bye_points(6) == 2.5


def test_standings_break_ties_by_opponents_then_firsts_then_games() -> None:
    results = [
        Result((1, 2, 3), (2.0, 1.0, 0.0), (1.0, 2.0, 3.0)),
        Result((4, 5, 6), (2.0, 1.0, 0.0), (1.0, 2.0, 3.0)),
        Result((1, 5, 3), (0.0, 2.0, 1.0), (3.0, 1.0, 2.0)),
        Result((4, 2, 6), (0.0, 1.0, 2.0), (3.0, 2.0, 1.0)),
    ]
    table = standings([1, 2, 3, 4, 5, 6], results, [], 3)
    points = {line.entrant: line.points for line in table}
    assert points == {1: 2.0, 2: 2.0, 3: 1.0, 4: 2.0, 5: 3.0, 6: 2.0}
    assert table[0].entrant == 5
    # 1 met 2,3,5,3 (2+1+3+1=7); 2 met 1,3,4,6 (2+1+2+2=7); 4 met 5,6,2,6 (3+2+2+2=9);
    # 6 met 4,5,4,2 (2+3+2+2=9): 4 and 6 before 1 and 2; 4 and 6 tie on firsts (1 each)
    # and games, so the order of entry decides; 1 has a first, 2 none
    assert [line.entrant for line in table] == [5, 4, 6, 1, 2, 3]
    with_bye = standings([1, 2], [], [2], 3)
    assert [(line.entrant, line.points, line.byes) for line in with_bye] == [
        (2, 1.0, 1),
        (1, 0.0, 0),
    ]


def test_an_arena_table_waits_for_enough_and_avoids_last_tablemates() -> None:
    assert arena_table([1, 2], 3, {}, {}) is None
    met = met_pairs([[1, 2, 3]])
    table = arena_table([1, 2, 3, 4, 5], 3, met, {})
    assert table is not None and table[0] == 1 and sorted(table[1:]) == [4, 5]


def test_a_later_round_breaks_level_standings_by_rating_then_entry() -> None:
    """After a round of two tables of 3 (2, 1, 0 points at each), entrants 1 and 4 are
    level in every tie-break, as are 2 and 5, and 3 and 6: the standings shown keep the
    order of entry, a later round is seated by rating among the level (4, 5, 6 and 3
    rated), then by entry (3 and 6 both rated: the better first); points still come
    before any rating."""
    played = [Result((1, 2, 3), (2.0, 1.0, 0.0), (1.0, 2.0, 3.0)),
              Result((4, 5, 6), (2.0, 1.0, 0.0), (1.0, 2.0, 3.0))]  # fmt: skip
    entrants = [1, 2, 3, 4, 5, 6]
    shown = [line.entrant for line in standings(entrants, played, [], 3)]
    assert shown == [1, 4, 2, 5, 3, 6]
    ratings = {4: 10.0, 5: 10.0, 6: 10.0, 3: 100.0}
    assert pairing_order(entrants, played, [], 3, ratings) == [4, 1, 5, 2, 3, 6]
    assert pairing_order(entrants, played, [], 3, {}) == shown
    assert pairing_order(entrants, [], [], 3, ratings) == [3, 4, 5, 6, 1, 2]
