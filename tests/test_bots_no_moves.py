"""Every bot refuses a view without legal moves the same way (``tikki.bots.legal_of``):
a :class:`RulesError` saying it is not the seat's turn, in the current language."""

from __future__ import annotations

import pytest

import tikki
from tikki import bots as botlib
from tikki import i18n
from tikki.core import RulesError


@pytest.mark.parametrize("spec", ["random", "heuristic", "expert:iterations=20"])
def test_a_bot_refuses_a_view_without_legal_moves(spec: str) -> None:
    game = tikki.load("myllymatti", 3)
    state = game.new_state(seed=1)
    waiting = (state.current_player or 0) + 1
    view = state.view(waiting)
    assert view["legal_moves"] == []
    with pytest.raises(RulesError, match="not this seat's turn"):
        botlib.make(spec, seed=0).choose(game, view)
    with i18n.use("fi"), pytest.raises(RulesError) as err:
        botlib.make(spec, seed=0).choose(game, view)
    assert str(err.value) == i18n.translator("fi").gettext(
        "the view has no legal moves: it is not this seat's turn"
    )
    assert "not this seat's turn" not in str(err.value)
