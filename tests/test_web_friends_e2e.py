"""Friends in Chromium as two new players use them, each in a browser of their own: Anna
(desktop) follows Ben (a phone) by name and sees him online, challenges him to a
three-player table; Ben's page shows the challenge as a notification with Accept and
Decline; he accepts and both land at the table, seated.  A block: the blocked player's
challenge is refused in words beside the button.  Screenshots (desktop 1280x800, phone
390x844; en, fi, de) go to ``test-artifacts/``.  Skips like tests/test_web_e2e.py without
Chromium (never under ``CI=true``)."""

from __future__ import annotations

import re

import pytest

from tests import test_web_e2e as e2e
from tests._web import names, person
from tests.test_web_e2e import PHONE, Browser, Server, Watch, shot

server = e2e.serving("web-friends")
browser = e2e.browser


def test_follow_see_online_challenge_accept_both_seated(server: Server, browser: Browser) -> None:
    anna_name, ben_name = names()
    ben = person(browser, server.url, ben_name, phone=True)
    anna = person(browser, server.url, anna_name)
    watch_a, watch_b = Watch(anna), Watch(ben)
    anna.fill("#follow-name", ben_name.lower())  # any case finds the account
    anna.click("#follow-go")
    line = anna.locator(f'li[data-friend="{ben_name}"]')
    line.locator(".presence", has_text="online").wait_for()
    shot(anna, "friends-following-desktop-en")
    line.get_by_role("button", name="Challenge").click()
    anna.select_option(f"#challenge-players-{ben_name}", "3")
    anna.select_option(f"#challenge-bot-{ben_name}", "random")
    shot(anna, "friends-challenge-form-desktop-en")
    anna.click(f"#challenge-send-{ben_name}")
    anna.locator(".challenge-line", has_text=f"Waiting for {ben_name}").wait_for()
    toast = ben.locator("#challenge-toast")
    toast.get_by_text(f"{anna_name} challenges you").wait_for()
    assert "3 players" in toast.inner_text()
    shot(ben, "friends-challenge-notice-phone-en")
    box = toast.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    toast.get_by_role("button", name="Accept").tap()
    for page, seat in ((ben, 1), (anna, 0)):
        page.wait_for_url(re.compile(rf"/t/\w+\?seat={seat}$"))
        page.locator("#board").wait_for()
    table = anna.url.split("/t/")[1].split("?")[0]
    assert table in ben.url
    names_shown = anna.locator(".seat-name, .seats").all_inner_texts()
    joined = " ".join(names_shown)
    assert anna_name in joined or ben_name in joined, joined
    shot(anna, "friends-at-the-table-desktop-en")
    shot(ben, "friends-at-the-table-phone-en")
    # Anna, back on the lobby, sees Ben at the table
    anna.goto(f"{server.url}/?lang=en")
    anna.locator(f'li[data-friend="{ben_name}"] .presence', has_text="at a table").wait_for()
    assert watch_a.problems == [] and watch_b.problems == []


def test_a_block_refuses_the_challenge_in_words(server: Server, browser: Browser) -> None:
    anna_name, ben_name = names()
    ben = person(browser, server.url, ben_name, phone=True)
    anna = person(browser, server.url, anna_name)
    anna.goto(f"{server.url}/players/{ben_name}?lang=en")
    anna.click("#block-btn")
    anna.get_by_text("You blocked this player").wait_for()
    assert anna.locator("#unblock-btn").is_visible()
    shot(anna, "friends-blocked-profile-desktop-en")
    ben.goto(f"{server.url}/players/{anna_name}?lang=en")
    ben.locator("#challenge-btn").tap()
    ben.locator(f"#challenge-send-{anna_name}").tap()
    error = ben.locator(".field-error")
    error.wait_for()
    assert error.inner_text() == f"{anna_name} does not take follows or challenges from you."
    shot(ben, "friends-blocked-challenge-phone-en")
    ben.locator("#follow-btn").tap()
    ben.locator("#follow-btn-error", has_text="does not take follows").wait_for()


@pytest.mark.parametrize("lang", ["fi", "de"])
def test_friends_panel_and_notice_in_each_language(
    server: Server, browser: Browser, lang: str
) -> None:
    anna_name, ben_name = names()
    ben = person(browser, server.url, ben_name, lang, phone=True)
    anna = person(browser, server.url, anna_name, lang)
    anna.fill("#follow-name", ben_name)
    anna.click("#follow-go")
    anna.locator(f'li[data-friend="{ben_name}"] [data-state="online"]').wait_for()
    anna.locator(f'li[data-friend="{ben_name}"] button').first.click()
    anna.click(f"#challenge-send-{ben_name}")
    anna.locator(".challenge-line").wait_for()
    ben.locator("#challenge-toast .challenge-line").wait_for()
    text = anna.locator("#friends-panel").inner_text()
    text += ben.locator("#challenge-toast").inner_text()
    english = ["Challenge", "challenges you", "Accept", "Decline", "Waiting for", "Unfollow"]
    english += ["online"] if lang == "fi" else []  # German says "online" too
    for word in english:
        assert word not in text, (word, text)
    shot(anna, f"friends-panel-desktop-{lang}")
    shot(ben, f"friends-notice-phone-{lang}")


def test_a_block_at_a_shared_table_is_said_beside_the_chat(
    server: Server, browser: Browser
) -> None:
    """Anna and Ben sit at one table; Anna blocks Ben.  Neither sees the other's chat any
    more, and the chat says so in words on both pages (it looked as if Ben's messages
    were read: found on issue 55's tour), in German on Ben's phone."""
    anna_name, ben_name = names()
    anna = person(browser, server.url, anna_name)
    ben = person(browser, server.url, ben_name, "de", phone=True)
    seats = [{"kind": "open", "anyone": True}, {"kind": "open", "anyone": True}]
    seats.append({"kind": "bot", "bot": "random"})
    r = anna.request.post(f"{server.url}/api/tables", data={"game": "mattis", "seats": seats})
    assert r.status == 201, r.text()
    table = r.json()["table"]["id"]
    for seat, (page, name) in enumerate(((anna, anna_name), (ben, ben_name))):
        r = page.request.post(f"{server.url}/api/tables/{table}/seats/{seat}", data={"name": name})
        assert r.status == 200, r.text()
        page.evaluate("([id, t]) => localStorage.setItem(`tikki.token.${id}`, t)",
                      [table, r.json()["token"]])  # fmt: skip
    csrf = next(c["value"] for c in anna.context.cookies() if c["name"] == "tikki_csrf")
    r = anna.request.post(f"{server.url}/api/friends/block", data={"name": ben_name},
                          headers={"X-CSRF-Token": csrf})  # fmt: skip
    assert r.status == 200, r.text()
    for page, seat, lang in ((anna, 0, "en"), (ben, 1, "de")):
        page.goto(f"{server.url}/t/{table}?seat={seat}&lang={lang}")
        page.locator("#chat-unseen").wait_for()
    said = ben.locator("#chat-unseen").inner_text()
    assert said.startswith(anna_name) and "Blockierung" in said, said
    assert anna.locator("#chat-unseen").inner_text().startswith(ben_name)
    shot(ben, "friends-blocked-chat-phone-de")
