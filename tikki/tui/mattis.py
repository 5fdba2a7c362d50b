"""Terminal presenter for Mattis: the table as one seat sees it, slough prompts, move help."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tikki.cards import card_word, rank_words, suit_word
from tikki.i18n import N_, _, ngettext
from tikki.tui.common import (
    card,
    card_count,
    cards,
    hand_and_moves,
    move_text,
    seat_label,
    sentence,
    shed_result,
    shed_trick,
    styled,
)
from tikki.tui.presenter import Hooks, Presenter

RANKS = "23456789TJQKA"


def _rank_name(rank: str) -> str:
    return rank_words(rank)


def _name(text: str) -> str:
    return card_word(text)


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
    phase = _("phase 1 — collecting") if collecting else _("phase 2 — shedding")
    table = Table(title=f"Mattis · {phase}", title_justify="left", expand=False)
    table.add_column(_("Seat"))
    table.add_column(_("Hand"), justify="right")
    table.add_column(_("Pile") if collecting else _("Known cards"))
    for seat, size in enumerate(view["hand_sizes"]):
        who = seat_label(view, names, seat, _("LOSER"))
        if collecting:
            table.add_row(who, str(size), card_count(len(view["piles"][seat])))
        else:
            known = view["hands"][seat]
            line = cards(known)
            hidden = size - len(known)
            if hidden:
                unseen = ngettext("{n} dreck card (unseen)", "{n} dreck cards (unseen)", hidden)
                line.append(" + " + unseen)
            table.add_row(who, str(size), line)
    return table


def _table_line(view: Mapping[str, Any], names: Sequence[str]) -> Text:
    line = Text()
    if view["phase"] == "collect":
        line.append(_("Stock: {cards}", cards=card_count(view["stock_size"])))
    else:
        line.append(_("Cards out of the game: {n}", n=len(view["fallen"])))
    if view["shown_card"] is not None:
        line.append(" · ")
        shown = card(view["shown_card"])
        owner = names[view["shown_owner"]]
        line.append(styled(_("last stock card {0} shown by {owner}"), shown, owner=owner))
    if view["trump"] is not None:
        line.append(" · " + _("trump: {suit}", suit=suit_word(view["trump"])))
    dreck = view.get("dreck")
    if dreck:
        line.append("\n" + _("Dreck: {cards} ", cards=card_count(len(dreck["cards"]))))
        line.append(cards(dreck["cards"]))
        if dreck["mine"]:
            line.append(_("; you got "))
            line.append(cards(dreck["mine"]))
    return line


def _trick(view: Mapping[str, Any], names: Sequence[str]) -> RenderableType:
    trick = view["trick"]
    if trick["kind"] == "shed":
        return Panel(shed_trick(trick, names), title=_("Trick"), expand=False)
    body = Text()
    for entry in trick["cards"]:
        body.append(f"{names[entry['seat']]}: ")
        body.append(card(entry["card"]))
        if entry["how"] == "stock":
            body.append(" " + _("(from the stock)"))
        elif entry["how"] == "slough":
            body.append(" " + _("(sloughed)"))
        body.append("\n")
    if not trick["cards"]:
        body.append(_("(empty)") + "\n")
    played = sum(1 for e in trick["cards"] if e["how"] != "slough")
    war = played > trick["round_played"]
    players = ", ".join(names[s] for s in trick["round"])
    if war and trick["cards"]:
        body.append(_("War between {players}", players=players))
    else:
        body.append(_("Playing: {players}", players=players))
    if trick["match_rank"] is not None:
        rank = _rank_name(trick["match_rank"])
        body.append("\n" + _("Must match: {rank} (whoever holds one plays it)", rank=rank))
    return Panel(body, title=_("Trick"), expand=False)


SLOUGH_RULE = N_(
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
    text = Text(_("Slough? "), style="bold yellow")
    names = ", ".join(_rank_name(r) for r in ranks)
    text.append(
        styled(
            _(
                "These ranks are losing this trick: {ranks}. You have played to it, so you may "
                "throw in {0} (one per move: slough CARD), or type pass to go on."
            ),
            cards(can),
            ranks=names,
        )
    )
    text.append(" " + _(SLOUGH_RULE) + " ")
    text.append(_("Sloughing never changes who wins; the cards go to the trick's winner."))
    return Panel(text, title=_("Slough lap"), expand=False)


def explain(view: Mapping[str, Any], move: str) -> str:
    """What the legal ``move`` would do, in words."""
    trick = view["trick"]
    if move == "pass":
        return _("slough nothing (more) and let the lap go on")
    if move.startswith("slough "):
        c = move.split(" ", 1)[1]
        return _(
            "throw the {card} into the trick: {ranks} are losing it, a higher card beats them "
            "(this does not change who wins)",
            card=_name(c),
            ranks=_rank_name(c[0]),
        )
    if move == "stock":
        return _("turn the top card of the stock and play it (your hand keeps its cards)")
    if move == "take":
        return _("take every card of the trick into your hand; the next player leads")
    parts = move.split("+")
    if len(parts) > 1:
        return _("play the sequence {cards} (one play)", cards=" ".join(parts))
    card_name = _name(move)
    if view["phase"] == "collect":
        if trick["match_rank"] == move[0]:
            return _("play the {card} (you must match the highest card's rank)", card=card_name)
        return _("play the {card}", card=card_name)
    if not trick["plays"]:
        return _("play the {card} to lead a new trick", card=card_name)
    top = "+".join(trick["plays"][-1]["cards"])
    return _("play the {card} to beat {top}", card=card_name, top=top)


def event(entry: Mapping[str, Any], names: Sequence[str]) -> Text:
    """A history entry as a short sentence: ``Seat 1 (random) sloughs 7H``."""
    who = names[entry["seat"]]
    move = entry["move"]
    if move == "pass":
        return sentence(who, N_("You pass"), N_("{name} passes"))
    if move == "take":
        return sentence(who, N_("You take the trick"), N_("{name} takes the trick"))
    if move == "stock":
        turned = card(entry.get("card", "?"))
        return sentence(
            who, N_("You turn {0} from the stock"), N_("{name} turns {0} from the stock"), turned
        )
    if move.startswith("slough "):
        sloughed = card(move.split(" ", 1)[1])
        return sentence(who, N_("You slough {0}"), N_("{name} sloughs {0}"), sloughed)
    return sentence(who, N_("You play {0}"), N_("{name} plays {0}"), move_text(move))


def result(view: Mapping[str, Any], names: Sequence[str]) -> RenderableType:
    """Who went out in which order, and who lost."""
    return shed_result(view, names, _("Loser: {name}"))


__all__ = ["PRESENTER", "event", "explain", "move_text", "render", "result"]

PRESENTER: Presenter = Hooks(render=render, explain=explain, event=event, result=result)
"""The terminal hooks of this game (:class:`tikki.tui.presenter.Presenter`)."""
