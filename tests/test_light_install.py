"""``pip install tikki`` is light: the engine, the bots, the terminal and the arena only.

One test installs the package (a real install of this checkout, with its dependencies,
from pip's cache or index) into a fresh virtual environment and looks at what it brought
and what works there.  It takes 30–90 s, so it is one test doing every check.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tikki import extras

ROOT = Path(__file__).resolve().parent.parent
HEAVY = {
    "fastapi",
    "uvicorn",
    "sqlalchemy",
    "websockets",
    "matplotlib",
    "starlette",
    "numpy",
    "psycopg",
    "ray",
    "open-spiel",
    "pettingzoo",
    "gymnasium",
    "pyarrow",
    "babel",
}
"""Distributions that only extras may bring (Babel manages the catalogs; the compiled
ones are read with the standard library's gettext)."""
CORE = {"tikki", "rich", "typer", "openskill"}
"""What the bare install must bring (typer brings pydantic too, so it is not checked)."""


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=600)


@pytest.mark.timeout(900)
def test_bare_install_brings_only_the_core(tmp_path: Path) -> None:
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "tikki", source / "tikki", ignore=shutil.ignore_patterns("__pycache__"))
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)  # our pip installs into it (--python)
    bin_dir = env_dir / ("Scripts" if sys.platform == "win32" else "bin")
    python = str(bin_dir / "python")
    pip = [sys.executable, "-m", "pip", "--python", python]
    done = _run([*pip, "install", "-q", str(source)], tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]

    listed = _run([*pip, "list", "--format=json"], tmp_path)
    names = {d["name"].lower() for d in json.loads(listed.stdout)}
    assert names >= CORE, f"missing: {CORE - names}"
    assert not names & HEAVY, f"the bare install brought extras: {sorted(names & HEAVY)}"

    tikki_cmd = str(bin_dir / "tikki")
    assert _run([tikki_cmd, "play", "--help"], tmp_path).returncode == 0
    game = _run(
        [tikki_cmd, "arena", "myllymatti", "-p", "3", "--bots", "heuristic,random", "-n", "3"],
        tmp_path,
    )
    assert game.returncode == 0, game.stdout + game.stderr
    assert "heuristic" in game.stdout
    rules = _run([tikki_cmd, "rules", "mueckenstich", "--lang", "de"], tmp_path)
    assert rules.returncode == 0 and "Die Stiche" in rules.stdout, rules.stderr  # package data
    finnish = _run([tikki_cmd, "--lang", "fi", "games"], tmp_path)  # the catalogs came along
    assert finnish.returncode == 0 and "pelaajaa (oletus 3)" in finnish.stdout, finnish.stderr

    serve = _run([tikki_cmd, "serve", "--port", "0"], tmp_path)
    assert serve.returncode == 2
    assert "the web table needs: pip install 'tikki[web]'" in serve.stdout + serve.stderr
    plot = _run(
        [tikki_cmd, "arena", "mattis", "--bots", "random", "-n", "2", "--plot", "x.png"],
        tmp_path,
    )
    assert plot.returncode == 2 and "pip install 'tikki[plot]'" in plot.stdout + plot.stderr
    assert not (tmp_path / "x.png").exists()
    probe = "import tikki.interop.pettingzoo"
    adapter = _run([python, "-c", probe], tmp_path)
    assert "pip install 'tikki[pettingzoo]'" in adapter.stderr


def test_require_names_the_extra() -> None:
    with pytest.raises(extras.MissingExtra, match=r"x needs: pip install 'tikki\[ray\]'"):
        extras.require("ray", "x", ("no_such_module_tikki",))
    extras.require("gym", "the encoders", ("json",))  # present: no error


def test_cli_errors_show_brackets_literally() -> None:
    """An error naming an extra keeps its brackets (rich must not read them as markup)."""
    from typer.testing import CliRunner

    from tikki.cli import app

    result = CliRunner().invoke(app, ["arena", "mattis", "--bots", "random[web]"])
    assert result.exit_code == 2
    assert "[web]" in result.output
