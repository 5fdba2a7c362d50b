"""Terminal presenter for Mückenstich: the table as one seat sees it, and the score sheet.

The score sheet (every finished round, the doubled and dropped colours, running totals)
is shown after each round is scored and at the end of the match.

Table memory: players may not look at won tricks during a round.  :func:`table_view` is
the view as the table shows it: once the next trick has begun, no last trick, no piles,
no mosquito counts and no cards of the round's earlier tricks in the log, until the
round is scored; the "memory aids" option (``tikki play mueckenstich --memory-aids``)
shows them anyway.  Bots and hints still get the whole view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tikki.cards import COLOURS, colour_word, mueckenstich_word
from tikki.games.mueckenstich import MOSQUITO_PENALTY
from tikki.i18n import N_, _, ngettext
from tikki.tui.common import card, cards, hand_and_moves, is_you, seat_name, sentence, winners_line
from tikki.tui.common import pile as common_pile
from tikki.tui.presenter import Hooks, Presenter

__all__ = [
    "PRESENTER",
    "event",
    "explain",
    "pile",
    "render",
    "result",
    "score_sheet",
    "table_view",
]

HIDDEN = "?"
"""The move text of a card play the table no longer shows (table memory)."""


def table_view(view: Mapping[str, Any], memory_aids: bool) -> dict[str, Any]:
    """The view as the table shows it (a copy): during a round, without memory aids, the
    cards of won tricks are face down once the next trick has begun."""
    shown = dict(view)
    if memory_aids or view["phase"] in ("score", "over"):
        return shown
    shown["piles"] = None
    shown["mosquitoes"] = None
    if view["trick"]:
        shown["last_trick"] = None
    shown["history"] = _history_shown(view)
    return shown


def _history_shown(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The history with the cards of this round's finished tricks turned face down (their
    trump namings left out); earlier rounds and the trick in progress stay as they are.
    A trick whose winner was just decided stays shown until the next trick begins."""
    history = list(view["history"])
    n = len(view["hand_sizes"])
    cards_in_round = sum(view["tricks"]) * n + len(view["trick"])
    face_up = len(view["trick"]) if view["trick"] else (n if view["last_trick"] else 0)
    start = len(history)
    plays: list[int] = []
    while start > 0 and len(plays) < cards_in_round:
        start -= 1
        move = history[start]["move"]
        if not move.startswith(("discard", "trump", "double", "drop")):
            plays.append(start)
    hide_to = plays[face_up - 1] if face_up else len(history)
    out: list[dict[str, Any]] = []
    for i, entry in enumerate(history):
        if start <= i < hide_to and not entry["move"].startswith("discard"):
            if not entry["move"].startswith("trump"):
                out.append({"seat": entry["seat"], "move": HIDDEN})
            continue
        out.append(entry)
    return out


def pile(view: Mapping[str, Any]) -> Text:
    """The ``pile`` command: during a round without memory aids (MS-12) only the number
    of tricks won, as the table shows it; else the won cards."""
    if view.get("piles") is not None:
        return common_pile(view)
    won = view["tricks"][view["seat"]]
    line = ngettext("You have won {n} trick", "You have won {n} tricks", won)
    return Text(line + " " + _("(the cards stay face down until the round is scored)"))


def _colour(letter: str | None) -> Text:
    if letter is None:
        return Text("—", style="dim")
    return card(f"■{letter}").append(f" {colour_word(letter)}")


def _colour_word(letter: str | None) -> Text:
    if letter is None:
        return Text("—", style="dim")
    return Text(colour_word(letter), style=card(f"■{letter}").style)


def _name(text: str) -> str:
    return mueckenstich_word(text)


def render(view: Mapping[str, Any], names: Sequence[str]) -> RenderableType:
    """Seats with trick and mosquito counts, trump, the trick and the seat's hand."""
    return Group(_seats(view, names), _table_line(view), _trick(view, names), hand_and_moves(view))


def _seats(view: Mapping[str, Any], names: Sequence[str]) -> Table:
    deal = " · " + _("deal {n} of 2", n=view["deal"] + 1) if view["deals"] == 2 else ""
    rounds = _("round {n} of {rounds}", n=view["round"] + 1, rounds=view["rounds"])
    title = f"Mückenstich · {rounds}{deal}"
    table = Table(title=title, title_justify="left", expand=False)
    table.add_column(_("Seat"))
    table.add_column(_("Hand"), justify="right")
    table.add_column(_("Aside"), justify="right")
    table.add_column(_("Tricks"), justify="right")
    mosquitoes = view["mosquitoes"]
    if mosquitoes is not None:
        table.add_column(_("Mosquitoes"), justify="right")
    table.add_column(_("Total"), justify="right")
    for seat, size in enumerate(view["hand_sizes"]):
        marker = "▶ " if seat == view["to_act"] else "  "
        dealer = " " + _("(dealer)") if seat == view["dealer"] else ""
        style = "bold" if seat == view["to_act"] else ""
        counts = [str(view["tricks"][seat])]
        if mosquitoes is not None:
            counts.append(str(mosquitoes[seat]))
        table.add_row(
            Text(marker + names[seat] + dealer, style=style),
            str(size),
            str(view["discard_counts"][seat]),
            *counts,
            str(view["scores"][seat]),
        )
    if mosquitoes is None:
        table.caption = _("Won tricks stay face down until the round is scored.")
        table.caption_justify = "left"
    return table


def _table_line(view: Mapping[str, Any]) -> Text:
    line = Text(_("Trump: "))
    line.append(_colour(view["trump"]) if view["trump"] else Text(_("none yet")))
    if view["discards"]:
        line.append(" · " + _("your cards aside: "))
        line.append(cards(view["discards"]))
    return line


def _trick(view: Mapping[str, Any], names: Sequence[str]) -> RenderableType:
    body = Text()
    if view["phase"] == "discard":
        body.append(_("Everyone sets two cards aside, face down (discard), the forehand first."))
    elif view["phase"] == "score":
        body.append(_("Scoring round {n}.", n=view["round"] + 1))
        if view["doubled"]:
            body.append("\n" + _("Doubled: ")).append(_colour(view["doubled"]))
        body.append("\n").append(won_cards(view, names))
    elif not view["trick"]:
        leader = view["to_act"]
        if leader is not None:
            leads = sentence(names[leader], N_("you lead"), N_("{name} leads"), style="")
            body.append(_("(empty — {leader})", leader=leads.plain))
    else:
        for entry in view["trick"]:
            body.append(f"{names[entry['seat']]}: ")
            body.append(card(entry["card"]))
            body.append("\n")
        body.append(_("Led: ")).append(_colour(view["led"]))
        if view["naming_trump"]:
            naming = sentence(
                names[view["to_act"]],
                N_("You name the trump colour."),
                N_("{name} names the trump colour."),
                style="",
            )
            body.append("\n").append(naming)
    last = view["last_trick"]
    if last is not None and view["phase"] == "play" and not view["trick"]:
        body.append("\n" + _("Last trick to {name}: ", name=names[last["winner"]]))
        body.append(cards(e["card"] for e in last["cards"]))
    return Panel(body, title=_("Trick"), expand=False)


def won_cards(view: Mapping[str, Any], names: Sequence[str]) -> Text:
    """Each seat's won number cards per colour and its mosquito colours (before scoring)."""
    out = Text(_("Won number cards per colour (each scores 1, doubled 2, dropped 0):"))
    for seat, pile in enumerate(view["piles"]):
        numbers = {c: sum(1 for t in pile if t[-1] == c and t[0] != "M") for c in COLOURS}
        bitten = sorted({t[-1] for t in pile if t[0] == "M"}, key=COLOURS.index)
        out.append(f"\n  {names[seat]}: ")
        out.append(", ".join(f"{colour_word(c)} {n}" for c, n in numbers.items()))
        if bitten:
            bites = ", ".join(colour_word(c) for c in bitten)
            out.append("; " + _("mosquitoes: {colours}", colours=bites))
    return out


def breakdown(
    piles: Sequence[Sequence[str]], entry: Mapping[str, Any], names: Sequence[str]
) -> Text:
    """How each seat's round score came about: ``12 points − 2 × 5 for mosquitoes = 2``."""
    out = Text(_("Round {n} scores:", n=entry["round"] + 1), style="cyan")
    if entry["doubled"] is None and entry["dropped"] is None:
        out.append("\n  " + _("Nobody doubled or dropped a colour."))
    elif entry["doubled"] is None:
        out.append("\n  " + _("Nobody doubled a colour."))
    elif entry["dropped"] is None:
        out.append("\n  " + _("Nobody dropped a colour."))
    for seat, pile in enumerate(piles):
        points = sum(
            0 if t[-1] == entry["dropped"] else 2 if t[-1] == entry["doubled"] else 1
            for t in pile
            if t[0] != "M"
        )
        bites = len({t[-1] for t in pile if t[0] == "M"})
        line = ngettext("{n} point", "{n} points", points)
        if bites:
            line += " " + _(
                "− {bites} × {penalty} for mosquitoes", bites=bites, penalty=MOSQUITO_PENALTY
            )
        out.append(f"\n  {names[seat]}: {line} = {entry['scores'][seat]}")
    return out


def round_scored(
    history: Sequence[Mapping[str, Any]], index: int, view: Mapping[str, Any], names: Sequence[str]
) -> list[RenderableType]:
    """After the ``round`` event of ``history[index]``: how each seat's score came about,
    from the round's ``trick`` events (at scoring every won card is shown, MS-12)."""
    scored = next(e for e in history[index].get("events", ()) if e["type"] == "round")
    entry = next((e for e in view["sheet"] if e["round"] == scored["round"]), None)
    if entry is None:
        return []
    piles: list[list[str]] = [[] for _seat in names]
    start = index
    while start > 0 and not any(e["type"] == "round" for e in history[start - 1].get("events", ())):
        start -= 1
    for item in history[start : index + 1]:
        for event in item.get("events", ()):
            if event["type"] == "trick":
                piles[event["winner"]].extend(c["card"] for c in event["cards"])
    out: list[RenderableType] = [breakdown(piles, entry, names)]
    if view["phase"] != "over" and view["round"] > scored["round"]:
        dealer = sentence(names[view["dealer"]], N_("You deal"), N_("{name} deals")).plain
        out.append(Text(_("Round {n}: {dealer}.", n=view["round"] + 1, dealer=dealer), "bold cyan"))
    return out


def explain(view: Mapping[str, Any], move: str) -> str:
    """What the legal ``move`` would do, in words."""
    verb, _sep, arg = move.partition(" ")
    if verb == "discard":
        return _("set the {card} aside, face down, for this round", card=_name(arg))
    if verb == "trump":
        return _("make {colour} the trump colour until the next mosquito", colour=colour_word(arg))
    if verb == "double":
        return _("every {colour} number card scores 2 this round", colour=colour_word(arg))
    if verb == "drop":
        return _("{colour} number cards score nothing this round", colour=colour_word(arg))
    what = _name(move)
    lead = not view["trick"]
    if move[0] == "M":
        if lead:
            return _("play the {card} (then name the trump colour) to lead a new trick", card=what)
        return _("play the {card} (then name the trump colour)", card=what)
    if lead:
        return _("play the {card} to lead a new trick", card=what)
    return _("play the {card}", card=what)


def event(entry: Mapping[str, Any], names: Sequence[str]) -> Text:
    """One history entry as a sentence."""
    who = names[entry["seat"]]
    verb, _sep, arg = entry["move"].partition(" ")
    if verb == "discard":
        what = card(arg) if arg != "?" else Text(_("a card"))
        return sentence(who, N_("You set {0} aside"), N_("{name} sets {0} aside"), what)
    if verb == "trump":
        colour = _colour(arg)
        return sentence(
            who, N_("You name the trump: {0}"), N_("{name} names the trump: {0}"), colour
        )
    if verb == "double":
        return sentence(who, N_("You double: {0}"), N_("{name} doubles: {0}"), _colour(arg))
    if verb == "drop":
        return sentence(who, N_("You drop: {0}"), N_("{name} drops: {0}"), _colour(arg))
    if entry["move"] == HIDDEN:
        hidden = Text(_("a card (face down now)"), style="dim")
        return sentence(who, N_("You play {0}"), N_("{name} plays {0}"), hidden)
    return sentence(who, N_("You play {0}"), N_("{name} plays {0}"), card(entry["move"]))


def score_sheet(view: Mapping[str, Any], names: Sequence[str]) -> Table:
    """Every finished round (doubled and dropped colour, scores) and the totals."""
    # Light rules and the seat alone as the header keep six players within 80 columns.
    table = Table(
        title=_("Score sheet"),
        title_justify="left",
        box=box.SIMPLE_HEAVY,
        padding=(0, 1),
        pad_edge=False,
        collapse_padding=True,
    )
    table.add_column(_("Round"), justify="right")
    table.add_column(_("Doubled"))
    table.add_column(_("Dropped"))
    for seat, name in enumerate(names):
        header = name if is_you(name) else seat_name(seat)
        table.add_column(header, justify="right", no_wrap=True)
    for entry in view["sheet"]:
        table.add_row(
            str(entry["round"] + 1),
            _colour_word(entry["doubled"]),
            _colour_word(entry["dropped"]),
            *(str(s) for s in entry["scores"]),
        )
    best = max(view["scores"])
    table.add_row(
        Text(_("Total"), style="bold"),
        "",
        "",
        *(Text(str(s), style="bold green" if s == best else "bold") for s in view["scores"]),
    )
    return table


def result(view: Mapping[str, Any], names: Sequence[str]) -> RenderableType:
    """The final score sheet and the winner(s)."""
    text = winners_line(view["scores"], names)
    line = Text(text, style="bold green")
    return Panel(Group(score_sheet(view, names), line), title=_("Match over"))


PRESENTER: Presenter = Hooks(
    render=render,
    explain=explain,
    event=event,
    result=result,
    table_view=table_view,
    pile=pile,
    round_scored=round_scored,
    score_sheet=score_sheet,
)
"""The terminal hooks of this game (:class:`tikki.tui.presenter.Presenter`)."""
