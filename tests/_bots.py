"""Test helper: a whole game between bots, each move checked against the seat's legal moves."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import tikki
from tikki import bots


def play_game(
    game: tikki.Game,
    lineup: Sequence[bots.Bot],
    seed: int,
    on_move: Callable[[int, str], None] | None = None,
) -> tikki.State:
    """Play one game from ``seed`` with one bot per seat; every move must be legal.

    ``on_move(seat, move)`` sees each move before it is played.
    """
    state = game.new_state(seed=seed)
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        move = lineup[seat].choose(game, view)
        assert move in view["legal_moves"], (move, view["legal_moves"])
        if on_move is not None:
            on_move(seat, move)
        state.play(move)
    return state
