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
from collections.abc import Mapping
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


__all__ = [
    "JSON",
    "BaseView",
    "CardPlay",
    "GameView",
    "HistoryEntry",
    "LastTrick",
    "MatchOutcome",
    "Outcome",
    "SheddingOutcome",
    "SheddingView",
    "match_outcome",
    "shedding_outcome",
]
