"""The package's floors: no module imports itself back through others, and no lower part
imports a higher one.

The import graph is read from the source (every ``import`` and ``from … import`` of a
``tikki`` module, inside functions too), so a circle hidden in a function body counts.
An import under ``if TYPE_CHECKING:`` is left out: it never runs.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tikki"

_APPS = ("tikki.server", "tikki.tui", "tikki.cli")
"""The applications: nothing below them imports them."""
_ENGINE_USERS = (
    "tikki.bots",
    *_APPS,
    "tikki.interop",
    "tikki.learn",
    "tikki.arena",
    "tikki.analysis",
)
"""What uses the games: nothing in the games or below imports it."""
_ABOVE_GROUND = ("tikki.core", "tikki.games", "tikki.bots", "tikki.server")
"""What the ground floor (errors, views, sentences' plumbing) never imports."""

NEVER = {
    "tikki.errors": ("tikki.",),
    "tikki.views": _ABOVE_GROUND,
    "tikki.i18n": _ABOVE_GROUND,
    "tikki.events": _ABOVE_GROUND,
    "tikki.core": ("tikki.games", *_ENGINE_USERS, "tikki.inference", "tikki.rules"),
    "tikki.games": _ENGINE_USERS,
    "tikki.bots": ("tikki.server", "tikki.tui", "tikki.cli", "tikki.learn", "tikki.arena"),
    "tikki.inference": ("tikki.bots", "tikki.server", "tikki.learn", "tikki.cli"),
    "tikki.serve_settings": ("tikki.server",),
    "tikki.commandline": ("tikki.cli", "tikki.tui", "tikki.server"),
    "tikki.arena_ray": ("tikki.arena",),
    "tikki.interop": ("tikki.cli", "tikki.server", "tikki.tui"),
    "tikki.learn": ("tikki.cli",),
    "tikki.server.tables": ("tikki.server.app", "tikki.server.routes", "tikki.server.ws"),
}
"""What a part (a module or a package, by name prefix) must never import directly."""


def module_name(path: Path) -> str:
    """``tikki/core/game.py`` -> ``tikki.core.game`` (a package is its ``__init__``)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imported(path: Path, modules: set[str]) -> set[str]:
    """The tikki modules ``path`` imports (``from X import y`` counts ``X.y`` when that
    is a module, else ``X``)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and _type_checking(node)
               for n in ast.walk(node)}  # fmt: skip
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if full in modules else base)
    return {m for m in found if m in modules and m != name}


@functools.cache
def graph() -> dict[str, set[str]]:
    """Every tikki module and the tikki modules it imports."""
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {module_name(p) for p in paths}
    return {module_name(p): imported(p, modules) for p in paths}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_no_module_imports_itself_back() -> None:
    edges = graph()
    # a package's __init__ that gathers its own modules is its face, not a circle
    faces = {m: {d for d in deps if not d.startswith(m + ".")} for m, deps in edges.items()}
    assert circles(faces) == []


def test_the_graph_is_read_at_all() -> None:
    """The reader finds the arrows it must (a test of the test)."""
    edges = graph()
    assert "tikki.core.game" in edges["tikki.core.registry"]
    assert "tikki.server.tables.moves" in edges["tikki.server.tables.bots"]
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


@pytest.mark.parametrize("part", sorted(NEVER))
def test_a_lower_part_never_imports_a_higher_one(part: str) -> None:
    edges = graph()
    wrong = sorted(
        f"{module} imports {dep}"
        for module, deps in edges.items()
        if module == part or module.startswith(part + ".")
        for dep in deps
        if any(dep == f or dep.startswith(f if f.endswith(".") else f + ".") for f in NEVER[part])
        and not (dep == part or dep.startswith(part + "."))
    )
    assert wrong == []
