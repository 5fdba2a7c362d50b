"""The table page's seats and keyboard in Chromium, as players meet them.

- Each seat tile says who holds it: an account's seat and a guest's are marked so
  (translated; short on a phone), a bot's seat only as a bot, an open seat not at all.
- On a phone, an opponent's public hand longer than its tile (Mattis's phase 2) says
  that it scrolls: the edge with more cards fades and a "›" (or "‹") shows, and the marks
  follow a scroll. (Keyboard play keeping the focus off the body: test_web_desktop.py.)

Skips like tests/test_web_e2e.py without Chromium (never under ``CI=true``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from tests.test_web_bugs_e2e import register, seated_table
from tests.test_web_e2e import ARTIFACTS, Browser, Page, Server, Watch, browser

__all__ = ["browser"]

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 360, "height": 740}
MARKS = {"en": ("account", "guest"), "fi": ("tili", "vieras"), "de": ("Konto", "Gast")}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("seats") / "web.sqlite")
    yield srv
    srv.stop()


def _seat_marks(page: Page) -> dict[str, str]:
    """Each seat's number and the text of its holder mark ("" for none)."""
    marks: dict[str, str] = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#seats .seat')].map((li) => [
          li.dataset.seat, (li.querySelector('.holder')?.textContent ?? '').trim()]))"""
    )
    return marks


def test_seat_tiles_mark_accounts_and_guests(server: Server, browser: Browser) -> None:
    base = server.url
    owner = browser.new_context(viewport=DESKTOP, locale="en")
    register(owner, base, "Kaisa")
    seats: list[dict[str, Any]] = [
        {"kind": "open", "anyone": True},
        {"kind": "open", "anyone": True},
    ]
    seats.append({"kind": "bot", "bot": "random"})
    made = owner.request.post(f"{base}/api/tables", data={"game": "mattis", "seats": seats})
    assert made.status == 201, made.text()
    table_id = made.json()["table"]["id"]
    csrf = next(c["value"] for c in owner.cookies() if c["name"] == "tikki_csrf")
    url = f"{base}/api/tables/{table_id}"
    joined = owner.request.post(
        f"{url}/seats/0", data={"name": "Kaisa"}, headers={"X-CSRF-Token": csrf}
    )
    assert joined.status == 200, joined.text()
    token = joined.json()["token"]
    guest = browser.new_context(viewport=DESKTOP, locale="en")
    answer = guest.request.post(f"{base}/api/tables/{table_id}/seats/1", data={"name": "Ben"})
    assert answer.status == 200, answer.text()
    holders = [s["holder"] for s in guest.request.get(url).json()["seats"]]
    assert holders == ["account", "guest", "bot"], holders
    page = owner.new_page()
    watch = Watch(page)
    page.goto(f"{base}/?lang=en")
    page.evaluate("([id, t]) => localStorage.setItem(`tikki.token.${id}`, t)", [table_id, token])
    for lang, (account, guest_word) in MARKS.items():
        for size in (DESKTOP, PHONE):
            page.set_viewport_size(size)
            page.goto(f"{base}/t/{table_id}?lang={lang}")
            page.wait_for_selector("#seats .seat .seat-name")
            marks = _seat_marks(page)
            assert marks == {"0": account, "1": guest_word, "2": ""}, (lang, size, marks)
            mark = page.locator("#seats .seat .holder").first
            assert mark.is_visible(), (lang, size)
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"seat-marks-{lang}-{size['width']}.png"))
            # on a phone the seats' strip holds its three tiles as before: no tile wider
            width = page.evaluate(
                "() => Math.max(...[...document.querySelectorAll('#seats .seat')]"
                ".map((li) => li.getBoundingClientRect().width))"
            )
            assert width <= 0.7 * size["width"] + 1, (lang, size, width)
    watch.check()
    owner.close()
    guest.close()


STRIPS_JS = """() => [...document.querySelectorAll('#seats .public-hand')].map((el) => {
  const seat = el.closest('.seat');
  const style = getComputedStyle(el);
  return {
    seat: seat.dataset.seat, scroll: el.scrollWidth, client: el.clientWidth,
    more: el.dataset.more ?? null, mask: style.maskImage || style.webkitMaskImage || 'none',
    after: getComputedStyle(seat, '::after').content,
    before: getComputedStyle(seat, '::before').content,
  };
})"""


def test_public_hands_that_scroll_say_so_on_a_phone(server: Server, browser: Browser) -> None:
    """Mattis's phase 2 at 360x740: every opponent's strip of public cards that is longer
    than its tile fades at its right edge and shows a "›"; scrolled to its end, the fade
    and the mark move to the left; a strip that fits has neither."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    watch = Watch(page)
    seated_table(page, server.url, "mattis", 5, lambda view: view["phase"] == "shed")
    page.wait_for_selector("#seats .public-hand")
    strips = page.evaluate(STRIPS_JS)
    over = [s for s in strips if s["scroll"] > s["client"] + 1]
    assert over, f"no strip of public cards overflows its tile: {strips}"
    for s in strips:
        if s in over:
            assert s["more"] == "right", f"a long strip gives no sign that it scrolls: {s}"
            assert "gradient" in s["mask"], f"no fade at the strip's edge: {s}"
            assert "›" in s["after"], f"no '›' beside the strip: {s}"
        else:
            assert s["more"] is None and "›" not in s["after"], f"a strip that fits: {s}"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "seat-public-hands-360.png"))
    seat = over[0]["seat"]
    strip = f"#seats .seat[data-seat='{seat}'] .public-hand"
    page.eval_on_selector(strip, "el => { el.scrollLeft = el.scrollWidth; }")
    page.wait_for_function("s => document.querySelector(s).dataset.more === 'left'", arg=strip)
    after = next(s for s in page.evaluate(STRIPS_JS) if s["seat"] == seat)
    assert "‹" in after["before"] and "›" not in after["after"], after
    page.screenshot(path=str(ARTIFACTS / "seat-public-hands-360-scrolled.png"))
    watch.check()
    context.close()
