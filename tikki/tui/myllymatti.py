"""Terminal presenter for Myllymatti: the table as one seat sees it, and move help."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tikki.cards import card_word
from tikki.i18n import _
from tikki.tui.common import (
    card,
    card_count,
    cards,
    hand_and_moves,
    move_text,
    seat_label,
    shed_result,
    shed_trick,
)
from tikki.tui.presenter import Hooks, Presenter


def _name(text: str) -> str:
    return card_word(text)


def render(view: Mapping[str, Any], names: Sequence[str]) -> RenderableType:
    """Seats, stock, trump, the trick and the seat's hand."""
    collecting = view["phase"] == "collect" or view["hands"] is None
    return Group(
        _seats(view, names, collecting),
        _table_line(view, names),
        _trick(view, names),
        hand_and_moves(view),
    )


def _seats(view: Mapping[str, Any], names: Sequence[str], collecting: bool) -> Table:
    phase = _("phase 1 — collecting") if collecting else _("phase 2 — shedding")
    table = Table(title=f"Myllymatti · {phase}", title_justify="left", expand=False)
    table.add_column(_("Seat"))
    table.add_column(_("Hand"), justify="right")
    table.add_column(_("Pile") if collecting else _("Cards (public)"))
    for seat, size in enumerate(view["hand_sizes"]):
        who = seat_label(view, names, seat, "MYLLYMATTI")
        if collecting:
            pile = view["piles"][seat]
            table.add_row(who, str(size), card_count(len(pile)))
        else:
            table.add_row(who, str(size), cards(view["hands"][seat]))
    return table


def _table_line(view: Mapping[str, Any], names: Sequence[str]) -> Text:
    line = Text()
    if view["hands"] is None:
        line.append(_("Stock: {cards}", cards=card_count(view["stock_size"])))
        owner = view["aside_owner"]
        if owner is not None:
            line.append(" · " + _("set-aside trump card: {name} (unseen)", name=names[owner]))
    else:
        line.append(_("Trump: "))
        line.append(card(view["aside_card"] or "?"))
        line.append(" · " + _("cards out of the game: {n}", n=len(view["fallen"])))
    return line


def _trick(view: Mapping[str, Any], names: Sequence[str]) -> RenderableType:
    trick = view["trick"]
    if trick["kind"] == "shed":
        body = shed_trick(trick, names)
        if _own_top(view):
            body.append(
                "\n"
                + _(
                    "The card to beat is your own: after a take the next player must beat "
                    "the card now on top, even his own, or take."
                ),
                style="yellow",
            )
        return Panel(body, title=_("Trick"), expand=False)
    body = Text()
    for entry in trick["cards"]:
        body.append(f"{names[entry['seat']]}: ")
        body.append(card(entry["card"]))
        if entry["stock"]:
            body.append(" " + _("(from the stock)"))
        body.append("\n")
    kina = len(trick["cards"]) > trick["round_played"]
    players = ", ".join(names[s] for s in trick["round"])
    body.append(
        _("Kina between {players}", players=players)
        if kina
        else _("Playing: {players}", players=players)
    )
    title = _("Duel") if trick["kind"] == "duel" else _("Trick")
    return Panel(body, title=title, expand=False)


def explain(view: Mapping[str, Any], move: str) -> str:
    """What the legal ``move`` would do, in words."""
    collecting = view["hands"] is None
    if move == "stock":
        return _("turn the top card of the stock into the duel (you draw nothing)")
    if move == "take":
        return _("pick up {what} and pass the turn", what=_take_target(view))
    parts = move.split("+")
    if len(parts) > 1:
        return _(
            "play the run {cards} (one play; it beats with its lowest card)", cards=" ".join(parts)
        )
    card_name = _name(move)
    if collecting:
        if view["stock_size"] > 1:
            return _("play the {card} and draw a card", card=card_name)
        if view["stock_size"] == 1:
            return _(
                "play the {card} and set the last stock card aside (the trump card)",
                card=card_name,
            )
        return _("play the {card}", card=card_name)
    plays = view["trick"]["plays"]
    if not plays:
        return _("play the {card} to lead a new trick", card=card_name)
    top = str(max(plays[-1]["cards"], key=_order))
    if _own_top(view):
        return _("play the {card} to beat your own {top}", card=card_name, top=top)
    return _("play the {card} to beat {top}", card=card_name, top=top)


def _own_top(view: Mapping[str, Any]) -> bool:
    """Whether the seat to act must beat its own card (a take uncovered it)."""
    trick = view["trick"]
    plays = trick.get("plays") or []
    return bool(plays) and plays[-1]["seat"] == view["seat"] == view["to_act"]


def _take_target(view: Mapping[str, Any]) -> str:
    plays = view["trick"]["plays"]
    take = view["options"]["take"]
    if take == "all":
        return _("the whole trick")
    if take == "bottom":
        return _("{card} (the bottom card)", card=min(plays[0]["cards"], key=_order))
    return _("{card} (the last card played)", card=max(plays[-1]["cards"], key=_order))


def _order(text: str) -> int:
    return "23456789TJQKA".index(text[0])


def result(view: Mapping[str, Any], names: Sequence[str]) -> RenderableType:
    """Who went out in which order, and who is the myllymatti."""
    return shed_result(view, names, "Myllymatti: {name}")


__all__ = ["PRESENTER", "explain", "move_text", "render", "result"]

PRESENTER: Presenter = Hooks(render=render, explain=explain, result=result)
"""The terminal hooks of this game (:class:`tikki.tui.presenter.Presenter`)."""
