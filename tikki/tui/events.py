"""The engine's events as terminal lines (``tikki play`` and ``tikki replay``).

One function, :func:`event_lines`, turns the ``events`` of one history entry (docs/design.md:
Events) into sentences: ``Seat 1 (random) wins the trick: 7♥ Q♠``, ``The trick falls``,
``Phase 2 begins: you lead``.  Nothing here compares states: every line comes from an
event the engine emitted.  The sentences are :mod:`tikki.sentences`' (the browser's log
reads the same catalogue), by event kind and variant.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.text import Text

from tikki.cards import suit_word
from tikki.core import RulesError, game_class, move_title
from tikki.i18n import _, ngettext
from tikki.sentences import terminal
from tikki.tui.common import card, cards, is_you, ordinal, sentence

S: dict[str, str] = {k: v for k, v in terminal().items() if isinstance(v, str)}
"""The terminal's sentences by event kind and variant, in English (:func:`_` translates)."""

PHASE_WORDS = {phase: S[f"phase.{phase}"] for phase in ("shed", "discard", "play", "score")}


def say(key: str, **params: Any) -> str:
    """The terminal's sentence ``key``, translated, its ``{name}`` parameters filled in."""
    return _(S[key], **params)


def _tie_word(game: str) -> str:
    """The game's own word for a tie (:attr:`tikki.core.Game.tie_word`), else ``Tie``."""
    try:
        return game_class(game).tie_word or S["tie.word"]
    except RulesError:  # an unknown game (a record from elsewhere): the plain word
        return S["tie.word"]


def _you(name: str) -> bool:
    return is_you(name)


def _and(items: Sequence[str]) -> str:
    if len(items) == 1:
        return items[0]
    return _("{some} and {last}", some=", ".join(items[:-1]), last=items[-1])


def event_lines(entry: Mapping[str, Any], names: Sequence[str], game: str = "") -> list[Text]:
    """One line per event of a history entry, in order (an entry without events: none).

    A one-card draw followed by the same seat's ``last_card`` event is said once, by the
    ``last_card`` line (``… draws the last stock card and shows it: 4♥``), and the trump
    it makes does not show that card again.
    """
    out: list[Text] = []
    events = list(entry.get("events", ()))
    for i, event in enumerate(events):
        following = events[i + 1] if i + 1 < len(events) else None
        if _said_by_next(event, following):
            continue
        before = events[i - 1] if i else None
        if event["type"] == "trump" and before is not None and before["type"] == "last_card":
            event = {k: v for k, v in event.items() if k != "card"}  # the card was just shown
        line = event_text(event, names, game, entry)
        if line is not None:
            out.append(line)
    return out


def _said_by_next(event: Mapping[str, Any], following: Mapping[str, Any] | None) -> bool:
    """Whether ``following`` says all of ``event`` (the last stock card drawn)."""
    return (
        following is not None
        and event["type"] == "draw"
        and following["type"] == "last_card"
        and event.get("count") == 1
        and following.get("seat") == event.get("seat")
    )


def headline(
    entry: Mapping[str, Any], sentence: Text, names: Sequence[str], game: str = ""
) -> tuple[Text, dict[str, Any]]:
    """The line that announces ``entry`` and the entry left for :func:`event_lines`.

    A ``take`` move is announced by what it picked up (``Seat 2 picks up 2♦``) instead of
    ``Seat 2 takes`` followed by that line; a move the game titles (its declared
    :attr:`~tikki.core.Game.move_titles`) by its title (``Seat 2: a bid of 3``); other
    moves keep their ``sentence``.
    """
    title = _move_title(game, str(entry.get("move", "")))
    if title is not None:
        return Text(f"{names[entry['seat']]}: {title}"), dict(entry)
    events = list(entry.get("events", ()))
    if entry.get("move") == "take":
        for i, event in enumerate(events):
            if event["type"] == "take" and event.get("seat") == entry.get("seat"):
                line = event_text(event, names, game, entry)
                if line is not None:
                    return line, {**entry, "events": events[:i] + events[i + 1 :]}
    return sentence, dict(entry)


def _move_title(game: str, move: str) -> str | None:
    """The title ``game`` declares for ``move`` in the current language, if any."""
    try:
        return move_title(game_class(game), move) if game else None
    except RulesError:  # an unknown game (a record from elsewhere): none
        return None


def _phase_title(game: str, phase: str) -> str | None:
    """The name ``game`` declares for ``phase`` (:attr:`~tikki.core.Game.phase_titles`)
    in the current language, its first letter capitalised, if any."""
    try:
        cls = game_class(game) if game else None
    except RulesError:
        return None
    title = cls.phase_titles.get(phase) if cls is not None else None
    if not title:
        return None
    text = cls.translate(title) if cls is not None else title
    return text[:1].upper() + text[1:]


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
        won = cards(c["card"] for c in event["cards"])
        return sentence(who, S["trick.you"], S["trick"], won, style="cyan")
    if kind == "tie":
        seats = _and([names[s] for s in event["seats"]])
        word = _(_tie_word(game))
        return Text(
            say("tie", word=word, seats=seats),
            style="cyan",
        )
    if kind == "void_tie":
        return _void(event, names)
    if kind == "falls":
        line = Text(say("falls"), style="cyan")
        line.append(cards(c["card"] for c in event["cards"]))
        return line.append(say("falls.end"))
    if kind == "take":
        who = names[event["seat"]]
        got = cards(event["cards"])
        return sentence(who, S["take.you"], S["take"], got, style="cyan")
    if kind == "draw":
        return _draw(event, names)
    if kind == "last_card":
        return _last_card(event, names)
    return _table_event(event, names, entry, game)


def _void(event: Mapping[str, Any], names: Sequence[str]) -> Text:
    line = Text(say("void_tie.kina" if event.get("why") == "kina" else "void_tie"))
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
    if event.get("deal"):  # a new deal's cards: dealt, not drawn
        many = ngettext("{n} card", "{n} cards", count)
        got = cards(event["cards"]) if "cards" in event else many
        return sentence(who, S["deal.you"], S["deal"], got, style="dim")
    if "cards" in event:
        drawn = cards(event["cards"])
        return sentence(who, S["draw.you"], S["draw"], drawn, style="dim")
    many = ngettext("{n} card", "{n} cards", count)
    if count == 1:
        return sentence(who, S["draw.one.you"], S["draw.one"], style="dim")
    return sentence(who, S["draw.you"], S["draw"], many, style="dim")


def _last_card(event: Mapping[str, Any], names: Sequence[str]) -> Text:
    who = names[event["seat"]]
    if "card" not in event:
        return sentence(who, S["last_card.unseen.you"], S["last_card.unseen"])
    return sentence(who, S["last_card.you"], S["last_card"], card(event["card"]))


def _phase(event: Mapping[str, Any], names: Sequence[str], game: str = "") -> Text:
    phase = event["phase"]
    if phase in PHASE_WORDS:
        text = _(PHASE_WORDS[phase])
    else:
        text = _phase_title(game, phase) or say("phase.other", phase=phase)
    leader = event.get("leader")
    if leader is not None and phase != "discard":
        who = names[leader]
        if phase == "score":
            then = sentence(who, S["choose.you"], S["choose"])
        else:
            then = sentence(who, S["lead.you"], S["lead"])
        text += "; " + then.plain
    line = Text(text + ".", style="bold cyan")
    goal = _phase_goal(game, phase)
    if goal:
        line.append(" " + goal, style="cyan")
    return line


def _phase_goal(game: str, phase: str) -> str | None:
    """What a player wants in ``phase`` (:attr:`~tikki.core.Game.phase_goals`), in the
    current language, if the game says."""
    try:
        cls = game_class(game) if game else None
    except RulesError:
        return None
    goal = cls.phase_goals.get(phase) if cls is not None else None
    return cls.translate(goal) if cls is not None and goal else None


def _table_event(
    event: Mapping[str, Any],
    names: Sequence[str],
    entry: Mapping[str, Any] | None,
    game: str = "",
) -> Text | None:
    kind = event["type"]
    if kind == "phase":
        return _phase(event, names, game)
    if kind == "trump":
        if entry is not None and str(entry.get("move", "")).startswith("trump"):
            return None  # the move itself names the trump
        suit = event["suit"]
        line = Text(say("trump", suit=suit_word(suit)), style="bold cyan")
        if "card" in event:
            line.append(" (")
            line.append(card(event["card"]))
            line.append(")")
        return line.append(".")
    if kind == "dreck":
        got = ", ".join(f"{names[s]} {k}" for s, k in enumerate(event["counts"]) if k)
        dealt = ngettext("{n} card", "{n} cards", sum(event["counts"]))
        line = Text(say("dreck", cards=dealt, who=got), style="cyan")
        if "cards" in event:
            line.append(say("dreck.yours"))
            line.append(cards(event["cards"]))
        return line.append(".")
    if kind == "out":
        who = names[event["seat"]]
        place = event["place"]
        return sentence(who, S["out.you"], S["out"], style="bold green", place=ordinal(place))
    if kind == "round":
        scores = ", ".join(f"{names[s]} {v:+d}" for s, v in enumerate(event["scores"]))
        totals = ", ".join(f"{names[s]} {v}" for s, v in enumerate(event["totals"]))
        return Text(
            say("round", round=event["round"] + 1, scores=scores, totals=totals),
            style="bold cyan",
        )
    if kind == "over":
        return Text(say("over"), style="bold")
    return Text(f"({kind})")


__all__ = ["event_lines", "event_text", "headline"]
