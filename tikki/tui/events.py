"""The engine's events as terminal lines (``tikki play`` and ``tikki replay``).

One function, :func:`event_lines`, turns the ``events`` of one history entry (DESIGN:
Events) into sentences: ``Seat 1 (random) wins the trick: 7♥ Q♠``, ``The trick falls``,
``Phase 2 begins: you lead``.  Nothing here compares states: every line comes from an
event the engine emitted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from tikki.tui.common import card, cards

SUIT_WORDS = {
    "S": "spades",
    "H": "hearts",
    "D": "diamonds",
    "C": "clubs",
    "R": "red",
    "B": "blue",
    "G": "green",
    "K": "black",
}
PHASE_WORDS = {
    "shed": "Phase 2 begins: every hand is public",
    "discard": "Discarding: each player sets two cards aside",
    "play": "The tricks begin",
    "score": "Scoring: the round's tricks are counted",
}
TIE_WORDS = {"myllymatti": "Kina", "mattis": "War"}


def _you(name: str) -> bool:
    return name == "You"


def _verb(name: str, verb: str, third: str | None = None) -> str:
    """``verb`` for "You", its third-person form otherwise (``win`` → ``wins``)."""
    return verb if _you(name) else (third or verb + "s")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def event_lines(entry: Mapping[str, Any], names: Sequence[str], game: str = "") -> list[Text]:
    """One line per event of a history entry, in order (an entry without events: none)."""
    out: list[Text] = []
    for event in entry.get("events", ()):
        line = event_text(event, names, game, entry)
        if line is not None:
            out.append(line)
    return out


def event_text(
    event: Mapping[str, Any],
    names: Sequence[str],
    game: str = "",
    entry: Mapping[str, Any] | None = None,
) -> Text | None:
    """One event as a styled sentence, or ``None`` where the move's own line says it all."""
    kind = event["type"]
    if kind == "trick":
        who = names[event["winner"]]
        line = Text(f"{who} {_verb(who, 'win')} the trick: ", style="cyan")
        return line.append(cards(c["card"] for c in event["cards"]))
    if kind == "tie":
        seats = _and([names[s] for s in event["seats"]])
        word = TIE_WORDS.get(game, "Tie")
        return Text(f"{word}: {seats} tie for the highest rank and play again.", style="cyan")
    if kind == "void_tie":
        return _void(event, names)
    if kind == "falls":
        line = Text("The trick falls: ", style="cyan")
        line.append(cards(c["card"] for c in event["cards"]))
        return line.append(" leave the game.")
    if kind == "take":
        who = names[event["seat"]]
        line = Text(f"{who} {_verb(who, 'pick')} up ", style="cyan")
        return line.append(cards(event["cards"]))
    if kind == "draw":
        return _draw(event, names)
    if kind == "last_card":
        return _last_card(event, names)
    return _table_event(event, names, entry)


def _void(event: Mapping[str, Any], names: Sequence[str]) -> Text:
    if event.get("why") == "kina":
        line = Text("The kina cannot go on: the trick is void, each takes back his cards (")
    else:
        line = Text("Phase 1 ends mid-trick: the cards go back to who played them (")
    line.stylize("cyan")
    for i, c in enumerate(event["cards"]):
        if i:
            line.append(", ")
        line.append(f"{names[c['seat']]} ")
        line.append(card(c["card"]))
    return line.append(").")


def _draw(event: Mapping[str, Any], names: Sequence[str]) -> Text:
    who = names[event["seat"]]
    count = event["count"]
    line = Text(f"{who} {_verb(who, 'draw')} ", style="dim")
    if "cards" in event:
        return line.append(cards(event["cards"]))
    return line.append("a card" if count == 1 else f"{count} cards")


def _last_card(event: Mapping[str, Any], names: Sequence[str]) -> Text:
    who = names[event["seat"]]
    if "card" not in event:
        verb = _verb(who, "set")
        return Text(f"{who} {verb} the last stock card aside, unseen: it decides the trump.")
    line = Text(f"{who} {_verb(who, 'draw')} the last stock card and {_verb(who, 'show')} it: ")
    return line.append(card(event["card"]))


def _table_event(
    event: Mapping[str, Any], names: Sequence[str], entry: Mapping[str, Any] | None
) -> Text | None:
    kind = event["type"]
    if kind == "phase":
        text = PHASE_WORDS.get(event["phase"], f"Phase {event['phase']} begins")
        leader = event.get("leader")
        if leader is not None and event["phase"] != "discard":
            who = names[leader]
            verb = _verb(who, "choose") if event["phase"] == "score" else _verb(who, "lead")
            text += f"; {'you' if _you(who) else who} {verb}"
        return Text(text + ".", style="bold cyan")
    if kind == "trump":
        if entry is not None and str(entry.get("move", "")).startswith("trump"):
            return None  # the move itself names the trump
        line = Text(f"Trump is {SUIT_WORDS.get(event['suit'], event['suit'])}", style="bold cyan")
        if "card" in event:
            line.append(" (")
            line.append(card(event["card"]))
            line.append(")")
        return line.append(".")
    if kind == "dreck":
        got = [f"{names[s]} {k}" for s, k in enumerate(event["counts"]) if k]
        line = Text(f"Dreck dealt: {sum(event['counts'])} cards ({', '.join(got)})", style="cyan")
        if "cards" in event:
            line.append("; you get ")
            line.append(cards(event["cards"]))
        return line.append(".")
    if kind == "out":
        who = names[event["seat"]]
        verb = "are" if _you(who) else "is"
        return Text(f"{who} {verb} out ({_ordinal(event['place'])}).", style="bold green")
    if kind == "round":
        scores = ", ".join(f"{names[s]} {v:+d}" for s, v in enumerate(event["scores"]))
        totals = ", ".join(f"{names[s]} {v}" for s, v in enumerate(event["totals"]))
        return Text(
            f"Round {event['round'] + 1} is scored. Points: {scores}; totals: {totals}.",
            style="bold cyan",
        )
    if kind == "over":
        return Text("Game over.", style="bold")
    return Text(f"({kind})")


__all__ = ["event_lines", "event_text"]
