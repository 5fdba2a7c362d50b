"""Test helper: the example plug-in game (``examples/plugin_game``) found by its entry point.

The folder holds the package ``tricklet`` and ``tricklet-0.1.dist-info`` (its
``entry_points.txt`` names the game in the ``tikki.games`` group), so putting the folder on
``sys.path`` (or ``PYTHONPATH``, for a subprocess) is all it takes for
``importlib.metadata`` to find the game: nothing is installed into the environment.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from tikki import core

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "examples" / "plugin_game"
"""The plug-in's folder: its package and its ``.dist-info``."""
NAME = "tricklet"
"""The game's name (its entry point's)."""
BIDDING_FOLDER = ROOT / "examples" / "bidding_game"
"""The second example plug-in's folder: Oh Hell (bids, a trump, several rounds)."""
BIDDING_NAME = "ohhell"
"""Its game's name."""
QUIET_PYTEST = ["-p", "no:cacheprovider", "-p", "no:schemathesis", "-p", "no:hypothesispytest"]
"""Options of a pytest run in a subprocess over tests that use neither schemathesis nor
hypothesis: without those plugins it starts seconds sooner (they are imported, and their
modules' asserts rewritten, at every start)."""


def env(base: Mapping[str, str] | None = None, folder: Path = FOLDER) -> dict[str, str]:
    """``base`` (the process's environment by default) with the plug-in's folder and this
    checkout first on ``PYTHONPATH``, for a subprocess (the terminal, the server)."""
    out = dict(os.environ if base is None else base)
    parts = [str(folder), str(ROOT), out.get("PYTHONPATH", "")]
    out["PYTHONPATH"] = os.pathsep.join(p for p in parts if p)
    return out


def _forget(name: str) -> None:
    """Drop what the registry and the import system learnt about the plug-in."""
    core.registry._REGISTRY.pop(name, None)
    core.registry._load_modules.cache_clear()
    for module in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        del sys.modules[module]
    importlib.invalidate_caches()


@contextmanager
def plugged(folder: Path = FOLDER, name: str = NAME) -> Iterator[None]:
    """While inside, this process finds the plug-in game (Tricklet unless told) as an
    installed one would be."""
    sys.path.insert(0, str(folder))
    _forget(name)
    try:
        yield
    finally:
        sys.path.remove(str(folder))
        _forget(name)
