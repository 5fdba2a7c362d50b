"""Project habits: the version written once; ``tikki.games()`` a plain function."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import types
from importlib import metadata
from pathlib import Path

import pytest

import tikki
import tikki.core

pytestmark = [pytest.mark.engine, pytest.mark.newest]

ROOT = Path(__file__).resolve().parent.parent


def test_version_is_written_once_in_the_package() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"], "pyproject.toml must not repeat the version"
    assert "version" in project["project"]["dynamic"]
    dynamic = project["tool"]["setuptools"]["dynamic"]["version"]
    assert dynamic == {"attr": "tikki.__version__"}
    assert metadata.version("tikki") == tikki.__version__


def test_games_is_a_plain_function_after_the_game_modules_are_imported() -> None:
    """Importing a game module leaves ``tikki.games`` the registry function.

    Run in a fresh interpreter, so that the game modules are imported for the first time
    there, in both orders (the package first, then ``tikki``; and the other way round).
    """
    script = """
import types
import tikki.games.myllymatti
from tikki.games import mattis
import tikki, tikki.core
assert tikki.games is tikki.core.games, tikki.games
assert type(sys.modules["tikki.games"]) is types.ModuleType
listing = tikki.games()
assert {"myllymatti", "mattis", "mueckenstich"} <= set(listing), listing
assert mattis.__name__ == "tikki.games.mattis"
print("ok")
"""
    result = subprocess.run(
        [sys.executable, "-c", "import sys\n" + script],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_games_in_this_process_is_the_function() -> None:
    import tikki.games.mueckenstich

    assert isinstance(tikki.games, types.FunctionType)
    assert tikki.games is tikki.core.games
    assert type(sys.modules["tikki.games"]) is types.ModuleType


def test_each_game_declares_its_terminal_presenter() -> None:
    """Every game's presenter module declares ``PRESENTER`` with every hook of the
    protocol; the terminal takes it as it is (nothing probed by name)."""
    import importlib

    from tikki.tui.app import presenter
    from tikki.tui.presenter import Hooks, Presenter

    hooks = [name for name in vars(Presenter) if not name.startswith("_")]
    assert len(hooks) == 8, hooks
    for name in filter(tikki.core.built_in, tikki.games()):  # a plug-in's may be generic
        module = importlib.import_module(f"tikki.tui.{name}")
        assert isinstance(module.PRESENTER, Hooks), name
        found = presenter(tikki.load(name))
        assert found is module.PRESENTER
        for hook in hooks:
            assert callable(getattr(found, hook)), f"{name}: {hook}"
