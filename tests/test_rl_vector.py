"""The batched self-play env (tikki.rl.VectorEnv) against single games: the same
observations, masks, rewards and ends, step by step, under the same seeds."""

from __future__ import annotations

import os
import random
from typing import Any

import numpy as np
import pytest

import tikki
from tikki.rl import VectorEnv

try:
    from tikki.interop import pettingzoo as tikki_pz
except ImportError as err:  # pragma: no cover - depends on the environment
    if os.environ.get("CI") == "true":
        raise
    pytest.skip(
        f"!!! PettingZoo is not installed ({err}): pip install -e '.[pettingzoo]' !!!",
        allow_module_level=True,
    )

CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("myllymatti", 3, {}),
    ("myllymatti", 4, {"variant": "koira"}),
    ("myllymatti", 2, {"max_moves": 14}),
    ("mattis", 3, {}),
    ("mattis", 2, {"variant": "medium"}),
    ("mueckenstich", 4, {"reward": "round"}),
    ("mueckenstich", 3, {"variant": "mini", "abandoned_reward": -1.0}),
]


def _single(game: str, players: int, options: dict[str, Any], deal: int) -> Any:
    env = tikki_pz.raw_env(game, players, **options)
    env.reset(seed=deal)
    return env


def _same_observations(vec: VectorEnv, obs: Any, info: Any, singles: list[Any]) -> None:
    for i, env in enumerate(singles):
        agent = env.agent_selection
        seen = env.observe(agent)
        assert info["seat"][i] == env._seat[agent]
        assert obs[i].tobytes() == seen["observation"].tobytes()
        assert info["action_mask"][i].tobytes() == seen["action_mask"].tobytes()


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS)
def test_the_vector_env_steps_as_single_games(
    game: str, players: int, options: dict[str, Any]
) -> None:
    size = 4
    vec = VectorEnv(game, size, players=players, **options)
    obs, info = vec.reset(seed=11)
    deals = random.Random(11)
    singles = [_single(game, players, options, deals.randrange(2**32)) for _ in range(size)]
    rng = np.random.default_rng(0)
    ended = 0
    earned = [dict.fromkeys(env.possible_agents, 0.0) for env in singles]
    for _ in range(400):
        _same_observations(vec, obs, info, singles)
        actions = (rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(axis=1)
        obs, rewards, terminated, truncated, info = vec.step(actions)
        for i, env in enumerate(singles):
            agent = env.agent_selection
            env.step(int(actions[i]))
            for other in env.possible_agents:  # what each seat earned since it last moved
                earned[i][other] += env.rewards[other]
            assert rewards[i] == pytest.approx(earned[i][agent], abs=1e-6)
            earned[i][agent] = 0.0
            ends = (env.terminations[agent], env.truncations[agent])
            assert (terminated[i], truncated[i]) == ends
            if terminated[i] or truncated[i]:
                ended += 1
                returns = env.infos[agent]["outcome"]["returns"]
                assert info["returns"][i].tolist() == np.float32(returns).tolist()
                last = env.observe(agent)["observation"]  # the mover's view of the end
                assert info["_final_obs"][i] and info["final_obs"][i].tobytes() == last.tobytes()
                env.reset(seed=deals.randrange(2**32))  # the vector deals in the same order
                earned[i] = dict.fromkeys(env.possible_agents, 0.0)
            else:
                assert not info["returns"][i].any()
                assert not info["_final_obs"][i] and not info["final_obs"][i].any()
    assert ended > 0


def test_an_illegal_action_plays_no_game_and_changes_nothing() -> None:
    vec = VectorEnv("myllymatti", 3, players=3)
    obs, info = vec.reset(seed=1)
    views = [state.view(None) for state in vec.states]
    seen, masks = obs.copy(), info["action_mask"].copy()
    actions = masks.argmax(axis=1)
    actions[2] = int(np.flatnonzero(masks[2] == 0)[0])
    with pytest.raises(tikki.IllegalMove, match="game 2: action"):
        vec.step(actions)
    with pytest.raises(tikki.IllegalMove, match="game 0: action -1"):
        vec.step([-1, 0, 0])
    assert [state.view(None) for state in vec.states] == views
    assert (vec.obs == seen).all() and (vec.mask == masks).all()
    with pytest.raises(ValueError, match="give 3 actions"):
        vec.step([0, 0])


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS[:4])
def test_the_parallel_env_observes_every_agent_as_the_aec_env(
    game: str, players: int, options: dict[str, Any]
) -> None:
    par = tikki_pz.parallel_env(game, players, **options)
    single = _single(game, players, options, 5)
    observations, infos = par.reset(seed=5)
    rng = random.Random(0)
    while par.agents:
        for agent in par.agents:
            seen = single.observe(agent)
            assert observations[agent]["observation"].tobytes() == seen["observation"].tobytes()
            assert observations[agent]["action_mask"].tobytes() == seen["action_mask"].tobytes()
        actor = infos[par.agents[0]]["active_agent"]
        action = rng.choice(np.flatnonzero(observations[actor]["action_mask"]).tolist())
        observations, _, _, _, infos = par.step({actor: action})
        single.step(action)
    assert single.state is not None and single.state.is_over


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS[::2])
def test_the_batched_encoders_write_what_one_game_encodes(
    game: str, players: int, options: dict[str, Any]
) -> None:
    g = tikki.load(game, players, **{k: v for k, v in options.items() if "reward" not in k})
    encoder = VectorEnv(game, 1, players=players, **options).encoder
    rng = random.Random(2)
    states, seats = [], []
    state = g.new_state(seed=3)
    while not state.is_over:  # every state of a game, a random observer (or the public)
        states.append(state.clone())
        seats.append(rng.choice([None, *range(players)]))
        state.play(rng.choice(state.legal_moves()))
    states.append(state)
    seats.append(0)
    actions = len(encoder.actions)
    for extra in (0, 3):  # contiguous rows, then the first columns of a wider array
        rows = np.full((len(states), encoder.size + extra), 9, np.float32)[:, : encoder.size]
        masks = np.full((len(states), actions + extra), 9, np.int8)[:, :actions]
        encoder.encode_batch(states, seats, rows)
        encoder.mask_batch(states, masks)
        for i, (s, seat) in enumerate(zip(states, seats, strict=True)):
            assert rows[i].tobytes() == encoder.encode(s, seat).tobytes()
            to_act = -1 if s.current_player is None else s.current_player
            expected = encoder.legal_mask(s, to_act, np.zeros(actions, np.int8))
            assert masks[i].tobytes() == expected.tobytes()


def test_an_encoder_that_only_defines_encode_still_works_and_batches() -> None:
    from tikki.cards import CARD_TEXT
    from tikki.interop.encoders.myllymatti import MyllymattiEncoder
    from tikki.interop.observations import CardEncoder, Vector

    class Written(CardEncoder):  # a plug-in's encoder, written before encoders listed parts
        def __init__(self, game: tikki.Game) -> None:
            self.inner = MyllymattiEncoder(game)
            super().__init__(game, self.inner.features, {t: i for i, t in enumerate(CARD_TEXT)})

        def encode(self, state: tikki.State, seat: int | None, out: Vector | None = None) -> Vector:
            return self.inner.encode(state, seat, out)

    game = tikki.load("myllymatti", 3)
    encoder = Written(game)
    state = game.new_state(seed=1)
    rows = encoder.encode_batch([state, state], [0, None], np.zeros((2, encoder.size), np.float32))
    assert rows[0].tobytes() == encoder.inner.encode(state, 0).tobytes()
    assert rows[1].tobytes() == encoder.inner.encode(state, None).tobytes()
