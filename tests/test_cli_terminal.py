"""The terminal commands as a new user meets them (issue 36): the global ``--lang``, replay
errors in words, bot parameters, help without Python, and golden outputs."""

from __future__ import annotations

from typer.testing import CliRunner

from tikki.cli import app

runner = CliRunner()


def test_the_global_lang_reaches_rules() -> None:
    for args in (["--lang", "fi", "rules", "myllymatti"], ["rules", "myllymatti", "--lang", "fi"]):
        result = runner.invoke(app, args, env={"LANG": "en_US.UTF-8", "LC_ALL": ""})
        assert result.exit_code == 0, result.output
        assert "Vanha, todennäköisesti suomalainen korttipeli" in result.output, args
    german = runner.invoke(app, ["--lang", "de", "rules", "mattis"])
    assert "Vanha" not in german.output and "Spiel" in german.output
