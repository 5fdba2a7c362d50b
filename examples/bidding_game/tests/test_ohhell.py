"""Oh Hell's own tests: tikki's conformance kit (one class) and the game's own rules.

Run them from this folder with the folder on the path (``PYTHONPATH=. pytest tests``),
or after ``pip install -e .`` of a real package."""

from __future__ import annotations

import random

import pytest

import tikki
from tikki.core import IllegalMove, RulesError
from tikki.testing import ConformanceSuite


class TestOhHell(ConformanceSuite):
    """Every rule of the kit over each configuration Oh Hell declares."""

    game = "ohhell"


def _bid_round(state: tikki.core.State, bids: list[int]) -> None:
    for bid in bids:
        state.play(f"bid {bid}")


def test_hands_shrink_by_a_card_each_round_and_a_trump_is_turned_up() -> None:
    state = tikki.load("ohhell", 4, hand=3).new_state(seed=4)
    rng = random.Random(4)
    seen: list[tuple[int, str]] = []
    while not state.is_over:
        view = state.view(0)
        if not seen or seen[-1][0] != view["round"]:
            seen.append((view["round"], view["trump_card"]))
            assert view["hand_sizes"] == [3 - view["round"]] * 4
            assert view["trump"] == view["trump_card"][-1]
        state.play(rng.choice(state.legal_moves()))
    assert [r for r, _ in seen] == [0, 1, 2]


def test_the_dealer_may_not_make_the_bids_add_up() -> None:
    state = tikki.load("ohhell", 3).new_state(seed=1)
    _bid_round(state, [1, 1])
    assert state.current_player == state.view(None)["dealer"]
    assert "bid 2" not in state.legal_moves()
    with pytest.raises(IllegalMove, match="may not add up to 4"):
        state.play("bid 2")
    state.play("Bid 3")  # forgiving text: any case, spaces or none
    assert state.phase == "play" and state.view(None)["bids"] == [3, 1, 1]


def test_without_the_hook_the_dealer_bids_anything() -> None:
    state = tikki.load("ohhell", 3, hook=False).new_state(seed=1)
    _bid_round(state, [1, 1])
    assert "bid 2" in state.legal_moves()


def test_a_bid_is_refused_in_words_and_changes_nothing() -> None:
    state = tikki.load("ohhell", 3).new_state(seed=1)
    for bad, words in (("7", "is no bid"), ("bid 9", "from 0 to 4"), ("QH", "is no bid")):
        with pytest.raises(IllegalMove, match=words):
            state.play(bad)
    assert state.moves == []


def test_the_largest_hand_depends_on_the_players() -> None:
    assert tikki.load("ohhell", 3, hand=7).option("hand") == 7
    with pytest.raises(RulesError, match="at most 5 with 4 players"):
        tikki.load("ohhell", 4, hand=6)


def test_exact_bids_score_ten_and_a_point_a_trick() -> None:
    game = tikki.load("ohhell", 3, hand=1)
    state = game.new_state(seed=2)
    _bid_round(state, [0, 0])
    state.play("bid 0")  # 0+0+0 is not 1: the hook allows it
    while not state.is_over:
        state.play(state.legal_moves()[0])
    outcome = state.outcome
    assert outcome is not None
    winner = state.view(None)["last_trick"]["winner"]
    assert outcome["scores"] == [0 if s == winner else 10 for s in range(3)]


def test_a_search_bot_plays_it_round_by_round() -> None:
    """The multi-round search contract: ``round``, ``returns_so_far`` and
    ``random_playout(rounds=1)``, which stops after the round in progress is scored."""
    state = tikki.load("ohhell", 4).new_state(seed=3)
    clone = state.clone()
    clone.random_playout(random.Random(1), rounds=1)
    assert clone.round == 1 and not clone.is_over and state.round == 0
    assert sum(clone.returns_so_far()) >= 0 and state.returns_so_far() == [0.0] * 4
    bot = tikki.bots.make("ismcts:iterations=50", seed=1)
    seat = state.current_player
    assert seat is not None
    assert bot.choose(state.game, state.view(seat)) in state.legal_moves()
