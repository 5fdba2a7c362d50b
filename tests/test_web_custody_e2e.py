"""Seat custody in Chromium: a device link for another seat asks
before it switches this browser's seat (and keeps the old token), the page shows how many
devices hold the seat, and "Sign out other devices" gives this browser a new token and
ends the other device's session.  Skips like tests/test_web_e2e.py without Chromium
(never under ``CI=true``).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests import test_web_e2e as e2e
from tests.test_web_e2e import DESKTOP, Browser, Page, Server, Watch, shot

browser = e2e.browser
"""The Chromium fixture of tests/test_web_e2e.py (skips as it does)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("custody") / "web.sqlite")
    yield srv
    srv.stop()


def take(page: Page, base: str, table_id: str, seat: int, name: str) -> str:
    """Take a seat open to anyone over the API; return its token."""
    joined = page.request.post(f"{base}/api/tables/{table_id}/seats/{seat}", data={"name": name})
    assert joined.ok, joined.text()
    token: str = joined.json()["token"]
    return token


def open_link(page: Page, url: str) -> None:
    """Open a link as a new page load (a link from a chat opens a fresh page; a goto that
    changes only the fragment would not load the page again)."""
    page.goto("about:blank")
    page.goto(url)


def stored(page: Page, key: str) -> str | None:
    value: str | None = page.evaluate("k => localStorage.getItem(k)", key)
    return value


def devices(page: Page) -> str:
    """The device panel's count line (the panel opened first)."""
    if not page.locator("#device details[open]").count():
        page.locator("#device summary").click()
    locator = page.locator("#device-count")
    locator.wait_for(state="attached")
    return locator.inner_text()


def test_device_links_ask_before_switching_and_can_be_revoked(
    server: Server, browser: Browser
) -> None:
    base = server.url
    mine = browser.new_context(viewport=DESKTOP)
    page = mine.new_page()
    watch = Watch(page)
    seats = [{"kind": "open", "anyone": True}] * 2
    answer = page.request.post(
        f"{base}/api/tables", data={"game": "myllymatti", "seats": seats, "seed": 9}
    )
    assert answer.status == 201, answer.text()
    table_id = answer.json()["table"]["id"]
    anna = take(page, base, table_id, 0, "Anna")
    page.goto(f"{base}/t/{table_id}#token={anna}")  # no seat here yet: taken at once
    page.wait_for_selector("#board[data-status=playing], #board[data-status=waiting]")
    assert stored(page, f"tikki.token.{table_id}") == anna
    assert "#token=" not in page.url

    # An opponent sends a link to their own seat: the page asks, and "Keep" keeps Anna's.
    ben = take(page, base, table_id, 1, "Ben")
    open_link(page, f"{base}/t/{table_id}#token={ben}")
    dialog = page.locator("#switch-seat")
    dialog.wait_for()
    assert "seat 2" in dialog.inner_text() and "seat 1" in dialog.inner_text()
    shot(page, "custody-switch-prompt")
    page.locator("#keep-seat").click()
    page.wait_for_selector("#board[data-status=playing]")
    assert stored(page, f"tikki.token.{table_id}") == anna
    assert "#token=" not in page.url

    # "Switch" takes the link's seat and keeps the old token.
    open_link(page, f"{base}/t/{table_id}#token={ben}")
    page.locator("#switch-to").click()
    page.wait_for_selector("#board[data-status=playing]")
    assert stored(page, f"tikki.token.{table_id}") == ben
    assert stored(page, f"tikki.token.{table_id}.kept") == anna

    # Back to Anna's seat (a link to it asks again, and switching is allowed).
    open_link(page, f"{base}/t/{table_id}#token={anna}")
    page.locator("#switch-to").click()
    page.wait_for_selector("#board[data-status=playing]")
    assert stored(page, f"tikki.token.{table_id}") == anna

    # A second device holds Anna's seat: the page says so.
    other = browser.new_context(viewport=DESKTOP)
    phone = other.new_page()
    phone.goto(f"{base}/t/{table_id}#token={anna}")
    phone.wait_for_selector("#board[data-status=playing]")
    page.wait_for_function(
        "() => (document.querySelector('#device-count')?.textContent ?? '').includes('2')",
        timeout=15_000,
    )
    assert "2 devices" in devices(page)
    shot(page, "custody-two-devices")

    # Sign out other devices: the phone's session ends, this page goes on with a new token.
    page.locator("#revoke-btn").click()
    phone.locator("#join").wait_for(state="visible", timeout=15_000)
    assert "not valid" in phone.locator("#join").inner_text()
    page.wait_for_function(
        "() => (document.querySelector('#device-count')?.textContent ?? '').includes('only')",
        timeout=15_000,
    )
    new = stored(page, f"tikki.token.{table_id}")
    assert new and new != anna
    old = page.request.get(
        f"{base}/api/tables/{table_id}/state", headers={"Authorization": f"Bearer {anna}"}
    )
    assert old.status == 403
    shot(page, "custody-revoked")
    assert watch.problems == [] or all("403" in p or "4401" in p for p in watch.problems), (
        watch.problems
    )
    other.close()
    mine.close()
