"""A bot registered from outside tikki gets each view as a plain, deep copy: nothing it
holds reaches the game's state (the engine's own views may compute their parts from the
state when read), and what it changes no other reader sees (docs/design.md: bots get a
view, never the state)."""

from __future__ import annotations

import gc
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from tikki import bots
from tikki.core import Game, State, load


class Prying:
    """A bot that keeps what it was given and scribbles on it."""

    name = "prying"

    def __init__(self, seed: int | None = None) -> None:
        self.seen: list[Mapping[str, Any]] = []

    def choose(self, game: Game, view: Mapping[str, Any]) -> str:
        """The first legal move, after keeping the view and emptying its lists."""
        self.seen.append(view)
        for value in view.values():
            if isinstance(value, list):
                value.clear()
        return "nothing"


def _reaches_state(root: object, limit: int = 20_000) -> bool:
    """Whether a state object is reachable from ``root`` through the objects it refers to."""
    seen: set[int] = set()
    todo: list[object] = [root]
    while todo and len(seen) < limit:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen.add(id(obj))
        if isinstance(obj, State):
            return True
        todo.extend(gc.get_referents(obj))
    return False


@pytest.fixture
def prying() -> Iterator[None]:
    bots.register_bot("prying", Prying)
    yield
    bots._FACTORIES.pop("prying", None)


@pytest.mark.parametrize("name", ["myllymatti", "mattis", "mueckenstich"])
def test_a_registered_bot_gets_a_sealed_copy(name: str, prying: None) -> None:
    game = load(name)
    state = game.new_state(seed=3)
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    if getattr(view, "_lazy", None) is not None:  # the walk finds the state it may hold
        assert _reaches_state(view)
    bot = bots.make("prying")
    assert isinstance(bot, bots.Sealed) and bot.name == "prying"
    bot.choose(game, view)
    kept = bot.bot.seen[0]  # type: ignore[attr-defined]
    assert type(kept) is dict and not _reaches_state(kept)
    again = state.view(seat)
    assert again["legal_moves"] and again == view  # the bot's scribbles reached no one


def test_the_built_in_bots_are_not_wrapped() -> None:
    assert not isinstance(bots.make("random", seed=1), bots.Sealed)
