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


def _play_then_log(tmp_path: Path, *flags: str) -> tuple[str, str, tikki.State]:
    """Seat 0 discards twice and plays five cards, then asks for the log and quits:
    (the whole output, the log's lines, the state replayed from the saved record)."""
    record = tmp_path / "match.json"
    args = ["play", "mueckenstich", "--players", "4", "--seed", "8", "--record", str(record)]
    result = runner.invoke(app, [*args, *flags], input="1\n" * 7 + "log\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.output
    log = out.split("Your move:")[-2]
    log = log.split("\n", 1)[1] if "\n" in log else ""
    return out, log, tikki.replay(json.loads(record.read_text()))


def test_won_tricks_are_face_down_during_a_round(tmp_path: Path) -> None:
    """MS-12 table memory: no mosquito counts, no last trick once the next has begun, and
    the log shows this round's finished tricks face down; the view still holds them."""
    out, log, state = _play_then_log(tmp_path)
    view = state.view(0)
    assert view["phase"] == "play" and sum(view["tricks"]) >= 3
    assert view["last_trick"] is not None and view["mosquitoes"] is not None
    assert "Mosquitoes" not in out
    assert "Won tricks stay face down until the round is scored." in out
    shown_last = view["last_trick"] if not view["trick"] else None
    hidden = sum(view["tricks"]) * 4 - (4 if shown_last else 0)
    assert log.count("a card (face down now)") == hidden > 0
    if view["trick"]:
        assert "Last trick to" not in out.split("Your move:")[-3]
        for entry in view["trick"]:
            assert entry["card"] in log


def test_memory_aids_show_won_tricks(tmp_path: Path) -> None:
    """MS-12 with the table option --memory-aids: everything is shown."""
    out, log, state = _play_then_log(tmp_path, "--memory-aids")
    assert "Mosquitoes" in out and "face down now" not in out and "stay face down" not in out
    plays = [h for h in state.view(0)["history"] if not h["move"].startswith("discard")]
    assert all(h["move"] in log for h in plays if not h["move"].startswith("trump"))


def test_everything_is_shown_once_the_round_is_scored() -> None:
    """MS-12: at scoring (double, drop) the table shows the mosquito counts again."""
    args = ["play", "mueckenstich", "--players", "3", "--seed", "5", "--no-record"]
    result = runner.invoke(app, args, input="1\n" * 400)
    assert result.exit_code == 0, result.output
    assert "Mosquitoes" in result.output and "face down" in result.output


def test_memory_aids_is_a_mueckenstich_option() -> None:
    result = runner.invoke(app, ["play", "mattis", "--memory-aids", "--no-record"])
    assert result.exit_code != 0
    assert "--memory-aids is a Mückenstich table option" in " ".join(result.output.split())


PILE_KEYS = "discard MK\ndiscard mg\n3g\n4K\n10G\n12R\n12R\npile\nquit\n"
"""The reported reproduction: seat 0 has won tricks when it types ``pile`` mid-round."""


def test_pile_shows_only_the_number_of_tricks_won_during_a_round() -> None:
    """MS-12: without memory aids, ``pile`` names no won card, only how many tricks."""
    args = ["play", "mueckenstich", "--seed", "4", "--bots", "heuristic", "--no-record"]
    for lang, words in (("en", "You have won 3 tricks"), ("de", "Du hast 3 Stiche gewonnen")):
        result = runner.invoke(app, [*args, "--lang", lang], input=PILE_KEYS)
        assert result.exit_code == 0, result.output
        shown = result.output.split("Your move:" if lang == "en" else "Dein Zug:")[-2]
        assert words in shown, shown
        assert not re.search(r"\b(1[0-3]|[1-9])[RGBKrgbk]\b", shown), shown
        assert not re.search(r"M[RGBK]|Mücke|mosquito", shown), shown
    aids = runner.invoke(app, [*args, "--memory-aids"], input=PILE_KEYS)
    assert "Your pile (12 cards): " in aids.output
