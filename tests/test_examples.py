"""The examples run, at a tiny size, and save what they promise."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_NO_MATPLOTLIB = (  # matplotlib looks uninstalled to tikki.extras.require
    "import importlib.util, runpy, sys\n"
    "_find = importlib.util.find_spec\n"
    "importlib.util.find_spec = lambda name, *a: (\n"
    "    None if name.split('.')[0] == 'matplotlib' else _find(name, *a))\n"
)


def _python(args: list[str], cwd: Path, prelude: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg"}
    if prelude:
        code = prelude + f"sys.argv = {args!r}\nrunpy.run_path({args[0]!r}, run_name='__main__')\n"
        args = ["-c", code]
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=300, env=env
    )


def test_train_policy_checks_the_plot_extra_before_training(tmp_path: Path) -> None:
    script = str(ROOT / "examples" / "train_policy.py")
    done = _python([script, "--minutes", "5"], tmp_path, _NO_MATPLOTLIB)
    assert done.returncode != 0
    assert "pip install 'tikki[plot]'" in done.stderr
    assert "episode" not in done.stdout  # stopped before training, not after


def test_train_policy_runs_tiny_and_saves_its_plot(tmp_path: Path) -> None:
    script = str(ROOT / "examples" / "train_policy.py")
    args = [script, "--minutes", "0.01", "--eval-every", "5", "--eval-games", "2"]
    done = _python([*args, "--plot", "out.png"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out.png").stat().st_size > 1000


def _needs(module: str) -> None:
    """Fail under CI, skip loudly elsewhere, when an example's extra is missing."""
    import importlib.util

    import pytest

    if importlib.util.find_spec(module) is None:
        reason = f"{module} is not installed (pip install -e '.[learn,openspiel]')"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)


def test_selfplay_ppo_runs_tiny_and_saves_its_policy(tmp_path: Path) -> None:
    _needs("torch")
    script = str(ROOT / "examples" / "selfplay_ppo.py")
    args = ["--steps", "128", "--envs", "2", "--rollout", "32", "--refresh", "1"]
    done = _python([script, *args, "--eval-games", "1", "--out", "ppo.pt"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "greedy policy vs heuristic" in done.stdout
    import torch

    weights = torch.load(tmp_path / "ppo.pt")
    assert "actor.weight" in weights


def test_cfr_mini_runs_tiny_and_saves_its_policy(tmp_path: Path) -> None:
    _needs("pyspiel")
    script = str(ROOT / "examples" / "cfr_mini.py")
    done = _python([script, "--iterations", "1", "--out", "cfr.json"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert "iteration 1: NashConv" in done.stdout
    import json

    table = json.loads((tmp_path / "cfr.json").read_text(encoding="utf-8"))
    assert len(table) == 988
    assert all(abs(sum(row.values()) - 1) < 1e-6 for row in table.values())
