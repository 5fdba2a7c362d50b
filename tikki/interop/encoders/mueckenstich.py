"""Mückenstich's state encoder: its observation written straight from the game state (the
rules of every encoder are in :mod:`tikki.interop.observations`; ``docs/observations.md``
lists the features).  The game declares it (its ``interop.encoder``)."""

from __future__ import annotations

from typing import Any

from tikki.cards import COLOURS
from tikki.core import Game, State
from tikki.games.mueckenstich import CARD_TEXT, Mueckenstich
from tikki.interop.observations import CardEncoder, Feature, Parts, card_feature


class MueckenstichEncoder(CardEncoder):
    """Mückenstich from the state (see ``docs/observations.md``)."""

    def __init__(self, game: Game) -> None:
        assert isinstance(game, Mueckenstich)
        # d: the distinct cards, 52 (or a research deck's); a deal's size, deals a round,
        # discards and rounds as the game's options make them (the rules': MS-2..MS-4)
        n, d = game.players, len(dict.fromkeys(game.deck()))
        self._hand_size = float(game.hand_size)
        self._deals = game.deals
        self._discard_max = 2.0 * game.deals
        self._score_bound = 65.0 * n
        self._rounds = game.rounds
        self._discarding = game.discarding  # six players do not discard (MS-4)
        phases = ("discard, " if self._discarding else "") + "play, score"
        features = [
            Feature("phase", (2 + self._discarding,), 0, 1, f"one-hot: {phases}"),
            Feature("to_act", (n,), 0, 1, "one-hot: the relative seat to act"),
            Feature("dealer", (n,), 0, 1, "one-hot: the relative seat dealing this round"),
            Feature("round", (1,), 0, 1, "rounds played / rounds of the match"),
        ]
        if self._deals == 2:
            features.append(Feature("deal", (1,), 0, 1, "the second deal of the round (3p)"))
        features += [
            card_feature("hand", 1, d, "the observer's hand (count / copies of the card)"),
        ]
        if self._discarding:
            features += [
                card_feature("discards", 1, d, "the observer's discards this round"),
                Feature(
                    "discarded",
                    (n,),
                    0,
                    1,
                    "cards each relative seat discarded this round / (2·deals)",
                ),
            ]
        features += [
            Feature("hand_sizes", (n,), 0, 1, "cards in each relative seat's hand / deal size"),
            card_feature("trick", n, d, "the card each relative seat put into the current trick"),
            Feature("leader", (n,), 0, 1, "one-hot: the relative seat that led the trick"),
            Feature("led", (4,), 0, 1, "one-hot: the colour led (R, B, G, K order)"),
            Feature("trump", (4,), 0, 1, "one-hot: the trump colour (R, B, G, K order)"),
            Feature("naming_trump", (1,), 0, 1, "1 while the mosquito's player names trump"),
            Feature("voids", (n, 4), 0, 1, "colours each relative seat has shown void in"),
            Feature("tricks", (n,), 0, 1, "tricks won this round / (deal size · deals)"),
            Feature("mosquitoes", (n,), 0, 1, "mosquitoes won this round / 12"),
            card_feature("piles", n, d, "cards each relative seat has won this round"),
            Feature("doubled", (4,), 0, 1, "one-hot: the doubled colour (scoring; R, B, G, K)"),
            Feature("dropped", (4,), 0, 1, "one-hot: the dropped colour (scoring; R, B, G, K)"),
            Feature("scores", (n,), -1, 1, f"match totals of each relative seat / {65 * n} (65·n)"),
        ]
        super().__init__(game, features, {t: i for i, t in enumerate(CARD_TEXT) if t})
        self._o = {f.name: self.offset(f.name) for f in self.features}
        self._tabs = {name: self._table(name) for name in self._card_blocks}
        self._colours = len(COLOURS)

    def parts(self, state: State, seat: int | None) -> Parts:
        """``seat``'s observation of ``state``: the unit positions, then the positions
        with values of their own (:meth:`CardEncoder.parts`)."""
        st: Any = state
        o, n = self._o, self.players
        base = 0 if seat is None else seat
        hits: list[int] = []
        phase = st._phase
        if phase < 3:
            hits.append(o["phase"] + phase - 1 + self._discarding)
        to_act = st.current_player
        if to_act is not None:
            hits.append(o["to_act"] + (to_act - base) % n)
        hits.append(o["dealer"] + (st.dealer - base) % n)
        if self._deals == 2 and st._deal:
            hits.append(o["deal"])
        tab = self._tabs
        discarding = self._discarding
        if seat is not None:
            hits.extend(map(tab["hand"][0].__getitem__, st._hands[seat]))
            if discarding:
                hits.extend(map(tab["discards"][0].__getitem__, st._discards[seat]))
        trick = tab["trick"]
        for s, c in st._trick:
            hits.append(trick[(s - base) % n][c])
        if st._trick:
            hits.append(o["leader"] + (st._leader - base) % n)
        for name, colour in (
            ("led", st._led),
            ("trump", st._trump),
            ("doubled", st._doubled),
            ("dropped", st._dropped),
        ):
            if colour >= 0:
                hits.append(o[name] + colour)
        if st._pending:
            hits.append(o["naming_trump"])
        voids, piles = o["voids"], tab["piles"]
        at: list[int] = [o["round"]]
        values: list[float] = [min(st._round, self._rounds) / self._rounds]
        size, bound = self._hand_size, self._score_bound
        for s in range(n):
            r = (s - base) % n
            v = st._voids[s]
            if v:
                hits.extend([voids + r * 4 + k for k in range(4) if v >> k & 1])
            hits.extend(map(piles[r].__getitem__, st._piles[s]))
            if discarding:
                at.append(o["discarded"] + r)
                values.append(len(st._discards[s]) / self._discard_max)
            at += [o["hand_sizes"] + r, o["tricks"] + r, o["mosquitoes"] + r, o["scores"] + r]
            values.append(len(st._hands[s]) / size)
            values += [
                st._tricks[s] / (size * self._deals),
                st._mosq[s] / 12.0,
                st._totals[s] / bound,
            ]
        return hits, at, values


__all__ = ["MueckenstichEncoder"]
