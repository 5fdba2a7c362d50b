"""Views whose costlier parts are built when read say exactly what an eager view says.

``state.view(seat)`` is a :class:`tikki.views.LazyView`: the hand, the legal moves and the
parts shared between views are there from the start, the rest (the history, the trick,
the hand sizes, …) is built when first read.  These tests hold it to the plain dict it
stands for: read whole (``json.dumps``, ``==``, iteration, copies, pickling) it is that
dict, key order included; a key read on its own is that key's value; and a view read
only after its state moved on (more moves played) still says what it said when it was
taken.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest

import tikki
from tikki.views import LazyView

pytestmark = pytest.mark.engine

GAMES = [("myllymatti", 3), ("mattis", 3), ("mueckenstich", 4), ("mattis", 5)]


def _positions(name: str, players: int, seed: int) -> list[Any]:
    """Every position of one seeded random game, as copies of the state."""
    state = tikki.load(name, players=players).new_state(seed=seed)
    rng = random.Random(seed)
    out = [state.clone()]
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))
        out.append(state.clone())
    return out


@pytest.mark.parametrize(("name", "players"), GAMES[:3])
def test_a_view_read_later_says_what_it_said_then(name: str, players: int) -> None:
    """Views taken along a game (at every third move: each is read by dealing the game
    again) and read (key by key, or whole) only at its end equal the eager text of each
    view taken at the time."""
    state = tikki.load(name, players=players).new_state(seed=7)
    rng = random.Random(7)
    held: list[tuple[Any, str, list[str]]] = []
    while True:
        for seat in (None, *range(players)) if len(state.moves) % 3 == 0 else ():
            view = state.view(seat)
            assert isinstance(view, LazyView)
            held.append((state.view(seat), json.dumps(state.view(seat)), list(view)))
        if state.is_over:
            break
        state.play(rng.choice(state.legal_moves()))
    assert len(held) > 30
    for k, (view, text, keys) in enumerate(held):
        if k % 2:  # half read key by key first (in reverse), half read whole at once
            for key in reversed(keys):
                assert json.dumps(view[key]) == json.dumps(json.loads(text)[key]), key
        assert json.dumps(view) == text
        assert list(view) == keys


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_view_is_its_plain_dict(name: str, players: int) -> None:
    """Every way of reading a view whole gives the eager dict, in its key order."""
    for state in _positions(name, players, 3)[::7]:
        for seat in (None, 0):
            plain = json.loads(json.dumps(state.view(seat)))
            keys = list(plain)
            checks: list[Callable[[Any], Any]] = [
                lambda v: json.loads(json.dumps(v)),
                dict,
                lambda v: {**v},
                lambda v: v.copy(),
                copy.copy,
                copy.deepcopy,
                lambda v: pickle.loads(pickle.dumps(v)),
                lambda v: dict(v.items()),
                lambda v: dict(zip(v.keys(), v.values(), strict=True)),
            ]
            for check in checks:
                got = check(state.view(seat))
                assert got == plain
                assert list(got) == keys
                assert type(got) is dict
            view = state.view(seat)
            assert view == plain and plain == view
            assert not view != plain  # noqa: SIM202 (the != of a view)
            assert state.view(seat) == state.view(seat)
            assert len(state.view(seat)) == len(plain)
            assert repr(state.view(seat)) == repr(plain)
            assert all(key in state.view(seat) for key in keys)
            assert "no such key" not in view and view.get("no such key", 5) == 5
            assert all(json.dumps(view.get(k)) == json.dumps(plain[k]) for k in keys)


def test_a_changed_view_is_a_plain_dict_changed() -> None:
    """Setting, deleting and popping change the whole view, lazy parts included."""
    state = _positions("myllymatti", 3, 2)[12]
    plain = json.loads(json.dumps(state.view(0)))
    view = state.view(0)
    del view["phase"]
    del plain["phase"]
    assert view == plain and list(view) == list(plain)
    view = state.view(0)
    view["extra"] = 1
    assert list(view) == [*plain_keys(state), "extra"]
    view = state.view(0)
    assert view.pop("history") == json.loads(json.dumps(state.view(0)))["history"]
    assert "history" not in view
    with pytest.raises(KeyError):
        state.view(0)["no such key"]


def plain_keys(state: Any) -> list[str]:
    """The keys of an eager view of seat 0, in order."""
    return list(json.loads(json.dumps(state.view(0))))


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_sampled_state_gives_whole_views(name: str, players: int) -> None:
    """A state drawn from a view cannot be dealt again: its views are built whole at
    once, and give back the view they were drawn from."""
    game = tikki.load(name, players=players)
    state = _positions(name, players, 4)[9]
    seat = state.current_player
    view = state.view(seat)
    sampled = game.sample_state(view, random.Random(1))
    again = sampled.view(seat)
    assert dict.__len__(again) == len(json.loads(json.dumps(again)))  # nothing left to build
    assert again == view
