"""The learned models as policies on the adapters' observation vectors (Gymnasium,
PettingZoo); the bots' policies, on a state or a seat's view, are :mod:`tikki.inference`'s.

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

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import tikki
from tikki.inference import Array, load_for, masked_softmax
from tikki.interop.observations import encoder_for


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
