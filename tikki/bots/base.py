"""What every bot is (:class:`Bot`) and what every bot module shares: the base the built-in
bots and a user's bots stand on, below the registry of :mod:`tikki.bots`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from tikki.core import Game, RulesError
from tikki.i18n import _ as _t


class Bot(Protocol):
    """What every bot does: pick a legal move from a seat's view."""

    name: str

    def choose(self, game: Game, view: Mapping[str, Any]) -> str:
        """Return one of ``view["legal_moves"]``."""
        ...


def legal_of(view: Mapping[str, Any]) -> list[str]:
    """The view's legal moves, for a bot to choose from; :class:`RulesError` if it has
    none (it is not the seat's turn)."""
    legal = [str(m) for m in view.get("legal_moves") or []]
    if not legal:
        raise RulesError(_t("the view has no legal moves: it is not this seat's turn"))
    return legal


BotFactory = Callable[..., Bot]
"""What makes a bot: called with ``seed=`` and the spec's parameters."""
