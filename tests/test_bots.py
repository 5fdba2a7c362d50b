"""Bots: legality, determinism, strength smoke tests, hidden information, external bots."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

import tikki
from tests._bots import play_game
from tikki import bots
from tikki.bots.external import BotFailure
from tikki.bots.ismcts import ISMCTSBot, Node
from tikki.core import RulesError

pytestmark = pytest.mark.compiled

VARIANTS: list[tuple[str, int, dict[str, Any]]] = [
    ("mattis", 3, {}),
    ("mueckenstich", 4, {}),
    ("myllymatti", 3, {}),
    ("myllymatti", 4, {"variant": "koira"}),
    ("myllymatti", 2, {"take": "all", "runs": True}),
    ("myllymatti", 3, {"trump_requires_void": True}),
]


def test_specs_parse_and_unknown_bots_are_named() -> None:
    assert bots.parse_spec("ismcts:iterations=50:c=1.2") == (
        "ismcts",
        {"iterations": "50", "c": "1.2"},
    )
    assert bots.parse_spec("cmd:python3 bot.py --fast") == (
        "cmd",
        {"command": "python3 bot.py --fast"},
    )
    with pytest.raises(RulesError, match="the bots are"):
        bots.make("wizard")
    with pytest.raises(RulesError, match="is not key=value"):
        bots.make("ismcts:iterations")
    with pytest.raises(RulesError, match=r"has no parameter 'depth': it takes none"):
        bots.make("random:depth=3")
    assert isinstance(bots.make("ismcts", iterations=7, seed=1), ISMCTSBot)


@pytest.mark.parametrize(("name", "players", "options"), VARIANTS)
def test_heuristic_plays_legally_everywhere(
    name: str, players: int, options: dict[str, Any]
) -> None:
    game = tikki.load(name, players=players, **options)
    for seed in range(8):
        lineup = [bots.make("heuristic", seed=seed * 10 + s) for s in range(players)]
        assert play_game(game, lineup, seed).is_over


def test_heuristic_beats_random() -> None:
    game = tikki.load("myllymatti", players=3)
    losses = 0
    for seed in range(30):
        seat = seed % 3
        lineup = [bots.make("heuristic" if s == seat else "random", seed=seed) for s in range(3)]
        outcome = play_game(game, lineup, seed).outcome
        assert outcome is not None
        losses += outcome["loser"] == seat
    assert losses <= 6, f"heuristic lost {losses} of 30 against random (random's share: 10)"


def test_bots_are_deterministic_for_a_seed() -> None:
    game = tikki.load("myllymatti", players=3)
    for spec in ("random", "heuristic", "ismcts:iterations=30"):
        runs = []
        for _ in range(2):
            lineup = [bots.make(spec, seed=5 + s) for s in range(3)]
            runs.append(play_game(game, lineup, 3).moves)
        assert runs[0] == runs[1], spec


def test_ismcts_never_reads_hidden_cards() -> None:
    """Two states that differ only in cards hidden from the seat give the same move."""
    game = tikki.load("myllymatti", players=3)
    rng = random.Random(4)
    compared = 0
    for seed in range(12):
        state = game.new_state(seed=seed)
        for _ in range(rng.randrange(0, 20)):
            state.play(rng.choice(state.legal_moves()))
        seat = state.current_player
        assert seat is not None
        hidden = sorted(state.reveal()["hidden"][str(seat)])
        a, b = rng.sample(hidden, 2)
        deck = state.reveal()["deal_order"]
        other = game.new_state(seed=seed, deck=[b if c == a else a if c == b else c for c in deck])
        for move in state.moves:
            other.play(move)
        assert other.view(seat) == state.view(seat)
        moves = [
            ISMCTSBot(seed=9, iterations=60).choose(game, s.view(seat)) for s in (state, other)
        ]
        assert moves[0] == moves[1]
        compared += 1
    assert compared == 12


def test_ismcts_search_statistics() -> None:
    game = tikki.load("myllymatti", players=3)
    state = game.new_state(seed=2)
    bot = ISMCTSBot(seed=1, iterations=200)
    root = bot.search(game, state.view(0))
    assert bot.last_iterations == 200
    assert set(root.children) == set(state.legal_moves())
    assert sum(c.visits for c in root.children.values()) == 200
    with pytest.raises(RulesError):
        ISMCTSBot(iterations=0)
    timed = ISMCTSBot(seed=1, seconds=0.05)
    assert timed.choose(game, state.view(0)) in state.legal_moves()
    assert timed.last_iterations >= 1
    with pytest.raises(RulesError, match="horizon"):
        ISMCTSBot(horizon="forever")


@pytest.mark.parametrize("depth", [1, 2])
def test_ismcts_depth_limits_the_tree(depth: int) -> None:
    """``depth=K`` grows the tree K moves deep at most; the rollouts play the rest."""
    game = tikki.load("mueckenstich", players=4)
    state = game.new_state(seed=3)
    view = state.view(state.current_player)
    root = ISMCTSBot(seed=1, iterations=300, depth=depth).search(game, view)

    def height(node: Node) -> int:
        return 1 + max((height(c) for c in node.children.values()), default=0)

    assert height(root) - 1 == depth
    assert height(ISMCTSBot(seed=1, iterations=300).search(game, view)) - 1 > 2
    with pytest.raises(RulesError, match="depth"):
        ISMCTSBot(depth=-1)


@pytest.mark.parametrize(("name", "players"), [("mattis", 3), ("mueckenstich", 4)])
def test_ismcts_stop_keeps_the_decision(name: str, players: int) -> None:
    """The early stop plays the move the whole budget would, with fewer iterations."""
    game = tikki.load(name, players=players)
    saved = 0
    for seed in range(8):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(5 + 9 * seed):
            state.play(rng.choice(state.legal_moves()))
        view = state.view(state.current_player)
        if len(view["legal_moves"]) < 2:
            continue
        full = ISMCTSBot(seed=seed, iterations=300, stop=0)
        quick = ISMCTSBot(seed=seed, iterations=300)
        assert quick.choose(game, view) == full.choose(game, view)
        assert full.last_iterations == 300 and quick.last_iterations <= 300
        saved += 300 - quick.last_iterations
    assert saved > 0


def test_ismcts_prior_leans_to_the_heuristic() -> None:
    from tikki.bots.heuristic import policy_for

    game = tikki.load("mueckenstich", players=4)
    state = game.new_state(seed=5)
    for _ in range(12):
        state.play(state.legal_moves()[0])
    view = state.view(state.current_player)
    assert len(view["legal_moves"]) > 2
    hint = policy_for(game)(game, view, random.Random(0))
    assert ISMCTSBot(seed=1, iterations=50, prior=1000).choose(game, view) == hint


@pytest.mark.parametrize("greedy", [0.0, 0.9, 1.0])
def test_fast_random_playout_plays_only_legal_moves(greedy: float) -> None:
    """Uniform and cheap playouts alike: replaying the record move by move accepts them."""
    for name, players, options in VARIANTS:
        game = tikki.load(name, players=players, **options)
        for seed in range(10):
            state = game.new_state(seed=seed)
            for _ in range(seed * 7):
                if not state.is_over:
                    state.play(state.legal_moves()[0])
            state.random_playout(random.Random(seed), greedy=greedy)
            assert state.is_over
            again = tikki.replay(state.record())
            assert again.reveal() == state.reveal()


def test_mueckenstich_playout_can_stop_at_the_end_of_the_round() -> None:
    game = tikki.load("mueckenstich", players=4)
    for seed in range(4):
        state = game.new_state(seed=seed)
        for _ in range(seed * 40):
            state.play(state.legal_moves()[-1])
        start = state.round
        state.random_playout(random.Random(seed), greedy=0.9, rounds=1)
        assert state.round == start + 1 and state.phase == "discard"
        totals = state.returns_so_far()
        assert totals == [float(t) for t in state.view(None)["scores"]]
        assert tikki.replay(state.record()).reveal() == state.reveal()


def test_mattis_cheap_playout_sheds_like_the_heuristic() -> None:
    """Phase 2, cheap moves: go out when one play empties the hand; else the lowest plain
    play, the longest sequence from it; take rather than beat a lone card with the trump
    ace."""
    game = tikki.load("mattis", players=3)
    state = game.new_state(seed=1)
    while state.phase == "collect":
        state.play(state.legal_moves()[0])
    cheap = state._cheap_shed  # type: ignore[attr-defined]
    trump = state._trump  # type: ignore[attr-defined]
    plain = next(s for s in range(4) if s != trump)
    two, three, five = plain * 13, plain * 13 + 1, plain * 13 + 3
    assert cheap([five], [], 1) == (five, 1)
    assert cheap([two, three, five], [(two, 2)], 2) == (two, 2)
    assert cheap([five, three], [], 5) == (three, 1)
    assert cheap([trump * 13 + 1, five], [], 5) == (five, 1)
    assert cheap([], [], 5) is None
    state._plays = [(0, (plain * 13 + 10,))]  # type: ignore[attr-defined]
    assert cheap([trump * 13 + 12], [], 5) is None
    assert cheap([trump * 13 + 12], [], 2) == (trump * 13 + 12, 1)


BOT = f"cmd:{sys.executable} examples/random_bot.py"


def test_external_bot_plays_whole_games() -> None:
    game = tikki.load("myllymatti", players=3)
    bot = bots.make(BOT)
    lineup = [bot, bots.make("random", seed=1), bots.make("random", seed=2)]
    state = play_game(game, lineup, 1)
    bot.end(state.outcome)  # type: ignore[attr-defined]
    assert state.is_over


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ("import sys; sys.exit(3)", "exited"),
        (
            'import sys\nfor line in sys.stdin: print(\'{"move": "ZZ"}\', flush=True)',
            "not a legal move",
        ),
        ("import sys\nfor line in sys.stdin: print('hello', flush=True)", "not JSON"),
        ("import time; time.sleep(30)", "did not answer"),
    ],
)
def test_external_bot_failures_are_reported(script: str, message: str, tmp_path: Path) -> None:
    game = tikki.load("myllymatti", players=3)
    state = game.new_state(seed=1)
    program = tmp_path / "bot.py"
    program.write_text(script + "\n")
    bot = bots.make("cmd", command=f"{sys.executable} {program}", timeout=1.5)
    with pytest.raises(BotFailure, match=message):
        bot.choose(game, state.view(0))
    bot.close()  # type: ignore[attr-defined]


def test_missing_program_is_reported() -> None:
    game = tikki.load("myllymatti", players=3)
    bot = bots.make("cmd:/nonexistent/bot")
    with pytest.raises(BotFailure, match="cannot start bot"):
        bot.choose(game, game.new_state(seed=1).view(0))


def test_unreadable_command_line_is_a_rules_error() -> None:
    with pytest.raises(RulesError, match="cannot read the bot command line"):
        bots.make("cmd:python3 'unclosed")


def test_bots_are_reachable_from_the_package_as_in_the_design() -> None:
    """``import tikki`` alone gives ``tikki.bots.make`` (docs/design.md), without the adapters."""
    import subprocess

    code = (
        "import sys, tikki; g = tikki.load('myllymatti'); s = g.new_state(seed=1); "
        "m = tikki.bots.make('ismcts:iterations=20', seed=1).choose(g, s.view(0)); "
        "assert m in s.legal_moves(); assert 'numpy' not in sys.modules; print('ok')"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
