"""The conformance kit: checks any game, tikki's own or a plug-in's, against the contract
of docs/design.md by seeded random playouts over each configuration it declares.

A plug-in runs it with one class in its tests (pytest installed beside tikki)::

    from tikki.testing import ConformanceSuite

    class TestMyGame(ConformanceSuite):
        game = "mygame"

Every rule it checks has a name and a text (:data:`RULES`, also in
docs/writing-a-game.md); a failure raises :class:`ConformanceError` naming the rule.
Without pytest, call the checks directly: :func:`random_playouts`,
:func:`same_seed_same_game`, :func:`hidden_swap_is_invisible`, :func:`clone_is_apart`
over :func:`configs`.
"""

from __future__ import annotations

from tikki.testing.checks import configs, playout
from tikki.testing.rules import RULES, ConformanceError
from tikki.testing.suite import (
    ConformanceSuite,
    clone_is_apart,
    hidden_swap_is_invisible,
    random_playouts,
    same_seed_same_game,
)

__all__ = [
    "RULES",
    "ConformanceError",
    "ConformanceSuite",
    "clone_is_apart",
    "configs",
    "hidden_swap_is_invisible",
    "playout",
    "random_playouts",
    "same_seed_same_game",
]
