"""Languages: English (the source), Finnish and German, and how each text finds its own.

The texts of the Python side live in the gettext domain ``tikki``: the catalogs are
``tikki/locale/{fi,de}/LC_MESSAGES/tikki.po`` (compiled to ``tikki.mo``, which is what runs;
``make catalogs`` extracts, updates and compiles them with Babel).  English is the msgid
itself.  The pseudo-locale ``pseudo`` wraps every text in ``⟦…⟧``: tests use it to find a
text that never went through a translation.

Choosing the language is done here and nowhere else, for the terminal, the server, the
rules texts and the pages:

* the terminal: :func:`resolve` (``--lang``, else ``LC_ALL``, ``LC_MESSAGES``, ``LANG``);
  an unknown ``--lang`` is a clear error (:func:`check`), an unknown locale means English;
* HTTP: :func:`negotiate` (``?lang=``, else the best of ``Accept-Language`` by
  :func:`accept_language`); what a request asks for falls back, never fails;
* anything else is English.  :func:`spoken` is the real language behind a choice (the
  pseudo-locale is English), e.g. the language of the rules text served.

Translating: :func:`translator` gives one language's ``gettext``/``ngettext``; :func:`_` and
:func:`ngettext` use the language of the current command or request (:func:`use`,
:func:`activate`).  Placeholders are ``str.format`` names: ``_("{n} cards").format(n=3)``
(:func:`_` takes them as keywords and formats for you).
"""

from __future__ import annotations

import gettext as _gettext
import math
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any, Protocol

LANGUAGES = ("en", "fi", "de")
"""The languages a person can choose, English (the source) first."""
PSEUDO = "pseudo"
"""The test language: every translated text wrapped in :data:`MARKS`; never offered."""
MARKS = ("⟦", "⟧")
"""The pseudo-locale's opening and closing marks."""
DOMAIN = "tikki"
"""The gettext domain of the Python side's texts."""
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
"""Where the catalogs are (``LOCALE_DIR/fi/LC_MESSAGES/tikki.mo``)."""
NAMES = {"en": "English", "fi": "suomi", "de": "Deutsch"}
"""Each language's name in itself (for switchers and help)."""

_KNOWN = (*LANGUAGES, PSEUDO)


def known(code: str | None) -> str | None:
    """The language of a tag (``fi_FI.UTF-8``, ``de-AT``, ``FI``, ``pseudo``), or ``None``."""
    if not code:
        return None
    tag = code.strip().lower()
    if tag == PSEUDO:
        return PSEUDO
    primary = re.split(r"[-_.@]", tag, maxsplit=1)[0]
    return primary if primary in LANGUAGES else None


def spoken(lang: str | None) -> str:
    """The one of :data:`LANGUAGES` that ``lang`` (a tag or ``pseudo``) is read in: English
    for the pseudo-locale and anything unknown.

    >>> spoken("de-AT"), spoken("pseudo"), spoken("sv")
    ('de', 'en', 'en')
    """
    lang = known(lang)
    return lang if lang in LANGUAGES else "en"


def resolve(explicit: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language: ``explicit`` (``--lang``), checked by :func:`check` (an
    unknown one raises :class:`ValueError`), else the first of ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG`` that is set (POSIX order: the first one set decides, ``C``/``POSIX`` or a
    language of ours not meaning English); else ``"en"``.

    >>> resolve("fi"), resolve(None, {"LANG": "de_DE.UTF-8"}), resolve(None, {"LANG": "sv_SE"})
    ('fi', 'de', 'en')
    """
    if explicit is not None:
        return check(explicit)
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var)
        if value:
            return known(value) or "en"
    return "en"


def check(code: str) -> str:
    """``code`` as a language (a person's explicit choice, ``--lang``), or
    :class:`ValueError` with a one-line message naming the ones there are."""
    lang = known(code)
    if lang is None:
        names = ", ".join(LANGUAGES)
        raise ValueError(_("unknown language {lang!r}: choose {names}", lang=code, names=names))
    return lang


def _quality(params: Sequence[str]) -> float:
    """The ``q`` of an ``Accept-Language`` range's parameters, within 0..1.

    Absent, unreadable (``q=x``, ``q=1.0.0``) or not finite, it is 1: a broken weight does
    not turn a language the browser lists into a refusal; only ``q=0`` refuses.
    """
    for param in params:
        key, _sep, value = param.partition("=")
        if key.strip().lower() == "q":
            try:
                weight = float(value)
            except ValueError:
                return 1.0
            return min(max(weight, 0.0), 1.0) if math.isfinite(weight) else 1.0
    return 1.0


def accept_language(header: str | None) -> str | None:
    """The best of :data:`LANGUAGES` in an ``Accept-Language`` header, or ``None``.

    Ranges are weighed by their ``q`` (:func:`_quality`); among equal weights the first
    listed wins; ``*``, ``pseudo`` and languages that are not ours are skipped.

    >>> accept_language("en;q=0.5, de-CH, fi;q=0.9"), accept_language("de;q=1.0.0, fi;q=0.5")
    ('de', 'de')
    """
    best: tuple[float, int, str] | None = None
    for order, item in enumerate((header or "")[:1000].split(",")):
        tag, *params = item.split(";")
        lang = known(tag)
        weight = _quality(params)
        if lang is None or lang == PSEUDO or weight <= 0:
            continue
        if best is None or weight > best[0]:
            best = (weight, order, lang)
    return best[2] if best else None


def negotiate(accept_language_header: str | None, query: str | None = None) -> str:
    """The language of an HTTP request: ``?lang=`` if it names one (``pseudo`` too), else
    the best of ``Accept-Language`` (:func:`accept_language`), else ``"en"``.

    >>> negotiate("sv, de-CH;q=0.8, fi;q=0.9"), negotiate("fi", "de"), negotiate(None)
    ('fi', 'de', 'en')
    """
    return known(query) or accept_language(accept_language_header) or "en"


class Translations(Protocol):
    """What a language offers: ``gettext`` and ``ngettext``."""

    def gettext(self, message: str, /) -> str:
        """``message`` in this language."""

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        """The plural form for ``n`` in this language."""


class Pseudo:
    """The pseudo-locale: every text marked, plurals chosen as in English.  It keeps the
    texts it was asked for in :attr:`asked` (tests check that each is in the catalogs)."""

    def __init__(self) -> None:
        self.asked: set[str] = set()

    def gettext(self, message: str, /) -> str:
        """``message`` between the marks."""
        if not message:
            return message
        if len(self.asked) < 10_000:
            self.asked.add(message)
        return f"{MARKS[0]}{message}{MARKS[1]}"

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        """The English form for ``n``, between the marks."""
        return self.gettext(singular if n == 1 else plural)


@cache
def translator(lang: str) -> Translations:
    """The translations of ``lang`` (English, or an unknown language: the texts as they are)."""
    if lang == PSEUDO:
        return Pseudo()
    if lang not in LANGUAGES or lang == "en":
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)


_current: ContextVar[str] = ContextVar("tikki_lang", default="en")


def current() -> str:
    """The language of the current command or request."""
    return _current.get()


def activate(lang: str) -> None:
    """Make ``lang`` the language of the current context from now on (a command's)."""
    _current.set(lang if lang in _KNOWN else "en")


@contextmanager
def use(lang: str) -> Iterator[str]:
    """Speak ``lang`` inside the ``with`` block (a request, a WebSocket message)."""
    token = _current.set(lang if lang in _KNOWN else "en")
    try:
        yield lang
    finally:
        _current.reset(token)


def _(message: str, /, **params: Any) -> str:
    """``message`` in the current language, its ``{placeholders}`` filled from ``params``."""
    text = translator(_current.get()).gettext(message)
    return text.format(**params) if params else text


def ngettext(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """The form for ``n`` in the current language; ``{n}`` and ``params`` filled in."""
    text = translator(_current.get()).ngettext(singular, plural, n)
    return text.format(n=n, **params)


def N_(message: str, /) -> str:
    """Mark ``message`` for the catalog without translating it now (a table of texts)."""
    return message


def tr(message: str, /, **params: Any) -> str:
    """A text that was marked with :func:`N_` (or comes from data), translated now."""
    return _(message, **params)


def either(words: tuple[str, ...]) -> str:
    """``.png, .svg or .pdf``: the words as alternatives, in the current language."""
    if len(words) == 1:
        return words[0]
    return _("{some} or {last}", some=", ".join(words[:-1]), last=words[-1])


def own(texts: Mapping[str, Mapping[str, str]], message: str, /, **params: Any) -> str:
    """A plug-in game's own text in the current language: its translation in ``texts``
    (language → {English text → translation}, :attr:`tikki.core.Game.translations`), else
    tikki's catalogs (:func:`_`), its ``{placeholders}`` filled from ``params``."""
    text = texts.get(current(), {}).get(message)
    if text is None:
        return _(message, **params)
    return text.format(**params) if params else text


def localized_game(info: Mapping[str, Any], texts: Mapping[str, Mapping[str, str]]) -> Any:
    """One game's description (:func:`tikki.core.describe_game`) in the current language:
    its summary, phase goals and titles, move and variant titles, seat facts' titles, tie
    word and option
    ``text`` translated by ``texts`` (the game's own translations, else the catalogs), the
    option ``help`` its translated text with the ruling ids kept.
    :func:`tikki.core.localized_games` does it for every game."""

    def words(text: str) -> str:
        return own(texts, text) if text else text

    game = dict(info)
    game["summary"] = words(info.get("summary") or "")
    options = []
    for spec in info["options"]:
        option = dict(spec)
        option["text"] = words(spec["text"])
        rulings = spec.get("rulings") or []
        if current() != "en":
            option["help"] = option["text"] + (f" ({', '.join(rulings)})" if rulings else "")
        options.append(option)
    game["options"] = options
    for key in ("goals", "phase_titles", "move_titles", "variant_titles", "seat_facts"):
        game[key] = {k: words(text) for k, text in info.get(key, {}).items()}
    game["tie_word"] = words(info.get("tie_word") or "")
    return game


__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "MARKS",
    "NAMES",
    "N_",
    "PSEUDO",
    "Pseudo",
    "Translations",
    "_",
    "accept_language",
    "activate",
    "check",
    "current",
    "either",
    "known",
    "localized_game",
    "negotiate",
    "ngettext",
    "own",
    "resolve",
    "spoken",
    "tr",
    "translator",
    "use",
]
