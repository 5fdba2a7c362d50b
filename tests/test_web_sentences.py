"""Sentences about the player themself, in English, Finnish and German.

In Chromium, the table's own modules (``render/seats.js``, ``events.js``, ``moves.js``)
render every message that names a seat with the player ("You", seat 0) in each place
of it: as the only seat, as another seat, first, in the middle and last of a list, and
not at all. The texts (tags stripped) must equal ``tests/web_sentences.json``, a list
read and checked by a fluent reader of each language: no "Stich für Du", no "Trick won by
You", no "; You lead.", lists with their "and".

``TIKKI_WRITE_SENTENCES=1`` rewrites the list from the page (then read every line again
before committing it). Skips like tests/test_web_e2e.py without Chromium (never under
``CI=true``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.test_web_e2e import Browser, Server, Watch, browser

__all__ = ["browser"]

EXPECTED = Path(__file__).with_name("web_sentences.json")
LANGS = ("en", "fi", "de")

RENDER_JS = """async () => {
  const seats = await import('/static/render/seats.js');
  const { eventText } = await import('/static/events.js');
  const { describe } = await import('/static/moves.js');
  const { YOU } = await import('/static/api.js');
  const text = (html) => {
    const box = document.createElement('div');
    box.innerHTML = html;
    return box.textContent.replace(/\\s+/g, ' ').trim();
  };
  const names = [YOU, 'Anna', 'Ben'];
  const lists = [[0, 1], [1, 0], [1, 0, 2], [1, 2, 0], [1, 2]];
  const out = [];
  for (const s of [0, 1]) {
    out.push(seats.trickWonBy(names, s), seats.wonBy(names, s), seats.inList(names, s));
    out.push(seats.leadClause(names, s, 'lead'), seats.leadClause(names, s, 'choose'));
  }
  for (const l of lists) {
    for (const kind of ['trick', 'duel', 'war']) out.push(seats.roundHeading(kind, names, l));
    out.push(seats.tieLine('Kina', names, l));
  }
  for (const l of [[0], [1], ...lists]) {
    for (const n of [1, 5]) out.push(seats.winnersLine(names, l, n));
  }
  const cards = [{seat: 0, card: '7H'}, {seat: 1, card: '9H'}, {seat: 2, card: 'KS'}];
  for (const s of [0, 1]) {
    const events = [
      {type: 'trick', winner: s, cards},
      {type: 'trick', winner: s, cards: []},
      {type: 'take', seat: s, cards: ['7H', '8S']},
      {type: 'draw', seat: s, cards: ['7H']},
      {type: 'draw', seat: s, count: 1},
      {type: 'draw', seat: s, count: 3},
      {type: 'last_card', seat: s, card: 'QC'},
      {type: 'last_card', seat: s},
      {type: 'out', seat: s, place: 2},
      {type: 'phase', phase: 'play', leader: s},
      {type: 'phase', phase: 'shed', leader: s},
      {type: 'phase', phase: 'score', leader: s},
    ];
    for (const e of events) out.push(text(eventText(e, names, 'myllymatti', {move: '7H'})));
    for (const move of ['7H', '7H+8H', 'stock', 'take', 'pass', 'slough 7H', 'discard 7H',
                        'discard', 'trump G', 'double G', 'drop G']) {
      const entry = {seat: s, move, card: move === 'stock' ? 'AS' : undefined};
      out.push(text(describe(entry, s === 0, names[s])));
    }
  }
  for (const l of lists) {
    out.push(text(eventText({type: 'tie', seats: l}, names, 'myllymatti', null)));
    out.push(text(eventText({type: 'tie', seats: l}, names, 'mattis', null)));
  }
  return out;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("sentences") / "web.sqlite")
    yield srv
    srv.stop()


def test_sentences_about_the_player_themself(server: Server, browser: Browser) -> None:
    rendered: dict[str, list[str]] = {}
    context = browser.new_context()
    page = context.new_page()
    watch = Watch(page)
    for lang in LANGS:
        page.goto(f"{server.url}/?lang={lang}")
        page.wait_for_selector("#create-btn")
        rendered[lang] = page.evaluate(RENDER_JS)
    watch.check()
    context.close()
    if os.environ.get("TIKKI_WRITE_SENTENCES") == "1":
        EXPECTED.write_text(json.dumps(rendered, ensure_ascii=False, indent=1) + "\n")
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))
    for lang in LANGS:
        got, want = rendered[lang], expected[lang]
        wrong = [(w, g) for w, g in zip(want, got, strict=False) if w != g]
        assert not wrong and len(got) == len(want), f"{lang}: expected, got: {wrong[:8]}"
    for lang, bad in [("de", "für Du"), ("en", "by You"), ("en", "; You"), ("de", "; Du")]:
        assert not [s for s in rendered[lang] if bad in s], (lang, bad)


WORDING_JS = """async () => {
  const { percent, optionName } = await import('/static/words.js');
  const { shedPrompt } = await import('/static/render/shedding.js');
  const { moveChips } = await import('/static/moves.js');
  const text = (html) => {
    const box = document.createElement('div');
    box.innerHTML = html;
    return box.textContent;
  };
  const view = {trick: {plays: [{seat: 1, cards: ['7S']}]}, trump: 'C',
                legal_moves: ['8S', '8S+9S', 'take']};
  const catalog = await (await fetch(`/static/i18n/${document.documentElement.lang}.json`)).json();
  const games = await (await fetch(`/api/games?lang=${document.documentElement.lang}`)).json();
  return {
    percent: percent(12),
    prompt: text(shedPrompt(view, 'sequence')),
    stock: text(moveChips('stock')),
    mostMoves: optionName('max_moves'),
    texts: JSON.stringify(catalog.messages) + JSON.stringify(games),
  };
}"""

BAD_WORDS = {
    "fi": ("pudotuspeli", "Voita vähän kaksintaisteluja ja hyviä", "pois · ", "seed pois"),
    "de": ("Abwerfspiel", "Zahlkarten", "in rot", "lass seed weg", "Mitgehpflicht"),
    "en": (),
}


def test_wording_reads_as_written_in_each_language(server: Server, browser: Browser) -> None:
    """The wording the review found, fixed in each language: no
    doubled brackets in the shedding prompt, percentages as each language writes them,
    the stock move a noun where it names a move (not an imperative), the lobby's and the
    rules' words agree, and none of the reported phrases is left in the catalogs or in
    the server's game texts."""
    context = browser.new_context()
    page = context.new_page()
    watch = Watch(page)
    got = {}
    for lang in LANGS:
        page.goto(f"{server.url}/?lang={lang}")
        page.wait_for_selector("a[data-rules]")
        got[lang] = page.evaluate(WORDING_JS)
    watch.check()
    context.close()
    assert [got[lang]["percent"] for lang in LANGS] == ["12%", "12\u00a0%", "12\u00a0%"]
    for lang in LANGS:
        prompt = got[lang]["prompt"]
        assert prompt.count("(") <= 1 and ") (" not in prompt, (lang, prompt)
        assert not [w for w in BAD_WORDS[lang] if w in got[lang]["texts"]], lang
    assert got["en"]["prompt"].endswith("(clubs); a sequence works too — or take."), got["en"]
    assert got["fi"]["stock"] == "pakan päällimmäisen kortin kääntäminen"
    assert got["de"]["mostMoves"] == "Höchstzahl der Züge"
