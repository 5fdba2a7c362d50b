"""The table's top bar on phones: a long title ("Myllymatti · Koira") leaves the language
switcher whole on the bar at 360 and 390 px wide (it read "Eng", pushed off the bar).

The phase line ("Phase 1 · Sammeln", "Runde 1 von 3 · Blatt 1 von 2 · Ablegen") is read
whole under the title in all three games and languages at both widths (it was cut to
"Ph…" or "F").

One browser context per width; a Koira table joined through its invite link, checked in
English and in German (the longest texts: "Regeln", "Deutsch").  Screenshots go to
``test-artifacts/topbar-phone-*.png``.  Without Chromium or Playwright this skips with the
reason; under ``CI=true`` it fails instead (as in tests/test_web_e2e.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.test_web_e2e import ARTIFACTS, Browser, Server, Watch, browser
from tests.test_web_phone import PHONES, open_table

__all__ = ["browser"]

TOPBAR_JS = """(width) => {
  const bar = document.querySelector('.topbar').getBoundingClientRect();
  const outside = [...document.querySelectorAll('.topbar > *')]
    .filter((el) => el.getClientRects().length > 0 && !el.classList.contains('visually-hidden'))
    .map((el) => [el.id || el.className || el.tagName, el.getBoundingClientRect()])
    .filter(([, r]) => r.right > Math.min(bar.right, width) + 0.5 || r.left < bar.left - 0.5)
    .map(([name, r]) => [name, Math.round(r.left), Math.round(r.right)]);
  const select = document.querySelector('.topbar select');
  // the select's own width without the bar's squeeze: a copy, unconstrained, off screen
  const copy = select.cloneNode(true);
  copy.style.cssText = 'position:absolute;left:-9999px;max-width:none;width:auto;flex:none';
  select.parentElement.append(copy);
  const natural = copy.getBoundingClientRect().width;
  copy.remove();
  const title = document.querySelector('#title');
  return {
    outside,
    select: select.getBoundingClientRect().width,
    natural,
    shown: select.options[select.selectedIndex].text,
    title: title.innerText,
    titleCut: title.scrollWidth > title.clientWidth,
    pageWidth: document.documentElement.scrollWidth,
    vw: width,
  };
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("topbar") / "topbar.sqlite")
    yield srv
    srv.stop()


def check_topbar(out: dict[str, Any], where: str) -> None:
    """Everything on the bar within the phone's width, the language switcher as wide as
    its longest language, the title whole, nothing wider than the screen (a mobile page
    that overflows widens its layout viewport, so the width is the phone's, not
    ``innerWidth``)."""
    assert not out["outside"], f"{where}: off the top bar: {out}"
    assert out["select"] >= out["natural"] - 0.5, f"{where}: the language switcher is cut: {out}"
    assert not out["titleCut"], f"{where}: the title is cut: {out}"
    assert out["pageWidth"] <= out["vw"], f"{where}: the page scrolls sideways: {out}"


@pytest.mark.parametrize("size", ["360x740", "390x844"])
def test_koira_title_leaves_the_language_switcher_whole(
    server: Server, browser: Browser, size: str
) -> None:
    context = browser.new_context(viewport=PHONES[size], has_touch=True, is_mobile=True)
    page = context.new_page()
    watch = Watch(page)
    open_table(page, server.url, "myllymatti", 3, "koira", {}, 5)
    width = PHONES[size]["width"]
    out = page.evaluate(TOPBAR_JS, width)
    assert out["title"] == "Myllymatti · Koira", out
    check_topbar(out, f"{size} en")
    page.screenshot(path=str(ARTIFACTS / f"topbar-phone-{size}.png"))
    page.goto(page.url.split("#")[0] + ("&" if "?" in page.url else "?") + "lang=de")
    page.wait_for_selector("#board[data-status=playing]", timeout=30_000)
    out = page.evaluate(TOPBAR_JS, width)
    assert out["shown"] == "Deutsch", out
    check_topbar(out, f"{size} de")
    page.screenshot(path=str(ARTIFACTS / f"topbar-phone-{size}-de.png"))
    watch.check()
    context.close()


PHASE_JS = """() => {
  const el = document.querySelector('#phase');
  const r = el.getBoundingClientRect();
  return {
    text: el.textContent, scroll: el.scrollWidth, client: el.clientWidth,
    left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width,
    vw: document.documentElement.clientWidth, vh: innerHeight,
  };
}"""

# game, players, variant, options, seed: one table of each game
PHASE_GAMES: list[tuple[str, int, str, dict[str, Any], int]] = [
    ("mattis", 3, "standard", {}, 5),
    ("myllymatti", 3, "koira", {}, 7),
    ("mueckenstich", 3, "standard", {}, 3),
]


def check_phase(out: dict[str, Any], where: str) -> None:
    """The phase line shown whole: not cut (no ellipsis, nothing scrolled away) and
    inside the screen."""
    assert out["text"].strip(), f"{where}: no phase shown: {out}"
    assert out["width"] > 0, f"{where}: the phase line is not shown: {out}"
    assert out["scroll"] <= out["client"], f"{where}: the phase line is cut: {out}"
    inside = out["left"] >= -0.5 and out["right"] <= out["vw"] + 0.5
    assert inside and out["top"] >= -0.5, f"{where}: the phase line leaves the screen: {out}"


@pytest.mark.parametrize("size", ["360x740", "390x844"])
def test_the_phase_line_is_whole_on_phones(server: Server, browser: Browser, size: str) -> None:
    """The phase ("Phase 1 · Sammeln", "Runde 1 von 3 · Beiseitelegen") read whole on a
    phone, in every game and language (it was cut to "Ph…" or "F")."""
    context = browser.new_context(viewport=PHONES[size], has_touch=True, is_mobile=True)
    page = context.new_page()
    watch = Watch(page)
    for game, players, variant, options, seed in PHASE_GAMES:
        open_table(page, server.url, game, players, variant, options, seed)
        url = page.url.split("#")[0]
        for lang in ("en", "fi", "de"):
            page.goto(url + ("&" if "?" in url else "?") + f"lang={lang}")
            page.wait_for_selector("#board[data-status=playing]", timeout=30_000)
            out = page.evaluate(PHASE_JS)
            check_phase(out, f"{game} {size} {lang}")
            check_topbar(page.evaluate(TOPBAR_JS, PHONES[size]["width"]), f"{game} {size} {lang}")
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"topbar-phase-{game}-{size}-{lang}.png"))
    watch.check()
    context.close()


def test_a_signed_in_players_bell_leaves_the_title_whole(server: Server, browser: Browser) -> None:
    """Signed in, the table's top bar on the narrowest phone also holds the notices' bell:
    the longest title in the longest language ("Mückenstich", Finnish) is still whole."""
    from tests._web import sign_up

    size = "360x740"
    context = browser.new_context(viewport=PHONES[size], has_touch=True, is_mobile=True)
    page = context.new_page()
    watch = Watch(page)
    sign_up(page, server.url)
    open_table(page, server.url, "mueckenstich", 3, "standard", {}, 3)
    url = page.url.split("#")[0]
    page.goto(url + ("&" if "?" in url else "?") + "lang=fi")
    page.wait_for_selector("#board[data-status=playing]", timeout=30_000)
    page.locator(".notices-bell").wait_for()
    check_topbar(page.evaluate(TOPBAR_JS, PHONES[size]["width"]), f"signed in {size} fi")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"topbar-bell-mueckenstich-{size}-fi.png"))
    watch.check()
    context.close()
