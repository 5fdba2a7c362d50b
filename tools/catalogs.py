"""``make catalogs`` for the ``tikki`` domain: extract, update and compile with Babel.

* extract: every ``_("…")``, ``N_("…")`` and ``ngettext("…", "…", n)`` in ``tikki/``, plus the
  texts that live as data (:func:`data_texts`: game summaries, option help, the command
  line's help) and the event logs' sentences (:mod:`tikki.sentences`, the browser's with
  the context ``browser``), into ``tikki/locale/tikki.pot``;
* update: merge the template into ``tikki/locale/{fi,de}/LC_MESSAGES/tikki.po`` (a new
  text arrives untranslated, which the tests refuse until someone translates it);
* compile: ``tikki.mo`` next to each ``.po`` (committed; a test checks they are current).

Run it with ``python -m tools.catalogs`` from the repository's root (needs Babel, from the
``test`` extra).
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import tikki
from tikki import __version__
from tikki.i18n import DOMAIN, LANGUAGES, LOCALE_DIR
from tikki.sentences import catalog_entries

PACKAGE = Path(tikki.__file__).resolve().parent
"""The package whose texts are extracted."""
POT = LOCALE_DIR / f"{DOMAIN}.pot"
FIXED_DATE = datetime(2026, 12, 1, tzinfo=UTC)
"""The catalogs' creation date, fixed so that regenerating them is reproducible."""
KEYWORDS = {"_": None, "_t": None, "N_": None, "ngettext": (1, 2)}
"""The calls that mark a text (Babel's keyword spec)."""


def po_path(lang: str, domain: str = DOMAIN) -> Path:
    """The ``.po`` file of ``lang`` in ``domain`` (``tikki``; the web front end's is ``web``)."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"


def data_texts() -> Iterator[tuple[str, str]]:
    """(text, where) for every text that is data rather than a ``_()`` call: tikki's own
    games' declarations (a plug-in's texts are its own, :attr:`tikki.core.Game.translations`)
    and the command line's help."""
    from tikki.core import built_in, games

    for name, info in games().items():
        if not built_in(name):
            continue
        if info["summary"]:
            yield info["summary"], f"game {name}: summary"
        for spec in info["options"]:
            yield spec["text"], f"game {name}: option {spec['name']}"
        for phase, goal in info["goals"].items():
            yield goal, f"game {name}: goal of {phase}"
        for variant, title in info["variant_titles"].items():
            yield title, f"game {name}: variant {variant}"
        if info["tie_word"]:
            yield info["tie_word"], f"game {name}: tie word"
    yield from cli_texts()


def cli_texts() -> Iterator[tuple[str, str]]:
    """The command line's own help texts (commands, arguments, options)."""
    import typer.main

    from tikki.cli import app
    from tikki.commandline import COMPOSED

    yield from _command_texts(typer.main.get_command(app), "tikki", COMPOSED)


def _command_texts(command: Any, path: str, composed: Any) -> Iterator[tuple[str, str]]:
    """(text, where) for ``command``'s help, its parameters' and every subcommand's (at
    any depth: ``tikki puzzles build``); composed texts are left out (their parts are
    caught where they are written)."""
    if command.help and command.help not in composed:
        yield command.help, f"{path} --help"
    for param in command.params:
        help_text = getattr(param, "help", None)
        if help_text and help_text not in composed and param.name != "help":
            yield help_text, f"{path} {param.name}"
    for name, sub in getattr(command, "commands", {}).items():
        yield from _command_texts(sub, f"{path} {name}", composed)


def template() -> Any:
    """The catalog template: the extracted and the data texts."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    # a fixed creation date: running ``make catalogs`` twice changes nothing
    catalog = Catalog(
        project="tikki",
        version=__version__,
        domain=DOMAIN,
        fuzzy=False,
        creation_date=FIXED_DATE,
        copyright_holder="the tikki authors",
    )
    found = extract_from_dir(
        str(PACKAGE),
        method_map=[("web/**", "ignore"), ("**.py", "python")],
        keywords=KEYWORDS,
        comment_tags=("TRANSLATORS:",),
        strip_comment_tags=True,
    )
    for filename, lineno, message, comments, context in found:
        catalog.add(
            message, None, [(f"tikki/{filename}", lineno)], auto_comments=comments, context=context
        )
    for text, where in data_texts():
        catalog.add(text, None, [(where, 0)])
    for sentence, where, context in catalog_entries():  # the event logs' sentences
        catalog.add(sentence, None, [(where, 0)], context=context)
    return catalog


def write_template(catalog: Any) -> None:
    """Write ``tikki.pot``."""
    from babel.messages.pofile import write_po

    POT.parent.mkdir(parents=True, exist_ok=True)
    with POT.open("wb") as out:
        write_po(out, catalog, width=100, omit_header=False, sort_output=False)


def update(catalog: Any, lang: str) -> None:
    """Merge the template into ``lang``'s ``.po`` (creating it the first time)."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    path = po_path(lang)
    if path.exists():
        with path.open("rb") as src:
            po = read_po(src, locale=lang, domain=DOMAIN)
    else:
        po = Catalog(locale=lang, domain=DOMAIN, project="tikki")
    po.update(catalog, no_fuzzy_matching=True)
    po.fuzzy = False  # the header: the catalog is in use, not a draft
    po.version = catalog.version
    po.copyright_holder = "the tikki authors"
    po.last_translator = "the tikki authors"
    po.language_team = {"fi": "Finnish", "de": "German"}.get(lang, lang)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        write_po(out, po, width=100, ignore_obsolete=True)


def compiled(lang: str) -> bytes:
    """The ``.mo`` bytes of ``lang``'s ``.po`` as it is now."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po_path(lang).open("rb") as src:
        po = read_po(src, locale=lang, domain=DOMAIN)
    out = io.BytesIO()
    write_mo(out, po, use_fuzzy=False)
    return out.getvalue()


def compile_all() -> None:
    """Write every ``tikki.mo``."""
    for lang in LANGUAGES[1:]:
        po_path(lang).with_suffix(".mo").write_bytes(compiled(lang))


def main(argv: list[str] | None = None) -> int:
    """``extract``, ``update``, ``compile`` or (no argument) all three."""
    steps = (argv if argv is not None else sys.argv[1:]) or ["extract", "update", "compile"]
    catalog = None
    for step in steps:
        if step in ("extract", "update") and catalog is None:
            catalog = template()
        if step == "extract":
            write_template(catalog)
        elif step == "update":
            for lang in LANGUAGES[1:]:
                update(catalog, lang)
        elif step == "compile":
            compile_all()
        else:
            print(f"unknown step {step!r}: extract, update or compile", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
