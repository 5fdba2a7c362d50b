"""Mückenstich in the terminal: a whole match by numbers, the score sheet, move help."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

import tikki
from tikki.cli import app

runner = CliRunner()


def test_whole_match_shows_the_score_sheet_and_replays(tmp_path: Path) -> None:
    record = tmp_path / "match.json"
    args = ["play", "mueckenstich", "--players", "3", "--seed", "5", "--record", str(record)]
    result = runner.invoke(app, args, input="1\n" * 400)
    assert result.exit_code == 0, result.output
    out = result.output
    for r in (1, 2, 3):
        assert f"Round {r} is scored." in out
    assert out.count("Score sheet") >= 3  # after rounds 1 and 2, and at the end
    assert "Match over" in out and "Total" in out
    data = json.loads(record.read_text())
    state = tikki.replay(data)
    assert state.is_over and state.outcome == data["outcome"]


def test_help_explains_discards_and_no_hidden_card_on_screen() -> None:
    state = tikki.load("mueckenstich", players=4).new_state(seed=8)
    hidden = state.reveal()["hidden"]["0"]
    args = ["play", "mueckenstich", "--players", "4", "--seed", "8", "--no-record"]
    result = runner.invoke(app, args, input="help\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "aside, face down, for this round" in out
    assert hidden
    for text in hidden:
        assert not re.search(rf"(?<![0-9A-Z]){text}(?![0-9A-Za-z])", out), text
    for text in state.view(0)["hand"]:
        assert re.search(rf"(?<![0-9A-Z]){text}(?![0-9A-Za-z])", out), text


def test_other_seats_discards_stay_face_down() -> None:
    args = ["play", "mueckenstich", "--players", "4", "--seed", "8", "--no-record"]
    result = runner.invoke(app, args, input="1\n1\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Seat 1 (random) sets a card aside" in result.output
    assert "You set" in result.output


def test_watching_a_six_player_match() -> None:
    args = ["play", "mueckenstich", "--players", "6", "--watch", "--seed", "2", "--no-record"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "Round 6 is scored." in result.output and "Match over" in result.output
