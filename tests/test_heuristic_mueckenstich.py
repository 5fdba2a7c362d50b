"""The Mückenstich heuristic bot: legal whole matches, determinism, its tactics, its strength.

Tactics are checked on real positions from seeded random matches (MS-6..MS-10), and the
policy is only ever given the seat's view.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import tikki
from tests._bots import play_game
from tikki import bots
from tikki.bots.heuristic import mueckenstich as policy
from tikki.games import mueckenstich_tactics as tactics

pytestmark = pytest.mark.compiled


def _advantage(outcome: dict[str, Any], seat: int) -> float:
    rounds = len(outcome["rounds"])
    scores: list[float] = [s / rounds for s in outcome["scores"]]
    others = [s for i, s in enumerate(scores) if i != seat]
    return scores[seat] - sum(others) / len(others)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_whole_matches_are_legal(players: int) -> None:
    game = tikki.load("mueckenstich", players=players)
    for seed in range(3):
        lineup = [
            bots.make("heuristic" if (s + seed) % 2 == 0 else "random", seed=seed * 10 + s)
            for s in range(players)
        ]
        state = play_game(game, lineup, seed)
        outcome = state.outcome
        assert outcome is not None and len(outcome["rounds"]) == players
    lineup = [bots.make("heuristic", seed=s) for s in range(players)]
    assert play_game(game, lineup, 99).is_over


def test_deterministic_for_a_seed() -> None:
    game = tikki.load("mueckenstich", players=4)
    runs = []
    for _ in range(2):
        lineup = [bots.make("heuristic", seed=7 + s) for s in range(4)]
        runs.append(play_game(game, lineup, 5).moves)
    assert runs[0] == runs[1]


def _positions(players: int, matches: int, seed: int) -> Iterator[tikki.State]:
    """Every position of seeded random matches (random moves throughout)."""
    game = tikki.load("mueckenstich", players=players)
    rng = random.Random(seed)
    for k in range(matches):
        state = game.new_state(seed=seed * 1000 + k)
        while not state.is_over:
            yield state
            state.play(rng.choice(state.legal_moves()))


def _last_to_play(view: dict[str, Any]) -> bool:
    """Whether the seat plays the trick's last card (not the deal's last trick, whose
    winner the view forgets once the round is scored)."""
    return (
        view["phase"] == "play"
        and not view["naming_trump"]
        and len(view["trick"]) == view["players"] - 1
        and len(view["hand"]) > 1
    )


def _choose(state: tikki.State) -> str:
    seat = state.current_player
    assert seat is not None
    return policy.choose(state.game, state.view(seat), random.Random(0))


def _bites(pile: list[str], cards: list[str]) -> int:
    """How many mosquito colours in ``cards`` are not yet in ``pile`` (MS-10)."""
    have = {c[-1] for c in pile if c[0] == "M"}
    return len({c[-1] for c in cards if c[0] == "M"} - have)


def test_last_to_play_never_takes_a_biting_trick_it_could_leave() -> None:
    """As the last to play, never win a trick worth -3 or less to you if a card loses it."""
    checked = 0
    for state in _positions(4, 30, 1):
        view = state.view(state.current_player)
        if not _last_to_play(view):
            continue
        me = view["seat"]
        outcomes = {}
        for move in view["legal_moves"]:
            trial = state.clone()
            trial.play(move)
            if trial.view(me)["naming_trump"]:
                wins = []
                for trump in trial.legal_moves():
                    again = trial.clone()
                    again.play(trump)
                    wins.append(again.view(me)["last_trick"]["winner"] == me)
                outcomes[move] = all(wins)
            else:
                outcomes[move] = trial.view(me)["last_trick"]["winner"] == me
        if all(outcomes.values()):
            continue
        move = _choose(state)
        if not outcomes[move]:
            continue
        cards = [e["card"] for e in view["trick"]] + [move]
        worth = sum(c[0] != "M" for c in cards) - 5 * _bites(view["piles"][me], cards)
        assert worth > -3, (view["trick"], move, view["hand"])
        checked += 1
    assert checked > 20


def test_dumps_a_mosquito_on_another_seat_when_void() -> None:
    """Void in the colour led and last to play, no other trump in force (else a trump
    could win the trick cleanly), not bitten yet but holding a mosquito, and a trick whose
    best card of the colour led belongs to a seat not bitten yet: throw the mosquito and
    name a trump that leaves the trick with another seat (MS-6, MS-8, MS-9)."""
    checked = 0
    for state in _positions(4, 50, 2):
        view = state.view(state.current_player)
        if not _last_to_play(view):
            continue
        me, led = view["seat"], view["led"]
        if any(c[-1] == led for c in view["hand"]) or view["trump"] not in (None, led):
            continue
        if view["mosquitoes"][me] or not any(c[0] == "M" for c in view["hand"]):
            continue
        if any(e["card"][0] == "M" for e in view["trick"]):
            continue
        values = [int(e["card"][:-1]) for e in view["trick"] if e["card"][-1] == led]
        leader = [e["seat"] for e in view["trick"] if e["card"] == f"{max(values)}{led}"][-1]
        if view["mosquitoes"][leader]:
            continue
        move = _choose(state)
        assert move[0] == "M", (view["trick"], view["hand"], move)
        trial = state.clone()
        trial.play(move)
        trial.play(_choose(trial))
        assert trial.view(me)["last_trick"]["winner"] != me
        checked += 1
    assert checked >= 5


def _score_view(piles: list[list[str]], mosquitoes: list[int], seat: int) -> dict[str, Any]:
    """A real scoring-phase view of ``seat`` with the piles replaced (the policy reads only
    the view, so this is the position it answers)."""
    for state in _positions(4, 5, 3):
        if state.phase == "score" and state.current_player == seat:
            view = dict(state.view(seat))
            break
    else:  # pragma: no cover - the seeded matches above reach a scoring choice
        raise AssertionError("no scoring position")
    view["piles"] = piles
    view["mosquitoes"] = mosquitoes
    view["doubled"] = None
    return view


def test_doubles_its_own_colour_and_drops_the_others() -> None:
    """MS-10: double the colour you hold most of; drop the one the others hold most of."""
    mine = ["1R", "2R", "3R", "4B"]
    theirs = [["5G", "6G", "7G", "8G", "MB"], ["9G", "10G", "5B", "MG"], ["1K", "2K", "MR"]]
    piles = [mine, *theirs]
    game = tikki.load("mueckenstich", players=4)
    for seat in range(4):
        rotated = piles[-seat:] + piles[:-seat] if seat else piles
        view = _score_view(rotated, [0, 1, 1, 1][-seat:] + [0, 1, 1, 1][:-seat], seat)
        view["legal_moves"] = ["double R", "double B", "double G", "double K"]
        assert policy.choose(game, view, random.Random(0)) == "double R"
        view["legal_moves"] = ["drop B", "drop G", "drop K"]
        view["doubled"] = "R"
        assert policy.choose(game, view, random.Random(0)) == "drop G"


def test_beats_random_clearly() -> None:
    """Strength smoke test: one heuristic against three random, seats rotated, fixed seeds.

    The issue's target is +3 points per round; over the arena this bot scores about +8.
    """
    game = tikki.load("mueckenstich", players=4)
    advantages = []
    for k in range(12):
        seat = k % 4
        lineup = [
            bots.make("heuristic" if s == seat else "random", seed=100 + k * 4 + s)
            for s in range(4)
        ]
        outcome = play_game(game, lineup, 500 + k // 4).outcome
        assert outcome is not None
        advantages.append(_advantage(outcome, seat))
    mean = sum(advantages) / len(advantages)
    assert mean > 3.0, advantages


def test_cheap_scoring_choices_double_your_colour_and_drop_theirs() -> None:
    """MS-10, the playouts' quick rules 10 and 11: the same choices as the bot above."""
    from tikki.games.mueckenstich import TEXT_CARD

    mine = ["1R", "2R", "3R", "4B"]
    theirs = [["5G", "6G", "7G", "8G", "MB"], ["9G", "10G", "5B", "MG"], ["1K", "2K", "MR"]]
    piles = [[TEXT_CARD[t] for t in p] for p in [mine, *theirs]]
    red, green = "RBGK".index("R"), "RBGK".index("G")
    for seat in range(4):
        rotated = piles[-seat:] + piles[:-seat] if seat else piles
        assert tactics.cheap_double(rotated, seat) == red
        assert tactics.cheap_drop(rotated, seat, red) == green
        assert tactics.cheap_drop(rotated, seat, green) != green


def test_greedy_playouts_score_by_the_cheap_rules() -> None:
    """A fully greedy playout doubles and drops as cheap_double and cheap_drop say (MS-10),
    where uniform choices would pick any colour."""
    game = tikki.load("mueckenstich", players=4)
    checked = 0
    for seed in range(40):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while state.phase != "score" and not state.is_over:
            state.play(rng.choice(state.legal_moves()))
        if state.is_over or not state.legal_moves()[0].startswith("double"):
            continue
        seat = state.current_player
        assert seat is not None
        piles = [list(p) for p in state._piles]  # type: ignore[attr-defined]
        dropper = state._dropper()  # type: ignore[attr-defined]
        sheet = state._sheet  # type: ignore[attr-defined]
        before = len(sheet)
        state.random_playout(random.Random(seed), greedy=1.0, rounds=1)
        doubled = tactics.cheap_double(piles, seat)
        assert sheet[before]["doubled"] == "RBGK"[doubled]
        if dropper >= 0:
            assert sheet[before]["dropped"] == "RBGK"[tactics.cheap_drop(piles, dropper, doubled)]
        checked += 1
    assert checked >= 5
