"""Terminal presenter for Mattis: the table as one seat sees it, slough prompts, move help."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tikki.cards import RANK_NAMES, SUIT_NAMES, rank_plural
from tikki.tui.common import (
    card,
    cards,
    count,
    hand_and_moves,
    move_text,
    seat_label,
    shed_trick,
)

RANKS = "23456789TJQKA"


def _rank_name(rank: str) -> str:
    return rank_plural(rank)


def _name(text: str) -> str:
    return f"{RANK_NAMES.get(text[0], text[0])} of {SUIT_NAMES[text[1]]}"


def render(view: Mapping[str, Any], names: Sequence[str]) -> RenderableType:
    """Seats, stock, the shown card and trump, the trick, and the seat's hand and moves."""
    parts: list[RenderableType] = [
        _seats(view, names),
        _table_line(view, names),
        _trick(view, names),
    ]
    prompt = _slough_prompt(view)
    if prompt is not None:
        parts.append(prompt)
    parts.append(hand_and_moves(view))
    return Group(*parts)


def _seats(view: Mapping[str, Any], names: Sequence[str]) -> Table:
    collecting = view["phase"] == "collect"
    phase = "phase 1 — collecting" if collecting else "phase 2 — shedding"
    table = Table(title=f"Mattis · {phase}", title_justify="left", expand=False)
    table.add_column("Seat")
    table.add_column("Hand", justify="right")
    table.add_column("Pile" if collecting else "Known cards")
    for seat, size in enumerate(view["hand_sizes"]):
        who = seat_label(view, names, seat, "LOSER")
        if collecting:
            table.add_row(who, str(size), count(len(view["piles"][seat]), "card"))
        else:
            known = view["hands"][seat]
            line = cards(known)
            hidden = size - len(known)
            if hidden:
                line.append(f" + {hidden} dreck card{'s' if hidden > 1 else ''} (unseen)")
            table.add_row(who, str(size), line)
    return table


def _table_line(view: Mapping[str, Any], names: Sequence[str]) -> Text:
    line = Text()
    if view["phase"] == "collect":
        line.append(f"Stock: {count(view['stock_size'], 'card')}")
    else:
        line.append(f"Cards out of the game: {len(view['fallen'])}")
    if view["shown_card"] is not None:
        line.append(" · last stock card ")
        line.append(card(view["shown_card"]))
        line.append(f" shown by {names[view['shown_owner']]}")
    if view["trump"] is not None:
        line.append(f" · trump: {SUIT_NAMES[view['trump']]}")
    dreck = view.get("dreck")
    if dreck:
        line.append(f"\nDreck: {count(len(dreck['cards']), 'card')} ")
        line.append(cards(dreck["cards"]))
        if dreck["mine"]:
            line.append("; you got ")
            line.append(cards(dreck["mine"]))
    return line


def _trick(view: Mapping[str, Any], names: Sequence[str]) -> RenderableType:
    trick = view["trick"]
    if trick["kind"] == "shed":
        return Panel(shed_trick(trick, names), title="Trick", expand=False)
    body = Text()
    for entry in trick["cards"]:
        body.append(f"{names[entry['seat']]}: ")
        body.append(card(entry["card"]))
        if entry["how"] == "stock":
            body.append(" (from the stock)")
        elif entry["how"] == "slough":
            body.append(" (sloughed)")
        body.append("\n")
    if not trick["cards"]:
        body.append("(empty)\n")
    played = sum(1 for e in trick["cards"] if e["how"] != "slough")
    war = played > trick["round_played"]
    players = ", ".join(names[s] for s in trick["round"])
    body.append(("War between " if war and trick["cards"] else "Playing: ") + players)
    if trick["match_rank"] is not None:
        body.append(f"\nMust match: {_rank_name(trick['match_rank'])} (whoever holds one plays it)")
    return Panel(body, title="Trick", expand=False)


SLOUGH_RULE = (
    "A rank is losing when a higher rank was played to the trick, except that in a war "
    "the card winning the war round is not losing. Only players who have already played "
    "to the trick may slough."
)
"""The slough rule in plain words (Mattis, shown with every slough question)."""


def _slough_prompt(view: Mapping[str, Any]) -> RenderableType | None:
    """The slough question, spelled out, when it is this seat's turn in a slough lap."""
    ranks = view["trick"].get("losing_ranks")
    if not ranks or view["to_act"] != view["seat"]:
        return None
    can = [m.split(" ", 1)[1] for m in view["legal_moves"] if m.startswith("slough ")]
    text = Text("Slough? ", style="bold yellow")
    names = ", ".join(_rank_name(r) for r in ranks)
    text.append(f"These ranks are losing this trick: {names}. You have played to it, so ")
    text.append("you may throw in ")
    text.append(cards(can))
    text.append(
        " (one per move: slough CARD), or type pass to go on. "
        f"{SLOUGH_RULE} Sloughing never changes who wins; the cards go to the trick's winner."
    )
    return Panel(text, title="Slough lap", expand=False)


def explain(view: Mapping[str, Any], move: str) -> str:
    """What the legal ``move`` would do, in words."""
    trick = view["trick"]
    if move == "pass":
        return "slough nothing (more) and let the lap go on"
    if move.startswith("slough "):
        c = move.split(" ", 1)[1]
        return (
            f"throw the {_name(c)} into the trick: {_rank_name(c[0])} are losing it, a "
            "higher card beats them (this does not change who wins)"
        )
    if move == "stock":
        return "turn the top card of the stock and play it (your hand keeps its cards)"
    if move == "take":
        return "take every card of the trick into your hand; the next player leads"
    parts = move.split("+")
    if len(parts) > 1:
        return f"play the sequence {' '.join(parts)} (one play)"
    what = f"play the {_name(move)}"
    if view["phase"] == "collect":
        if trick["match_rank"] == move[0]:
            return what + " (you must match the highest card's rank)"
        return what
    if not trick["plays"]:
        return what + " to lead a new trick"
    return what + " to beat " + "+".join(trick["plays"][-1]["cards"])


def event(entry: Mapping[str, Any], names: Sequence[str]) -> Text:
    """A history entry as a short sentence: ``Seat 1 (random) sloughs 7H``."""
    who = names[entry["seat"]]
    you = who == "You"
    move = entry["move"]
    out = Text(f"{who} ", style="bold" if you else "")
    if move == "pass":
        return out.append("pass" if you else "passes")
    if move == "take":
        return out.append("take the trick" if you else "takes the trick")
    if move == "stock":
        out.append("turn " if you else "turns ")
        out.append(card(entry.get("card", "?")))
        return out.append(" from the stock")
    if move.startswith("slough "):
        out.append("slough " if you else "sloughs ")
        return out.append(card(move.split(" ", 1)[1]))
    out.append("play " if you else "plays ")
    return out.append(move_text(move))


def result(view: Mapping[str, Any], names: Sequence[str]) -> RenderableType:
    """Who went out in which order, and who lost."""
    text = Text()
    if view["abandoned"]:
        text.append(f"The game was abandoned after {view['move_count']} moves (no loser).")
        return Panel(text, title="Game over")
    for place, seat in enumerate(view["out_order"], 1):
        text.append(f"{place}. {names[seat]}\n")
    if view["loser"] is not None:
        text.append(f"Loser: {names[view['loser']]}", style="bold red")
    return Panel(text, title="Game over")


__all__ = ["event", "explain", "move_text", "render", "result"]
