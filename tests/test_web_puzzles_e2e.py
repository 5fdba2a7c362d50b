"""The puzzles page in Chromium as a new player meets it: today's puzzle drawn as at the
table, solved right by clicking the answer's card (or move button) and wrong by another,
in English, Finnish and German, on a desktop (1280x800) and a phone (390x844, touch); the
verdict shows the explanation in the page's language, the themes and "Next puzzle"; a
signed-in player sees the rating change.  Screenshots go to ``test-artifacts/``.  Skips
like tests/test_web_e2e.py without Chromium (never under ``CI=true``)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from tests import test_web_e2e as e2e
from tests._web import DESKTOP, page_of, sign_up
from tests.test_web_e2e import PHONE, Browser, Server, Watch, shot
from tikki.server.puzzles.catalogue import Puzzle, catalogue

if TYPE_CHECKING:
    from playwright.sync_api import Page

server = e2e.serving("web-puzzles")
browser = e2e.browser

RIGHT = {"en": "Right!", "fi": "Oikein!", "de": "Richtig!"}
WRONG = {"en": "Not this time.", "fi": "Ei tällä kertaa.", "de": "Diesmal nicht."}


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
    play_button = page.locator(f'#play-selected[data-move="{move}"]')
    if play_button.count():  # one card of a run's cards: the selection is played
        play_button.tap() if phone else play_button.click()


def solve(page: Page, puzzle: Puzzle, phone: bool, moves: list[str] | None = None) -> None:
    """Play ``moves`` (the answer's by default) a step at a time: after a right move that
    is not the last the page shows the others' replies and the next position."""
    moves = list(puzzle.answer) if moves is None else moves
    for k, move in enumerate(moves):
        play(page, move, phone)
        if k < len(moves) - 1:
            page.locator(f'body[data-step="{k + 1}"]').wait_for(state="attached")
            page.locator("#puzzle-step").wait_for()


def last_explanation(puzzle: Puzzle, lang: str) -> str:
    """The explanation of a solved puzzle's last step."""
    steps = puzzle.stored.get("steps") or [puzzle.stored]
    return str(steps[-1]["explanation"][lang])


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
        title = page.locator("#puzzle-title").inner_text()
        mine = page.locator("#seats .seat.mine").bounding_box()  # the solver's seat in view
        assert (
            mine is not None and mine["x"] + mine["width"] <= (PHONE if phone else DESKTOP)["width"]
        )
        assert not re.search(r"\d{4}-\d\d-\d\d", title), title  # the day in the page's words
        if right:
            shot(page, f"puzzles-daily-{device}-{lang}")
        wrong = next(str(m) for m in puzzle.view["legal_moves"] if m != puzzle.answer[0])
        solve(page, puzzle, phone, None if right else [wrong])
        verdict = page.locator("#verdict")
        verdict.wait_for()
        title = page.locator("#verdict-title").inner_text()
        assert title == (RIGHT if right else WRONG)[lang]
        explanation = page.locator("#verdict-explanation")
        expected = last_explanation(puzzle, lang) if right else puzzle.stored["explanation"][lang]
        assert explanation.get_attribute("data-text") == expected
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


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_take_and_runs_are_played_as_at_the_table(
    server: Server, browser: Browser, phone: bool
) -> None:
    """The puzzles whose answer is no single card: Take (a button), a run (its cards one
    after the other), and a run's first card alone (selected, then Play)."""
    page = page_of(browser, "en", phone)
    watch = Watch(page)
    sign_up(page, server.url)  # an account's own rate of attempts
    every = [p for p in catalogue().by_id.values() if len(p.answer) == 1]
    take = next(p for p in every if p.answer[0] == "take")
    runs = [p for p in every if "+" in p.answer[0]][:3]  # within the 20 attempts a minute
    tries = [(take, "take", True)] + [(p, p.answer[0], True) for p in runs]
    tries += [(p, p.answer[0].split("+")[0], False) for p in runs]
    for puzzle, move, right in tries:
        page.goto(f"{server.url}/puzzles/{puzzle.id}?lang=en")
        assert shown_puzzle(page).id == puzzle.id
        play(page, move, phone)
        page.locator("#verdict").wait_for()
        assert page.locator("#verdict-title").inner_text() == (RIGHT if right else WRONG)["en"]
        assert (
            page.evaluate("document.documentElement.scrollWidth")
            <= (PHONE if phone else DESKTOP)["width"]
        )
    shot(page, f"puzzles-run-{'phone' if phone else 'desktop'}-en")
    assert watch.problems == []
    page.context.close()


def test_a_signed_in_player_sees_the_rating_change(server: Server, browser: Browser) -> None:
    page = page_of(browser, "en", False)
    name = sign_up(page, server.url)
    page.goto(f"{server.url}/?lang=en")
    page.click("#puzzles-link")
    puzzle = shown_puzzle(page)
    assert "Rated" in page.locator("#puzzle-rated").inner_text()
    solve(page, puzzle, False)
    page.locator("#verdict").wait_for()
    rating = page.locator("#verdict-rating")
    assert rating.get_attribute("class") == "up"
    # in words, as the site shows game ratings (one decimal, provisional marked); a
    # first puzzle is no "2.9 (+2.9)"
    said = re.match(
        r"Your puzzle rating went up by (\d+\.\d), from 0\.0 to (\d+\.\d) \(provisional\) · "
        r"This puzzle's rating: −?\d+\.\d$",
        rating.inner_text(),
    )
    assert said is not None, rating.inner_text()
    assert said[1] == said[2]
    shot(page, "puzzles-rated-desktop-en")
    page.goto(f"{server.url}/players/{name}?lang=en")
    page.locator("#puzzle-rating", has_text="Puzzle rating").wait_for()
    shot(page, "puzzles-profile-desktop-en")
    page.context.close()


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_a_puzzle_of_two_moves_a_step_at_a_time(
    server: Server, browser: Browser, phone: bool
) -> None:
    """A shipped puzzle of two moves, in Finnish: the right first move shows the others'
    replies and the next position; the second right move solves it, each step explained;
    a wrong second move fails the attempt."""
    device = "phone" if phone else "desktop"
    two = next(p for p in catalogue().by_id.values() if len(p.answer) == 2)
    step = two.stored["steps"][0]
    for right in (True, False):
        page = page_of(browser, "fi", phone)
        watch = Watch(page)
        page.goto(f"{server.url}/puzzles/{two.id}?lang=fi")
        assert shown_puzzle(page).id == two.id
        assert "2" in page.locator("#puzzle-task").inner_text()
        solve(page, two, phone, [two.answer[0]])
        page.locator('body[data-step="1"]').wait_for(state="attached")
        page.locator("#puzzle-step").wait_for()
        assert page.locator("#step-replies li").count() == len(step["replies"])
        assert (
            page.locator("#step-right").get_attribute("data-text")
            == (two.stored["explanation"]["fi"])
        )
        hand = sorted(page.locator("#hand [data-card]").evaluate_all(
            "bs => bs.map(b => b.dataset.card)"))  # fmt: skip
        assert hand == sorted(step["view"]["hand"])  # the next position, as the deal went on
        assert page.locator("#verdict").is_hidden()
        if right:
            shot(page, f"puzzles-step-{device}-fi")
        wrong = next(m for m in step["view"]["legal_moves"] if m != two.answer[1])
        play(page, two.answer[1] if right else wrong, phone)
        page.locator("#verdict").wait_for()
        assert page.locator("#verdict-title").inner_text() == (RIGHT if right else WRONG)["fi"]
        assert page.locator("#verdict-steps li").count() == 2
        assert page.locator("#puzzle-step").is_hidden()
        assert (
            page.evaluate("document.documentElement.scrollWidth")
            <= (PHONE if phone else DESKTOP)["width"]
        )
        shot(page, f"puzzles-two-moves-{'right' if right else 'wrong'}-{device}-fi")
        assert watch.problems == []
        page.context.close()


@pytest.mark.parametrize("lang", ["fi", "de"])
def test_the_puzzle_rating_takes_the_languages_decimal_comma(
    server: Server, browser: Browser, lang: str
) -> None:
    """A Finnish or German player reads their puzzle rating with a decimal comma
    ("nousi 2,9: oli 0,0, nyt 2,9"), as the page's dates already follow the language;
    it read "2.9" (issue 55's tour)."""
    page = page_of(browser, lang, True)
    name = sign_up(page, server.url, lang=lang)
    page.goto(f"{server.url}/puzzles?lang={lang}")
    solve(page, shown_puzzle(page), True)
    rating = page.locator("#verdict-rating")
    rating.wait_for()
    said = rating.inner_text()
    assert re.search(r"\d,\d", said) and not re.search(r"\d\.\d", said), said
    page.goto(f"{server.url}/players/{name}?lang={lang}")
    shown = page.locator("#puzzle-rating")
    shown.wait_for()
    assert re.search(r"\d,\d", shown.inner_text()), shown.inner_text()
    page.context.close()
