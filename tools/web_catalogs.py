"""The web front end's message catalogs: extract, update and build.

The texts of the browser pages are English in the source: ``_("…")``, ``ngettext(…)`` and
``N_("…")`` in ``tikki/web/static/**/*.js`` (Babel's JavaScript extractor), and the HTML
elements marked ``data-i18n`` (their text) or ``data-i18n-attr`` (the named attributes).
They are translated in ``tikki/locale/{fi,de}/LC_MESSAGES/web.po`` (the gettext domain
``web``; its template is ``tikki/locale/web.pot``), and the browser reads them as JSON,
``tikki/web/static/i18n/{en,fi,de,pseudo}.json``, generated here from the same files, so
each text is translated in one place. ``pseudo`` wraps every English text in ⟦…⟧ for the
tests that look for texts left untranslated.

A text the Python side's ``tikki`` domain has too (a card's name, a level, the event logs'
sentences of :mod:`tikki.sentences`) is translated there only: ``web.pot`` leaves it out
and the browser's JSON takes its translation from ``tikki.po`` (the context ``browser``
first), except the few words the browser means otherwise (:data:`OWN_SENSE`). The event
logs' sentences reach the browser as ``tikki/web/static/sentences.js``, written here from
:mod:`tikki.sentences`.

``python -m tools.web_catalogs`` (``make catalogs-web``) extracts, updates the ``.po``
files (new texts come in untranslated) and writes the JSON; ``check`` only reports what
is out of date or untranslated. Babel is a development tool here (the ``test`` extra); the
server only serves the JSON.
"""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from unittest import mock

from babel.messages import extract as babel_extract
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

import tikki
from tikki import __version__, sentences

ROOT = Path(tikki.__file__).resolve().parent
"""The package: its pages, scripts and catalogs."""
WEB = ROOT / "web"
STATIC = WEB / "static"
LOCALE = ROOT / "locale"
TEMPLATE = LOCALE / "web.pot"
JSON_DIR = STATIC / "i18n"
DOMAIN = "web"
LANGUAGES = ("fi", "de")
"""The translated languages (English is the source)."""
PSEUDO = "pseudo"
OPEN, CLOSE = "⟦", "⟧"
"""The pseudo-locale's markers around every text."""
KEYWORDS: dict[str, Any] = {"_": None, "N_": None, "ngettext": (1, 2), "Nn_": (1, 2)}
"""The JavaScript functions whose string arguments are messages."""
PLURAL = "(n != 1)"
"""The plural rule of en, fi and de (the only rule the browser's i18n.js must know)."""
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)
"""The header date of the written catalogs, fixed so that a rebuild changes nothing."""
PLACEHOLDER = re.compile(r"\{(\w+)\}")
PYTHON_TEMPLATE = LOCALE / "tikki.pot"
"""The Python side's template (``make catalogs-python``): the texts the browser borrows."""
SENTENCES_JS = STATIC / "sentences.js"
"""The event logs' sentences for the browser, generated from :mod:`tikki.sentences`."""
OWN_SENSE = frozenset(
    {"Dropped", "Options", "Pile", "Won tricks stay face down until the round is scored."}
)
"""Texts of both domains that the browser means otherwise: it keeps its own translation."""

Message = str | tuple[str, ...]
"""A msgid, or (singular, plural) for a text with a count."""


def forms(value: object) -> list[str]:
    """A msgid or translation as its list of texts: one, or the plural forms."""
    if isinstance(value, tuple | list):
        return [str(v or "") for v in value]
    return [str(value or "")]


def placeholders(text: str) -> set[str]:
    """The ``{name}`` parameters of a text."""
    return set(PLACEHOLDER.findall(text))


# ---------------------------------------------------------------- extraction


class _HtmlTexts(HTMLParser):
    """Collects the texts of ``data-i18n`` elements and ``data-i18n-attr`` attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self._open: list[tuple[str, int, list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        line = self.getpos()[0]
        for name in (values.get("data-i18n-attr") or "").split():
            if values.get(name):
                self.found.append((line, str(values[name])))
        if "data-i18n" in values:
            self._open.append((tag, line, []))
        elif self._open:
            self._open.append((tag, line, self._open[-1][2]))

    def handle_endtag(self, tag: str) -> None:
        if not self._open:
            return
        _tag, line, parts = self._open.pop()
        if not self._open or self._open[-1][2] is not parts:
            text = " ".join("".join(parts).split())
            if text:
                self.found.append((line, text))

    def handle_data(self, data: str) -> None:
        if self._open:
            self._open[-1][2].append(data)


def _html_messages(path: Path) -> Iterator[tuple[int, str]]:
    parser = _HtmlTexts()
    parser.feed(path.read_text(encoding="utf-8"))
    parser.close()
    yield from parser.found


def _template_string(
    template_string: str,
    keywords: Any,
    comment_tags: Any,
    options: Any,
    lineno: int = 1,
) -> Iterator[Any]:
    """Babel's ``parse_template_string`` with one fix: quotes in a template's own text
    (HTML attributes: ``aria-label="${_("…")}"``) are text, not strings, so a ``${…}``
    after them is still read. Strings are tracked inside ``${…}`` only."""
    level = 0
    inside: str | None = None
    prev = ""
    expression = ""
    for char in template_string[1:-1]:
        if level:
            expression += char
            if inside is None and char in "\"'`":
                inside = char
            elif inside == char and prev != "\\":
                inside = None
            elif inside is None and char == "{":
                level += 1
            elif inside is None and char == "}":
                level -= 1
                if level == 0:
                    fake = io.BytesIO(expression[:-1].encode())
                    yield from babel_extract.extract_javascript(
                        fake, keywords, comment_tags, options, lineno
                    )
                    lineno += expression.count("\n")
                    expression = ""
        elif char == "{" and prev == "$":
            level = 1
        prev = char


def _js_messages(path: Path) -> Iterator[tuple[int, Message]]:
    with (
        path.open("rb") as fileobj,
        mock.patch.object(babel_extract, "parse_template_string", _template_string),
    ):
        for line, message, _comments, _context in babel_extract.extract(
            "javascript", fileobj, keywords=KEYWORDS, options={"parse_template_string": True}
        ):
            yield line, message


def sources() -> list[Path]:
    """The files the messages come from, in a fixed order."""
    pages = sorted(WEB.glob("*.html"))
    scripts = sorted(p for p in STATIC.rglob("*.js") if p.name != "docs.js")
    return pages + scripts


def extract_template() -> Catalog:
    """The template catalog: every message of the pages and scripts, with where it is."""
    template = _catalog(None)
    for path in sources():
        where = path.relative_to(ROOT.parent).as_posix()
        found = _html_messages(path) if path.suffix == ".html" else _js_messages(path)
        for line, message in found:
            template.add(message, locations=[(where, line)])
    return template


def _catalog(locale: str | None) -> Catalog:
    return Catalog(
        locale=locale,
        domain=DOMAIN,
        project="tikki",
        version=__version__,
        copyright_holder="the tikki authors",
        msgid_bugs_address="the tikki issue tracker",
        last_translator="the tikki authors",
        language_team=f"tikki {locale}" if locale else "tikki",
        creation_date=FIXED_DATE,
        revision_date=FIXED_DATE,
        charset="utf-8",
        fuzzy=False,
    )


def po_path(lang: str) -> Path:
    """Where a language's ``web.po`` is."""
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def _dump(catalog: Catalog) -> str:
    out = io.BytesIO()
    write_po(out, catalog, width=100, sort_output=True, include_lineno=False, ignore_obsolete=True)
    return out.getvalue().decode("utf-8")


def read_catalog(lang: str) -> Catalog:
    """A language's catalog as stored."""
    with po_path(lang).open("rb") as fileobj:
        return read_po(fileobj, locale=lang, domain=DOMAIN)


def updated(lang: str, template: Catalog) -> Catalog:
    """A language's catalog brought up to the template: new texts untranslated, gone
    texts dropped, translations kept."""
    catalog = read_catalog(lang) if po_path(lang).exists() else _catalog(lang)
    catalog.update(template, no_fuzzy_matching=True)
    catalog.creation_date = FIXED_DATE
    catalog.revision_date = FIXED_DATE
    catalog.fuzzy = False
    return catalog


# ---------------------------------------------------------------- the texts of the tikki domain


def _key(message_id: object) -> tuple[str, ...]:
    return tuple(forms(message_id))


def python_ids() -> set[tuple[str, ...]]:
    """The msgids of the ``tikki`` domain's template as stored, each as its forms."""
    with PYTHON_TEMPLATE.open("rb") as fileobj:
        return {_key(m.id) for m in read_po(fileobj) if m.id}


def borrowed(template: Catalog) -> set[tuple[str, ...]]:
    """The browser's texts translated in the ``tikki`` domain (all it has but
    :data:`OWN_SENSE`)."""
    python = python_ids()
    return {
        _key(m.id)
        for m in template
        if m.id and _key(m.id) in python and forms(m.id)[0] not in OWN_SENSE
    }


def web_template(template: Catalog) -> Catalog:
    """The ``web`` domain's template: the extracted texts less the :func:`borrowed` ones."""
    taken = borrowed(template)
    own = _catalog(None)
    for m in template:
        if m.id and _key(m.id) not in taken:
            own.add(m.id, locations=m.locations, flags=m.flags)
    return own


def python_translations(lang: str, template: Catalog) -> dict[str, Any]:
    """The :func:`borrowed` texts as ``lang``'s ``tikki.po`` translates them (its
    ``browser`` context first), as the browser's JSON messages."""
    with (LOCALE / lang / "LC_MESSAGES" / "tikki.po").open("rb") as fileobj:
        po = read_po(fileobj, locale=lang, domain="tikki")
    out: dict[str, Any] = {}
    for key in borrowed(template):
        m = po.get(key[0], context=sentences.BROWSER_CONTEXT) or po.get(key[0])
        if m is not None and not m.fuzzy and _is_translated(m):
            texts = forms(m.string)
            out[key[0]] = texts if len(key) > 1 else texts[0]
    return out


# ---------------------------------------------------------------- the browser's JSON


def _is_translated(message: Any) -> bool:
    return all(forms(message.string))


def browser_catalog(lang: str, template: Catalog) -> dict[str, Any]:
    """The JSON the browser loads for ``lang``: ``{lang, plural, messages}``, where a
    message is its text, or the list of plural forms keyed by the singular msgid."""
    messages: dict[str, Any] = {}
    if lang == PSEUDO:
        for m in template:
            if not m.id:
                continue
            texts = [f"{OPEN}{text}{CLOSE}" for text in forms(m.id)]
            messages[forms(m.id)[0]] = texts if len(texts) > 1 else texts[0]
    elif lang != "en":
        for m in read_catalog(lang):
            if not m.id or m.fuzzy or not _is_translated(m):
                continue
            texts = forms(m.string)
            messages[forms(m.id)[0]] = texts if len(forms(m.id)) > 1 else texts[0]
        messages.update(python_translations(lang, template))
    return {"lang": lang, "plural": PLURAL, "messages": dict(sorted(messages.items()))}


def json_text(lang: str, template: Catalog) -> str:
    """The browser catalog of ``lang`` as the file's text."""
    return json.dumps(browser_catalog(lang, template), ensure_ascii=False, indent=1) + "\n"


def json_path(lang: str) -> Path:
    """Where the browser catalog of ``lang`` is."""
    return JSON_DIR / f"{lang}.json"


# ---------------------------------------------------------------- checks


def problems(template: Catalog | None = None) -> list[str]:
    """Everything out of order: a stale template, ``.po`` or JSON file, a text without
    its Finnish or German translation, a translation that drops or adds a placeholder,
    two texts sharing a msgid as plain and plural text."""
    template = template or extract_template()
    own = web_template(template)
    out: list[str] = []
    ids = [m.id for m in template if m.id]
    singulars = [i[0] for i in ids if isinstance(i, tuple)]
    for clash in sorted(set(singulars) & {i for i in ids if isinstance(i, str)}):
        out.append(f"{clash!r} is both a plain and a plural text")
    if not TEMPLATE.exists() or TEMPLATE.read_text(encoding="utf-8") != _dump(own):
        out.append(f"{TEMPLATE} is not current: run make catalogs-web")
    if not SENTENCES_JS.exists() or SENTENCES_JS.read_text("utf-8") != sentences.browser_module():
        out.append(f"{SENTENCES_JS} is not current: run make catalogs-web")
    for lang in LANGUAGES:
        if not po_path(lang).exists():
            out.append(f"{po_path(lang)} is missing: run make catalogs-web")
            continue
        stored = po_path(lang).read_text(encoding="utf-8")
        if stored != _dump(updated(lang, own)):
            out.append(f"{po_path(lang)} is not current: run make catalogs-web")
        out.extend(translation_problems(lang))
        have = python_translations(lang, template)
        for key in sorted(borrowed(template)):
            if key[0] not in have:
                out.append(f"{lang}: {key[0]!r} has no translation in tikki.po: run make catalogs")
    for lang in ("en", *LANGUAGES, PSEUDO):
        path = json_path(lang)
        if not path.exists() or path.read_text(encoding="utf-8") != json_text(lang, template):
            out.append(f"{path} is not current: run make catalogs-web")
    return out


def translation_problems(lang: str, catalog: Catalog | None = None) -> list[str]:
    """The texts of ``lang`` (its stored catalog, or ``catalog``) without a translation,
    fuzzy, or with other placeholders than the English text."""
    out: list[str] = []
    for m in catalog if catalog is not None else read_catalog(lang):
        if not m.id:
            continue
        if m.fuzzy or not _is_translated(m):
            out.append(f"{lang}: {m.id!r} has no translation")
            continue
        plural = len(forms(m.id)) > 1
        want = set().union(*(placeholders(s) for s in forms(m.id)))
        for text in forms(m.string):
            got = placeholders(text)
            # a singular may leave out the count ("a card" for "{n} cards")
            if got != want and not (plural and got == want - {"n"}):
                out.append(
                    f"{lang}: {m.id!r} has the placeholders {sorted(got)}, not {sorted(want)}"
                )
    return out


# ---------------------------------------------------------------- writing


def write_all() -> None:
    """Write ``sentences.js``, extract, update the ``.po`` files and write the template
    and the JSON."""
    SENTENCES_JS.write_text(sentences.browser_module(), encoding="utf-8")
    template = extract_template()
    own = web_template(template)
    TEMPLATE.parent.mkdir(parents=True, exist_ok=True)
    TEMPLATE.write_text(_dump(own), encoding="utf-8")
    for lang in LANGUAGES:
        po_path(lang).parent.mkdir(parents=True, exist_ok=True)
        po_path(lang).write_text(_dump(updated(lang, own)), encoding="utf-8")
    JSON_DIR.mkdir(parents=True, exist_ok=True)
    for lang in ("en", *LANGUAGES, PSEUDO):
        json_path(lang).write_text(json_text(lang, template), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """``python -m tools.web_catalogs [check]``: write the catalogs, or check them."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["check"]:
        found = problems()
        for line in found:
            print(line)
        template = extract_template()
        print(f"{len([m for m in template if m.id])} web messages × {len(LANGUAGES) + 1} languages")
        return 1 if found else 0
    if args:
        print("usage: python -m tools.web_catalogs [check]", file=sys.stderr)
        return 2
    write_all()
    for line in problems():
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
