"""Every front-end module is type-checked: each carries ``// @ts-check``
and TypeScript's checker (``make typecheck-js``, pinned in package.json) finds nothing."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "tikki" / "web" / "static"
TSC = ROOT / "node_modules" / ".bin" / "tsc"


def test_every_module_carries_ts_check() -> None:
    """A module without the mark would be read for its exports only, never checked."""
    modules = sorted(STATIC.rglob("*.js"))
    assert len(modules) > 20
    unchecked = [
        m.relative_to(ROOT).as_posix()
        for m in modules
        if not m.read_text(encoding="utf-8").startswith("// @ts-check")
    ]
    assert not unchecked, f"add // @ts-check as the first line of {unchecked}"


def test_tsc_finds_no_error() -> None:
    """``tsc --noEmit -p tsconfig.json`` passes (``make typecheck-js`` installs it)."""
    if not TSC.exists():
        if os.environ.get("CI"):
            pytest.fail("node_modules/.bin/tsc is missing: run make typecheck-js first")
        pytest.skip("TypeScript not installed here: run make typecheck-js to install it")
    done = subprocess.run(
        [str(TSC), "--noEmit", "-p", "tsconfig.json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
