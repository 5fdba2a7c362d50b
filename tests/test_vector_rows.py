"""The lists the vector env's observations and masks are written from, as the compiled
build lists them (``tikki/interop/rows.py``, ``tikki/interop/encoders/*_rows.py``),
against the encoder's own :meth:`parts_into`, state by state: every state of many games,
every observer and the public one, in each of Myllymatti's configurations.  In the pure
build these modules run as Python; ``make test-compiled`` runs the same tests compiled."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import tikki
from tikki.interop.encoders import myllymatti, myllymatti_rows
from tikki.interop.observations import CardEncoder, Rows, encoder_for
from tikki.interop.rows import legal_rows, play_rows

pytestmark = pytest.mark.compiled

CONFIGS: list[tuple[int, dict[str, Any]]] = [
    (3, {}),
    (4, {"variant": "koira"}),
    (2, {"max_moves": 14}),
    (2, {}),
    (3, {"take": "bottom", "runs": True}),
]


def _states(game: tikki.Game, games: int) -> tuple[list[tikki.State], list[int | None]]:
    """Every state of ``games`` random games, each seen by every seat and the public."""
    rng = random.Random(games)
    states: list[tikki.State] = []
    seats: list[int | None] = []
    for deal in range(games):
        state = game.new_state(seed=deal)
        while True:
            for seat in (None, *range(game.players)):
                states.append(state.clone())
                seats.append(seat)
            if state.is_over:
                break
            state.play(rng.choice(state.legal_moves()))
    return states, seats


def _empty() -> Rows:
    return ([], [], [], [], [])


@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_the_listed_rows_are_what_each_state_lists(players: int, options: dict[str, Any]) -> None:
    try:
        game = tikki.load("myllymatti", players, **options)
    except tikki.RulesError as err:  # an option this version does not have
        pytest.skip(str(err))
    encoder = encoder_for(game)
    assert isinstance(encoder, myllymatti.MyllymattiEncoder)
    states, seats = _states(game, 12)
    expected, listed = _empty(), _empty()
    CardEncoder.rows_into(encoder, states, seats, expected)  # parts_into, state by state
    myllymatti_rows.rows_into(encoder._layouts, states, seats, listed, encoder._scale)  # type: ignore[arg-type]
    for name, want, got in zip(
        ("hits", "at", "values", "ends", "at_ends"), expected, listed, strict=True
    ):
        assert got == want, name
    rows = np.zeros((len(states), encoder.size), np.float32)
    encoder.encode_batch(states, seats, rows)  # whichever lists the build uses
    for i in range(0, len(states), 7):
        assert rows[i].tobytes() == encoder.encode(states[i], seats[i]).tobytes()


def test_a_wrong_layout_would_be_seen() -> None:
    """The comparison can fail: the layouts of two observers list different rows."""
    game = tikki.load("myllymatti", 3)
    encoder = encoder_for(game)
    assert isinstance(encoder, myllymatti.MyllymattiEncoder)
    states, seats = _states(game, 1)
    expected, swapped = _empty(), _empty()
    CardEncoder.rows_into(encoder, states, seats, expected)
    layouts = [encoder._layouts[1], encoder._layouts[0], *encoder._layouts[2:]]
    myllymatti_rows.rows_into(layouts, states, seats, swapped, encoder._scale)  # type: ignore[arg-type]
    assert swapped[0] != expected[0]


@pytest.mark.parametrize("name", ["myllymatti", "mattis", "mueckenstich"])
def test_the_legal_rows_are_the_legal_moves_ids(name: str) -> None:
    game = tikki.load(name)
    encoder = encoder_for(game)
    states, _ = _states(game, 3)
    finished = [s for s in states if s.is_over][:1]
    live = [s for s in states if not s.is_over][::5] + finished
    flat: list[int] = []
    counts: list[int] = []
    legal_rows(live, None, encoder.actions.index, flat, counts)
    expected = [encoder.actions.to_id(m) for s in live for m in s.legal_moves()]
    assert flat == expected
    assert counts == [len(s.legal_moves()) for s in live]
    assert counts[-1] == 0


def test_the_compiled_build_lists_with_its_compiled_modules() -> None:
    """Where the engine is compiled, so are the lists (setup.py's COMPILED_MODULES)."""
    assert myllymatti.COMPILED == tikki.COMPILED


def test_play_rows_plays_each_move_and_names_the_games_to_settle() -> None:
    game = tikki.load("myllymatti", 2, max_moves=14)
    encoder = encoder_for(game)
    texts = encoder.actions.texts
    states = [game.new_state(seed=s) for s in range(4)]
    twins = [s.clone() for s in states]
    ended: list[int] = []
    while len(ended) < len(states):
        live = [i for i, s in enumerate(states) if not s.is_over]
        chosen = [encoder.actions.to_id(states[i].legal_moves()[0]) for i in live]
        settle = play_rows([states[i] for i in live], texts, chosen, False)
        for i, a in zip(live, chosen, strict=True):
            twins[i].play(texts[a])
        assert [live[k] for k in settle] == [i for i in live if twins[i].is_over]
        ended += [live[k] for k in settle]
    assert [s.moves for s in states] == [t.moves for t in twins]
    assert play_rows([], texts, [], True) == []
