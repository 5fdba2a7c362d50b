"""Myllymatti's state encoder: its observation written straight from the game state (the
rules of every encoder are in :mod:`tikki.interop.observations`; ``docs/observations.md``
lists the features).  The game declares it (its ``interop.encoder``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tikki.cards import CARD_TEXT
from tikki.core import Game, State
from tikki.interop.encoders import myllymatti_rows, shedding
from tikki.interop.observations import CardEncoder, Feature, Parts, Rows

COMPILED = not str(myllymatti_rows.__file__).endswith(".py")
"""Whether :mod:`myllymatti_rows` is compiled (then it lists the batches' observations;
in pure Python :meth:`MyllymattiEncoder.parts_into`, faster there, does)."""


class MyllymattiEncoder(CardEncoder):
    """Myllymatti from the state (see ``docs/observations.md``)."""

    def __init__(self, game: Game) -> None:
        n, d = game.players, len(game.deck())  # 52, or a short deck (options ranks, suits)
        features = [
            *shedding.opening(n, d),
            Feature("aside_owner", (n,), 0, 1, "one-hot: who set the last stock card aside"),
            Feature("trump", (4,), 0, 1, "one-hot: the phase-2 trump suit (S, H, D, C)"),
            *shedding.table(
                n,
                d,
                hands="phase 2: the hands of relative seats 1…n−1 (all public)",
                trick="cards of the trick on the table, by relative seat",
                top="phase 2: the play to beat (a card or a run)",
            ),
            Feature("last_winner", (n,), 0, 1, "one-hot: the winner of the last duel"),
            *shedding.closing(n, d),
        ]
        super().__init__(game, features, {t: i for i, t in enumerate(CARD_TEXT)})
        self._o = {f.name: self.offset(f.name) for f in self.features}
        self._tabs = {name: self._table(name) for name in self._card_blocks}
        self._max_moves = float(game.options["max_moves"])
        self._by_base = [self._rotated(base) for base in range(n)] + [self._rotated(0)]
        self._sizes = [k / 52.0 for k in range(53)]  # a count's value, as ``k / 52.0``
        self._layouts = [self._layout(base) for base in range(n)] + [self._layout(0)]
        self._scale = [52.0, self._max_moves]

    def _layout(self, base: int) -> myllymatti_rows.Layout:
        """:meth:`_rotated`'s tables as plain lists, for :func:`myllymatti_rows.rows_into`."""
        n, o, tab = self.players, self._o, self._tabs

        def seat_one_hot(name: str) -> list[int]:
            return [o[name] + (s - base) % n for s in range(n)]

        rel = [(s - base) % n for s in range(n)]
        seat_rows = [
            [o["phase"], o["phase"] + 1],
            *map(seat_one_hot, ("to_act", "aside_owner", "leader", "last_winner", "out")),
            [*seat_one_hot("hand_sizes"), o["stock_size"], o["moves"]],
        ]
        card_rows = [
            [tab["piles"][r] for r in rel],
            [tab["hands"][r - 1] if r else [] for r in rel],  # the observer's: not here
            [tab["trick"][r] for r in rel],
            [tab["hand"][0]],
            [tab["top"][0]],
            [tab["fallen"][0]],
        ]
        return myllymatti_rows.Layout(seat_rows, card_rows, o["trump"])

    def _rotated(self, base: int) -> tuple[Any, ...]:
        """Every table with its rows indexed by absolute seat, for observer ``base``, in the
        order :meth:`parts` unpacks them."""
        n, o, tab = self.players, self._o, self._tabs

        def seat_one_hot(name: str) -> list[int]:
            return [o[name] + (s - base) % n for s in range(n)]

        rel = [(s - base) % n for s in range(n)]
        return (
            [o["phase"], o["phase"] + 1],
            seat_one_hot("to_act"),
            seat_one_hot("aside_owner"),
            seat_one_hot("leader"),
            seat_one_hot("last_winner"),
            seat_one_hot("out").__getitem__,
            [*seat_one_hot("hand_sizes"), o["stock_size"], o["moves"]],  # where values go
            [tab["piles"][r].__getitem__ for r in rel],
            [tab["hands"][r - 1].__getitem__ if r else None for r in rel],
            [tab["trick"][r].__getitem__ for r in rel],
            tab["hand"][0].__getitem__,
            tab["top"][0].__getitem__,
            tab["fallen"][0].__getitem__,
        )

    def rows_into(self, states: Sequence[State], seats: Sequence[int | None], lists: Rows) -> None:
        """:meth:`parts_into` for many states (:meth:`CardEncoder.rows_into`): in the
        compiled build, by the compiled :func:`myllymatti_rows.rows_into` (the same lists)."""
        if not COMPILED:
            super().rows_into(states, seats, lists)
            return
        listed: Any = states if isinstance(states, list) else list(states)
        myllymatti_rows.rows_into(self._layouts, listed, list(seats), lists, self._scale)

    def parts(self, state: State, seat: int | None) -> Parts:
        """``seat``'s observation of ``state``: the unit positions, then the positions
        with values of their own (:meth:`CardEncoder.parts`)."""
        hits: list[int] = []
        at: list[int] = []
        values: list[float] = []
        self.parts_into(state, seat, hits, at, values)
        return hits, at, values

    def parts_into(
        self,
        state: State,
        seat: int | None,
        hits: list[int],
        at: list[int],
        values: list[float],
    ) -> None:
        """:meth:`parts`, appended to the lists (:meth:`CardEncoder.parts_into`)."""
        st: Any = state
        (
            phases,
            to_acts,
            owners,
            leaders,
            winners,
            out,
            where,
            piles,
            known,
            trick,
            hand,
            top,
            fallen,
        ) = self._by_base[self.players if seat is None else seat]
        extend, append = hits.extend, hits.append
        phase = st._phase
        if phase < 2:
            append(phases[phase])
        to_act = st.current_player
        if to_act is not None:
            append(to_acts[to_act])
        hands = st._hands
        if seat is not None:
            extend(map(hand, hands[seat]))
        owner = st._aside_owner
        if owner >= 0:
            append(owners[owner])
        for get, pile in zip(piles, st._piles, strict=True):
            if pile:
                extend(map(get, pile))
        trump = st._trump
        if trump >= 0:
            append(self._o["trump"] + trump)
            for get, cards in zip(known, hands, strict=True):
                if get is not None:
                    extend(map(get, cards))
        for s, c, _ in st._trick:
            append(trick[s](c))
        plays = st._plays
        for s, cards in plays:
            extend(map(trick[s], cards))
        if plays:
            extend(map(top, plays[-1][1]))
            append(leaders[plays[0][0]])
        elif st._trick_leader >= 0 and trump < 0:
            append(leaders[st._trick_leader])
        if st._last_winner >= 0:
            append(winners[st._last_winner])
        if st._fallen:
            extend(map(fallen, st._fallen))
        if st._out:
            extend(map(out, st._out))
        at += where
        values += map(self._sizes.__getitem__, map(len, hands))
        values.append(len(st._stock) / 52.0)
        values.append(len(st._hist) / self._max_moves)


__all__ = ["MyllymattiEncoder"]
