"""Property tests (Hypothesis) for the card notation (RULINGS C-3) and Myllymatti move texts.

* Every card text round-trips: canonical -> parse -> canonical; forgiving forms (lower
  case, ``10`` for ``T``, surrounding spaces) map to the canonical text; anything else is
  refused with ``ValueError``.
* In random game states (seeded playouts; Hypothesis picks the seed, the options and the
  move indices) every legal move text is canonical and accepted, its lower-case and
  spaced variants are the same move, and random strings that do not spell a legal move
  are refused with ``IllegalMove`` leaving the state exactly as it was (``reveal``).
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tikki
from tikki import IllegalMove, State
from tikki.cards import (
    CARD_TEXT,
    french_deck,
    mueckenstich_deck,
    normalize_french,
    normalize_mueckenstich,
    parse_french,
)

pytestmark = pytest.mark.engine

RANKS = "23456789TJQKA"
SUITS = "SHDC"
CANONICAL = [r + s for s in SUITS for r in RANKS]
CARD_RE = r"[2-9TJQKA][SHDC]"
MOVE_RE = re.compile(rf"^(stock|take|{CARD_RE}(\+{CARD_RE})*)$")
CONFIGS: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 3, "variant": "koira"},
    {"players": 4, "runs": True, "take": "all"},
    {"players": 3, "runs": True, "trump_requires_void": True},
]
FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

cards = st.sampled_from(CANONICAL)
spaces = st.text(alphabet=" \t", max_size=3)


def forgiving(card: str, lower: bool, ten: bool, left: str, right: str) -> str:
    """A forgiving spelling of ``card``."""
    text = card.lower() if lower else card
    if ten and card[0] == "T":
        text = "10" + text[1:]
    return left + text + right


def spells(text: str) -> str | None:
    """The canonical card ``text`` spells under C-3, by an independent reading."""
    t = text.strip()
    if not t.isascii():
        return None
    t = t.upper()
    if t[:2] == "10":
        t = "T" + t[2:]
    return t if t in CANONICAL else None


# --- card notation ---------------------------------------------------------------------------


def test_c3_deck_is_the_52_canonical_texts() -> None:
    """C-3: the French deck is exactly the 52 canonical texts, in CARD_TEXT order."""
    assert french_deck() == CANONICAL == list(CARD_TEXT)


@given(cards)
def test_c3_canonical_round_trip(card: str) -> None:
    """C-3: canonical -> parse -> canonical."""
    assert normalize_french(card) == card
    assert CARD_TEXT[parse_french(card)] == card


@given(cards, st.booleans(), st.booleans(), spaces, spaces)
def test_c3_forgiving_forms_map_to_canonical(
    card: str, lower: bool, ten: bool, left: str, right: str
) -> None:
    """C-3: lower case, 10 for T and surrounding spaces all read as the canonical card."""
    text = forgiving(card, lower, ten, left, right)
    assert normalize_french(text) == card
    assert CARD_TEXT[parse_french(text)] == card


@given(st.text(max_size=6))
def test_c3_garbage_is_refused(text: str) -> None:
    """C-3: a text that spells no card is refused with ValueError (and None)."""
    expected = spells(text)
    assert normalize_french(text) == expected
    if expected is None:
        try:
            parse_french(text)
        except ValueError as err:
            assert "is not a card" in str(err)
        else:
            raise AssertionError(f"{text!r} was read as a card")
    else:
        assert CARD_TEXT[parse_french(text)] == expected


def test_c3_refuses_look_alikes() -> None:
    """C-3: near misses are not cards (11, 1, 0, letters swapped, non-ASCII look-alikes)."""
    for text in ["11H", "1H", "0S", "H7", "7", "7HH", "10", "TT", "7\u017f", "\u212aS", "７H"]:
        assert normalize_french(text) is None, text


@given(st.sampled_from(sorted(set(mueckenstich_deck()))), st.booleans(), spaces)
def test_c3_mueckenstich_round_trip(card: str, lower: bool, pad: str) -> None:
    """C-3: Mückenstich cards round-trip and accept lower case and spaces."""
    assert normalize_mueckenstich(card) == card
    text = pad + (card.lower() if lower else card) + pad
    assert normalize_mueckenstich(text) == card


# --- move texts in random states -----------------------------------------------------------


def random_state(config: dict[str, Any], seed: int, length: int, picks: list[int]) -> State:
    """The state after ``length`` moves from the deal of ``seed``: the first moves are
    ``picks`` (indices into the legal moves), the rest chosen by ``Random(seed)``."""
    options = dict(config)
    players = options.pop("players")
    state = tikki.load("myllymatti", players=players, **options).new_state(seed=seed)
    rng = random.Random(seed)
    for i in range(length):
        if state.is_over:
            break
        legal = state.legal_moves()
        pick = picks[i] if i < len(picks) else rng.randrange(len(legal))
        state.play(legal[pick % len(legal)])
    return state


def fingerprint(state: State) -> str:
    return json.dumps(state.reveal(), sort_keys=True)


def variants(move: str, rng: random.Random) -> list[str]:
    """Lower-case, 10-for-T and spaced spellings of a canonical move text."""
    lower = move.lower()
    ten = move.replace("T", "10") if move not in ("stock", "take") else move.upper()
    spaced = " ".join(move).replace(" + ", " +  ")
    mixed = "".join(c.lower() if rng.random() < 0.5 else c for c in move)
    return [lower, ten, spaced, f"  {mixed}\t", lower.replace("+", " + ")]


states = st.builds(
    random_state,
    st.sampled_from(CONFIGS),
    st.integers(0, 10**6),
    st.integers(0, 200),
    st.lists(st.integers(0, 10**6), max_size=60),
)


@FAST
@given(states, st.integers(0, 2**32))
def test_legal_moves_are_canonical_and_accepted_in_any_spelling(state: State, k: int) -> None:
    """C-3: every legal move text is canonical and accepted; its variants are the same move."""
    legal = state.legal_moves()
    if state.is_over:
        assert legal == []
    else:
        assert legal, "a live game must have legal moves"
    assert len(set(legal)) == len(legal)
    rng = random.Random(k)
    for move in rng.sample(legal, min(len(legal), 6)):
        assert MOVE_RE.match(move), f"{move!r} is not canonical"
        played = state.clone()
        played.play(move)
        assert played.moves[-1] == move
        for text in variants(move, rng):
            other = state.clone()
            other.play(text)
            assert other.moves[-1] == move, f"{text!r} was read as {other.moves[-1]!r}"
            assert fingerprint(other) == fingerprint(played)


def spells_move(text: str, legal: list[str]) -> bool:
    """Whether ``text`` spells one of ``legal`` under C-3 (an independent reading)."""
    t = "".join(text.split())
    if not t.isascii():
        return False
    t = t.upper()
    if t in ("STOCK", "TAKE"):
        return t.lower() in legal
    parts = ["T" + p[2:] if p[:2] == "10" else p for p in t.split("+")]
    return "+".join(parts) in legal


garbage = st.one_of(
    st.text(max_size=8),
    st.text(alphabet="0123456789TJQKASHDCtjqkashdc+ ", max_size=9),
    st.sampled_from(["stock", "take", "pass", "7H+", "+", "10", "AS+AS", "2S+4S", "stock 7H"]),
)


@FAST
@given(states, st.lists(garbage, min_size=1, max_size=8))
def test_random_strings_refused_state_unchanged(state: State, texts: list[str]) -> None:
    """IllegalMove for every text that spells no legal move; the state is unchanged."""
    legal = state.legal_moves()
    before = fingerprint(state)
    for text in texts:
        if spells_move(text, legal):
            continue
        try:
            state.play(text)
        except IllegalMove as err:
            assert str(err)
            if legal:
                assert "Legal moves: " + ", ".join(legal) in str(err)
        else:
            raise AssertionError(f"{text!r} was accepted as {state.moves[-1]!r}; legal {legal}")
        assert fingerprint(state) == before
        assert state.legal_moves() == legal


def test_c3_non_ascii_look_alikes_are_not_moves() -> None:
    """C-3 (pinned): only ASCII spellings are forgiven: the long s (``ſ``, upper case S)
    and the Kelvin sign (``K``, lower case k) must not pass for ``2S`` or ``stock``."""
    state = tikki.load("myllymatti", players=3).new_state(deck=CANONICAL)
    before = fingerprint(state)
    for text in ["2\u017f", "2s\u0301", "stoc\u212a", "\u212aS", "ta\u212ae"]:
        try:
            state.play(text)
        except IllegalMove as err:
            assert "is not a move" in str(err)
        else:
            raise AssertionError(f"{text!r} was accepted as {state.moves[-1]!r}")
    assert fingerprint(state) == before
    assert tikki.load("myllymatti").normalize_card("7\u017f") is None
