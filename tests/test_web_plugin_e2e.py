"""A plug-in game at the web table: Tricklet, found by its entry point
(``examples/plugin_game`` on the server's ``PYTHONPATH``), is offered by the lobby and
played whole by clicking, drawn by the generic renderer (``render/generic.js``): seats
with hand sizes, won cards and scores, the trick, the stock, the hand's cards as buttons
and the result.  The hint (the judge's search) works on it too.  Screenshots at
1280x800 and 390x844 go to ``test-artifacts/plugin-*.png``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from tests import _plugin
from tests.test_web_e2e import (
    HAVE_PLAYWRIGHT,
    Server,
    Watch,
    _missing,
    board,
    browser,
    check_record,
    click_move,
    create_in_lobby,
    play_game,
    shot,
    wait_turn_or_end,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, ViewportSize

__all__ = ["browser"]  # the fixture, shared with tests/test_web_e2e.py

WIDE: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``tikki serve`` with the plug-in's folder on its ``PYTHONPATH`` (and in this process,
    which replays the record)."""
    if not HAVE_PLAYWRIGHT:
        _missing("the Python package playwright (pip install -e '.[test]')")
    with _plugin.plugged(), pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", _plugin.env()["PYTHONPATH"])
        srv = Server(tmp_path_factory.mktemp("plugin") / "web.sqlite")
        patch.undo()
        yield srv
        srv.stop()


def test_a_plug_in_game_is_played_whole_at_the_web_table(server: Server, browser: Browser) -> None:
    for name, viewport in (("plugin-1280x800", WIDE), ("plugin-390x844", PHONE)):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        watch = Watch(page)
        table_id = create_in_lobby(
            page, server.url, _plugin.NAME, ["open", "bot:random", "bot:heuristic"], 4
        )
        page.wait_for_selector("#board[data-status=playing]")
        assert board(page, "game") == _plugin.NAME
        assert page.inner_text("#title").startswith("Tricklet")
        stats = page.inner_text("#seats")
        assert "Hand" in stats and "Score" in stats, stats
        assert page.locator("#hand [data-card]").count() == 4
        mid = "document.querySelectorAll('#centre .slot').length > 0"
        turns = play_game(page, name, mid, hint_at=1 if viewport is WIDE else 99)
        assert turns >= 2
        result = page.inner_text("#result")
        assert " with " in result and " point" in result, result
        record = check_record(page, server.url, table_id)
        assert record["game"] == _plugin.NAME and len(record["moves"]) == 12
        shot(page, name + "-result")
        if viewport is WIDE:  # the replay page draws it with the generic renderer too
            page.goto(f"{server.url}/replay/{table_id}?seat=0&at=5")
            page.wait_for_selector("#board[data-at='5']")
            assert "Trick" in page.inner_text("#board")
            shot(page, name + "-replay")
        watch.check()
        context.close()


def test_a_plug_in_game_speaks_its_own_german(server: Server, browser: Browser) -> None:
    """In German the generic table titles Tricklet's phase by its declaration
    (``phase_titles``) in the game's own German, the game is played whole, and the lobby
    shows its own German summary.  Screenshots: ``test-artifacts/plugin-de-*.png``."""
    context = browser.new_context(viewport=WIDE)
    page = context.new_page()
    watch = Watch(page)
    seats = ["open", "bot:random", "bot:heuristic"]
    table_id = create_in_lobby(page, server.url, _plugin.NAME, seats, 4)
    page.goto(page.url + "&lang=de")  # the page stores the choice: German from now on
    page.wait_for_selector("#board[data-status=playing]")
    assert page.inner_text("#phase") == "Stiche werden gespielt"
    assert "Punkte" in page.inner_text("#seats")
    shot(page, "plugin-de-start")
    for _turn in range(8):
        wait_turn_or_end(page)
        if board(page, "status") == "finished":
            break
        seq = board(page, "seq")
        legal = json.loads(board(page, "legal"))
        click_move(page, legal[0], legal)
        page.wait_for_function(
            "s => document.querySelector('#board').dataset.seq !== s", arg=seq, timeout=30_000
        )
    page.wait_for_selector("#result:not([hidden])")
    assert page.inner_text("#phase") == "Spiel vorbei"
    result = page.inner_text("#result")
    assert " mit " in result and "Punkt" in result, result
    shot(page, "plugin-de-result")
    assert check_record(page, server.url, table_id)["game"] == _plugin.NAME
    page.goto(server.url + "/")
    page.wait_for_selector(f"input[name=game][value={_plugin.NAME}]")
    lobby = page.inner_text("#game-choice")
    assert "2–4 Personen, zwei Minuten." in lobby, lobby
    watch.check()
    context.close()
