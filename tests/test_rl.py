"""The Gymnasium environments of tikki.rl."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode

import tikki
from tikki.core import RulesError
from tikki.rl import GYM_IDS, TikkiGymEnv, VectorEnv, make_env, make_vec


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
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(400):
        mask = info["action_mask"]
        assert (mask.sum(axis=1) > 0).all()  # a valid mask on every step, autoreset included
        assert env.action_space.contains((rng.random(mask.shape) * mask).argmax(axis=1))
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        seats = info["seat"].copy()
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert obs.shape == (8, env.encoder.size) and rewards.shape == (8,)
        assert not truncated.any()
        for i in np.flatnonzero(terminated):
            finished += 1
            returns = info["returns"][i]
            assert sorted(returns) == [-1.0, 0.5, 0.5]
            assert rewards[i] == returns[seats[i]]
        assert (rewards[~terminated] == 0).all()
    assert finished > 0
    with pytest.raises(tikki.IllegalMove):
        env.step(np.flatnonzero(info["action_mask"][0] == 0)[:1].repeat(8))


def _capped(env: Any) -> tuple[float, bool, bool, dict[str, Any]]:
    _, info = env.reset(seed=2)
    while True:
        action = int(np.flatnonzero(info["action_mask"])[0])
        _obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            return reward, terminated, truncated, info


def test_the_move_cap_truncates_and_is_no_loss() -> None:
    reward, terminated, truncated, info = _capped(make_env("myllymatti", players=3, max_moves=6))
    assert (reward, terminated, truncated) == (0.0, False, True)
    assert info["outcome"]["abandoned"] is True
    env = make_env("myllymatti", players=3, max_moves=6, abandoned_reward=-1)
    assert _capped(env)[:3] == (-1.0, False, True)
    vec = VectorEnv("myllymatti", 2, players=2, max_moves=4)
    _, info = vec.reset(seed=0)
    for _ in range(4):
        _, rewards, ended, cut, info = vec.step(info["action_mask"].argmax(axis=1))
    assert cut.all() and not ended.any() and (rewards == 0).all()
    assert (info["action_mask"].sum(axis=1) > 0).all()


def test_gymnasium_ids_are_registered_take_options_and_pass_check_env() -> None:
    assert set(GYM_IDS) == set(tikki.games())
    for name, env_id in GYM_IDS.items():
        env = gymnasium.make(env_id, players=3, opponents=["random"])
        unwrapped = env.unwrapped
        assert isinstance(unwrapped, TikkiGymEnv) and unwrapped.game.name == name
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            check_env(unwrapped, skip_render_check=True)
        env.close()
    koira = gymnasium.make("tikki/Myllymatti-v0", players=4, variant="koira").unwrapped
    assert isinstance(koira, TikkiGymEnv) and koira.game.options["runs"] is True
    assert isinstance(gymnasium.make("tikki.rl:tikki/Mattis-v0").unwrapped, TikkiGymEnv)


def test_make_vec_gives_a_valid_mask_on_every_step_and_the_final_info() -> None:
    vec = make_vec("myllymatti", 3, players=2, opponents=["random"])
    _, info = vec.reset(seed=5)
    ended = 0
    for _ in range(300):
        mask = info["action_mask"]
        assert (mask.sum(axis=1) > 0).all()
        _obs, rewards, terminated, _truncated, info = vec.step(mask.argmax(axis=1))
        for i in np.flatnonzero(terminated):
            ended += 1
            assert rewards[i] == info["final_info"]["outcome"]["returns"][i][0]
    assert ended > 0
    vec.close()


def test_round_rewards_pay_each_muckenstich_round_and_add_up_to_the_returns() -> None:
    env = make_env("mueckenstich", players=3, opponents=["random"], reward="round")
    _, info = env.reset(seed=11)
    rewards = []
    while True:
        _obs, reward, terminated, truncated, info = env.step(
            int(np.flatnonzero(info["action_mask"])[0])
        )
        rewards.append(reward)
        if terminated or truncated:
            break
    paid = [r for r in rewards if r != 0]
    assert 1 < len(paid) <= 3  # one payment per scored round (3 rounds), not one at the end
    assert sum(rewards) == pytest.approx(info["outcome"]["returns"][0])
    assert [r for r in rewards[:-1] if r != 0] == paid[: len(paid) - (rewards[-1] != 0)]
    with pytest.raises(RulesError, match="reward must be 'game' or 'round'"):
        make_env("mueckenstich", players=3, reward="trick")
