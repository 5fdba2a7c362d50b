"""A Python test bot importable by path (``"tests._py_bots:FirstMove"``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tikki.core import Game


class FirstMove:
    """Always the first legal move."""

    name = "first"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, game: Game, view: Mapping[str, Any]) -> str:
        """The first legal move."""
        return str(view["legal_moves"][0])
