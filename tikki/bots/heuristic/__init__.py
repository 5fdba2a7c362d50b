"""The ``heuristic`` bot: one hand-written policy per game, from the tactics of the sources.

Each game has a module ``tikki.bots.heuristic.<game name>`` with a function
``choose(game, view, rng) -> str`` that reads only the view.  Its module docstring lists
the rules of thumb it plays by.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from typing import Any

from tikki.core import Game, RulesError

Policy = Callable[[Game, Mapping[str, Any], random.Random], str]
"""A heuristic policy: game, a seat's view and an RNG for tie-breaks → a legal move."""


def policy_for(game: Game) -> Policy:
    """The heuristic policy of ``game``; :class:`RulesError` if it has none."""
    try:
        module = importlib.import_module(f"tikki.bots.heuristic.{game.name}")
    except ModuleNotFoundError:
        raise RulesError(f"no heuristic bot for {game.name} yet") from None
    policy: Policy = module.choose
    return policy


class HeuristicBot:
    """Plays the game's heuristic policy; ties are broken by its own seeded RNG."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game, view: Mapping[str, Any]) -> str:
        """The policy's move for this view (always one of ``view["legal_moves"]``)."""
        legal = view.get("legal_moves") or []
        if not legal:
            raise RulesError("the view has no legal moves: it is not this seat's turn")
        move = policy_for(game)(game, view, self.rng)
        if move not in legal:
            raise RulesError(f"heuristic for {game.name} chose {move!r}, not a legal move")
        return move
