"""The web table on a desktop, played with the keyboard only.

A whole game of each game, against instant random bots on seeded deals, with nothing but
the keyboard: *Skip to your hand*, the arrow keys within the hand and within the move
buttons, Enter to play, Tab from the hand to the buttons (in a phase of sequences a card
is selected, then Play). After every move the focus must be back in the hand, and it
never rests on the page's body while the game is played (watched every frame; it did
once the hand was empty after the last card of Mattis's phase 1). Before each of our
moves the page is at the top (nothing scrolled) and the trick (and the trick just won),
every card of the hand, every move button and the status line lie inside the viewport;
the side column (the log) stays inside it too and scrolls on its own. Each game is
played at one of 1280×800, 1366×768 and 1920×1080 and checked at the two others every
few moves (the window resized and back). Screenshots of each game at 1280×800 go to
``test-artifacts/desktop-*.png``.

Mückenstich without memory aids keeps a finished trick face up for at least 1.6 s, even
when its winner leads the next trick at once (item 6).

Without Chromium or Playwright these tests skip with the reason; under ``CI=true`` they
fail instead (as in tests/test_web_e2e.py).
"""

from __future__ import annotations

import itertools
import json
from typing import TYPE_CHECKING, Any

import pytest

import tikki
from tests.test_web_e2e import (
    ARTIFACTS,
    Browser,
    Page,
    Server,
    Watch,
    board,
    board_data,
    browser,
    choose,
    hold_tricks,
    serving,
)
from tests.test_web_phone import open_table

__all__ = ["browser"]

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

SIZES: dict[str, ViewportSize] = {
    "1280x800": {"width": 1280, "height": 800},
    "1366x768": {"width": 1366, "height": 768},
    "1920x1080": {"width": 1920, "height": 1080},
}
# game, players, variant, options, seed, the size it is played at
GAMES: list[tuple[str, int, str, dict[str, Any], int, str]] = [
    ("myllymatti", 3, "standard", {"runs": True}, 11, "1366x768"),
    ("mattis", 3, "standard", {}, 5, "1280x800"),
    ("mueckenstich", 3, "standard", {}, 3, "1920x1080"),
]
MAX_TURNS = 400
OTHER_SIZES_EVERY = 4
"""Our moves between two checks at the other two sizes."""

LAYOUT_JS = """() => {
  window.scrollTo(0, 0);
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right};
  };
  const shown = (el) => el && el.getClientRects().length > 0 && el.offsetHeight > 0;
  const parts = {};
  const status = document.querySelector('#status');
  if (shown(status)) parts.status = box(status);
  document.querySelectorAll('#centre .trick').forEach((el, i) => {
    if (shown(el) && !el.closest('details:not([open])')) parts['trick' + i] = box(el);
  });
  document.querySelectorAll('#hand .hand-card').forEach((el, i) => {
    parts['card' + i] = box(el);
  });
  document.querySelectorAll('#actions button').forEach((el, i) => {
    parts['button' + i] = box(el);
  });
  const side = document.querySelector('.side-col');
  const log = document.querySelector('#log-scroll');
  return {
    vw: innerWidth, vh: innerHeight, scrollY: window.scrollY,
    pageWidth: document.documentElement.scrollWidth,
    parts, side: box(side), logOverflow: getComputedStyle(log).overflowY,
    hand: document.querySelectorAll('#hand .hand-card').length,
    done_tricks: document.querySelectorAll('#centre .trick-done').length,
  };
}"""


server = serving("desktop", "desktop.sqlite")


def check_fit(page: Page, where: str) -> dict[str, Any]:
    """Assert that trick, hand, buttons and status lie in the viewport at the top of the
    page, and that the side column does too (on failure the screen goes to
    ``test-artifacts/desktop-failure.png``)."""
    out: dict[str, Any] = page.evaluate(LAYOUT_JS)
    try:
        vw, vh = out["vw"], out["vh"]
        assert out["pageWidth"] <= vw, f"{where}: the page is {out['pageWidth']}px wide"
        for name, b in out["parts"].items():
            inside = b["top"] >= 0 and b["bottom"] <= vh + 0.5
            inside = inside and b["left"] >= 0 and b["right"] <= vw + 0.5
            assert inside, f"{where}: {name} {b} is outside the {vw}x{vh} viewport"
        assert out["side"]["bottom"] <= vh + 0.5, f"{where}: the side column {out['side']}"
        assert out["logOverflow"] in ("auto", "scroll"), f"{where}: the log does not scroll"
    except AssertionError:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "desktop-failure.png"))
        raise
    return out


REFIT_JS = """() => {
  // the page refits the hand on a timer set by its resize listener (hand.js: 100 ms after
  // the last resize); a timer set while a resize event is dispatched is set here with no
  // delay, so the refit comes at once, and a timer of ours, set after the page's own (its
  // listener came first), fires after it
  const setTimer = window.setTimeout;
  window.setTimeout = (fn, ms, ...args) =>
    setTimer(fn, window.event && window.event.type === 'resize' ? 0 : ms, ...args);
  window.__refit = new Promise((done) => {
    const onResize = () => {
      removeEventListener('resize', onResize);
      window.setTimeout = setTimer;
      setTimer(done, 0);
    };
    addEventListener('resize', onResize);
  });
}"""


def resize(page: Page, viewport: ViewportSize) -> None:
    """Set the viewport's size and wait until the page has refitted the hand to it."""
    if page.viewport_size == viewport:
        return
    page.evaluate(REFIT_JS)
    page.set_viewport_size(viewport)
    page.evaluate("() => window.__refit")


def check_other_sizes(page: Page, played_at: str, where: str) -> None:
    """Check the fit at the sizes the game is not played at, then resize back."""
    for size, viewport in SIZES.items():
        if size == played_at:
            continue
        resize(page, viewport)
        check_fit(page, f"{where} at {size}")
    resize(page, SIZES[played_at])


# ---------------------------------------------------------------- the keyboard

FOCUS_JS = """(group) => {
  const box = document.querySelector(group);
  const items = [...box.querySelectorAll('button')]
    .filter((b) => group === '#hand' || !b.disabled);
  return {
    items: items.map((b) => b.dataset.card || b.id || b.dataset.move),
    at: items.indexOf(document.activeElement),
  };
}"""


WATCH_FOCUS_JS = """() => {
  // every frame while the game is played: where the focus is, if not in the hand or the
  // buttons (a render that drops it and gives it back in the same task is never seen)
  window.__focusLost = [];
  const look = () => {
    const b = document.querySelector('#board');
    if (b.dataset.status !== 'playing' || document.querySelector('#you').hidden) return;
    const el = document.activeElement;
    if (el && el.closest('#hand, #actions')) return;
    const lost = window.__focusLost;
    const what = [b.dataset.seq, b.dataset.phase, el ? el.tagName + '#' + el.id : 'none',
                  [...document.querySelectorAll('#log-list li')].slice(-2)
                    .map((li) => li.textContent).join(' | ')];
    if (!lost.length || lost[lost.length - 1][0] !== what[0]) lost.push(what);
  };
  const tick = () => { look(); requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
}"""


def focus_in(page: Page) -> str:
    """Where the focus is: ``hand``, ``actions``, ``over`` (the game has ended: the
    result's title takes the focus) or the active element's tag; read at one moment, so a
    bot's last move arriving in between cannot make the end look like a lost focus."""
    where: str = page.evaluate(
        """() => { const el = document.activeElement;
                   if (!document.querySelector('#result').hidden) return 'over';
                   return el.closest('#hand') ? 'hand' : el.closest('#actions') ? 'actions'
                          : el.tagName; }"""
    )
    return where


def arrow_to(page: Page, group: str, key: str) -> None:
    """Move the focus within ``group`` (``#hand`` or ``#actions``) to the item whose card,
    move or id is ``key``, with the arrow keys only."""
    got = page.evaluate(FOCUS_JS, group)
    items, at = got["items"], got["at"]
    assert at >= 0, f"the focus is not in {group}: {focus_in(page)}"
    target = items.index(key)
    arrow = "ArrowRight" if target > at else "ArrowLeft"
    for _ in range(abs(target - at)):
        page.keyboard.press(arrow)
    assert page.evaluate(FOCUS_JS, group)["at"] == target, (group, key, items)


def key_move(page: Page, move: str, legal: list[str], where: str = "") -> None:
    """Make ``move`` with the keyboard: cards by the arrow keys and Enter in the hand
    (several cards, then Tab to the buttons and Play), a button by Tab, arrows, Enter."""
    empty = not page.locator("#hand .hand-card").count()  # then the buttons have it
    assert focus_in(page) == ("actions" if empty else "hand"), f"{where}: focus {focus_in(page)}"
    words = move.split(" ")
    cards = move.split("+") if len(words) == 1 else words[1:]
    is_card_move = (len(words) == 1 and move not in ("stock", "take", "pass")) or words[0] in (
        "slough",
        "discard",
    )
    if not is_card_move:
        if not empty:
            page.keyboard.press("Tab")
        arrow_to(page, "#actions", move)
        page.keyboard.press("Enter")
        return
    for card in cards:
        arrow_to(page, "#hand", card)
        page.keyboard.press("Enter")
    in_run = any(card in m.split("+") for m in legal if "+" in m for card in cards)
    selected = page.locator("#hand .hand-card.selected").count() > 0
    if "+" in move or in_run or selected:  # a phase of sequences selects every card
        assert page.get_attribute("#play-selected", "data-move") == move
        page.keyboard.press("Tab")
        arrow_to(page, "#actions", "play-selected")
        page.keyboard.press("Enter")


def play_by_keyboard(page: Page, game: str, size: str) -> dict[str, int]:
    """Play to the end with the keyboard, checking the fit before each of our moves."""
    stats = {"turns": 0, "other_sizes": 0, "done_tricks": 0, "max_hand": 0}
    phases: set[str] = set()
    shot_due = True
    page.focus("a.skip")  # the page's first tab stop: "Skip to your hand"
    page.keyboard.press("Enter")
    page.evaluate(WATCH_FOCUS_JS)
    for turns in range(MAX_TURNS):
        page.wait_for_selector(
            "#board[data-turn=you][data-status=playing], #board[data-status=finished]",
            timeout=30_000,
        )
        data = board_data(page)
        if data["status"] == "finished":
            break
        phase = data["phase"]
        where = f"{game} {size} turn {turns} ({phase})"
        out = check_fit(page, where)
        stats["max_hand"] = max(stats["max_hand"], out["hand"])
        stats["done_tricks"] += out["done_tricks"]
        if phase not in phases or turns % OTHER_SIZES_EVERY == 0:
            check_other_sizes(page, size, where)
            stats["other_sizes"] += 1
        if shot_due and phase not in phases and phases:  # the second phase, at 1280x800
            resize(page, SIZES["1280x800"])
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"desktop-1280x800-{game}.png"))
            resize(page, SIZES[size])
            shot_due = False
        phases.add(phase)
        seq = data["seq"]
        legal = json.loads(data["legal"])
        move = choose(legal)
        key_move(page, move, legal, where)
        page.wait_for_function("s => document.querySelector('#board').dataset.seq !== s", arg=seq)
        if board(page, "status") == "playing" and page.locator("#you").is_visible():
            focus = focus_in(page)  # "over": a bot's move ended the game just now
            assert focus in ("hand", "actions", "over"), f"{where}: after {move}: on {focus}"
        stats["turns"] = turns + 1
    else:
        pytest.fail(f"{game}: no end after {MAX_TURNS} of our moves")
    lost = page.evaluate("window.__focusLost")
    assert not lost, f"{game}: the focus left the hand and the buttons: {lost}"
    return stats


def test_whole_games_by_keyboard_fit_a_desktop(server: Server, browser: Browser) -> None:
    """Every game by keyboard only; trick, hand and buttons in view at each desktop size."""
    seen = {}
    for game, players, variant, options, seed, size in GAMES:
        context = browser.new_context(viewport=SIZES[size])
        page = context.new_page()
        watch = Watch(page)
        open_table(page, server.url, game, players, variant, options, seed)
        seen[game] = play_by_keyboard(page, game, size)
        page.wait_for_selector("#result:not([hidden])")
        watch.check()
        context.close()
    for game, stats in seen.items():
        assert stats["turns"] > 5 and stats["other_sizes"] >= 2, (game, stats)
    assert seen["myllymatti"]["max_hand"] >= 18, seen  # a big phase-2 hand fits too
    assert sum(s["done_tricks"] for s in seen.values()) > 5, seen


WATCH_TRICKS_JS = """() => {
  window.__tricks = {};
  const seen = window.__tricks;
  const look = () => {
    const now = performance.now();
    const el = document.querySelector('#centre .trick-done');
    const up = el && !el.querySelector('.back') ? el.dataset.key : null;
    for (const [key, t] of Object.entries(seen)) if (key !== up && t.end === null) t.end = now;
    if (up && !seen[up]) seen[up] = {start: now, end: null};
  };
  new MutationObserver(look).observe(document.body, {subtree: true, childList: true});
}"""


def test_mueckenstich_tricks_stay_face_up(server: Server, browser: Browser) -> None:
    """Without memory aids a finished trick is face up for at least 1.6 s, also when
    its winner leads the next trick at once (instant bots here): it turns face down (or
    leaves) only after that, unless we move first."""
    context = browser.new_context(viewport=SIZES["1280x800"])
    hold_tricks(context, 1600)
    # The page's clock (its timers, Date.now, performance.now) moves only when the test
    # says: the looks below take no real time, and the hold is measured on that clock.
    context.clock.install()
    page = context.new_page()
    watch = Watch(page)
    open_table(page, server.url, "mueckenstich", 3, "standard", {}, 8)
    page.evaluate(WATCH_TRICKS_JS)
    for _ in range(9):
        page.wait_for_selector("#board[data-turn=you][data-status=playing]", timeout=30_000)
        page.clock.run_for(1700)  # a player looks before moving (a move ends the hold)
        seq = board(page, "seq")
        legal = json.loads(board(page, "legal"))
        move = choose(legal)
        if move.split(" ")[0] in ("trump", "double", "drop"):
            page.click(f"#actions [data-move='{move}']")
        else:
            card = move.split(" ")[-1]
            page.locator(f"#hand .hand-card.legal[data-card='{card}']").click()
        page.wait_for_function("s => document.querySelector('#board').dataset.seq !== s", arg=seq)
    page.clock.run_for(1800)
    tricks = page.evaluate("() => window.__tricks")
    ended = [t["end"] - t["start"] for t in tricks.values() if t["end"] is not None]
    assert len(ended) >= 3, tricks
    assert min(ended) >= 1550, f"face up for {sorted(ended)} ms"
    watch.check()
    context.close()


def test_lobby_errors_stay_beside_the_control(server: Server, browser: Browser) -> None:
    """A refused create shows its whole (German) error beside
    the seed field and the Create button, and keeps it (no timer) until the player edits
    the form; a missing name is said beside the button pressed and the name field; the
    three Rules links have distinct accessible names."""
    context = browser.new_context(viewport=SIZES["1280x800"])
    page = context.new_page()
    page.clock.install()  # the page's timers run only when the test says so
    watch = Watch(page)
    page.goto(f"{server.url}/?lang=de")
    page.wait_for_selector("a[data-rules]")
    names = page.eval_on_selector_all("a[data-rules]", "els => els.map((a) => a.ariaLabel)")
    games = len(tikki.games())  # a plug-in installed beside has its own link
    assert len(names) == games and len(set(names)) == games, names
    assert all(n.startswith("Regeln") for n in names), names
    page.fill("#player-name", "Anna")
    page.check("input[name=game][value=myllymatti]")
    page.click("details:has(#seed) > summary")
    page.fill("#seed", "9" * 39)  # above the largest seed: said beside the field
    page.click("#create-btn")
    seed_error = page.locator("#seed-error")
    seed_error.wait_for()
    said = seed_error.inner_text()
    assert said.startswith("Ein Startwert ist eine ganze Zahl von 0 bis 3402823"), said
    assert page.get_attribute("#seed", "aria-invalid") == "true"
    page.fill("#seed", "12")  # the player acts: the error goes
    assert not page.locator("#create-form .field-error").count()
    # a refusal from the server: beside the Create button, whole, and it stays
    refusal = "der Server hat gerade zu viele Tische: versuche es in einer Minute noch einmal"
    page.route(
        "**/api/tables",
        lambda route: route.fulfill(
            status=429,
            json={"detail": {"code": "too_many_tables", "message": refusal}},
        ),
    )
    page.click("#create-btn")
    beside = page.locator("#create-btn-error")
    beside.wait_for()
    assert beside.inner_text() == f"Der Tisch konnte nicht angelegt werden: {refusal}"
    assert page.get_attribute("#create-btn", "aria-describedby") == "create-btn-error"
    button, error = page.locator("#create-btn").bounding_box(), beside.bounding_box()
    assert button and error and 0 <= error["y"] - (button["y"] + button["height"]) < 40
    page.clock.run_for(20_000)  # no timer hides it
    assert beside.is_visible() and page.locator("#notice").is_hidden()
    page.unroute("**/api/tables")
    page.fill("#seed", "")  # the player acts: the error goes
    assert not page.locator("#create-form .field-error").count()
    page.click("#create-btn")
    take = page.locator("#created [data-take='0']")
    take.wait_for()
    page.fill("#player-name", "")
    take.click()
    assert page.locator("#player-name-error").inner_text() == "Bitte gib zuerst deinen Namen ein."
    assert page.locator("#created .field-error").count() == 1
    watch.problems = [p for p in watch.problems if "status of 429" not in p]  # ours, faked
    watch.check()
    context.close()


SLOUGH_WHY = {"en": "you are rid of", "fi": "pääset eroon", "de": "bist du also los"}
SEAT_ONE = {"en": "seat 1", "fi": "paikka 1", "de": "Platz 1"}


def test_rules_pages_in_players_words(server: Server, browser: Browser) -> None:
    """Every rules page, in each language, without protocol or terminal
    spelling (no code at all: no `stock`, `slough 7H`, `war_match`, `max_moves`), seats
    counted from 1, why one sloughs in Mattis, and language links with room (44 px
    high, apart)."""
    context = browser.new_context(viewport=SIZES["1280x800"])
    page = context.new_page()
    watch = Watch(page)
    for game in ("myllymatti", "mattis", "mueckenstich"):
        for lang in ("en", "fi", "de"):
            page.goto(f"{server.url}/rules/{game}?lang={lang}")
            where = f"/rules/{game}?lang={lang}"
            main = page.locator("main.rules")
            text = main.inner_text()
            assert main.locator("code").count() == 0, (
                where,
                main.locator("code").first.inner_text(),
            )
            for word in ("slough 7", "discard 7", "trump G", "war_match", "max_moves", "= round"):
                assert word not in text, (where, word)
            assert not [w for w in ("seat 0", "paikka 0", "Platz 0") if w in text], where
            if game != "mueckenstich":
                assert SEAT_ONE[lang] in text, (where, SEAT_ONE[lang])
            if game == "mattis":
                assert SLOUGH_WHY[lang] in text, where
            links = page.locator(".rules-languages a")
            boxes = [links.nth(i).bounding_box() for i in range(links.count())]
            assert len(boxes) == 3 and all(b and b["height"] >= 44 for b in boxes), boxes
            gaps = [
                b2["x"] - (b1["x"] + b1["width"])
                for b1, b2 in itertools.pairwise(boxes)
                if b1 and b2
            ]
            assert min(gaps) >= 8, gaps
    page.screenshot(path=str(ARTIFACTS / "rules-page-de.png"), full_page=True)
    watch.check()
    context.close()
