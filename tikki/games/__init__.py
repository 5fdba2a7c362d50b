"""The game modules, one per game; each registers its Game class with the core.

``tikki.games()`` (the registry listing of :func:`tikki.core.games`) and this package share
a name, so the package itself is callable: after ``import tikki.games.myllymatti``,
``tikki.games()`` still returns the games and their option specs.
"""

from __future__ import annotations

import sys
import types
from typing import Any


class _GamesPackage(types.ModuleType):
    """The ``tikki.games`` package, callable as :func:`tikki.core.games`."""

    def __call__(self) -> dict[str, Any]:
        from tikki.core import games

        return games()


sys.modules[__name__].__class__ = _GamesPackage
