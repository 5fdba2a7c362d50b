"""The web table on phones and the phase-2 screenshots.

At 390×844 and 360×740 (touch, mobile), a whole game of each game is played by tapping,
against instant random bots on seeded deals. Before every one of our moves the page is
at the top (nothing scrolled) and these must all lie inside the viewport: the trick
(and the trick just won), Mückenstich's scoring panel, the status line, the hand and the
move buttons. The hand is one row (every card at the same top), and at least 24 px of
each card shows, or the hand is in its *fan* mode, where the card under the finger is
lifted whole (checked with real touch events).

Phone and desktop screenshots of each game's phase 2 go to ``test-artifacts/phase2/``
(kept in the repository; this test rewrites them).

Without Chromium or Playwright these tests skip with the reason; under ``CI=true`` they
fail instead (as in tests/test_web_e2e.py).
"""

from __future__ import annotations

import itertools
import json
import math
import time
from typing import TYPE_CHECKING, Any

import pytest

from tests.test_web_e2e import (
    ARTIFACTS,
    DESKTOP,
    Browser,
    Error,
    Page,
    Server,
    Watch,
    board,
    board_data,
    browser,
    choose,
    click_move,
    serving,
)

__all__ = ["browser"]  # the fixture, shared with test_web_e2e (its quick trick hold too)


SHOTS = ARTIFACTS / "phase2"
if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

PHONES: dict[str, ViewportSize] = {
    "390x844": {"width": 390, "height": 844},
    "360x740": {"width": 360, "height": 740},
}
MIN_STRIP = 24
"""The least width of each hand card left showing (px), unless the hand fans."""
MAX_TURNS = 400

# game, players, variant, options, seed: one table per phone size and game
GAMES: dict[str, list[tuple[str, int, str, dict[str, Any], int]]] = {
    "390x844": [
        ("myllymatti", 3, "standard", {"runs": True}, 11),
    ],
    "360x740": [
        ("myllymatti", 4, "koira", {}, 7),
        ("mattis", 3, "standard", {}, 5),
        ("mueckenstich", 3, "standard", {}, 8),
    ],
}

# Mattis's big phase-2 hands and Mückenstich's score sheet are played on the narrower phone
# only (at 390 px they took half of this file's time and found nothing the 360 px games do
# not); the 390 px phone plays the runs variant.
DESKTOP_GAMES = [
    *GAMES["390x844"],
    ("mattis", 3, "standard", {}, 5),
    ("mueckenstich", 3, "standard", {}, 3),
]
"""The tables whose phase 2 is shot at desktop size: one of each game."""

# When a game's "phase 2" screenshot is due (a JS test on the page).
PHASE2 = {
    "myllymatti": "document.querySelector('#board').dataset.phase === 'shed'",
    "mattis": "document.querySelector('#board').dataset.phase === 'shed'",
    "mueckenstich": "document.querySelectorAll('#sheet tbody th').length >= 1",
}

LAYOUT_JS = """() => {
  window.scrollTo(0, 0);
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height};
  };
  const shown = (el) => el && el.getClientRects().length > 0 && el.offsetHeight > 0;
  const parts = {};
  for (const [name, sel] of [['status', '#status'], ['hand', '#hand'],
                             ['actions', '#actions'], ['scoring', '#centre .scoring-choices']]) {
    const el = document.querySelector(sel);
    if (shown(el)) parts[name] = box(el);
  }
  document.querySelectorAll('#centre .trick').forEach((el, i) => {
    if (shown(el) && !el.closest('details:not([open])')) parts['trick' + i] = box(el);
  });
  const hand = document.querySelector('#hand');
  const cards = [...hand.querySelectorAll(':scope > li')].filter((li) => li.querySelector('.card'))
    .map((li) => box(li));
  return {
    vw: innerWidth, vh: innerHeight, scrollY: window.scrollY,
    pageWidth: document.documentElement.scrollWidth,
    parts, cards, fan: hand.classList.contains('fan'),
  };
}"""


server = serving("phone", "phone.sqlite")


def open_table(
    page: Page,
    base: str,
    game: str,
    players: int,
    variant: str,
    options: dict[str, Any],
    seed: int,
) -> str:
    """Create a table with seat 1 open and random bots elsewhere; join it by its invite
    link on ``page``. Returns the table id."""
    seats = [{"kind": "open"}] + [{"kind": "bot", "bot": "random"}] * (players - 1)
    body = {
        "game": game,
        "players": players,
        "seats": seats,
        "variant": variant,
        "options": options,
        "seed": str(seed),
    }
    answer = page.request.post(base + "/api/tables", data=body)
    assert answer.ok, answer.text()
    data = answer.json()
    url = next(i["url"] for i in data["invites"] if i["seat"] == 0)
    page.goto(url if url.startswith("http") else base + url)
    page.fill("#join-name", "Anna")
    page.click("#join-form button[type=submit]")
    page.wait_for_selector("#board[data-status=playing]", timeout=30_000)
    table_id: str = data["table"]["id"]
    return table_id


def check_layout(page: Page, where: str) -> dict[str, Any]:
    """Assert the phone layout: everything that matters on one screen, one-row hand (on
    failure the screen goes to ``test-artifacts/phone-failure.png``)."""
    out: dict[str, Any] = page.evaluate(LAYOUT_JS)
    try:
        assert_layout(out, where)
    except AssertionError:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "phone-failure.png"))
        raise
    return out


def assert_layout(out: dict[str, Any], where: str) -> None:
    """The checks of :func:`check_layout` on the measured boxes."""
    vw, vh = out["vw"], out["vh"]
    assert out["pageWidth"] <= vw, f"{where}: the page is {out['pageWidth']}px wide"
    for name, b in out["parts"].items():
        inside = b["top"] >= 0 and b["bottom"] <= vh + 0.5 and b["left"] >= 0
        inside = inside and b["right"] <= vw + 0.5
        assert inside, f"{where}: {name} {b} is outside the {vw}x{vh} screen"
    for name in ("hand", "actions", "trick0"):
        if out["cards"] or name != "hand":
            assert name in out["parts"] or name == "trick0", f"{where}: no {name} shown"
    cards = out["cards"]
    tops = {round(c["top"]) for c in cards}
    assert len(tops) <= 1, f"{where}: the hand wraps onto {len(tops)} rows"
    if len(cards) > 1:
        strips = [b["left"] - a["left"] for a, b in itertools.pairwise(cards)]
        assert min(strips) > 0, f"{where}: hand cards out of order {strips}"
        if not out["fan"]:
            assert min(strips) >= MIN_STRIP, f"{where}: a card shows only {min(strips):.1f}px"
        assert cards[-1]["right"] <= vw + 0.5, f"{where}: the hand runs off the screen"


LAST_TAP = [0.0, -99.0, -99.0]
DOUBLE_TAP_S = 0.8
"""Two taps on one spot within this time make a double tap, whose second tap the page
ignores (it must not play the next state's card)."""
SAME_SPOT = 30
"""Taps closer than this (px) are on one spot. The page ignores a double tap's second tap
only within 12 px of the first, and Chromium counts no double tap 25 px apart."""
INSET = 0.15
"""How far in from a target's edges (a share of its width and height) a tap may land."""


def _is_fresh(x: float, y: float) -> bool:
    """Whether a tap at (x, y) now is no double tap of the last one."""
    recent = time.monotonic() - LAST_TAP[0] < DOUBLE_TAP_S
    return not recent or math.hypot(x - LAST_TAP[1], y - LAST_TAP[2]) >= SAME_SPOT


def pause_between_taps(x: float, y: float) -> None:
    """Before a tap at (x, y): wait if the last tap was on the same spot, and note it."""
    if not _is_fresh(x, y):
        time.sleep(max(0.0, LAST_TAP[0] + DOUBLE_TAP_S - time.monotonic()))
    LAST_TAP[:] = [time.monotonic(), x, y]


def tap_in(page: Page, left: float, top: float, right: float, bottom: float, at: float) -> None:
    """Tap inside the box: at its middle, ``at`` of its height down, unless that is on the
    spot of the last tap; then where in the box it is not, as a person taps the next
    target under their finger; if the box is too small for that, after a pause."""
    dx, dy = (right - left) * INSET, (bottom - top) * INSET
    xs, ys = (left + dx, (left + right) / 2, right - dx), (top + dy, bottom - dy)
    spots = [((left + right) / 2, top + (bottom - top) * at)]
    spots += [(x, y) for y in ys for x in xs]
    x, y = next((spot for spot in spots if _is_fresh(*spot)), spots[0])
    pause_between_taps(x, y)
    page.touchscreen.tap(x, y)


def tap_at(page: Page, selector: str) -> None:
    """Tap a button (in the middle, unless the last tap was there)."""
    b = page.locator(selector).bounding_box()
    assert b is not None, selector
    tap_in(page, b["x"], b["y"], b["x"] + b["width"], b["y"] + b["height"], 0.5)


def tap_card(page: Page, card: str) -> None:
    """Tap a legal hand card in the strip of it that shows (in the middle, low down,
    unless the last tap was there)."""
    li = page.locator(f"#hand li:has(.hand-card.legal[data-card='{card}'])").first
    b = li.bounding_box()
    assert b is not None, card
    nxt = page.evaluate(
        """(card) => {
          const li = document.querySelector(`#hand .hand-card[data-card='${card}']`).parentElement;
          const next = li.nextElementSibling;
          return next ? next.getBoundingClientRect().left : null;
        }""",
        card,
    )
    right = b["x"] + b["width"] if nxt is None else nxt
    tap_in(page, b["x"], b["y"], right, b["y"] + b["height"], 0.6)


def tap_move(page: Page, move: str, legal: list[str], touch: bool = True) -> None:
    """Make ``move`` by tapping (or clicking, without ``touch``): cards (then Play for a
    run or sequence), or a button."""
    words = move.split(" ")
    cards = move.split("+") if len(words) == 1 else words[1:]
    is_card_move = (len(words) == 1 and move not in ("stock", "take", "pass")) or words[0] in (
        "slough",
        "discard",
    )
    if not is_card_move:
        button = f"#actions [data-move='{move}']"
        if touch:
            tap_at(page, button)
        else:
            page.click(button)
        return
    for card in cards:
        if touch:
            tap_card(page, card)
        else:
            page.locator(f"#hand .hand-card.legal[data-card='{card}']").first.click(
                position={"x": 6, "y": 22}
            )
    in_run = any(card in m.split("+") for m in legal if "+" in m for card in cards)
    selected = page.locator("#hand .hand-card.selected").count() > 0
    if "+" in move or in_run or selected:  # a phase of sequences selects every card
        play = page.locator("#play-selected")
        assert play.get_attribute("data-move") == move, play.inner_text()
        if touch:
            tap_at(page, "#play-selected")
        else:
            play.click()


def check_fan(page: Page, where: str) -> bool:
    """In fan mode, a finger held on a card lifts that card whole: touch the hand with
    real touch events and see the lifted card uncovered. Returns whether it was checked."""
    if not page.evaluate("document.querySelector('#hand').classList.contains('fan')"):
        return False
    li = page.locator("#hand li").nth(1)
    b = li.bounding_box()
    assert b is not None
    x, y = b["x"] + 4, b["y"] + b["height"] * 0.6
    cdp = page.context.new_cdp_session(page)
    point = {"x": x, "y": y, "id": 1}
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    lifted = page.evaluate(
        """([x, y]) => {
          const el = document.querySelector('#hand .under-finger');
          if (!el) return null;
          const r = el.getBoundingClientRect();
          const top = document.elementFromPoint(r.left + r.width / 2, r.top + 6);
          return {card: el.dataset.card, whole: !!top && el.contains(top),
                  width: r.width, x, left: r.left, right: r.right};
        }""",
        [x, y],
    )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchCancel", "touchPoints": []})
    cdp.detach()
    assert lifted, f"{where}: a finger on the fanned hand lifts no card"
    assert lifted["whole"], f"{where}: the lifted card is still covered: {lifted}"
    assert not page.locator("#hand .under-finger").count(), "the lift stays after the touch"
    return True


RANKS = "23456789TJQKA"


def phone_choose(legal: list[str], phase: str) -> str:
    """The test player's move: in phase 1 the highest card (big phase-2 hands, to see the
    hand fan), else as in the desktop tests (:func:`choose`)."""
    cards = [m for m in legal if len(m) == 2 and m[0] in RANKS]
    if phase == "collect" and cards:
        return max(cards, key=lambda m: RANKS.index(m[0]))
    return choose(legal)


def play_phone_game(page: Page, where: str, game: str, shot_name: str) -> dict[str, int]:
    """Play to the end by tapping, checking the layout before each of our moves."""
    stats = {"turns": 0, "fans": 0, "max_hand": 0, "scoring": 0}
    shot_due = True
    for turns in range(MAX_TURNS):
        page.wait_for_selector(
            "#board[data-turn=you][data-status=playing], #board[data-status=finished]",
            timeout=30_000,
        )
        data = board_data(page)
        if data["status"] == "finished":
            break
        out = check_layout(page, f"{where} turn {turns} ({data['phase']})")
        stats["max_hand"] = max(stats["max_hand"], len(out["cards"]))
        stats["scoring"] += "scoring" in out["parts"]
        if shot_due and page.evaluate(PHASE2[game]):
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"{shot_name}.png"))
            shot_due = False
        if out["fan"] and stats["fans"] < 2 and check_fan(page, where):
            stats["fans"] += 1
        seq = data["seq"]
        legal = json.loads(data["legal"])
        move = phone_choose(legal, data["phase"])
        tap_move(page, move, legal)
        try:
            page.wait_for_function(
                "s => document.querySelector('#board').dataset.seq !== s", arg=seq
            )
        except Error:
            page.screenshot(path=str(ARTIFACTS / "phone-failure.png"))
            pytest.fail(f"{where} turn {turns}: {move!r} of {legal} did not happen")
        assert not page.locator("#notice.error:not([hidden])").count(), page.inner_text("#notice")
        stats["turns"] = turns + 1
    else:
        pytest.fail(f"{where}: no end after {MAX_TURNS} of our moves")
    assert not shot_due, f"{where}: phase 2 never came"
    return stats


@pytest.mark.parametrize("size", list(PHONES))
def test_whole_games_fit_a_phone(server: Server, browser: Browser, size: str) -> None:
    """Every game, start to end, on a phone: trick, hand and buttons on one screen, the
    hand on one row with 24 px per card or a fan; Mattis phase 2 with big hands."""
    context = browser.new_context(viewport=PHONES[size], has_touch=True, is_mobile=True)
    page = context.new_page()
    watch = Watch(page)
    seen: dict[str, dict[str, int]] = {}
    for game, players, variant, options, seed in GAMES[size]:
        open_table(page, server.url, game, players, variant, options, seed)
        where = f"{size} {game} {variant}"
        seen[game] = play_phone_game(page, where, game, f"phone-{size}-{game}")
        page.wait_for_selector("#result:not([hidden])")
    watch.check()
    context.close()
    if "mattis" in seen:
        assert seen["mattis"]["max_hand"] >= 18, seen
    if "mueckenstich" in seen:
        assert seen["mueckenstich"]["scoring"] >= 1, f"no scoring panel was checked: {seen}"
    assert sum(s["turns"] for s in seen.values()) > 40, seen


def test_phase2_desktop_screenshots(server: Server, browser: Browser) -> None:
    """Desktop screenshots of each game's phase 2 (the phone ones come from the games
    above); at desktop size too the hand is one row."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    watch = Watch(page)
    for game, players, variant, options, seed in DESKTOP_GAMES:
        open_table(page, server.url, game, players, variant, options, seed)
        for _ in range(MAX_TURNS):
            page.wait_for_selector("#board[data-turn=you][data-status=playing]", timeout=30_000)
            if page.evaluate(PHASE2[game]):
                break
            seq = board(page, "seq")
            legal = json.loads(board(page, "legal"))
            tap_move(page, choose(legal), legal, touch=False)
            page.wait_for_function(
                "s => document.querySelector('#board').dataset.seq !== s", arg=seq
            )
        out = page.evaluate(LAYOUT_JS)
        assert len({round(c["top"]) for c in out["cards"]}) <= 1, f"desktop {game}: hand wraps"
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"desktop-{game}.png"), full_page=True)
    watch.check()
    context.close()


SWIPE_STYLES_JS = """() => {
  const hand = document.querySelector('#hand');
  const out = {};
  for (const fan of [false, true]) {
    hand.classList.toggle('fan', fan);
    const s = getComputedStyle(hand);
    out[fan ? 'fan' : 'row'] = {touch: s.touchAction, overscroll: s.overscrollBehaviorX};
  }
  window.dispatchEvent(new Event('resize'));  // fitHand sets the real mode again
  out.html = getComputedStyle(document.documentElement).overscrollBehaviorX;
  out.body = getComputedStyle(document.body).overscrollBehaviorX;
  return out;
}"""

TARGETS_JS = """() => {
  const sel = '#rules-link, #resign, #actions button, .topbar select';
  return [...document.querySelectorAll(sel)].filter((el) => el.offsetHeight > 0)
    .map((el) => [el.id || el.textContent.trim() || el.tagName, el.getBoundingClientRect().height]);
}"""


def test_phone_swipes_targets_and_top_bar(server: Server, browser: Browser) -> None:
    """At 360×740 (touch), in Myllymatti's phase 2: a sideways
    swipe over the hand (fanned or not) is the page's own, neither scrolling nor going
    back (touch-action, overscroll-behavior, and a real swipe over nine cards); the top
    bar shows the game's whole name; Rules, Resign, the move buttons and the language
    switcher are 44 px high at least; the event line is whole sentences, never cut."""
    context = browser.new_context(viewport=PHONES["360x740"], has_touch=True, is_mobile=True)
    page = context.new_page()
    watch = Watch(page)
    open_table(page, server.url, "myllymatti", 3, "standard", {}, 11)
    for _ in range(MAX_TURNS):
        page.wait_for_selector("#board[data-turn=you][data-status=playing]", timeout=30_000)
        if board(page, "phase") == "shed":
            break
        seq = board(page, "seq")
        legal = json.loads(board(page, "legal"))
        tap_move(page, phone_choose(legal, board(page, "phase")), legal)
        page.wait_for_function("s => document.querySelector('#board').dataset.seq !== s", arg=seq)
    assert board(page, "phase") == "shed"
    styles = page.evaluate(SWIPE_STYLES_JS)
    for mode in ("row", "fan"):
        assert "pan-x" not in styles[mode]["touch"] and styles[mode]["touch"] != "auto", styles
        assert styles[mode]["overscroll"] in ("contain", "none"), styles
    assert styles["html"] == styles["body"] == "none", styles
    # a real swipe from the first card to the ninth (or the last)
    url = page.url
    cards = page.locator("#hand li:has(.hand-card)")
    first, last = cards.first.bounding_box(), cards.nth(min(8, cards.count() - 1)).bounding_box()
    assert first and last
    y = first["y"] + first["height"] * 0.6
    cdp = context.new_cdp_session(page)
    points = [first["x"] + 5 + (last["x"] - first["x"]) * k / 8 for k in range(9)]
    cdp.send(
        "Input.dispatchTouchEvent",
        {"type": "touchStart", "touchPoints": [{"x": points[0], "y": y}]},
    )
    for x in points[1:]:
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchCancel", "touchPoints": []})
    page.wait_for_timeout(300)
    assert page.url == url and page.locator("#board").is_visible()
    assert page.evaluate("() => window.scrollX") == 0
    # the top bar: the game's whole name
    title = page.locator("#title")
    assert title.inner_text() == "Myllymatti"
    assert title.evaluate("el => el.scrollWidth <= el.clientWidth"), "the name is cut"
    # touch targets
    targets = page.evaluate(TARGETS_JS)
    assert any(name == "resign" for name, _h in targets), targets
    small = [(name, h) for name, h in targets if h < 44]
    assert not small, f"touch targets under 44 px: {small}"
    # the event line: no clamp, nothing cut
    line = page.locator("#centre .event-line")
    if line.count():
        clamp, cut = line.evaluate(
            "el => [getComputedStyle(el).webkitLineClamp, el.scrollHeight > el.clientHeight + 1]"
        )
        assert clamp in ("none", "") and not cut, (clamp, cut)
    page.screenshot(path=str(ARTIFACTS / "phone-360x740-phase2.png"))
    watch.check()
    context.close()


SEAT_IN_VIEW_JS = """(seat) => {
  const tile = document.querySelector(`#seats .seat[data-seat="${seat}"]`);
  const row = document.querySelector('#seats').getBoundingClientRect();
  const r = tile.getBoundingClientRect();
  return {left: r.left, right: r.right, rowLeft: row.left, rowRight: row.right,
          vw: innerWidth, acting: tile.classList.contains('acting')};
}"""


@pytest.mark.parametrize("players", [3, 4])
def test_the_seat_to_act_is_on_a_phones_screen(
    server: Server, browser: Browser, players: int
) -> None:
    """At 390x844 (touch) the seats' row is wider than the screen with 3 or 4 players: the
    seat to act is scrolled into view, the last one included (a person there who has not
    moved yet keeps it acting), and our own seat again when it is our turn."""
    far = players - 1
    context = browser.new_context(viewport=PHONES["390x844"], has_touch=True, is_mobile=True)
    page = context.new_page()
    watch = Watch(page)
    seats = [
        {"kind": "open"},
        *[{"kind": "bot", "bot": "random"}] * (players - 2),
        {"kind": "open"},
    ]
    body = {"game": "myllymatti", "players": players, "seats": seats, "seed": str(20 + players)}
    answer = page.request.post(server.url + "/api/tables", data=body)
    assert answer.ok, answer.text()
    created = answer.json()
    table_id, invites = created["table"]["id"], {i["seat"]: i["url"] for i in created["invites"]}
    secret = invites[far].split("#invite=")[1]
    joined = page.request.post(
        f"{server.url}/api/tables/{table_id}/seats/{far}", data={"name": "Bertil", "invite": secret}
    )
    assert joined.ok, joined.text()
    page.goto(server.url + invites[0])
    page.fill("#join-name", "Anna")
    page.click("#join-form button[type=submit]")
    page.wait_for_selector("#board[data-status=playing]", timeout=30_000)
    for _ in range(80):
        page.wait_for_selector(
            f"#board[data-turn=you][data-status=playing], #seats .seat.acting[data-seat='{far}']",
            timeout=30_000,
        )
        acting = page.locator(f"#seats .seat.acting[data-seat='{far}']").count() > 0
        box = page.evaluate(SEAT_IN_VIEW_JS, far if acting else 0)
        inside = box["left"] >= box["rowLeft"] - 0.5 and box["right"] <= box["rowRight"] + 0.5
        if not inside or acting:
            page.screenshot(path=str(ARTIFACTS / f"phone-seats-{players}p.png"))
        assert inside and box["right"] <= box["vw"] + 0.5, f"seat {far if acting else 0}: {box}"
        if acting:
            break
        legal = json.loads(board(page, "legal"))
        seq = board(page, "seq")
        click_move(page, choose(legal), legal)
        page.wait_for_function("s => document.querySelector('#board').dataset.seq !== s", arg=seq)
    else:
        pytest.fail("the last seat never came to act")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONES["390x844"]["width"]
    watch.check()
    context.close()
