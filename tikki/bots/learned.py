"""The ``learned`` bot: a trained policy alone, no search (instant).

``learned`` plays the game it is given with that game's shipped model
(``tikki/models/<game>.npz``, :mod:`tikki.inference`); ``learned:<game>`` names the game
the model must be for (a bot made for another game refuses to play), and
``learned:model=path/to/model.npz`` plays a retrained model (``python -m tikki.learn
train``).  It plays the policy's most probable legal move (``sample=1``: a move drawn from
the policy, with ``temperature``).

It sees only its view, like every bot: the observation vector is the seat's observation
(:func:`tikki.interop.observations.encoder_for`) of a state drawn from the view by the
game's own determinizer (``game.sampler(view)``); the encoders read only what the seat
may know, so every state the view allows gives the same vector.

The models and the encoders need NumPy: ``pip install 'tikki[models]'`` (a clear error
says so where it is missing).  The shipped models are trained for the player counts of the
strength protocol (each game's default count); another count is refused with
a clear error.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from tikki.bots.base import legal_of
from tikki.core import Game, RulesError
from tikki.extras import require
from tikki.i18n import _ as _t


class LearnedBot:
    """The policy of a trained model, argmax (or sampled), on the seat's view only."""

    name = "learned"

    def __init__(
        self,
        seed: int | None = None,
        model: str | None = None,
        sample: int | str = 0,
        temperature: float | str = 1.0,
    ) -> None:
        require("models", "the learned bot", ("numpy",))
        self.rng = random.Random(seed)
        self.model = model
        self.sample = int(sample)
        self.temperature = float(temperature)
        if self.sample not in (0, 1) or self.temperature <= 0:
            raise RulesError(_t("learned needs sample 0 or 1 and temperature > 0"))
        self._policies: dict[Game, Any] = {}

    def choose(self, game: Game, view: Mapping[str, Any]) -> str:
        """The policy's move from ``view`` (only ``view`` is read)."""
        legal = legal_of(view)
        if len(legal) == 1:
            return legal[0]
        probs = self.policy(game).probabilities(game, view, self.rng)
        if not self.sample:
            return max(legal, key=lambda m: probs[m])
        weights = [probs[m] ** (1 / self.temperature) for m in legal]
        if sum(weights) <= 0:
            return self.rng.choice(legal)
        return self.rng.choices(legal, weights)[0]

    def policy(self, game: Game) -> Any:
        """The :class:`tikki.inference.ViewPolicy` of ``game`` (made once)."""
        policy = self._policies.get(game)
        if policy is None:
            from tikki.inference import ViewPolicy

            path = None
            if self.model is not None and self.model != game.name:
                if self.model.endswith(".npz"):
                    path = self.model
                else:
                    raise RulesError(
                        _t(
                            "learned:{model} plays {model}, not {game}; use learned (the"
                            " game's own model) or learned:model=FILE.npz",
                            model=self.model,
                            game=game.name,
                        )
                    )
            policy = self._policies[game] = ViewPolicy(game, path)
        return policy
