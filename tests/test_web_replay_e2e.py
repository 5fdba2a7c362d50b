"""Browser tests of the replay view on Debian's Chromium.

A finished game steps forwards and back by buttons, arrow keys and the log; it follows one
seat or shows every hand; its link reopens the same position; the analysis chart opens it
at a decision with what the analysis said; an uploaded record replays from a shareable
link; an unfinished game replays its spectators' view, no card of any hand.  Screenshots
at 1280×800 and 390×844 go to ``test-artifacts/``.
"""

from __future__ import annotations

import json
import re
import time
from typing import TYPE_CHECKING, Any

from tests._server import pick
from tests.test_web_e2e import Browser, Page, Server, Watch, browser, serving, shot

__all__ = ["browser"]  # the fixture, shared with test_web_e2e (its quick trick hold too)

if TYPE_CHECKING:
    from playwright.sync_api import APIRequestContext, FilePayload, ViewportSize

WIDE: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}


server = serving("replay")


def wait_finished(api: APIRequestContext, base: str, table_id: str) -> None:
    deadline = time.monotonic() + 60
    while api.get(f"{base}/api/tables/{table_id}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the game did not finish"
        time.sleep(0.05)


def played_table(api: APIRequestContext, base: str, moves: int | None = None) -> tuple[str, str]:
    """A Myllymatti table of a person (seat 0) and a Medium bot, the person's moves made
    by the API: to the end, or ``moves`` of them.  Its id and the person's token."""
    body = {"game": "myllymatti", "seed": "21", "seats": [{"kind": "open", "anyone": True},
            {"kind": "bot", "bot": "heuristic"}]}  # fmt: skip
    table_id = api.post(f"{base}/api/tables", data=body).json()["table"]["id"]
    token = api.post(f"{base}/api/tables/{table_id}/seats/0", data={"name": "Anna"}).json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    made = 0
    deadline = time.monotonic() + 60
    while moves is None or made < moves:
        assert time.monotonic() < deadline, "the game did not finish"
        s = api.get(f"{base}/api/tables/{table_id}/state", headers=headers).json()
        if s["status"] == "finished":
            break
        if s["view"]["to_act"] != 0:
            time.sleep(0.02)
            continue
        move = pick(s["view"], s["seq"])
        r = api.post(f"{base}/api/tables/{table_id}/moves", headers=headers,
                     data={"move": move, "seq": s["seq"]})  # fmt: skip
        made += r.ok
    return table_id, token


def at(page: Page) -> int:
    return int(page.get_attribute("#board", "data-at") or "-1")


def test_replay_steps_through_follows_a_seat_and_opens_from_the_chart(
    server: Server, browser: Browser
) -> None:
    context = browser.new_context(viewport=WIDE)
    page = context.new_page()
    watch = Watch(page)
    base = server.url
    table_id, token = played_table(page.request, base)
    wait_finished(page.request, base, table_id)
    record = page.request.get(f"{base}/api/tables/{table_id}/record").json()
    n = len(record["moves"])
    # the table's result links to the replay of the seat
    page.goto(f"{base}/t/{table_id}")
    page.evaluate(f"localStorage.setItem('tikki.token.{table_id}', '{token}')")
    page.reload()
    page.wait_for_selector("#replay-link")
    page.click("#replay-link")
    page.wait_for_selector("#board[data-at='0']")
    assert "seat=0" in page.url
    assert "The deal" in page.inner_text("#position")
    hand0 = page.locator("#hands .hand-card").count()
    assert hand0 > 0 and page.locator("#hands .replay-hand").count() == 1
    # buttons and arrow keys step forwards and back; Home and End jump
    page.click("#forward")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert at(page) == 3
    page.keyboard.press("ArrowLeft")
    page.click("#back")
    assert at(page) == 1
    assert page.inner_text("#last-move").startswith(("Anna", "Medium"))
    page.keyboard.press("End")
    assert at(page) == n and page.locator("#result:not([hidden])").count() == 1
    assert page.is_disabled("#forward")
    page.keyboard.press("Home")
    assert at(page) == 0 and page.is_disabled("#back")
    page.click("#log-list li[data-i='4'] button")
    assert at(page) == 5
    assert page.locator("#log-list li[aria-current='step']").get_attribute("data-i") == "4"
    # the link is shareable: it reopens the same position and seat
    page.goto(page.url)
    page.wait_for_selector("#board[data-at='5']")
    assert page.input_value("#perspective") == "0"
    shot(page, "replay-desktop")
    # every hand, once the game is over
    page.select_option("#perspective", "all")
    page.wait_for_selector("#hands .replay-hand >> nth=1")
    assert page.locator("#hands .replay-hand").count() == 2 and at(page) == 5
    assert "seat=all" in page.url
    shot(page, "replay-every-hand")
    # the analysis chart: each point opens the replay there, with what was better
    page.goto(f"{base}/t/{table_id}")
    page.click("#analyse")
    page.wait_for_selector(".analysis-summary", timeout=120_000)
    assert page.locator("svg.analysis-chart a.chart-link").count() >= 1
    for link in page.locator("#log-list .verdict a.replay-link").all():  # marked log moves
        href = link.get_attribute("href") or ""
        assert re.fullmatch(rf"/replay/{table_id}\?seat=0&at=\d+&analysis=1", href), href
    job = page.request.get(f"{base}/api/tables/{table_id}/analysis/0").json()
    decision = max(job["analysis"]["decisions"], key=lambda d: d["loss"])
    link = page.locator("svg.analysis-chart a.chart-link").nth(
        job["analysis"]["decisions"].index(decision)
    )
    link.locator("circle").click()
    # the position is that move played, and the box says what the analysis said of it
    page.wait_for_selector(f"#board[data-at='{decision['number']}']")
    page.wait_for_selector("#said:not([hidden])")
    said = page.inner_text("#said")
    assert f"move {decision['number']}" in said
    assert page.inner_text("#position").startswith(f"Move {decision['number']} of "), said
    assert page.locator("#said .said-values li").count() == len(decision["values"])
    assert "analysis=1" in page.url
    shot(page, "replay-analysis")
    # stepping away from the decision hides the box; back to it shows it again
    page.keyboard.press("ArrowRight")
    assert page.locator("#said[hidden]").count() == 1
    page.keyboard.press("ArrowLeft")
    assert page.locator("#said:not([hidden])").count() == 1
    # a phone
    phone = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    small = phone.new_page()
    small_watch = Watch(small)
    small.goto(f"{base}/replay/{table_id}?seat=0&at=12")
    small.wait_for_selector("#board[data-at='12']")
    width = small.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the replay is {width}px wide on a phone"
    small.tap("#forward")
    assert at(small) == 13
    shot(small, "replay-phone")
    small_watch.check()
    phone.close()
    watch.check()
    context.close()


def test_an_uploaded_record_replays_from_a_shareable_link(server: Server, browser: Browser) -> None:
    context = browser.new_context(viewport=WIDE)
    page = context.new_page()
    watch = Watch(page)
    base = server.url
    bots = [{"kind": "bot", "bot": "random"}] * 3
    body = {"game": "mattis", "seed": "4", "seats": bots}
    table_id = page.request.post(f"{base}/api/tables", data=body).json()["table"]["id"]
    wait_finished(page.request, base, table_id)
    record: dict[str, Any] = page.request.get(f"{base}/api/tables/{table_id}/record").json()
    page.goto(f"{base}/replay")
    # The upload box shows once the page's script has wired it: the catalog's top-level
    # await can finish after the load event, and a file chosen before then goes unheard.
    page.wait_for_selector("#upload:not([hidden])")
    bad: FilePayload = {"name": "bad.json", "mimeType": "application/json", "buffer": b"{}"}
    page.set_input_files("#record-file", files=[bad])
    page.wait_for_selector("#upload-error:not([hidden])")
    assert "record" in page.inner_text("#upload-error")
    assert [p for p in watch.problems if "400" not in p] == []  # the refusal is expected
    watch.problems.clear()
    data = json.dumps(record).encode()
    game_file: FilePayload = {"name": "game.json", "mimeType": "application/json", "buffer": data}
    page.set_input_files("#record-file", files=[game_file])
    page.wait_for_selector("#board[data-at='0']")
    page.select_option("#perspective", "2")
    page.wait_for_selector("#hands .replay-hand")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => location.hash.startsWith('#record=')")
    shared = page.url
    assert "at=1" in shared and "seat=2" in shared
    other = context.new_page()
    other.goto(shared)
    other.wait_for_selector("#board[data-at='1']")
    assert other.inner_text("#hands") == page.inner_text("#hands")
    assert "Mattis" in other.inner_text("#title")
    assert "(Easy)" in record["seats"][0]["name"]  # kept in the words it was saved in
    finnish = browser.new_context(viewport=WIDE, locale="fi-FI").new_page()
    finnish.goto(shared)
    finnish.wait_for_selector("#board[data-at='1']")
    options = finnish.inner_text("#perspective")
    assert "(Helppo)" in options and "(Easy)" not in options, options
    watch.check()
    context.close()


def test_an_unfinished_game_replays_nothing_hidden(server: Server, browser: Browser) -> None:
    context = browser.new_context(viewport=WIDE)
    page = context.new_page()
    watch = Watch(page)
    base = server.url
    table_id, _token = played_table(page.request, base, moves=4)
    # a stranger asks for seat 0's view: refused, the spectators' view instead
    page.goto(f"{base}/replay/{table_id}?seat=0")
    page.wait_for_selector("#board[data-at]:not([hidden])")
    assert "not over" in page.inner_text("#notice")
    assert page.input_value("#perspective") == ""
    assert page.is_disabled("#perspective option[value='all']")
    last = int(page.get_attribute("#scrub", "max") or "0")
    assert at(page) == last > 0
    for k in range(last + 1):
        page.keyboard.press("Home") if k == 0 else page.keyboard.press("ArrowRight")
        assert page.locator("#hands .card").count() == 0
    hidden = page.request.get(f"{base}/api/tables/{table_id}/replay").json()
    seen = {c for f in hidden["frames"] for c in f["hand"]}
    assert not seen
    watch.problems = [p for p in watch.problems if "409" not in p]
    watch.check()
    context.close()
