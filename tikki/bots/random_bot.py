"""The ``random`` bot: uniform over the legal moves of its view."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from tikki.bots.base import legal_of
from tikki.core import Game


class RandomBot:
    """Chooses uniformly among ``view["legal_moves"]`` with its own seeded RNG."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game, view: Mapping[str, Any]) -> str:
        """A uniformly random legal move of the view."""
        return self.rng.choice(legal_of(view))
