"""Every game's rules in English, Finnish and German.

The texts are package data, one markdown file per game and language:
``tikki/rules/{game}.{lang}.md`` with ``lang`` one of :data:`LANGUAGES`; a plug-in game
ships its own in the package it declares (:attr:`tikki.core.Game.rules_package`).  They follow
``RULINGS.md`` (revision r2) and name each option as the engine spells it.

>>> from tikki.core import game_class, games
>>> all(rules_text(n, "fi").startswith(f"# {game_class(n).title}") for n in games())
True
>>> all(rules_text(n, "sv") == rules_text(n, "en") for n in games())
True

The language is chosen in :mod:`tikki.i18n` (``--lang`` and the locale for the terminal,
``?lang=`` and ``Accept-Language`` for HTTP); :func:`rules_text` takes any tag and serves
English for a language it has no text in.
"""

from __future__ import annotations

import functools
import re
from importlib import resources

from tikki.core import RulesError, registered
from tikki.i18n import LANGUAGES, spoken
from tikki.i18n import _ as _t

DEFAULT_LANGUAGE = "en"
"""The language served when the one asked for is not among :data:`LANGUAGES`."""

_FILE = re.compile(r"^([a-z0-9_]+)\.([a-z]{2})\.md$")


@functools.cache
def _files() -> dict[str, dict[str, str]]:
    """``{game: {lang: text}}`` of every rules file in the package."""
    found: dict[str, dict[str, str]] = {}
    for entry in resources.files(__name__).iterdir():
        match = _FILE.match(entry.name)
        if match:
            found.setdefault(match[1], {})[match[2]] = entry.read_text(encoding="utf-8")
    return found


@functools.cache
def _package_files(package: str, game: str) -> dict[str, str]:
    """``{lang: text}`` of the files ``<game>.<lang>.md`` in a plug-in's ``package``."""
    found: dict[str, str] = {}
    for entry in resources.files(package).iterdir():
        match = _FILE.match(entry.name)
        if match and match[1] == game:
            found[match[2]] = entry.read_text(encoding="utf-8")
    return found


def _texts(game: str) -> dict[str, str]:
    """``{lang: text}`` of a game: tikki's own files, else the package its class declares
    (:attr:`tikki.core.Game.rules_package`); empty for a game without rules."""
    own = _files().get(game)
    if own:
        return own
    cls = registered().get(game)
    if cls is None or not cls.rules_package:
        return {}
    return _package_files(cls.rules_package, game)


def rules_games() -> tuple[str, ...]:
    """The games that have rules texts, sorted (tikki's own and the plug-ins')."""
    return tuple(sorted(set(_files()) | {g for g in registered() if _texts(g)}))


def rules_text(game: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """The rules of ``game`` as markdown in ``lang`` (English if ``lang`` is not one of ours).

    ``lang`` may be a tag or locale name (``de-DE``, ``fi_FI.UTF-8``).  Raise
    :class:`~tikki.core.RulesError` naming the games for a game without rules.
    """
    texts = _texts(game) if isinstance(game, str) else None
    if not texts:
        games = ", ".join(rules_games())
        raise RulesError(
            _t("no rules for game {game!r}: the games are {games}", game=game, games=games)
        )
    return texts.get(spoken(lang)) or texts[DEFAULT_LANGUAGE]


TERMINAL_HEADINGS = {"en": "In the terminal", "fi": "Päätteessä", "de": "Im Terminal"}
"""The heading of every rules text's last section: the options and moves as the terminal
(``tikki play``) and the API write them, which the players' page leaves out."""


def players_text(game: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """The rules of ``game`` in ``lang`` in players' words: :func:`rules_text` without its
    last section (:data:`TERMINAL_HEADINGS`: the terminal's and the API's spelling)."""
    text = rules_text(game, lang)
    body, _sep, last = text.rpartition("\n## ")
    if body and last.split("\n", 1)[0].strip() in TERMINAL_HEADINGS.values():
        return body.rstrip("\n") + "\n"
    return text


__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "TERMINAL_HEADINGS",
    "players_text",
    "rules_games",
    "rules_text",
]
