"""Optional compiled build: the engine's hot modules compiled with mypyc.

``pip install tikki`` (and ``make run``) builds nothing: the package is pure Python.  With
``TIKKI_MYPYC=1`` set, and mypy and ``setuptools>=77`` installed beside pip,
``TIKKI_MYPYC=1 pip install --no-build-isolation .`` compiles :data:`COMPILED_MODULES`
(gcc and the Python headers are all it needs): the same rules and results, about twice
as fast.  ``make test-compiled`` builds a copy of the tree and runs the engine's tests on
it; everything else about the package is in ``pyproject.toml``.
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import setup


def _modules(folder: str) -> list[str]:
    """Every module of ``folder`` but its ``__init__.py``, in name order: the engine's
    (``tikki/core``), each game's rules and rollout tactics (``tikki/games``) and the
    heuristic bot's policies (``tikki/bots/heuristic``), plug-ins of this tree included,
    without naming one."""
    root = Path(__file__).resolve().parent
    found = (root / folder).glob("*.py")
    return sorted(p.relative_to(root).as_posix() for p in found if p.name != "__init__.py")


COMPILED_MODULES = [
    "tikki/cards.py",
    "tikki/events.py",
    *_modules("tikki/core"),
    *_modules("tikki/games"),
    *_modules("tikki/bots/heuristic"),
    "tikki/bots/ismcts.py",
    "tikki/bots/endgame.py",
    "tikki/interop/rows.py",
    *(p for p in _modules("tikki/interop/encoders") if p.endswith("_rows.py")),
]
"""The modules a compiled build compiles: the rules, their events, the rollout tactics and
the heuristic policies (what search and playouts spend their time in), and the lists the
batched observation encoders are built from (``tikki/interop/rows.py``, each game's
``encoders/<game>_rows.py``: what the vector env spends its time in)."""


def ext_modules() -> list[object]:
    """mypyc's extensions when ``TIKKI_MYPYC=1``, else none (a pure-Python build)."""
    if os.environ.get("TIKKI_MYPYC") != "1":
        return []
    from mypyc.build import mypycify  # only a compiled build needs mypy

    return list(mypycify(COMPILED_MODULES, opt_level="3"))


if __name__ == "__main__":  # setuptools runs this file as the main module; importing it
    setup(ext_modules=ext_modules())  # only reads COMPILED_MODULES (.ci/test-compiled.sh)
