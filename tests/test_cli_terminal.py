"""The terminal commands as a new user meets them: the global ``--lang``, replay
errors in words, bot parameters, help without Python, and golden outputs."""

from __future__ import annotations

import io
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

import tikki
from tikki.cli import app
from tikki.cli.shared import GAMES_HELP

runner = CliRunner()


def test_the_global_lang_reaches_rules() -> None:
    for args in (["--lang", "fi", "rules", "myllymatti"], ["rules", "myllymatti", "--lang", "fi"]):
        result = runner.invoke(app, args, env={"LANG": "en_US.UTF-8", "LC_ALL": ""})
        assert result.exit_code == 0, result.output
        assert "Vanha, todennäköisesti suomalainen korttipeli" in result.output, args
    german = runner.invoke(app, ["--lang", "de", "rules", "mattis"])
    assert "Vanha" not in german.output and "Spiel" in german.output


# --- golden outputs ---------------------------------------------------------------------

GOLDEN = Path(__file__).parent / "golden"
"""Golden outputs; ``TIKKI_UPDATE_GOLDEN=1`` rewrites them (then read the diff)."""


OWN_GAMES = {"myllymatti", "mattis", "mueckenstich"}
"""tikki's own games: the golden outputs list the registered games, and were written with
these alone."""


def _golden(name: str, text: str) -> None:
    others = sorted(set(tikki.games()) - OWN_GAMES)
    if others:  # never in CI: the package installs no plug-in there
        pytest.skip(f"!!! the golden outputs list tikki's own games; {others} installed !!!")
    path = GOLDEN / name
    if os.environ.get("TIKKI_UPDATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path}: run with TIKKI_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")


def _finished(game: str = "myllymatti", players: int = 3, seed: int = 5) -> dict[str, Any]:
    state = tikki.load(game, players=players).new_state(seed=seed)
    while not state.is_over:
        state.play(state.legal_moves()[0])
    record: dict[str, Any] = state.record()
    return record


def _tampered() -> dict[str, bytes]:
    """Broken records, each by what is wrong with it."""
    whole = _finished()
    cases: dict[str, Any] = {}
    cases["changed outcome"] = {**whole, "outcome": {**whole["outcome"], "loser": 0}}
    cases["changed figures"] = {**whole, "outcome": {**whole["outcome"], "returns": [0, 0, 0]}}
    cases["extra move"] = {**whole, "moves": [*whole["moves"], "2H"]}
    nulled = list(whole["moves"])
    nulled[3] = None
    cases["null move"] = {**whole, "moves": nulled}
    numbered = list(whole["moves"])
    numbered[3] = 7
    cases["number move"] = {**whole, "moves": numbered}
    illegal = list(whole["moves"])
    illegal[3] = "take"
    cases["illegal move"] = {**whole, "moves": illegal}
    cases["cut short"] = {**whole, "moves": whole["moves"][:10]}
    cases["unknown game"] = {**whole, "game": "poker"}
    cases["no moves"] = {k: v for k, v in whole.items() if k != "moves"}
    cases["old format"] = {**whole, "format": 0}
    cases["not an object"] = [1, 2]
    out = {name: json.dumps(value).encode() for name, value in cases.items()}
    out["bad UTF-8"] = b'{"game": "myllym\xe4tti"}'
    out["broken JSON"] = b'{"game": "myllymatti", '
    return out


def test_replay_errors_are_words_golden(tmp_path: Path) -> None:
    """Every broken record: one line in words (no dicts, tuples or None), in en, fi, de."""
    lines: list[str] = []
    for lang in ("en", "fi", "de"):
        lines.append(f"## {lang}")
        for name, data in _tampered().items():
            path = tmp_path / "record.json"
            path.write_bytes(data)
            result = runner.invoke(app, ["--lang", lang, "replay", "--quiet", str(path)])
            assert result.exit_code == 1 and "Traceback" not in result.output, name
            error = " ".join(result.stderr.split()).replace(str(tmp_path), "DIR")
            assert not re.search(r"[{}]|None|\(\'|\bseat None\b", error), error
            lines.append(f"{name}: {error}")
        state = tikki.load("myllymatti", players=3).new_state(seed=5)
        state.play(state.legal_moves()[0])
        path = tmp_path / "one.json"
        path.write_text(json.dumps(state.record()))
        result = runner.invoke(app, ["--lang", lang, "replay", "--quiet", str(path)])
        assert result.exit_code == 0, result.output
        lines.append("unfinished: " + " ".join(result.stdout.split()).replace(str(tmp_path), "DIR"))
    _golden("replay_errors.txt", "\n".join(lines) + "\n")


def test_bad_bot_parameters_say_what_the_parameter_takes() -> None:
    cases = {
        "ismcts:iterations=-5": "iterations=-5 is out of range: iterations is a whole number, "
        "1 or more, e.g. ismcts:iterations=1000",
        "expert:seconds=-1": "seconds=-1 is out of range: seconds is a number of seconds above 0",
        "ismcts:iterations=0": "iterations=0 is out of range: iterations is a whole number",
        "expert:solve=1.5": "solve=1.5 is out of range: solve is a number from 0 to 1",
        "ismcts:iterations=many": "iterations='many' is not a whole number",
    }
    for spec, words in cases.items():
        for command in (["play", "myllymatti", "--no-record"], ["arena", "myllymatti"]):
            result = runner.invoke(app, [*command, "--bots", spec], input="")
            assert result.exit_code == 2, result.output
            line = " ".join(result.stderr.split())
            assert words in line, (spec, line)
            if "iterations" in spec:
                assert "seconds" not in line, line


def test_one_deal_gives_no_interval(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Six games of six players are one deal: no interval, and no error bar in the plot."""
    import matplotlib.axes

    bars: list[Any] = []
    real = matplotlib.axes.Axes.bar

    def bar(self: Any, *args: Any, **kwargs: Any) -> Any:
        bars.append(kwargs.get("yerr"))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(matplotlib.axes.Axes, "bar", bar)
    plot = tmp_path / "one.png"
    args = ["arena", "mueckenstich", "--players", "6", "--games", "6", "--bots", "random"]
    result = runner.invoke(app, [*args, "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert "One deal gives no interval" in text and "--games 12" in text
    assert not re.search(r"[+-]\d\.\d\d to [+-]\d\.\d\d", text), text
    assert bars == [None] and plot.exists()


# --- help without Python (point 11) -----------------------------------------------------


def _command_paths(command: Any, path: str = "") -> list[str]:
    """Every command's words under ``command``, at any depth ("", "play", "puzzles build")."""
    found = [path]
    for name, sub in getattr(command, "commands", {}).items():
        found += _command_paths(sub, f"{path} {name}".strip())
    return found


HELP_COMMANDS = _command_paths(typer.main.get_command(app))
"""Every command's help is checked: a subcommand of a group (``tikki puzzles build``) too,
whose help once kept Python's words (``<str>``, ``{node}``) and stayed in English."""
GOLDEN_HELP = ["", "play", "replay", "rules", "games", "arena"]
"""Commands whose whole help is golden (analyse's and serve's options belong to their own
issues' tests; their help is checked for Python below all the same)."""
OTHERS = re.compile(r"│ (?:analyse|serve) ")
"""The top-level help's lines of the commands whose help is not golden here."""


def _without_others(help_text: str) -> list[str]:
    """The lines of a help, less the lines (and their continuations) of :data:`OTHERS`."""
    kept: list[str] = []
    skipping = False
    for line in help_text.splitlines():
        if OTHERS.match(line) or (skipping and re.match(r"│ {4,}\S", line)):
            skipping = True
            continue
        skipping = False
        kept.append(line.rstrip())
    return kept


PYTHON = re.compile(r"<(?:int|str|bool|float|path|list\[\w+\])>|\{\w+\}|Input should be")


def _help(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    from tikki import cli, i18n

    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setattr(sys, "argv", ["tikki", *args])
    try:
        with pytest.raises(SystemExit) as exited:
            cli.main()
    finally:
        i18n.activate("en")
    captured = capsys.readouterr()
    code = exited.value.code if isinstance(exited.value.code, int) else 0
    return code, captured.out, captured.err


@pytest.mark.parametrize("lang", ["en", "fi", "de"])
def test_help_shows_words_not_python_golden(
    lang: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    usage = {"en": "Usage:", "fi": "Käyttö:", "de": "Aufruf:"}[lang]
    golden: list[str] = []
    for command in HELP_COMMANDS:
        args = ["--lang", lang, *command.split(), "--help"]
        code, out, err = _help(args, monkeypatch, capsys)
        assert code == 0 and not err, (args, err)
        assert not PYTHON.search(out), (args, PYTHON.search(out))
        assert usage in out, out
        if lang != "en":
            assert "Usage:" not in out and "[required]" not in out and "default:" not in out
        if command in GOLDEN_HELP:
            golden += [f"$ tikki {' '.join(args)}", *_without_others(out)]
    _golden(f"help.{lang}.txt", "\n".join(golden) + "\n")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["play", "myllymatti", "--seed", "abc"], "--seed takes a whole number, not 'abc'"),
        (["play", "myllymatti", "--delay=soon"], "--delay takes a number, not 'soon'"),
        (["play", "myllymatti", "--sead", "1"], "has no option --sead (did you mean --seat or"),
        (["play"], f"tikki play needs GAME ({GAMES_HELP})"),  # the registered games
        (["plya"], "there is no command 'plya': the commands are play, replay"),
        (
            ["--lang", "de", "play", "x", "--seat", "y"],
            "--seat erwartet eine ganze Zahl, nicht 'y'",
        ),
        (["--lang", "fi", "pelaa"], "komentoa 'pelaa' ei ole: komennot ovat play"),
    ],
)
def test_a_bad_command_line_is_one_line_in_words(
    args: list[str],
    words: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = _help(args, monkeypatch, capsys)
    assert code == 2 and not out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], err
    assert not PYTHON.search(err) and "Traceback" not in err


# --- input quoted back as typed (point 9) -----------------------------------------------


def _moves(game: str, keys: str, *args: str) -> str:
    base = ["play", game, "--seed", "3", "--no-record", "--no-auto", *args]
    result = runner.invoke(app, base, input=keys + "quit\n")
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())


def test_input_is_quoted_back_as_typed_and_shortened() -> None:
    out = _moves("myllymatti", "♦\ntrump green\n")
    assert "'♦' is not a move" in out and "'D'" not in out
    assert "'trump green' is not a move" in out and "'trump G'" not in out
    long = " ".join(["8♥"] * 30)
    out = _moves("myllymatti", long + "\n" + "+".join(["2♥"] * 40) + "\n")
    assert long not in out and "8♥ 8♥ 8♥" in out
    assert "+".join(["2♥"] * 20) not in out and "+".join(["2H"] * 20) not in out
    out = _moves("myllymatti", "+".join(["K♥"] * 40) + "\n")  # not in the hand: listed
    assert ", ".join(["K♥"] * 20) not in out and "K♥, K♥" in out


def test_a_move_copied_with_its_number_is_played() -> None:
    out = _moves("myllymatti", "1:2♥\n")
    assert "Not legal" not in out and "You play 2♥" in out
    out = _moves("myllymatti", "3:2♥\n")  # the number does not name that move
    assert "Not legal" in out and "3:2♥" in out


# --- Mückenstich scoring in order (point 10) --------------------------------------------


def test_a_round_is_scored_before_the_next_deal() -> None:
    args = ["play", "mueckenstich", "--players", "3", "--seed", "5", "--watch", "--no-record"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    out = result.output
    order = [
        out.index("Round 1 is scored."),
        out.index("Round 1 scores:"),
        out.index("Score sheet"),
        out.index("Round 2: "),
        out.index("dealt 10 cards", out.index("Round 1 is scored.")),
    ]
    assert order == sorted(order), order


def test_nobody_doubling_or_dropping_is_said() -> None:
    from tikki.tui.mueckenstich import breakdown

    entry: dict[str, Any] = {"round": 0, "doubled": None, "dropped": None, "scores": [2, 0]}
    text = breakdown([["2R", "3G"], []], entry, ["You", "Seat 1"]).plain
    assert "Nobody doubled or dropped a colour." in text and "You: 2 points = 2" in text
    entry = {"round": 0, "doubled": "R", "dropped": None, "scores": [3, 0]}
    assert "Nobody dropped a colour." in breakdown([["2R", "3G"], []], entry, ["You", "x"]).plain


# --- the replay's header (point 14) -------------------------------------------------------


def test_replay_shows_the_game_seed_rules_players_and_a_forfeit(tmp_path: Path) -> None:
    script = tmp_path / "zz.py"
    script.write_text("import sys\nfor line in sys.stdin:\n    print('ZZ', flush=True)\n")
    record = tmp_path / "game.json"
    bad = f"cmd:{sys.executable} {script}"
    args = ["play", "myllymatti", "--bot", bad, "--bot", "heuristic", "--seed", "4"]
    played = runner.invoke(app, [*args, "--record", str(record)], input="1\n" * 5)
    assert played.exit_code == 1, played.output
    data = json.loads(record.read_text())
    assert data["seats"] == ["you", bad, "heuristic"]
    assert data["forfeit"]["seat"] == 1 and data["forfeit"]["bot"] == bad
    result = runner.invoke(app, ["replay", str(record)])
    assert result.exit_code == 0, result.output
    head = " ".join(result.stdout.split("   1. ")[0].split())
    assert "Myllymatti — 3 players · seed 4 · rules r" in head
    assert "Options: variant=standard, take=top" in head
    assert f"Players: Seat 0: a person, Seat 1: {bad}, Seat 2: heuristic" in head
    assert "Seat 1 (" in head and "forfeited the game after move 1" in head
    data["seats"] = ["you"]
    record.write_text(json.dumps(data))
    broken = runner.invoke(app, ["replay", str(record)])
    assert broken.exit_code == 1 and "seats must list one player per seat" in broken.stderr


# --- the analysis in the terminal (points 13, 15) ---------------------------------------


def test_mueckenstich_analysis_in_german_words_and_decimals(tmp_path: Path) -> None:
    record = tmp_path / "m.json"
    record.write_text(json.dumps(_finished("mueckenstich", 3, 3)))
    moves = len(json.loads(record.read_text())["moves"])
    args = ["--lang", "de", "analyse", str(record), "--from", str(moves - 12)]
    result = runner.invoke(app, [*args, "--iterations", "30"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Mückenstich, Platz 0" in out and "mueckenstich" not in out
    rows = [line.split() for line in out.splitlines() if re.match(r"\s+\d+\s", line)]
    assert rows and all(row[1] in ("Stiche", "Wertung", "Ablage") for row in rows), rows
    assert not re.search(r"[+-]\d+\.\d", out) and re.search(r"[+-]\d+,\d", out), out


def test_analyse_from_beyond_the_end_is_refused(tmp_path: Path) -> None:
    record = tmp_path / "g.json"
    record.write_text(json.dumps(_finished()))
    result = runner.invoke(app, ["analyse", str(record), "--from", "999"])
    assert result.exit_code == 2 and "Accuracy" not in result.output
    assert "--from 999: the game has 123 moves" in result.stderr


# --- small things (point 15) ----------------------------------------------------------------


def test_a_take_and_the_last_stock_card_are_said_once() -> None:
    result = runner.invoke(app, ["play", "mattis", "--seed", "3", "--watch", "--no-record"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    for i, line in enumerate(lines):
        if "draws the last stock card" in line:
            assert "draws a card" not in lines[i - 1], lines[i - 1 : i + 1]
            assert "(" not in lines[i + 1], lines[i : i + 2]  # "Trump is hearts.", once
        if "picks up" in line:
            assert not lines[i - 1].endswith(("takes", "takes the trick")), lines[i - 1 : i + 1]
    assert any("picks up" in line for line in lines)
    assert any("draws the last stock card" in line for line in lines)


def test_replay_says_what_a_take_picked_up(tmp_path: Path) -> None:
    record = tmp_path / "g.json"
    record.write_text(json.dumps(_finished("mattis", 3, 3)))
    out = runner.invoke(app, ["replay", str(record)]).stdout
    assert re.search(r"^\s+\d+\. Seat \d picks up ", out, re.MULTILINE), out[:2000]
    assert not re.search(r"takes the trick\n\s+Seat \d picks up", out)


def test_pile_in_phase_2_says_why_it_is_empty() -> None:
    from tikki.tui.common import pile

    state = tikki.load("myllymatti", 3).new_state(seed=3)
    while state.phase != "shed":
        state.play(state.legal_moves()[0])
    text = pile(state.view(0)).plain
    assert "No pile in phase 2" in text and "(empty)" not in text


def test_plots_explain_their_letters_and_name_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from tikki import analysis, arena

    saved: list[Any] = []
    monkeypatch.setattr(plt, "close", lambda fig: saved.append(fig))
    judged = analysis.Analysis("mueckenstich", 3, 0, "points", 10, 0)
    for number, label in ((3, "blunder"), (5, None), (9, "mistake")):
        values, errors = {"7R": 1.0, "8R": 5.0}, {"7R": 0.1, "8R": 0.1}
        decision = analysis.Decision(number, 0, "play", "7R", values, errors, "8R", 4.0, 0.2, label)
        judged.decisions.append(decision)
    analysis.plot(judged, io.BytesIO())
    ax = saved[-1].axes[0]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "B = blunder" in legend and "M = mistake" in legend
    assert ax.get_title().startswith("Mückenstich, seat 0")
    spec = arena.ArenaSpec("mueckenstich", 3, {}, ("random",) * 3, 3, 0)
    results = [arena.play_game(spec, i) for i in range(3)]
    arena.plot(io.BytesIO(), spec, arena.summarize(results, spec.lineup))  # type: ignore[arg-type]
    assert saved[-1].axes[0].get_title().startswith("Mückenstich, 3 players")


def test_the_options_line_wraps_between_options() -> None:
    result = runner.invoke(app, ["play", "myllymatti", "--no-record"], input="quit\n")
    head = result.stdout.split("You are seat")[0]
    lines = head.splitlines()[1:]
    assert len(lines) > 1, head  # wrapped at 80 columns
    for line in lines:
        assert re.fullmatch(r"(Options: )?(\w+=\w+, )*\w+=\w+,?", line.strip()), line


def test_a_phase_says_its_goal_in_the_terminal_as_at_the_web_table() -> None:
    """The goal a game declares for a phase (``phase_goals``) follows the line that says
    the phase begins, in the player's language."""
    args = ["play", "mattis", "--players", "3", "--seed", "3", "--watch", "--no-record"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    begins = result.output.index("Phase 2 begins")
    assert result.output.index("Shed your cards", begins) - begins < 120
