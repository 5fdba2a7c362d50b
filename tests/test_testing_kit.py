"""The conformance kit (:mod:`tikki.testing`) catches what it claims to: games broken on
purpose fail with the rule they break named; the kit names no game, phase or move word of
tikki's own games; every rule has a text."""

from __future__ import annotations

import ast
import importlib
import random
from pathlib import Path
from typing import Any

import pytest

import tikki
from tikki.cards import TEXT_CARD
from tikki.core import IllegalMove
from tikki.games import mattis, myllymatti
from tikki.testing import RULES, ConformanceError, hidden_swap_is_invisible, playout
from tikki.testing.checks import removes

pytestmark = [pytest.mark.engine]

KIT = Path(tikki.__file__).parent / "testing"


def _broken(rule: str, run: Any) -> None:
    with pytest.raises(ConformanceError) as caught:
        run()
    assert caught.value.rule == rule, str(caught.value)
    assert f"[{rule}]" in str(caught.value) and RULES[rule] in str(caught.value)


def test_a_view_that_shows_a_hidden_card_is_a_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    original = myllymatti.MyllymattiState.view

    def leaky(self: myllymatti.MyllymattiState, seat: Any) -> Any:
        view = original(self, seat)
        if seat is not None:
            view["peek"] = self.reveal()["hidden"][str(seat)][:1]
        return view

    monkeypatch.setattr(myllymatti.MyllymattiState, "view", leaky)
    game = tikki.load("myllymatti", players=3)
    _broken("no-leak", lambda: playout(game, seed=1, deep=True))


def test_a_refused_move_must_be_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    original = myllymatti.MyllymattiState.play

    def lenient(self: myllymatti.MyllymattiState, move: str) -> None:
        try:
            original(self, move)
        except IllegalMove:
            return

    monkeypatch.setattr(myllymatti.MyllymattiState, "play", lenient)
    game = tikki.load("myllymatti", players=3)
    _broken("refusals", lambda: playout(game, seed=1, deep=False))


def test_a_deck_given_must_not_change_what_the_seed_draws(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Mattis once drew its dreck seed differently when given its own deck: the hidden
    swap then compared nothing and said "seat 0 can tell 6S from 9H"."""

    def old(self: mattis.Mattis, seed: int, deck: list[str] | None) -> mattis.MattisState:
        rng = random.Random(seed)
        if deck is None:
            order = list(self.cards)
            rng.shuffle(order)
        else:
            order = [TEXT_CARD[t] for t in deck]
        state = mattis.MattisState()
        state._setup(self, seed, deck)
        state._dreck_seed = rng.getrandbits(63)
        state._deal(order)
        return state

    monkeypatch.setattr(mattis.Mattis, "_new_state", old)
    _broken("seed-and-deck", lambda: hidden_swap_is_invisible(("mattis", 4, {})))


def test_every_phase_event_names_the_next_to_act(monkeypatch: pytest.MonkeyPatch) -> None:
    original = myllymatti.MyllymattiState.view

    def misled(self: myllymatti.MyllymattiState, seat: Any) -> Any:
        view = original(self, seat)
        for entry in view["history"]:
            for event in entry.get("events", []):
                if event["type"] == "phase":
                    event["leader"] = (event["leader"] + 1) % self.game.players
        return view

    monkeypatch.setattr(myllymatti.MyllymattiState, "view", misled)
    game = tikki.load("myllymatti", players=3)
    _broken("phase-event", lambda: [playout(game, seed=s, deep=True) for s in range(5)])


def test_a_move_takes_the_cards_it_names() -> None:
    deck = {"7H", "8H", "QS"}
    assert removes("7H", deck) == 1
    assert removes("7H+8H", deck) == 2
    assert removes("slough QS", deck) == 1
    assert removes("stock", deck) == 0
    assert removes("bid 7", deck) == 0


def _literals() -> set[str]:
    out: set[str] = set()
    for path in KIT.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                out.add(node.value)
    return out


def test_the_kit_names_no_game_phase_or_move_word_of_tikkis_own() -> None:
    own: set[str] = set()
    for name in ("myllymatti", "mattis", "mueckenstich"):
        phases = importlib.import_module(f"tikki.games.{name}").PHASE_NAMES
        grammar = tikki.load(name).move_grammar()
        own |= {name, *phases, *grammar.words, *grammar.card_words, *grammar.suit_words}
    own -= {"over", "play", "take", "trump"}  # the final phase, play(); events of the contract
    assert own, "nothing to look for"
    named = {w for w in own for text in _literals() if w in text.split()}
    assert named == set()


def test_every_rule_has_a_text_and_the_docs_list_it() -> None:
    docs = (Path(__file__).resolve().parent.parent / "docs" / "writing-a-game.md").read_text()
    for rule, text in RULES.items():
        assert len(text) > 30, rule
        assert f"`{rule}`" in docs, f"docs/writing-a-game.md does not list the rule {rule}"
