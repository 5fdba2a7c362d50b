"""The shapes of the games' views and outcomes, as ``TypedDict``\\ s.

The engine hands out plain JSON-ready dicts (``State.view(seat)``, ``State.outcome``;
docs/design.md); this module says what is in them, for the code that reads them (the terminal,
the server, the command line) and for a newcomer. ``tests/test_views_types.py`` checks
every key against the engine's real views, so the shapes cannot drift from the games.

Values that each game describes in its own module (a trick, an event, the facts) stay
``Any`` here; ``docs/events.md`` and ``docs/protocol.md`` describe them.
"""

# No ``from __future__ import annotations`` here: TypedDict reads ``NotRequired`` from the
# evaluated annotations (as strings, Python 3.11 would take every key as required).
from collections.abc import Callable, ItemsView, Iterator, KeysView, Mapping, ValuesView
from typing import Any, NotRequired, TypedDict, cast

JSON = dict[str, Any]
"""A JSON-ready dictionary (what views, outcomes, events and records are made of)."""

# --- the parts every view shares ------------------------------------------------------


class CardPlay(TypedDict):
    """One card a seat put into a trick."""

    seat: int
    card: str


class LastTrick(TypedDict):
    """The trick that last left the table."""

    winner: int | None
    cards: list[CardPlay]
    kind: NotRequired[str]
    """``trick``, ``falls`` or ``void_tie`` (the shedding games)."""
    move: NotRequired[int]
    """The move that finished it (the shedding games)."""


class HistoryEntry(TypedDict):
    """One move of the history as a seat sees it."""

    seat: int | None
    move: str
    events: NotRequired[list[dict[str, Any]]]
    """What the move did (``docs/events.md``)."""
    card: NotRequired[str]
    """The card a ``stock`` move turned, or a draw the seat may see."""


class BaseView(TypedDict):
    """The keys of every game's view (docs/design.md: views)."""

    game: str
    players: int
    seat: int | None
    phase: str
    to_act: int | None
    legal_moves: list[str]
    hand: list[str]
    hand_sizes: list[int]
    history: list[HistoryEntry]
    options: dict[str, Any]
    piles: list[Any]
    stock_size: int
    trump: str | None
    last_trick: LastTrick | None


class SheddingView(BaseView):
    """The keys the shedding games share (a collecting phase, then shedding)."""

    abandoned: bool
    fallen: list[str]
    hands: list[list[str]] | None
    """Every hand, once the hands are public (phase 2), else ``None``."""
    last_winner: int | None
    loser: int | None
    max_moves: int
    move_count: int
    out_order: list[int]
    trick: dict[str, Any]


GameView = BaseView
"""Any game's view: the keys every game shares.  Each game declares its own view type
(:attr:`tikki.core.Game.view_type`) in its own module; :func:`tikki.core.view_types`
lists them by game."""


# --- outcomes ----------------------------------------------------------------------------


class SheddingOutcome(TypedDict):
    """The outcome of a shedding game: who went out in which order, and the loser."""

    loser: int | None
    out_order: list[int]
    abandoned: bool
    returns: list[float]


class MatchOutcome(TypedDict):
    """The outcome of a match of scored rounds: the totals, each round's scores, the
    winners."""

    scores: list[int]
    rounds: list[list[int]]
    winners: list[int]
    abandoned: bool
    returns: list[float]


Outcome = SheddingOutcome | MatchOutcome
"""Any game's outcome."""


def match_outcome(outcome: Mapping[str, Any] | None) -> MatchOutcome | None:
    """``outcome`` as a match's outcome if it is one (it has ``scores``), else ``None``.

    >>> match_outcome({"scores": [3, 1], "rounds": [[3, 1]], "winners": [0],
    ...                "abandoned": False, "returns": [1.0, -1.0]})["winners"]
    [0]
    >>> match_outcome({"loser": 1, "out_order": [0], "abandoned": False, "returns": []})
    """
    if outcome is None or "scores" not in outcome:
        return None
    return cast(MatchOutcome, outcome)


def shedding_outcome(outcome: Mapping[str, Any] | None) -> SheddingOutcome | None:
    """``outcome`` as a shedding game's outcome if it is one (it has ``out_order``).

    >>> shedding_outcome({"loser": 1, "out_order": [0], "abandoned": False,
    ...                   "returns": [1.0, -1.0]})["loser"]
    1
    >>> shedding_outcome(None)
    """
    if outcome is None or "out_order" not in outcome:
        return None
    return cast(SheddingOutcome, outcome)


# --- the view's dict ------------------------------------------------------------------


Lazy = tuple[Callable[[Any, tuple[str, ...] | None, int], Any], Any, int, tuple[str, ...]]
"""How a :class:`LazyView` makes its lazy parts: ``(make, seat, moves, order)``, the
parts ``make(seat, keys, moves)`` (a list of the values of ``keys`` as they stood after
``moves`` moves; for ``keys=None`` the whole view, a dict with every key in its order,
its lazy parts built), ``order`` every key of the view in its order."""


class LazyView(dict[str, Any]):
    """A view as the engine hands it out: a plain JSON-ready ``dict`` whose costlier parts
    (a game's ``LAZY_VIEW_KEYS``: the history, the trick, the hand sizes, …) are computed
    when first read.

    The keys that every reader wants (``seat``, ``to_act``, ``hand``, ``legal_moves``, the
    parts shared between views) are in the dict from the start; ``view[key]``,
    ``view.get(key)`` and ``key in view`` of a lazy key compute it then (``make(seat,
    key, moves)``: the state's part as it stood after ``moves`` moves, whatever was played
    since) and keep it.  Anything that reads the view whole (iterating, ``len``,
    ``items()``, ``==``, ``json.dumps``, a copy, ``repr``, pickling) or changes it first
    computes every lazy part and puts the keys in their order: the view is then exactly
    the dict an eager build gives.  A lazy part is built from the state's caches: read a
    view in the thread that asked for it, or hand on ``dict(view)``.
    """

    __slots__ = ("_lazy",)

    _lazy: Lazy | None
    """How the lazy parts are made (:data:`Lazy`), ``None`` once there are none left."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        dict.__init__(self, *args, **kwargs)
        self._lazy = None

    def __missing__(self, key: str) -> Any:
        lazy = self._lazy
        if lazy is None or key not in lazy[3]:
            raise KeyError(key)
        value = lazy[0](lazy[1], (key,), lazy[2])[0]
        dict.__setitem__(self, key, value)
        return value

    def complete(self) -> None:
        """Compute every lazy part now and put the keys in their order (a plain dict's
        contents from then on)."""
        lazy = self._lazy
        if lazy is None:
            return
        self._lazy = None
        whole = lazy[0](lazy[1], None, lazy[2])
        whole.update(dict.items(self))
        dict.clear(self)
        dict.update(self, whole)

    def get(self, key: str, default: Any = None) -> Any:
        """``view[key]`` (a lazy part computed), or ``default`` where there is no such key."""
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key: object) -> bool:
        lazy = self._lazy
        return dict.__contains__(self, key) or (lazy is not None and key in lazy[3])

    def __iter__(self) -> Iterator[str]:
        self.complete()
        return dict.__iter__(self)

    def __reversed__(self) -> Iterator[str]:
        self.complete()
        return dict.__reversed__(self)

    def __len__(self) -> int:
        self.complete()
        return dict.__len__(self)

    def keys(self) -> KeysView[str]:  # type: ignore[override]
        """The keys, in their order (every lazy part computed)."""
        self.complete()
        return dict.keys(self)

    def values(self) -> ValuesView[Any]:  # type: ignore[override]
        """The values (every lazy part computed)."""
        self.complete()
        return dict.values(self)

    def items(self) -> ItemsView[str, Any]:  # type: ignore[override]
        """The items, in order (every lazy part computed)."""
        self.complete()
        return dict.items(self)

    def copy(self) -> dict[str, Any]:
        """A plain ``dict`` of the whole view."""
        self.complete()
        return dict.copy(self)

    def __eq__(self, other: object) -> bool:
        self.complete()
        if isinstance(other, LazyView):
            other.complete()
        return dict.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None

    def __repr__(self) -> str:
        self.complete()
        return dict.__repr__(self)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled and copied as the plain dict it stands for."""
        return (dict, (self.copy(),))

    def __or__(self, other: Any) -> Any:
        self.complete()
        return dict.__or__(self, other)

    def __ror__(self, other: Any) -> Any:
        self.complete()
        return dict.__ror__(self, other)

    def __ior__(self, other: Any) -> "LazyView":  # type: ignore[override]
        self.complete()
        dict.update(self, other)
        return self

    def __setitem__(self, key: str, value: Any) -> None:
        self.complete()
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: str) -> None:
        self.complete()
        dict.__delitem__(self, key)

    def pop(self, key: str, *default: Any) -> Any:
        """``dict.pop`` of the whole view."""
        self.complete()
        return dict.pop(self, key, *default)

    def popitem(self) -> tuple[str, Any]:
        """``dict.popitem`` of the whole view."""
        self.complete()
        return dict.popitem(self)

    def setdefault(self, key: str, default: Any = None) -> Any:
        """``dict.setdefault`` of the whole view."""
        self.complete()
        return dict.setdefault(self, key, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        """``dict.update`` of the whole view."""
        self.complete()
        dict.update(self, *args, **kwargs)

    def clear(self) -> None:
        """``dict.clear``."""
        self._lazy = None
        dict.clear(self)


_ABSENT: Any = object()

_NEW = LazyView.__new__
_UPDATE = dict.update


def lazy_view(known: Mapping[str, Any], lazy: Lazy) -> LazyView:
    """A :class:`LazyView` of ``known`` (the keys that are there from the start) whose
    other keys ``lazy`` makes when read (the view's ``__init__`` is skipped: a hot path)."""
    view = _NEW(LazyView)
    _UPDATE(view, known)
    view._lazy = lazy
    return view


__all__ = [
    "JSON",
    "BaseView",
    "CardPlay",
    "GameView",
    "HistoryEntry",
    "LastTrick",
    "Lazy",
    "LazyView",
    "MatchOutcome",
    "Outcome",
    "SheddingOutcome",
    "SheddingView",
    "lazy_view",
    "match_outcome",
    "shedding_outcome",
]
