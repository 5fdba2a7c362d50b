"""Mattis in the terminal: a whole game by numbers, the slough prompt, help, replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import tikki
from tikki.cli import app

runner = CliRunner()


def test_whole_game_with_slough_prompts_and_replay(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    for seed in range(30):
        args = ["play", "mattis", "--seed", str(seed), "--record", str(record)]
        result = runner.invoke(app, args, input="help\n" + "1\n" * 1500)
        assert result.exit_code == 0, result.output
        out = result.output
        assert "Game over" in out and "What it does" in out
        data = json.loads(record.read_text())
        state = tikki.replay(data)
        assert state.is_over and state.outcome == data["outcome"]
        if any(h["seat"] == 0 and h["move"] == "pass" for h in state.history(0)):
            assert "type pass to go on" in " ".join(out.split())
            return
    raise AssertionError("no seed in 0..29 gave seat 0 a slough lap")


def test_slough_prompt_names_the_sloughable_cards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a game quit without --record is kept in ./records/
    game = tikki.load("mattis")
    for seed in range(40):
        state = game.new_state(seed=seed)
        keys = []
        while not state.is_over and state.phase == "collect":
            if state.current_player == 0 and "pass" in state.legal_moves():
                break
            moves = state.legal_moves()
            keys.append(str(moves.index(moves[0]) + 1) if state.current_player == 0 else "")
            state.play(moves[0])
        else:
            continue
        if state.current_player != 0:
            continue
        sloughs = [m.split(" ", 1)[1] for m in state.legal_moves() if m.startswith("slough ")]
        result = runner.invoke(
            app,
            ["play", "mattis", "--seed", str(seed), "--bots", "cmd:" + _first_move_bot()],
            input="".join(k + "\n" for k in keys if k) + "quit\n",
        )
        assert result.exit_code == 0, result.output
        shown = " ".join(result.output.split())
        assert "type pass to go on" in shown
        assert sloughs and all(c[0] in shown for c in sloughs)
        return
    raise AssertionError("no seed in 0..39 gave seat 0 a slough lap")


def _first_move_bot() -> str:
    import sys

    script = Path(__file__).with_name("_first_move_bot.py")
    return f"{sys.executable} {script}"
