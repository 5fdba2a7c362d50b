"""Every game's rules in English, Finnish and German ("Rules in all three languages").

The texts are package data (``tikki/rules/{game}.{lang}.md``) read by
:func:`tikki.rules.rules_text`; ``tikki rules GAME --lang``, ``GET /api/games/{game}/rules``
(``?lang=``, ``Accept-Language``) and the page ``/rules/{game}`` serve them.
"""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from tests._server import TestClient, error_of
from tests.conftest import shared_path
from tikki import i18n
from tikki.cli import app
from tikki.core import RulesError, game_class, games
from tikki.rules import LANGUAGES, rules_games, rules_text

pytestmark = pytest.mark.engine

GAMES = tuple(games())
RULING = re.compile(r"\b(?:C|MM|AM|MS)-\d+\b")
TABLE_OPTIONS = {"mueckenstich": ("memory_aids",)}
"""Options of the table (not the engine) that a game's rules must name too."""

runner = CliRunner()


def headings(text: str) -> list[str]:
    """The ``##`` headings of a markdown text."""
    return [line for line in text.splitlines() if line.startswith("## ")]


# --- the texts ----------------------------------------------------------------------------


def test_every_game_has_rules_and_nothing_else_does() -> None:
    assert rules_games() == tuple(sorted(GAMES))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_every_language_has_the_same_sections(game: str, lang: str) -> None:
    text = rules_text(game, lang)
    english = rules_text(game, "en")
    assert text.startswith(f"# {game_class(game).title}\n\n")
    assert len(text) > 0.6 * len(english)
    assert len(headings(text)) == len(headings(english)) >= 4
    assert all(len(h) > 4 for h in headings(text))
    if lang != "en":
        assert headings(text) != headings(english), "the headings are not translated"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_every_text_names_every_option_and_variant(game: str, lang: str) -> None:
    cls = game_class(game)
    names = [spec.name for spec in cls.option_specs] + [f"variant={v}" for v in cls.variants]
    text = rules_text(game, lang)
    for name in names:  # each has its own item in the list of options
        assert re.search(rf"^- `{name}[` ]", text, re.M), f"{game}.{lang}.md lacks {name}"
    for name in TABLE_OPTIONS.get(game, ()):
        assert f"`{name}`" in text, f"{game}.{lang}.md does not name the option {name}"
    for spec in cls.option_specs:
        for choice in spec.choices or ():
            assert f"`{choice}`" in text, f"{game}.{lang}.md lacks {spec.name}={choice}"


@pytest.mark.parametrize("game", GAMES)
def test_translations_cite_the_same_rulings_and_they_exist(game: str) -> None:
    """Every language cites the same rulings; tikki's own games cite some, all of them in
    RULINGS.md (a plug-in's rules, in its own package, need not cite tikki's rulings)."""
    rulings = shared_path("rules", "RULINGS.md").read_text(encoding="utf-8")
    known = set(RULING.findall(rulings))
    cited = {lang: set(RULING.findall(rules_text(game, lang))) for lang in LANGUAGES}
    if not game_class(game).rules_package:
        assert cited["en"] and cited["en"] <= known, cited["en"] - known
    assert cited["fi"] == cited["en"] and cited["de"] == cited["en"]


@pytest.mark.parametrize(
    ("game", "lang", "words"),
    [
        ("myllymatti", "fi", ("etumies", "kina", "valtti", "kaatuu", "koira", "myllymatti")),
        ("myllymatti", "fi", ("hertta", "ruutu", "risti", "pata", "sotamies", "rouva")),
        ("mattis", "de", ("Herz", "Karo", "Kreuz", "Pik", "Bube", "Dame", "König", "Ass")),
        ("mueckenstich", "de", ("rot", "blau", "grün", "schwarz", "Mücke", "Trumpffarbe")),
        ("mueckenstich", "fi", ("hyttynen", "valtti", "tikki")),
    ],
)
def test_texts_use_the_languages_own_card_words(
    game: str, lang: str, words: tuple[str, ...]
) -> None:
    text = rules_text(game, lang)
    assert all(word in text for word in words), [w for w in words if w not in text]


def test_game_classes_keep_their_english_text() -> None:
    for game in GAMES:
        assert game_class(game).rules_text == rules_text(game, "en") == rules_text(game)


# --- the loader and the choice of language ------------------------------------------------


def test_unknown_language_falls_back_to_english_and_tags_are_understood() -> None:
    assert rules_text("mattis", "sv") == rules_text("mattis", "en")
    assert rules_text("mattis", "") == rules_text("mattis", "en")
    assert rules_text("mattis", "de-AT") == rules_text("mattis", "de")
    assert rules_text("mattis", "fi_FI.UTF-8") == rules_text("mattis", "fi")
    assert rules_text("mattis", "FI") == rules_text("mattis", "fi")
    assert rules_text("mattis", "pseudo") == rules_text("mattis", "en")
    assert [i18n.known(t) for t in ("C", "POSIX", "en_US", "fin", None)] == [
        None,
        None,
        "en",
        None,
        None,
    ]


@pytest.mark.parametrize("game", ["poker", "", "../myllymatti", "myllymatti.en", "Mattis"])
def test_unknown_game_is_a_clear_error(game: str) -> None:
    with pytest.raises(RulesError, match=r"no rules for game .*: the games are mattis, "):
        rules_text(game, "en")


# --- the terminal -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "heading"),
    [("fi", "Toinen vaihe"), ("de", "Phase 2 — Loswerden"), ("en", "Phase 2 — shedding")],
)
def test_cli_rules_lang(lang: str, heading: str) -> None:
    result = runner.invoke(app, ["rules", "myllymatti", "--lang", lang], env={"LANG": "C"})
    assert result.exit_code == 0, result.output
    assert heading in result.output


def test_cli_rules_follows_the_locale_and_lang_overrides_it() -> None:
    env = {"LC_ALL": "", "LC_MESSAGES": "", "LANG": "de_DE.UTF-8"}
    result = runner.invoke(app, ["rules", "Mückenstich"], env=env)
    assert result.exit_code == 0 and "Die Stiche" in result.output
    result = runner.invoke(app, ["rules", "mueckenstich", "--lang", "fi"], env=env)
    assert result.exit_code == 0 and "Tikit" in result.output and "Die Stiche" not in result.output
    result = runner.invoke(app, ["rules", "mueckenstich"], env={**env, "LANG": "sv_SE"})
    assert result.exit_code == 0 and "Tricks" in result.output


def test_cli_rules_bad_lang_and_game_are_clear_errors() -> None:
    result = runner.invoke(app, ["rules", "mattis", "--lang", "sv"])
    assert result.exit_code == 2 and "unknown language 'sv': choose en, fi, de" in result.output
    result = runner.invoke(app, ["rules", "poker", "--lang", "fi"])
    assert result.exit_code == 2 and "mattis, mueckenstich, myllymatti" in result.output
    assert "Traceback" not in result.output


# --- the web table ------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_api_rules_lang_query(c: TestClient, game: str, lang: str) -> None:
    r = c.get(f"/api/games/{game}/rules", params={"lang": lang})
    assert r.status_code == 200
    assert r.json() == {"game": game, "lang": lang, "markdown": rules_text(game, lang)}


@pytest.mark.parametrize(
    ("query", "header", "served"),
    [
        (None, "de-DE,de;q=0.9,en;q=0.8", "de"),
        (None, "fi-FI, en;q=0.5", "fi"),
        ("en", "fi", "en"),
        ("fi", "de", "fi"),
        ("xx", "de", "de"),
        ("xx", None, "en"),
        (None, "sv", "en"),
        (None, "de;q=1.0.0, fi;q=0.5", "de"),
        ("pseudo", "fi", "en"),
    ],
)
def test_api_rules_accept_language(
    c: TestClient, query: str | None, header: str | None, served: str
) -> None:
    params = {"lang": query} if query else {}
    headers = {"Accept-Language": header} if header else {}
    r = c.get("/api/games/mattis/rules", params=params, headers=headers)
    assert r.status_code == 200
    assert r.json()["lang"] == served and r.json()["markdown"] == rules_text("mattis", served)
    assert "accept-language" in r.headers["vary"].lower()


def test_api_rules_unknown_game_is_404_in_any_language(c: TestClient) -> None:
    r = c.get("/api/games/poker/rules", params={"lang": "fi"}, headers={"Accept-Language": "de"})
    assert error_of(r)[:2] == (404, "unknown_game")


@pytest.mark.parametrize(
    ("url", "header", "lang", "heading"),
    [
        ("/rules/myllymatti?lang=fi", None, "fi", "<h2>Ensimmäinen vaihe — kerääminen</h2>"),
        ("/rules/mueckenstich", "de-DE,de;q=0.9", "de", "<h2>Die Stiche</h2>"),
        ("/rules/mueckenstich?lang=en", "de", "en", "<h2>Tricks</h2>"),
        ("/rules/mattis?lang=xx", None, "en", "<h2>Phase 1 — collecting</h2>"),
    ],
)
def test_rules_page_language(
    c: TestClient, url: str, header: str | None, lang: str, heading: str
) -> None:
    r = c.get(url, headers={"Accept-Language": header} if header else {})
    assert r.status_code == 200
    page = r.text
    assert page.startswith(f'<!doctype html>\n<html lang="{lang}">')
    assert heading in page
    assert re.search(rf'<a href="/rules/\w+\?lang={lang}"[^>]* aria-current="page"', page)
    assert all(f"?lang={code}" in page for code in LANGUAGES)
    assert "accept-language" in r.headers["vary"].lower()
    assert "<script" not in page


def test_rules_page_words_are_in_its_language(c: TestClient) -> None:
    assert "takaisin aulaan" in c.get("/rules/mattis?lang=fi").text
    assert "zurück zur Lobby" in c.get("/rules/mattis?lang=de").text
    assert "back to the lobby" in c.get("/rules/mattis").text
