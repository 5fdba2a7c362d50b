"""A plug-in game that bids at the web table: Oh Hell (``examples/bidding_game`` on the
server's ``PYTHONPATH``), created in the lobby and played whole by clicking against two
quick bots, drawn by the generic renderer.  The bid buttons read as bids (the game's
declared title, "A bid of 2", not the move text "bid 2"), the trump is named in words,
nobody "leads" while the seats bid, each seat's bid and tricks taken show beside it (the
game's ``seat_facts``), and the log names the bids, the phases and the rounds' scores.
At 1280x800 in English and on a phone (390x844, touch) in German; screenshots go to
``test-artifacts/ohhell-*.png``."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from tests import _plugin
from tests.test_web_e2e import (
    HAVE_PLAYWRIGHT,
    Server,
    Watch,
    _missing,
    board,
    browser,
    check_record,
    create_in_lobby,
    shot,
    wait_turn_or_end,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page, ViewportSize

__all__ = ["browser"]  # the fixture, shared with tests/test_web_e2e.py

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "bid": r"A bid of \d",
        "facts": "Bid Tricks",
        "trump": "Trump",
        "suit": r"(spades|hearts|diamonds|clubs)",
        "logbid": r": a bid of \d",
        "first": "goes first",
        "round": "Round 1 scored",
        "bidding": "bidding",
        "playing": "playing tricks",
    },
    "de": {
        "bid": r"Ansage \d",
        "facts": "Ansage Stiche",
        "trump": "Trumpf",
        "suit": r"(Pik|Herz|Karo|Kreuz)",
        "logbid": r": Ansage \d",
        "first": "fängt an",
        "round": "Runde 1",
        "bidding": "Ansagen",
        "playing": "Stiche werden gespielt",
    },
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``tikki serve`` with the bidding plug-in's folder on its ``PYTHONPATH`` (and in this
    process, which replays the record)."""
    if not HAVE_PLAYWRIGHT:
        _missing("the Python package playwright (pip install -e '.[test]')")
    folder, name = _plugin.BIDDING_FOLDER, _plugin.BIDDING_NAME
    with _plugin.plugged(folder, name), pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", _plugin.env(folder=folder)["PYTHONPATH"])
        srv = Server(tmp_path_factory.mktemp("ohhell") / "web.sqlite")
        patch.undo()
        yield srv
        srv.stop()


def press(target: Locator, touch: bool, **kwargs: Any) -> None:
    """A tap on a phone, a click elsewhere."""
    if touch:
        target.tap(**kwargs)
    else:
        target.click(**kwargs)


def bid(page: Page, words: dict[str, str], legal: list[str], touch: bool) -> None:
    """Our turn to bid: the buttons read as bids, the table says nobody leads; bid the
    first number offered."""
    buttons = page.locator("#actions [data-move^='bid ']")
    labels = buttons.all_inner_texts()
    assert len(labels) == len(legal), (labels, legal)
    for label, move in zip(labels, legal, strict=True):
        assert re.fullmatch(words["bid"], label.strip()), (label, move)
        assert label.strip().endswith(move.split(" ")[1]), (label, move)
    assert page.inner_text("#phase") == words["bidding"]
    centre = page.inner_text("#centre")
    assert not re.search(r"\blead", centre, re.IGNORECASE), centre
    assert re.search(words["trump"] + r"\s+\S+\s+" + words["suit"], centre), centre
    press(buttons.first, touch)


def play_card(page: Page, words: dict[str, str], legal: list[str], touch: bool) -> None:
    """Our turn to play: only the cards that follow suit are offered; play the first."""
    assert page.inner_text("#phase") == words["playing"]
    offered = page.locator("#hand .hand-card.legal").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    assert sorted(offered) == sorted(legal), (offered, legal)
    card = page.locator(f"#hand .hand-card.legal[data-card='{legal[0]}']").first
    press(card, touch, position={"x": 6, "y": 22})


def seat_facts(page: Page, words: dict[str, str]) -> None:
    """Every seat shows its bid and its tricks, in the page's language."""
    seats = page.locator("#seats .seat")
    assert seats.count() == 3
    for text in seats.all_inner_texts():
        flat = " ".join(text.split())
        for title in words["facts"].split():
            assert re.search(rf"{title} (\d+|–)", flat), flat


@pytest.mark.parametrize(
    ("lang", "phone"), [("en", False), ("de", True)], ids=["en-1280x800", "de-390x844"]
)
def test_oh_hell_is_bid_and_played_whole(
    server: Server, browser: Browser, lang: str, phone: bool
) -> None:
    words = WORDS[lang]
    size: ViewportSize = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 800}
    context = browser.new_context(viewport=size, has_touch=phone, is_mobile=phone)
    page = context.new_page()
    watch = Watch(page)
    name = f"ohhell-{lang}-{size['width']}x{size['height']}"
    seats = ["open", "bot:random", "bot:random"]
    table_id = create_in_lobby(page, server.url, _plugin.BIDDING_NAME, seats, 5)
    if lang != "en":
        page.goto(page.url + f"&lang={lang}")
    page.wait_for_selector("#board[data-status=playing]")
    assert page.inner_text("#title").startswith("Oh Hell")
    bids = plays = 0
    for _turn in range(40):
        wait_turn_or_end(page)
        if board(page, "status") == "finished":
            break
        seat_facts(page, words)
        seq, legal = board(page, "seq"), json.loads(board(page, "legal"))
        if legal[0].startswith("bid "):
            if not bids:
                shot(page, name + "-bid")
            bid(page, words, legal, phone)
            bids += 1
        else:
            play_card(page, words, legal, phone)
            plays += 1
        page.wait_for_function(
            "s => document.querySelector('#board').dataset.seq !== s", arg=seq, timeout=30_000
        )
        assert not page.locator("#notice.error:not([hidden])").count(), page.inner_text("#notice")
    assert bids >= 1 and plays >= 1, (bids, plays)
    page.wait_for_selector("#result:not([hidden])")
    shot(page, name + "-end")
    log = " ".join(page.inner_text("#log-list").split())
    assert re.search(words["logbid"], log), log
    assert words["first"] in log and words["round"] in log, log
    assert not re.search(r"\bbid \d", log), log  # never the raw move text
    seat_facts(page, words)
    record = check_record(page, server.url, table_id)
    assert record["game"] == _plugin.BIDDING_NAME
    # four rounds (hands of four, three, two and one cards), three bids each
    assert sum(m.startswith("bid ") for m in record["moves"]) == 4 * 3
    watch.check()
    context.close()
