"""Languages: choosing one, the catalogs' completeness, plurals, card names."""

from __future__ import annotations

import re
from collections.abc import Iterable

import pytest

from tikki import i18n
from tikki.cards import card_word, colour_word, mueckenstich_word, parse_input, rank_words

babel = pytest.importorskip("babel", reason="Babel comes with the test extra")

from babel.messages.catalog import Catalog, Message  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

from tikki.sentences import BROWSER_CONTEXT  # noqa: E402
from tools import catalogs  # noqa: E402

TRANSLATED = i18n.LANGUAGES[1:]


def _catalog(lang: str) -> Catalog:
    with catalogs.po_path(lang).open("rb") as src:
        return read_po(src, locale=lang, domain=i18n.DOMAIN)


_PLACEHOLDER = re.compile(r"\{([A-Za-z0-9_]*)(?:![rsa])?(?::[^{}]*)?\}|%\(([A-Za-z0-9_]+)\)[sdrf]")


def placeholders(text: str) -> list[str]:
    """The placeholders of a text, sorted: ``{name}``, ``{0}``, ``{lang!r}``, ``%(n)s``."""
    return sorted(a or b for a, b in _PLACEHOLDER.findall(text))


def problems(catalog: Iterable[Message]) -> list[str]:
    """What is wrong with a catalog's translations: empty, fuzzy, placeholders that differ."""
    out: list[str] = []
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy:
            out.append(f"fuzzy: {ids[0]!r}")
        if not all(strings):
            out.append(f"untranslated: {ids[0]!r}")
            continue
        wanted = placeholders(str(ids[-1]))
        for i, form in enumerate(strings):
            have = placeholders(str(form))
            # the browser's sentences keep the browser's rule: a singular may leave out {n}
            browser_one = message.context == BROWSER_CONTEXT and i == 0 and len(ids) > 1
            if have != wanted and not (browser_one and have == [p for p in wanted if p != "n"]):
                out.append(f"placeholders {have} != {wanted}: {ids[0]!r} → {form!r}")
    return out


# --- choosing the language -------------------------------------------------------------


def test_the_terminal_follows_lang_then_lc_all_lc_messages_lang() -> None:
    env = {"LC_ALL": "", "LC_MESSAGES": "de_DE.UTF-8", "LANG": "fi_FI.UTF-8"}
    assert i18n.resolve("fi", env) == "fi"
    assert i18n.resolve(None, env) == "de"
    assert i18n.resolve(None, {"LANG": "fi_FI.UTF-8"}) == "fi"
    assert i18n.resolve(None, {"LC_ALL": "C", "LANG": "fi_FI.UTF-8"}) == "en"
    assert i18n.resolve(None, {"LANG": "sv_SE.UTF-8"}) == "en"
    assert i18n.resolve(None, {}) == "en"
    assert i18n.resolve(None, {"LC_ALL": "de_AT", "LC_MESSAGES": "fi_FI", "LANG": "fi_FI"}) == "de"
    assert i18n.resolve(None, {"LC_ALL": "", "LANG": "fi_FI"}) == "fi"
    assert i18n.resolve("de", {"LANG": "fi_FI"}) == "de"
    assert i18n.resolve("de-AT", {}) == "de" and i18n.resolve("pseudo", {}) == "pseudo"


@pytest.mark.parametrize("bad", ["xx", "klingon", "", "C"])
def test_an_unknown_lang_is_an_error_not_english(bad: str) -> None:
    """An explicit choice (``--lang``) that names no language is refused, whatever the
    locale says; only the locale falls back to English."""
    with pytest.raises(ValueError, match=rf"unknown language {bad!r}: choose en, fi, de"):
        i18n.resolve(bad, {"LANG": "de_DE"})


def test_http_follows_the_query_then_accept_language_q_values() -> None:
    assert i18n.negotiate("de-DE,de;q=0.9,en;q=0.8") == "de"
    assert i18n.negotiate("sv, en;q=0.5, fi;q=0.9") == "fi"
    assert i18n.negotiate("fi;q=0, de;q=0.1") == "de"
    assert i18n.negotiate("fi", "de") == "de"
    assert i18n.negotiate("fi", "xx") == "fi"
    assert i18n.negotiate(None, "pseudo") == "pseudo"
    assert i18n.negotiate("pseudo") == "en"  # only ?lang= chooses the test language
    assert i18n.negotiate("*;q=0.5, ;;q=x") == "en"
    assert i18n.negotiate(None) == "en"
    assert i18n.negotiate("sv", "xx") == "en"  # a request falls back, never fails


def test_a_broken_q_value_weighs_1_so_the_listed_language_wins() -> None:
    """``q=1.0.0`` is no valid weight; it counts as 1 (not as a refusal), for the pages,
    the API and the rules texts alike."""
    assert i18n.negotiate("de;q=1.0.0, fi;q=0.5") == "de"
    assert i18n.accept_language("de;q=1.0.0, fi;q=0.5") == "de"


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("fi", "fi"),
        ("de-DE,de;q=0.9,en;q=0.8", "de"),
        ("sv-SE, fi;q=0.7, en;q=0.3", "fi"),
        ("en;q=0.5, de-CH, fi;q=0.9", "de"),
        ("fi;q=0, de;q=0.1", "de"),
        ("fi;q=nan, de;q=0.5", "fi"),
        ("fi;q=x", "fi"),
        ("fi;q=-1, de;q=0.2", "de"),
        ("fi;q=7, de", "fi"),
        ("*", None),
        ("", None),
        (None, None),
        ("sv, nb", None),
        ("pseudo", None),
        ("de;q=0.5, fi;q=0.5", "de"),
    ],
)
def test_accept_language(header: str | None, expected: str | None) -> None:
    assert i18n.accept_language(header) == expected


def test_spoken_is_the_real_language_behind_a_choice() -> None:
    assert [i18n.spoken(t) for t in ("fi_FI.UTF-8", "de", "pseudo", "sv", None)] == [
        "fi",
        "de",
        "en",
        "en",
        "en",
    ]


def test_an_unknown_language_is_refused_clearly() -> None:
    with pytest.raises(ValueError, match="choose en, fi, de"):
        i18n.check("sv")


def test_the_current_language_is_per_context() -> None:
    with i18n.use("de"):
        assert i18n._("Trick") == "Stich"
        with i18n.use("fi"):
            assert i18n._("Trick") == "Tikki"
        assert i18n.current() == "de"
    assert i18n.current() == "en" and i18n._("Trick") == "Trick"


# --- the catalogs ----------------------------------------------------------------------


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_with_its_placeholders(lang: str) -> None:
    found = problems(_catalog(lang))
    assert not found, "\n".join(found)


def test_the_check_finds_a_missing_translation_and_a_dropped_placeholder() -> None:
    bad = Catalog(locale="de")
    bad.add("Round {n} scores:", "Punkte der Runde:")
    bad.add("Trick", "")
    bad.add(("{n} card", "{n} cards"), ("{n} Karte", "Karten"))
    bad.add("Seat {seat}", "Platz {seat} {extra}")
    bad.add("Led: ", "Ausgespielt: ", flags=["fuzzy"])
    found = "\n".join(problems(bad))
    assert "Round {n} scores:" in found and "untranslated: 'Trick'" in found
    assert "'{n} card' → 'Karten'" in found and "['extra', 'seat'] != ['seat']" in found
    assert "fuzzy: 'Led: '" in found


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_catalog_holds_every_text_of_the_source(lang: str) -> None:
    """A text added to the code without running ``make catalogs`` (and translating it)."""
    template = catalogs.template()
    have = {m.id if isinstance(m.id, str) else m.id[0] for m in _catalog(lang) if m.id}
    missing = [
        m.id for m in template if m.id and (m.id if isinstance(m.id, str) else m.id[0]) not in have
    ]
    assert not missing, f"run make catalogs and translate: {missing[:10]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_compiled_catalogs_are_current(lang: str) -> None:
    mo = catalogs.po_path(lang).with_suffix(".mo")
    assert mo.read_bytes() == catalogs.compiled(lang), "run make catalogs"


@pytest.mark.parametrize(
    ("lang", "one", "three"),
    [("en", "1 card", "3 cards"), ("fi", "1 kortti", "3 korttia"), ("de", "1 Karte", "3 Karten")],
)
def test_plurals_follow_each_language(lang: str, one: str, three: str) -> None:
    with i18n.use(lang):
        assert i18n.ngettext("{n} card", "{n} cards", 1) == one
        assert i18n.ngettext("{n} card", "{n} cards", 3) == three
        assert i18n.ngettext("{n} card", "{n} cards", 0) == three.replace("3", "0")


def test_the_pseudo_locale_marks_every_text() -> None:
    with i18n.use("pseudo"):
        assert i18n._("Trick") == "⟦Trick⟧"
        assert i18n._("Seat {seat}", seat=2) == "⟦Seat 2⟧"
        assert i18n.ngettext("{n} card", "{n} cards", 2) == "⟦2 cards⟧"


# --- cards and suits -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "names"),
    [
        ("en", ["ace of hearts", "king of diamonds", "queen of clubs", "jack of spades"]),
        ("fi", ["herttaässä", "ruutukuningas", "ristirouva", "patasotamies"]),
        ("de", ["Herz-Ass", "Karo-König", "Kreuz-Dame", "Pik-Bube"]),
    ],
)
def test_french_cards_are_named_in_each_language(lang: str, names: list[str]) -> None:
    with i18n.use(lang):
        assert [card_word(c) for c in ("AH", "KD", "QC", "JS")] == names


@pytest.mark.parametrize(
    ("lang", "colours", "mosquito", "seven", "queens"),
    [
        ("en", "red blue green black", "red mosquito", "green 7", "queens"),
        ("fi", "punainen sininen vihreä musta", "punainen hyttynen", "vihreä 7", "rouvat"),
        ("de", "Rot Blau Grün Schwarz", "rote Mücke", "Grün 7", "Damen"),
    ],
)
def test_mueckenstich_colours_and_the_mosquito_in_each_language(
    lang: str, colours: str, mosquito: str, seven: str, queens: str
) -> None:
    with i18n.use(lang):
        assert " ".join(colour_word(c) for c in "RBGK") == colours
        assert mueckenstich_word("MR") == mosquito and mueckenstich_word("7G") == seven
        assert rank_words("Q") == queens


def test_input_takes_suit_symbols_and_colour_names_of_every_language() -> None:
    assert parse_input("9♦") == "9D" and parse_input("10♥") == "10H"
    assert parse_input("q♠+k♠") == "qS+kS"
    assert parse_input("trump rot") == "trump R" and parse_input("trump Grün") == "trump G"
    assert parse_input("trump punainen") == "trump R" and parse_input("double musta") == "double K"
