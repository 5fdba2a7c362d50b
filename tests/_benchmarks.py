"""Test helper: the scripts under benchmarks/ loaded as modules (it is not a package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def script(name: str) -> ModuleType:
    """benchmarks/NAME.py as a module (benchmarks/ is not a package)."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def strength() -> ModuleType:
    """benchmarks/strength.py as a module."""
    return script("strength")
