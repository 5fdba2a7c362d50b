"""The web front end's pure modules under Node, without a browser.

``node --test`` runs ``tests/js/*.test.js`` (cards, moves, the table's store, the trick
and game renderers; the renderers draw real views the engine makes here), and
``node --check`` parses every module of ``tikki/web/static``. Without Node these tests skip
with the reason; under ``CI=true`` they fail instead.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

import tikki

ROOT = Path(__file__).resolve().parent.parent
JS_TESTS = ROOT / "tests" / "js"
STATIC = ROOT / "tikki" / "web" / "static"


def _node() -> str:
    """The node executable; skips loudly locally, fails under CI, when there is none."""
    node = shutil.which("node")
    if node is None:
        message = "node is not installed: the front end's pure modules were NOT tested"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return node


def _views() -> list[dict[str, object]]:
    """Views of each game at a few moments (start, mid-game, over), for every seat 0 and 1."""
    samples: list[dict[str, object]] = []
    for name in sorted(tikki.games()):
        game = tikki.load(name, players=3)
        rng = random.Random(name)
        state = game.new_state(seed=3)
        moves = 0
        marks = {0, 12, 40}
        while True:
            if moves in marks or state.is_over:
                for seat in (0, 1):
                    view = json.loads(json.dumps(state.view(seat)))
                    outcome = state.outcome if state.is_over else None
                    samples.append({"game": name, "seat": seat, "view": view, "outcome": outcome})
            if state.is_over:
                break
            state.play(rng.choice(state.legal_moves()))
            moves += 1
    return samples


def test_pure_modules_pass_their_node_tests(tmp_path: Path) -> None:
    node = _node()
    views = tmp_path / "views.json"
    views.write_text(json.dumps(_views()), encoding="utf-8")
    files = sorted(str(p) for p in JS_TESTS.glob("*.test.js"))
    assert len(files) >= 4, files
    result = subprocess.run(
        [node, "--test", *files],
        cwd=ROOT,
        env={**os.environ, "TIKKI_VIEWS": str(views)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    report = result.stdout + result.stderr
    assert result.returncode == 0, report[-6000:]
    assert "# fail 0" in report and "# skipped 0" in report, report[-3000:]


def test_every_module_parses() -> None:
    node = _node()
    modules = sorted(STATIC.rglob("*.js")) + sorted(JS_TESTS.glob("*.js"))
    assert len(modules) > 20
    for module in modules:
        result = subprocess.run(
            [node, "--check", str(module)], capture_output=True, text=True, check=False
        )
        assert result.returncode == 0, f"{module}: {result.stderr}"
