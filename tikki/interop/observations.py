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

A game may declare a state encoder (its ``interop.encoder``, in
``tikki/interop/encoders/``; tikki's games all do).  A game without one gets
:class:`ViewBasedEncoder`,
the generic encoding of the JSON view (:class:`tikki.interop.encoding.ViewEncoder`) behind
the same interface: correct, but as slow as the view.

Card columns follow the order of the game's distinct card texts in ``game.deck()``, the
order of the adapters' card action ids.  Identical cards (a deck may hold two or three
copies of a card) share a column that counts them, divided by the copies.
"""

# ruff: noqa: E402  (the extra is checked before its imports)
from __future__ import annotations

from tikki.extras import require

require("gym", "the observation encoders (NumPy)", ("numpy",))

import importlib
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from tikki.core import Game, State, built_in, game_class, games, load
from tikki.interop import rows as listing
from tikki.interop.encoding import ActionSpace, ViewEncoder

Vector = npt.NDArray[np.float32]
Matrix = npt.NDArray[np.float32]
"""Rows of observations, one per state (``N × size``, C-contiguous)."""
Parts = tuple[list[int], list[int], list[float]]
"""An observation as a state encoder lists it: the positions that get one unit each, and
positions with a value of their own (see :class:`CardEncoder`)."""
ROWS_COMPILED = not str(listing.__file__).endswith(".py")
"""Whether :mod:`tikki.interop.rows` is compiled (the compiled build): then the masks'
lists come from there, else from the same loop in Python, faster there."""
Rows = tuple[list[int], list[int], list[float], list[int], list[int]]
"""Many observations as lists: ``(hits, at, values, hit_ends, at_ends)``, the lists of
:data:`Parts` joined, and where each observation's hits and values end
(:meth:`CardEncoder.rows_into`)."""


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

    def encode_batch(
        self, states: Sequence[State], seats: Sequence[int | None], out: Matrix
    ) -> Matrix:
        """Row ``i`` of ``out`` (``len(states) × size``) set to ``encode(states[i],
        seats[i])``, the same values; a state encoder writes every row in one NumPy call."""
        for i, (state, seat) in enumerate(zip(states, seats, strict=True)):
            self.encode(state, seat, out[i])
        return out

    def legal_ids(self, state: State) -> list[int]:
        """The action ids of the legal moves of the seat to act in ``state``."""
        return list(map(self.actions.index.__getitem__, state.legal_moves()))

    def legal_mask(self, state: State, seat: int, out: npt.NDArray[Any]) -> npt.NDArray[Any]:
        """``out`` set to the legal-action mask of ``seat`` (zeros when not its turn)."""
        out.fill(0)
        if state.current_player == seat:
            out.put(self.legal_ids(state), 1)
        return out

    def mask_batch(
        self,
        states: Sequence[State],
        out: npt.NDArray[Any],
        seats: Sequence[int | None] | None = None,
    ) -> npt.NDArray[Any]:
        """Row ``i`` of ``out`` (``len(states) × actions``, C-contiguous) set to the
        legal-action mask of the seat to act in ``states[i]`` (zeros for a finished game),
        in one NumPy call; ``seats``, when given, are the states' seats to act."""
        if not out.flags.c_contiguous:  # rows written one by one
            for i, state in enumerate(states):
                seat = state.current_player if seats is None else seats[i]
                self.legal_mask(state, -1 if seat is None else seat, out[i])
            return out
        out.fill(0)
        flat: list[int] = []
        counts: list[int] = []
        if ROWS_COMPILED:
            listed: Any = states if isinstance(states, list) else list(states)
            seated = None if seats is None else list(seats)
            listing.legal_rows(listed, seated, self.actions.index, flat, counts)
        else:  # the same lists, as Python lists them fastest
            get = self.actions.index.__getitem__
            for i, state in enumerate(states):
                seat = state.current_player if seats is None else seats[i]
                if seat is None:
                    counts.append(0)
                    continue
                moves = state.legal_moves()
                flat += map(get, moves)
                counts.append(len(moves))
        index = np.array(flat, np.intp)
        index += np.repeat(np.arange(len(states), dtype=np.intp) * out.shape[1], counts)
        out.reshape(-1)[index] = 1
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


class CardEncoder(Encoder):
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

    def parts(self, state: State, seat: int | None) -> Parts:
        """``seat``'s observation of ``state`` as lists: ``(hits, at, values)``.  Each
        encoder of tikki's games lists them; an older encoder that writes its vector in
        :meth:`encode` instead still works (batched row by row)."""
        raise NotImplementedError(f"{type(self).__name__} lists no parts: define encode()")

    def parts_into(
        self,
        state: State,
        seat: int | None,
        hits: list[int],
        at: list[int],
        values: list[float],
    ) -> None:
        """:meth:`parts` appended to ``hits``, ``at`` and ``values`` (an encoder may write
        them there directly, saving the batch a copy)."""
        h, a, v = self.parts(state, seat)
        hits += h
        at += a
        values += v

    def encode(self, state: State, seat: int | None, out: Vector | None = None) -> Vector:
        """Write ``seat``'s observation of ``state`` into ``out`` (or a new vector)."""
        hits, at, values = self.parts(state, seat)
        return self._fill(out, hits, at, values)

    def encode_batch(
        self, states: Sequence[State], seats: Sequence[int | None], out: Matrix
    ) -> Matrix:
        """Row ``i`` of ``out`` set to ``encode(states[i], seats[i])``: the rows' lists
        joined, then written in one call each (the same values as row by row)."""
        rows = len(states)
        listed = type(self).parts is not CardEncoder.parts
        if not listed or out.shape != (rows, self.size) or not out.flags.c_contiguous:
            return super().encode_batch(states, seats, out)
        hits: list[int] = []
        at: list[int] = []
        values: list[float] = []
        hit_ends: list[int] = []
        at_ends: list[int] = []
        self.rows_into(states, seats, (hits, at, values, hit_ends, at_ends))
        starts = np.arange(rows, dtype=np.intp) * self.size
        flat = out.reshape(-1)
        index = np.array(hits, np.intp)
        index += np.repeat(starts, np.diff(hit_ends, prepend=0))
        if self._binary:
            flat.fill(0.0)
            flat.put(index, 1.0)
        else:
            flat[:] = np.bincount(index, minlength=flat.size)
            out *= self.unit
        index = np.array(at, np.intp)
        index += np.repeat(starts, np.diff(at_ends, prepend=0))
        flat[index] = values
        return out

    def rows_into(self, states: Sequence[State], seats: Sequence[int | None], lists: Rows) -> None:
        """:meth:`parts_into` for each state by its seat, appended to ``lists``: ``(hits,
        at, values, hit_ends, at_ends)``, where ``hit_ends`` and ``at_ends`` get where each
        state's hits and values end (an encoder may list them all at once, e.g. compiled:
        :mod:`tikki.interop.rows`)."""
        hits, at, values, hit_ends, at_ends = lists
        into = self.parts_into
        for state, seat in zip(states, seats, strict=True):
            into(state, seat, hits, at, values)
            hit_ends.append(len(hits))
            at_ends.append(len(at))

    def _fill(
        self, out: Vector | None, hits: list[int], at: list[int], values: list[float]
    ) -> Vector:
        if out is None:
            out = np.zeros(self.size, np.float32)
        else:
            out.fill(0.0)
        if self._binary:
            out.put(hits, 1.0)
        else:
            out += np.bincount(hits, minlength=self.size)
            out *= self.unit
        for i, value in zip(at, values, strict=True):
            out[i] = value
        return out


def card_feature(name: str, rows: int, d: int, meaning: str) -> Feature:
    """A block of card columns, one row per seat (``rows``) or one."""
    shape = (d,) if rows == 1 else (rows, d)
    return Feature(name, shape, 0.0, 1.0, meaning)


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


def encoder_class(game: Game) -> Callable[[Game], Encoder]:
    """The encoder ``game`` declares (:attr:`tikki.core.InteropParts.encoder`,
    ``"module:Class"``), else :class:`ViewBasedEncoder`."""
    declared = game.interop.encoder
    if not declared:
        return ViewBasedEncoder
    module, _, name = declared.partition(":")
    found: Callable[[Game], Encoder] = getattr(importlib.import_module(module), name)
    return found


def encoder_for(game: Game) -> Encoder:
    """The observation encoder of ``game`` (a state encoder where the game has one)."""
    return encoder_class(game)(game)


DOC_CONFIGS: tuple[tuple[str, int, dict[str, Any]], ...] = tuple(
    (name, info["players"]["default"], {}) for name, info in games().items() if built_in(name)
)
"""The games (name, players, options) whose tables ``docs/observations.md`` shows: each of
tikki's own games at its default number of players (a plug-in documents its own)."""


def __getattr__(name: str) -> Any:
    """Each game's encoder class by its own name (``observations.<Class>Encoder``), read
    from the games' declarations."""
    if name.endswith("Encoder") and not name.startswith("_"):
        for game in games():
            declared = game_class(game).interop.encoder
            if declared.endswith(f":{name}"):
                module, _, attr = declared.partition(":")
                return getattr(importlib.import_module(module), attr)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def document() -> str:
    """``docs/observations.md``: the feature table of each game, from the encoders."""
    doc = __doc__ or ""
    parts = [
        "# Observations\n",
        "Generated by `python -m tikki.interop.observations > docs/observations.md` "
        "from the encoders in `tikki/interop/observations.py` and `tikki/interop/encoders/`; "
        "do not edit by hand. "
        "`n` is the number of players; per-seat rows are relative to the observer "
        "(row 0 is the observer).\n",
        "```text\n" + doc.strip() + "\n```\n",
    ]
    for name, players, options in DOC_CONFIGS:
        enc = encoder_for(load(name, players, **options))
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
        space = encoder_for(load(name, players, **options)).actions
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
    "CardEncoder",
    "Encoder",
    "Feature",
    "Matrix",
    "Parts",
    "Rows",
    "ViewBasedEncoder",
    "card_feature",
    "document",
    "encoder_class",
    "encoder_for",
]
