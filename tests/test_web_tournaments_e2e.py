"""Tournaments in Chromium as new players use them: Anna (desktop, English) opens
Tournaments from the lobby, creates a Swiss tournament with the form, enters it and adds
bots; Ben (a phone, Finnish) enters it from its page; Anna starts it early, both see it
playing, Ben withdraws (after the page's question), and Anna goes to her table,
seated.  Cilla (desktop, German) watches the standings.  Anna's profile lists the
tournament.  Screenshots (desktop 1280x800, phone 390x844; en, fi, de) go to
``test-artifacts/``.  Skips like tests/test_web_e2e.py without
Chromium (never under ``CI=true``)."""

from __future__ import annotations

import re

from tests import test_web_e2e as e2e
from tests._web import fits, person
from tests.test_web_e2e import PHONE, Browser, Server, Watch, shot

server = e2e.serving("web-tournaments")
browser = e2e.browser


def test_create_enter_start_and_play_a_tournament(server: Server, browser: Browser) -> None:
    anna = person(browser, server.url, "AnnaT")
    watch = Watch(anna)
    anna.click("#tournaments-link")
    anna.wait_for_url(re.compile(r"/tournaments$"))
    anna.locator("#create-form").wait_for()
    anna.fill("#t-name", "Evening cup")
    anna.select_option("#t-game", "mueckenstich")
    anna.select_option("#t-players", "3")
    anna.fill("#t-rounds", "2")
    anna.fill("#t-starts", "60")
    shot(anna, "tournaments-create-desktop-en")
    anna.locator("#create-form button[type=submit]").click()
    anna.wait_for_url(re.compile(r"/tournaments/\w+$"))
    url = anna.url
    anna.get_by_role("button", name="Enter").click()
    anna.get_by_role("button", name="Leave").wait_for()
    anna.select_option("#bot-level", "random")
    for n in range(4):
        anna.get_by_role("button", name="Add a bot").click()
        anna.locator("#standings tbody tr").nth(n + 1).wait_for()
    ben = person(browser, server.url, "BenT", "fi", phone=True)
    ben.click("#tournaments-link")
    ben.locator("#list a", has_text="Evening cup").wait_for()
    shot(ben, "tournaments-list-phone-fi")
    assert fits(ben, "#list", PHONE["width"]) and fits(ben, "#create-form", PHONE["width"])
    ben.locator("#list a", has_text="Evening cup").tap()
    ben.wait_for_url(url)
    ben.get_by_role("button", name="Ilmoittaudu").tap()
    ben.get_by_role("button", name="Poistu").wait_for()
    assert ben.locator("#standings tbody tr").count() == 6
    assert fits(ben, "#standings", PHONE["width"])
    shot(ben, "tournaments-open-phone-fi")
    anna.reload()
    anna.get_by_role("button", name="Start now").click()
    anna.get_by_role("button", name="Go to my table").wait_for(timeout=30_000)
    assert "Playing" in anna.inner_text("#one-info")
    ben.locator("#one-info", has_text="Käynnissä").wait_for(timeout=30_000)
    ben.locator("#rounds a").first.wait_for()
    shot(ben, "tournaments-playing-phone-fi")
    ben.once("dialog", lambda dialog: dialog.accept())  # "Withdraw from this tournament?"
    ben.get_by_role("button", name="Vetäydy turnauksesta").tap()
    ben.locator("#one-actions", has_text="Olet vetäytynyt").wait_for()
    assert ben.get_by_role("button", name="Omaan pöytääni").count() == 0
    ben.locator("#standings tr.me", has_text="vetäytynyt").wait_for()
    assert fits(ben, "#one-actions", PHONE["width"])
    shot(ben, "tournaments-withdrawn-phone-fi")
    cilla = person(browser, server.url, "CillaT", "de")
    cilla.goto(url + "?lang=de")
    cilla.locator("#one-info", has_text="Läuft").wait_for()
    guest = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    guest.goto(url + "?lang=en")
    guest.locator("#one-info", has_text="Playing").wait_for()
    assert guest.locator("#one-actions").inner_text() == ""  # no "Sign in to enter." now
    guest.context.close()
    assert cilla.locator("#standings thead", has_text="Punkte").count() == 1
    shot(cilla, "tournaments-standings-desktop-de")
    shot(anna, "tournaments-playing-desktop-en")
    anna.get_by_role("button", name="Go to my table").click()
    anna.wait_for_url(re.compile(r"/t/\w+\?seat=\d$"))
    anna.locator("#board").wait_for()
    table = anna.url.split("/t/")[1].split("?")[0]
    noted = anna.evaluate(f"JSON.parse(localStorage.getItem('tikki.tournament.{table}'))")
    assert noted == {"id": url.rsplit("/", 1)[1], "name": "Evening cup"}  # its end leads back
    shot(anna, "tournaments-table-desktop-en")
    anna.goto(f"{server.url}/players/AnnaT")
    anna.locator("#tournament-results", has_text="Evening cup").wait_for()
    shot(anna, "tournaments-profile-desktop-en")
    assert watch.problems == []


def test_the_form_offers_variants_options_and_long_timers(server: Server, browser: Browser) -> None:
    """The create form offers what the API takes: the game's variants and options (the
    lobby's fields), and the turn timers with hours a move (for a Swiss tournament; an
    arena lasts minutes); the page then names the variant, the options and the timer, in
    Finnish on a phone, and a single round reads as one."""
    page = person(browser, server.url, "Doraliinakilpailija", "fi", phone=True)
    watch = Watch(page)
    page.goto(f"{server.url}/tournaments?lang=fi")
    page.locator("#to-create", has_text="Uusi turnaus").tap()  # past the list
    page.locator("#create-form").wait_for()
    box = page.locator("#create-title").bounding_box()
    assert box is not None and 0 <= box["y"] < PHONE["height"]
    page.fill("#t-name", "Koiracup")
    page.select_option("#t-game", "myllymatti")
    assert page.locator("#variant option[value=koira]").count() == 1
    page.select_option("#variant", "koira")
    page.locator("#options-box summary").tap()
    assert page.locator("#opt-runs").is_checked()  # the variant's own value
    page.locator("#opt-trump_requires_void").check()
    timers = page.locator("#t-timer option").evaluate_all("els => els.map(e => e.value)")
    assert timers == ["30", "60", "120", "43200", "86400", "172800", "259200"]
    assert page.locator("#t-timer option[value='86400']").inner_text() == "24 h siirtoa kohden"
    page.select_option("#t-kind", "arena")
    assert page.locator("#t-timer option[value='86400']").is_disabled()
    page.select_option("#t-kind", "swiss")
    page.select_option("#t-timer", "43200")
    page.fill("#t-rounds", "1")
    shot(page, "tournaments-form-options-phone-fi")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    with page.expect_request(lambda r: r.method == "POST" and "/api/tournaments" in r.url) as sent:
        page.locator("#create-form button[type=submit]").tap()
    body = sent.value.post_data_json
    assert (body["variant"], body["options"], body["turn_timer"]) == (
        "koira",
        {"trump_requires_void": True},
        43200,
    )
    page.wait_for_url(re.compile(r"/tournaments/\w+$"))
    info = page.locator("#one-info")
    info.get_by_text("12 h siirtoa kohden", exact=False).wait_for()
    assert "Sveitsiläinen, 1 kierros ·" in info.inner_text()
    # the game's options as the lobby names them, in the reader's language
    options = page.locator("#one-options")
    assert options.inner_text() == "Asetukset: valtti vain, kun maata ei ole = päällä"
    page.get_by_role("button", name="Ilmoittaudu").tap()
    page.select_option("#bot-level", "random")
    page.get_by_role("button", name="Lisää botti").tap()
    page.locator("#standings tbody tr", has_text="(Helppo)").wait_for()
    box = "document.querySelector('#standings').parentElement"
    assert page.evaluate(f"{box}.scrollWidth <= {box}.clientWidth"), "the standings scroll"
    shot(page, "tournaments-bots-phone-fi")
    assert watch.problems == []


def test_a_refused_create_is_said_beside_create_in_view(server: Server, browser: Browser) -> None:
    """A fourth open tournament is refused: the reason in German under *Create*, scrolled
    into the phone's view, and no tournament made."""
    page = person(browser, server.url, "EmilT", "de", phone=True)
    watch = Watch(page)
    for n in range(4):
        page.goto(f"{server.url}/tournaments?lang=de")
        page.locator("#create-form").wait_for()
        page.fill("#t-name", f"Emils Turnier {n}")
        page.fill("#t-starts", "600")
        page.locator("#create-form button[type=submit]").tap()
        if n < 3:
            page.wait_for_url(re.compile(r"/tournaments/\w+$"))
    error = page.locator("#t-create-error")
    error.wait_for()
    assert error.inner_text().startswith("Das Turnier konnte nicht angelegt werden: ")
    box = error.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"] + 1
    shot(page, "tournaments-refused-phone-de")
    page.goto(f"{server.url}/tournaments?lang=de")
    page.locator("#list a", has_text="Emils Turnier 2").wait_for()
    assert page.locator("#list a", has_text="Emils Turnier 3").count() == 0
    assert [p for p in watch.problems if "409 (Conflict)" not in p] == []  # the refusal's


ONE_POINT = {
    "en": ("3. of 6, 1 point", "1. of 6, 2 points"),
    "fi": ("3./6, 1 piste", "1./6, 2 pistettä"),
    "de": ("3. von 6, 1 Punkt", "1. von 6, 2 Punkte"),
}


def test_a_profiles_tournament_points_take_their_number(server: Server, browser: Browser) -> None:
    """A finished tournament on a profile reads "1 point", not "1 points" (seen on issue
    55's tour), in each language."""
    page = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    for lang, (one, two) in ONE_POINT.items():
        page.goto(f"{server.url}/tournaments?lang={lang}")
        page.locator("#create-form").wait_for()
        shown = page.evaluate(
            """async () => {
              const { renderTournamentResults } = await import("/static/tournament_results.js");
              const section = document.createElement("section");
              const host = document.createElement("div");
              const one = {id: "c1", name: "Cup", game: "myllymatti", status: "finished", of: 6};
              renderTournamentResults(section, host,
                [{...one, place: 3, points: 1}, {...one, place: 1, points: 2}]);
              return [...host.querySelectorAll("li")].map((li) => li.textContent);
            }"""
        )
        assert shown[0].endswith(one) and shown[1].endswith(two), shown
    page.context.close()


def test_a_tournament_games_end_leads_back_to_the_tournament(
    server: Server, browser: Browser
) -> None:
    """At the end of a tournament's game (a table its page sent the player to) the table
    offers "Back to the tournament", not "Play again", which would seat the same players
    at a new table outside the tournament (issue 55's tour), in Finnish on a phone."""
    page = person(browser, server.url, "EinoT", "fi", phone=True)
    base = server.url
    seats = [{"kind": "open", "anyone": True}, {"kind": "bot", "bot": "random"}]
    r = page.request.post(f"{base}/api/tables", data={"game": "myllymatti", "seats": seats})
    assert r.status == 201, r.text()
    table = r.json()["table"]["id"]
    r = page.request.post(f"{base}/api/tables/{table}/seats/0", data={"name": "EinoT"})
    token = r.json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    for _turn in range(2000):
        state = page.request.get(f"{base}/api/tables/{table}/state", headers=headers).json()
        if state["status"] == "finished":
            break
        if state["table"]["to_act"] == 0:
            move = {"move": state["view"]["legal_moves"][0], "seq": state["seq"]}
            page.request.post(f"{base}/api/tables/{table}/moves", data=move, headers=headers)
    assert state["status"] == "finished"
    note = {"id": "c1", "name": "Iltacup"}
    page.evaluate(
        "([id, t, n]) => { localStorage.setItem(`tikki.token.${id}`, t);"
        " localStorage.setItem(`tikki.tournament.${id}`, JSON.stringify(n)); }",
        [table, token, note],
    )
    page.goto(f"{base}/t/{table}?seat=0&lang=fi")
    back = page.locator("#back-to-tournament")
    back.wait_for()
    assert back.inner_text() == "Takaisin turnaukseen: Iltacup"
    assert back.get_attribute("href") == "/tournaments/c1"
    assert page.locator("#play-again").count() == 0
    assert fits(page, "#back-to-tournament", PHONE["width"])
    shot(page, "tournaments-game-over-phone-fi")
