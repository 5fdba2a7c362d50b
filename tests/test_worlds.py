"""Worlds weighted by the play (``expert:inference=policy``, :mod:`tikki.bots.worlds`)."""

from __future__ import annotations

import random

import pytest

import tikki
from tests.test_expert import swapped_twin
from tikki import bots
from tikki.bots.expert import ExpertBot
from tikki.bots.worlds import Tally, likelihood_for, weighted
from tikki.core import RulesError, State
from tikki.games.mueckenstich import CARD_TEXT, MueckenstichState
from tikki.games.mueckenstich_tactics import cheap_card, observed_plays


def _play_phase_state(seed: int, moves: int) -> MueckenstichState:
    """A 4-player Mückenstich match after ``moves`` random moves (fixed deck)."""
    game = tikki.load("mueckenstich", players=4)
    deck = game.new_state(seed=seed).reveal()["deal_order"]
    state = game.new_state(seed=seed, deck=deck)
    rng = random.Random(seed)
    for _ in range(moves):
        state.play(rng.choice(state.legal_moves()))
    assert isinstance(state, MueckenstichState)
    return state


def test_observed_plays_are_the_table_as_it_was() -> None:
    """Each card another seat played this deal is read from the view's history with the
    trick, colour led and trump the real table had before it, and the cards it held."""
    game = tikki.load("mueckenstich", players=4)
    checked = 0
    for seed in range(4):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        seen: list[tuple[int, int, tuple[tuple[int, int], ...], int, int]] = []
        while state.view(0)["round"] == 0:
            assert isinstance(state, MueckenstichState)
            move = rng.choice(state.legal_moves())
            if state.phase != "play":
                seen = []
            elif not state._pending:
                card = CARD_TEXT.index(move)
                seen.append((state._to_act, card, tuple(state._trick), state._led, state._trump))
            state.play(move)
            if state.phase != "play" or state.current_player != 0:
                continue
            plays = observed_plays(state.view(0))
            others = [(i, s) for i, s in enumerate(seen) if s[0] != 0]
            assert [(p.seat, p.card, p.trick, p.led, p.trump) for p in plays] == [
                s for _, s in others
            ]
            for p, (i, _) in zip(plays, others, strict=True):
                assert list(p.held) == [p.card, *(s[1] for s in seen[i + 1 :] if s[0] == p.seat)]
            checked += len(plays)
    assert checked > 100


def test_the_weight_prefers_worlds_where_the_play_was_the_rule_s() -> None:
    """A lead that the model's rule would make from a world's hand makes the world likelier:
    weighted draws hold such hands more often than uniform draws do."""
    state = _play_phase_state(3, 0)
    game = state.game
    rng = random.Random(0)
    while not (
        state.phase == "play" and state.current_player == 0 and observed_plays(state.view(0))
    ):
        state.play(rng.choice(state.legal_moves()))
    view = state.view(0)
    plays = observed_plays(view)
    likelihood = likelihood_for(game, view)
    assert likelihood is not None
    sample = game.sampler(view)

    def ruled(world: State) -> float:
        """The share of the observed plays the rule makes from the world's hands."""
        assert isinstance(world, MueckenstichState)
        hits = 0
        for p in plays:
            cards = [*world._hands[p.seat], *p.held]
            follow = [c for c in cards if c >> 4 == p.led] if p.led >= 0 else []
            options = sorted(set(follow or cards))
            hits += cheap_card(options, p.trick, p.seat, p.led, p.trump, 4) == p.card
        return hits / len(plays)

    uniform = [ruled(sample(random.Random(i))) for i in range(400)]
    drawn = weighted(sample, likelihood, Tally())
    draw_rng = random.Random(1)
    chosen = [ruled(drawn(draw_rng)) for _ in range(400)]
    assert sum(chosen) / 400 > sum(uniform) / 400 + 0.05


def test_weights_read_only_the_view() -> None:
    """Two real matches that differ only in cards hidden from the seat give the expert with
    inference the same search (the same move, statistics and weighing)."""
    game = tikki.load("mueckenstich", players=4)
    rng = random.Random(4)
    compared = 0
    for seed in range(30):
        state = _play_phase_state(seed, 0)
        for _ in range(rng.randrange(12, 40)):
            state.play(rng.choice(state.legal_moves()))
        seat = state.current_player
        if seat is None or len(state.legal_moves()) < 2 or state.phase != "play":
            continue
        view = state.view(seat)
        if likelihood_for(game, view) is None:
            continue
        other = swapped_twin(game, state, seat, rng)
        if other is None or other.reveal()["zones"] == state.reveal()["zones"]:
            continue  # no twin, or one whose swap moved no card of this match's table
        runs = []
        for s in (state, other):
            bot = ExpertBot(seed=9, iterations=200, inference="policy")
            move = bot.choose(game, s.view(seat))
            worlds = [game.sampler(s.view(seat))(random.Random(k)) for k in range(20)]
            weigh = likelihood_for(game, s.view(seat))
            assert weigh is not None
            runs.append((move, bot.search.root_stats, [weigh(w) for w in worlds]))
        assert runs[0] == runs[1], seed
        compared += 1
    assert compared >= 3


def test_inference_is_deterministic_with_a_seed_and_changes_the_search() -> None:
    state = _play_phase_state(5, 30)
    game = state.game
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    assert likelihood_for(game, view) is not None
    stats = []
    for mode in ("policy", "policy", "off"):
        bot = ExpertBot(seed=2, iterations=300, inference=mode)
        bot.appraise(game, view)
        stats.append(bot.search.root_stats)
    assert stats[0] == stats[1]
    assert stats[0] != stats[2]


def test_off_is_the_search_of_before() -> None:
    """``inference=off`` (the default) searches exactly as the expert did without it."""
    state = _play_phase_state(6, 30)
    game = state.game
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    plain = ExpertBot(seed=2, iterations=300)
    off = bots.make("expert:iterations=300:inference=off", seed=0)
    assert isinstance(off, ExpertBot)
    off.rng, off.search.rng = random.Random(0), random.Random(0)
    plain.rng, plain.search.rng = random.Random(0), random.Random(0)
    assert plain.choose(game, view) == off.choose(game, view)
    assert plain.search.root_stats == off.search.root_stats
    assert "worlds" not in off.last


def test_a_game_without_a_model_searches_as_before() -> None:
    game = tikki.load("myllymatti", players=3)
    view = game.new_state(seed=1).view(0)
    runs = []
    for mode in ("policy", "off"):
        bot = ExpertBot(seed=2, iterations=200, inference=mode)
        runs.append((bot.choose(game, view), bot.search.root_stats))
    assert runs[0] == runs[1]


@pytest.mark.parametrize("spec", ["expert:inference=on", "expert:inference=1"])
def test_a_bad_inference_is_a_clear_error(spec: str) -> None:
    with pytest.raises(RulesError, match="inference is off, policy"):
        bots.make(spec)
