"""No input to any ``tikki`` command prints a Python traceback (hypothesis fuzzing)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import tikki
from tikki.cli import app

pytestmark = pytest.mark.compiled

runner = CliRunner()

GAMES = ["myllymatti", "mattis", "mueckenstich", "Mückenstich", "chess", "", "MATTIS ", "ü"]
WORDS = [
    "--players",
    "-p",
    "--seat",
    "--seed",
    "--variant",
    "--option",
    "-o",
    "--bots",
    "--bot",
    "--watch",
    "--no-record",
    "--delay",
    "--no-auto",
    "--auto",
    "--quiet",
    "--games",
    "-n",
    "--jobs",
    "--help",
    "2",
    "3",
    "6",
    "0",
    "-1",
    "99999999999999999999",
    "abc",
    "koira",
    "standard",
    "take=all",
    "take=",
    "=x",
    "runs=maybe",
    "max_moves=0",
    "max_moves=٣",
    "random",
    "heuristic",
    "ismcts:iterations=abc",
    "ismcts:c=-1",
    "ismcts:iterations=5",
    "ismcts:x=1",
    "random:",
    ":",
    ",",
    "random,,heuristic",
    "nan",
    "1e9",
    "inf",
    "0.0",
    "--seed=-5",
    "--players=٢",
    "\x00",
    "7H",
    "♥",
]
KEYS = [
    "1",
    "2",
    "99",
    "0",
    "-1",
    "help",
    "?",
    "pile",
    "log",
    "hint",
    "rules",
    "take",
    "stock",
    "pass",
    "9♦",
    "10♥",
    "t♠",
    "slough q♣",
    "trump ♥",
    "trump red",
    "discard ■R",
    "double",
    "drop G",
    "5H+6H",
    "+",
    "++",
    "♥♥",
    "x" * 300,
    "\t",
    " ",
    "\x1b[A",
    "MR",
    "12B",
    "١",
]


@st.composite
def command_lines(draw: st.DrawFn) -> tuple[list[str], str]:
    command = draw(st.sampled_from(["play", "play", "play", "rules", "games", "arena", "replay"]))
    args = [command]
    if command != "games":
        args.append(draw(st.sampled_from(GAMES)))
    args += draw(st.lists(st.sampled_from(WORDS) | st.text(max_size=6), max_size=6))
    if command == "play":
        args += ["--no-record", "--delay", "0"]
    if command == "arena":
        args += ["--games", "1", "--jobs", "1"]
    keys = draw(st.lists(st.sampled_from(KEYS) | st.text(max_size=8), max_size=12))
    return args, "\n".join([*keys, "quit", ""])


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(command_lines())
def test_no_input_prints_a_traceback(case: tuple[list[str], str]) -> None:
    args, keys = case
    if args[0] == "replay" and len(args) > 1 and args[1] in GAMES:
        args[1] = "/nonexistent/" + args[1]
    result = runner.invoke(app, args, input=keys)
    assert "Traceback" not in result.output, (args, result.output[-2000:])
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        args,
        repr(result.exception),
    )


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["myllymatti", "mattis", "mueckenstich"]),
    st.lists(st.sampled_from(KEYS) | st.text(max_size=10), min_size=1, max_size=30),
)
def test_no_game_input_prints_a_traceback(game: str, keys: list[str]) -> None:
    result = runner.invoke(
        app, ["play", game, "--seed", "3", "--no-record"], input="\n".join([*keys, "quit", ""])
    )
    assert result.exit_code == 0, result.output[-2000:]
    assert "Traceback" not in result.output


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["moves", "seed", "options", "players", "game", "outcome", "format"]),
    st.sampled_from([None, -1, "x", [], {}, [1, 2], "7H", 10**30, True, {"a": [None]}]),
)
def test_no_tampered_record_prints_a_traceback(field: str, value: object) -> None:
    state = tikki.load("myllymatti").new_state(seed=4)
    for _ in range(5):
        state.play(state.legal_moves()[0])
    record = state.record()
    record[field] = value
    path = Path("/tmp") / f"tikki-fuzz-{field}.json"
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code in (0, 1, 2), result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
