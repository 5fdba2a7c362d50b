"""Mattis's state encoder: its observation written straight from the game state (the
rules of every encoder are in :mod:`tikki.interop.observations`; ``docs/observations.md``
lists the features).  The game declares it (its ``interop.encoder``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tikki.cards import CARD_TEXT, RANKS
from tikki.core import Game, State
from tikki.games.mattis import COLLECT, NO_RANK, SHED
from tikki.interop.encoders import shedding
from tikki.interop.observations import CardEncoder, Feature, Parts, card_feature


class MattisEncoder(CardEncoder):
    """Mattis from the state (see ``docs/observations.md``)."""

    def __init__(self, game: Game) -> None:
        n, d, r = game.players, len(game.deck()), len(RANKS)  # d: 52, or a short deck
        features = [
            *shedding.opening(n, d),
            card_feature("shown", 1, d, "the shown last stock card (its suit is trump)"),
            Feature("shown_owner", (n,), 0, 1, "one-hot: the relative seat the shown card is for"),
            Feature("shown_in_hand", (1,), 0, 1, "1 while the shown card is in its owner's hand"),
            Feature("trump", (4,), 0, 1, "one-hot: the trump suit (S, H, D, C)"),
            *shedding.table(
                n,
                d,
                hands="phase 2: what is known of relative seats 1…n−1's hands",
                trick="cards each relative seat put into the trick on the table",
                top="phase 2: the play to beat (a card or a sequence)",
            ),
            Feature("match_rank", (r,), 0, 1, "one-hot: phase 1, the rank a play must match"),
            Feature("slough_lap", (1,), 0, 1, "1 during a slough lap (AM-5)"),
            Feature("losing", (r,), 0, 1, "ranks losing the trick in a slough lap (AM-5)"),
            Feature("last_winner", (n,), 0, 1, "one-hot: the winner of the last phase-1 trick"),
        ]
        self._dreck = n > 2  # two players: the hands show where every dreck card went
        if self._dreck:
            features += [
                card_feature("dreck", 1, d, "the dreck's cards (public; 3+ players)"),
                card_feature("dreck_mine", 1, d, "the dreck cards the observer received"),
                Feature("dreck_given", (n,), 0, 1, "dreck cards each relative seat gave / 52"),
                Feature("dreck_received", (n,), 0, 1, "dreck cards each relative seat got / 52"),
            ]
        features += shedding.closing(n, d)
        super().__init__(game, features, {t: i for i, t in enumerate(CARD_TEXT)})
        self._o = {f.name: self.offset(f.name) for f in self.features}
        self._tabs = {name: self._table(name) for name in self._card_blocks}
        self._max_moves = float(game.options["max_moves"])
        self._ranks = r

    def parts(self, state: State, seat: int | None) -> Parts:
        """``seat``'s observation of ``state``: the unit positions, then the positions
        with values of their own (:meth:`CardEncoder.parts`)."""
        st: Any = state
        o, tab, n = self._o, self._tabs, self.players
        base = 0 if seat is None else seat

        def rel(s: int) -> int:
            return (s - base) % n

        hits: list[int] = []
        phase = st._phase
        if phase in (COLLECT, SHED):
            hits.append(o["phase"] + phase)
        to_act = st.current_player
        if to_act is not None:
            hits.append(o["to_act"] + rel(to_act))
        if seat is not None:
            hits += [tab["hand"][0][c] for c in st._hands[seat]]
        if st._shown >= 0:
            hits.append(tab["shown"][0][st._shown])
        if st._shown_owner >= 0:
            hits.append(o["shown_owner"] + rel(st._shown_owner))
            if phase == COLLECT and st._shown in st._hands[st._shown_owner]:
                hits.append(o["shown_in_hand"])
        if st._trump >= 0:
            hits.append(o["trump"] + st._trump)
        for s, pile in enumerate(st._piles):
            hits += [tab["piles"][rel(s)][c] for c in pile]
        if phase != COLLECT:
            for s, hand in enumerate(st.known_cards(seat)):
                if rel(s):
                    hits += [tab["hands"][rel(s) - 1][c] for c in hand]
        hits += self._trick(st, phase == COLLECT, rel)
        if st._last_winner >= 0:
            hits.append(o["last_winner"] + rel(st._last_winner))
        hits += [tab["fallen"][0][c] for c in st._fallen]
        hits += [o["out"] + rel(s) for s in st._out]
        at = [o["stock_size"], o["moves"]]
        values = [len(st._stock) / 52.0, len(st._hist) / self._max_moves]
        for s in range(n):
            at.append(o["hand_sizes"] + rel(s))
            values.append(len(st._hands[s]) / 52.0)
        if self._dreck and st._dreck:
            hits += [tab["dreck"][0][c] for c in st._dreck]
            if seat is not None:
                hits += [tab["dreck_mine"][0][c] for c in st._secret[seat]]
            for s in range(n):
                at += [o["dreck_given"] + rel(s), o["dreck_received"] + rel(s)]
                values += [st._given[s] / 52.0, st._received[s] / 52.0]
        if phase == COLLECT and (match := st._match_rank()) != NO_RANK:
            hits.append(o["match_rank"] + match)
        return hits, at, values

    def _trick(self, st: Any, collect: bool, rel: Callable[[int], int]) -> list[int]:
        """The trick's cards by relative seat, its leader, the play to beat, the lap."""
        o, tab = self._o, self._tabs
        hits: list[int] = []
        if collect:
            for s, c, _ in st._trick:
                hits.append(tab["trick"][rel(s)][c])
            if st._trick:
                hits.append(o["leader"] + rel(st._leader))
            if st._lap_left > 0:
                hits.append(o["slough_lap"])
                losing = st._losing
                hits += [o["losing"] + k for k in range(self._ranks) if losing >> k & 1]
            return hits
        plays = st._plays
        for s, cards in plays:
            hits += [tab["trick"][rel(s)][c] for c in cards]
        if plays:
            hits += [tab["top"][0][c] for c in plays[-1][1]]
            hits.append(o["leader"] + rel(plays[0][0]))
        return hits


__all__ = ["MattisEncoder"]
