"""``tikki dataset``: the command line's front to the dataset writer.

It writes what :mod:`tikki.interop.dataset` writes (the same bytes for the same inputs),
from bot games, record files or an arena database, and refuses a bad output path, a
missing input or a bad option in one line before any game is played.
"""

from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import tikki
from tikki import arena
from tikki.cli import app
from tikki.interop import dataset

runner = CliRunner()


def _record_files(folder: Path, n: int) -> list[Path]:
    g = tikki.load("mattis", 3)
    files = []
    for seed in range(n):
        state = g.new_state(seed=seed)
        state.random_playout(random.Random(seed))
        files.append(folder / f"r{seed}.json")
        files[-1].write_text(json.dumps(state.record()), encoding="utf-8")
    return files


def test_bot_games_are_the_writers_bytes(tmp_path: Path) -> None:
    out = tmp_path / "games.npz"
    args = ["dataset", "myllymatti", "-p", "2", "--bots", "heuristic,random", "-n", "3"]
    result = runner.invoke(app, [*args, "--seed", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert f"Dataset written to {out}:" in result.output and "of 3 games" in result.output
    data = dataset.from_bots("myllymatti", 2, ["heuristic", "random"], games=3, seed=1)
    assert out.read_bytes() == dataset.save(tmp_path / "api.npz", data).read_bytes()


def test_parquet_is_the_writers_bytes_and_a_database_names_the_bots(tmp_path: Path) -> None:
    if os.environ.get("CI") != "true":
        pytest.importorskip("pyarrow")
    out = tmp_path / "games.parquet"
    args = ["dataset", "mattis", "--bots", "heuristic,random", "-n", "2", "--format", "parquet"]
    result = runner.invoke(app, [*args, "--seed", "3", "--out", str(out)])
    assert result.exit_code == 0, result.output
    data = dataset.from_bots("mattis", 3, ["heuristic", "random"], games=2, seed=3)
    assert out.read_bytes() == dataset.save(tmp_path / "api.parquet", data).read_bytes()
    spec = arena.ArenaSpec("mattis", 3, {}, ("heuristic", "random", "random"), 2, 3)
    arena.store(tmp_path / "a.sqlite", spec, arena.run(spec))
    db_out = tmp_path / "db.npz"
    result = runner.invoke(
        app, ["dataset", "--db", str(tmp_path / "a.sqlite"), "--out", str(db_out)]
    )
    assert result.exit_code == 0, result.output
    stored = dataset.load(db_out)
    np.testing.assert_array_equal(stored["bots"], data["bots"])
    np.testing.assert_array_equal(stored["record_id"], data["record_id"])


def test_records_and_a_database_with_round_rewards(tmp_path: Path) -> None:
    files = _record_files(tmp_path, 2)
    out = tmp_path / "records.npz"
    given = [a for f in files for a in ("--records", str(f))]
    result = runner.invoke(app, ["dataset", *given, "--reward", "round", "--out", str(out)])
    assert result.exit_code == 0, result.output
    loaded = dataset.load(out)
    assert loaded["meta"]["reward"] == "round" and len(loaded["returns"]) == 2
    assert loaded["meta"]["sources"] == [str(f) for f in files]
    spec = arena.ArenaSpec("mattis", 3, {}, ("random",) * 3, 3, 2)
    arena.store(tmp_path / "a.sqlite", spec, arena.run(spec))
    result = runner.invoke(
        app, ["dataset", "--db", str(tmp_path / "a.sqlite"), "--out", str(tmp_path / "db.npz")]
    )
    assert result.exit_code == 0, result.output
    assert len(dataset.load(tmp_path / "db.npz")["returns"]) == 3


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--out", "{tmp}/none/x.npz", "mattis", "--bots", "random"], "there is no folder"),
        (["--out", "{tmp}/x.csv", "mattis", "--bots", "random"], "must end in .npz"),
        (["--out", "{tmp}", "mattis", "--bots", "random"], "is a folder: give a file name"),
        (["--out", "{tmp}/x.npz"], "nothing to write: give --bots (new games)"),
        (["--out", "{tmp}/x.npz", "--bots", "random"], "--bots plays new games: name the game"),
        (["--out", "{tmp}/x.npz", "mattis", "--bots", "nobot"], "nobot"),
        (["--out", "{tmp}/x.npz", "mattis", "--bots", "random", "-n", "0"], "at least 1"),
        (["--out", "{tmp}/x.npz", "chess", "--bots", "random"], "chess"),
        (["--out", "{tmp}/x.npz", "--records", "{tmp}/gone.json"], "no such file"),
        (["--out", "{tmp}/x.npz", "--db", "{tmp}/gone.sqlite"], "no such file"),
        (["--out", "{tmp}/x.npz", "mattis", "--records", "{tmp}/r0.json"], "goes with --bots"),
        (["--out", "{tmp}/x.npz", "--records", "{tmp}/r0.json", "--reward", "trick"], "trick"),
        (["--out", "{tmp}/x.npz", "mattis", "--bots", "random", "--format", "csv"], "npz or par"),
        (["--out", "{tmp}/x.npz", "mattis", "--bots", "random", "--format", "parquet"], ".parq"),
    ],
)
def test_bad_input_is_one_line_before_any_game(tmp_path: Path, args: list[str], words: str) -> None:
    _record_files(tmp_path, 1)
    filled = [a.replace("{tmp}", str(tmp_path)) for a in args]
    result = runner.invoke(app, ["dataset", *filled])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], lines
    assert not list(tmp_path.glob("*.npz"))


def test_a_broken_record_is_exit_status_1(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    result = runner.invoke(
        app, ["dataset", "--records", str(broken), "--out", str(tmp_path / "x.npz")]
    )
    assert result.exit_code == 1, result.output
    assert "is not a readable JSON record" in result.output and "Traceback" not in result.output


def test_errors_in_finnish_and_german(tmp_path: Path) -> None:
    for lang, words in (("fi", "ei mitään kirjoitettavaa"), ("de", "nichts zu schreiben")):
        result = runner.invoke(app, ["--lang", lang, "dataset", "--out", str(tmp_path / "x.npz")])
        assert result.exit_code == 2 and words in result.output, result.output
    for lang, words in (("fi", "--format on npz tai parquet"), ("de", "--format ist npz oder")):
        given = ["--out", str(tmp_path / "x.npz"), "--format", "csv"]
        result = runner.invoke(app, ["--lang", lang, "dataset", *given])
        assert result.exit_code == 2 and words in result.output, result.output
    tikki.i18n.activate("en")


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "Write a dataset of decisions (.npz)"),
        ("fi", "Kirjoita päätösten aineisto (.npz)"),
        ("de", "Einen Datensatz von Entscheidungen (.npz) schreiben"),
    ],
)
def test_help_in_three_languages(
    lang: str, words: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tikki import cli, i18n

    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setattr(sys, "argv", ["tikki", "--lang", lang, "dataset", "--help"])
    try:
        with pytest.raises(SystemExit) as exited:
            cli.main()
    finally:
        i18n.activate("en")
    out = " ".join(capsys.readouterr().out.split())
    assert exited.value.code in (0, None) and words in out, out
    assert "--out" in out and "--records" in out and "--reward" in out


def test_parquet_without_pyarrow_names_the_extra_before_any_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda n, *a: None if n == "pyarrow" else real(n, *a)
    )
    out = tmp_path / "x.parquet"
    args = ["dataset", "mattis", "--bots", "random", "--format", "parquet", "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "pip install 'tikki[parquet]'" in result.output and not out.exists()
