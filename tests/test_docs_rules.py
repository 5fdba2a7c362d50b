"""The ruling ids the code and the tests cite resolve inside the repository (``docs/rules.md``).

Every ``MM-``, ``AM-``, ``MS-`` and ``C-`` id written in ``tikki/`` (code, rules texts,
catalogs, the web front end) or in ``tests/`` must be defined in ``docs/rules.md`` (as a
bold ``**MM-3**`` entry), and that page must state the engine's rules revision.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import tikki

pytestmark = [pytest.mark.engine, pytest.mark.newest]

ROOT = Path(__file__).resolve().parent.parent
RULES_DOC = ROOT / "docs" / "rules.md"
SHARED_RULINGS = ROOT.parent / "shared" / "rules" / "RULINGS.md"
CITED = re.compile(r"\b((?:MM|AM|MS|C)-\d+)\b")
DEFINED = re.compile(r"\*\*((?:MM|AM|MS|C)-\d+)\b")
TEXT_SUFFIXES = {".py", ".js", ".md", ".html", ".po", ".pot", ".txt"}


def _cited_ids() -> dict[str, str]:
    """Each ruling id cited in ``tikki/`` and ``tests/``, with one file that cites it."""
    cited: dict[str, str] = {}
    for folder in (ROOT / "tikki", ROOT / "tests"):
        for path in sorted(folder.rglob("*")):
            if path.suffix not in TEXT_SUFFIXES or not path.is_file():
                continue
            for ruling in CITED.findall(path.read_text(encoding="utf-8")):
                cited.setdefault(ruling, str(path.relative_to(ROOT)))
    return cited


def _defined_ids(text: str) -> set[str]:
    return set(DEFINED.findall(text))


def test_every_cited_ruling_is_defined_in_docs_rules() -> None:
    defined = _defined_ids(RULES_DOC.read_text(encoding="utf-8"))
    cited = _cited_ids()
    assert len(cited) > 40, f"the scan found too few ruling ids: {sorted(cited)}"
    missing = {ruling: where for ruling, where in cited.items() if ruling not in defined}
    assert not missing, f"ruling ids cited but not defined in docs/rules.md: {missing}"


def test_docs_rules_states_the_engine_revision() -> None:
    text = RULES_DOC.read_text(encoding="utf-8")
    assert f"**Revision `{tikki.RULES_REVISION}`**" in text


def test_docs_rules_defines_the_shared_rulings() -> None:
    """The page defines exactly the rulings of the shared authority (where it is present)."""
    if not SHARED_RULINGS.is_file():
        message = f"no shared rulings at {SHARED_RULINGS}: cannot compare docs/rules.md with them"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    shared = _defined_ids(SHARED_RULINGS.read_text(encoding="utf-8"))
    ours = _defined_ids(RULES_DOC.read_text(encoding="utf-8"))
    assert len(ours) > 40
    assert ours == shared, f"only here: {ours - shared}; only shared: {shared - ours}"
