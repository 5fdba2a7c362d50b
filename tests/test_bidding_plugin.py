"""The second example plug-in, Oh Hell (``examples/bidding_game``): a bidding phase, a trump
turned up each round, several rounds of shrinking hands.

It runs the conformance kit from its own tests with one class; it declares its number
moves (``bid 3``), an option whose maximum depends on the player count, per-seat public
facts and titles, which the terminal, the logs and the adapters read; and tikki's own
tests that loop over the registry pass with it installed beside tikki.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

import tikki
from tests import _plugin
from tikki import i18n
from tikki.core import RulesError, game_class, move_title
from tikki.interop.encoding import ActionSpace
from tikki.tui import generic
from tikki.tui.events import event_lines, headline

NAME = _plugin.BIDDING_NAME
FOLDER = _plugin.BIDDING_FOLDER
QUIET_PYTEST = _plugin.QUIET_PYTEST


@pytest.fixture(scope="module", autouse=True)
def plugged() -> Iterator[None]:
    """The plug-in's folder on ``sys.path`` for this module's tests, and off it after."""
    with _plugin.plugged(FOLDER, NAME):
        yield


def _pytest(args: list[str], cwd: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    environment = _plugin.env(folder=FOLDER)
    environment.update(extra)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", *QUIET_PYTEST, *args],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_its_own_tests_run_the_conformance_kit_with_one_class() -> None:
    """The plug-in's tests folder (``TestOhHell(ConformanceSuite)`` and its own rules)."""
    run = _pytest(["tests"], FOLDER, TIKKI_CONFORMANCE_GAMES="15", TIKKI_CONFORMANCE_DEEP="3")
    declared = game_class(NAME).harness.conformance
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert f"{4 * len(declared) + 7} passed" in run.stdout


def test_tikkis_registry_looping_tests_pass_with_it_installed() -> None:
    """Tests that loop over every registered game hold nothing of tikki's own games for
    granted: with the plug-in on the path they pass (they failed on the names of the
    three games, the shape of an outcome, tikki's own rulings and Mückenstich's views; on
    the catalogues' lists of games, the observation doc, the presenters, the renderers'
    node tests and the list of games served)."""
    files = [
        "tests/test_plugins.py",
        "tests/test_views_types.py",
        "tests/test_rules_texts.py",
        "tests/test_view_incremental.py",
        "tests/test_i18n.py::test_the_catalog_holds_every_text_of_the_source",
        "tests/test_i18n_tui.py::test_every_text_asked_for_is_in_the_catalogs",
        "tests/test_observations.py::test_observation_doc_is_up_to_date",
        "tests/test_observations.py::test_the_action_id_tables_cover_every_id_in_order",
        "tests/test_habits.py::test_each_game_declares_its_terminal_presenter",
        "tests/test_web_js.py::test_pure_modules_pass_their_node_tests",
        "tests/test_server_http.py::test_games_lists_the_games_and_bot_levels",
    ]
    run = _pytest([*files, "-k", "not compiled"], _plugin.ROOT)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "[ohhell]" in _pytest(["--collect-only", files[1]], _plugin.ROOT).stdout


def test_a_bid_is_a_declared_number_move_in_the_action_space() -> None:
    game = tikki.load(NAME, 4)
    assert game.move_grammar().number_moves() == [f"bid {n}" for n in range(5)]
    space = ActionSpace(game)
    assert space.to_text(space.to_id("bid 3")) == "bid 3"
    state = game.new_state(seed=1)
    assert space.legal_ids(state.legal_moves())  # every bid has an action id


def test_the_largest_hand_is_declared_per_player_count() -> None:
    option = tikki.games()[NAME]["options"][0]
    assert option["name"] == "hand" and option["minimum"] == 1
    assert option["maximum_by_players"] == {"3": 7, "4": 5, "5": 4}
    with pytest.raises(RulesError, match="at most 4 with 5 players, got 5"):
        tikki.load(NAME, 5, hand=5)
    with i18n.use("de"), pytest.raises(RulesError, match="mit 5 Personen höchstens 4"):
        tikki.load(NAME, 5, hand=5)


def test_a_bid_reads_as_its_title_in_each_language() -> None:
    cls = game_class(NAME)
    assert move_title(cls, "bid 3") == "a bid of 3" and move_title(cls, "QH") is None
    with i18n.use("de"):
        assert move_title(cls, "bid 0") == "Ansage 0"
        view = tikki.load(NAME, 3).new_state(seed=1).view(1)
        assert generic.explain(view, "bid 2") == "Ansage 2"


def test_the_log_reads_the_declared_titles() -> None:
    """No ``Seat 1 plays bid 1``, no ``Phase bid begins``: the titles the game declares."""
    state = tikki.load(NAME, 3, hand=1).new_state(seed=5)
    while not state.is_over and len(state.moves) < 7:
        state.play(state.legal_moves()[0])
    names = ["Anna", "Ben", "Cleo"]
    lines = []
    for entry in state.history(None):
        line, rest = headline(entry, generic.PRESENTER.event(entry, names), names, NAME)
        lines.append(line.plain)
        lines.extend(t.plain for t in event_lines(rest, names, NAME))
    text = "\n".join(lines)
    assert "Ben: a bid of 0" in text and "plays bid" not in text
    assert "Phase" not in text


def test_the_generic_table_shows_the_bids_and_tricks() -> None:
    state = tikki.load(NAME, 3).new_state(seed=2)
    state.play("bid 2")
    console = Console(width=100, record=True, color_system=None)
    console.print(generic.render(state.view(0), ["You", "Ben", "Cleo"]))
    text = console.export_text()
    assert "Oh Hell · bidding" in text and "Bid" in text and "Tricks" in text
    row = next(line for line in text.splitlines() if "Ben" in line)
    assert row.split("│")[-3].strip() == "2"  # Ben's bid; the others' show "–"


def test_a_whole_game_in_the_terminal_with_typed_bids() -> None:
    """A person types ``bid 0`` (or ``bid0``) in the bidding, a move's number otherwise."""
    answers = "bid 5\nbid0\n" + "1\n" * 40
    args = ["play", NAME, "--players", "3", "--seed", "4", "--no-record", "--bots", "random"]
    done = subprocess.run(
        [sys.executable, "-m", "tikki.cli", *args, "-o", "hand=2"],
        input=answers,
        capture_output=True,
        text=True,
        env=_plugin.env({"LANG": "C.UTF-8", "COLUMNS": "100", "PATH": "/usr/bin:/bin"}, FOLDER),
        timeout=120,
        check=False,
    )
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "Not legal: bid from 0 to 2 tricks" in out and "You: a bid of 0" in out
    assert "Bidding; " in out and "Game over." in out and "Traceback" not in out + done.stderr
