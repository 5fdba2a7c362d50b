"""The table's finer points in Chromium: a kept analysis shown at once when a finished
table is reopened.  Skips like tests/test_web_e2e.py without Chromium (never under
``CI=true``).
"""

from __future__ import annotations

from typing import Any

from tests import test_web_e2e as e2e
from tests.test_web_e2e import DESKTOP, Browser, Page, Server, Watch

server = e2e.server
browser = e2e.browser


def finished_at(page: Page, base: str, game: str = "myllymatti") -> tuple[str, str]:
    """A finished two-seat table where this page's browser sits at seat 0 (its token in
    the page's storage, as after joining in the lobby) against a random bot; the moves are
    sent through the API.  Its id and the seat's token."""
    seats = [{"kind": "open", "anyone": True}, {"kind": "bot", "bot": "random"}]
    r = page.request.post(f"{base}/api/tables", data={"game": game, "seats": seats})
    assert r.status == 201, r.text()
    table_id = r.json()["table"]["id"]
    r = page.request.post(f"{base}/api/tables/{table_id}/seats/0", data={"name": "Anna"})
    assert r.status == 200, r.text()
    token = r.json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    for _turn in range(2000):
        info = page.request.get(f"{base}/api/tables/{table_id}").json()
        if info["status"] == "finished":
            break
        if info["to_act"] != 0:
            page.wait_for_timeout(20)
            continue
        state = page.request.get(f"{base}/api/tables/{table_id}/state", headers=headers).json()
        move = {"move": state["view"]["legal_moves"][0], "seq": state["seq"]}
        page.request.post(f"{base}/api/tables/{table_id}/moves", data=move, headers=headers)
    assert info["status"] == "finished"
    page.goto(f"{base}/?lang=en")
    page.evaluate("([id, t]) => localStorage.setItem(`tikki.token.${id}`, t)", [table_id, token])
    return table_id, token


def test_a_kept_analysis_shows_at_once_when_the_table_is_reopened(
    server: Server, browser: Browser
) -> None:
    base = server.url
    context = browser.new_context(viewport=DESKTOP, locale="en")
    page = context.new_page()
    watch = Watch(page)
    table_id, _token = finished_at(page, base)
    page.goto(f"{base}/t/{table_id}?lang=en")
    page.locator("#analyse").wait_for()  # not analysed yet: the button asks
    url = f"{base}/api/tables/{table_id}/analysis/0"
    assert page.request.post(url).status == 202
    job: dict[str, Any] = {}
    for _poll in range(600):
        job = page.request.get(url).json()
        if job["status"] != "running":
            break
        page.wait_for_timeout(200)
    assert job["status"] == "done", job
    page.goto(f"{base}/t/{table_id}?lang=en")  # reopened: shown with no click
    page.locator(".analysis-summary").wait_for(timeout=5_000)
    assert page.locator("#analyse").count() == 0
    accuracy = f"Accuracy {round(job['analysis']['accuracy'] * 100)}%"
    assert accuracy in page.inner_text(".analysis-summary")
    watch.check()
    context.close()


def test_the_lobby_option_help_speaks_players_words(server: Server, browser: Browser) -> None:
    """No API value ("(round)", "(top)") in an option's help, in any language, and no
    research option (a short deck) among the real ones."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    watch = Watch(page)
    for lang in ("en", "fi", "de"):
        for game in ("mattis", "myllymatti", "mueckenstich"):
            page.goto(f"{server.url}/?lang={lang}")
            page.check(f"input[name=game][value={game}]")
            if game == "mueckenstich":  # research options only: no options box
                assert page.locator("#options-box").is_hidden(), lang
                continue
            page.click("#options-box summary")
            helps = " ".join(page.locator("#options .help").all_inner_texts())
            assert helps, (lang, game)
            for word in ("(round)", "(trick)", "(top)", "(bottom", "(all)", "RANKS", "SUITS"):
                assert word not in helps, (lang, game, word, helps)
            assert "COLOURS" not in helps and "VALUES" not in helps, (lang, game, helps)
            for research in ("ranks", "suits", "hand", "colours", "values", "mosquitoes"):
                assert page.locator(f"#opt-{research}").count() == 0, (lang, game, research)
    watch.check()
    context.close()
