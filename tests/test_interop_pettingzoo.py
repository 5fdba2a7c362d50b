"""The PettingZoo adapter, judged by PettingZoo's own ``api_test``, ``seed_test`` and
``parallel_api_test``.

Every registered tikki game (each variant, the fewest and the most players) is an AEC
environment that passes both AEC checks, and a parallel environment that passes the
parallel one; the environment also replays tikki's own game for a seed, masks exactly the
legal moves, and pays ``outcome["returns"]`` at the end.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import warnings
from typing import Any

import numpy as np
import pytest

import tikki
from tests._configs import adapter_configs

try:
    from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test
except ImportError as err:  # pragma: no cover - depends on the environment
    if os.environ.get("CI") == "true":
        raise
    pytest.skip(
        f"!!! PettingZoo is not installed ({err}): pip install -e '.[pettingzoo]' !!!",
        allow_module_level=True,
    )

from tikki.interop import pettingzoo as tikki_pz

CONFIGS = adapter_configs()
DICT_OBSERVATION_WARNINGS = {
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
    "Observation is not a NumPy array",
}
"""What ``api_test`` says of every observation dict with an ``action_mask`` (PettingZoo's
own card games are exempted by name); any other warning fails the test."""
GAMES = sorted(tikki.games())


def _id(config: tuple[str, int, str]) -> str:
    return f"{config[0]}-{config[1]}p-{config[2]}"


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_api_test(config: tuple[str, int, str]) -> None:
    name, players, variant = config
    env = tikki_pz.env(name, players=players, variant=variant, render_mode="ansi")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=300)
    others = {str(w.message) for w in caught} - DICT_OBSERVATION_WARNINGS
    assert not others, f"api_test warned: {sorted(others)}"


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_seed_test(config: tuple[str, int, str]) -> None:
    name, players, variant = config
    seed_test(lambda: tikki_pz.env(name, players=players, variant=variant), num_cycles=100)


@pytest.mark.parametrize("name", GAMES)
def test_render_test(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode=None: tikki_pz.env(name, render_mode=render_mode))
    assert "hand:" in capsys.readouterr().out


def _random_game(env: Any, rng: random.Random) -> list[str]:
    moves: list[str] = []
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = int(rng.choice(list(legal)))
        moves.append(env.unwrapped.actions.to_text(action))
        assert env.unwrapped.state.current_player == int(agent.split("_")[1])
        env.step(action)
    return moves


@pytest.mark.parametrize("name", GAMES)
def test_whole_game_matches_tikki(name: str) -> None:
    env = tikki_pz.env(name, render_mode="ansi")
    env.reset(seed=21)
    game = env.unwrapped.game
    state = env.unwrapped.state
    # masks are the legal moves; other agents' masks are empty
    first = env.agent_selection
    obs = env.observe(first)
    legal = [env.unwrapped.actions.to_text(int(i)) for i in np.flatnonzero(obs["action_mask"])]
    assert sorted(legal) == sorted(state.legal_moves())
    for other in env.possible_agents:
        if other != first:
            assert not env.observe(other)["action_mask"].any()
    assert env.render().startswith("tikki.load(")
    rewards: dict[str, float] = {}
    seen: dict[str, Any] = {}
    rng = random.Random(4)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        rewards[agent] = reward
        if terminated or truncated:
            assert not truncated
            seen[agent] = info["outcome"]
            env.step(None)
            continue
        env.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
    outcome = state.outcome
    assert outcome is not None
    assert [rewards[a] for a in env.possible_agents] == outcome["returns"]
    assert all(o == outcome for o in seen.values())
    replay = game.new_state(seed=21)
    for move in state.moves:
        replay.play(move)
    assert replay.outcome == outcome


def test_reset_seeds_the_following_deals() -> None:
    env = tikki_pz.env("myllymatti", players=3)
    env.reset(seed=5)
    a = _random_game(env, random.Random(1))
    env.reset()
    b = _random_game(env, random.Random(1))
    env.reset(seed=5)
    assert _random_game(env, random.Random(1)) == a
    env.reset()
    assert _random_game(env, random.Random(1)) == b


def test_illegal_action_is_refused() -> None:
    env = tikki_pz.env("myllymatti", players=3)
    env.reset(seed=3)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(tikki.IllegalMove):
        env.step(illegal)
    with pytest.raises(ValueError, match="render_mode"):
        tikki_pz.env("myllymatti", render_mode="rgb_array")


def test_core_does_not_import_the_adapters() -> None:
    code = (
        "import sys, tikki; tikki.load('myllymatti').new_state(seed=1).legal_moves(); "
        "bad = [m for m in ('tikki.interop', 'pyspiel', 'pettingzoo', 'gymnasium') "
        "if m in sys.modules]; assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def _play_to_end(env: Any) -> dict[str, tuple[float, bool, bool]]:
    ends: dict[str, tuple[float, bool, bool]] = {}
    env.reset(seed=3)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            ends[agent] = (reward, terminated, truncated)
            env.step(None)
        else:
            env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    return ends


def test_the_move_cap_truncates_every_agent_without_a_loss() -> None:
    ends = _play_to_end(tikki_pz.env("myllymatti", players=3, max_moves=5))
    assert ends == dict.fromkeys(["player_0", "player_1", "player_2"], (0.0, False, True))
    punished = _play_to_end(tikki_pz.env("mattis", players=2, max_moves=3, abandoned_reward=-1))
    assert set(punished.values()) == {(-1.0, False, True)}


def test_round_rewards_add_up_to_the_returns_in_mueckenstich() -> None:
    env = tikki_pz.env("mueckenstich", players=3, reward="round")
    env.reset(seed=4)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    paid = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        paid += reward != 0
        totals[agent] += reward
        env.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    assert totals == dict(zip(env.possible_agents, info["outcome"]["returns"], strict=True))
    assert paid > 3  # paid round by round, not only at the end


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_parallel_api_test(config: tuple[str, int, str]) -> None:
    name, players, variant = config
    env = tikki_pz.parallel_env(name, players=players, variant=variant, render_mode="ansi")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parallel_api_test(env, num_cycles=1000)
    assert not caught, f"parallel_api_test warned: {sorted(str(w.message) for w in caught)}"


def _parallel_game(env: Any, seed: int, rng: random.Random) -> tuple[list[str], Any]:
    """Play a whole game of a parallel environment; its moves and last step's answer."""
    observations, infos = env.reset(seed=seed)
    moves: list[str] = []
    answer: Any = None
    while env.agents:
        actor = next(a for a in env.agents if observations[a]["action_mask"].any())
        assert all(info["active_agent"] == actor for info in infos.values())
        legal = np.flatnonzero(observations[actor]["action_mask"])
        action = int(rng.choice(list(legal)))
        moves.append(env.actions.to_text(action))
        others = {a: 0 for a in env.agents if a != actor}  # a no-op for the others: ignored
        answer = env.step({actor: action, **others})
        observations, infos = answer[0], answer[4]
    return moves, answer


def test_parallel_env_plays_the_aec_game_the_acting_agent_alone_counts() -> None:
    env = tikki_pz.parallel_env("mattis", players=3)
    moves, (obs, rewards, terminated, truncated, infos) = _parallel_game(env, 8, random.Random(2))
    state = tikki.load("mattis", 3).new_state(seed=8)
    for move in moves:
        state.play(move)
    outcome = state.outcome
    assert outcome is not None and env.agents == []
    assert obs == {} or set(obs) == set(env.possible_agents)
    assert [rewards[a] for a in env.possible_agents] == outcome["returns"]
    assert all(terminated.values()) and not any(truncated.values())
    assert all(infos[a]["outcome"] == outcome for a in env.possible_agents)


def test_parallel_env_wants_the_acting_agents_action_and_ignores_the_others() -> None:
    env = tikki_pz.parallel_env("myllymatti", players=3)
    observations, infos = env.reset(seed=3)
    actor = infos["player_0"]["active_agent"]
    assert observations[actor]["action_mask"].any()
    with pytest.raises(ValueError, match=f"{actor} is to act"):
        env.step({a: 0 for a in env.agents if a != actor})
    illegal = int(np.flatnonzero(observations[actor]["action_mask"] == 0)[0])
    with pytest.raises(tikki.IllegalMove):
        env.step({actor: illegal})
    legal = int(np.flatnonzero(observations[actor]["action_mask"])[0])
    a, *_ = env.step({actor: legal})
    b_env = tikki_pz.parallel_env("myllymatti", players=3)
    b_env.reset(seed=3)
    b, *_ = b_env.step({agent: legal for agent in b_env.agents})  # others' actions ignored
    assert all(np.array_equal(a[k]["observation"], b[k]["observation"]) for k in a)


def test_parallel_env_truncates_every_agent_at_the_move_cap() -> None:
    env = tikki_pz.parallel_env("myllymatti", players=3, max_moves=5)
    _, (_, rewards, terminated, truncated, _) = _parallel_game(env, 1, random.Random(0))
    assert all(truncated.values()) and not any(terminated.values())
    assert set(rewards.values()) == {0.0}
