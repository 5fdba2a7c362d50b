"""``tikki play`` as a new player meets it: words, notation, forced moves, a real terminal.

The terminal tests (line editing, Ctrl-C) drive ``tikki play`` through a pseudo-terminal
with pexpect; the others feed keys through typer's runner.
"""

from __future__ import annotations

import json
import random
import re
import signal
import sys
import time
from pathlib import Path

import pexpect
import pytest
from rich.console import Console
from typer.testing import CliRunner

import tikki
from tikki.cards import parse_input, rank_plural, screen_text
from tikki.cli import app
from tikki.core import game_class
from tikki.tui.common import count, friendly_error, says

runner = CliRunner()
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\r")


def _play(args: list[str], keys: str) -> tuple[int, str]:
    result = runner.invoke(app, ["play", *args], input=keys)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


def _spawn(args: list[str], cwd: Path) -> pexpect.spawn:
    env = {"TERM": "xterm", "COLUMNS": "110", "LINES": "50", "PATH": "/usr/bin:/bin"}
    return pexpect.spawn(
        sys.executable,
        ["-m", "tikki.cli", "play", *args],
        cwd=str(cwd),
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 110),
        preexec_fn=_interruptible,
    )


def _interruptible() -> None:
    """Ctrl-C interrupts the child as at a player's terminal, whatever runs the tests: a
    shell's background job ignores SIGINT, and a child started from it would inherit that
    (Python then installs no KeyboardInterrupt handler)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _wait_until_reading(child: pexpect.spawn) -> None:
    """Wait until the child sleeps in its terminal read (readline's select), not just
    until its prompt shows: CPython's readline prints the prompt before it enters select,
    and a SIGINT that lands in between is only acted on at the next key (a Ctrl-C sent
    the moment the prompt shows was lost in about 1 of 20 tries)."""
    proc = Path(f"/proc/{child.pid}")
    deadline = time.monotonic() + child.timeout
    wchan = state = ""
    while time.monotonic() < deadline:
        wchan = (proc / "wchan").read_text()
        state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
        if state == "S" and ("poll" in wchan or "select" in wchan):
            return
        time.sleep(0.01)
    raise AssertionError(f"tikki play never waited for a key ({wchan!r}, state {state})")


# --- words ---------------------------------------------------------------------------------


def test_person_and_number_agree() -> None:
    assert says("You", "name") == "You name" and says("Seat 1 (random)", "name").endswith("names")
    assert says("Seat 2", "pass") == "Seat 2 passes" and says("You", "are") == "You are"
    assert says("Seat 2", "are") == "Seat 2 is"
    assert count(1, "card") == "1 card" and count(0, "card") == "0 cards"
    assert rank_plural("6") == "sixes" and rank_plural("Q") == "queens"


WRONG_PERSON = re.compile(r"\bYou (?:[a-z]+s|is)\b(?<!\bYou pass)")


@pytest.mark.parametrize(
    ("game", "players", "seed", "keys"),
    [
        ("mueckenstich", "3", "5", "1\n" * 400),
        ("myllymatti", "3", "4", "1\n" * 600),
        ("mattis", "3", "2", "1\n" * 1500),
    ],
)
def test_a_whole_game_speaks_proper_english(game: str, players: str, seed: str, keys: str) -> None:
    args = [game, "--players", players, "--seed", seed, "--no-record", "--no-auto"]
    code, out = _play(args, keys)
    assert code == 0, out
    text = " ".join(out.split())
    assert not WRONG_PERSON.search(text), WRONG_PERSON.search(text)
    assert not re.search(r"\b1 cards\b", text)
    assert "True" not in text and "False" not in text and "[" not in text.replace("[", "", 0)
    if game == "mueckenstich":
        assert "You deals" not in text and "colours=" not in text  # research options
        assert re.search(r"Round 2: (You deal|Seat \d \(random\) deals)\.", text)


def test_the_stock_counts_one_card() -> None:
    state = tikki.load("myllymatti").new_state(seed=3)
    while state.view(0)["stock_size"] > 1:
        state.play(state.legal_moves()[0])
    from tikki.tui import myllymatti

    line = myllymatti._table_line(state.view(0), ["You", "Seat 1", "Seat 2"])
    assert "Stock: 1 card" in line.plain and "1 cards" not in line.plain


# --- one notation ----------------------------------------------------------------------------


def test_parse_input_reads_the_screen_notation() -> None:
    assert parse_input("9♦") == "9D" and parse_input("slough q♣") == "slough qC"
    assert parse_input("10♥ + J♥") == "10H+JH" and parse_input("T♠") == "TS"
    assert parse_input("trump ■G") == "trump G" and parse_input("trump green") == "trump G"
    assert screen_text("JD, QD is not here; 10H") == "J♦, Q♦ is not here; 10♥"


def _first_prompt_hand(game: str, seed: int) -> list[str]:
    hand: list[str] = tikki.load(game).new_state(seed=seed).view(0)["hand"]
    return hand


def test_symbols_and_tens_are_accepted_as_typed() -> None:
    hand = _first_prompt_hand("myllymatti", 7)
    first = hand[0]
    typed = first[0].replace("T", "10") + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[first[1]]
    code, out = _play(["myllymatti", "--seed", "7", "--no-record"], f"{typed.lower()}\nquit\n")
    assert code == 0
    assert "Not legal" not in out
    assert re.search(rf"You play {re.escape(screen_text(first))}", out), out


def test_mueckenstich_trump_and_discard_by_screen_notation() -> None:
    code, out = _play(
        ["mueckenstich", "--players", "4", "--seed", "8", "--no-record"],
        "discard ■R\ntrump red\nquit\n",
    )
    assert code == 0
    assert "Traceback" not in out


def test_rules_takes_the_name_with_its_umlaut() -> None:
    for name in ("mückenstich", "Mückenstich", "MUECKENSTICH"):
        result = runner.invoke(app, ["rules", name])
        assert result.exit_code == 0, result.output
        assert "Mückenstich" in result.output


# --- numbers and words in errors --------------------------------------------------------------


def test_an_out_of_range_number_says_which_to_choose() -> None:
    legal = tikki.load("myllymatti").new_state(seed=2).view(0)["legal_moves"]
    code, out = _play(["myllymatti", "--seed", "2", "--no-record"], "99\n0\nquit\n")
    assert code == 0
    assert f"There is no move 99: choose 1–{len(legal)}." in out
    assert f"There is no move 0: choose 1–{len(legal)}." in out


def test_errors_speak_to_you_in_the_screen_notation() -> None:
    state = tikki.load("myllymatti").new_state(seed=2)
    missing = next(c for c in tikki.cards.french_deck() if c not in state.view(0)["hand"])
    code, out = _play(["myllymatti", "--seed", "2", "--no-record"], f"{missing}\nquit\n")
    assert code == 0
    assert f"{screen_text(missing)} is not in your hand" in out
    assert "seat 0's" not in out
    assert not re.search(r"\((?:MM|AM|MS)-\d+", out)


def test_friendly_error_rewrites_engine_messages() -> None:
    message = friendly_error("JD, QD, KD is not in seat 0's hand. Legal moves: 2H, stock", 0)
    assert message == "J♦, Q♦ and K♦ are not in your hand. Legal moves: 2♥, stock"
    message = friendly_error("the stock has 1 card(s): stock needs more than one (AM-2)", 0)
    assert message == "the stock has 1 card: stock needs more than one"
    message = friendly_error("must beat 9D: play a higher trump (S), or take (AM-11, AM-12)", 0)
    assert message == "must beat 9♦: play a higher trump (♠), or take"
    message = friendly_error("seat 2 must first set two cards aside (MS-4): write discard", 2)
    assert message == "you must first set two cards aside: write discard"


def test_mattis_ranks_are_words() -> None:
    from tikki.tui import mattis

    assert mattis._rank_name("6") == "sixes" and mattis._rank_name("T") == "tens"


# --- what the seat may know --------------------------------------------------------------------


def test_pile_command_shows_your_won_cards() -> None:
    state = tikki.load("myllymatti").new_state(seed=4)
    keys = []
    while not state.view(0)["piles"][0]:
        if state.current_player == 0:
            keys.append("1")
        state.play(state.legal_moves()[0])
    bots = ["--bots", "cmd:" + sys.executable + " tests/_first_move_bot.py"]
    code, out = _play(
        ["myllymatti", "--seed", "4", "--no-record", "--no-auto", *bots],
        "\n".join([*keys, "pile", "quit", ""]),
    )
    assert code == 0, out
    pile = state.view(0)["piles"][0]
    assert f"Your pile ({len(pile)} cards): " + " ".join(map(screen_text, pile)) in out


def test_game_options_read_as_words() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    for python in ("True", "False", "{", "}", "[", "'"):
        assert python not in result.output, python
    assert "koira (duel=false, take=bottom, runs=true)" in " ".join(result.output.split())
    _, out = _play(["mueckenstich", "--seed", "1", "--no-record"], "quit\n")
    assert "Options: variant=standard" in " ".join(out.split())  # the mini is a variant
    assert "colours=" not in out and "discards=" not in out  # research options at default
    _, out = _play(["myllymatti", "--seed", "1", "--no-record"], "quit\n")
    assert "runs=false" in out and "variant=standard" in out and "ranks=" not in out
    _, out = _play(["myllymatti", "--seed", "1", "--no-record", "--option", "ranks=7"], "quit\n")
    assert "ranks=7" in out


def test_research_options_at_their_default_stay_off_the_options_line() -> None:
    for name in tikki.games():
        for spec in game_class(name).option_specs:
            assert spec.research == spec.help.startswith("research:"), (name, spec.name)
    _, out = _play(["mueckenstich", "--seed", "1", "--no-record"], "quit\n")
    options = [line.strip() for line in out.splitlines() if line.startswith("Options:")]
    assert options == ["Options: variant=standard"]


def test_mueckenstich_round_score_is_broken_down() -> None:
    args = ["mueckenstich", "--players", "3", "--seed", "5", "--no-record"]
    code, out = _play(args, "1\n" * 400)
    assert code == 0, out
    text = " ".join(out.split())
    assert "Won number cards per colour" in text
    lines = re.findall(
        r"(You|Seat \d \(random\)): (\d+) points?(?: − (\d) × 5 for mosquitoes)? = (-?\d+)", text
    )
    assert len(lines) >= 9
    for _, points, bites, total in lines:
        assert int(points) - 5 * int(bites or 0) == int(total)


def test_take_says_what_was_picked_up() -> None:
    args = ["mattis", "--seed", "2", "--watch", "--no-record"]
    result = runner.invoke(app, ["play", *args])
    assert result.exit_code == 0
    assert re.search(r"picks up [2-9TJQKA][♠♥♦♣]", result.output)


# --- fit to the mode ----------------------------------------------------------------------------


def test_forced_moves_are_played_with_a_notice() -> None:
    code, out = _play(["mattis", "--seed", "2", "--no-record"], "1\n" * 1500)
    assert code == 0 and "Game over" in out
    assert "Your only legal move" in out and "is played for you." in out
    prompts_auto = out.count("Your move:")
    code, out = _play(["mattis", "--seed", "2", "--no-record", "--no-auto"], "1\n" * 1500)
    assert "Your only legal move" not in out
    assert out.count("Your move:") > prompts_auto


def test_watch_and_no_record_do_not_promise_what_they_do_not_do() -> None:
    code, out = _play(["myllymatti", "--seed", "1", "--watch", "--no-record"], "")
    assert code == 0 and "Type a move" not in out and "You are watching" in out
    code, out = _play(["myllymatti", "--seed", "1", "--no-record"], "help\nquit\n")
    out = " ".join(out.split())
    assert "record is saved" not in out and "no record is kept" in out


def test_very_long_input_is_echoed_shortened() -> None:
    code, out = _play(["myllymatti", "--seed", "1", "--no-record"], "x" * 5000 + "\nquit\n")
    assert code == 0
    assert "x" * 100 not in out and "…" in out


# --- a real terminal ----------------------------------------------------------------------------


def test_line_editing_recalls_the_last_input(tmp_path: Path) -> None:
    child = _spawn(["myllymatti", "--seed", "2", "--no-record"], tmp_path)
    child.expect("Your move:")
    child.sendline("help")
    child.expect("What it does")
    child.expect("Your move:")
    child.send("\x1b[A")  # up arrow: the previous line, "help"
    child.send("\r")
    child.expect("What it does")
    child.expect("Your move:")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_ctrl_c_saves_the_record_and_exits_130(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    child = _spawn(["myllymatti", "--seed", "2", "--record", str(record)], tmp_path)
    child.expect("Your move:")
    child.sendline("1")
    child.expect("Your move:")
    _wait_until_reading(child)
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    out = ANSI.sub("", child.before or "")
    assert "Record saved" in out and "Traceback" not in out
    assert child.exitstatus == 130
    state = tikki.replay(json.loads(record.read_text()))
    assert len(state.moves) >= 1


def test_myllymatti_explains_beating_your_own_card() -> None:
    from tikki.tui import myllymatti

    game = tikki.load("myllymatti", players=3)
    rng = random.Random(1)
    for seed in range(200):
        state = game.new_state(seed=seed)
        while not state.is_over:
            view = state.view(state.current_player)
            plays = view["trick"].get("plays") or []
            if plays and plays[-1]["seat"] == view["seat"] and len(view["legal_moves"]) > 1:
                break
            state.play(rng.choice(state.legal_moves()))
        else:
            continue
        names = ["Seat 0", "Seat 1", "Seat 2"]
        console = Console(width=100, record=True)
        console.print(myllymatti.render(view, names))
        text = " ".join(console.export_text().split())
        assert "The card to beat is your own" in text
        move = next(m for m in view["legal_moves"] if m != "take")
        assert "to beat your own" in myllymatti.explain(view, move)
        return
    raise AssertionError("no seed gave a seat its own card to beat")


# --- the analysis offered at the end ------------------------------------------------------


def _offered_game(tmp_path: Path, answer: str | None) -> tuple[list[str], str]:
    """A whole Myllymatti game by numbers; the offer answered with ``answer`` (None: end
    of input).  Returns the prompts of the offer and what the screen showed."""
    from tikki.tui.app import Session

    game = tikki.load("myllymatti", players=3)
    console = Console(record=True, width=120, force_terminal=False)
    offers: list[str] = []

    def read(prompt: str) -> str:
        if prompt.startswith("Analyse"):
            offers.append(prompt)
            if answer is None:
                raise EOFError
            return answer
        return "1"

    session = Session(
        game, game.new_state(seed=5), 0, ["you", "random", "random"], console, read,
        tmp_path / "game.json",
    )  # fmt: skip
    assert session.run() == 0
    return offers, console.export_text()


def test_the_end_of_a_game_offers_its_analysis(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tikki.analysis.ITERATIONS", 20)  # the same judging, in seconds
    offers, shown = _offered_game(tmp_path, "y")
    assert len(offers) == 1 and "(y/N)" in offers[0]
    words = " ".join(shown.split())
    assert re.search(r"Accuracy \d+% over \d+ decisions: .* 20 iterations each", words), shown
    # the moves read as on the game's screen: suit symbols, not the move texts
    table = shown[shown.index("chance of not losing") :]
    assert any(symbol in table for symbol in "♠♥♦♣")
    assert not re.search(r"\b(?:[2-9]|T|[JQKA])[CDHS]\b", table), table


@pytest.mark.parametrize("answer", ["n", "", None])
def test_declining_the_offered_analysis_ends_the_game(tmp_path: Path, answer: str | None) -> None:
    offers, shown = _offered_game(tmp_path, answer)
    assert len(offers) == 1
    assert "Accuracy" not in shown and "Record saved" in shown
    if answer is not None:  # the shell's prompt starts a line of its own
        assert shown.endswith("No analysis.\n"), shown[-200:]
