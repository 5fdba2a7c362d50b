"""The web table in Finnish, German and the pseudo-locale, in Chromium.

* In the pseudo-locale (``?lang=pseudo``: every client text in ⟦…⟧) no text the page shows
  is left unmarked: the lobby, the join page, a table waiting for players, every phase of
  every game (checked after each of our moves) and the end screen; visible text and the
  ``title``, ``aria-label``, ``placeholder`` and ``alt`` attributes. Allowed unmarked:
  card faces (``7♥``; ``J``, ``M`` on a card), numbers, the players' and games' names,
  the language names of the switcher, and the server's own texts (game summaries, option
  help, notices), which the server translates (``tikki/i18n.py``), not the page.
* A whole Myllymatti game is played in Finnish and a whole Mückenstich game in German,
  with screenshots in ``test-artifacts/i18n/``; the language follows the browser and the
  switcher, and the API requests carry it in ``Accept-Language``.

Skips like tests/test_web_e2e.py without Chromium (never under ``CI=true``).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests import test_web_e2e as e2e
from tests.test_web_e2e import DESKTOP, Browser, Page, Server, Watch, take_first_seat
from tikki.core import game_class, games

server = e2e.server
"""The ``tikki serve`` fixture of tests/test_web_e2e.py."""
browser = e2e.browser
"""The Chromium fixture of tests/test_web_e2e.py (skips as it does)."""

ARTIFACTS = e2e.ARTIFACTS / "i18n"
SERVER_TEXTS = ".game-summary, #options .help, #notice, .field-error"
"""Elements whose text the server writes (translated on the server, not in the page)."""

UNMARKED = """(allowed) => {
  const ok = new Set(allowed);
  const strip = (text) => {
    let out = String(text);
    for (let prev = ""; prev !== out; ) {
      prev = out;
      out = out.replace(/⟦[^⟦⟧]*⟧/g, " ");
    }
    return out;
  };
  const EDGE = /^[^\\p{L}\\p{N}♠♥♦♣]+|[^\\p{L}\\p{N}♠♥♦♣]+$/gu;
  const fine = (word) =>
    !word ||
    ok.has(word) ||
    /^[+\\-−]?\\d+([.,:/]\\d+)*$/.test(word) ||
    /^(10|[2-9JQKA])?[♠♥♦♣]$/.test(word) ||
    /^[A-Z]{2}-\\d+$/.test(word) ||
    /^(AM|PM|M|J|Q|K|A)$/.test(word); // card corners, the mosquito chip, times
  const bad = [];
  const check = (where, text) => {
    for (const raw of strip(text).split(/\\s+/)) {
      const word = raw.replace(EDGE, "");
      const context = JSON.stringify(String(text).slice(0, 160));
      if (!fine(word)) bad.push(`${where}: ${JSON.stringify(word)} in ${context}`);
    }
  };
  let text = document.body.innerText;
  for (const el of document.querySelectorAll(SERVER)) {
    if (el.innerText.trim()) text = text.split(el.innerText).join(" ");
  }
  check("text", text);
  check("title", document.title);
  for (const el of document.querySelectorAll("[title], [aria-label], [placeholder], [alt]")) {
    if (el.closest(SERVER)) continue;
    for (const name of ["title", "aria-label", "placeholder", "alt"]) {
      const where = `${el.tagName.toLowerCase()}[${name}]`;
      if (el.hasAttribute(name)) check(where, el.getAttribute(name));
    }
  }
  for (const el of document.querySelectorAll("option")) check("option", el.textContent);
  return bad;
}""".replace("SERVER", json.dumps(SERVER_TEXTS))


def unmarked(page: Page, names: list[str] | tuple[str, ...] = ()) -> list[str]:
    """The words the page shows outside the pseudo-locale's markers, with where."""
    allowed = ["tikki", "English", "suomi", "Deutsch"]
    for name in [*names, *(game_class(g).title for g in games())]:  # proper names
        allowed += [w.strip("()") for w in name.split()]
    found: list[str] = page.evaluate(UNMARKED, allowed)
    return found


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def create_table(
    page: Page, base: str, game: str, seats: list[str], seed: int, lang: str | None = None
) -> str:
    """Fill the lobby form without reading its words (any language), create the table and
    take seat 1; returns the table id."""
    page.goto(base + "/" + (f"?lang={lang}" if lang else ""))
    page.fill("#player-name", "Anna")
    page.check(f"input[name=game][value={game}]")
    page.select_option("#players", str(len(seats)))
    for i, kind in enumerate(seats):
        page.select_option(f"#seat-{i}", kind)
    page.click("details:has(#seed) > summary")
    page.fill("#seed", str(seed))
    page.click("#create-btn")
    page.locator("#invite-0").wait_for()
    url = page.locator("#invite-0").input_value()
    found = re.search(r"/t/([^/?]+)\?seat=0#", url)
    assert found, url
    take_first_seat(page)
    return found.group(1)


def seat_names(page: Page, base: str, table_id: str) -> list[str]:
    table = page.request.get(f"{base}/api/tables/{table_id}").json()
    return [s["name"] or "" for s in table["seats"]]


def all_names(page: Page, base: str) -> list[str]:
    """The seat names of every table the lobby can list (its lists show them)."""
    names: list[str] = []
    for status in ("open", "playing", "finished"):
        for table in page.request.get(f"{base}/api/tables?status={status}").json()["tables"]:
            names += [s["name"] or "" for s in table["seats"]]
    return names


def play(page: Page, each: Any = None, hint_at: int = 2) -> set[str]:
    """Play to the end by clicking; ``each(page)`` runs before each of our moves and once
    at the end. Returns the phases seen."""
    page.wait_for_selector("#board[data-status=playing]", timeout=30_000)
    phases: set[str] = set()
    for turn in range(e2e.MAX_TURNS):
        e2e.wait_turn_or_end(page)
        phases.add(e2e.board(page, "phase"))
        if e2e.board(page, "status") == "finished":
            break
        if turn == hint_at:
            page.click("#hint-btn")
            page.wait_for_selector("#hint-text .chip, #hint-text:not(:empty)")
            page.wait_for_selector("#hint-text .muted", state="detached")
        if each:
            each(page)
        seq = e2e.board(page, "seq")
        legal = json.loads(e2e.board(page, "legal"))
        e2e.click_move(page, e2e.choose(legal), legal)
        page.wait_for_function(
            "s => document.querySelector('#board').dataset.seq !== s", arg=seq, timeout=30_000
        )
    else:
        pytest.fail(f"no end after {e2e.MAX_TURNS} of our moves")
    page.wait_for_selector("#result:not([hidden])")
    if each:
        each(page)
    return phases


# ---------------------------------------------------------------- the pseudo-locale


def test_pseudo_locale_lobby_and_join_page(server: Server, browser: Browser) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    watch = Watch(page)
    page.goto(server.url + "/?lang=pseudo")
    page.wait_for_selector("input[name=game]")
    assert page.locator("html").get_attribute("lang") == "en"
    page.check("input[name=game][value=mueckenstich]")
    page.click("details:has(#seed) > summary")
    assert unmarked(page, all_names(page, server.url)) == []
    page.check("input[name=game][value=myllymatti]")
    page.click("#options-box summary")
    page.select_option("#variant", "koira")
    assert unmarked(page, all_names(page, server.url)) == []
    # a table with two open seats: the creation box, then the join page of another browser
    page.fill("#player-name", "Anna")
    page.select_option("#players", "3")
    page.select_option("#seat-0", "open")
    page.select_option("#seat-1", "anyone")
    page.select_option("#seat-2", "bot:random")
    page.click("#create-btn")
    page.locator("#invite-0").wait_for()
    assert unmarked(page, all_names(page, server.url)) == []
    page.click("#created [data-take='0']")
    page.wait_for_selector("#board[data-status=waiting]")
    table_id = page.url.split("/t/")[1].split("?")[0]
    names = seat_names(page, server.url, table_id)
    assert unmarked(page, names) == []
    other_context = browser.new_context(viewport=DESKTOP)
    other = other_context.new_page()
    other.goto(f"{server.url}/t/{table_id}?lang=pseudo")
    other.wait_for_selector("#join:not([hidden]) #join-form")
    assert unmarked(other, names) == []
    other_context.close()
    lobby = context.new_page()
    lobby.goto(server.url + "/")
    lobby.wait_for_selector(f".table-item:has([data-table='{table_id}'])")
    assert unmarked(lobby, all_names(lobby, server.url)) == []
    watch.check()
    context.close()


@pytest.mark.parametrize(
    ("game", "seed", "want"),
    [
        ("myllymatti", 11, {"collect", "shed", "over"}),
        ("mattis", 5, {"collect", "shed", "over"}),
        ("mueckenstich", 3, {"discard", "play", "score", "over"}),
    ],
)
def test_pseudo_locale_every_phase_and_the_end(
    server: Server, browser: Browser, game: str, seed: int, want: set[str]
) -> None:
    """Every text of a whole game, checked before each of our moves and at the end."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    watch = Watch(page)
    table_id = create_table(
        page, server.url, game, ["open", "bot:random", "bot:heuristic"], seed, "pseudo"
    )
    names = seat_names(page, server.url, table_id)
    found: dict[str, str] = {}

    def each(p: Page) -> None:
        for line in unmarked(p, names):
            found.setdefault(line.split(" in ")[0], line)

    phases = play(page, each)
    assert want <= phases, phases
    assert list(found.values()) == []
    e2e.shot(page, f"pseudo-{game}-end")
    lobby = context.new_page()
    lobby.goto(server.url + "/")
    lobby.select_option("#table-filter", "finished")
    lobby.wait_for_selector(f"[data-result='{table_id}']")
    assert unmarked(lobby, all_names(lobby, server.url)) == []
    watch.check()
    context.close()


# ---------------------------------------------------------------- Finnish and German


def test_language_follows_the_browser_and_the_switcher(server: Server, browser: Browser) -> None:
    context = browser.new_context(viewport=DESKTOP, locale="de-DE")
    page = context.new_page()
    watch = Watch(page)
    page.goto(server.url + "/")
    page.wait_for_selector("input[name=game]")
    assert page.locator("html").get_attribute("lang") == "de"
    assert page.inner_text("#create-btn") == "Tisch anlegen"
    assert page.locator("#lang-select option").all_inner_texts() == [
        "English",
        "suomi",
        "Deutsch",
    ]
    with page.expect_navigation():
        page.select_option("#lang-select", "fi")
    page.wait_for_selector("input[name=game]")
    assert page.locator("html").get_attribute("lang") == "fi"
    assert page.inner_text("#create-btn") == "Luo pöytä"
    page.reload()
    page.wait_for_selector("input[name=game]")
    assert page.inner_text("#create-btn") == "Luo pöytä", "the choice is remembered"
    with page.expect_navigation():
        page.select_option("#lang-select", "en")
    page.wait_for_selector("input[name=game]")
    assert page.inner_text("#create-btn") == "Create table"
    watch.check()
    context.close()


def _whole_game(
    server: Server, browser: Browser, lang: str, game: str, seed: int
) -> tuple[Page, list[str], Any]:
    context = browser.new_context(viewport=DESKTOP, locale={"fi": "fi-FI", "de": "de-DE"}[lang])
    page = context.new_page()
    watch = Watch(page)
    sent: list[str] = []
    page.on(
        "request",
        lambda r: sent.append(r.headers.get("accept-language", "")) if "/api/" in r.url else None,
    )
    create_table(page, server.url, game, ["open", "bot:heuristic", "bot:random"], seed)
    page.wait_for_selector("#board[data-status=playing]")
    assert page.locator("html").get_attribute("lang") == lang
    labels = page.locator("#hand [data-card]").evaluate_all("els => els.map(e => e.ariaLabel)")
    shot(page, f"{lang}-{game}-start")
    mid: list[bool] = []

    def each(p: Page) -> None:
        if not mid and e2e.board(p, "phase") in ("shed", "score"):
            shot(p, f"{lang}-{game}-mid")
            mid.append(True)

    play(page, each)
    shot(page, f"{lang}-{game}-end")
    assert sent and all(h.startswith(lang) for h in sent), sent
    watch.check()
    return page, labels, context


def test_whole_myllymatti_game_in_finnish(server: Server, browser: Browser) -> None:
    page, labels, context = _whole_game(server, browser, "fi", "myllymatti", 11)
    suits = ("hertta", "ruutu", "risti", "pata")
    assert labels and all(x.startswith(suits) for x in labels), labels
    assert page.inner_text("#result-title") == "Peli päättyi"
    result = page.inner_text("#result")
    assert "myllymatti" in result or "keskeytettiin" in result, result
    log = page.inner_text("#log-list")
    assert "Sinä" in log and "tikin" in log, log[:400]
    assert page.inner_text("#rules-link") == "Säännöt"
    assert page.get_attribute("#rules-link", "href") == "/rules/myllymatti?lang=fi"
    context.close()


def test_whole_mueckenstich_game_in_german(server: Server, browser: Browser) -> None:
    page, labels, context = _whole_game(server, browser, "de", "mueckenstich", 3)
    colours = ("rote", "blaue", "grüne", "schwarze")
    assert labels and all(x.startswith(colours) for x in labels), labels
    assert page.inner_text("#result-title") == "Spiel vorbei"
    assert "gewinn" in page.inner_text("#result")
    assert page.inner_text("#sheet h2") == "Punkteliste"
    assert "Mücke" in page.inner_text("#log-list") or "Trumpf" in page.inner_text("#log-list")
    context.close()


@pytest.mark.parametrize(
    ("lang", "want"),
    [
        ("fi", ["1 kortti", "3 korttia", "pataässä", "hertta 7", "vihreä hyttynen", "Sinä"]),
        ("de", ["1 Karte", "3 Karten", "Pik-Ass", "Herz 7", "grüne Mücke", "Du"]),
        ("en", ["1 card", "3 cards", "ace of spades", "7 of hearts", "green mosquito", "You"]),
    ],
)
def test_plural_forms_and_card_names(
    server: Server, browser: Browser, lang: str, want: list[str]
) -> None:
    page = browser.new_page()
    page.goto(f"{server.url}/?lang={lang}")
    got = page.evaluate(
        """async () => {
          const i = await import('/static/i18n.js');
          const c = await import('/static/cards.js');
          const a = await import('/static/api.js');
          return [i.ngettext('{n} card', '{n} cards', 1), i.ngettext('{n} card', '{n} cards', 3),
                  c.cardName('AS'), c.cardName('7H'), c.cardName('MG'), a.YOU];
        }"""
    )
    assert got == want
    page.close()
