"""The view and outcome types of ``tikki/views.py`` match the engine's real views.

Every key of every view (each game, seats and the public view, through whole games) must
be declared, each declared key must be there unless it is ``NotRequired``, and each value
must have its declared type; the outcomes likewise.
"""

from __future__ import annotations

import functools
import random
import types
import typing
from typing import Any, get_args, get_origin, get_type_hints, is_typeddict

import pytest

import tikki
from tikki import core, views
from tikki.games.myllymatti import MyllymattiView

pytestmark = pytest.mark.engine


def _fits(value: Any, hint: Any) -> bool:
    """Whether a JSON value has the declared type ``hint``."""
    origin, args = get_origin(hint), get_args(hint)
    if hint is Any:
        return True
    if hint is type(None):
        return value is None
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, arg) for arg in args)
    if is_typeddict(hint):
        return isinstance(value, dict) and not _misfits(value, hint)
    if origin is list:
        return isinstance(value, list) and all(_fits(item, args[0]) for item in value)
    if origin is dict:
        return isinstance(value, dict) and all(_fits(item, args[1]) for item in value.values())
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, hint)


@functools.cache
def _hints(shape: Any) -> dict[str, Any]:
    """The resolved annotations of a TypedDict (resolved once: they are asked for often)."""
    return get_type_hints(shape)


def _misfits(value: dict[str, Any], shape: Any) -> list[str]:
    """What in ``value`` does not match the TypedDict ``shape`` (empty: it matches)."""
    hints = _hints(shape)
    problems = [f"undeclared key {key!r}" for key in value if key not in hints]
    problems += [f"missing key {key!r}" for key in shape.__required_keys__ if key not in value]
    problems += [
        f"{key!r} is {value[key]!r}, declared {hints[key]}"
        for key in hints
        if key in value and not _fits(value[key], hints[key])
    ]
    return problems


@pytest.mark.parametrize("name", sorted(core.view_types()))
def test_views_have_their_declared_shape(name: str) -> None:
    shape = core.view_types()[name]
    checked = 0
    for players in (3, 4):
        game = tikki.load(name, players=players)
        state = game.new_state(seed=players)
        rng = random.Random(players)
        while True:
            if len(state.moves) % 5 == 0 or state.is_over:  # every phase, fewer views
                for seat in (0, None):
                    problems = _misfits(state.view(seat), shape)
                    assert not problems, f"{name} seat {seat} move {len(state.moves)}: {problems}"
                    checked += 1
            if state.is_over:
                break
            state.play(rng.choice(state.legal_moves()))
        scored = "scores" in (state.outcome or {})  # by its shape, not by the game's name
        outcome_shape = views.MatchOutcome if scored else views.SheddingOutcome
        assert state.outcome is not None
        assert not _misfits(state.outcome, outcome_shape), state.outcome
    assert checked > 40


def test_the_checker_finds_a_wrong_view() -> None:
    state = tikki.load("myllymatti", players=3).new_state(seed=1)
    view = state.view(0)
    assert not _misfits(view, MyllymattiView)
    assert _misfits({**view, "extra": 1}, MyllymattiView) == ["undeclared key 'extra'"]
    assert _misfits({**view, "stock_size": "9"}, MyllymattiView)
    del view["phase"]
    assert _misfits(view, MyllymattiView) == ["missing key 'phase'"]
