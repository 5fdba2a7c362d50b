"""The fallback presenter of a game that ships none: the table drawn from the keys every
view has (:class:`tikki.views.BaseView`) and the common optional ones.

Seats with their hand sizes, won cards (``piles``), ``scores`` and the public facts the
game declares (:attr:`tikki.core.Game.seat_facts`: bids, tricks taken); the stock, the trump,
the trick in progress (``trick`` as ``[{"seat", "card"}]``) and the last trick; the seat's
own hand and its numbered legal moves.  A key a view lacks is left out, so any game whose
moves follow the move grammar plays in the terminal with no presenter of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tikki.core import RulesError, game_class, move_title
from tikki.i18n import _
from tikki.tui.common import (
    card,
    card_count,
    cards,
    hand_and_moves,
    move_text,
    phase_word,
    winners_line,
)
from tikki.tui.presenter import Hooks, Presenter


def _title(view: Mapping[str, Any]) -> str:
    """The game's title and its phase: ``Tricklet · playing tricks``; the phase by the
    game's declaration (:attr:`tikki.core.Game.phase_titles`, in its own translations),
    else tikki's word for it, else its name; an unregistered game by its name."""
    phase = str(view["phase"])
    try:
        cls = game_class(view["game"])
    except RulesError:
        return f"{view['game']} · {phase_word(phase)}"
    title = cls.phase_titles.get(phase)
    return f"{cls.title} · {cls.translate(title) if title else phase_word(phase)}"


def _plays(value: Any) -> list[Mapping[str, Any]]:
    """A trick as a list of ``{"seat", "card"}`` plays (another shape: nothing)."""
    if isinstance(value, Mapping):
        value = value.get("cards", value.get("plays"))
    if not isinstance(value, list):
        return []
    return [p for p in value if isinstance(p, Mapping) and "seat" in p and "card" in p]


def _seats(view: Mapping[str, Any], names: Sequence[str]) -> Table:
    """One row a seat: who, the cards in hand, the cards won, the score."""
    table = Table(title=_title(view), title_justify="left", expand=False)
    table.add_column(_("Seat"))
    table.add_column(_("Hand"), justify="right")
    piles = view.get("piles") or []
    scores = view.get("scores") if isinstance(view.get("scores"), list) else None
    if piles:
        table.add_column(_("Pile"), justify="right")
    if scores is not None:
        table.add_column(_("Points"), justify="right")
    facts = _facts(view)
    for title, _values in facts:
        table.add_column(title, justify="right")
    for seat, size in enumerate(view["hand_sizes"]):
        acting = seat == view["to_act"]
        row: list[str | Text] = [
            Text(("▶ " if acting else "  ") + names[seat], style="bold" if acting else ""),
            str(size),
        ]
        if piles:
            row.append(card_count(len(piles[seat])))
        if scores is not None:
            row.append(str(scores[seat]))
        row.extend("–" if values[seat] is None else str(values[seat]) for _t, values in facts)
        table.add_row(*row)
    return table


def _facts(view: Mapping[str, Any]) -> list[tuple[str, list[Any]]]:
    """The per-seat public facts the game declares (:attr:`tikki.core.Game.seat_facts`):
    each one's title, in the game's own translations, and its values by seat; a fact the
    view lacks (or holds in another shape) is left out."""
    try:
        cls = game_class(view["game"])
    except RulesError:
        return []
    out = []
    for key, title in cls.seat_facts.items():
        values = view.get(key)
        if isinstance(values, list) and len(values) == len(view["hand_sizes"]):
            out.append((cls.translate(title), values))
    return out


def _table_line(view: Mapping[str, Any], names: Sequence[str]) -> Text | None:
    """The stock and the trump, the trick in progress and the last trick."""
    parts: list[Text] = []
    if view.get("stock_size"):
        parts.append(Text(_("Stock: {cards}", cards=card_count(view["stock_size"]))))
    if view.get("trump"):
        parts.append(Text(_("Trump: ")).append(card(str(view["trump"]))))
    trick = _plays(view.get("trick"))
    line = Text(_("Trick") + ": ")
    for i, play in enumerate(trick):
        line.append(("  " if i else "") + f"{names[play['seat']]} ").append(card(play["card"]))
    parts.append(line if trick else line.append("—"))
    last = view.get("last_trick")
    if isinstance(last, Mapping) and last.get("winner") is not None:
        shown = Text(_("Last trick to {name}: ", name=names[last["winner"]]))
        parts.append(shown.append(cards(p["card"] for p in _plays(last))))
    if not parts:
        return None
    out = Text()
    for i, part in enumerate(parts):
        out.append("\n" if i else "").append(part)
    return out


def render(view: Mapping[str, Any], names: Sequence[str]) -> RenderableType:
    """The seats, the table (stock, trump, tricks) and the seat's hand with its moves."""
    line = _table_line(view, names)
    parts: list[RenderableType] = [_seats(view, names)]
    if line is not None:
        parts.append(line)
    parts.append(hand_and_moves(view))
    return Group(*parts)


def explain(view: Mapping[str, Any], move: str) -> str:
    """A plain restatement of the move: the game's name for it (its declared
    :attr:`~tikki.core.Game.move_titles`, in its own translations), else ``play MOVE``."""
    try:
        cls = game_class(view["game"])
    except RulesError:
        return _("play {move}", move=move)
    return move_title(cls, move) or _("play {move}", move=move)


def result(view: Mapping[str, Any], names: Sequence[str]) -> RenderableType | None:
    """The final table with each seat's points, and who has the most; ``None`` for a game
    without ``scores`` in its view (the loop prints the outcome)."""
    scores = view.get("scores")
    if not isinstance(scores, list) or not scores:
        return None
    line = winners_line(scores, names)
    return Group(_seats(view, names), Text(line, style="bold green"))


PRESENTER: Presenter = Hooks(render=render, explain=explain, result=result)
"""The terminal hooks of any game without its own presenter (:class:`Presenter`)."""

__all__ = ["PRESENTER", "explain", "move_text", "render", "result"]
