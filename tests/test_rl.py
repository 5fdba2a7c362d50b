"""The Gymnasium environments of tikki.rl."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import tikki
from tikki.core import RulesError
from tikki.rl import TikkiGymEnv, VectorEnv, make_env


@pytest.mark.parametrize(
    ("game", "players", "opponents"),
    [
        ("myllymatti", 3, ["heuristic", "random"]),
        ("mueckenstich", 4, ["random"]),
        ("mattis", 2, ["random"]),
    ],
)
def test_env_passes_gymnasium_check_env(game: str, players: int, opponents: list[str]) -> None:
    env = make_env(game, players=players, opponents=opponents, seat=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env, skip_render_check=True)


def _episode(seed: int) -> tuple[list[int], float, dict[str, Any]]:
    env = make_env("myllymatti", players=3, opponents=["heuristic", "random"], seat=2)
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    taken, total = [], 0.0
    while True:
        assert env.observation_space.contains(obs)
        legal = np.flatnonzero(info["action_mask"])
        assert len(legal) > 0
        action = int(rng.choice(legal))
        taken.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        if terminated or truncated:
            return taken, total, info


def test_an_episode_plays_to_the_end_and_a_seed_replays_it() -> None:
    taken, total, info = _episode(4)
    again = _episode(4)
    assert (taken, total, info["outcome"]) == (again[0], again[1], again[2]["outcome"])
    assert total == info["outcome"]["returns"][2]
    assert "illegal" not in info


def test_illegal_action_ends_the_episode_with_the_penalty_and_changes_nothing() -> None:
    env = make_env("myllymatti", players=3, seat=0, illegal_reward=-5)
    obs, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    unwrapped = env.unwrapped
    assert isinstance(unwrapped, TikkiGymEnv) and unwrapped.state is not None
    moves = list(unwrapped.state.moves)
    obs2, reward, terminated, _, info2 = env.step(illegal)
    assert (reward, terminated, info2["illegal"]) == (-5, True, True)
    assert unwrapped.state.moves == moves
    np.testing.assert_array_equal(obs, obs2)


def test_bad_arguments_are_refused_clearly() -> None:
    with pytest.raises(RulesError, match=r"seat must be 0\.\.2"):
        make_env("myllymatti", players=3, seat=3)
    with pytest.raises(RulesError, match="no bot 'nobody'"):
        make_env("myllymatti", players=3, opponents=["nobody"])


def test_vector_env_plays_many_games_with_masks_and_returns() -> None:
    env = VectorEnv("myllymatti", 8, players=3)
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(400):
        mask = info["action_mask"]
        assert (mask.sum(axis=1) > 0).all()
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        obs, rewards, terminated, _, info = env.step(actions)
        assert obs.shape == (8, env.encoder.size)
        for i in np.flatnonzero(terminated):
            finished += 1
            assert sorted(rewards[i]) in ([-1.0, 0.5, 0.5], [-1.0, -1.0, -1.0])
    assert finished > 0
    with pytest.raises(tikki.IllegalMove):
        env.step(np.flatnonzero(info["action_mask"][0] == 0)[:1].repeat(8))
