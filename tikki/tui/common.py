"""Pieces shared by the presenters: card styling, seat names, generic sentences."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich.panel import Panel
from rich.text import Text

from tikki.cards import screen_text
from tikki.i18n import N_, _, current, ngettext, tr

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


def you() -> str:
    """The human seat's name in the current language (``You``, ``Sinä``, ``Du``)."""
    return _("You")


def is_you(name: str) -> bool:
    """Whether ``name`` is the human seat's (as :func:`seat_names` gave it)."""
    return name == you()


def seat_name(seat: int) -> str:
    """A seat without a player name: ``Seat 2``, ``Paikka 2``, ``Platz 2``."""
    return _("Seat {seat}", seat=seat)


def seat_names(players: int, human: int | None, bot_names: Sequence[str]) -> list[str]:
    """Display names: ``You`` for the human seat, ``Seat 2 (random)`` for bots."""
    names = []
    for seat in range(players):
        if seat == human:
            names.append(you())
        else:
            names.append(_("Seat {seat} ({bot})", seat=seat, bot=bot_names[seat]))
    return names


def sentence(
    who: str, mine: str, theirs: str, *parts: Text | str, style: str = "", **params: Any
) -> Text:
    """``mine`` (said of the human seat) or ``theirs`` (its ``{name}`` is ``who``),
    translated, as :func:`styled` text (both marked with ``N_`` where they are written).

    >>> str(sentence("Seat 1", "You play {0}", "{name} plays {0}", "7H"))
    'Seat 1 plays 7H'
    """
    own = is_you(who)
    template = _(mine) if own else _(theirs)
    return styled(template, *parts, style=style or ("bold" if own else ""), name=who, **params)


def winners_line(scores: Sequence[int], names: Sequence[str]) -> str:
    """Who won a game scored in points, in one sentence: the one winner (``You win`` for
    the reader) or the winners sharing the highest score."""
    best = max(scores)
    winners = [names[s] for s, total in enumerate(scores) if total == best]
    if len(winners) == 1:
        return sentence(
            winners[0],
            N_("You win with {points} points."),
            N_("{name} wins with {points} points."),
            points=best,
        ).plain
    together = _("{some} and {last}", some=", ".join(winners[:-1]), last=winners[-1])
    return _("{names} share the win with {points} points.", names=together, points=best)


def styled(template: str, *parts: Text | str, style: str = "", **params: Any) -> Text:
    """A translated ``template`` whose ``{0}``, ``{1}``… are the styled ``parts`` (cards)
    and whose named placeholders are filled from ``params``.

    >>> str(styled("{name} plays {0}", "7H", name="Seat {1}"))
    'Seat {1} plays 7H'
    """
    out = Text(style=style)
    for i, piece in enumerate(re.split(r"\{(\w+)\}", template)):
        if i % 2 == 0:
            out.append(piece)
        elif piece.isdigit():
            part = parts[int(piece)]
            out.append(part if isinstance(part, Text) else Text(part))
        elif piece in params:
            out.append(str(params[piece]))
        else:
            out.append("{" + piece + "}")
    return out


def event_sentence(entry: Mapping[str, Any], names: Sequence[str]) -> Text:
    """A history entry as a short sentence: ``Seat 1 (random) plays 7H``."""
    who = names[entry["seat"]]
    move = entry["move"]
    if move == "stock":
        return sentence(
            who,
            N_("You turn {0} from the stock"),
            N_("{name} turns {0} from the stock"),
            card(entry.get("card", "?")),
        )
    if move == "take":
        return sentence(who, N_("You take"), N_("{name} takes"))
    if move == "pass":
        return sentence(who, N_("You pass"), N_("{name} passes"))
    return sentence(who, N_("You play {0}"), N_("{name} plays {0}"), move_text(move))


def hand_and_moves(view: Mapping[str, Any]) -> Text:
    """The seat's hand, then its legal moves numbered as the prompt accepts them."""
    line = Text(_("Your hand: "))
    line.append(cards(view["hand"]) if view["hand"] else Text(_("(empty)")))
    if view["legal_moves"]:
        line.append("\n" + _("Legal moves: "))
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
        status = " " + _("out #{place}", place=view["out_order"].index(seat) + 1)
    if seat == view["loser"]:
        status = f" {loser}"
    acting = seat == view["to_act"]
    return Text(("▶ " if acting else "  ") + names[seat] + status, style="bold" if acting else "")


def shed_result(view: Mapping[str, Any], names: Sequence[str], loser: str) -> Panel:
    """A shedding game's end: the seats in the order they went out and ``loser`` (the
    game's line for the last holder, ``{name}`` in it), or that it was abandoned."""
    text = Text()
    if view["abandoned"]:
        text.append(_("The game was abandoned after {n} moves (no loser).", n=view["move_count"]))
        return Panel(text, title=_("Game over"))
    for place, seat in enumerate(view["out_order"], 1):
        text.append(f"{place}. {names[seat]}\n")
    if view["loser"] is not None:
        text.append(loser.format(name=names[view["loser"]]), style="bold red")
    return Panel(text, title=_("Game over"))


def shed_trick(trick: Mapping[str, Any], names: Sequence[str]) -> Text:
    """A phase-2 trick of a shedding game: each play, and when it falls."""
    body = Text()
    if not trick["plays"]:
        body.append(_("(empty — the next player leads)"))
    for play in trick["plays"]:
        body.append(f"{names[play['seat']]}: ")
        body.append(cards(play["cards"], "+"))
        body.append("\n")
    if trick["size"]:
        body.append(_("falls at {size} plays", size=trick["size"]))
    return body


# --- words ----------------------------------------------------------------------------

_IRREGULAR = {"are": "is", "have": "has", "do": "does", "go": "goes"}


def says(name: str, verb: str) -> str:
    """``name`` and ``verb`` agreeing in person: ``You deal``, ``Seat 2 (random) deals``.

    ``verb`` is the plain form (``deal``, ``name``, ``are``, ``pass``).
    """
    if name == "You":
        return f"You {verb}"
    if verb in _IRREGULAR:
        return f"{name} {_IRREGULAR[verb]}"
    ending = "es" if verb.endswith(("s", "sh", "ch", "x", "z")) else "s"
    return f"{name} {verb}{ending}"


def count(n: int, word: str, plural: str | None = None) -> str:
    """``1 card``, ``2 cards``, ``0 cards`` (English words; see :func:`card_count`)."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


def ordinal(n: int) -> str:
    """``1st``, ``2nd`` in English; ``1.``, ``2.`` in Finnish and German."""
    if current() != "en":
        return _("{n}.", n=n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def card_count(n: int) -> str:
    """``1 card``/``3 cards``, ``1 kortti``/``3 korttia``, ``1 Karte``/``3 Karten``."""
    return ngettext("{n} card", "{n} cards", n)


def shorten(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis, for echoing input back."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


_RULE_IDS = re.compile(r"\s*\((?:[A-Z]{1,3}-\d+[a-z]?(?:,\s*)?)+\)")
_LETTER_IN_PARENS = re.compile(r"\(([SHDC])\)")
_NOT_IN = re.compile(r"^(.+), (\S+) is not in ")
_LONG_LIST = re.compile(r"^(.{41,}?) (are|is) not in ")
_CARDS_MAYBE = re.compile(r"\b(\d+) card\(s\)")


def friendly_error(message: str, seat: int | None, typed: str = "", parsed: str = "") -> str:
    """An engine message as the person at ``seat`` should read it.

    Second person (``your hand``, ``you must``), no rule ids, cards in the screen's
    notation, agreeing plurals, and the person's own input echoed as typed (``typed``,
    not the ``parsed`` move text the engine saw: ``♦``, not ``D``), shortened.
    """
    text = _RULE_IDS.sub("", message)
    if seat is not None:
        # Finnish and German: the seat's own hand in the second person
        text = text.replace(f"paikan {seat} kädessä", "kädessäsi")
        text = text.replace(f"auf der Hand von Platz {seat}", "auf deiner Hand")
        own = f"seat {seat}"
        text = text.replace(f"{own}'s hand", "your hand")
        for verb, plain in (("names", "name"), ("must", "must"), ("may", "may")):
            text = text.replace(f"{own} {verb} ", f"you {plain} ")
        text = text.replace(f"{own} played ", "you played ")
    text = _NOT_IN.sub(r"\1 and \2 are not in ", text)
    text = _LONG_LIST.sub(lambda m: f"{shorten(m.group(1))} {m.group(2)} not in ", text)
    text = _CARDS_MAYBE.sub(lambda m: count(int(m.group(1)), "card"), text)
    text = _echo(text, typed, parsed)
    text = screen_text(text)
    symbols = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    return _LETTER_IN_PARENS.sub(lambda m: f"({symbols[m.group(1)]})", text)


def _echo(text: str, typed: str, parsed: str) -> str:
    """``text`` with the move the engine saw (``parsed``, or ``typed``) written as the
    person typed it, shortened; a long move is shortened where it is not quoted too."""
    if not typed:
        return text
    shown = shorten(typed)
    for seen in dict.fromkeys(s for s in (parsed, typed) if s):
        quoted = re.compile(re.escape(repr(seen)), re.IGNORECASE)
        text = quoted.sub(lambda _m: repr(shown), text)
        if len(seen) > 40:
            text = re.compile(re.escape(seen), re.IGNORECASE).sub(lambda _m: shown, text)
    return text


def value_text(value: Any) -> str:
    """An option value as a person writes it: ``true``/``false``, lists joined by commas."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, list | tuple):
        return ", ".join(value_text(v) for v in value)
    if isinstance(value, Mapping):
        return ", ".join(f"{k}={value_text(v)}" for k, v in value.items())
    return str(value)


def options_line(game: Any) -> str:
    """A game's options as ``key=value`` pairs; ``variant`` only for games that have any,
    and a research option only when it is not at its default (the game of the rules)."""
    at_default = {
        s.name for s in game.option_specs if s.research and game.options.get(s.name) == s.default
    }
    pairs = [
        f"{key}={value_text(value)}"
        for key, value in game.options.items()
        if (key != "variant" or game.variants) and key not in at_default
    ]
    return ", ".join(pairs) or _("none")


PHASE_WORDS = {
    "collect": N_("phase 1 — collecting"),
    "shed": N_("phase 2 — shedding"),
    "discard": N_("setting cards aside"),
    "play": N_("playing tricks"),
    "score": N_("doubling and dropping"),
    "over": N_("game over"),
}
"""Each game phase in words (the engine's phase names are ids)."""


SHORT_PHASE_WORDS = {
    "collect": N_("phase 1"),
    "shed": N_("phase 2"),
    "discard": N_("aside"),
    "play": N_("tricks"),
    "score": N_("scoring"),
}
"""Each game phase in a word or two, for a table's column."""


def phase_word(phase: str, short: bool = False) -> str:
    """A game phase in the current language: ``collect`` → ``phase 1 — collecting`` (or,
    ``short``, ``phase 1``)."""
    words = SHORT_PHASE_WORDS if short else PHASE_WORDS
    return tr(words[phase]) if phase in words else phase


def pile(view: Mapping[str, Any]) -> Text:
    """The seat's own pile (the cards it has won), for the ``pile`` command."""
    mine = view.get("piles", [[]] * (view["seat"] + 1))[view["seat"]]
    if view.get("phase") in ("shed", "over") and not mine:
        return Text(_("No pile in phase 2: the cards you collected in phase 1 are your hand now."))
    line = Text(_("Your pile ({cards}): ", cards=card_count(len(mine))))
    return line.append(cards(mine) if mine else Text(_("(empty)")))


def picked_up(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """The cards the seat that just moved took into its hand, as far as ``after`` shows.

    Only a ``take`` picks cards up; the cards come from the trick, which was face up, so
    they are public.
    """
    history = after.get("history") or []
    seat = before.get("to_act")
    if not history or history[-1].get("move") != "take" or seat is None:
        return []
    if before.get("seat") == seat:
        old, new = before["hand"], after["hand"]
    elif before.get("hands") and after.get("hands"):
        old, new = before["hands"][seat], after["hands"][seat]
    else:
        return []
    gained = Counter(new) - Counter(old)
    return [c for c in new if gained[c] > 0 and not gained.subtract([c])]
