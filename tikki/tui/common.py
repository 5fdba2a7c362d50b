"""Pieces shared by the presenters: card styling, seat names, generic sentences."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich.text import Text

SUIT_STYLE = {
    "H": "bold red",
    "D": "bold red",
    "S": "bold",
    "C": "bold",
    "R": "bold red",
    "B": "bold blue",
    "G": "bold green",
    "K": "bold white on grey23",
}
SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card(text: str) -> Text:
    """A card text styled by its suit or colour (``7H`` in red, ``MK`` in black)."""
    if not text or text in ("?", "stock", "take", "pass"):
        return Text(text or "")
    suit = text[-1]
    label = text
    if suit in SUIT_SYMBOL:
        label = f"{text[:-1]}{SUIT_SYMBOL[suit]}"
    return Text(label, style=SUIT_STYLE.get(suit, ""))


def move_text(move: str) -> Text:
    """A move text with its cards styled (``5H+6H``, ``slough 7H``, ``trump G``)."""
    out = Text()
    for i, word in enumerate(move.split(" ")):
        if i:
            out.append(" ")
        parts = word.split("+")
        for j, part in enumerate(parts):
            if j:
                out.append("+")
            out.append(card(part) if _looks_like_card(part) else Text(part))
    return out


def cards(texts: Iterable[str], sep: str = " ") -> Text:
    """Several cards, styled, separated by ``sep``."""
    out = Text()
    for i, t in enumerate(texts):
        if i:
            out.append(sep)
        out.append(card(t))
    return out


def _looks_like_card(word: str) -> bool:
    return 2 <= len(word) <= 3 and word[-1] in SUIT_STYLE and word[:-1] not in ("", "trump")


def seat_names(players: int, human: int | None, bot_names: Sequence[str]) -> list[str]:
    """Display names: ``You`` for the human seat, ``Seat 2 (random)`` for bots."""
    names = []
    for seat in range(players):
        if seat == human:
            names.append("You")
        else:
            names.append(f"Seat {seat} ({bot_names[seat]})")
    return names


def event_sentence(entry: Mapping[str, Any], names: Sequence[str]) -> Text:
    """A history entry as a short sentence: ``Seat 1 (random) plays 7H``."""
    who = names[entry["seat"]]
    move = entry["move"]
    you = who == "You"
    out = Text(f"{who} ", style="bold" if you else "")
    if move == "stock":
        out.append("turn " if you else "turns ")
        out.append(card(entry.get("card", "?")))
        out.append(" from the stock")
    elif move in ("take", "pass"):
        out.append(move if you else move + "s")
    else:
        out.append("play " if you else "plays ")
        out.append(move_text(move))
    return out


def hand_and_moves(view: Mapping[str, Any]) -> Text:
    """The seat's hand, then its legal moves numbered as the prompt accepts them."""
    line = Text("Your hand: ")
    line.append(cards(view["hand"]) if view["hand"] else Text("(empty)"))
    if view["legal_moves"]:
        line.append("\nLegal moves: ")
        for i, move in enumerate(view["legal_moves"]):
            if i:
                line.append("  ")
            line.append(f"{i + 1}:", style="dim")
            line.append(move_text(move))
    return line


def seat_label(view: Mapping[str, Any], names: Sequence[str], seat: int, loser: str) -> Text:
    """A shedding game's seat cell: a marker for the seat to act, its place once out,
    and ``loser`` (the game's word for the loser) for the last holder."""
    status = ""
    if seat in view["out_order"]:
        status = f" out #{view['out_order'].index(seat) + 1}"
    if seat == view["loser"]:
        status = f" {loser}"
    acting = seat == view["to_act"]
    return Text(("▶ " if acting else "  ") + names[seat] + status, style="bold" if acting else "")


def shed_trick(trick: Mapping[str, Any], names: Sequence[str]) -> Text:
    """A phase-2 (shedding) trick of Myllymatti or Mattis: each play, and when it falls."""
    body = Text()
    if not trick["plays"]:
        body.append("(empty — the next player leads)")
    for play in trick["plays"]:
        body.append(f"{names[play['seat']]}: ")
        body.append(cards(play["cards"], "+"))
        body.append("\n")
    if trick["size"]:
        body.append(f"falls at {trick['size']} plays")
    return body
