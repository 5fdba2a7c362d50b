"""Rules at hand and "Play again" in Chromium.

The lobby describes each game and links its rules page; the table has a Rules button and
a "what you want now" line; at the end "Play again" seats the same people and bots at a
new table, every seat moved one on; the finished list shows the result.  Skips like
tests/test_web_e2e.py without Chromium (never under ``CI=true``).
"""

from __future__ import annotations

import re

from tests import test_web_e2e as e2e
from tests.test_web_e2e import DESKTOP, Browser, Server, Watch, create_in_lobby, play_game

server = e2e.server
"""The ``tikki serve`` fixture of tests/test_web_e2e.py."""
browser = e2e.browser
"""The Chromium fixture of tests/test_web_e2e.py (skips as it does)."""


def test_rules_goal_line_and_play_again(server: Server, browser: Browser) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    watch = Watch(page)
    page.goto(server.url + "/")
    summary = page.locator("label:has(input[value=mattis]) .game-summary")
    assert "players" in summary.inner_text() and "minutes" in summary.inner_text()
    assert page.locator("a[data-rules=mattis]").get_attribute("href") == "/rules/mattis"
    page.click("#options-box summary")
    assert page.locator("#opt-take-help .ruling-ref").inner_text() == "MM-14"
    assert "MM-14" not in page.evaluate("document.querySelector('#opt-take-help').firstChild.data")

    rules = context.new_page()
    rules.goto(server.url + "/rules/mattis")
    assert rules.locator("main.rules h1").inner_text() == "Mattis"
    assert rules.locator("main.rules h2").count() >= 2
    rules.close()  # a page left behind the new one gets throttled frames: 2 s every click

    seats = ["open", "bot:random", "bot:heuristic"]
    table_id = create_in_lobby(page, server.url, "myllymatti", seats, 7)
    page.wait_for_selector("#board[data-status=playing]")
    assert page.locator("#rules-link").get_attribute("href") == "/rules/myllymatti"
    goal = page.locator("#goal")
    goal.wait_for()
    assert "your pile is your phase-2 hand" in goal.inner_text()
    play_game(page, "rematch-first", "document.querySelector('#board').dataset.phase === 'shed'")
    assert page.locator("#goal").is_hidden()

    page.click("#play-again")
    page.wait_for_url(re.compile(r"/t/(?!" + table_id + r")[0-9a-f]+$"))
    new_id = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("#board[data-status=playing]")
    new = page.request.get(f"{server.url}/api/tables/{new_id}").json()
    # seat 0 (Anna) deals now: seat 1 leads, each seat moved one on
    assert [(s["kind"], s["bot"], s["name"]) for s in new["seats"]] == [
        ("bot", "random", "Aino (Easy)"),
        ("bot", "heuristic", "Eero (Medium)"),
        ("human", None, "Anna"),
    ]
    assert page.request.get(f"{server.url}/api/tables/{table_id}").json()["rematch"] == new_id

    page.goto(server.url + "/")
    page.select_option("#table-filter", "finished")
    line = page.locator(f"[data-result='{table_id}']")
    line.wait_for()
    assert re.search(r"(Anna|Aino \(Easy\)|Eero \(Medium\)) lost|Abandoned", line.inner_text())
    watch.check()
    context.close()


def test_rules_page_follows_the_browser_language(server: Server, browser: Browser) -> None:
    """A German browser gets the German rules; the language links switch."""
    context = browser.new_context(viewport=DESKTOP, locale="de-DE")
    page = context.new_page()
    watch = Watch(page)
    page.goto(server.url + "/rules/mueckenstich")
    assert page.locator("html").get_attribute("lang") == "de"
    assert "Die Stiche" in page.locator("main.rules").inner_text()
    assert page.locator("header h1").inner_text() == "Mückenstich: die Spielregeln"
    page.click("a[hreflang=fi]")
    page.wait_for_url(re.compile(r"\?lang=fi$"))
    assert page.locator("html").get_attribute("lang") == "fi"
    assert "Tikit" in page.locator("main.rules").inner_text()
    assert page.locator("a[aria-current=page]").inner_text() == "Suomi"
    watch.check()
    context.close()
