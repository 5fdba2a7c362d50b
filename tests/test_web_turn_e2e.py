"""Browser tests on Debian's Chromium: forced moves play
themselves (with a line in the log), the turn sound (off by default, a remembered
switch, made with WebAudio) and the aria-live turn announcement, and the lobby's "Play
now against bots" (your last name and settings, the table made and your seat taken in
one step)."""

from __future__ import annotations

import json
import re
import time
from typing import TYPE_CHECKING

import tikki
from tests.test_web_e2e import (
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
)

__all__ = ["browser", "server"]  # the fixtures, shared with test_web_e2e

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

WIDE: ViewportSize = {"width": 1280, "height": 800}


def played_count(page: Page) -> int:
    return int(page.get_attribute("#sound-toggle", "data-played") or "0")


def test_forced_moves_play_themselves_and_the_turn_is_told(
    server: Server, browser: Browser
) -> None:
    context = browser.new_context(viewport=WIDE)
    page = context.new_page()
    watch = Watch(page)
    base = server.url
    seats = [{"kind": "open", "anyone": True}, {"kind": "bot", "bot": "random"}]
    body = {"game": "myllymatti", "seed": "3", "seats": seats, "forced_moves": True}
    table_id = page.request.post(f"{base}/api/tables", data=body).json()["table"]["id"]
    page.goto(f"{base}/t/{table_id}?seat=0")
    page.fill("#join-name", "Forcy")
    page.click("#join-form button[type=submit]")
    page.wait_for_selector("#board[data-status=playing]")
    # the sound is off by default; the switch turns it on (a sample chime) and is remembered
    assert not page.is_checked("#sound-toggle")
    page.check("#sound-toggle")
    assert page.evaluate("localStorage.getItem('tikki.sound')") == "on"
    assert played_count(page) == 1
    page.reload()
    page.wait_for_selector("#board[data-status=playing]")
    assert page.is_checked("#sound-toggle")
    chimes_before = played_count(page)
    turns = 0
    told = 0
    deadline = time.monotonic() + 120
    while board(page, "status") != "finished":
        assert time.monotonic() < deadline, "the game did not finish"
        page.wait_for_selector(
            "#board[data-turn=you][data-status=playing], #board[data-status=finished]",
            timeout=30_000,
        )
        if board(page, "status") == "finished":
            break
        legal = json.loads(board(page, "legal"))
        assert len(legal) >= 2, f"a forced move was offered to click: {legal}"
        told += page.inner_text("#turn-announce") == "Your turn."
        seq = board(page, "seq")
        click_move(page, choose(legal), legal)
        page.wait_for_function(
            "s => document.querySelector('#board').dataset.seq !== s", arg=seq, timeout=30_000
        )
        turns += 1
    assert turns > 5
    assert told == turns, "the turn was not announced every time"
    forced = page.locator("#log-list li[data-forced]")
    assert forced.count() >= 1, "no move played by itself"
    assert "played by itself" in forced.first.inner_text()
    assert played_count(page) > chimes_before  # a chime as turns began
    shot(page, "forced-moves-end")
    # the other seat's view and the spectators' hold no word of it
    spectators = page.request.get(f"{base}/api/tables/{table_id}/state").json()
    assert spectators["forced"] == []
    watch.check()
    context.close()


def test_play_now_on_a_first_visit_with_no_name_seats_a_guest(
    server: Server, browser: Browser
) -> None:
    """A first visit that typed no name is seated at once under a guest name of its own
    (the server refuses words like "Player" as names), kept for next time."""
    context = browser.new_context(viewport=WIDE)
    page = context.new_page()
    watch = Watch(page)
    base = server.url
    page.goto(f"{base}/")
    page.evaluate("localStorage.removeItem('tikki.name')")
    page.reload()
    button = page.locator("#quick-play [data-quick=myllymatti]")
    button.wait_for()
    assert page.input_value("#player-name") == ""
    button.click()
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#board[data-status=playing]")
    table_id = page.url.split("/t/")[1].split("?")[0]
    seat = page.request.get(f"{base}/api/tables/{table_id}").json()["seats"][0]
    assert seat["kind"] == "human" and re.fullmatch(r"Guest \d{4}", seat["name"]), seat
    assert page.evaluate("localStorage.getItem('tikki.name')") == seat["name"]
    watch.check()
    context.close()


def test_play_now_against_bots_in_one_step(server: Server, browser: Browser) -> None:
    context = browser.new_context(viewport=WIDE)
    page = context.new_page()
    watch = Watch(page)
    base = server.url
    page.goto(f"{base}/")
    settings = {"mattis": {"players": 4, "bot": "random", "options": {}}}
    page.evaluate(f"localStorage.setItem('tikki.quick', {json.dumps(json.dumps(settings))})")
    page.evaluate("localStorage.setItem('tikki.name', 'Quinn')")
    page.reload()
    button = page.locator("#quick-play [data-quick=mattis]")
    button.wait_for()
    assert page.locator("#quick-play [data-quick]").count() == len(tikki.games())  # one a game
    assert "4 players" in page.inner_text("#quick-play [data-game=mattis] small")
    shot(page, "lobby-quick-play")
    button.click()
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#board[data-status=playing]")
    table_id = page.url.split("/t/")[1].split("?")[0]
    table = page.request.get(f"{base}/api/tables/{table_id}").json()
    assert table["game"] == "mattis" and table["players"] == 4
    assert table["seats"][0]["kind"] == "human" and table["seats"][0]["name"] == "Quinn"
    assert all(s["kind"] == "bot" and s["bot"] == "random" for s in table["seats"][1:])
    assert page.locator("#you:not([hidden])").count() == 1  # seated, with a hand
    # the lobby's own create form is remembered as the game's settings
    page.goto(f"{base}/")
    page.wait_for_selector("#quick-play [data-quick=myllymatti]")
    page.check("#game-choice input[value=myllymatti]")
    page.select_option("#players", "2")
    page.select_option("#seat-1", "bot:random")
    page.click("#create-btn")
    page.wait_for_selector("#created:not([hidden])")
    saved = json.loads(page.evaluate("localStorage.getItem('tikki.quick')"))
    assert saved["myllymatti"]["players"] == 2 and saved["myllymatti"]["bot"] == "random"
    assert saved["mattis"]["players"] == 4
    watch.check()
    context.close()
