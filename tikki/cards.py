"""Cards, decks and their text notation (RULINGS C-3).

French-suited cards (the shedding games) are written rank then suit: ranks
``2 3 4 5 6 7 8 9 T J Q K A`` and suits ``S H D C`` (``TH`` is the ten of hearts).
Input also accepts ``10H`` and lower case; output is always canonical.

Internally a French card is an ``int`` from 0 to 51, ``suit * 13 + rank`` with rank 0 the
two and rank 12 the ace, so ``card % 13`` is its rank and ``card // 13`` its suit.  The
lookup tables below (:data:`CARD_TEXT`, :data:`RANK_OF`, :data:`SUIT_OF`) let the game
modules stay fast without giving up the text API.

Colour cards (a 64-card deck of four colours, RULINGS MS-1) are number then colour:
``1R`` … ``12R`` and the mosquito ``MR``; colours ``R`` red, ``B`` blue, ``G`` green, ``K``
black.  Identical cards (the two 12s, the three mosquitoes of a colour) share one text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Final

from tikki.i18n import N_, _

RANKS: Final = "23456789TJQKA"
"""French ranks from low to high."""
SUITS: Final = "SHDC"
"""French suits in canonical order: spades, hearts, diamonds, clubs."""
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
"""Full English names of the French suits."""
RANK_NAMES = {
    "T": "ten",
    "J": "jack",
    "Q": "queen",
    "K": "king",
    "A": "ace",
}
"""English names of the ranks that are not written as digits."""
_DIGIT_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine")
RANK_WORDS = {**dict(zip("23456789", _DIGIT_WORDS, strict=True)), **RANK_NAMES}
"""English names of every rank, digits included (``6`` → ``six``)."""


def rank_plural(rank: str) -> str:
    """The plural name of a rank, as words: ``6`` → ``sixes``, ``Q`` → ``queens``."""
    name = RANK_WORDS.get(rank, rank)
    return name + ("es" if name.endswith("x") else "s")


N_FRENCH: Final = 52
CARD_TEXT: Final[tuple[str, ...]] = tuple(r + s for s in SUITS for r in RANKS)
"""Canonical text of each French card int."""
RANK_OF: Final[tuple[int, ...]] = tuple(c % 13 for c in range(N_FRENCH))
"""Rank index (0 = two, 12 = ace) of each French card int."""
SUIT_OF: Final[tuple[int, ...]] = tuple(c // 13 for c in range(N_FRENCH))
"""Suit index (0 = spades … 3 = clubs) of each French card int."""
TEXT_CARD: Final[dict[str, int]] = {t: i for i, t in enumerate(CARD_TEXT)}
"""Canonical text to French card int."""

_FRENCH_RE = re.compile(r"^(10|[2-9TJQKA])([SHDC])$")


def ints_of(texts: Iterable[str], table: Mapping[str, int] = TEXT_CARD) -> list[int]:
    """The card ints of canonical card texts (French by default; a game's own ``table``
    for another deck)."""
    return [table[t] for t in texts]


def french_deck() -> list[str]:
    """Return the 52 French cards in canonical order (by suit, then rank)."""
    return list(CARD_TEXT)


def normalize_french(text: str) -> str | None:
    """Return the canonical text of a forgiving French card text, or ``None``.

    >>> normalize_french("10h"), normalize_french(" qs "), normalize_french("1X")
    ('TH', 'QS', None)
    """
    t = text.strip()
    if not t.isascii():
        return None
    m = _FRENCH_RE.match(t.upper())
    if m is None:
        return None
    rank = "T" if m.group(1) == "10" else m.group(1)
    return rank + m.group(2)


def parse_french(text: str) -> int:
    """Parse a forgiving French card text into its int; raise ``ValueError`` if malformed."""
    canon = normalize_french(text)
    if canon is None:
        raise ValueError(
            f"{text!r} is not a card: write rank then suit, ranks {' '.join(RANKS)} "
            f"(or 10), suits {' '.join(SUITS)}, e.g. 7H or TS"
        )
    return TEXT_CARD[canon]


# --- names in the current language (tikki.i18n) -------------------------------------------

_SUIT_TEXTS = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs")}
_RANK_TEXTS = {
    "2": N_("two"),
    "3": N_("three"),
    "4": N_("four"),
    "5": N_("five"),
    "6": N_("six"),
    "7": N_("seven"),
    "8": N_("eight"),
    "9": N_("nine"),
    "T": N_("ten"),
    "J": N_("jack"),
    "Q": N_("queen"),
    "K": N_("king"),
    "A": N_("ace"),
}
_RANK_PLURAL_TEXTS = {
    "2": N_("twos"),
    "3": N_("threes"),
    "4": N_("fours"),
    "5": N_("fives"),
    "6": N_("sixes"),
    "7": N_("sevens"),
    "8": N_("eights"),
    "9": N_("nines"),
    "T": N_("tens"),
    "J": N_("jacks"),
    "Q": N_("queens"),
    "K": N_("kings"),
    "A": N_("aces"),
}
_COLOUR_TEXTS = {"R": N_("red"), "B": N_("blue"), "G": N_("green"), "K": N_("black")}
_MOSQUITO_TEXTS = {
    "R": N_("red mosquito"),
    "B": N_("blue mosquito"),
    "G": N_("green mosquito"),
    "K": N_("black mosquito"),
}
"""The mosquitoes' names: one text each, so that a language can inflect the colour
(``blaue Mücke``), as the web table does."""


_SUIT_ONE_TEXTS = {"S": N_("spade"), "H": N_("heart"), "D": N_("diamond"), "C": N_("club")}


def suit_one(letter: str) -> str:
    """One card of a French suit, in the current language: ``H`` → heart, hertta, Herz
    (as in "play a higher heart")."""
    return _(_SUIT_ONE_TEXTS[letter])


def suit_word(letter: str) -> str:
    """A French suit's name in the current language: ``H`` → hearts, hertta, Herz."""
    return _(_SUIT_TEXTS[letter]) if letter in _SUIT_TEXTS else colour_word(letter)


def rank_word(rank: str) -> str:
    """A rank's name in the current language: ``Q`` → queen, rouva, Dame."""
    return _(_RANK_TEXTS[rank])


def rank_words(rank: str) -> str:
    """A rank's plural name in the current language: ``Q`` → queens, rouvat, Damen."""
    return _(_RANK_PLURAL_TEXTS[rank])


def card_word(text: str) -> str:
    """A French card's name in the current language: ``QH`` → queen of hearts,
    herttarouva, Herz-Dame."""
    return _("{rank} of {suit}", rank=rank_word(text[0]), suit=suit_word(text[1]))


def colour_word(letter: str) -> str:
    """A card colour in the current language: ``R`` → red, punainen, Rot."""
    return _(_COLOUR_TEXTS[letter])


def mueckenstich_word(text: str) -> str:
    """A colour card's name in the current language: ``7R`` → red 7, punainen 7,
    Rot 7; ``MR`` → red mosquito, punainen hyttynen, rote Mücke."""
    colour = colour_word(text[-1])
    if text[0] == "M":
        return _(_MOSQUITO_TEXTS[text[-1]])
    return _("{colour} {number}", colour=colour, number=text[:-1])


def card_sort_key(card: int) -> tuple[int, int]:
    """Sort key ordering French cards by rank, then suit (the phase-1 display order)."""
    return (RANK_OF[card], SUIT_OF[card])


# --- colour cards ------------------------------------------------------------------------

COLOURS = "RBGK"
"""The colours: red, blue, green, black."""
COLOUR_NAMES = {"R": "red", "B": "blue", "G": "green", "K": "black"}
"""English names of the colours."""
MOSQUITO = 13
"""Value of the mosquito within a colour (above the two 12s)."""
_MS_RE = re.compile(r"^(1[0-2]|[1-9]|M)([RBGK])$")


def mueckenstich_deck() -> list[str]:
    """Return the 64 colour cards (MS-1): per colour 1–11, 12 twice, M three times."""
    deck: list[str] = []
    for colour in COLOURS:
        deck.extend(f"{n}{colour}" for n in range(1, 12))
        deck.extend([f"12{colour}"] * 2)
        deck.extend([f"M{colour}"] * 3)
    return deck


def normalize_mueckenstich(text: str) -> str | None:
    """Return the canonical text of a forgiving colour card text, or ``None``.

    >>> normalize_mueckenstich("m r"), normalize_mueckenstich("07g"), normalize_mueckenstich("13R")
    ('MR', '7G', None)
    """
    t = "".join(text.split()).upper()
    if len(t) >= 2 and t[0] == "0":
        t = t.lstrip("0")
    m = _MS_RE.match(t)
    if m is None:
        return None
    return m.group(1) + m.group(2)


# --- what a person types ------------------------------------------------------------------

SYMBOL_SUITS = {
    "♠": "S",
    "♥": "H",
    "♦": "D",
    "♣": "C",
    "♤": "S",
    "♡": "H",
    "♢": "D",
    "♧": "C",
}
"""Suit symbols (filled, as the terminal shows them, and hollow) and their letters."""
_COLOUR_WORDS = {name: letter for letter, name in COLOUR_NAMES.items()} | {
    "punainen": "R",
    "sininen": "B",
    "vihreä": "G",
    "musta": "K",
    "rot": "R",
    "blau": "B",
    "grün": "G",
    "gruen": "G",
    "schwarz": "K",
}
"""Colour names a person may type, in English, Finnish and German."""
_IGNORED = dict.fromkeys(map(ord, "\ufe0e\ufe0f\u200b"), None)


def parse_input(text: str) -> str:
    """Rewrite a move as a person types it (or copies it off the screen) into letters.

    Suit symbols become suit letters (``9♦`` → ``9D``), the colour mark ``■`` and colour
    names in English, Finnish or German become colour letters (``trump ■R``, ``trump red``
    and ``trump rot`` → ``trump R``), spaces
    around ``+`` go; the games' own parsers then accept any case and ``10`` for ``T``.

    >>> parse_input("slough q♣"), parse_input(" 10♥ + j♥ "), parse_input("trump Red")
    ('slough qC', '10H+jH', 'trump R')
    """
    t = text.translate(_IGNORED).strip()
    for symbol, letter in SYMBOL_SUITS.items():
        t = t.replace(symbol, letter)
    t = t.replace("■", "")
    t = re.sub(r"\s*\+\s*", "+", t)
    words = t.split()
    if len(words) == 2 and words[1].lower() in _COLOUR_WORDS:
        words[1] = _COLOUR_WORDS[words[1].lower()]
    return " ".join(words)


_CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9■])(10|[2-9TJQKA])([SHDC])(?![A-Za-z0-9])")


def screen_text(text: str) -> str:
    """Write the French cards inside a text as the terminal shows them (``9D`` → ``9♦``).

    >>> screen_text("must beat 9D: play a higher D or a trump (S), or take")
    'must beat 9♦: play a higher D or a trump (S), or take'
    """
    symbols = {letter: symbol for symbol, letter in list(SYMBOL_SUITS.items())[:4]}
    return _CARD_TOKEN.sub(lambda m: m.group(1) + symbols[m.group(2)], text)
