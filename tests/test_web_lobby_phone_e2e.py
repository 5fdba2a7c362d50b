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
