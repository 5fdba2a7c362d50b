"""The kit's whole-game checks, one function per test, and :class:`ConformanceSuite`, the
pytest class that runs them over a game's configurations."""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from typing import Any, ClassVar

import tikki
from tikki.core import Game, IllegalMove, State
from tikki.testing.checks import Config, config_id, configs, playout
from tikki.testing.rules import ConformanceError, check

GAMES = int(os.environ.get("TIKKI_CONFORMANCE_GAMES", "150"))
"""Random playouts per configuration (raise it for a longer campaign)."""
DEEP = int(os.environ.get("TIKKI_CONFORMANCE_DEEP", "12"))
"""Of those, how many check every legal move, the views, events and samples after each
move (the costly part)."""


def _load(config: Config) -> Game:
    name, players, options = config
    return tikki.load(name, players=players, **options)


def random_playouts(config: Config, games: int = GAMES, deep: int = DEEP) -> None:
    """``games`` checked random playouts (the first ``deep`` of them deep), each replayed
    from its record and from its seed; rules ``record-replays``, ``seeded``, ``ends``."""
    game = _load(config)
    abandoned = 0
    for seed in range(games):
        state = playout(game, seed, deep=seed < deep)
        again = tikki.replay(json.loads(json.dumps(state.record())))
        check(again.reveal() == state.reveal(), "record-replays", f"seed {seed}")
        same = game.new_state(seed=seed)
        for move in state.moves:
            check(move in same.legal_moves(), "seeded", f"seed {seed}: {move!r} not legal")
            same.play(move)
        check(same.reveal() == state.reveal(), "seeded", f"seed {seed} gave another game")
        abandoned += bool(state.outcome and state.outcome.get("abandoned"))
    if "max_moves" not in config[2]:
        check(abandoned < max(1, games // 10), "ends", f"{abandoned} of {games} abandoned")


def same_seed_same_game(config: Config) -> None:
    """Rule ``seeded``: two games from one seed, played alike, stay alike."""
    game = _load(config)
    for seed in (1, 2, 3):
        a, b = game.new_state(seed=seed), game.new_state(seed=seed)
        rng_a, rng_b = random.Random(seed), random.Random(seed)
        while not a.is_over:
            check(a.legal_moves() == b.legal_moves(), "seeded", f"seed {seed}")
            a.play(rng_a.choice(a.legal_moves()))
            b.play(rng_b.choice(b.legal_moves()))
        check(a.reveal() == b.reveal() and a.outcome == b.outcome, "seeded", f"seed {seed}")
    first, second = game.new_state(seed=1).reveal(), game.new_state(seed=2).reveal()
    check(first != second, "seeded", "seeds 1 and 2 dealt the same")


def hidden_swap_is_invisible(config: Config) -> None:
    """Rules ``seed-and-deck`` and ``hidden-swap``: leaks by equivalence."""
    game = _load(config)
    players = config[1]
    rng = random.Random(99)
    checked = 0
    for seed in range(40):
        state = game.new_state(seed=seed)
        stop = rng.randrange(1, 80)
        while not state.is_over and len(state.moves) < stop:
            state.play(rng.choice(state.legal_moves()))
        seat = rng.randrange(players)
        deck = state.record().get("deck") or _deck_of(state)
        if deck is None:
            continue
        _check_seed_and_deck(state, deck)
        swapped = _swap(state, seat, deck, rng)
        if swapped is None:
            continue
        other = _replay_on(state, swapped)
        if other is None:
            continue  # the swap changed what was legal for someone: not comparable
        a, b = swapped[1]
        check(other.view(seat) == state.view(seat), "hidden-swap", f"seat {seat}: {a}/{b}")
        same_a = game.sample_state(state.view(seat), random.Random(seed)).reveal()
        same_b = game.sample_state(other.view(seat), random.Random(seed)).reveal()
        check(same_a == same_b, "hidden-swap", "sample_state used a card the seat cannot see")
        checked += 1
    check(checked >= 10, "hidden-swap", f"only {checked} comparable swaps: too few to tell")


def _check_seed_and_deck(state: State, deck: list[str]) -> None:
    """The same seed given its own dealing order plays the same moves into the same game."""
    same = _replay_on(state, (deck, ("", "")))
    check(
        same is not None and same.reveal() == state.reveal(),
        "seed-and-deck",
        f"seed {state.seed} with its own deck is another game",
    )


def _swap(
    state: State, seat: int, deck: list[str], rng: random.Random
) -> tuple[list[str], tuple[str, str]] | None:
    """The dealing order with two cards ``seat`` cannot see swapped (like for like where
    the deck has copies), or None where there are not two such cards."""
    pool = sorted(set(state.reveal()["hidden"][str(seat)]))
    counts = Counter(deck)
    if len({counts[c] for c in pool}) > 1:
        size = counts[rng.choice(pool)]
        pool = [c for c in pool if counts[c] == size]
    if len(pool) < 2:
        return None
    a, b = rng.sample(pool, 2)
    return [b if c == a else a if c == b else c for c in deck], (a, b)


def _replay_on(state: State, dealt: tuple[list[str], tuple[str, str]]) -> State | None:
    """``state``'s moves played on a game of its seed dealt in ``dealt``'s order, or None
    where a move is refused or another seat acts."""
    other = state.game.new_state(seed=state.seed, deck=dealt[0])
    seats = [entry["seat"] for entry in state.history(None)]
    try:
        for move, mover in zip(state.moves, seats, strict=True):
            if other.current_player != mover:
                return None
            other.play(move)
    except IllegalMove:
        return None
    return other if other.current_player == state.current_player else None


def _deck_of(state: State) -> list[str] | None:
    """The dealing order of a seeded game, read from its first deal (``deal_order``)."""
    order = state.game.new_state(seed=state.seed).reveal().get("deal_order")
    return list(order) if order else None


def clone_is_apart(config: Config) -> None:
    """Rule ``clone-is-apart``."""
    game = _load(config)
    for seed in range(3):
        state, rng = game.new_state(seed=seed), random.Random(seed)
        step = 0
        while not state.is_over:
            if step % 7 == 0:
                _check_clones(state, game, rng, seed)
            state.play(rng.choice(state.legal_moves()))
            step += 1


def _check_clones(state: State, game: Game, rng: random.Random, seed: int) -> None:
    seat = state.current_player
    before = json.dumps([state.reveal(), state.view(seat), state.view(None)])
    by_moves, fast = state.clone(), state.clone()
    while not by_moves.is_over:
        by_moves.play(rng.choice(by_moves.legal_moves()))
    fast.random_playout(rng, greedy=0.5)
    after = json.dumps([state.reveal(), state.view(seat), state.view(None)])
    check(after == before, "clone-is-apart", f"playing a clone changed the original (seed {seed})")
    if seat is None:
        return
    sampled = game.sample_state(state.view(seat), rng)
    known = json.dumps(sampled.reveal())
    copy = sampled.clone()
    copy.random_playout(rng)
    check(json.dumps(sampled.reveal()) == known, "clone-is-apart", "a sampled state's clone")


class ConformanceSuite:
    """The kit as a pytest class: subclass it in a test module, name the game, and pytest
    runs every check over each configuration the game declares::

        from tikki.testing import ConformanceSuite

        class TestMyGame(ConformanceSuite):
            game = "mygame"

    ``game = None`` runs every registered game.  ``games`` and ``deep`` set the campaign
    (default: ``TIKKI_CONFORMANCE_GAMES`` and ``TIKKI_CONFORMANCE_DEEP``, else 150 and 12).
    """

    game: ClassVar[str | None] = None
    """The game to check, by its registered name (None: every registered game)."""
    games: ClassVar[int] = GAMES
    """Random playouts per configuration."""
    deep: ClassVar[int] = DEEP
    """How many of them are checked deeply."""

    def pytest_generate_tests(self, metafunc: Any) -> None:
        """Parametrise each test over the game's configurations (pytest calls it)."""
        if "config" in metafunc.fixturenames:
            cases = configs(self.game)
            metafunc.parametrize("config", cases, ids=[config_id(c) for c in cases])

    def test_random_playouts(self, config: Config) -> None:
        """Every per-move rule over random playouts, each replayed from record and seed."""
        random_playouts(config, self.games, self.deep)

    def test_same_seed_same_game(self, config: Config) -> None:
        """One seed, one game."""
        same_seed_same_game(config)

    def test_hidden_swap_is_invisible(self, config: Config) -> None:
        """Swapping two cards a seat cannot see changes nothing it sees."""
        hidden_swap_is_invisible(config)

    def test_playing_on_a_clone_leaves_the_original(self, config: Config) -> None:
        """A clone shares nothing that play changes."""
        clone_is_apart(config)


__all__ = ["ConformanceError", "ConformanceSuite"]
