"""The ``tikki`` command: terminal play, replay, rules and games, driven like a person would."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import tikki
from tikki.cli import app
from tikki.tui.common import SUIT_SYMBOL

runner = CliRunner()


def _play(args: list[str], keys: str) -> tuple[int, str]:
    result = runner.invoke(app, ["play", *args], input=keys)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


def test_whole_game_by_numbers_then_replay(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    code, out = _play(["myllymatti", "--seed", "5", "--record", str(record)], "1\n" * 600)
    assert code == 0
    assert "Game over" in out and "Myllymatti:" in out
    # the terminal wraps long lines at a space (or inside a long path): compare without
    # whitespace, so that the temporary path's length cannot decide the test
    offer = f"See how well you played: tikki analyse {record} --seat 0"
    assert "".join(offer.split()) in "".join(out.split())
    data = json.loads(record.read_text())
    state = tikki.replay(data)
    assert state.is_over and state.outcome == data["outcome"]
    result = runner.invoke(app, ["replay", str(record)])
    assert result.exit_code == 0, result.output
    assert f"Verified {len(data['moves'])} moves" in result.output


def test_quit_saves_a_replayable_partial_record(tmp_path: Path) -> None:
    record = tmp_path / "partial.json"
    code, out = _play(["myllymatti", "--seed", "1", "--record", str(record)], "2\nquit\n")
    assert code == 0 and "Game stopped" in out and "Record saved" in out
    assert "tikki analyse" not in out  # offered only once the game is over
    state = tikki.replay(json.loads(record.read_text()))
    assert not state.is_over and len(state.moves) >= 1


def test_end_of_input_exits_cleanly(tmp_path: Path) -> None:
    code, out = _play(["myllymatti", "--seed", "1", "--no-record"], "")
    assert code == 0 and "Game stopped" in out and "Traceback" not in out


def test_wrong_input_explains_and_asks_again() -> None:
    code, out = _play(["myllymatti", "--seed", "2", "--no-record"], "9Z\ntake\n1\nquit\n")
    assert code == 0
    assert "Not legal: '9Z' is not a move" in out
    assert "take is a phase-2 move" in out
    assert out.count("Your move:") >= 4


def test_help_and_rules_commands() -> None:
    code, out = _play(["myllymatti", "--seed", "2", "--no-record"], "help\nrules\nquit\n")
    assert code == 0
    assert "What it does" in out and "turn the top card of the stock" in out
    assert "Phase 2" in out and "myllymatti" in out.lower()


def test_first_screen_shows_no_hidden_card() -> None:
    state = tikki.load("myllymatti", players=3).new_state(seed=11)
    hidden = state.reveal()["hidden"]["0"]
    code, out = _play(["myllymatti", "--seed", "11", "--no-record"], "quit\n")
    assert code == 0
    for text in hidden:
        shown = text[0] + SUIT_SYMBOL[text[1]]
        assert shown not in out, f"hidden card {text} appears on seat 0's screen"
    own = state.view(0)["hand"]
    assert all(c[0] + SUIT_SYMBOL[c[1]] in out for c in own)


def test_watch_mode_and_variant_options() -> None:
    result = runner.invoke(
        app,
        ["play", "myllymatti", "--watch", "--seed", "3", "--variant", "koira", "--no-record"],
    )
    assert result.exit_code == 0, result.output
    assert "variant=koira" in result.output and "Game over" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "chess"], "the games are"),
        (["play", "myllymatti", "--option", "take=sideways"], "valid values are top, bottom"),
        (["play", "myllymatti", "--option", "colour=red"], "valid options are"),
        (["play", "myllymatti", "--option", "runs"], "is not KEY=VALUE"),
        (["play", "myllymatti", "--players", "7"], "2–4 players"),
        (["play", "myllymatti", "--bots", "wizard"], "the bots are"),
        (["play", "myllymatti", "--seat", "5"], "no seat 5"),
        (["play", "myllymatti", "--players", "2", "--bots", "learned"], "with 3 players"),
        (["rules", "poker"], "the games are"),
    ],
)
def test_bad_command_lines_get_clear_errors(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_replay_names_the_first_bad_move(tmp_path: Path) -> None:
    state = tikki.load("myllymatti").new_state(seed=4)
    for _ in range(6):
        state.play(state.legal_moves()[0])
    record = state.record()
    record["moves"][3] = "take"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert "record move 4, take by seat" in result.output
    path.write_text("{not json")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1 and "is not a JSON record" in result.output
    result = runner.invoke(app, ["replay", str(tmp_path / "missing.json")])
    assert result.exit_code == 1 and "no such file" in result.output


def test_games_lists_every_option() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    for spec in tikki.games()["myllymatti"]["options"]:
        assert spec["name"] in result.output


def test_hint_suggests_a_legal_move() -> None:
    code, out = _play(["myllymatti", "--seed", "6", "--no-record"], "hint\nquit\n")
    assert code == 0
    state = tikki.load("myllymatti").new_state(seed=6)
    hint = out.split("Hint: ", 1)[1].split(" ", 1)[0]
    shown = {m[0] + SUIT_SYMBOL[m[1]] if m != "stock" else m: m for m in state.legal_moves()}
    assert hint in shown, f"hint {hint!r} is not one of {sorted(shown)}"


def test_play_takes_any_bot() -> None:
    result = runner.invoke(
        app,
        [
            "play",
            "myllymatti",
            "--watch",
            "--seed",
            "2",
            "--no-record",
            "--bots",
            "ismcts:iterations=20,heuristic,random",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "ismcts:iterations=20" in result.output and "Game over" in result.output


def test_play_against_the_learned_bot() -> None:
    """``learned`` plays the games and player counts of the shipped models."""
    args = ["play", "mattis", "--watch", "--seed", "2", "--no-record", "--bots", "learned"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "(learned)" in result.output and "Game over" in result.output


def test_play_against_learned_without_numpy_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "numpy", None)  # as a bare install: NumPy not found
    result = runner.invoke(app, ["play", "mattis", "--bots", "learned", "--no-record"])
    assert result.exit_code == 2, result.output
    assert "pip install 'tikki[models]'" in result.output and "Traceback" not in result.output


def _bad_bot(tmp_path: Path, kind: str) -> str:
    """A cmd: bot spec that fails in the way ``kind`` names."""
    if kind == "missing":
        return "cmd:/nonexistent/bot"
    script = tmp_path / f"{kind}.py"
    body = {
        "zz": "import sys\nfor line in sys.stdin:\n    print('ZZ', flush=True)\n",
        "early": "import sys\nsys.stdin.readline()\nsys.exit(3)\n",
    }[kind]
    script.write_text(body)
    return f"cmd:{sys.executable} {script}"


@pytest.mark.parametrize("kind", ["missing", "zz", "early"])
def test_a_failing_cmd_bot_forfeits_and_the_record_is_saved(tmp_path: Path, kind: str) -> None:
    record = tmp_path / "game.json"
    args = ["myllymatti", "--bot", _bad_bot(tmp_path, kind), "--bot", "random", "--seed", "1"]
    code, out = _play([*args, "--record", str(record)], "1\n" * 5)
    out = " ".join(out.split())
    assert code == 1, out
    assert "Seat 1 (cmd:" in out and "forfeits the game" in out
    assert "Traceback" not in out and "BotFailure" not in out
    assert "Record saved" in out
    state = tikki.replay(json.loads(record.read_text()))
    assert not state.is_over and len(state.moves) == 1


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("ismcts:iterations=abc", ["iterations='abc'", "whole number", "ismcts:iterations=1000"]),
        ("ismcts:c=abc", ["c='abc'", "not a number", "ismcts:c=0.7"]),
        ("ismcts:iterations=٣", ["whole number"]),
        ("ismcts:colour=red", ["no parameter 'colour'", "iterations, seconds, c"]),
        ("random:depth=3", ["no parameter 'depth'", "it takes none"]),
        ("ismcts:rollout=fast", ["rollout is", "greedy"]),
    ],
)
def test_bad_bot_parameters_name_the_parameter(spec: str, words: list[str]) -> None:
    for command in (["play", "myllymatti", "--bots", spec], ["arena", "mattis", "--bots", spec]):
        result = runner.invoke(app, command)
        assert result.exit_code == 2, result.output
        out = " ".join(result.output.split())
        assert "Traceback" not in out and "__init__" not in out
        for word in words:
            assert word in out


def test_a_bare_ray_option_means_a_local_ray() -> None:
    """``--ray`` alone (at the end, or before another option) is
    ``--ray local``; a value given is kept."""
    from tikki.cli import bare_options

    assert bare_options(["arena", "myllymatti", "--ray"]) == [
        "arena",
        "myllymatti",
        "--ray",
        "local",
    ]
    assert bare_options(["arena", "x", "--ray", "--seed", "3"])[3:5] == ["local", "--seed"]
    assert bare_options(["arena", "x", "--ray", "auto"]) == ["arena", "x", "--ray", "auto"]
    assert bare_options(["arena", "x", "--ray", "10.0.0.2:6379"])[-1] == "10.0.0.2:6379"


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        *(
            ["--lang", "en", command, "--help"]
            for command in ("play", "replay", "analyse", "rules", "games", "arena", "serve")
        ),
        ["--lang", "fi", "analyse", "--help"],
        ["--lang", "de", "arena", "--help"],
    ],
)
def test_help_paragraphs_wrap_to_an_80_column_terminal(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every paragraph of a command's help fills the terminal's lines: the help texts'
    own line breaks (docstrings wrapped wider than 80 columns) are not kept, which once
    left one- and two-word lines in ``tikki analyse --help``."""
    from tikki import cli, i18n

    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(sys, "argv", ["tikki", *args])
    try:
        with pytest.raises(SystemExit) as exited:
            cli.main()
    finally:
        i18n.activate("en")  # main() speaks the asked language for the rest of the process
    assert exited.value.code in (0, None)
    out = capsys.readouterr().out
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip()) + 1  # after the usage
    end = next(i for i, line in enumerate(lines) if line.lstrip().startswith("╭"))
    assert max(len(line) for line in lines) <= 80, out
    paragraphs: list[list[str]] = [[]]
    for line in lines[start:end]:
        if line.strip():
            paragraphs[-1].append(line.strip())
        elif paragraphs[-1]:
            paragraphs.append([])
    texts = [p for p in paragraphs if p]
    assert texts, out
    for paragraph in texts:
        for line in paragraph[:-1]:  # a paragraph's last line may be short
            assert len(line) >= 55, f"a ragged help line {line!r} in:\n{out}"


def test_games_says_one_player_count_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game for exactly three players reads "3 players", not "3–3 players"."""
    import copy
    import importlib

    games_cli = importlib.import_module("tikki.cli.games")
    listed = copy.deepcopy(tikki.games())
    listed["mattis"]["players"].update(min=3, max=3, default=3)
    monkeypatch.setattr(games_cli, "games", lambda: listed)
    out = runner.invoke(app, ["games"]).output
    assert "mattis — Mattis, 3 players" in out and "3–3" not in out
    assert "Myllymatti, 2–4 players (default 3)" in out
