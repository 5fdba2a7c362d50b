"""The lobby on a narrow phone (360x740, touch) in en, fi and de: no control is wider
than the screen, so the page never scrolls sideways (a select is as wide as its longest
option unless told otherwise: the seats' "Ein Mensch (offen für alle …)" and the turn
timer's "warten: die anderen dürfen einen Bot spielen lassen" made it 483 px wide).
Skips like tests/test_web_e2e.py without Chromium (never under ``CI=true``).
"""

from __future__ import annotations

import pytest

from tests import test_web_e2e as e2e
from tests.test_web_e2e import Browser, Server

server = e2e.server
browser = e2e.browser

WIDE_JS = """(width) => [...document.querySelectorAll('body *')]
  .filter(el => el.getBoundingClientRect().right > width + 0.5)
  .map(el => `${el.tagName}#${el.id} ${Math.round(el.getBoundingClientRect().right)}`)"""


@pytest.mark.parametrize("lang", ["en", "fi", "de"])
def test_lobby_fits_a_narrow_phone(server: Server, browser: Browser, lang: str) -> None:
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True, locale=lang
    )
    page = context.new_page()
    page.goto(f"{server.url}/?lang={lang}")
    for game in ("myllymatti", "mattis", "mueckenstich"):
        page.check(f"input[name=game][value={game}]")
        page.locator("#seat-0").wait_for()
        wide = page.evaluate(WIDE_JS, 360)
        assert wide == [], f"{lang} {game}: wider than the screen: {wide[:6]}"
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()


OVERLAPS_JS = """() => {
  const parts = [...document.querySelectorAll('.topbar > *')]
    .filter(el => el.offsetParent !== null && el.getBoundingClientRect().width > 0);
  const hits = [];
  for (let i = 0; i < parts.length; i++) for (let j = i + 1; j < parts.length; j++) {
    const a = parts[i].getBoundingClientRect(), b = parts[j].getBoundingClientRect();
    if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5
        && b.top < a.bottom - 0.5) {
      const name = (el) => el.id || el.className;
      hits.push(`${name(parts[i])} / ${name(parts[j])}`);
    }
  }
  return hits;
}"""


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_signed_in_lobby_top_bar_draws_nothing_over_anything(
    server: Server, browser: Browser, lang: str
) -> None:
    """Signed in on a phone, the top bar shows the account's name beside the game titles:
    each part of the bar in a place of its own (the name was drawn over the titles)."""
    from tests.test_web_bugs_e2e import register

    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, locale=lang
    )
    register(context, server.url, f"Topbar{lang}")
    page = context.new_page()
    page.goto(f"{server.url}/?lang={lang}")
    page.locator("#account-link", has_text=f"Topbar{lang}").wait_for()
    page.locator("#game-titles").wait_for()
    e2e.ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(e2e.ARTIFACTS / f"lobby-signed-in-phone-{lang}.png"))
    assert page.evaluate(OVERLAPS_JS) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()
