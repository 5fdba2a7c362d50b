"""Table chat in Chromium: two players in Finnish and German and a spectator.

One browser session: a quick phrase sent in Finnish shows in German, a free text that is
an XSS payload shows as text and runs nothing, muting hides a person's messages, and the
spectators' channel stays apart from the players' during the game.  The chat's screenshot
goes to ``docs/images/chat.png``.  Skips like tests/test_web_e2e.py without Chromium
(never under ``CI=true``).
"""

from __future__ import annotations

from typing import Any

from tests import test_web_e2e as e2e
from tests.test_web_e2e import DESKTOP, Browser, Page, Server, Watch

server = e2e.server
browser = e2e.browser

XSS = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>'
DOCS_IMAGES = e2e.ROOT / "docs" / "images"


def seated_page(browser: Browser, base: str, table_id: str, token: str | None, lang: str) -> Any:
    """A new context's table page in ``lang``, holding the seat of ``token`` (or none)."""
    context = browser.new_context(viewport=DESKTOP, locale=lang)
    page = context.new_page()
    page.goto(f"{base}/?lang={lang}")
    if token is not None:
        page.evaluate(
            "([id, token]) => localStorage.setItem(`tikki.token.${id}`, token)", [table_id, token]
        )
    page.goto(f"{base}/t/{table_id}")
    if token is None:
        page.get_by_role("button", name="Just watch").click()
    page.locator("#chat .chat-phrases button").first.wait_for()
    return page


def log(page: Page) -> str:
    return page.locator("#chat .chat-log").inner_text()


def test_chat_between_languages(server: Server, browser: Browser) -> None:
    base = server.url
    setup = browser.new_context()
    seats = [{"kind": "open", "anyone": True}, {"kind": "open", "anyone": True}]
    r = setup.request.post(f"{base}/api/tables", data={"game": "myllymatti", "seats": seats})
    assert r.status == 201, r.text()
    table_id = r.json()["table"]["id"]
    tokens = []
    for seat, name in enumerate(("Anneli", "Bernd")):
        joined = setup.request.post(
            f"{base}/api/tables/{table_id}/seats/{seat}", data={"name": name}
        )
        assert joined.status == 200, joined.text()
        tokens.append(joined.json()["token"])
    aino = seated_page(browser, base, table_id, tokens[0], "fi")
    bernd = seated_page(browser, base, table_id, tokens[1], "de")
    watcher = seated_page(browser, base, table_id, None, "en")
    watches = [Watch(p) for p in (aino, bernd, watcher)]

    # a quick phrase: sent by id, read in each reader's language
    aino.locator('#chat button[data-phrase="gg"]').click()
    bernd.locator("#chat .chat-log", has_text="Gutes Spiel").wait_for()
    aino.locator("#chat .chat-log", has_text="Hyvä peli").wait_for()
    watcher.locator("#chat .chat-log", has_text="Good game").wait_for()
    assert aino.locator('#chat button[data-phrase="gg"]').inner_text() == "Hyvä peli"

    # free text is shown as text: the payload runs nothing and makes no element
    bernd.fill("#chat-text", XSS)
    bernd.locator("#chat .chat-form button[type=submit]").click()
    aino.locator("#chat .chat-text", has_text="onerror").wait_for()
    assert XSS in log(aino)
    for page in (aino, bernd, watcher):
        assert page.evaluate("window.__xss") is None
        assert page.locator("#chat .chat-log img, #chat .chat-log script").count() == 0

    # the spectators' channel: players do not read it during the game
    watcher.fill("#chat-text", "spectators only")
    watcher.locator("#chat .chat-form button[type=submit]").click()
    watcher.locator("#chat .chat-log", has_text="spectators only").wait_for()
    bernd.locator('#chat button[data-phrase="wp"]').click()
    aino.locator("#chat .chat-log", has_text="Hyvin pelattu").wait_for()
    watcher.locator("#chat .chat-log", has_text="Well played").wait_for()
    for page in (aino, bernd):
        assert "spectators only" not in log(page)

    # mute: Anneli hides Bernd's messages (his own page still shows them)
    aino.locator("#chat .chat-message[data-sender='seat:1'] .chat-mute").first.click()
    aino.locator("#chat .chat-log", has_text="(mykistetty)").first.wait_for()
    assert "onerror" not in log(aino) and "Hyvin pelattu" not in log(aino)
    assert "Hyvä peli" in log(aino) and "onerror" in log(bernd)
    aino.reload()
    aino.locator("#chat .chat-log", has_text="Hyvä peli").wait_for()
    assert "onerror" not in log(aino), "a mute lasts over a reload"

    DOCS_IMAGES.mkdir(parents=True, exist_ok=True)
    bernd.locator("#chat").screenshot(path=str(DOCS_IMAGES / "chat.png"))
    for watch in watches:
        assert not watch.problems, watch.problems
    for page in (aino, bernd, watcher):
        page.context.close()
    setup.close()
