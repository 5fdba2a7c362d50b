"""Every file option of every command, given an unusable path.

Each case asserts one ``error:`` line on standard error, no traceback, the right exit status
(2: refused before any work; 1: a write failed after the work and the result went to a
spare file) and no lost work (a refused file is untouched; a spare file holds the result).
"""

from __future__ import annotations

import json
import re
import sqlite3
import stat
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

import tikki
from tikki.cli import app

runner = CliRunner()
FULL = Path("/dev/full")
needs_full = pytest.mark.skipif(not FULL.exists(), reason="no /dev/full on this system")


@pytest.fixture(autouse=True)
def spare_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Spare files go to a folder of the test's own."""
    spare = tmp_path / "spare"
    spare.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(spare))
    monkeypatch.chdir(tmp_path)
    return spare


def _record(tmp_path: Path) -> Path:
    """A finished two-player Myllymatti game, saved as a record file."""
    state = tikki.load("myllymatti", 2).new_state(seed=3)
    while not state.is_over:
        state.play(state.legal_moves()[0])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(state.record()))
    return path


def _one_error(result: Result, code: int) -> str:
    """The single error line of a command that failed with ``code``."""
    assert result.exit_code == code, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


def _read_only(path: Path, text: str = "keep me") -> Path:
    path.write_text(text)
    path.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    return path


def _bad_paths(tmp_path: Path, suffix: str) -> dict[str, Path]:
    """The unusable paths refused before the work starts, by what is wrong with them."""
    folder = tmp_path / "folder"
    folder.mkdir(exist_ok=True)
    return {
        "folder": folder,
        "missing folder": tmp_path / "nowhere" / f"out{suffix}",
        "read-only": _read_only(tmp_path / f"ro{suffix}"),
        "extension": tmp_path / "out.txt",
    }


WORDS = {
    "folder": "is a folder",
    "missing folder": "there is no folder",
    "read-only": "is read-only",
    "extension": "must end in",
}

PLAY = ["play", "myllymatti", "--players", "2", "--seed", "3", "--bots", "random"]
ARENA = ["arena", "myllymatti", "--players", "2", "--bots", "random", "--games", "2"]


def _analyse(record: Path) -> list[str]:
    moves = len(json.loads(record.read_text())["moves"])
    return ["analyse", str(record), "--iterations", "5", "--from", str(moves - 3)]


@pytest.mark.parametrize(
    ("command", "option", "suffix"),
    [
        ("play", "--record", ".json"),
        ("analyse", "--json", ".json"),
        ("analyse", "--plot", ".png"),
        ("arena", "--db", ".sqlite"),
        ("arena", "--plot", ".png"),
        ("arena", "--json", ".json"),
    ],
)
def test_unusable_output_is_refused_before_the_work(
    tmp_path: Path, command: str, option: str, suffix: str
) -> None:
    base = {"play": PLAY, "arena": ARENA}.get(command) or _analyse(_record(tmp_path))
    for what, path in _bad_paths(tmp_path, suffix).items():
        result = runner.invoke(app, [*base, option, str(path)], input="1\n" * 400)
        line = _one_error(result, 2)
        assert WORDS[what] in line and option in line, (what, line)
        # refused before any work: no game, no analysis, no arena was run
        assert result.stdout == "", (what, result.stdout[:300])
    assert (tmp_path / f"ro{suffix}").read_text() == "keep me"


def test_a_database_that_is_not_one_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "notadb.sqlite"
    other.write_text("not a database")
    line = _one_error(runner.invoke(app, [*ARENA, "--db", str(other)]), 2)
    assert "is not an SQLite database" in line
    line = _one_error(runner.invoke(app, [*ARENA, "--db", str(FULL)]), 2)
    assert "is not a file" in line
    assert other.read_text() == "not a database"


def _spare(line: str) -> Path:
    found = re.search(r"saved it to (\S+) instead", line)
    assert found, line
    return Path(found.group(1))


@needs_full
def test_a_full_disk_keeps_the_record(tmp_path: Path, spare_folder: Path) -> None:
    result = runner.invoke(app, [*PLAY, "--record", str(FULL)], input="1\n" * 400)
    line = _one_error(result, 1)
    assert "No space left on device" in line
    spare = _spare(line)
    assert spare.parent == spare_folder
    assert tikki.replay(json.loads(spare.read_text())).is_over
    assert f"Recordsavedto{spare}" in "".join(result.stdout.split())


@needs_full
def test_a_full_disk_keeps_the_analysis(tmp_path: Path) -> None:
    args = _analyse(_record(tmp_path))
    result = runner.invoke(app, [*args, "--json", str(FULL)])
    spare = _spare(_one_error(result, 1))
    assert json.loads(spare.read_text())["seat"] == 0
    result = runner.invoke(app, [*args, "--plot", str(FULL)])
    spare = _spare(_one_error(result, 1))
    assert spare.suffix == ".png" and spare.read_bytes().startswith(b"\x89PNG")


@needs_full
def test_a_full_disk_keeps_the_arena_summary_and_plot(tmp_path: Path) -> None:
    result = runner.invoke(app, [*ARENA, "--json", str(FULL)])
    spare = _spare(_one_error(result, 1))
    assert json.loads(spare.read_text())["arena"]["games"] == 2
    result = runner.invoke(app, [*ARENA, "--plot", str(FULL)])
    spare = _spare(_one_error(result, 1))
    assert spare.read_bytes().startswith(b"\x89PNG")


def test_a_failed_store_keeps_the_games(tmp_path: Path) -> None:
    """A database whose games table is not the arena's: the games go to a spare database."""
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE games (name TEXT)")
    result = runner.invoke(app, [*ARENA, "--db", str(other)])
    spare = _spare(_one_error(result, 1))
    with sqlite3.connect(spare) as db:
        assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (2,)
    assert f"tikkireplay--db{spare}" in "".join(result.stdout.split())


def test_a_chart_name_without_extension_reports_the_file_written(tmp_path: Path) -> None:
    result = runner.invoke(app, [*ARENA, "--plot", "chart"])
    assert result.exit_code == 0, result.output
    assert "Plot written to chart.png" in result.stdout
    assert (tmp_path / "chart.png").read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize("command", ["replay", "analyse"])
def test_unusable_inputs_are_one_line(tmp_path: Path, command: str) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    text = tmp_path / "notadb.sqlite"
    text.write_text("hello")
    bad_utf8 = tmp_path / "bad.json"
    bad_utf8.write_bytes(b'{"game": "\xff"}')
    cases = {
        (str(folder),): "is a folder",
        (str(tmp_path / "none.json"),): "no such file",
        (str(bad_utf8),): "not UTF-8 text",
        ("1", "--db", str(folder)): "is a folder",
        ("1", "--db", str(tmp_path / "none.sqlite")): "no such file",
        ("1", "--db", str(text)): "is not an SQLite database",
    }
    for args, words in cases.items():
        line = _one_error(runner.invoke(app, [command, *args]), 1)
        assert words in line, (args, line)
