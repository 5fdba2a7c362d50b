"""The bell's list keeps one ``your_turn`` notice a table, as the server does: a new turn
at a table replaces that table's earlier notice whether it was read or not (the server
deletes the earlier one, read or not: tikki/server/notices/store.py).  In Chromium, on
the lobby, with the first list and the live message given by the test.  Skips like
tests/test_web_e2e.py without Chromium (never under ``CI=true``)."""

from __future__ import annotations

import json
from typing import Any

from tests import test_web_e2e as e2e
from tests._web import names, person
from tests.test_web_e2e import Browser, Server, shot

server = e2e.serving("web-notices-list")
browser = e2e.browser


def _turn(notice_id: int, read: bool) -> dict[str, Any]:
    """A ``your_turn`` notice of table ``t1``."""
    return {
        "id": notice_id,
        "kind": "your_turn",
        "data": {"table": "t1", "seat": 0, "game": "mattis"},
        "created": "2026-12-06T10:00:00+00:00",
        "read": read,
    }


def test_a_new_turn_replaces_the_tables_read_notice(server: Server, browser: Browser) -> None:
    name, _other = names()
    page = person(browser, server.url, name)
    first = {"notices": [_turn(1, True)], "unread": 0, "mail": False}
    page.route(
        "**/api/notices",
        lambda route: route.fulfill(content_type="application/json", body=json.dumps(first)),
    )
    page.add_init_script(
        "window.__heard = [];"
        " addEventListener('tikki:account', (e) => __heard.push(e.detail.type));"
    )
    page.reload()
    page.locator("#notices-list li").first.wait_for(state="attached")
    assert page.locator("#notices-list li").count() == 1
    # the socket's own word on the (real, empty) read state comes first, then the test's
    page.wait_for_function("() => window.__heard.includes('notices_read')")
    message = {"type": "notice", "notice": _turn(2, False), "unread": 1}
    page.evaluate(
        "m => window.dispatchEvent(new CustomEvent('tikki:account', {detail: m}))", message
    )
    page.locator("#notices-bell .notices-count", has_text="1").wait_for()
    assert page.locator("#notices-list li").count() == 1
    assert page.locator("#notices-list li.unread").count() == 1


def test_read_on_one_page_clears_the_bell_on_the_others(server: Server, browser: Browser) -> None:
    """Anna has two pages open (two lobbies) when Ben challenges her: both bells count
    it; she opens the bell on one, and the other's count goes at once, with no reload
    (the server tells the account's sockets: ``notices_read``)."""
    anna_name, ben_name = names()
    ben = person(browser, server.url, ben_name)
    lobby = person(browser, server.url, anna_name)
    other = lobby.context.new_page()
    other.goto(f"{server.url}/")
    other.locator("#notices-bell").wait_for()
    sent = ben.evaluate(
        """async (name) => {
          const csrf = document.cookie.match(/tikki_csrf=([^;]+)/)[1];
          const r = await fetch("/api/friends/challenges", {method: "POST",
            headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf},
            body: JSON.stringify({name, game: "myllymatti"})});
          return r.status;
        }""",
        anna_name,
    )
    assert sent == 201
    for page in (lobby, other):
        page.locator("#notices-bell .notices-count", has_text="1").wait_for()
    other.locator("#notices-bell").click()
    other.locator("#notices-list li").first.wait_for()
    lobby.locator("#notices-bell .notices-count").wait_for(state="hidden", timeout=10_000)
    assert "1" not in str(lobby.locator("#notices-bell").get_attribute("aria-label"))


def test_the_bell_on_the_puzzles_and_tournaments_pages(server: Server, browser: Browser) -> None:
    """The bell is on every page a player waits on: a challenge counts on the puzzles'
    and the tournaments' pages too (issue 55's tour: a player solving puzzles or waiting
    for a tournament never saw it), and the phone's top bar still fits."""
    from tests.test_web_e2e import PHONE

    anna_name, ben_name = names()
    anna_name += "Lehtinen"  # a long name beside "Tournaments" on the phone's top bar
    anna = person(browser, server.url, anna_name, "en", phone=True)
    ben = person(browser, server.url, ben_name)
    sent = ben.evaluate(
        """async (name) => {
          const csrf = document.cookie.match(/tikki_csrf=([^;]+)/)[1];
          const r = await fetch("/api/friends/challenges", {method: "POST",
            headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf},
            body: JSON.stringify({name, game: "mattis"})});
          return r.status;
        }""",
        anna_name,
    )
    assert sent == 201
    for path in ("/puzzles", "/tournaments"):
        anna.goto(f"{server.url}{path}?lang=en")
        anna.locator("#notices-bell .notices-count", has_text="1").wait_for()
        assert anna.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        bar = anna.locator(".topbar").bounding_box()
        assert bar is not None and bar["width"] <= PHONE["width"]
        title = anna.locator(".topbar h1").evaluate(
            "e => { const r = document.createRange(); r.selectNodeContents(e);"
            " return r.getBoundingClientRect().right; }"
        )  # the text, which may overflow its box
        name = anna.locator("#account-link").bounding_box()
        assert name is not None and title <= name["x"], (path, title, name)  # no overlap
        shot(anna, f"notices-bell{path.replace('/', '-')}-phone-en")
