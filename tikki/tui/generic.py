"""The fallback presenter: shows the common keys of any view."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tikki.i18n import _
from tikki.tui.common import cards
from tikki.tui.presenter import Hooks, Presenter


def render(view: Mapping[str, Any], names: Sequence[str]) -> RenderableType:
    """Hand sizes, the phase, and the seat's own hand."""
    table = Table(title=f"{view['game']} — " + _("phase {phase}", phase=view["phase"]))
    table.add_column(_("Seat"))
    table.add_column(_("Cards"), justify="right")
    for seat, size in enumerate(view.get("hand_sizes", [])):
        table.add_row(names[seat], str(size))
    hand = Text(_("Your hand: ")).append(cards(view.get("hand", [])))
    return Group(table, hand)


def explain(view: Mapping[str, Any], move: str) -> str:
    """A plain restatement of the move."""
    return _("play {move}", move=move)


PRESENTER: Presenter = Hooks(render=render, explain=explain)
"""The terminal hooks of this game (:class:`tikki.tui.presenter.Presenter`)."""
