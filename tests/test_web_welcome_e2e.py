"""A new player signs up on the account page, in each language, on a phone: the greeting
says where to go next, not "0 guest games added." (found on issue 55's tour), and a
browser that played one guest game reads it in the singular.  Skips like
tests/test_web_e2e.py without Chromium (never under ``CI=true``)."""

from __future__ import annotations

import pytest

from tests import test_web_e2e as e2e
from tests._web import page_of, sign_up
from tests.test_web_e2e import Browser, Server

server = e2e.serving("web-welcome")
browser = e2e.browser

NEXT = {"en": "today's puzzle", "fi": "päivän tehtävää", "de": "Tagesaufgabe"}


@pytest.mark.parametrize("lang", ["en", "fi", "de"])
def test_a_new_player_is_told_where_to_go(server: Server, browser: Browser, lang: str) -> None:
    page = page_of(browser, lang, phone=True)
    name = sign_up(page, server.url, lang=lang)
    said = page.locator("#notice").inner_text()
    assert said.startswith(("Welcome", "Tervetuloa", "Willkommen")) and name in said, said
    assert NEXT[lang] in said and "0" not in said.replace(name, ""), said
    page.context.close()


def test_one_guest_game_reads_in_the_singular(server: Server, browser: Browser) -> None:
    page = page_of(browser, "en")
    page.goto(f"{server.url}/account?lang=en")
    shown = page.evaluate("""async () => (await import("/static/account.js")).welcome("Anna", 1)""")
    assert shown == "Welcome, Anna! 1 guest game added."
    page.context.close()
