"""Browser tests of the web pages' last rough edges, each as a player meets it.

- An error of the lobby's *Join seat N* buttons (a guest at a rated table's open seat)
  stays beside the button through the list's refreshes, until the player acts again.
- A shared link to an uploaded record whose seed is a 128-bit whole number opens in a
  fresh browser, and after a reload (the page keeps the record's text as it came).
- A swipe over the hand on a phone (vertical or sideways, fanned or not) never plays a
  card; a tap still does.
- The move buttons lie on the screen at every turn of whole Mattis games, at 1280×800
  and 1366×768 and on a phone in German (360×740), and the page is never scrolled.

Without Chromium or Playwright these tests skip with the reason; under ``CI=true`` they
fail instead (as in tests/test_web_e2e.py).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

from tests.test_web_e2e import (
    ARTIFACTS,
    Browser,
    Page,
    Server,
    Watch,
    board,
    browser,
    choose,
    click_move,
    serving,
)
from tests.test_web_phone import open_table

__all__ = ["browser"]  # the fixture, shared with test_web_e2e (its quick trick hold too)

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, FilePayload, ViewportSize

DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 360, "height": 740}
PASSWORD = "plum tractor violet 1987 harbour"
BIG_SEED = 2**127 + 123_456_789_012_345_678_901
"""A 128-bit seed, as every web game's record has: far beyond a float's whole numbers."""


server = serving("bugs")


def register(context: BrowserContext, base: str, name: str) -> None:
    """Create an account and sign this browser context in (the API, with its CSRF token)."""
    context.request.get(f"{base}/api/account")
    csrf = next(c["value"] for c in context.cookies() if c["name"] == "tikki_csrf")
    answer = context.request.post(
        f"{base}/api/account/register",
        data={"name": name, "password": PASSWORD},
        headers={"X-CSRF-Token": csrf},
    )
    assert answer.status == 201, answer.text()


# ---------------------------------------------------------------- the lobby's seat buttons


def test_a_join_error_stays_through_the_lobby_refresh(server: Server, browser: Browser) -> None:
    """A guest presses *Join seat 2* at a rated table: the 403's reason shows beside the
    button and is still there after the list refreshes (its own refresh after the error,
    the 15 s timer, the Refresh button); it goes when the player dismisses it."""
    base = server.url
    owner = browser.new_context(viewport=DESKTOP)
    register(owner, base, "Ilona")
    seats = [{"kind": "open", "anyone": True}, {"kind": "open", "anyone": True}]
    body = {"game": "myllymatti", "seats": seats, "rated": True}
    made = owner.request.post(f"{base}/api/tables", data=body)
    assert made.status == 201, made.text()
    table_id = made.json()["table"]["id"]

    guest = browser.new_context(viewport=DESKTOP)
    page = guest.new_page()
    page.clock.install()  # the list's 15 s refresh runs when the test says so
    watch = Watch(page)
    page.goto(f"{base}/?lang=en")
    page.fill("#player-name", "Gustav")
    join = page.locator(f"#tables button[data-table='{table_id}'][data-take='1']")
    join.wait_for()
    with page.expect_response(lambda r: "/api/tables?" in r.url):  # the refresh after it
        join.click()
    error = page.locator("#tables .field-error")
    error.wait_for()
    said = error.inner_text()
    assert "rated" in said and "sign in" in said.lower(), said
    page.wait_for_timeout(200)
    assert error.is_visible() and error.inner_text() == said, "the refresh wiped the error"
    # another table comes: the list's own refresh (15 s) draws it and keeps the error
    more = owner.request.post(f"{base}/api/tables", data={**body, "rated": False})
    assert more.status == 201, more.text()
    other_id = more.json()["table"]["id"]
    with page.expect_response(lambda r: "/api/tables?" in r.url):
        page.clock.run_for(16_000)
    page.locator(f"#tables button[data-table='{other_id}']").first.wait_for()
    assert error.is_visible() and error.inner_text() == said, "the timer's refresh wiped it"
    with page.expect_response(lambda r: "/api/tables?" in r.url):
        page.click("#refresh")
    page.wait_for_timeout(200)
    assert error.is_visible() and error.inner_text() == said, "Refresh wiped it"
    again = page.locator(f"#tables button[data-table='{table_id}'][data-take='1']")
    assert again.get_attribute("aria-describedby") == error.get_attribute("id")
    # the table fills and leaves the open tables: the error stays, naming table and seat
    second = browser.new_context(viewport=DESKTOP)
    register(second, base, "Jaakko")
    for seat, who in ((0, owner), (1, second)):
        taken = who.request.post(f"{base}/api/tables/{table_id}/seats/{seat}", data={"name": "x"})
        assert taken.ok, taken.text()
    with page.expect_response(lambda r: "/api/tables?" in r.url):
        page.click("#refresh")
    page.wait_for_timeout(200)
    assert not again.count(), "the full table is still listed as open"
    assert error.inner_text().startswith("Myllymatti, seat 2: "), error.inner_text()
    assert said in error.inner_text()
    page.locator("#tables .field-error button.dismiss").click()
    assert not page.locator("#tables .field-error").count()
    with page.expect_response(lambda r: "/api/tables?" in r.url):
        page.click("#refresh")
    page.wait_for_timeout(200)
    assert not page.locator("#tables .field-error").count(), "a dismissed error came back"
    second.close()
    watch.problems = [p for p in watch.problems if "status of 403" not in p]  # expected
    watch.check()
    guest.close()
    owner.close()


# ---------------------------------------------------------------- the replay's shared link


def test_a_shared_link_to_an_uploaded_record_with_a_big_seed(
    server: Server, browser: Browser
) -> None:
    """Upload a record whose seed is a 128-bit number at /replay; its link opens in a
    fresh browser and after a reload, and plays (steps forward)."""
    base = server.url
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    watch = Watch(page)
    bots = [{"kind": "bot", "bot": "random"}] * 3
    body = {"game": "myllymatti", "seed": str(BIG_SEED), "seats": bots}
    made = page.request.post(f"{base}/api/tables", data=body)
    assert made.ok, made.text()
    table_id = made.json()["table"]["id"]
    deadline = time.monotonic() + 60
    while page.request.get(f"{base}/api/tables/{table_id}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' game did not finish"
        time.sleep(0.05)
    text = page.request.get(f"{base}/api/tables/{table_id}/record").text()
    assert str(BIG_SEED) in text, "the record's seed is not the big number"
    page.goto(f"{base}/replay")
    page.wait_for_selector("#upload:not([hidden])")
    upload: FilePayload = {"name": "g.json", "mimeType": "application/json", "buffer": b""}
    upload["buffer"] = text.encode()
    page.set_input_files("#record-file", files=[upload])
    page.wait_for_selector("#board[data-at='0']")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "() => location.hash.startsWith('#record=') && /at=1/.test(location.search)"
    )
    shared = page.url
    page.reload()
    page.wait_for_selector("#board[data-at='1']")
    assert page.locator("#upload-error:not([hidden])").count() == 0
    watch.check()
    fresh = browser.new_context(viewport=DESKTOP)
    other = fresh.new_page()
    other_watch = Watch(other)
    other.goto(shared)
    other.wait_for_selector("#board[data-at='1']")
    error = other.locator("#upload-error:not([hidden])")
    assert not error.count(), error.inner_text()
    other.keyboard.press("ArrowRight")
    other.wait_for_selector("#board[data-at='2']")
    other.reload()
    other.wait_for_selector("#board[data-at='2']")
    assert "Myllymatti" in other.inner_text("#title")
    other_watch.check()
    fresh.close()
    context.close()


# ---------------------------------------------------------------- swipes on a phone


def seated_table(
    page: Page,
    base: str,
    game: str,
    seed: int,
    until: Callable[[dict[str, Any]], bool],
    choose: Callable[[list[str], dict[str, Any]], str] | None = None,
) -> tuple[str, str]:
    """A table of ``game`` with a person at seat 0 and two instant random bots, the
    person's moves made by the API (``choose(legal, view)``, else the first legal move)
    until ``until(view)`` holds at the person's turn; then ``page`` opens it in that seat.
    Returns the table id and the seat's token."""
    seats = [{"kind": "open", "anyone": True}] + [{"kind": "bot", "bot": "random"}] * 2
    body = {"game": game, "players": 3, "seats": seats, "seed": str(seed)}
    made = page.request.post(f"{base}/api/tables", data=body)
    assert made.ok, made.text()
    table_id = made.json()["table"]["id"]
    token = page.request.post(f"{base}/api/tables/{table_id}/seats/0", data={"name": "Anna"})
    token = token.json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, f"{game}: the position never came"
        s = page.request.get(f"{base}/api/tables/{table_id}/state", headers=headers).json()
        assert s["status"] != "finished", f"{game}: the game ended first"
        view = s["view"]
        if view["to_act"] != 0:
            time.sleep(0.02)
            continue
        if until(view):
            break
        legal = view["legal_moves"]
        move = choose(legal, view) if choose else legal[0]
        page.request.post(
            f"{base}/api/tables/{table_id}/moves",
            data={"move": move, "seq": s["seq"]},
            headers=headers,
        )
    page.goto(f"{base}/")
    page.evaluate("([id, t]) => localStorage.setItem(`tikki.token.${id}`, t)", [table_id, token])
    page.goto(f"{base}/t/{table_id}?seat=0")
    page.wait_for_selector("#board[data-turn=you][data-status=playing]")
    return table_id, token


def touch_path(page: Page, points: list[tuple[float, float]]) -> None:
    """A finger down at the first point, moved through the others, lifted at the last
    (real touch events, through the browser's gesture detection)."""
    cdp = page.context.new_cdp_session(page)
    x, y = points[0]
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for x, y in points[1:]:
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def swipe(page: Page, x: float, y: float, dx: float, dy: float) -> None:
    """A swipe from (x, y) by (dx, dy) in twelve steps."""
    touch_path(page, [(x + dx * k / 12, y + dy * k / 12) for k in range(13)])


def legal_card_point(page: Page, nth: int = 1) -> tuple[float, float]:
    """A point on the strip of the ``nth`` legal hand card that shows."""
    point: list[float] = page.evaluate(
        """(nth) => {
          const cards = [...document.querySelectorAll('#hand .hand-card.legal')];
          const card = cards[Math.min(nth, cards.length - 1)];
          const r = card.getBoundingClientRect();
          const next = card.parentElement.nextElementSibling;
          const right = next ? next.getBoundingClientRect().left : r.right;
          return [(r.left + Math.min(right, r.right)) / 2, r.top + r.height * 0.6];
        }""",
        nth,
    )
    return point[0], point[1]


def check_swipes_play_nothing(page: Page, where: str) -> None:
    """Up 300 px, and sideways 150 px, from a legal card: no move, no card chosen; then a
    tap on a legal card plays it (or selects it for a run)."""
    for dx, dy in ((0, -300), (-150, 0), (150, 0)):
        seq = board(page, "seq")
        page.evaluate("window.scrollTo(0, 0)")
        x, y = legal_card_point(page, 1 if dx >= 0 else 99)
        swipe(page, x, y, dx, dy)
        page.wait_for_timeout(400)  # a move would be sent and answered by now
        moved = f"{where}: a swipe by ({dx}, {dy}) played a card"
        assert board(page, "seq") == seq, moved + f": {page.inner_text('#log-list')[-200:]}"
        assert not page.locator("#hand .hand-card.selected").count(), moved + " (selected)"
    page.evaluate("window.scrollTo(0, 0)")
    seq = board(page, "seq")
    x, y = legal_card_point(page)
    page.wait_for_timeout(900)  # not a double tap of the last touch
    page.touchscreen.tap(x, y)
    page.wait_for_function(
        "s => document.querySelector('#board').dataset.seq !== s"
        " || document.querySelector('#hand .hand-card.selected')",
        arg=seq,
    )


def test_a_swipe_over_the_hand_never_plays(server: Server, browser: Browser) -> None:
    """At 360×740 with touch: Mückenstich while setting aside (the hand in a row) and Mattis
    in phase 2 (a big hand, fanned): swipes up and sideways from a legal card play
    nothing; a tap still plays."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    watch = Watch(page)
    base = server.url
    seated_table(page, base, "mueckenstich", 8, lambda v: v["phase"] == "discard")
    assert page.get_attribute("#hand", "class") == "hand", "the set-aside hand is fanned"
    check_swipes_play_nothing(page, "Mückenstich set-aside")

    def big_hands(legal: list[str], view: dict[str, Any]) -> str:
        cards = [m for m in legal if len(m) == 2 and m[0] in RANKS]
        return max(cards, key=lambda m: RANKS.index(m[0])) if cards else legal[0]

    def fanned(view: dict[str, Any]) -> bool:
        return view["phase"] == "shed" and len(view["hand"]) >= 16

    seated_table(page, base, "mattis", 5, fanned, big_hands)
    assert "fan" in (page.get_attribute("#hand", "class") or ""), "the hand is not fanned"
    check_swipes_play_nothing(page, "Mattis phase 2")
    # a look along the fan leaves the card it stops on lifted, whole: a tap on it takes it
    page.wait_for_selector("#board[data-turn=you][data-status=playing]")
    if page.locator("#clear-selection").is_visible():
        page.click("#clear-selection")  # the tap above began a sequence
    seq = board(page, "seq")
    x, y = legal_card_point(page, 0)
    swipe(page, x, y, 60, 0)
    lifted = page.locator("#hand .hand-card.under-finger")
    assert lifted.count() == 1, "no card stays lifted after a look along the fan"
    card = lifted.get_attribute("data-card")
    assert board(page, "seq") == seq and not page.locator("#hand .selected").count()
    box = lifted.bounding_box()
    assert box
    page.wait_for_timeout(900)
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + 12)
    page.wait_for_function(
        """([s, card]) => document.querySelector('#board').dataset.seq !== s
             || document.querySelector(`#hand .hand-card.selected[data-card='${card}']`)""",
        arg=[seq, card],
    )
    watch.check()
    context.close()


RANKS = "23456789TJQKA"


# ---------------------------------------------------------------- move buttons in view

IN_VIEW_JS = """() => {
  const off = [];
  for (const b of document.querySelectorAll('#actions button')) {
    if (b.disabled || b.getClientRects().length === 0) continue;
    const r = b.getBoundingClientRect();
    if (r.top < 0 || r.bottom > innerHeight + 0.5 || r.left < 0 || r.right > innerWidth + 0.5)
      off.push(`${b.textContent.trim()} at ${Math.round(r.top)}..${Math.round(r.bottom)}`);
  }
  const buttons = [...document.querySelectorAll('#actions button')].filter((b) => !b.disabled);
  return {off, scrollX, scrollY, vh: innerHeight, vw: innerWidth, buttons: buttons.length,
          pageWidth: document.documentElement.scrollWidth,
          hint: document.querySelector('#hint-btn')?.textContent ?? null};
}"""
"""Every enabled move button's box inside the viewport as the page is (never scrolled
back first), and where the page is scrolled to."""

# size, its viewport and browser options, the seed (a war's long trick just before a turn)
FIT_GAMES: list[tuple[str, dict[str, Any], int]] = [
    ("1280x800", {"viewport": {"width": 1280, "height": 800}}, 6),
    ("1366x768", {"viewport": {"width": 1366, "height": 768}}, 6),
    (
        "360x740 de",
        {"viewport": PHONE, "has_touch": True, "is_mobile": True, "locale": "de-DE"},
        6,
    ),
]


@pytest.mark.parametrize(("size", "options", "seed"), FIT_GAMES, ids=[g[0] for g in FIT_GAMES])
def test_move_buttons_stay_on_screen_in_whole_mattis_games(
    server: Server, browser: Browser, size: str, options: dict[str, Any], seed: int
) -> None:
    """A whole Mattis game against instant random bots, played by clicking: at every one
    of the person's turns every enabled move button (Hint too) lies inside the viewport
    and the page is not scrolled (on failure the screen goes to test-artifacts/)."""
    context = browser.new_context(**options)
    page = context.new_page()
    watch = Watch(page)
    open_table(page, server.url, "mattis", 3, "standard", {}, seed)
    turns, phases = 0, set()
    for turns in range(MAX_TURNS):
        page.wait_for_selector(
            "#board[data-turn=you][data-status=playing], #board[data-status=finished]"
        )
        if board(page, "status") == "finished":
            break
        phase = board(page, "phase")
        phases.add(phase)
        out = page.evaluate(IN_VIEW_JS)
        where = f"{size} turn {turns} ({phase})"
        if out["off"] or out["scrollY"] or out["scrollX"]:
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"buttons-off-{size.replace(' ', '-')}.png"))
        assert not out["off"], f"{where}: buttons below the {out['vh']}px screen: {out['off']}"
        assert out["scrollY"] == out["scrollX"] == 0, f"{where}: the page scrolled itself {out}"
        assert out["buttons"] >= 1, f"{where}: no enabled move button"
        width = options["viewport"]["width"]
        assert out["vw"] == width >= out["pageWidth"], f"{where}: the page is wider: {out}"
        if "de" in size:
            assert out["hint"] == "Tipp", out["hint"]
        seq = board(page, "seq")
        legal = json.loads(board(page, "legal"))
        click_move(page, choose(legal), legal)
        page.wait_for_function("s => document.querySelector('#board').dataset.seq !== s", arg=seq)
    else:
        pytest.fail(f"{size}: no end after {MAX_TURNS} of our moves")
    assert turns > 20 and phases == {"collect", "shed"}, (turns, phases)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"mattis-end-{size.replace(' ', '-')}.png"))
    watch.check()
    context.close()


MAX_TURNS = 400
