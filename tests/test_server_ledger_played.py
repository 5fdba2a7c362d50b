"""The ledger stores a move's canonical text (``state.moves[-1]``) without building the
list of every move (:func:`tikki.server.tables.ledger._played`): the same text for every
game, legal texts and forgiving ones alike."""

from __future__ import annotations

import random

import pytest

import tikki
from tikki.server.tables.ledger import _played


@pytest.mark.parametrize("name", ["myllymatti", "mattis", "mueckenstich"])
def test_played_is_the_stored_canonical_text(name: str) -> None:
    rng = random.Random(7)
    checked = 0
    for seed in range(1, 6):
        state = tikki.load(name).new_state(seed=seed)
        while not state.is_over:
            move = rng.choice(state.legal_moves())
            if rng.random() < 0.3:  # forgiving input: the engine canonicalizes it
                move = f" {move.lower()} "
            child = state.clone()
            child.play(move)
            assert _played(state, child, move) == child.moves[-1]
            state = child
            checked += 1
    assert checked > 100
