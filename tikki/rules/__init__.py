"""Every game's rules in English, Finnish and German, and the choice of language.

The texts are package data, one markdown file per game and language:
``tikki/rules/{game}.{lang}.md`` with ``lang`` one of :data:`LANGUAGES`.  They follow
``RULINGS.md`` (revision r2) and name each option as the engine spells it.

>>> rules_text("myllymatti", "fi").splitlines()[0]
'# Myllymatti'
>>> rules_text("mattis", "sv") == rules_text("mattis", "en")
True

Choosing the language (issue 13): the terminal takes ``--lang`` and otherwise the first
set one of ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` (:func:`terminal_language`); the HTTP
API takes ``?lang=`` and otherwise ``Accept-Language`` (:func:`request_language`).
Anything else is English.  These two functions are the single place where this module
picks a language, so that a shared resolver (``tikki.i18n``) can replace them.
"""

from __future__ import annotations

import functools
import math
import os
import re
from collections.abc import Mapping
from importlib import resources

from tikki.core import RulesError
from tikki.i18n import _ as _t

LANGUAGES = ("en", "fi", "de")
"""The languages every game's rules are written in."""
DEFAULT_LANGUAGE = "en"
"""The language served when the one asked for is not among :data:`LANGUAGES`."""
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
"""The environment variables the terminal reads for its language, in order."""

_FILE = re.compile(r"^([a-z0-9_]+)\.([a-z]{2})\.md$")
_TAG = re.compile(r"^\s*([A-Za-z]{1,8})(?:[-_.@][^;]*)?$")


@functools.cache
def _files() -> dict[str, dict[str, str]]:
    """``{game: {lang: text}}`` of every rules file in the package."""
    found: dict[str, dict[str, str]] = {}
    for entry in resources.files(__name__).iterdir():
        match = _FILE.match(entry.name)
        if match:
            found.setdefault(match[1], {})[match[2]] = entry.read_text(encoding="utf-8")
    return found


def rules_games() -> tuple[str, ...]:
    """The games that have rules texts, sorted."""
    return tuple(sorted(_files()))


def language_of(tag: str | None) -> str | None:
    """The language of ``tag`` among :data:`LANGUAGES`, or ``None``.

    ``tag`` is a language tag or a locale name: ``fi``, ``de-AT``, ``fi_FI.UTF-8``, ``EN``.

    >>> language_of("fi_FI.UTF-8"), language_of("de-AT"), language_of("sv"), language_of("C")
    ('fi', 'de', None, None)
    """
    match = _TAG.match(tag or "")
    if match is None:
        return None
    lang = match[1].lower()
    return lang if lang in LANGUAGES else None


def rules_text(game: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """The rules of ``game`` as markdown in ``lang`` (English if ``lang`` is not one of ours).

    ``lang`` may be a tag or locale name (``de-DE``, ``fi_FI.UTF-8``).  Raise
    :class:`~tikki.core.RulesError` naming the games for a game without rules.
    """
    texts = _files().get(game) if isinstance(game, str) else None
    if not texts:
        games = ", ".join(rules_games())
        raise RulesError(
            _t("no rules for game {game!r}: the games are {games}", game=game, games=games)
        )
    return texts.get(language_of(lang) or DEFAULT_LANGUAGE) or texts[DEFAULT_LANGUAGE]


def terminal_language(explicit: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language: ``--lang`` (``explicit``), else the locale, else English.

    The locale is the first non-empty of ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` (as
    POSIX orders them); a locale of another language, or ``C``/``POSIX``, means English.
    An ``explicit`` language that is none of ours raises :class:`~tikki.core.RulesError`.
    """
    if explicit is not None:
        lang = language_of(explicit)
        if lang is None:
            names = ", ".join(LANGUAGES)
            raise RulesError(
                _t("--lang is one of {names}, not {value!r}", names=names, value=explicit)
            )
        return lang
    env = os.environ if environ is None else environ
    for name in LOCALE_VARIABLES:
        if env.get(name):
            return language_of(env[name]) or DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def accept_language(header: str | None) -> str | None:
    """The best of :data:`LANGUAGES` in an ``Accept-Language`` header, or ``None``.

    Ranges are weighed by their ``q`` (1 if absent, 0 refuses); among equal weights the
    first listed wins; ``*`` and unknown languages are skipped.

    >>> accept_language("en;q=0.5, de-CH, fi;q=0.9")
    'de'
    """
    best: tuple[float, int, str] | None = None
    for index, part in enumerate((header or "")[:1000].split(",")):
        tag, _, params = part.partition(";")
        lang = language_of(tag)
        weight = _quality(params)
        if lang is None or weight <= 0:
            continue
        if best is None or (weight, -index) > (best[0], best[1]):
            best = (weight, -index, lang)
    return best[2] if best else None


def _quality(params: str) -> float:
    """The ``q`` of an ``Accept-Language`` range's parameters (1 if absent or broken)."""
    for param in params.split(";"):
        key, _, value = param.partition("=")
        if key.strip().lower() == "q":
            try:
                weight = float(value)
            except ValueError:
                return 1.0
            return min(max(weight, 0.0), 1.0) if math.isfinite(weight) else 1.0
    return 1.0


def request_language(query: str | None, header: str | None) -> str:
    """An HTTP request's language: ``?lang=`` if one of ours, else ``Accept-Language``."""
    return language_of(query) or accept_language(header) or DEFAULT_LANGUAGE


__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LOCALE_VARIABLES",
    "accept_language",
    "language_of",
    "request_language",
    "rules_games",
    "rules_text",
    "terminal_language",
]
