"""Shared test helpers: where the project's shared material lives."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("TIKKI_SHARED", ROOT.parent / "shared"))
"""The project's shared folder (rules, playthroughs), beside the checkout as in CI."""


def shared_path(*parts: str) -> Path:
    """A path under ../shared; skips loudly locally, fails under CI, if it is missing."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        message = f"{path} is missing: the tests need the project's shared/ folder beside the repo"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path
