"""Test set-up shared by the tests and the doctests (``--doctest-modules`` over ``tikki``).

The doctests import every module of the package; the modules that need an optional extra
are left out of that collection where the extra is not installed (a bare install runs the
doctests of the engine, the bots and the terminal).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

for _var in ("LC_ALL", "LC_MESSAGES", "LANG"):  # the tests speak English on any machine
    os.environ[_var] = "C.UTF-8" if _var == "LANG" else ""

NEEDS: dict[str, tuple[str, ...]] = {
    "tikki/server/*.py": ("fastapi", "uvicorn", "sqlalchemy", "markdown_it", "fastapi_offline"),
    "tikki/interop/encoding.py": ("numpy",),
    "tikki/interop/observations.py": ("numpy",),
    "tikki/interop/dataset.py": ("numpy",),
    "tikki/interop/openspiel.py": ("numpy", "pyspiel"),
    "tikki/interop/spiel.py": ("numpy", "pyspiel"),
    "tikki/interop/pettingzoo.py": ("numpy", "gymnasium", "pettingzoo"),
    "tikki/rl.py": ("numpy", "gymnasium"),
    "tikki/arena_ray.py": ("ray",),
    "tikki/inference.py": ("numpy",),
    "tikki/learn/*.py": ("numpy",),
    "tools/catalogs.py": ("babel",),
    "tools/web_catalogs.py": ("babel",),
}
"""Modules (globs from the repository root) and the optional imports each needs."""

collect_ignore_glob = [
    pattern
    for pattern, modules in NEEDS.items()
    if any(importlib.util.find_spec(module) is None for module in modules)
]

ENGINE_MODULES = ("core", "cards", "events", "games", "i18n", "rules")
"""The modules and packages of tikki whose doctests ``make check`` runs (the ``engine`` mark):
a name is a module ``tikki/NAME.py`` or a package ``tikki/NAME/``."""

PACKAGE = Path(__file__).resolve().parent / "tikki"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the doctests of the engine's modules ``engine`` before ``-m`` selects."""
    for item in items:
        if item.path.is_relative_to(PACKAGE):
            name = item.path.relative_to(PACKAGE).parts[0].removesuffix(".py")
            if name in ENGINE_MODULES:
                item.add_marker(pytest.mark.engine)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before a test or doctest that uses no browser, close the Chromium the browser
    modules share (tests/test_web_e2e.py's ``Chromium``: its event loop would stop
    ``asyncio.run``)."""
    e2e = sys.modules.get("tests.test_web_e2e")
    if e2e is not None and "browser" not in getattr(item, "fixturenames", ()):
        e2e.Chromium.close()


def pytest_sessionfinish() -> None:
    """Close the browser modules' shared Chromium, if one is still running."""
    e2e = sys.modules.get("tests.test_web_e2e")
    if e2e is not None:
        e2e.Chromium.close()
