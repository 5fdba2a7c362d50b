"""The event logs' sentences have one home, tikki/sentences.py: the terminal reads it, the
browser reads tikki/web/static/sentences.js generated from it, and each sentence is
translated once, in the tikki domain's catalogs (``make catalogs`` repairs what these
tests find stale)."""

from __future__ import annotations

import pytest

pytest.importorskip("babel", reason="the catalog tests need Babel (pip install -e '.[test]')")

from babel.messages.pofile import read_po

from tikki import sentences
from tools import catalogs
from tools import web_catalogs as wc


def test_the_browser_sentences_module_is_current() -> None:
    """``sentences.js`` is what ``make catalogs`` writes from tikki/sentences.py."""
    stored = wc.SENTENCES_JS.read_text(encoding="utf-8")
    assert stored == sentences.browser_module(), "run make catalogs"


def test_the_browser_module_holds_every_browser_sentence() -> None:
    text = wc.SENTENCES_JS.read_text(encoding="utf-8")
    for key, sentence in sentences.browser().items():
        assert f'"{key}": ' in text
        for form in sentence if isinstance(sentence, tuple) else (sentence,):
            assert form in text


@pytest.mark.parametrize("lang", wc.LANGUAGES)
def test_every_sentence_is_translated_in_the_tikki_domain(lang: str) -> None:
    with catalogs.po_path(lang).open("rb") as src:
        po = read_po(src, locale=lang, domain="tikki")
    for msgid, where, context in sentences.catalog_entries():
        message = po.get(msgid if isinstance(msgid, str) else msgid[0], context=context)
        assert message is not None, f"{where} is not in {lang}'s tikki.po: run make catalogs"
        forms = message.string if isinstance(message.string, tuple | list) else [message.string]
        assert all(forms) and not message.fuzzy, f"{lang}: {where} has no translation"


def test_no_sentence_stands_in_both_templates() -> None:
    """The browser's catalogs borrow the tikki domain's texts: the web template keeps only
    the words the browser means otherwise."""
    with catalogs.POT.open("rb") as src:
        python = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(src) if m.id}
    with wc.TEMPLATE.open("rb") as src:
        web = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(src) if m.id}
    assert python & web == set(wc.OWN_SENSE)


def test_a_stale_sentences_module_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sentences, "browser_module", lambda: "// not what is stored\n")
    assert any("sentences.js is not current" in p for p in wc.problems())
