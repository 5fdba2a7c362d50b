"""The ``heuristic`` bot: one hand-written policy per game, from the tactics of the sources.

Each of tikki's games has a module ``tikki.bots.heuristic.<game name>`` with a function
``choose(game, view, rng) -> str`` that reads only the view (a plug-in game declares its
own module, :attr:`tikki.core.BotParts.heuristic`, or plays :func:`plain`).  Its module
docstring lists the rules of thumb it plays by.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from typing import Any, cast

from tikki.bots.base import legal_of
from tikki.core import Game, RulesError

Policy = Callable[[Game, Mapping[str, Any], random.Random], str]
"""A heuristic policy: game, a seat's view and an RNG for tie-breaks → a legal move."""


def policy_for(game: Game) -> Policy:
    """The heuristic policy of ``game``: the ``choose`` of the module its class declares
    (:attr:`tikki.core.BotParts.heuristic`), else of ``tikki.bots.heuristic.<name>``;
    a game with neither (a plug-in that ships no heuristic) is played by :func:`plain`."""
    declared = type(game).bots.heuristic
    name = declared or f"{__name__}.{game.name}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name != name or declared:
            raise RulesError(f"the heuristic of {game.name} ({name}) did not load: {err}") from None
        return plain
    policy: Policy = module.choose
    return policy


def plain(game: Game, view: Mapping[str, Any], rng: random.Random) -> str:
    """The policy of a game without a heuristic of its own: a legal move at random (so the
    ``heuristic`` level, the server's stand-in included, plays any game)."""
    legal: list[str] = list(view["legal_moves"])
    return rng.choice(legal)


class _SeededOnUse:
    """Stands for ``random.Random(seed)``, made at its first use: seeding costs more than
    a decision that breaks no tie (the server makes a bot for each bot move), and a
    policy that draws gets the same numbers as from the Random made at once."""

    __slots__ = ("_rng", "_seed")

    def __init__(self, seed: int | None) -> None:
        self._seed = seed
        self._rng: random.Random | None = None

    def __getattr__(self, name: str) -> Any:
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(self._seed)
        return getattr(rng, name)


class HeuristicBot:
    """Plays the game's heuristic policy; ties are broken by its own seeded RNG (seeded
    when a tie is first broken)."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = cast(random.Random, _SeededOnUse(seed))

    def choose(self, game: Game, view: Mapping[str, Any]) -> str:
        """The policy's move for this view (always one of ``view["legal_moves"]``)."""
        legal = legal_of(view)
        move = policy_for(game)(game, view, self.rng)
        if move not in legal:
            raise RulesError(f"heuristic for {game.name} chose {move!r}, not a legal move")
        return move
