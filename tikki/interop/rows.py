"""What the batched encoders list for many states at once, written to be compiled (the
compiled build's ``setup.py`` ``COMPILED_MODULES``): typed loops over the engine's
states, no NumPy, so that the compiled build calls the states' methods directly.

:func:`legal_rows` lists the action ids of each state's legal moves, from which
:meth:`tikki.interop.observations.Encoder.mask_batch` writes every mask in one NumPy call;
:func:`play_rows` plays one move in each state (:class:`tikki.rl.VectorEnv`'s step).
A game's encoder may have such a module of its own for its observations
(``tikki/interop/encoders/<game>_rows.py``).
"""

from __future__ import annotations

from tikki.core.game import State


def legal_rows(
    states: list[State],
    seats: list[int | None] | None,
    index: dict[str, int],
    flat: list[int],
    counts: list[int],
) -> None:
    """Append the action ids (``index``: move text to id) of the legal moves of each
    state's seat to act to ``flat``, and their number to ``counts``: none where that seat
    (``seats[i]``, else the state's ``current_player``) is ``None``, the game over."""
    for i in range(len(states)):
        state = states[i]
        seat = state.current_player if seats is None else seats[i]
        if seat is None:
            counts.append(0)
            continue
        moves = state.legal_moves()
        for move in moves:
            flat.append(index[move])
        counts.append(len(moves))


def play_rows(
    states: list[State], texts: tuple[str, ...], chosen: list[int], every: bool
) -> list[int]:
    """Play the move ``texts[chosen[i]]`` in each ``states[i]`` (each legal, checked
    before); return the indices of the states to settle: every one (``every``), else
    those whose game is over."""
    settle: list[int] = []
    for i in range(len(states)):
        state = states[i]
        state.play(texts[chosen[i]])
        if every or state.outcome is not None:
            settle.append(i)
    return settle


__all__ = ["legal_rows", "play_rows"]
