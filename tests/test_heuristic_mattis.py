"""The Mattis heuristic bot: legal whole games, determinism, and a strength smoke test."""

from __future__ import annotations

import random
from typing import Any

import pytest

import tikki
from tests._bots import play_game
from tikki import bots
from tikki.bots.heuristic import mattis as policy

pytestmark = pytest.mark.compiled

GAMES = [(2, {}), (3, {}), (4, {}), (5, {}), (3, {"max_sequence": 2}), (4, {"max_sequence": 2})]


@pytest.mark.parametrize(("players", "options"), GAMES)
def test_plays_whole_games_legally(players: int, options: dict[str, Any]) -> None:
    game = tikki.load("mattis", players=players, **options)
    for seed in range(3):
        lineup = [bots.make("heuristic", seed=seed * 10 + s) for s in range(players)]
        state = play_game(game, lineup, seed)
        outcome = state.outcome
        assert outcome is not None and not outcome["abandoned"]
        assert outcome["loser"] is not None and len(state.moves) > 3 * players


def test_plays_legally_among_random_bots_in_every_phase() -> None:
    """Mixed tables reach positions self-play never does (wars, odd hands, sloughs)."""
    game = tikki.load("mattis", players=4)
    kinds: set[str] = set()
    for seed in range(6):
        lineup = [bots.make("heuristic" if s % 2 == 0 else "random", seed=s) for s in range(4)]

        def note(seat: int, move: str) -> None:
            if seat % 2 == 0:
                kinds.add(move.split()[0] if " " in move else ("seq" if "+" in move else move))

        play_game(game, lineup, seed, note)
    assert {"slough", "pass", "take", "seq"} <= kinds


def test_deterministic_for_a_seed() -> None:
    game = tikki.load("mattis", players=3)
    runs = []
    for _ in range(2):
        lineup = [bots.make("heuristic", seed=7 + s) for s in range(3)]
        runs.append(play_game(game, lineup, 11).moves)
    assert runs[0] == runs[1]


def test_reads_only_the_view() -> None:
    """The policy answers from a view alone, and the same view gives the same move."""
    game = tikki.load("mattis", players=3)
    state = game.new_state(seed=4)
    rng = random.Random(2)
    checked = 0
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        a = policy.choose(game, view, random.Random(1))
        b = policy.choose(game, dict(view), random.Random(1))
        assert a == b and a in view["legal_moves"]
        checked += 1
        state.play(rng.choice(state.legal_moves()))
    assert checked > 50


def _deck(first: list[str]) -> list[str]:
    game = tikki.load("mattis", players=3)
    return first + [c for c in game.deck() if c not in first]


def test_phase_one_leads_low_loses_cheaply_and_sloughs_onto_others() -> None:
    """Rules 2, 3, 5, 6 on a fixed deal (C-2: seat 0 gets cards 0, 3, 6, and so on)."""
    game = tikki.load("mattis", players=3)
    state = game.new_state(deck=_deck(["3S", "5H", "QC", "QH", "QD", "8D", "5D", "KS", "5C"]))
    bot = bots.make("heuristic", seed=1)
    expected = [
        (0, "3S"),  # lead the lowest card (seat 0: 3S QH 5D)
        (1, "KS"),  # nothing loses to 3, few unseen cards are below it: win high (5H QD KS)
        (2, "5C"),  # lose with the lowest card that loses (QC 8D 5C)
        (0, "slough 5D"),  # seat 0 cannot win any more: slough onto seat 1's trick
        (1, "pass"),  # seat 1 is winning: never slough onto your own trick
    ]
    for seat, move in expected:
        assert state.current_player == seat
        view = state.view(seat)
        assert move in view["legal_moves"]
        assert bot.choose(game, view) == move, (seat, view["legal_moves"])
        state.play(move)
    assert state.view(None)["last_winner"] == 1


def _shed_view(hand: list[str], legal: list[str], plays: list[list[str]]) -> dict[str, Any]:
    """A phase-2 view of seat 0 (trump hearts) with the given hand, moves and trick."""
    game = tikki.load("mattis", players=3)
    state = game.new_state(seed=1)
    rng = random.Random(0)
    while state.phase == "collect":
        state.play(rng.choice(state.legal_moves()))
    view = dict(state.view(state.current_player))
    view.update(
        seat=0,
        hand=hand,
        legal_moves=legal,
        trump="H",
        hand_sizes=[len(hand), 8, 8],
        trick={
            "kind": "shed",
            "plays": [{"seat": 1 + k, "cards": cs} for k, cs in enumerate(plays)],
            "size": 3 if plays else None,
        },
    )
    return view


@pytest.mark.parametrize(
    ("hand", "legal", "plays", "move"),
    [
        # rule 8: the lowest non-trump card, the longest sequence from it
        (
            ["2H", "4S", "5S", "6S", "9D", "3C"],
            ["2H", "4S", "5S", "6S", "9D", "3C", "4S+5S", "5S+6S", "4S+5S+6S"],
            [],
            "3C",
        ),
        (
            ["2H", "4S", "5S", "6S", "9D"],
            ["2H", "4S", "5S", "6S", "9D", "4S+5S", "5S+6S", "4S+5S+6S"],
            [],
            "4S+5S+6S",
        ),
        # rule 7: a play that empties the hand
        (["7D", "8D"], ["7D", "8D", "7D+8D"], [], "7D+8D"),
        # rule 9: beat with the suit before a trump, the cheapest beater
        (["3H", "9S", "KS", "QD"], ["3H", "9S", "KS", "take"], [["8S"]], "9S"),
        (["3H", "9H", "QD", "2C"], ["3H", "9H", "take"], [["8S"]], "3H"),
        # rule 10: take a lone card rather than spend the trump ace; not when nearly out
        (["AH", "QD", "2C"], ["AH", "take"], [["KH"]], "take"),
        (["AH", "QD"], ["AH", "take"], [["KH"]], "AH"),
        (["AH", "QD", "2C"], ["AH", "take"], [["9S"], ["KH"]], "AH"),
        (["QD", "2C"], ["take"], [["KH"]], "take"),
    ],
)
def test_phase_two_rules(
    hand: list[str], legal: list[str], plays: list[list[str]], move: str
) -> None:
    game = tikki.load("mattis", players=3)
    assert policy.choose(game, _shed_view(hand, legal, plays), random.Random(0)) == move


def test_beats_random_players() -> None:
    """A fixed-seed smoke test: random's share would be 10 losses of 30."""
    game = tikki.load("mattis", players=3)
    losses = 0
    for seed in range(30):
        seat = seed % 3
        lineup = [bots.make("heuristic" if s == seat else "random", seed=seed) for s in range(3)]
        outcome = play_game(game, lineup, 100 + seed).outcome
        assert outcome is not None
        losses += outcome["loser"] == seat or outcome["abandoned"]
    assert losses <= 3, f"heuristic lost {losses} of 30 against random (random's share: 10)"
