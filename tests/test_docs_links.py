"""The docs hold together: every relative link and anchor in the README, the changelog,
CONTRIBUTING and ``docs/*.md`` resolves, the README stays short, and the design notes the
code cites are in the repository (``docs/design.md``), not in a folder beside it."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

pytestmark = pytest.mark.engine

ROOT = Path(__file__).resolve().parent.parent
README_MAX_LINES = 250

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def doc_files() -> list[Path]:
    """The Markdown files whose links are checked."""
    names = ["README.md", "CHANGELOG.md", "CONTRIBUTING.md"]
    return [ROOT / n for n in names] + sorted((ROOT / "docs").glob("*.md"))


def prose_lines(text: str) -> list[str]:
    """The lines outside fenced code blocks, with inline code spans blanked out."""
    out: list[str] = []
    fence = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fence = not fence
            continue
        if not fence:
            out.append(re.sub(r"`[^`]*`", lambda m: "`" + "x" * (len(m.group()) - 2) + "`", line))
    return out


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    kept = []
    for ch in text:
        cat = unicodedata.category(ch)
        if ch in " -_" or cat[0] in "LN":
            kept.append(ch)
    return "".join(kept).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading anchor of a Markdown file (repeated headings get -1, -2, ...)."""
    seen: dict[str, int] = {}
    found: set[str] = set()
    fence = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("```"):
            fence = not fence
            continue
        match = None if fence else HEADING.match(line)
        if match:
            base = slug(match.group(2))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found


def broken_links(path: Path) -> list[str]:
    """The relative links of ``path`` whose file or anchor does not exist."""
    problems: list[str] = []
    for line in prose_lines(path.read_text(encoding="utf-8")):
        for target in LINK.findall(line):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:, ...
                continue
            file_part, _, anchor = target.partition("#")
            dest = (path.parent / file_part).resolve() if file_part else path
            if not dest.exists():
                problems.append(f"{path.name}: {target}: no such file")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                problems.append(f"{path.name}: {target}: no heading #{anchor} in {dest.name}")
    return problems


def test_every_relative_link_and_anchor_resolves() -> None:
    """No link in the docs points at a missing file or heading."""
    problems = [p for path in doc_files() for p in broken_links(path)]
    assert problems == []


def test_the_checker_finds_a_broken_file_and_a_broken_anchor(tmp_path: Path) -> None:
    """The link check can fail: a missing file and a missing heading are both reported."""
    (tmp_path / "b.md").write_text("# Real heading\n\n## `tikki arena`\n", encoding="utf-8")
    doc = tmp_path / "a.md"
    doc.write_text(
        "[ok](b.md#real-heading) [ok](b.md#tikki-arena) [web](https://example.org/x)\n"
        "[gone](missing.md) [bad](b.md#nowhere) `[code](missing.md)`\n"
        "```\n[fenced](missing.md)\n```\n",
        encoding="utf-8",
    )
    assert broken_links(doc) == [
        "a.md: missing.md: no such file",
        "a.md: b.md#nowhere: no heading #nowhere in b.md",
    ]


def test_slugs_follow_github() -> None:
    """Headings with code, dashes and umlauts get GitHub's anchors."""
    assert slug("How strong `expert` is") == "how-strong-expert-is"
    assert slug("Myllymatti (2–4 players, default 3)") == "myllymatti-24-players-default-3"
    assert slug("Mückenstich (3–6 players, default 4)") == "mückenstich-36-players-default-4"


def test_the_readme_stays_short() -> None:
    """The README is an overview; the guides live in docs/."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES


def test_the_design_notes_are_cited_inside_the_repository() -> None:
    """Code, tests and docs cite docs/design.md, never the shared DESIGN.md beside the clone."""
    assert (ROOT / "docs" / "design.md").is_file()
    pattern = re.compile(r"\bDESIGN\b")
    paths = [*ROOT.joinpath("tikki").rglob("*.py"), *ROOT.joinpath("tests").rglob("*.py")]
    docs = [p for p in doc_files() if p.name != "CHANGELOG.md"]  # history may name it
    paths += [*ROOT.joinpath("tikki", "web", "static").rglob("*.js"), *docs]
    stale = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in paths
        if p != Path(__file__).resolve()
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert stale == []
