"""The OpenSpiel adapter, judged by OpenSpiel's own checks and bots.

Every registered tikki game (and each variant) goes through ``pyspiel.random_sim_test``;
OpenSpiel's ISMCTS bot and its MCTS bot play whole games through ``evaluate_bots``.
Serialization is checked with ``state.serialize()`` / ``game.deserialize_state()``:
``random_sim_test(serialize=True)`` goes through ``serialize_game_and_state``, which for a
sampled-stochastic game asks the game for ``GetRNGState``, a C++ method that OpenSpiel
does not let Python games implement (see ``tikki/interop/openspiel.py``).
"""

from __future__ import annotations

import os
import random
from typing import Any

import numpy as np
import pytest

import tikki
from tests._configs import adapter_configs
from tikki.core import game_class

try:
    import pyspiel
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts
except ImportError as err:  # pragma: no cover - depends on the environment
    if os.environ.get("CI") == "true":
        raise
    pytest.skip(
        f"!!! OpenSpiel is not installed ({err}): pip install -e '.[openspiel]' !!!",
        allow_module_level=True,
    )

from tikki.interop import openspiel
from tikki.interop.encoding import ActionSpace

openspiel.register()


CONFIGS = adapter_configs()
GAMES = sorted(tikki.games())


def _load(name: str, players: int | None = None, variant: str = "standard", **extra: Any) -> Any:
    params: dict[str, Any] = {"variant": variant, "rng_seed": 11, **extra}
    if players is not None:
        params["players"] = players
    return pyspiel.load_game(openspiel.PREFIX + name, params)


def _play_random(state: Any, rng: random.Random, moves: int) -> Any:
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def _id(config: tuple[str, int, str]) -> str:
    return f"{config[0]}-{config[1]}p-{config[2]}"


def test_register_every_game() -> None:
    names = openspiel.register()  # a second call registers nothing new
    assert names == [openspiel.PREFIX + g for g in GAMES]
    registered = set(pyspiel.registered_names())
    assert set(names) <= registered
    for name in GAMES:
        game = pyspiel.load_game(openspiel.PREFIX + name)
        gtype = game.get_type()
        assert gtype.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
        assert gtype.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert game.num_players() == game_class(name).default_players
        params = gtype.parameter_specification
        assert {"players", "variant", "rng_seed"} <= set(params)
        for option in tikki.games()[name]["options"]:
            assert params[option["name"]] == option["default"]


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
def test_random_sim_test(config: tuple[str, int, str]) -> None:
    name, players, variant = config
    game = _load(name, players, variant)
    assert game.tikki_game == tikki.load(name, players, variant=variant)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_game_string_parameters() -> None:
    game = pyspiel.load_game("python_tikki_myllymatti(players=3,variant=koira)")
    opts = game.tikki_game.options
    assert (opts["duel"], opts["take"], opts["runs"]) == (False, "bottom", True)
    game = pyspiel.load_game("python_tikki_myllymatti(players=4,variant=koira,take=all)")
    assert game.num_players() == 4
    assert game.tikki_game.options["take"] == "all"
    assert game.num_distinct_actions() == len(ActionSpace(game.tikki_game))
    with pytest.raises(Exception, match="variant"):
        pyspiel.load_game("python_tikki_myllymatti(variant=nope)")


@pytest.mark.parametrize("name", GAMES)
def test_actions_are_move_texts(name: str) -> None:
    game = _load(name)
    space = ActionSpace(game.tikki_game)
    deck = list(dict.fromkeys(game.tikki_game.deck()))
    assert [space.to_text(i) for i in range(len(deck))] == deck
    state, rng = game.new_initial_state(), random.Random(3)
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal == sorted(legal)
        texts = [state.action_to_string(a) for a in legal]
        assert sorted(texts) == sorted(state.tikki_state.legal_moves())
        assert state.legal_actions((state.current_player() + 1) % game.num_players()) == []
        state.apply_action(rng.choice(legal))
    returns = state.returns()
    assert returns == state.tikki_state.outcome["returns"]
    assert game.min_utility() <= min(returns) <= max(returns) <= game.max_utility()


def test_rng_seed_replays_the_deals() -> None:
    game, twin = _load("myllymatti"), _load("myllymatti")
    first = [game.new_initial_state() for _ in range(2)]
    again = [twin.new_initial_state() for _ in range(2)]
    assert [str(s) for s in first] == [str(s) for s in again]
    assert str(first[0]) != str(first[1])
    clone = first[0].clone()
    assert str(clone) == str(first[0])


@pytest.mark.parametrize("name", GAMES)
def test_serialize_deserialize(name: str) -> None:
    game = _load(name)
    state = _play_random(game.new_initial_state(), random.Random(5), 25)
    text = state.serialize()
    copy = game.deserialize_state(text)
    assert str(copy) == str(state)
    assert copy.history() == state.history()
    assert copy.information_state_string(0) == state.information_state_string(0)
    rng_a, rng_b = random.Random(9), random.Random(9)
    assert str(_play_random(copy, rng_a, 40)) == str(_play_random(state, rng_b, 40))
    sampled = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    again = game.deserialize_state(sampled.serialize())
    assert str(again) == str(sampled)


@pytest.mark.parametrize("name", GAMES)
def test_resample_from_infostate(name: str) -> None:
    game = _load(name)
    rng = random.Random(2)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for moves in (0, 7, 30):
        state = _play_random(game.new_initial_state(), rng, moves)
        if state.is_terminal():
            continue
        player = state.current_player()
        for _ in range(3):
            sampled = state.resample_from_infostate(player, sampler)
            assert sampled.information_state_string(player) == state.information_state_string(
                player
            )
            assert sampled.observation_string(player) == state.observation_string(player)
            assert sampled.observation_tensor(player) == state.observation_tensor(player)
            assert sampled.legal_actions() == state.legal_actions()
            _play_random(sampled, rng, 10_000)
            assert sampled.is_terminal()


@pytest.mark.parametrize("name", GAMES)
def test_observations(name: str) -> None:
    game = _load(name)
    state = _play_random(game.new_initial_state(), random.Random(4), 12)
    n = game.num_players()
    shape = game.observation_tensor_shape()
    for player in range(n):
        tensor = np.array(state.observation_tensor(player), np.float32)
        assert tensor.shape == tuple(shape)
        assert tensor.any()
        assert state.observation_string(player) != state.observation_string((player + 1) % n)
        assert '"history"' in state.information_state_string(player)
        assert '"history"' not in state.observation_string(player)
    public_type = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    public = game.make_py_observer(public_type)
    assert public.string_from(state, 0) == public.string_from(state, n - 1)
    assert '"hand":[]' in public.string_from(state, 0)


class _ISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTS bot, plus the no-op ``restart_at`` that ``evaluate_bots`` calls.

    The Python ISMCTS bot searches afresh at every step and keeps nothing between moves,
    but does not define ``restart_at`` (its C++ twin does), so ``evaluate_bots`` would
    stop at its first line.
    """

    def restart_at(self, state: Any) -> None:
        self.reset()

    def inform_action(self, state: Any, player: int, action: int) -> None:
        pass


def _ismcts(game: Any, seed: int) -> Any:
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    return _ISMCTSBot(
        game, evaluator, 2.0, max_simulations=8, random_state=np.random.RandomState(seed)
    )


def _mcts(game: Any, seed: int) -> Any:
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    return mcts.MCTSBot(
        game, 2.0, 8, evaluator, solve=False, random_state=np.random.RandomState(seed)
    )


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("kind", ["ismcts", "mcts"])
def test_openspiel_bots_play_whole_games(name: str, kind: str) -> None:
    game = _load(name)
    n = game.num_players()
    make = _ismcts if kind == "ismcts" else _mcts
    bots = [make(game, 1)] + [pyspiel.make_uniform_random_bot(p, 7 + p) for p in range(1, n)]
    state = game.new_initial_state()
    returns = evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(0))
    assert state.is_terminal()
    assert len(returns) == n
    assert list(returns) == state.tikki_state.outcome["returns"]


@pytest.mark.parametrize("name", GAMES)
def test_rl_environment_episode(name: str) -> None:
    """OpenSpiel's RL loop: observations of every player at every step, rewards at the end."""
    game = _load(name)
    env = rl_environment.Environment(game)
    size = env.observation_spec()["info_state"][0]
    # the RL loop reads the information state where the game offers one (a small deck's
    # history fits), else the observation
    if game.get_type().provides_information_state_tensor:
        assert size == game.information_state_tensor_size()
    else:
        assert size == game.observation_tensor_size()
    step, rng = env.reset(), np.random.default_rng(1)
    while not step.last():
        player = step.observations["current_player"]
        assert len(step.observations["info_state"][player]) == size
        step = env.step([rng.choice(step.observations["legal_actions"][player])])
    assert step.rewards == env.get_state.tikki_state.outcome["returns"]
