"""Faults of the research kit's commands: the wrong data shipped as a game's model, output
paths refused only after the work (or never), and a strength verdict that said more than
its interval."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests._benchmarks import strength
from tikki import inference
from tikki.learn import cli, data

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def models(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A models folder of its own holding a copy of the shipped Mattis model."""
    folder = tmp_path / "models"
    folder.mkdir()
    shutil.copy(inference.shipped("mattis"), folder / "mattis.npz")
    monkeypatch.setattr(inference, "MODELS_DIR", folder)
    monkeypatch.setattr(inference, "_CACHE", {})
    return folder


def test_shipping_another_games_data_is_refused_before_anything_is_written(
    models: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "myllymatti-data"
    data.generate("myllymatti", folder, 1, seed=2, bot="heuristic", chunk=1)
    before = (models / "mattis.npz").read_bytes()
    argv = ["train", "mattis", "--data", str(folder), "--epochs", "1", "--hidden", "8,4"]
    assert cli.main([*argv, "--ship"]) == 2
    err = capsys.readouterr().err
    assert "myllymatti" in err and "not mattis" in err and "Traceback" not in err
    assert (models / "mattis.npz").read_bytes() == before  # the shipped model untouched
    out = tmp_path / "m.npz"
    assert cli.main([*argv, "-o", str(out)]) == 2  # nor under another name
    assert not out.exists()
    assert cli.main([*argv, "--games", "1", "--ship"]) == 2  # no new data written either
    assert sorted(p.name for p in folder.iterdir()) == ["chunk-00000.npz"]


def test_tikki_train_refuses_another_games_data_in_words(models: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from tikki.cli import app

    folder = tmp_path / "d"
    data.generate("myllymatti", folder, 1, seed=2, bot="heuristic", chunk=1)
    before = (models / "mattis.npz").read_bytes()
    done = CliRunner().invoke(app, ["train", "mattis", "--data", str(folder), "--ship"])
    assert done.exit_code == 2, done.output
    assert "not mattis" in done.output and "Traceback" not in done.output
    assert (models / "mattis.npz").read_bytes() == before


def test_shipping_another_player_count_is_refused(models: Path, tmp_path: Path) -> None:
    folder = tmp_path / "four"
    data.generate("mattis", folder, 1, seed=2, players=4, bot="heuristic", chunk=1)
    before = (models / "mattis.npz").read_bytes()
    assert cli.main(["train", "mattis", "--data", str(folder), "--epochs", "1", "--ship"]) == 2
    assert (models / "mattis.npz").read_bytes() == before


def test_train_out_in_a_missing_folder_is_refused_like_every_other_output(
    tmp_path: Path,
) -> None:
    from typer.testing import CliRunner

    from tikki.cli import app

    folder = tmp_path / "d"
    data.generate("mattis", folder, 1, seed=2, bot="heuristic", chunk=1)
    out = tmp_path / "missing" / "x.npz"
    args = ["train", "mattis", "--data", str(folder), "--epochs", "1", "--out", str(out)]
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 2, done.output
    assert "there is no folder" in done.output and "Traceback" not in done.output
    assert not out.parent.exists()
    assert cli.main(["train", "mattis", "--data", str(folder), "-o", str(out)]) == 2
    assert not out.parent.exists()
    assert cli.main(["train", "mattis", "--data", str(folder), "-o", str(tmp_path / "m.txt")]) == 2


def _python(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=300, env=env
    )


def test_dataset_module_refuses_a_missing_folder_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tikki.interop import dataset

    out = tmp_path / "missing" / "x.npz"
    argv = ["mattis", "--bots", "random", "-n", "1", "-o", str(out)]
    assert dataset.main(argv) == 2
    err = capsys.readouterr().err
    assert "there is no folder" in err and "Errno" not in err
    assert "decisions" not in capsys.readouterr().out
    assert dataset.main(["mattis", "--bots", "random", "-n", "1", "-o", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err


def test_cfr_mini_checks_its_output_before_solving(tmp_path: Path) -> None:
    pytest.importorskip("pyspiel")
    script = str(ROOT / "examples" / "cfr_mini.py")
    done = _python([script, "--iterations", "1", "--out", "/nonexistent/x.json"], tmp_path)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "there is no folder /nonexistent" in done.stderr
    assert "NashConv" not in done.stdout  # refused before solving


def test_strength_verdicts_agree_with_the_readme(tmp_path: Path) -> None:
    """The saved learned runs (benchmarks/runs/learned.jsonl, seed 12, 300 games) read as
    the README's table does: better than the reference by a point inside the interval is
    "not shown", level is missed."""
    bench = strength()
    saved = tmp_path / "learned.jsonl"
    shutil.copy(ROOT / "benchmarks" / "runs" / "learned.jsonl", saved)
    targets = {t.name: t for t in bench.TARGETS}
    verdicts = {
        name: bench.measure(targets[name], 300, 12, 1, saved)[3]
        for name in ("myllymatti-learned", "mattis-learned", "mueckenstich-learned")
    }
    assert verdicts == {
        "myllymatti-learned": "not shown",
        "mattis-learned": "NO",
        "mueckenstich-learned": "NO",
    }
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "below 34.0%: not shown" in readme
    assert saved.read_bytes() == (ROOT / "benchmarks" / "runs" / "learned.jsonl").read_bytes()
