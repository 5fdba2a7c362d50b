"""Arena workers (``jobs > 1``) know the driver's own bots, and a script without the
``__main__`` guard stops with a clear message instead of hanging."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests._py_bots import FirstMove
from tikki import arena, bots
from tikki.core import Game, RulesError

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def forget() -> Iterator[list[str]]:
    names: list[str] = []
    yield names
    for name in names:
        bots._FACTORIES.pop(name, None)


def _key(results: list[arena.GameResult]) -> list[Any]:
    return [(r.index, r.outcome, r.seats, r.record, r.error) for r in results]


def test_a_bot_registered_in_the_driver_plays_in_worker_processes(forget: list[str]) -> None:
    forget += ["first_cls", "first_path"]
    bots.register_bot("first_cls", FirstMove)
    bots.register_bot("first_path", "tests._py_bots:FirstMove")
    spec = arena.ArenaSpec("myllymatti", 3, {}, ("first_cls", "first_path", "random"), 6, 3)
    pooled = arena.run(spec, jobs=2)
    assert [r.error for r in pooled] == [None] * 6
    assert _key(pooled) == _key(arena.run(spec, jobs=1))


def test_bad_import_paths_and_unsendable_bots_are_refused_clearly(forget: list[str]) -> None:
    with pytest.raises(RulesError, match="a bot import path is 'module:Class'"):
        bots.register_bot("nowhere", "no_colon_here")
    forget += ["missing", "local"]
    bots.register_bot("missing", "tests._py_bots:Nobody")
    with pytest.raises(RulesError, match=r"cannot import the bot 'tests\._py_bots:Nobody'"):
        bots.make("missing")

    class Local:
        name = "local"

        def __init__(self, seed: int | None = None) -> None:
            pass

        def choose(self, game: Game, view: Mapping[str, Any]) -> str:
            return str(view["legal_moves"][0])

    bots.register_bot("local", Local)
    spec = arena.ArenaSpec("myllymatti", 2, {}, ("local", "random"), 2, 1)
    with pytest.raises(RulesError, match=r"register_bot\('local', 'module:Class'\)"):
        arena.run(spec, jobs=2)


def _doc_example() -> str:
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    section = text[text.index("## The arena from Python") :]
    return str(re.findall(r"```python\n(.*?)```", section, re.S)[0])


def _run_script(tmp_path: Path, code: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "script.py"
    script.write_text(code, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=300, env=env
    )


def test_the_docs_arena_example_is_guarded_and_runs_with_two_jobs(tmp_path: Path) -> None:
    code = _doc_example()
    assert 'if __name__ == "__main__":' in code
    two = code.replace("games=30", "games=6").replace("jobs=1", "jobs=2")
    assert "jobs=2" in two
    done = _run_script(tmp_path, two)
    assert done.returncode == 0, done.stderr
    assert "first" in done.stdout


def test_an_unguarded_script_with_jobs_stops_with_a_clear_message(tmp_path: Path) -> None:
    code = (
        "from tikki import arena\n"
        "spec = arena.ArenaSpec('myllymatti', 2, {}, ('random', 'random'), 4, 1)\n"
        "arena.run(spec, jobs=2)\n"
        "print('finished')\n"
    )
    done = _run_script(tmp_path, code)
    assert done.returncode != 0
    assert 'if __name__ == "__main__":' in done.stderr.splitlines()[-1]
    assert "finished" not in done.stdout
