"""The action ids and observation vectors shared by the OpenSpiel and PettingZoo adapters."""

from __future__ import annotations

import os
import random

import pytest

import tikki
from tikki.core import game_class

try:
    import numpy as np
except ImportError as err:  # pragma: no cover - depends on the environment
    if os.environ.get("CI") == "true":
        raise
    pytest.skip(
        f"!!! NumPy is not installed ({err}): pip install -e '.[openspiel,pettingzoo]' !!!",
        allow_module_level=True,
    )

from tests._configs import players_for
from tikki.interop import encoding
from tikki.interop.encoding import ActionSpace, ActionSpaceError, ViewEncoder


def _games() -> list[tikki.Game]:
    out = []
    for name, spec in tikki.games().items():
        cls = game_class(name)
        for variant in spec["variants"]:
            out.append(tikki.load(name, players_for(name, variant), variant=variant))
        out.append(tikki.load(name, cls.max_players))
    return out


GAMES = _games()


def _id(game: tikki.Game) -> str:
    return f"{game.name}-{game.players}p-{game.options['variant']}"


def test_myllymatti_ids_are_pinned() -> None:
    space = ActionSpace(tikki.load("myllymatti"))
    assert (space.to_id("2S"), space.to_id("AC"), space.to_id("stock"), space.to_id("take")) == (
        0,
        51,
        52,
        53,
    )
    koira = ActionSpace(tikki.load("myllymatti", variant="koira"))
    assert len(koira) == 52 + 4 * 78 + 2
    assert koira.to_text(52) == "2S+3S" and koira.to_text(53) == "2S+3S+4S"
    with pytest.raises(ActionSpaceError, match="GRAMMARS"):
        space.to_id("2S+3S")
    with pytest.raises(ActionSpaceError):
        space.to_text(len(space))


@pytest.mark.parametrize("game", GAMES, ids=_id)
def test_moves_and_views_fit_the_encoding(game: tikki.Game) -> None:
    space = ActionSpace(game)
    encoder = ViewEncoder(game, space)
    allowed = set(encoder.keys) | encoding.META_KEYS
    for seed in range(3):
        state, rng = game.new_state(seed=seed), random.Random(seed)
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            view = state.view(seat)
            assert set(view) <= allowed, f"view keys outside the encoding: {set(view) - allowed}"
            vector = encoder.encode(view, seat)
            assert vector.shape == (encoder.size,) and vector.dtype == np.float32
            parts = encoder.split(vector)
            legal = [space.to_text(int(i)) for i in np.flatnonzero(parts["legal"])]
            assert sorted(legal) == sorted(state.legal_moves())
            assert parts["hand"].sum() == len(view["hand"])
            state.play(rng.choice(state.legal_moves()))


@pytest.mark.parametrize("game", GAMES, ids=_id)
def test_fallback_grammar_covers_every_game(game: tikki.Game) -> None:
    fallback = set(ActionSpace(game).texts)
    saved = encoding.GRAMMARS.pop(game.name, None)
    try:
        fallback = set(ActionSpace(game).texts)
    finally:
        if saved is not None:
            encoding.GRAMMARS[game.name] = saved
    assert set(ActionSpace(game).texts) <= fallback


def test_observer_rows_are_relative() -> None:
    game = tikki.load("myllymatti", 3)
    encoder = ViewEncoder(game, ActionSpace(game))
    state = game.new_state(seed=1)
    for seat in range(3):
        parts = encoder.split(encoder.encode(state.view(seat), seat))
        to_act = int(np.flatnonzero(parts["to_act"])[0])
        assert to_act == (0 - seat) % 3  # seat 0 leads
