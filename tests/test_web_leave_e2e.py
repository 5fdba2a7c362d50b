"""People who leave, in Chromium: a turn timer hands a turn to a bot,
Resign (with its confirm step), and a person away is replaced by a bot at the others'
request, then takes the seat back with the device link.  The server here allows short
timers and a short away time (``--min-turn-timer 1 --away-after 2``), so nothing waits
30 s.  Skips like tests/test_web_e2e.py without Chromium (never under ``CI=true``);
rematch ("Play again") is tests/test_web_rules_e2e.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import tikki
from tests import test_web_e2e as e2e
from tests.test_web_e2e import DESKTOP, Browser, Page, Server, Watch, board, shot, wait_turn_or_end

browser = e2e.browser
"""The Chromium fixture of tests/test_web_e2e.py (skips as it does)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``tikki serve`` with 1-second timers allowed and people away after 2 s."""
    extra = ("--min-turn-timer", "1", "--away-after", "2")
    srv = Server(tmp_path_factory.mktemp("leave") / "web.sqlite", extra=extra)
    yield srv
    srv.stop()


def new_table(page: Page, base: str, seats: list[dict[str, Any]], **body: Any) -> str:
    """Create a Myllymatti table over the API (as the lobby does); return its id."""
    answer = page.request.post(
        f"{base}/api/tables", data={"game": "myllymatti", "seats": seats, "seed": 9, **body}
    )
    assert answer.status == 201, answer.text()
    table_id: str = answer.json()["table"]["id"]
    return table_id


def sit(page: Page, base: str, table_id: str, seat: int, name: str) -> str:
    """Take a seat open to anyone over the API and open the table with its device link
    (the token in the fragment); return the token."""
    joined = page.request.post(f"{base}/api/tables/{table_id}/seats/{seat}", data={"name": name})
    assert joined.ok, joined.text()
    token: str = joined.json()["token"]
    page.goto(f"{base}/t/{table_id}#token={token}")
    return token


def table(page: Page, base: str, table_id: str) -> dict[str, Any]:
    info: dict[str, Any] = page.request.get(f"{base}/api/tables/{table_id}").json()
    return info


def test_a_timer_hands_a_turn_to_a_bot(server: Server, browser: Browser) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    watch = Watch(page)
    seats: list[dict[str, Any]] = [
        {"kind": "open", "anyone": True},
        {"kind": "bot", "bot": "random"},
    ]
    table_id = new_table(page, server.url, seats, turn_timer=5, on_timeout="bot")
    sit(page, server.url, table_id, 0, "Anna")
    wait_turn_or_end(page)
    countdown = page.locator("#turn-timer")
    countdown.wait_for()
    assert (
        "You have 0:0" in countdown.inner_text()
        and "a bot plays this turn" in countdown.inner_text()
    )
    shot(page, "leave-timer")
    seq = board(page, "seq")
    # we do not move: after 5 s a bot plays our turn
    page.wait_for_function(
        "s => document.querySelector('#board').dataset.seq !== s", arg=seq, timeout=15_000
    )
    page.wait_for_selector("#leave-side .takeovers li:has-text('ran out of time')")
    line = page.locator("#leave-side .takeovers li").first.inner_text()
    assert line.startswith("You ran out of time at move"), line
    takeovers = table(page, server.url, table_id)["takeovers"]
    assert takeovers[0]["seat"] == 0 and takeovers[0]["why"] == "timer"
    assert takeovers[0]["to"] == takeovers[0]["from"] + 1
    watch.check()
    context.close()


def test_lobby_offers_the_turn_timer(server: Server, browser: Browser) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    watch = Watch(page)
    page.goto(server.url + "/")
    page.fill("#player-name", "Anna")
    page.check("input[name=game][value=myllymatti]")
    page.select_option("#players", "2")
    page.select_option("#turn-timer", "60")
    page.select_option("#on-timeout", "bot")
    page.click("#create-btn")
    invite = page.locator("#invite-0")
    invite.wait_for()
    table_id = invite.input_value().split("/t/")[1].split("?")[0]
    info = table(page, server.url, table_id)
    assert (info["turn_timer"], info["on_timeout"]) == (60, "bot")
    watch.check()
    context.close()


def test_resign(server: Server, browser: Browser) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    watch = Watch(page)
    seats: list[dict[str, Any]] = [
        {"kind": "open", "anyone": True},
        {"kind": "bot", "bot": "random"},
    ]
    table_id = new_table(page, server.url, seats)
    sit(page, server.url, table_id, 0, "Anna <b>")
    wait_turn_or_end(page)
    page.click("#resign")
    confirm = page.locator(".resign-confirm")
    assert "Resign for good?" in confirm.inner_text()
    page.click("#resign-no")  # the confirm step: cancelling changes nothing
    page.locator("#resign").wait_for()
    assert table(page, server.url, table_id)["takeovers"] == []
    page.click("#resign")
    shot(page, "leave-resign-confirm")
    page.click("#resign-yes")
    # the bot plays our seat to the end (at once: no bot delay here); we watch it
    page.wait_for_selector("#board[data-status=finished]", timeout=60_000)
    info = table(page, server.url, table_id)
    assert info["seats"][0]["resigned"] and info["takeovers"][0]["why"] == "resigned"
    text = page.locator("#leave-side .takeovers").inner_text()
    assert text.startswith("You resigned: a bot (Medium) played from move"), text
    record = page.request.get(f"{server.url}/api/tables/{table_id}/record").json()
    assert record["seats"][0]["name"] == "Anna <b>"
    assert record["seats"][0]["stand_ins"][0]["why"] == "resigned"
    assert tikki.replay(record).is_over
    watch.check()
    context.close()


def test_an_away_player_is_replaced_and_comes_back(server: Server, browser: Browser) -> None:
    seats = [{"kind": "open", "anyone": True}, {"kind": "open", "anyone": True}]
    anna_context = browser.new_context(viewport=DESKTOP)
    anna = anna_context.new_page()
    watch = Watch(anna)
    table_id = new_table(anna, server.url, seats)
    sit(anna, server.url, table_id, 0, "Anna")
    ben_context = browser.new_context(viewport=DESKTOP)
    ben = ben_context.new_page()
    ben_token = sit(ben, server.url, table_id, 1, "<i>Ben</i>")
    ben.wait_for_selector("#board[data-status=playing]")
    ben_context.close()  # Ben leaves
    button = anna.locator("[data-hand-over='1']")
    button.wait_for(timeout=15_000)
    assert button.inner_text() == "Let a bot play for <i>Ben</i>"  # escaped, shown as text
    shot(anna, "leave-away")
    button.click()
    anna.wait_for_selector("#leave-side .takeovers li:has-text('was away')")
    info = table(anna, server.url, table_id)
    assert info["seats"][1]["stand_in"] == "heuristic" and info["takeovers"][0]["why"] == "away"

    back_context = browser.new_context(viewport=DESKTOP)
    back = back_context.new_page()
    back_watch = Watch(back)
    back.goto(f"{server.url}/t/{table_id}#token={ben_token}")  # Ben is back
    back.wait_for_selector("#board[data-status=playing]")
    anna.wait_for_selector("#leave-side .takeovers li:has-text('came back')")
    assert table(anna, server.url, table_id)["seats"][1]["stand_in"] is None
    assert back.locator(".stand-in-line").count() == 0
    back.locator("#device").wait_for()  # the device link stays at hand
    back_watch.check()
    watch.check()
    back_context.close()
    anna_context.close()


def test_a_timer_is_not_away_and_a_resigned_table_finishes(
    server: Server, browser: Browser
) -> None:
    """Two people and a Medium bot, a 3 s timer that waits: the
    timer of a person who is here runs out, the other lets a bot play *that turn* (plain
    words; the log says the stand-in played, not "You play"). Then Ben closes his browser
    and Anna resigns: nobody who still plays is left, and the server hands Ben's seat to
    a bot by itself, so the game finishes."""
    seats: list[dict[str, Any]] = [
        {"kind": "open", "anyone": True},
        {"kind": "open", "anyone": True},
        {"kind": "bot", "bot": "heuristic"},
    ]
    anna_context = browser.new_context(viewport=DESKTOP)
    anna = anna_context.new_page()
    watch = Watch(anna)
    table_id = new_table(anna, server.url, seats, players=3, turn_timer=3, on_timeout="wait")
    sit(anna, server.url, table_id, 0, "Anna")
    ben_context = browser.new_context(viewport=DESKTOP)
    ben = ben_context.new_page()
    ben_watch = Watch(ben)
    sit(ben, server.url, table_id, 1, "Ben")
    pages = {0: anna, 1: ben}
    anna.wait_for_selector("#board[data-status=playing]")
    # a person's turn (the bot's come and go): wait for one, and for its timer to run out
    late = None
    for _ in range(300):
        timer = table(anna, server.url, table_id)["timer"]
        if timer and timer["timed_out"]:
            late = timer["seat"]
            break
        anna.wait_for_timeout(100)
    assert late in (0, 1), late
    other = pages[1 - late]
    button = other.locator(f"[data-hand-over='{late}']")
    button.wait_for(timeout=10_000)
    name = "Anna" if late == 0 else "Ben"
    assert button.inner_text() == f"Let a bot play this turn for {name}"
    said = other.locator("#turn-timer").inner_text() + other.locator("#leave").inner_text()
    assert f"{name}'s time for this turn is up." in said and "away" not in said, said
    shot(other, "leave-timer-not-away")
    button.click()
    mine = pages[late]
    mine.wait_for_selector("#leave-side .takeovers li:has-text('played that turn')")
    said = mine.locator("#leave-side .takeovers li").first.inner_text()
    assert said.startswith("You ran out of time at move"), said
    # the list says so as soon as the stand-in is named; its one move comes a moment later
    taken: list[dict[str, Any]] = []
    for _ in range(100):
        taken = [t for t in table(anna, server.url, table_id)["takeovers"] if t["why"] == "timeout"]
        if taken and taken[0]["to"] is not None:
            break
        anna.wait_for_timeout(100)
    assert taken and taken[0]["to"] == taken[0]["from"] + 1, taken  # that turn only
    assert table(anna, server.url, table_id)["seats"][late]["stand_in"] is None
    played = mine.locator(f"#log-list li[data-i='{taken[0]['from']}']")
    played.wait_for(timeout=10_000)
    stand_in = played.inner_text()
    assert stand_in.startswith("Your stand-in bot "), stand_in
    assert "away" not in mine.locator("#leave").inner_text()

    # item 1: Ben leaves, Anna resigns: the table still finishes
    ben_watch.check()
    ben_context.close()
    anna.locator("#resign").wait_for(timeout=15_000)
    anna.click("#resign")
    anna.click("#resign-yes")
    anna.wait_for_selector("#board[data-status=finished]", timeout=90_000)
    info = table(anna, server.url, table_id)
    assert info["seats"][0]["resigned"]
    assert any(t["seat"] == 1 and t["why"] == "away" for t in info["takeovers"]), info
    assert "Ben was away: a bot (Medium) played from move" in anna.inner_text("#leave-side")
    watch.check()
    anna_context.close()
