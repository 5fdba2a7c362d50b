"""Accounts and a profile in Chromium: two people create accounts on the
account page, play a rated Myllymatti game (moves sent through their browsers' request
contexts, which carry their session cookies), and the profile page lists the game with
its result, opponent and rating change and links to the replay and the analysis; the
leaderboard lists both.  The profile's screenshot goes to ``docs/images/profile.png``.
Skips like tests/test_web_e2e.py without Chromium (never under ``CI=true``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests import test_web_e2e as e2e
from tests.test_web_e2e import DESKTOP, PHONE, Browser, Page, Server, Watch

browser = e2e.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server that takes each browser's address from X-Forwarded-For: two people at one
    rated table from one address are not rated, so each browser here claims its own."""
    extra = ("--forwarded-allow-ips", "127.0.0.1")
    srv = Server(tmp_path_factory.mktemp("web") / "web.sqlite", extra=extra)
    yield srv
    srv.stop()


DOCS_IMAGES = e2e.ROOT / "docs" / "images"
PASSWORD = "a long enough password"


def sign_up(browser: Browser, base: str, name: str, address: str = "10.0.0.1") -> Any:
    headers = {"X-Forwarded-For": address}
    context = browser.new_context(viewport=DESKTOP, locale="en", extra_http_headers=headers)
    page = context.new_page()
    page.goto(f"{base}/account?lang=en")
    page.fill("#register-name", name)
    page.fill("#register-password", PASSWORD)
    page.locator("#register-form button[type=submit]").click()
    page.locator("#me-link", has_text=name).wait_for()
    return page


def test_accounts_rated_game_and_profile(server: Server, browser: Browser) -> None:
    base = server.url
    aino, bernd = sign_up(browser, base, "Anneli"), sign_up(browser, base, "Bernd", "10.0.0.2")
    watch = Watch(aino)
    seats = [{"kind": "open", "anyone": True}, {"kind": "open", "anyone": True}]
    body = {"game": "myllymatti", "seats": seats, "rated": True, "seed": "7"}
    r = aino.request.post(f"{base}/api/tables", data=body)
    assert r.status == 201, r.text()
    table_id = r.json()["table"]["id"]
    tokens = {}
    for seat, page in enumerate((aino, bernd)):
        r = page.request.post(f"{base}/api/tables/{table_id}/seats/{seat}", data={"name": "x"})
        assert r.status == 200, r.text()
        tokens[seat] = (page, r.json()["token"])
    for _turn in range(1000):
        info = aino.request.get(f"{base}/api/tables/{table_id}").json()
        if info["status"] == "finished":
            break
        page, token = tokens[info["to_act"]]
        headers = {"Authorization": f"Bearer {token}"}
        state = page.request.get(f"{base}/api/tables/{table_id}/state", headers=headers).json()
        move = {"move": state["view"]["legal_moves"][0], "seq": state["seq"]}
        page.request.post(f"{base}/api/tables/{table_id}/moves", data=move, headers=headers)
    assert info["status"] == "finished"
    # Anneli's game analysed ("Analyse my game"): its accuracy is kept for her profile
    url = f"{base}/api/tables/{table_id}/analysis/0"
    assert aino.request.post(url).status == 202
    for _poll in range(600):
        job = aino.request.get(url).json()
        if job["status"] != "running":
            break
        aino.wait_for_timeout(200)
    assert job["status"] == "done", job

    aino.goto(f"{base}/players/Anneli?lang=en")
    row = aino.locator("#games tbody tr").first
    row.wait_for()
    assert "Bernd" in row.inner_text()
    assert "→" in row.inner_text(), "the rating change is shown"
    assert aino.locator("#ratings", has_text="provisional").count() == 1
    board = aino.locator("#board")
    board.locator(".bot-line").first.wait_for()  # provisional ratings stay off the board
    assert board.locator("a", has_text="Anneli").count() == 0
    assert aino.locator("#chart polyline.rating-line").count() == 1
    assert aino.locator("#chart circle.rating-dot").count() == 1
    assert aino.locator("#accuracy circle.rating-dot").count() == 1  # accuracy over time
    shown = f"{round(job['analysis']['accuracy'] * 100)}%"
    assert shown in row.inner_text(), (shown, row.inner_text())
    replay = row.locator("a", has_text="Replay")
    assert replay.get_attribute("href") == f"/replay/{table_id}"
    assert row.locator("a", has_text="Analysis").get_attribute("href", timeout=1000)
    DOCS_IMAGES.mkdir(parents=True, exist_ok=True)
    aino.screenshot(path=str(DOCS_IMAGES / "profile.png"), full_page=True)
    replay.click()
    aino.wait_for_url(f"**/replay/{table_id}")
    # the analysis is kept: the profile marks it, and at the table it shows at once
    aino.goto(f"{base}/players/Anneli?lang=en")
    analysed = aino.locator("#games tbody tr").first.locator("a.analysed", has_text="Analysis")
    assert analysed.get_attribute("href") == f"/t/{table_id}?seat=0#analysis"
    seat_token = tokens[0][1]  # the seat was taken through the API: the page gets its token
    aino.evaluate(
        "([id, t]) => localStorage.setItem(`tikki.token.${id}`, t)", [table_id, seat_token]
    )
    analysed.click()
    aino.locator(".analysis-summary").wait_for(timeout=5_000)
    assert aino.locator("#analyse").count() == 0, "the kept analysis is shown without asking"
    assert shown in aino.inner_text(".analysis-summary")
    # the lobby shows the rated option to a signed-in person only
    aino.goto(f"{base}/?lang=en")
    aino.locator("#account-link", has_text="Anneli").wait_for()
    assert aino.locator("#rated-box").is_hidden() is False
    # the rated mark: in the lobby's list of finished tables, and at the table
    aino.select_option("#table-filter", "finished")
    item = aino.locator("#tables li.table-item", has=aino.locator(f'a[href="/replay/{table_id}"]'))
    item.locator(".badge-rated", has_text="Rated").wait_for()
    aino.goto(f"{base}/t/{table_id}?lang=en")
    aino.locator("#title .badge-rated", has_text="Rated").wait_for()
    assert aino.locator("#title").inner_text().startswith("Myllymatti")
    guest = browser.new_page()
    guest.goto(f"{base}/?lang=en")
    guest.locator("#create-btn").wait_for()
    assert guest.locator("#rated-box").is_hidden()
    # the session cookie is out of the page's reach; no secret in the server's log or URLs
    assert "tikki_session" not in aino.evaluate("document.cookie")
    session = next(c["value"] for c in aino.context.cookies() if c["name"] == "tikki_session")
    logged = "".join(server.output)
    assert PASSWORD not in logged and session not in logged and "tikki_session" not in logged
    # on a phone the profile of a player with games stays within the screen: its wide
    # tables scroll in their own box (the page was 589 px wide, found on issue 55's tour)
    phone = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    phone.goto(f"{base}/players/Anneli?lang=en")
    phone.locator("#games tbody tr").first.wait_for()
    phone.locator("#board .bot-line").first.wait_for()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    watch.check()
    for page in (aino, bernd, guest, phone):
        page.context.close()


def test_the_hint_button_says_why_a_rated_table_has_none(server: Server, browser: Browser) -> None:
    base = server.url
    aino, bernd = sign_up(browser, base, "Aila"), sign_up(browser, base, "Berit", "10.0.0.2")
    seats = [{"kind": "open", "anyone": True}, {"kind": "open", "anyone": True}]
    body = {"game": "myllymatti", "seats": seats, "rated": True}
    table_id = aino.request.post(f"{base}/api/tables", data=body).json()["table"]["id"]
    tokens = {}
    for seat, page in enumerate((aino, bernd)):
        r = page.request.post(f"{base}/api/tables/{table_id}/seats/{seat}", data={"name": "x"})
        tokens[seat] = r.json()["token"]
    to_act = aino.request.get(f"{base}/api/tables/{table_id}").json()["to_act"]
    page = (aino, bernd)[to_act]
    page.evaluate(
        "([id, token]) => localStorage.setItem(`tikki.token.${id}`, token)",
        [table_id, tokens[to_act]],
    )
    page.goto(f"{base}/t/{table_id}?lang=en")
    hint = page.locator("#hint-btn")
    hint.wait_for()
    assert hint.is_disabled()
    assert "No hints at a rated table" in (hint.get_attribute("title") or "")
    assert "No hints at a rated table" in page.locator("#hint-text").inner_text()


def _stub_minna(page: Page) -> None:
    """Answers the profile's API calls for Minna: one lost Mückenstich game against two
    bots on 2 January 2026, a negative rating, average and rating change."""
    game = {
        "table": "t1", "game": "mueckenstich", "status": "finished",
        "created": "2026-01-02T10:00:00Z", "finished": "2026-01-02T10:20:00Z", "seat": 0,
        "place": 3, "last": True, "points": -2.4,
        "opponents": [
            {"seat": 1, "kind": "bot", "name": "Aino (Medium)", "bot": "heuristic"},
            {"seat": 2, "kind": "bot", "name": "Eino (Hard)", "bot": "ismcts:iterations=1000"},
        ],
        "rating_change": {"before": 0.0, "after": -2.4},
        "replay": "/replay/t1", "analysis": "/t/t1?seat=0#analysis", "accuracy": None,
    }  # fmt: skip
    profile = {
        "name": "Minna", "private": False,
        "ratings": {"mueckenstich": {"rating": -2.4, "games": 1, "provisional": True}},
        "statistics": {"mueckenstich": {"games": 1, "first": 0, "last": 1, "average_points": -2.4}},
        "games": [game],
    }  # fmt: skip
    board = {
        "game": "mueckenstich",
        "people": [{"name": "Minna", "rating": -2.4, "games": 1, "provisional": True}],
        "bots": [{"bot": "random", "label": "Easy", "rating": -5.5}],
    }
    page.route("**/api/players/Minna*", lambda route: route.fulfill(json=profile))
    page.route("**/api/ratings/mueckenstich", lambda route: route.fulfill(json=board))


def test_profile_numbers_take_one_minus_sign_and_bots_their_level_once(
    server: Server, browser: Browser
) -> None:
    """A profile with a loss, a negative average and a bot opponent (the API's answers
    stubbed): every shown number takes U+2212, never "-", and the bot's level shows once."""
    page = browser.new_page(viewport=DESKTOP)
    _stub_minna(page)
    page.goto(f"{server.url}/players/Minna?lang=en")
    row = page.locator("#games tbody tr").first
    row.wait_for()
    page.locator("#board .bot-line").wait_for()
    text = row.inner_text()
    assert "Aino (Medium)" in text and "(Medium) (Medium)" not in text, text
    assert "Eino (Hard)" in text and "(Hard) (Hard)" not in text, text
    assert "−2.4 (→ −2.4)" in text, text
    shown = page.locator("main").inner_text()
    assert "−2.4" in page.locator("#ratings").inner_text()
    minus = re.search(r"(?<!\d)-\d", shown)  # not a date's hyphen
    assert not minus, f"an ASCII minus in a shown number: {shown!r}"
    page.close()


@pytest.mark.parametrize(
    ("lang", "day"), [("de", "02.01.2026"), ("fi", "2.1.2026"), ("en", "Jan 2, 2026")]
)
def test_profile_dates_read_in_the_pages_language(
    server: Server, browser: Browser, lang: str, day: str
) -> None:
    """The games list's date is written as the page's language writes a date, not as
    the server's ISO day ("2026-01-02")."""
    page = browser.new_page(viewport=DESKTOP, locale="en-US")
    _stub_minna(page)
    page.goto(f"{server.url}/players/Minna?lang={lang}")
    row = page.locator("#games tbody tr").first
    row.wait_for()
    text = row.inner_text()
    assert day in text, text
    assert "2026-01-02" not in text, text
    page.close()
