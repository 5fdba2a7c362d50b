"""Myllymatti's state encoder: its observation written straight from the game state (the
rules of every encoder are in :mod:`tikki.interop.observations`; ``docs/observations.md``
lists the features).  The game declares it (its ``interop.encoder``)."""

from __future__ import annotations

from typing import Any

from tikki.cards import CARD_TEXT
from tikki.core import Game, State
from tikki.interop.encoders import shedding
from tikki.interop.observations import CardEncoder, Feature, Parts


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
        self._tail = [self._o["stock_size"], self._o["moves"]]
        self._by_base = [self._rotated(base) for base in range(n)] + [self._rotated(0)]

    def _rotated(self, base: int) -> dict[str, Any]:
        """Every table with its rows indexed by absolute seat, for observer ``base``."""
        n, o, tab = self.players, self._o, self._tabs

        def seat_one_hot(name: str) -> list[int]:
            return [o[name] + (s - base) % n for s in range(n)]

        rel = [(s - base) % n for s in range(n)]
        return {
            "phase": [o["phase"], o["phase"] + 1],
            "to_act": seat_one_hot("to_act"),
            "aside_owner": seat_one_hot("aside_owner"),
            "leader": seat_one_hot("leader"),
            "last_winner": seat_one_hot("last_winner"),
            "out": seat_one_hot("out"),
            "sizes": seat_one_hot("hand_sizes"),
            "piles": [tab["piles"][r].__getitem__ for r in rel],
            "hands": [tab["hands"][r - 1].__getitem__ if r else None for r in rel],
            "trick": [tab["trick"][r].__getitem__ for r in rel],
            "hand": tab["hand"][0].__getitem__,
            "top": tab["top"][0].__getitem__,
            "fallen": tab["fallen"][0].__getitem__,
        }

    def parts(self, state: State, seat: int | None) -> Parts:
        """``seat``'s observation of ``state``: the unit positions, then the positions
        with values of their own (:meth:`CardEncoder.parts`)."""
        st: Any = state
        t = self._by_base[self.players if seat is None else seat]
        hits: list[int] = []
        extend, append = hits.extend, hits.append
        phase = st._phase
        if phase < 2:
            append(t["phase"][phase])
        to_act = st.current_player
        if to_act is not None:
            append(t["to_act"][to_act])
        hands = st._hands
        if seat is not None:
            extend(map(t["hand"], hands[seat]))
        owner = st._aside_owner
        if owner >= 0:
            append(t["aside_owner"][owner])
        trump = st._trump
        for s, pile in enumerate(st._piles):
            if pile:
                extend(map(t["piles"][s], pile))
        if trump >= 0:
            append(self._o["trump"] + trump)
            for s, get in enumerate(t["hands"]):
                if get is not None:
                    extend(map(get, hands[s]))
        trick = t["trick"]
        for s, c, _ in st._trick:
            append(trick[s](c))
        plays = st._plays
        for s, cards in plays:
            extend(map(trick[s], cards))
        if plays:
            extend(map(t["top"], plays[-1][1]))
            append(t["leader"][plays[0][0]])
        elif st._trick_leader >= 0 and trump < 0:
            append(t["leader"][st._trick_leader])
        if st._last_winner >= 0:
            append(t["last_winner"][st._last_winner])
        if st._fallen:
            extend(map(t["fallen"], st._fallen))
        if st._out:
            extend(map(t["out"].__getitem__, st._out))
        at = t["sizes"] + self._tail
        values = [len(h) / 52.0 for h in hands]
        values.append(len(st._stock) / 52.0)
        values.append(len(st._hist) / self._max_moves)
        return hits, at, values


__all__ = ["MyllymattiEncoder"]
