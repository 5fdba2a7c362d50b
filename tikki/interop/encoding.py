"""Fixed integer actions and fixed-size observation tensors for the tikki adapters.

Both adapters (OpenSpiel, PettingZoo) share this module, so an action id or an observation
means the same thing in both.  It uses only the public contract: ``game.deck()``,
``game.options``, ``game.players``, ``state.view(seat)`` and move texts.

Actions
-------
Learning and search libraries want a fixed, finite action space per game.  Enumerating the
moves seen in legal moves would depend on which games happened to be played, so the
space is built instead from the game's deck and its move grammar (docs/design.md: move texts):

1. every distinct card text of ``game.deck()``, in deck order: "play this card";
2. every run (sequence) of 2..``max_run`` consecutive cards of one suit, suit by suit in
   deck order, then by lowest card, then by length (``5H+6H``, ``5H+6H+7H``, ...);
3. the plain words of the game (``stock``, ``take``, ``pass``), in that order;
4. ``<word> <card>`` for each card word (``slough 7H``, ``discard 7R``) and card;
5. ``<word> <suit>`` for each suit word (``trump G``, ``double G``, ``drop G``) and suit.

Which runs and words a game has, the game declares: ``Game.move_grammar()`` (a function
of the game's options, e.g. runs only with an option that allows them, sequences at most
``max_sequence`` long), collected by name in :data:`GRAMMARS`.  A game missing
from the table gets :func:`fallback_grammar`: every word of the move grammar of
docs/design.md and runs up to a whole suit (a larger space, correct for any game whose moves
follow that grammar).
A legal move outside the space raises :class:`ActionSpaceError` saying where to declare it;
the tests play every registered game to make sure that never happens.

Suits are the last character of the card texts and "consecutive" is the order of the
distinct cards of a suit in ``game.deck()`` (rank order for the French and the colour
decks).

Observations
------------
:class:`ViewEncoder` turns ``view(seat)`` into one flat ``float32`` vector, built
generically from the JSON of the view (the only thing a seat may know):

* ``phase``: one-hot of ``crc32(phase) % 32`` (stable across runs and machines);
* ``to_act``: one-hot of the seat to act *relative to the observer* (index ``n``: nobody);
* ``hand``: count of each distinct card in the observer's hand;
* ``legal``: the legal-action mask of the observer (zeros when it is not his turn);
* ``played``: ``n × D`` counts of the cards each seat (relative) named in its moves,
  from the view's ``history`` (cards played, turned from the stock, sloughed, ...);
* ``fields``: ``K × (n + 1) × (D + 1)``, one block per top-level key of the view (the
  keys of the game's initial view, sorted, less the ones above and the constant ``game``,
  ``players``, ``options``, ``seat``).  Row ``r < n`` is the seat ``r`` places after the
  observer, row ``n`` is "no seat".  Columns ``0..D-1`` count the cards found in the
  key's value (card texts, also inside runs and ``"slough 7H"``-like texts; a bare suit
  such as a trump counts every card of that suit); column ``D`` holds the key's number
  (or bool).  A top-level list of length ``n`` is per seat (item ``i`` goes to seat
  ``i``'s row); inside a value a dict with an int ``"seat"`` puts what it holds on that
  seat's row.  Numbers are raw (``stock_size`` 31, ``max_moves`` 2000); ``None`` is 0.

Views stay JSON; the encoding is meant as a reasonable generic default, not a tuned
feature set.  The strings of the OpenSpiel adapter (:func:`canonical_json`) are exact.
"""

# ruff: noqa: E402  (the extra is checked before its imports)
from __future__ import annotations

from tikki.extras import require

require("gym", "the observation encoders (NumPy)", ("numpy",))

import json
import zlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from tikki.core import Game, MoveGrammar, game_class, games

PHASE_BUCKETS = 32
"""Size of the phase one-hot (``crc32(phase) % PHASE_BUCKETS``)."""
META_KEYS = frozenset(
    {
        "game",
        "players",
        "options",
        "seat",
        "phase",
        "to_act",
        "hand",
        "legal_moves",
        "history",
        "scoring_choice",
    }
)
"""Top-level view keys that are not part of the ``fields`` block (``scoring_choice``, the
figures of a double and drop, follows from the piles that are encoded)."""
OBS_BOUND = 1e6
"""Bound of every observation value (PettingZoo ``Box`` limits)."""


class ActionSpaceError(ValueError):
    """A move text that the adapter's fixed action space does not hold."""


Grammar = MoveGrammar
"""Which move forms a game has, besides playing a single card (:class:`tikki.core.MoveGrammar`)."""


def fallback_grammar(game: Game) -> Grammar:
    """Every form of the move grammar of docs/design.md, runs up to a whole suit (for unknown
    games): the default of :meth:`Game.move_grammar`."""
    return Game.move_grammar(game)


GRAMMARS: dict[str, Callable[[Game], Grammar]] = {
    name: game_class(name).move_grammar for name in games()
}
"""The move grammar of each registered game, its ``move_grammar`` (a function of the game,
its options)."""


def _distinct(deck: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(deck))


def _suits(cards: Sequence[str]) -> dict[str, list[str]]:
    suits: dict[str, list[str]] = {}
    for card in cards:
        suits.setdefault(card[-1], []).append(card)
    return suits


class ActionSpace:
    """The fixed, ordered list of every move text of one game (see the module notes)."""

    def __init__(self, game: Game) -> None:
        self.cards = _distinct(game.deck())
        self.suits = _suits(self.cards)
        make = GRAMMARS.get(game.name)
        # a game registered after this module was imported (a plug-in put on the path
        # later) declares its grammar all the same
        self.grammar = make(game) if make is not None else game.move_grammar()
        texts = list(self.cards)
        for cards in self.suits.values():
            for start in range(len(cards)):
                for length in range(2, self.grammar.max_run + 1):
                    if start + length <= len(cards):
                        texts.append("+".join(cards[start : start + length]))
        texts.extend(self.grammar.words)
        texts.extend(f"{w} {c}" for w in self.grammar.card_words for c in self.cards)
        texts.extend(f"{w} {s}" for w in self.grammar.suit_words for s in self.suits)
        texts.extend(self.grammar.number_moves())
        self.game_name = game.name
        self.texts: tuple[str, ...] = tuple(texts)
        self.index: dict[str, int] = {t: i for i, t in enumerate(self.texts)}

    def __len__(self) -> int:
        return len(self.texts)

    def to_id(self, move: str) -> int:
        """The action id of a canonical move text."""
        try:
            return self.index[move]
        except KeyError:
            raise ActionSpaceError(
                f"move {move!r} of {self.game_name} is outside the adapter's action space: "
                "declare it in the game's move_grammar() (tikki.interop.encoding.GRAMMARS)"
            ) from None

    def to_text(self, action: int) -> str:
        """The move text of an action id."""
        if not 0 <= action < len(self.texts):
            raise ActionSpaceError(f"action {action} is not in 0..{len(self.texts) - 1}")
        return self.texts[action]

    def legal_ids(self, moves: Sequence[str]) -> list[int]:
        """Sorted action ids of some legal move texts."""
        return sorted(self.to_id(m) for m in moves)


def canonical_json(value: Any) -> str:
    """Compact JSON with sorted keys: the same view always gives the same text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class ViewEncoder:
    """Fixed-size float vectors from views of one game (see the module notes)."""

    def __init__(self, game: Game, actions: ActionSpace) -> None:
        self.players = n = game.players
        self.actions = actions
        self.cards = actions.cards
        self.card_index = {c: i for i, c in enumerate(self.cards)}
        self.suit_cards = {s: [self.card_index[c] for c in cs] for s, cs in actions.suits.items()}
        sample = game.new_state(seed=0).view(0)
        self.keys: tuple[str, ...] = tuple(sorted(k for k in sample if k not in META_KEYS))
        d = len(self.cards)
        self.pieces: list[tuple[str, tuple[int, ...]]] = [
            ("phase", (PHASE_BUCKETS,)),
            ("to_act", (n + 1,)),
            ("hand", (d,)),
            ("legal", (len(actions),)),
            ("played", (n, d)),
            ("fields", (len(self.keys), n + 1, d + 1)),
        ]
        self.size = sum(int(np.prod(shape)) for _, shape in self.pieces)
        self._offsets: dict[str, int] = {}
        at = 0
        for name, shape in self.pieces:
            self._offsets[name] = at
            at += int(np.prod(shape))
        self._memo: dict[str, tuple[int, ...]] = {}
        self._history_cache: dict[int, tuple[list[Any], list[int]]] = {}

    def empty(self) -> npt.NDArray[np.float32]:
        """A zero vector of the right size."""
        return np.zeros(self.size, np.float32)

    def split(self, flat: npt.NDArray[np.float32]) -> dict[str, npt.NDArray[np.float32]]:
        """Named, reshaped views into ``flat`` (which they share memory with)."""
        out: dict[str, npt.NDArray[np.float32]] = {}
        at = 0
        for name, shape in self.pieces:
            size = int(np.prod(shape))
            out[name] = flat[at : at + size].reshape(shape)
            at += size
        return out

    def encode(
        self,
        view: Mapping[str, Any],
        observer: int | None,
        out: npt.NDArray[np.float32] | None = None,
    ) -> npt.NDArray[np.float32]:
        """Encode ``view`` (the view of seat ``observer``, or the public view) into ``out``."""
        n, d = self.players, len(self.cards)
        base = 0 if observer is None else observer
        at = self._offsets
        hits: list[int] = []  # one entry per +1 (card counts, one-hots)
        numbers: list[tuple[int, float]] = []  # (index, value) for the number columns
        phase = zlib.crc32(str(view.get("phase")).encode()) % PHASE_BUCKETS
        hits.append(at["phase"] + phase)
        to_act = view.get("to_act")
        hits.append(at["to_act"] + (n if to_act is None else (to_act - base) % n))
        hits.extend(self._at(at["hand"], card) for card in view.get("hand") or ())
        legal, to_id = at["legal"], self.actions.to_id
        hits.extend(legal + to_id(move) for move in view.get("legal_moves") or ())
        hits.extend(self._played(view.get("history") or [], base))
        off = at["fields"]
        block, width = (n + 1) * (d + 1), d + 1
        for k, key in enumerate(self.keys):
            value = view.get(key)
            start = off + k * block
            if isinstance(value, list) and len(value) == n:
                for seat, item in enumerate(value):
                    row = start + ((seat - base) % n) * width
                    self._value(item, start, row, base, True, hits, numbers)
            else:
                self._value(value, start, start + n * width, base, True, hits, numbers)
        counts = np.bincount(np.asarray(hits, np.intp), minlength=self.size)
        if out is None:
            out = counts.astype(np.float32)
        else:
            out[:] = counts
        for index, number in numbers:
            out[index] = number
        return out

    def _played(self, history: list[Any], base: int) -> list[int]:
        """Positions of the ``played`` counts; reuses the last result for the same observer
        when the history only grew since (checked by comparing the prefix, in C)."""
        cached = self._history_cache.get(base)
        if cached is not None and len(history) >= len(cached[0]):
            old, hits = cached
            if history[: len(old)] == old:
                start = len(old)
            else:
                start, hits = 0, []
        else:
            start, hits = 0, []
        if start < len(history) or cached is None:
            hits = list(hits)
            n, d, played, ids = self.players, len(self.cards), self._offsets["played"], self._hits
            for entry in history[start:]:
                row = played + ((entry["seat"] - base) % n) * d
                hits.extend(ids(row, entry.get("move", "")))
                card = entry.get("card")
                if isinstance(card, str):
                    hits.extend(ids(row, card))
            self._history_cache[base] = (list(history), hits)
        return hits

    def _at(self, row: int, card: str) -> int:
        return row + self.card_index[card]

    def _hits(self, row: int, text: str) -> list[int]:
        """Positions ``row + i`` of the cards ``i`` named in a text."""
        found = self._memo.get(text)
        if found is None:
            found = self._card_ids(text)
        return [row + i for i in found]

    def _card_ids(self, text: str) -> tuple[int, ...]:
        """The cards named in a text (cards, runs, ``slough 7H``; a bare suit: all its
        cards), memoised."""
        found = self._memo.get(text)
        if found is None:
            ids: list[int] = []
            for token in text.replace("+", " ").split():
                i = self.card_index.get(token)
                if i is not None:
                    ids.append(i)
                else:
                    ids.extend(self.suit_cards.get(token, ()))
            found = self._memo[text] = tuple(ids)
        return found

    def _value(
        self,
        value: Any,
        start: int,
        row: int,
        base: int,
        top: bool,
        hits: list[int],
        numbers: list[tuple[int, float]],
    ) -> None:
        """Add what ``value`` holds to the block at ``start``, on the row starting at ``row``."""
        if isinstance(value, str):
            hits.extend(self._hits(row, value))
        elif isinstance(value, bool | int | float):
            if top:
                number = max(-OBS_BOUND, min(OBS_BOUND, float(value)))
                numbers.append((row + len(self.cards), number))
        elif isinstance(value, list | tuple):
            memo, card_ids = self._memo, self._card_ids
            for item in value:
                kind = type(item)
                if kind is str:
                    found = memo.get(item)
                    if found is None:
                        found = card_ids(item)
                    if found:
                        hits.extend([row + i for i in found])
                elif kind is list or kind is tuple:
                    for sub in item:
                        sub_kind = type(sub)
                        if sub_kind is str:
                            found = memo.get(sub)
                            if found is None:
                                found = card_ids(sub)
                            if found:
                                hits.extend([row + i for i in found])
                        elif sub_kind is list or sub_kind is tuple or sub_kind is dict:
                            self._value(sub, start, row, base, False, hits, numbers)
                elif kind is dict:
                    self._value(item, start, row, base, False, hits, numbers)
        elif isinstance(value, Mapping):
            seat = value.get("seat")
            n = self.players
            if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n:
                row = start + ((seat - base) % n) * (len(self.cards) + 1)
            for item in value.values():
                self._value(item, start, row, base, False, hits, numbers)
