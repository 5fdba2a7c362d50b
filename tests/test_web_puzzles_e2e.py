"""The puzzles page in Chromium as a new player meets it: today's puzzle drawn as at the
table, solved right by clicking the answer's card (or move button) and wrong by another,
in English, Finnish and German, on a desktop (1280x800) and a phone (390x844, touch); the
verdict shows the explanation in the page's language, the themes and "Next puzzle"; a
signed-in player sees the rating change.  Screenshots go to ``test-artifacts/``.  Skips
like tests/test_web_e2e.py without Chromium (never under ``CI=true``)."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

import pytest

from tests import test_web_e2e as e2e
from tests.test_web_e2e import PHONE, Browser, Server, Watch, shot
from tikki.server.puzzles.catalogue import Puzzle, catalogue

if TYPE_CHECKING:
    from playwright.sync_api import Page, ViewportSize

server = e2e.serving("web-puzzles")
browser = e2e.browser

DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PASSWORD = "violet lantern harbour"
NUMBERS = itertools.count(1)
RIGHT = {"en": "Right!", "fi": "Oikein!", "de": "Richtig!"}
WRONG = {"en": "Not this time.", "fi": "Ei tällä kertaa.", "de": "Diesmal nicht."}


def page_of(browser: Browser, lang: str, phone: bool) -> Any:
    if phone:
        context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale=lang)
    else:
        context = browser.new_context(viewport=DESKTOP, locale=lang)
    return context.new_page()


def shown_puzzle(page: Page) -> Puzzle:
    """The puzzle the page shows (its id on the body), from the shipped sets."""
    page.locator("#hand [data-card]").first.wait_for()
    pid = page.get_attribute("body", "data-puzzle")
    found = catalogue().get(pid or "")
    assert found is not None
    return found


def play(page: Page, move: str, phone: bool) -> None:
    """Play a move as a player does: its card, its button, or each card of a run."""
    button = page.locator(f'#actions [data-move="{move}"]')
    cards = [page.locator(f'#hand [data-card="{c}"]') for c in move.split("+")]
    targets = [button] if button.count() else cards
    for target in targets:
        target.tap() if phone else target.click()


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
@pytest.mark.parametrize("lang", ["en", "fi", "de"])
def test_daily_puzzle_right_and_wrong(
    server: Server, browser: Browser, lang: str, phone: bool
) -> None:
    device = "phone" if phone else "desktop"
    for right in (True, False):
        page = page_of(browser, lang, phone)
        watch = Watch(page)
        page.goto(f"{server.url}/puzzles?lang={lang}")
        puzzle = shown_puzzle(page)
        if right:
            shot(page, f"puzzles-daily-{device}-{lang}")
        move = (
            puzzle.answer[0]
            if right
            else next(str(m) for m in puzzle.view["legal_moves"] if m != puzzle.answer[0])
        )
        play(page, move, phone)
        verdict = page.locator("#verdict")
        verdict.wait_for()
        title = page.locator("#verdict-title").inner_text()
        assert title == (RIGHT if right else WRONG)[lang]
        explanation = page.locator("#verdict-explanation")
        assert explanation.get_attribute("data-text") == puzzle.stored["explanation"][lang]
        assert explanation.locator(".chip").count() > 0  # its cards as the table's chips
        assert verdict.get_attribute("class") == f"panel verdict {'right' if right else 'wrong'}"
        themes = page.locator("#verdict-themes .theme").all_inner_texts()
        assert len(themes) == len(puzzle.themes)
        shot(page, f"puzzles-{'right' if right else 'wrong'}-{device}-{lang}")
        if phone:
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], width
        page.locator("#next-puzzle").click()
        page.locator(f'body:not([data-puzzle="{puzzle.id}"])').wait_for(state="attached")
        assert page.locator("#verdict").is_hidden()
        assert watch.problems == []
        page.context.close()


def test_a_signed_in_player_sees_the_rating_change(server: Server, browser: Browser) -> None:
    page = page_of(browser, "en", False)
    name = f"Solver{next(NUMBERS)}"
    page.goto(f"{server.url}/account?lang=en")
    page.fill("#register-name", name)
    page.fill("#register-password", PASSWORD)
    page.locator("#register-form button[type=submit]").click()
    page.locator("#me-link", has_text=name).wait_for()
    page.goto(f"{server.url}/?lang=en")
    page.click("#puzzles-link")
    puzzle = shown_puzzle(page)
    assert "Rated" in page.locator("#puzzle-rated").inner_text()
    play(page, puzzle.answer[0], False)
    page.locator("#verdict").wait_for()
    rating = page.locator("#verdict-rating")
    assert "Your puzzle rating" in rating.inner_text() and rating.get_attribute("class") == "up"
    shot(page, "puzzles-rated-desktop-en")
    page.goto(f"{server.url}/players/{name}?lang=en")
    page.locator("#puzzle-rating", has_text="Puzzle rating").wait_for()
    shot(page, "puzzles-profile-desktop-en")
    page.context.close()
