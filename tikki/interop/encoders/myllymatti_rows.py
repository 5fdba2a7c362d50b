"""Myllymatti's observations of many states at once, as index lists, written to be
compiled: typed loops over the state's own lists, no NumPy, nothing but ints, lists and
the state class, so that the compiled build (``setup.py``'s ``COMPILED_MODULES``) reads
the state's slots directly and appends to the lists in C.

:func:`rows_into` lists what :meth:`MyllymattiEncoder.parts_into
<tikki.interop.encoders.myllymatti.MyllymattiEncoder.parts_into>` lists, state by state,
the same positions in the same order (the tests compare them on every state of many
games, for every observer); the encoder turns the lists into its rows with one NumPy call
each (:mod:`tikki.interop.rows` lists the masks' action ids the same way).
"""

from __future__ import annotations

from typing import Any

from tikki.games.myllymatti import MyllymattiState

Ints = list[Any]
"""A list of ints, typed so that the compiled build copies them as they are (the int
objects of the tables), without unboxing and boxing each again (positions pass 256:
each would be a new int object)."""


class Layout:
    """Where each feature of one observer's vector lies, with per-seat rows indexed by
    absolute seat (row ``r`` of a relative feature is the seat ``r`` places after the
    observer) and card tables indexed by card number."""

    phases: Ints
    to_act: Ints
    owners: Ints
    leaders: Ints
    winners: Ints
    out: Ints
    where: Ints
    piles: list[Ints]
    known: list[Ints]
    trick: list[Ints]
    hand: Ints
    top: Ints
    fallen: Ints
    trump: int

    def __init__(
        self,
        seat_rows: list[Ints],
        card_rows: list[list[Ints]],
        trump: int,
    ) -> None:
        """``seat_rows``: the one-hots (phase, to_act, aside_owner, leader, last_winner,
        out) and the value positions (hand sizes, stock, moves); ``card_rows``: the card
        tables (piles, known hands, with ``[]`` for the observer's own seat, trick, then
        hand, top and fallen as one row each); ``trump``: where the trump one-hot starts."""
        self.phases, self.to_act, self.owners, self.leaders, self.winners, self.out = seat_rows[:6]
        self.where = seat_rows[6]
        self.piles, self.known, self.trick = card_rows[:3]
        self.hand, self.top, self.fallen = card_rows[3][0], card_rows[4][0], card_rows[5][0]
        self.trump = trump


def rows_into(
    layouts: list[Layout],
    states: list[MyllymattiState],
    seats: list[int | None],
    lists: tuple[Ints, Ints, list[float], list[int], list[int]],
    scale: list[float],
) -> None:
    """Append each state's observation by its seat (``None``: the public one, the last
    layout) to ``lists``: ``(hits, at, values, hit_ends, at_ends)``, the unit positions,
    the positions with values and those values, and where each state's hits and values
    end.  ``scale``: ``[52.0, max_moves]``, what the counts are divided by."""
    hits, at, values, hit_ends, at_ends = lists
    public = len(layouts) - 1
    for i in range(len(states)):
        seat = seats[i]
        observer = public if seat is None else seat
        _state_into(states[i], layouts[observer], seat, hits)
        hit_ends.append(len(hits))
        at.extend(layouts[observer].where)
        _values_into(states[i], values, scale)
        at_ends.append(len(at))


def _state_into(st: MyllymattiState, lay: Layout, seat: int | None, hits: Ints) -> None:
    """One state's unit positions, in :meth:`MyllymattiEncoder.parts_into`'s order."""
    phase = st._phase
    if phase < 2:
        hits.append(lay.phases[phase])
    to_act = st.current_player
    if to_act is not None:
        hits.append(lay.to_act[to_act])
    hands = st._hands
    if seat is not None:
        _cards_into(hits, lay.hand, hands[seat])
    owner = st._aside_owner
    if owner >= 0:
        hits.append(lay.owners[owner])
    piles = lay.piles
    for s, pile in enumerate(st._piles):
        _cards_into(hits, piles[s], pile)
    trump = st._trump
    if trump >= 0:
        hits.append(lay.trump + trump)
        known = lay.known
        for s, cards in enumerate(hands):
            if known[s]:
                _cards_into(hits, known[s], cards)
    _table_into(st, lay, hits, trump)
    if st._last_winner >= 0:
        hits.append(lay.winners[st._last_winner])
    _cards_into(hits, lay.fallen, st._fallen)
    out = lay.out
    for s in st._out:
        hits.append(out[s])


def _table_into(st: MyllymattiState, lay: Layout, hits: Ints, trump: int) -> None:
    """The trick's cards, the play to beat and the leader."""
    trick = lay.trick
    for entry in st._trick:
        hits.append(trick[entry[0]][entry[1]])
    plays = st._plays
    for play in plays:
        played: list[int] = play[1]
        s: int = play[0]
        _cards_into(hits, trick[s], played)
    if plays:
        last: list[int] = plays[-1][1]
        _cards_into(hits, lay.top, last)
        first: int = plays[0][0]
        hits.append(lay.leaders[first])
    elif st._trick_leader >= 0 and trump < 0:
        hits.append(lay.leaders[st._trick_leader])


def _cards_into(hits: Ints, table: Ints, cards: list[int]) -> None:
    """The positions of ``cards`` in a card table."""
    for c in cards:
        hits.append(table[c])


def _values_into(st: MyllymattiState, values: list[float], scale: list[float]) -> None:
    """The hand sizes and the stock (``/ 52``), the moves played (``/ max_moves``)."""
    cards_in = scale[0]
    for cards in st._hands:
        values.append(len(cards) / cards_in)
    values.append(len(st._stock) / cards_in)
    values.append(len(st._hist) / scale[1])


__all__ = ["Layout", "rows_into"]
