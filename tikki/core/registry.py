"""The registry: the games there are, found through entry points, and made by name.

:func:`load` makes a game by name, :func:`games` describes them all, :func:`game_class`
and :func:`registered` give the classes; a game module calls :func:`register` after its
class.  A game's rollout tactics (:func:`tactics`) are found here too, by the module its
class declares.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import warnings
from collections.abc import Mapping
from importlib.metadata import entry_points
from types import MappingProxyType, ModuleType
from typing import Any, TypeVar

from tikki.core.game import Game, describe_game
from tikki.errors import RulesError
from tikki.i18n import _ as _t
from tikki.i18n import localized_game
from tikki.views import JSON

GAMES_GROUP = "tikki.games"
"""The entry-point group through which games are found, tikki's own three included: a
package adds a game with ``[project.entry-points."tikki.games"] NAME = "module:GameClass"``."""
_REGISTRY: dict[str, type[Game]] = {}
G = TypeVar("G", bound=type[Game])


def register(cls: G) -> G:
    """Make a Game subclass loadable by its ``name``; a game module calls it after the
    class (not as a decorator, which would keep a compiled class from being native)."""
    _REGISTRY[cls.name] = cls
    return cls


BUILT_IN: list[ModuleType] = []
"""The packages of tikki's own games (``tikki/__init__.py`` names them), imported module
by module where the installed entry points of the ``tikki`` distribution are missing: the
registry itself names no game."""


@functools.cache
def _load_modules() -> None:
    """Register every game of the entry-point group :data:`GAMES_GROUP` once.

    A game that fails to load is left out with a warning naming it.  A source tree that
    was never installed has no entry points of its own; then the modules of each package
    of :data:`BUILT_IN` are imported, and each registers itself.
    """
    own = False
    for point in entry_points(group=GAMES_GROUP):
        own = own or (point.dist is not None and point.dist.name == "tikki")
        try:
            cls = point.load()
        except Exception as err:  # a broken plug-in must not take the other games down
            warnings.warn(f"game {point.name!r} ({point.value}) did not load: {err}", stacklevel=2)
            continue
        if not (isinstance(cls, type) and issubclass(cls, Game)):
            warnings.warn(f"game {point.name!r} ({point.value}) is not a Game class", stacklevel=2)
            continue
        register(cls)
    if not own:
        for package in BUILT_IN:
            for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
                importlib.import_module(info.name)


def registered() -> Mapping[str, type[Game]]:
    """Every registered game class by its name, the entry-point group's loaded first (even
    if a game module was imported, and registered itself, directly); read-only."""
    _load_modules()
    return MappingProxyType(_REGISTRY)


def load(name: Any, players: Any = None, *, rules: Any = None, **options: Any) -> Game:
    """Make a game by name: ``load(name, players=3, variant=...)`` (:func:`games` names them).

    ``rules`` picks an older rulings revision (``"r1"``), as a stored game needs; new
    games leave it out and play :data:`RULES_REVISION`.  Unknown games, options, values
    and revisions raise :class:`RulesError` naming the valid ones.
    """
    key = name.strip().lower() if isinstance(name, str) else name
    return game_class(key, shown=name)(players, rules=rules, **options)


def games() -> dict[str, JSON]:
    """The registered games, by name, with their players, variants and option specs."""
    return {name: describe_game(cls) for name, cls in sorted(registered().items())}


def built_in(name: str) -> bool:
    """Whether the game ``name`` is one of tikki's own (its class lives in a package of
    :data:`BUILT_IN`) rather than a plug-in's: tikki's own documents, catalogues and
    golden files speak of these alone."""
    module = game_class(name).__module__
    return any(module.startswith(package.__name__ + ".") for package in BUILT_IN)


def lobby_order() -> list[str]:
    """The registered games' names as the lobby lists them: the featured ones
    (:attr:`Game.featured`) first, then by name."""
    registry = sorted(registered().items())
    return [n for n, c in registry if c.featured] + [n for n, c in registry if not c.featured]


def memory_aid_titles() -> str:
    """The titles of the games whose tables may offer memory aids (:attr:`Game.memory_aids`),
    for messages: ``A, B``."""
    return ", ".join(cls.title for _, cls in sorted(registered().items()) if cls.memory_aids)


def game_class(name: Any, shown: Any = None) -> type[Game]:
    """The Game subclass registered under ``name``; raise :class:`RulesError` if none,
    naming ``shown`` (what was asked for; default ``name``) and the games there are."""
    registry = registered()
    cls = registry.get(name) if isinstance(name, str) else None
    if cls is None:
        raise RulesError(
            _t(
                "no game {name!r}: the games are {games}",
                name=name if shown is None else shown,
                games=", ".join(sorted(registry)),
            )
        )
    return cls


@functools.cache
def tactics(game_name: str) -> Any:
    """The rules of thumb on ints for ``game_name``, the module its class declares
    (:attr:`BotParts.tactics <tikki.core.game.BotParts.tactics>`): a game's greedy
    ``random_playout`` plays its cheap moves by them, and so does the ``heuristic`` bot, so
    that rollout policy has one home, beside the game (imported on first use: a game's
    tactics may import its module)."""
    module = game_class(game_name).bots.tactics
    if not module:
        raise RulesError(f"the game {game_name!r} declares no rollout tactics")
    return importlib.import_module(module)


def view_types() -> dict[str, type[Mapping[str, Any]]]:
    """Each registered game's view type (:attr:`Game.view_type`, a ``TypedDict``), by the
    game's name (:mod:`tikki.views` holds the keys they share)."""
    return {name: cls.view_type for name, cls in sorted(registered().items())}


def localized_games(described: Mapping[str, Any]) -> dict[str, Any]:
    """``tikki.games()`` in the current language (:func:`tikki.i18n.localized_game`): each
    game's texts translated by its own :attr:`Game.translations` (a game not registered
    has none), else by tikki's catalogs."""
    return {name: localized_game(info, _own_texts(name)) for name, info in described.items()}


def _own_texts(name: str) -> Mapping[str, Mapping[str, str]]:
    """The translations game ``name`` ships (none for an unknown game)."""
    cls = registered().get(name)
    return {} if cls is None else cls.translations
