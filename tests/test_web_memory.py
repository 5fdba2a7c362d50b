"""Mückenstich's table memory in the browser (RULINGS MS-12): during a round the table
shows no mosquito counts, no last trick once the next trick has begun and no cards of
won tricks in the log, unless the table was created with "memory aids"; at the end
everything is shown again.  The views still carry every card (checked over the API).

Uses the browser and server of ``tests/test_web_e2e.py`` (skips, or fails under
``CI=true``, the same way).
"""

from __future__ import annotations

import json
import re
from typing import Any

from tests.test_web_e2e import (
    DESKTOP,
    MAX_TURNS,
    Browser,
    Page,
    Server,
    Watch,
    board,
    browser,
    choose,
    click_move,
    server,
    shot,
    take_first_seat,
    wait_turn_or_end,
)

__all__ = ["browser", "server"]  # the fixtures, shared with test_web_e2e


def create(page: Page, base: str, memory_aids: bool) -> str:
    """A 3-player Mückenstich table made in the lobby (we hold seat 1); its id."""
    page.goto(base + "/")
    page.fill("#player-name", "Anna")
    page.check("input[name=game][value=myllymatti]")
    assert page.locator("#memory-box").is_hidden(), "memory aids is a Mückenstich option"
    page.check("input[name=game][value=mueckenstich]")
    page.select_option("#players", "3")
    assert page.locator("#memory-box").is_visible()
    assert not page.is_checked("#memory-aids"), "memory aids are off by default"
    page.set_checked("#memory-aids", memory_aids)
    page.select_option("#seat-1", "bot:random")
    page.select_option("#seat-2", "bot:random")
    page.click("summary:has-text('Seed')")
    page.fill("#seed", "4")
    page.click("#create-btn")
    page.locator("#invite-0").wait_for()
    take_first_seat(page)
    found = re.search(r"/t/([^/?]+)\?", page.url)
    assert found
    return found.group(1)


def spectator_view(page: Page, base: str, table_id: str) -> dict[str, Any]:
    answer = page.request.get(f"{base}/api/tables/{table_id}/state")
    assert answer.ok
    message: dict[str, Any] = answer.json()
    return message


def play_until(page: Page, base: str, table_id: str, done: Any) -> dict[str, Any]:
    """Click moves until ``done(state message)`` holds on our turn (or the game ends)."""
    for _ in range(MAX_TURNS):
        wait_turn_or_end(page)
        message = spectator_view(page, base, table_id)
        if board(page, "status") == "finished" or done(message):
            return message
        seq = board(page, "seq")
        legal = json.loads(board(page, "legal"))
        click_move(page, choose(legal), legal)
        page.wait_for_function(
            "s => document.querySelector('#board').dataset.seq !== s", arg=seq, timeout=30_000
        )
    raise AssertionError("the position never came")


def next_trick_begun(message: dict[str, Any]) -> bool:
    """A trick of this round was won and the next one holds a card."""
    view = message["view"]
    return view["phase"] == "play" and sum(view["tricks"]) >= 2 and bool(view["trick"])


def test_won_tricks_are_face_down_until_the_round_is_scored(
    server: Server, browser: Browser
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    watch = Watch(page)
    table_id = create(page, server.url, memory_aids=False)
    table = page.request.get(f"{server.url}/api/tables/{table_id}").json()
    assert table["memory_aids"] is False and table["rules"] == "r2"
    message = play_until(page, server.url, table_id, next_trick_begun)
    view = message["view"]
    assert view["last_trick"] is not None and view["mosquitoes"] is not None, "views keep all"
    shot(page, "mueckenstich-memory-hidden")
    assert "Mosquitoes" not in page.inner_text("#seats")
    assert page.locator("#centre .last-trick").count() == 0
    assert "Won tricks stay face down" in page.inner_text("#centre")
    face_down = page.locator("#log-list li.face-down:not([hidden])")
    assert face_down.count() >= 3, "the cards of the won tricks are face down in the log"
    for card in [c["card"] for c in view["last_trick"]["cards"]]:
        shown = page.locator("#log-list li.face-down").all_inner_texts()
        assert all(card not in text for text in shown)
    play_until(page, server.url, table_id, lambda m: False)
    page.wait_for_selector("#result:not([hidden])")
    assert "Mosquitoes" in page.inner_text("#seats"), "everything is shown at the end"
    assert page.locator("#log-list li.face-down").count() == 0
    watch.check()
    context.close()


def test_memory_aids_show_won_tricks(server: Server, browser: Browser) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    watch = Watch(page)
    table_id = create(page, server.url, memory_aids=True)
    table = page.request.get(f"{server.url}/api/tables/{table_id}").json()
    assert table["memory_aids"] is True
    play_until(page, server.url, table_id, next_trick_begun)
    shot(page, "mueckenstich-memory-aids")
    assert "Mosquitoes" in page.inner_text("#seats")
    assert page.locator("#centre .last-trick").count() == 1
    assert page.locator("#log-list li.face-down").count() == 0
    assert "face down" not in page.inner_text("#centre")
    watch.check()
    context.close()
