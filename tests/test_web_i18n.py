"""The web front end's catalogs: every text extracted, translated into Finnish
and German with its placeholders, and the browser's JSON built from the current ``.po``
files. ``make catalogs-web`` repairs what these tests find stale."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("babel", reason="the catalog tests need Babel (pip install -e '.[test]')")

from babel.messages.catalog import Catalog

import tikki
from tools import web_catalogs as wc

CALL = re.compile(r"""(?<![\w.])(?:_|N_|ngettext)\(\s*"((?:[^"\\]|\\.)*)\"""")
"""A translation call with a literal first argument, as a plain regular expression."""


@pytest.fixture(scope="module")
def template() -> Catalog:
    return wc.extract_template()


def _ids(template: Catalog) -> set[str]:
    return {m.id[0] if isinstance(m.id, (tuple, list)) else m.id for m in template if m.id}


def test_babel_extracts_every_call_in_the_scripts(template: Catalog) -> None:
    """Babel's JavaScript extractor misses a call nested in another call's arguments;
    every ``_("…")`` the plain search finds must be in the template."""
    found: set[str] = set()
    for path in wc.sources():
        if path.suffix == ".js":
            found.update(CALL.findall(path.read_text(encoding="utf-8")))
    assert len(found) > 300
    assert sorted(found - _ids(template)) == []


def test_html_texts_are_extracted(template: Catalog) -> None:
    ids = _ids(template)
    for text in ("Create table", "e.g. Anna", "Skip to your hand", "Your seat's link"):
        assert text in ids


@pytest.mark.parametrize("lang", wc.LANGUAGES)
def test_every_web_message_is_translated_with_its_placeholders(lang: str) -> None:
    assert wc.translation_problems(lang) == []


def test_catalog_files_and_browser_json_are_current(template: Catalog) -> None:
    assert wc.problems(template) == []


def test_a_missing_translation_or_dropped_placeholder_is_found() -> None:
    catalog = Catalog(locale="fi", domain="web")
    catalog.add("Seat {number}", "Paikka")
    catalog.add("Hint", "")
    catalog.add(("{n} card", "{n} cards"), ("kortti", "{n} korttia"))
    catalog.add(("{n} trick", "{n} tricks"), ("{n} tikki", "{count} tikkiä"))
    found = wc.translation_problems("fi", catalog)
    assert any("'Seat {number}'" in p and "placeholders" in p for p in found)
    assert any("'Hint'" in p and "no translation" in p for p in found)
    assert any("{n} trick" in p for p in found)
    assert not any("{n} card'" in p for p in found), "a singular may leave out the count"


def test_plural_forms_follow_each_language() -> None:
    fi = json.loads(wc.json_path("fi").read_text(encoding="utf-8"))
    de = json.loads(wc.json_path("de").read_text(encoding="utf-8"))
    assert fi["messages"]["{n} card"] == ["{n} kortti", "{n} korttia"]
    assert de["messages"]["{n} card"] == ["{n} Karte", "{n} Karten"]
    script = (wc.STATIC / "i18n.js").read_text(encoding="utf-8")
    for catalog in (fi, de):
        assert f'"{catalog["plural"]}"' in script, "i18n.js knows no such plural rule"


def test_card_and_suit_names(template: Catalog) -> None:
    fi = json.loads(wc.json_path("fi").read_text(encoding="utf-8"))["messages"]
    de = json.loads(wc.json_path("de").read_text(encoding="utf-8"))["messages"]
    suits = ["hearts", "diamonds", "clubs", "spades"]
    ranks = ["ace", "king", "queen", "jack"]
    assert [fi[s] for s in suits] == ["hertta", "ruutu", "risti", "pata"]
    assert [fi[r] for r in ranks] == ["ässä", "kuningas", "rouva", "sotamies"]
    assert [de[s] for s in suits] == ["Herz", "Karo", "Kreuz", "Pik"]
    assert [de[r] for r in ranks] == ["Ass", "König", "Dame", "Bube"]
    # colours standing alone are nouns: "Trumpf ist Rot", "in Rot"
    assert [de[c] for c in ("red", "blue", "green", "black")] == ["Rot", "Blau", "Grün", "Schwarz"]
    assert de["green mosquito"] == "grüne Mücke"


def test_pseudo_locale_marks_every_message(template: Catalog) -> None:
    pseudo = json.loads(wc.json_path("pseudo").read_text(encoding="utf-8"))["messages"]
    assert set(pseudo) == _ids(template)
    for msgid, text in pseudo.items():
        forms = text if isinstance(text, list) else [text]
        for form in forms:
            assert form.startswith(wc.OPEN) and form.endswith(wc.CLOSE), msgid
            assert wc.placeholders(form) <= wc.placeholders(msgid) | {"n"}


def test_the_switcher_offers_no_test_language() -> None:
    script = (wc.STATIC / "i18n.js").read_text(encoding="utf-8")
    languages = re.search(r"export const LANGUAGES = \{([^}]*)\}", script)
    assert languages is not None
    assert re.findall(r"(\w+):", languages.group(1)) == ["en", "fi", "de"]


def test_po_files_live_in_the_package() -> None:
    for lang in wc.LANGUAGES:
        path = wc.po_path(lang)
        assert path.relative_to(Path(tikki.__file__).parent) == Path(
            f"locale/{lang}/LC_MESSAGES/web.po"
        )
