"""Mattis's rollout tactics: the heuristic's rules of thumb on card ints.

The rules (numbered as in :mod:`tikki.bots.heuristic.mattis`, which lists and measures
them) are written once here: :func:`slough` (rule 6) and :func:`shed` (rules 7–10), with
the phase-1 rules of :mod:`tikki.games.shedding_tactics`, serve both the heuristic bot,
which reads them off a view, and the game's fast greedy playout
(``random_playout(rng, greedy=p)``), which reads them off the state and plays
:func:`cheap_collect` in phase 1 (rules 2, 3 and 5 without the card counting of rule 4)
and the lead of rule 8 without its suit count.
"""

from __future__ import annotations

from collections.abc import Sequence

from tikki.cards import RANK_OF, RANKS, SUIT_OF
from tikki.games import shedding_tactics as shedding
from tikki.games.shedding_tactics import highest, lead_low, lowest, lowest_loser

LEAD_MAX = shedding.LEAD_MAX
"""Rule 2: the highest card still led from hand rather than turning the stock."""
STOCK_SHARE = 0.3
"""Rule 4: the share of unseen cards below the best card that makes the stock worth it."""
TAKE_RANK = RANKS.index("A")
"""Rule 10: take a lone card rather than beat it with a trump play starting this high."""
NEARLY_OUT = 2
"""Rule 10: with this many cards or fewer, never take by choice."""

Play = tuple[int, int]
"""A phase-2 play: its lowest card and its length (1: a single card, else a sequence)."""


def cheap_collect(cards: Sequence[int], can_stock: bool, best: int | None) -> int | None:
    """Phase 1 for fast playouts (``None``: the stock): rule 2 leading (``best`` is
    ``None``), rule 3 following; then the stock while allowed, else the highest card."""
    if not cards:
        return None
    if best is None:
        return lead_low(cards, can_stock)
    loser = lowest_loser(cards, best)
    if loser is not None:
        return loser
    return None if can_stock else highest(cards)


def might_win(seat: int, round_seats: Sequence[int], played: Sequence[tuple[int, int]]) -> bool:
    """Whether ``seat`` can still win the current phase-1 trick: it is yet to play in the
    round (``round_seats``, of which ``played`` lists ``(seat, rank)`` so far) or holds its
    best rank."""
    if seat not in round_seats:
        return False
    if not played or seat in round_seats[len(played) :]:
        return True
    best = -1
    for _, r in played:  # loops, not generators: playouts call this
        if r > best:
            best = r
    return any(s == seat and r == best for s, r in played)  # mypyc makes any() a loop


def slough(
    seat: int, round_seats: Sequence[int], played: Sequence[tuple[int, int]], options: list[int]
) -> int | None:
    """Rule 6, in a slough lap: pass (``None``) while ``seat`` could still win the trick,
    else slough its highest card of ``options``."""
    if not options or might_win(seat, round_seats, played):
        return None
    return highest(options)


def cheapest(
    singles: Sequence[int], runs: Sequence[Play], counts: Sequence[int] | None = None
) -> Play | None:
    """Rules 8–9: the play whose lowest card ranks lowest, the longest from it (the first
    listed among equals, singles before sequences; ``None``: no play).  With ``counts``
    (cards held per suit, rule 8's lead), the suit held most breaks a tie."""
    if counts is not None:
        plays = [(c, 1) for c in singles] + list(runs)
        if not plays:
            return None
        return min(plays, key=lambda p: (RANK_OF[p[0]], -p[1], -counts[SUIT_OF[p[0]]]))
    run = _cheapest_run(runs) if runs else None
    if not singles:
        return run
    card = lowest(singles)
    if run is not None and RANK_OF[run[0]] <= RANK_OF[card]:
        return run
    return card, 1


def _cheapest_run(runs: Sequence[Play]) -> Play:
    """The run whose lowest card ranks lowest, the longest of those (the first listed of
    equals): ``min(key=(rank, -length))`` as a loop, for playouts."""
    best = runs[0]
    rank, length = RANK_OF[best[0]], best[1]
    for run in runs:
        r = RANK_OF[run[0]]
        if r < rank or (r == rank and run[1] > length):
            best, rank, length = run, r, run[1]
    return best


def shed(
    singles: Sequence[int],
    runs: Sequence[Play],
    held: int,
    trump: int,
    lone_top: bool,
    counts: Sequence[int] | None = None,
) -> Play | None:
    """Rules 7–10 over the legal plays (``None``: take): go out when a play empties the
    hand; else the cheapest play of a plain suit, else of trumps; take rather than beat a
    lone top card (``lone_top``) with a trump this high unless nearly out."""
    if held == 1 and singles:  # rule 7: go out
        return singles[0], 1
    for run in runs:
        if run[1] == held:
            return run
    plain = [c for c in singles if SUIT_OF[c] != trump]
    plain_runs = [r for r in runs if SUIT_OF[r[0]] != trump]
    if plain or plain_runs:
        return cheapest(plain, plain_runs, counts)
    best = cheapest(singles, runs, counts)
    if best is not None and lone_top and held > NEARLY_OUT and RANK_OF[best[0]] >= TAKE_RANK:
        return None
    return best
