"""What the terminal asks of a game's presenter: the :class:`Presenter` protocol.

Each game's presenter module (``tikki.tui.<game name>``) declares ``PRESENTER``, an object
with every hook of :class:`Presenter`; :class:`Hooks` builds one from functions and gives
the optional hooks their defaults, so a presenter writes only what its game needs. The
game loop and ``tikki replay`` call the hooks directly: nothing is looked up by name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from rich.console import RenderableType
from rich.text import Text

from tikki.tui import common


class Presenter(Protocol):
    """A game's terminal presenter. Presenters see only views, never states."""

    def render(self, view: Mapping[str, Any], names: Sequence[str]) -> RenderableType:
        """The table as the view's seat sees it."""
        ...

    def explain(self, view: Mapping[str, Any], move: str) -> str:
        """What a legal move would do (the ``help`` command)."""
        ...

    def event(self, entry: Mapping[str, Any], names: Sequence[str]) -> Text:
        """One history entry as a sentence."""
        ...

    def result(self, view: Mapping[str, Any], names: Sequence[str]) -> RenderableType | None:
        """The end of the game; ``None``: the loop prints the outcome as it is."""
        ...

    def pile(self, view: Mapping[str, Any]) -> RenderableType:
        """The seat's own pile (the ``pile`` command)."""
        ...

    def table_view(self, view: dict[str, Any], memory_aids: bool) -> dict[str, Any]:
        """The view as the table shows it (a game may hide some public history)."""
        ...

    def round_scored(
        self,
        history: Sequence[Mapping[str, Any]],
        index: int,
        view: Mapping[str, Any],
        names: Sequence[str],
    ) -> list[RenderableType]:
        """After the ``round`` event of ``history[index]``: how the scores came about."""
        ...

    def score_sheet(self, view: Mapping[str, Any], names: Sequence[str]) -> RenderableType | None:
        """The score sheet between rounds; ``None``: the game has none."""
        ...


def _no_result(view: Mapping[str, Any], names: Sequence[str]) -> RenderableType | None:
    """No result panel: the loop prints the outcome."""
    return None


def _whole_view(view: dict[str, Any], memory_aids: bool) -> dict[str, Any]:
    """The whole view: nothing is hidden from the table."""
    return view


def _no_breakdown(
    history: Sequence[Mapping[str, Any]],
    index: int,
    view: Mapping[str, Any],
    names: Sequence[str],
) -> list[RenderableType]:
    """No round breakdown."""
    return []


def _no_sheet(view: Mapping[str, Any], names: Sequence[str]) -> RenderableType | None:
    """No score sheet."""
    return None


@dataclass(frozen=True)
class Hooks:
    """A presenter made of functions: ``render`` and ``explain`` are required, the other
    hooks default to the generic behaviour (a presenter module builds its ``PRESENTER``
    from its own functions: ``Hooks(render=render, explain=explain, result=result)``)."""

    render: Callable[[Mapping[str, Any], Sequence[str]], RenderableType]
    explain: Callable[[Mapping[str, Any], str], str]
    event: Callable[[Mapping[str, Any], Sequence[str]], Text] = common.event_sentence
    result: Callable[[Mapping[str, Any], Sequence[str]], RenderableType | None] = _no_result
    pile: Callable[[Mapping[str, Any]], RenderableType] = common.pile
    table_view: Callable[[dict[str, Any], bool], dict[str, Any]] = _whole_view
    round_scored: Callable[
        [Sequence[Mapping[str, Any]], int, Mapping[str, Any], Sequence[str]], list[RenderableType]
    ] = _no_breakdown
    score_sheet: Callable[[Mapping[str, Any], Sequence[str]], RenderableType | None] = _no_sheet


__all__ = ["Hooks", "Presenter"]
