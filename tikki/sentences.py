"""Every sentence the game logs say about an event, in one place.

The terminal's log (:mod:`tikki.tui.events`) and the browser's
(``tikki/web/static/events.js``) say each event of docs/events.md in a sentence, and both
read it from here, keyed by the event's kind and variant (``trick.you``: the trick won by
the reader). The terminal reads :func:`terminal`, translated through gettext's ``tikki``
domain; the browser reads ``tikki/web/static/sentences.js``, which ``make catalogs``
writes from :func:`browser` (:func:`browser_module`; a test fails when it is stale).

The two logs word some events differently (the terminal prints styled cards inside its
sentences, the browser writes card chips into whole ones), so a sentence is in
:data:`BOTH` where both say it, else in :data:`TERMINAL` or :data:`BROWSER`. Each is
translated once, in ``tikki/locale/{fi,de}/LC_MESSAGES/tikki.po``: the browser's own
sentences carry the gettext context ``browser`` (:data:`BROWSER_CONTEXT`), since a few say
the same English as the terminal's in other words of Finnish or German, and the browser's
catalogs take their translations from there.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping

Sentence = str | tuple[str, str]
"""A sentence, or its singular and plural forms (the count is ``{n}``)."""

BROWSER_CONTEXT = "browser"
"""The gettext context of the browser's own sentences in the ``tikki`` domain."""

BOTH: Mapping[str, Sentence] = {
    "tie.word": "Tie",
    "phase.play": "The tricks begin",
    "phase.other": "Phase {phase} begins",
    "over": "Game over.",
}
"""The sentences both logs say, word for word."""

TERMINAL: Mapping[str, Sentence] = {
    "trick.you": "You win the trick: {0}",
    "trick": "{name} wins the trick: {0}",
    "tie": "{word}: {seats} tie for the highest rank and play again.",
    "void_tie.kina": "The kina cannot go on: the trick is void, each takes back his cards (",
    "void_tie": "Phase 1 ends mid-trick: the cards go back to who played them (",
    "falls": "The trick falls: ",
    "falls.end": " leave the game.",
    "take.you": "You pick up {0}",
    "take": "{name} picks up {0}",
    "draw.you": "You draw {0}",
    "draw": "{name} draws {0}",
    "draw.one.you": "You draw a card",
    "draw.one": "{name} draws a card",
    "deal.you": "You are dealt {0}",
    "deal": "{name} is dealt {0}",
    "last_card.unseen.you": "You set the last stock card aside, unseen: it decides the trump.",
    "last_card.unseen": "{name} sets the last stock card aside, unseen: it decides the trump.",
    "last_card.you": "You draw the last stock card and show it: {0}",
    "last_card": "{name} draws the last stock card and shows it: {0}",
    "phase.shed": "Phase 2 begins: every hand is public",
    "phase.discard": "Discarding: each player sets two cards aside",
    "phase.score": "Scoring: the round's tricks are counted",
    "lead.you": "you lead",
    "lead": "{name} leads",
    "choose.you": "you choose",
    "choose": "{name} chooses",
    "trump": "Trump is {suit}",
    "dreck": "Dreck dealt: {cards} ({who})",
    "dreck.yours": "; you get ",
    "out.you": "You are out ({place}).",
    "out": "{name} is out ({place}).",
    "round": "Round {round} is scored. Points: {scores}; totals: {totals}.",
}
"""The terminal's own sentences (``{0}``: styled cards; ``{name}``: the seat)."""

BROWSER: Mapping[str, Sentence] = {
    "trick.you": "{name} win the trick: {cards}.",
    "trick": "{name} wins the trick: {cards}.",
    "trick.empty.you": "{name} win the trick.",
    "trick.empty": "{name} wins the trick.",
    "void_tie.kina": (
        "The kina cannot go on: the trick is void, each takes back his cards ({cards})."
    ),
    "void_tie": "Phase 1 ends mid-trick: the cards go back to who played them ({cards}).",
    "falls": "The trick falls: {cards} leave the game.",
    "take.you": "{name} pick up {cards}.",
    "take": "{name} picks up {cards}.",
    "draw.you": "{name} draw {cards}.",
    "draw": "{name} draws {cards}.",
    "draw.count.you": ("{name} draw a card.", "{name} draw {n} cards."),
    "draw.count": ("{name} draws a card.", "{name} draws {n} cards."),
    "deal.you": "{name} are dealt {cards}.",
    "deal": "{name} is dealt {cards}.",
    "deal.count.you": ("{name} are dealt a card.", "{name} are dealt {n} cards."),
    "deal.count": ("{name} is dealt a card.", "{name} is dealt {n} cards."),
    "last_card.you": "{name} draw the last stock card and show it: {card}.",
    "last_card": "{name} draws the last stock card and shows it: {card}.",
    "last_card.unseen.you": (
        "{name} set the last stock card aside, face down: it decides the trump."
    ),
    "last_card.unseen": "{name} sets the last stock card aside, face down: it decides the trump.",
    "phase.shed": "Phase 2 begins: every hand is shown",
    "phase.discard": "Discarding: each player sets two cards aside",
    "phase.score": "Scoring: the round's tricks are counted",
    "phase.led": "{phase}; {leader}.",
    "phase.end": "{phase}.",
    "trump.card": "Trump is {colour} ({card}).",
    "trump": "Trump is {colour}.",
    "dreck": (
        "The dreck: {n} card dealt to the short hands ({seats})",
        "The dreck: {n} cards dealt to the short hands ({seats})",
    ),
    "dreck.yours": "{dreck}; you get {cards}.",
    "dreck.end": "{dreck}.",
    "out.you": "{name} are out ({place}).",
    "out": "{name} is out ({place}).",
    "round": "Round {number} scored: {scores}.",
}
"""The browser's own sentences (HTML: ``{name}`` is the seat, "You" for the reader)."""


def terminal() -> dict[str, Sentence]:
    """The terminal's sentences by key: :data:`BOTH` and :data:`TERMINAL`."""
    return {**BOTH, **TERMINAL}


def browser() -> dict[str, Sentence]:
    """The browser's sentences by key: :data:`BOTH` and :data:`BROWSER`."""
    return {**BOTH, **BROWSER}


def catalog_entries() -> Iterator[tuple[Sentence, str, str | None]]:
    """(msgid, where, gettext context) of every sentence, for the ``tikki`` template."""
    for key, text in {**BOTH, **TERMINAL}.items():
        yield text, f"sentence {key}", None
    for key, text in BROWSER.items():
        yield text, f"sentence {key} (browser)", BROWSER_CONTEXT


MODULE_HEAD = (
    "// @ts-check",
    "// Generated from tikki/sentences.py by `make catalogs`: edit the sentences there.",
    "// The browser log's sentences by event kind and variant, in English; i18n.js's `_()`",
    "// and `ngettext()` translate them (their translations are in the tikki domain's .po",
    '// files, msgctxt "browser", and reach /static/i18n/LANG.json through make catalogs).',
    "",
    "/** Marks a text for the catalog. @param {string} text */",
    "const N_ = (text) => text;",
    "",
    "/** Marks a text with a count for the catalog: singular and plural.",
    " * @param {string} one @param {string} many @returns {[string, string]} */",
    "const Nn_ = (one, many) => [one, many];",
    "",
)
"""The generated module's first lines."""


def browser_module() -> str:
    """The text of ``tikki/web/static/sentences.js``: :func:`browser` as an ES module,
    every text marked for the browser's catalog generator (``N_``, ``Nn_`` for a plural)."""
    lines = []
    for key, text in browser().items():
        if isinstance(text, tuple):
            value = f"Nn_({json.dumps(text[0])}, {json.dumps(text[1])})"
        else:
            value = f"N_({json.dumps(text)})"
        lines.append(f"  {json.dumps(key)}: {value},")
    return "\n".join([*MODULE_HEAD, "export const SENTENCES = {", *lines, "};", ""])


__all__ = [
    "BOTH",
    "BROWSER",
    "BROWSER_CONTEXT",
    "TERMINAL",
    "Sentence",
    "browser",
    "browser_module",
    "catalog_entries",
    "terminal",
]
