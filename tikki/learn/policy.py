"""The learned models as policies: on a seat's view (bots), a state (search) or the
adapters' observation vectors (Gymnasium, PettingZoo).

::

    from tikki.learn.policy import AdapterPolicy
    from tikki.interop import pettingzoo as tikki_pz

    policy = AdapterPolicy(name, players=3)      # the shipped model of a game (tikki.games())
    env = tikki_pz.env(name, players=3)
    env.reset(seed=7)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        env.step(None if terminated or truncated else policy(obs))

``policy(obs)`` takes PettingZoo's ``{"observation", "action_mask"}``; Gymnasium's
single-agent env (:mod:`tikki.rl`) gives the mask in ``info``:
``policy(obs, info["action_mask"])``.  The answer is an action id.
"""

# ruff: noqa: E402  (the extra is checked before its imports)
from __future__ import annotations

from tikki.extras import require

require("models", "the learned models (NumPy)", ("numpy",))

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import tikki
from tikki.core import Game, State
from tikki.interop.observations import encoder_for
from tikki.learn.model import Array, Model, load_for, masked_softmax


class StatePolicy:
    """A game's model on states: the observation of a seat, its policy and value.

    :meth:`encode` reads only what the seat may know (the encoders' contract)."""

    def __init__(self, game: Game, path: str | Path | None = None) -> None:
        self.game = game
        self.encoder = encoder_for(game)
        self.actions = self.encoder.actions
        self.model: Model = load_for(game, path)
        self.model.check(game, self.encoder.size)
        self._obs = self.encoder.empty()
        self._mask = np.zeros(len(self.actions), np.int8)

    def encode(self, state: State, seat: int) -> Array:
        """``seat``'s observation of ``state`` (a vector reused by the next call)."""
        return self.encoder.encode(state, seat, self._obs)

    def priors(self, state: State, legal: list[str]) -> dict[str, float]:
        """The policy's probability of each of ``legal`` for the player to move."""
        seat = state.current_player
        assert seat is not None
        obs = self.encode(state, seat)
        index = self.actions.index
        ids = [index[m] for m in legal]
        mask = self._mask
        mask.fill(0)
        mask[ids] = 1
        probs = self.model.policy(obs, mask)
        return {m: float(probs[i]) for m, i in zip(legal, ids, strict=True)}

    def values(self, state: State) -> list[float]:
        """Every seat's expected gain from ``state`` (one batch through the model)."""
        players = self.game.players
        obs = np.stack([self.encoder.encode(state, s) for s in range(players)])
        return [float(v) for v in self.model.forward(obs)[1]]


class ViewPolicy(StatePolicy):
    """A game's model on a seat's view (the ``learned`` bot)."""

    def observe(self, view: Mapping[str, Any], rng: random.Random) -> Array:
        """The observation of the view's seat, from a state the view allows (any gives the
        same vector: the encoders read only what the seat may know)."""
        state = self.game.sampler(view)(rng)
        return self.encode(state, int(view["seat"]))

    def probabilities(
        self, game: Game, view: Mapping[str, Any], rng: random.Random
    ) -> dict[str, float]:
        """Each legal move's probability (summing to 1 over them)."""
        legal = [str(m) for m in view["legal_moves"]]
        state = self.game.sampler(view)(rng)
        return self.priors(state, legal)


class AdapterPolicy:
    """A shipped (or given) model on the adapters' observations: an action id."""

    def __init__(
        self,
        game: str,
        players: int | None = None,
        path: str | Path | None = None,
        **options: Any,
    ) -> None:
        self.game = tikki.load(game, players, **options)
        self.encoder = encoder_for(self.game)
        self.model = load_for(self.game, path)
        self.model.check(self.game, self.encoder.size)

    def probabilities(self, observation: Any, action_mask: Any) -> Array:
        """The policy over every action id: 0 for illegal ones, summing to 1."""
        obs = np.asarray(observation, np.float32).reshape(1, -1)
        mask = np.asarray(action_mask).reshape(1, -1)
        logits, _value = self.model.forward(obs)
        probs: Array = masked_softmax(logits, mask)[0]
        return probs

    def __call__(self, observation: Any, action_mask: npt.ArrayLike | None = None) -> int:
        """The most probable legal action id (PettingZoo: pass the observation dict)."""
        if action_mask is None and isinstance(observation, Mapping):
            observation, action_mask = observation["observation"], observation["action_mask"]
        if action_mask is None:
            raise ValueError("give the action mask: policy(obs, info['action_mask'])")
        return int(np.argmax(self.probabilities(observation, action_mask)))
