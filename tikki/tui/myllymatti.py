"""Terminal presenter for Myllymatti: the table as one seat sees it, and move help."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tikki.cards import RANK_NAMES, SUIT_NAMES
from tikki.tui.common import (
    card,
    cards,
    count,
    hand_and_moves,
    move_text,
    seat_label,
    shed_trick,
)


def _name(text: str) -> str:
    rank = RANK_NAMES.get(text[0], text[0])
    return f"{rank} of {SUIT_NAMES[text[1]]}"


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
    phase = "phase 1 — collecting" if collecting else "phase 2 — shedding"
    table = Table(title=f"Myllymatti · {phase}", title_justify="left", expand=False)
    table.add_column("Seat")
    table.add_column("Hand", justify="right")
    table.add_column("Pile" if collecting else "Cards (public)")
    for seat, size in enumerate(view["hand_sizes"]):
        who = seat_label(view, names, seat, "MYLLYMATTI")
        if collecting:
            pile = view["piles"][seat]
            table.add_row(who, str(size), count(len(pile), "card"))
        else:
            table.add_row(who, str(size), cards(view["hands"][seat]))
    return table


def _table_line(view: Mapping[str, Any], names: Sequence[str]) -> Text:
    line = Text()
    if view["hands"] is None:
        line.append(f"Stock: {count(view['stock_size'], 'card')}")
        owner = view["aside_owner"]
        if owner is not None:
            line.append(f" · set-aside trump card: {names[owner]} (unseen)")
    else:
        line.append("Trump: ")
        line.append(card(view["aside_card"] or "?"))
        line.append(f" · cards out of the game: {len(view['fallen'])}")
    return line


def _trick(view: Mapping[str, Any], names: Sequence[str]) -> RenderableType:
    trick = view["trick"]
    if trick["kind"] == "shed":
        body = shed_trick(trick, names)
        if _own_top(view):
            body.append(
                "\nThe card to beat is your own: after a take the next player must beat "
                "the card now on top, even his own, or take.",
                style="yellow",
            )
        return Panel(body, title="Trick", expand=False)
    body = Text()
    for entry in trick["cards"]:
        body.append(f"{names[entry['seat']]}: ")
        body.append(card(entry["card"]))
        if entry["stock"]:
            body.append(" (from the stock)")
        body.append("\n")
    kina = len(trick["cards"]) > trick["round_played"]
    players = ", ".join(names[s] for s in trick["round"])
    body.append(("Kina between " if kina else "Playing: ") + players)
    title = "Duel" if trick["kind"] == "duel" else "Trick"
    return Panel(body, title=title, expand=False)


def explain(view: Mapping[str, Any], move: str) -> str:
    """What the legal ``move`` would do, in words."""
    collecting = view["hands"] is None
    if move == "stock":
        return "turn the top card of the stock into the duel (you draw nothing)"
    if move == "take":
        return f"pick up {_take_target(view)} and pass the turn"
    parts = move.split("+")
    if len(parts) > 1:
        return f"play the run {' '.join(parts)} (one play; it beats with its lowest card)"
    what = f"play the {_name(move)}"
    if collecting:
        draw = " and draw a card" if view["stock_size"] > 1 else ""
        if view["stock_size"] == 1:
            draw = " and set the last stock card aside (the trump card)"
        return what + draw
    plays = view["trick"]["plays"]
    if not plays:
        return what + " to lead a new trick"
    own = "your own " if _own_top(view) else ""
    return what + " to beat " + own + str(max(plays[-1]["cards"], key=_order))


def _own_top(view: Mapping[str, Any]) -> bool:
    """Whether the seat to act must beat its own card (a take uncovered it)."""
    trick = view["trick"]
    plays = trick.get("plays") or []
    return bool(plays) and plays[-1]["seat"] == view["seat"] == view["to_act"]


def _take_target(view: Mapping[str, Any]) -> str:
    plays = view["trick"]["plays"]
    take = view["options"]["take"]
    if take == "all":
        return "the whole trick"
    if take == "bottom":
        return str(min(plays[0]["cards"], key=_order)) + " (the bottom card)"
    return str(max(plays[-1]["cards"], key=_order)) + " (the last card played)"


def _order(text: str) -> int:
    return "23456789TJQKA".index(text[0])


def result(view: Mapping[str, Any], names: Sequence[str]) -> RenderableType:
    """Who went out in which order, and who is the myllymatti."""
    text = Text()
    if view["abandoned"]:
        text.append(f"The game was abandoned after {view['move_count']} moves (no loser).")
        return Panel(text, title="Game over")
    for place, seat in enumerate(view["out_order"], 1):
        text.append(f"{place}. {names[seat]}\n")
    if view["loser"] is not None:
        text.append(f"Myllymatti: {names[view['loser']]}", style="bold red")
    return Panel(text, title="Game over")


__all__ = ["explain", "move_text", "render", "result"]
