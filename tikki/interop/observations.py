"""Fast, fixed-size observations of one seat, written straight from the game state.

:func:`encoder_for` gives the encoder of a game: ``encoder.encode(state, seat, out)`` fills
a ``float32`` vector (``out``, preallocated, or a new one) with what ``seat`` may know,
reading the state's own attributes, not its JSON view (which costs 10–50× the game
step).  The rules of every encoder:

* **Seats are relative to the observer**: row ``r`` of a per-seat feature is the seat
  ``r`` places after the observer (row 0 is the observer).  ``seat=None`` is the public
  observation (rows relative to seat 0, no private features).
* **Normalised**: every value lies in its feature's ``[low, high]``, about ``[0, 1]``
  (counts are divided by their maximum; scores by their bound).
* **No constant features**: every feature can change during a game.
* **Nothing hidden**: an encoder reads only what the seat's view shows; the tests encode
  a state and states sampled from the seat's view (``game.sample_state``), which differ in
  every card the seat cannot see, and require the same vector.
* **Named**: ``encoder.features`` lists each feature (name, shape, range, meaning);
  ``encoder.slices[name]`` is its slice of the vector and ``encoder.split(vector)`` gives
  named, reshaped views.  ``docs/observations.md`` is the table of every game's features,
  written by ``python -m tikki.interop.observations > docs/observations.md``.

Every game has a state encoder (:class:`MyllymattiEncoder`, :class:`MattisEncoder`,
:class:`MueckenstichEncoder`).  A game without one would get :class:`ViewBasedEncoder`,
the generic encoding of the JSON view (:class:`tikki.interop.encoding.ViewEncoder`) behind
the same interface: correct, but as slow as the view.

Card columns follow the order of the game's distinct card texts in ``game.deck()``, the
order of the adapters' card action ids.  Identical cards (Mückenstich's two 12s and three
mosquitoes of a colour) share a column that counts them, divided by the copies.
"""

# ruff: noqa: E402  (the extra is checked before its imports)
from __future__ import annotations

from tikki.extras import require

require("gym", "the observation encoders (NumPy)", ("numpy",))

import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

import tikki
from tikki.core import Game, State
from tikki.interop.encoding import ActionSpace, ViewEncoder

Vector = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Feature:
    """One named block of an observation vector."""

    name: str
    shape: tuple[int, ...]
    low: float
    high: float
    meaning: str

    @property
    def size(self) -> int:
        """Number of values in the block."""
        return int(np.prod(self.shape))


class Encoder(ABC):
    """Fixed-size observations of one game (name, players, options); see the module."""

    def __init__(self, game: Game, features: Sequence[Feature]) -> None:
        self.game = game
        self.players = game.players
        self.actions = ActionSpace(game)
        self.features: tuple[Feature, ...] = tuple(features)
        self.slices: dict[str, slice] = {}
        at = 0
        for f in self.features:
            self.slices[f.name] = slice(at, at + f.size)
            at += f.size
        self.size = at
        self.low = np.concatenate([np.full(f.size, f.low, np.float32) for f in features])
        self.high = np.concatenate([np.full(f.size, f.high, np.float32) for f in features])
        self._mask_memo: dict[tuple[str, ...], npt.NDArray[np.intp]] = {}

    def offset(self, name: str) -> int:
        """Where feature ``name`` starts in the vector."""
        return int(self.slices[name].start)

    def empty(self) -> Vector:
        """A zero vector of the right size."""
        return np.zeros(self.size, np.float32)

    def split(self, flat: Vector) -> dict[str, Vector]:
        """Named, reshaped views into ``flat`` (sharing its memory)."""
        return {f.name: flat[self.slices[f.name]].reshape(f.shape) for f in self.features}

    @abstractmethod
    def encode(self, state: State, seat: int | None, out: Vector | None = None) -> Vector:
        """Write ``seat``'s observation of ``state`` into ``out`` (or a new vector)."""

    def legal_mask(self, state: State, seat: int, out: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """``out`` set to the legal-action mask of ``seat`` (zeros when not its turn)."""
        out.fill(0)
        if state.current_player == seat:
            moves = state.legal_moves()
            key = tuple(moves)
            ids = self._mask_memo.get(key)
            if ids is None:
                if len(self._mask_memo) > 200_000:
                    self._mask_memo.clear()
                index = self.actions.index
                ids = self._mask_memo[key] = np.array([index[m] for m in moves], np.intp)
            out[ids] = 1
        return out

    def table(self) -> str:
        """The feature table as Markdown (name, slice, shape, range, meaning)."""
        lines = [
            "| feature | slice | shape | range | meaning |",
            "|---|---|---|---|---|",
        ]
        for f in self.features:
            s = self.slices[f.name]
            shape = "×".join(str(d) for d in f.shape)
            lines.append(
                f"| `{f.name}` | {s.start}:{s.stop} | {shape} | [{f.low:g}, {f.high:g}] "
                f"| {f.meaning} |"
            )
        return "\n".join(lines)


class _CardEncoder(Encoder):
    """Shared machinery: card columns and a fast fill from index lists.

    ``_fill`` takes ``hits`` (positions that get one unit each; a card column's unit is
    ``1 / copies``) and ``values`` (positions with a value of their own).
    """

    def __init__(self, game: Game, features: Sequence[Feature], card_ints: dict[str, int]):
        super().__init__(game, features)
        cards = self.actions.cards
        copies = {c: game.deck().count(c) for c in cards}
        width = max(card_ints.values()) + 1
        self.col: list[int] = [0] * width
        unit = np.ones(self.size, np.float32)
        for i, text in enumerate(cards):
            self.col[card_ints[text]] = i
        self._card_blocks: list[str] = []
        for f in self.features:
            if f.shape and f.shape[-1] == len(cards) and f.name not in ("legal",):
                self._card_blocks.append(f.name)
                block = unit[self.slices[f.name]].reshape(f.shape)
                block[...] = np.array([1.0 / copies[c] for c in cards], np.float32)
        self.unit = unit
        self._binary = all(copies[c] == 1 for c in cards)

    def _table(self, name: str) -> list[list[int]]:
        """Per row of card block ``name``: card int -> absolute position."""
        start = self.offset(name)
        rows = self.features[[f.name for f in self.features].index(name)].shape
        count = rows[0] if len(rows) == 2 else 1
        d = len(self.actions.cards)
        return [[start + r * d + i for i in self.col] for r in range(count)]

    def _fill(
        self, out: Vector | None, hits: list[int], at: list[int], values: list[float]
    ) -> Vector:
        if out is None:
            out = np.zeros(self.size, np.float32)
        else:
            out.fill(0.0)
        if self._binary:
            out[hits] = 1.0
        else:
            out += np.bincount(hits, minlength=self.size)
            out *= self.unit
        for i, value in zip(at, values, strict=True):
            out[i] = value
        return out


def _cards(name: str, rows: int, d: int, meaning: str) -> Feature:
    shape = (d,) if rows == 1 else (rows, d)
    return Feature(name, shape, 0.0, 1.0, meaning)


class MyllymattiEncoder(_CardEncoder):
    """Myllymatti from the state (see ``docs/observations.md``)."""

    def __init__(self, game: Game) -> None:
        from tikki.cards import CARD_TEXT

        n, d = game.players, len(game.deck())  # 52, or a short deck (options ranks, suits)
        features = [
            Feature("phase", (2,), 0, 1, "one-hot: collect (phase 1), shed (phase 2)"),
            Feature("to_act", (n,), 0, 1, "one-hot: the relative seat to act"),
            _cards("hand", 1, d, "the observer's hand"),
            Feature("hand_sizes", (n,), 0, 1, "cards in each relative seat's hand / 52"),
            Feature("stock_size", (1,), 0, 1, "cards in the stock / 52"),
            Feature("aside_owner", (n,), 0, 1, "one-hot: who set the last stock card aside"),
            Feature("trump", (4,), 0, 1, "one-hot: the phase-2 trump suit (S, H, D, C)"),
            _cards("piles", n, d, "phase 1: each relative seat's pile"),
            _cards("hands", n - 1, d, "phase 2: the hands of relative seats 1…n−1 (all public)"),
            _cards("trick", n, d, "cards of the trick on the table, by relative seat"),
            _cards("top", 1, d, "phase 2: the play to beat (a card or a run)"),
            Feature("leader", (n,), 0, 1, "one-hot: the relative seat that led the trick"),
            Feature("last_winner", (n,), 0, 1, "one-hot: the winner of the last duel"),
            _cards("fallen", 1, d, "phase 2: cards out of the game (fallen tricks)"),
            Feature("out", (n,), 0, 1, "relative seats that have shed every card"),
            Feature("moves", (1,), 0, 1, "moves played / max_moves"),
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

    def encode(self, state: State, seat: int | None, out: Vector | None = None) -> Vector:
        """Write ``seat``'s observation of ``state`` into ``out`` (or a new vector)."""
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
        return self._fill(out, hits, at, values)


class MueckenstichEncoder(_CardEncoder):
    """Mückenstich from the state (see ``docs/observations.md``)."""

    def __init__(self, game: Game) -> None:
        from tikki.games.mueckenstich import CARD_TEXT, Mueckenstich

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
            _cards("hand", 1, d, "the observer's hand (count / copies of the card)"),
        ]
        if self._discarding:
            features += [
                _cards("discards", 1, d, "the observer's discards this round"),
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
            _cards("trick", n, d, "the card each relative seat put into the current trick"),
            Feature("leader", (n,), 0, 1, "one-hot: the relative seat that led the trick"),
            Feature("led", (4,), 0, 1, "one-hot: the colour led (R, B, G, K order)"),
            Feature("trump", (4,), 0, 1, "one-hot: the trump colour (R, B, G, K order)"),
            Feature("naming_trump", (1,), 0, 1, "1 while the mosquito's player names trump"),
            Feature("voids", (n, 4), 0, 1, "colours each relative seat has shown void in"),
            Feature("tricks", (n,), 0, 1, "tricks won this round / (deal size · deals)"),
            Feature("mosquitoes", (n,), 0, 1, "mosquitoes won this round / 12"),
            _cards("piles", n, d, "cards each relative seat has won this round"),
            Feature("doubled", (4,), 0, 1, "one-hot: the doubled colour (scoring; R, B, G, K)"),
            Feature("dropped", (4,), 0, 1, "one-hot: the dropped colour (scoring; R, B, G, K)"),
            Feature("scores", (n,), -1, 1, f"match totals of each relative seat / {65 * n} (65·n)"),
        ]
        super().__init__(game, features, {t: i for i, t in enumerate(CARD_TEXT) if t})
        self._o = {f.name: self.offset(f.name) for f in self.features}
        self._tabs = {name: self._table(name) for name in self._card_blocks}
        from tikki.cards import COLOURS

        self._colours = len(COLOURS)

    def encode(self, state: State, seat: int | None, out: Vector | None = None) -> Vector:
        """Write ``seat``'s observation of ``state`` into ``out`` (or a new vector)."""
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
        return self._fill(out, hits, at, values)


class MattisEncoder(_CardEncoder):
    """Mattis from the state (see ``docs/observations.md``)."""

    def __init__(self, game: Game) -> None:
        from tikki.cards import CARD_TEXT, RANKS

        n, d, r = game.players, len(game.deck()), len(RANKS)  # d: 52, or a short deck
        features = [
            Feature("phase", (2,), 0, 1, "one-hot: collect (phase 1), shed (phase 2)"),
            Feature("to_act", (n,), 0, 1, "one-hot: the relative seat to act"),
            _cards("hand", 1, d, "the observer's hand"),
            Feature("hand_sizes", (n,), 0, 1, "cards in each relative seat's hand / 52"),
            Feature("stock_size", (1,), 0, 1, "cards in the stock / 52"),
            _cards("shown", 1, d, "the shown last stock card (its suit is trump)"),
            Feature("shown_owner", (n,), 0, 1, "one-hot: the relative seat the shown card is for"),
            Feature("shown_in_hand", (1,), 0, 1, "1 while the shown card is in its owner's hand"),
            Feature("trump", (4,), 0, 1, "one-hot: the trump suit (S, H, D, C)"),
            _cards("piles", n, d, "phase 1: each relative seat's pile"),
            _cards("hands", n - 1, d, "phase 2: what is known of relative seats 1…n−1's hands"),
            _cards("trick", n, d, "cards each relative seat put into the trick on the table"),
            _cards("top", 1, d, "phase 2: the play to beat (a card or a sequence)"),
            Feature("leader", (n,), 0, 1, "one-hot: the relative seat that led the trick"),
            Feature("match_rank", (r,), 0, 1, "one-hot: phase 1, the rank a play must match"),
            Feature("slough_lap", (1,), 0, 1, "1 during a slough lap (AM-5)"),
            Feature("losing", (r,), 0, 1, "ranks losing the trick in a slough lap (AM-5)"),
            Feature("last_winner", (n,), 0, 1, "one-hot: the winner of the last phase-1 trick"),
        ]
        self._dreck = n > 2  # two players: the hands show where every dreck card went
        if self._dreck:
            features += [
                _cards("dreck", 1, d, "the dreck's cards (public; 3+ players)"),
                _cards("dreck_mine", 1, d, "the dreck cards the observer received"),
                Feature("dreck_given", (n,), 0, 1, "dreck cards each relative seat gave / 52"),
                Feature("dreck_received", (n,), 0, 1, "dreck cards each relative seat got / 52"),
            ]
        features += [
            _cards("fallen", 1, d, "phase 2: cards out of the game (fallen tricks)"),
            Feature("out", (n,), 0, 1, "relative seats that have shed every card"),
            Feature("moves", (1,), 0, 1, "moves played / max_moves"),
        ]
        super().__init__(game, features, {t: i for i, t in enumerate(CARD_TEXT)})
        self._o = {f.name: self.offset(f.name) for f in self.features}
        self._tabs = {name: self._table(name) for name in self._card_blocks}
        self._max_moves = float(game.options["max_moves"])
        self._ranks = r

    def encode(self, state: State, seat: int | None, out: Vector | None = None) -> Vector:
        """Write ``seat``'s observation of ``state`` into ``out`` (or a new vector)."""
        from tikki.games.mattis import COLLECT, NO_RANK, SHED

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
        return self._fill(out, hits, at, values)

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


class ViewBasedEncoder(Encoder):
    """Any game through its JSON view (:class:`~tikki.interop.encoding.ViewEncoder`)."""

    def __init__(self, game: Game) -> None:
        actions = ActionSpace(game)
        self.view_encoder = ViewEncoder(game, actions)
        features = [
            Feature(name, shape, -1e6, 1e6, f"generic view block `{name}` (see encoding.py)")
            for name, shape in self.view_encoder.pieces
        ]
        super().__init__(game, features)

    def encode(self, state: State, seat: int | None, out: Vector | None = None) -> Vector:
        """Encode ``state.view(seat)`` generically."""
        return self.view_encoder.encode(state.view(seat), seat, out)


ENCODERS: dict[str, Callable[[Game], Encoder]] = {
    "myllymatti": MyllymattiEncoder,
    "mattis": MattisEncoder,
    "mueckenstich": MueckenstichEncoder,
}
"""The state encoder of each game; a game missing here gets :class:`ViewBasedEncoder`."""


def encoder_for(game: Game) -> Encoder:
    """The observation encoder of ``game`` (a state encoder where the game has one)."""
    return ENCODERS.get(game.name, ViewBasedEncoder)(game)


DOC_CONFIGS: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("myllymatti", 3, {}),
    ("mueckenstich", 4, {}),
    ("mattis", 3, {}),
)
"""The games (name, players, options) whose tables ``docs/observations.md`` shows."""


def document() -> str:
    """``docs/observations.md``: the feature table of each game, from the encoders."""
    doc = __doc__ or ""
    parts = [
        "# Observations\n",
        "Generated by `python -m tikki.interop.observations > docs/observations.md` "
        "from the encoders in `tikki/interop/observations.py`; do not edit by hand. "
        "`n` is the number of players; per-seat rows are relative to the observer "
        "(row 0 is the observer).\n",
        "```text\n" + doc.strip() + "\n```\n",
    ]
    for name, players, options in DOC_CONFIGS:
        enc = encoder_for(tikki.load(name, players, **options))
        kind = type(enc).__name__
        parts.append(f"## {name}, {players} players ({kind}, {enc.size} values)\n")
        parts.append(enc.table() + "\n")
    parts.append(
        "# Action ids\n\n"
        "The fixed action space of each game (`tikki.interop.encoding.ActionSpace`, shared by "
        "Gymnasium, PettingZoo and OpenSpiel): ids in order, grouped by move form. It depends "
        "on the game's options (runs, `max_sequence`), not on the number of players; "
        "`env.unwrapped.actions.to_text(id)` and `.to_id(text)` convert.\n"
    )
    for name, players, options in DOC_CONFIGS:
        space = encoder_for(tikki.load(name, players, **options)).actions
        parts.append(f"## {name} ({len(space)} actions)\n")
        parts.append(action_table(space) + "\n")
    return "\n".join(parts)


def _form(text: str) -> str:
    """The move form of an action text: ``card``, ``run``, a word, or ``word card/suit``."""
    if "+" in text:
        return "run (suit by suit, by lowest card, then length)"
    word, space, rest = text.partition(" ")
    if space:
        return f"{word} *{'suit' if len(rest) == 1 else 'card'}*"
    return "card" if any(ch.isdigit() for ch in text) or len(text) == 2 else text


def action_table(space: ActionSpace) -> str:
    """A Markdown table of ``space``: one row per run of ids of the same move form."""
    rows = ["| ids | move | texts |", "|---|---|---|"]
    texts = space.texts
    start = 0
    for i in range(1, len(texts) + 1):
        if i == len(texts) or _form(texts[i]) != _form(texts[start]):
            group = texts[start:i]
            ids = f"{start}" if len(group) == 1 else f"{start}–{i - 1}"
            shown = " ".join(f"`{t}`" for t in group)
            if len(group) > 14:
                shown = " ".join(f"`{t}`" for t in group[:6]) + " … " + f"`{group[-1]}`"
            rows.append(f"| {ids} | {_form(texts[start])} | {shown} |")
            start = i
    return "\n".join(rows)


if __name__ == "__main__":
    sys.stdout.write(document())

__all__ = [
    "ENCODERS",
    "Encoder",
    "Feature",
    "MattisEncoder",
    "MueckenstichEncoder",
    "MyllymattiEncoder",
    "ViewBasedEncoder",
    "document",
    "encoder_for",
]
