"""Each state's ``clone()`` sets every slot of its class (clones are written out
per class, so that a compiled build can make them native): a slot added to a state but
forgotten in its ``clone()`` fails here, in the pure and in the compiled build alike."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

import tikki
from tikki.core import State

pytestmark = [pytest.mark.engine, pytest.mark.compiled]

GAMES = ("myllymatti", "mattis", "mueckenstich")


def declared_slots(state: State) -> tuple[str, ...]:
    """The ``__slots__`` written in the state class's source (a compiled class keeps none)."""
    cls = type(state)
    source = Path(__file__).resolve().parent.parent / "tikki" / "games" / f"{state.game.name}.py"
    tree = ast.parse(source.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
            for statement in node.body:
                if isinstance(statement, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "__slots__" for t in statement.targets
                ):
                    slots: tuple[str, ...] = ast.literal_eval(statement.value)
                    return slots
    raise AssertionError(f"{cls.__name__} declares no __slots__ in {source}")


@pytest.mark.parametrize("name", GAMES)
def test_clone_sets_every_slot(name: str) -> None:
    game = tikki.load(name)
    state = game.new_state(seed=3)
    rng = random.Random(3)
    for _ in range(12):
        state.view(state.current_player)
        state.play(rng.choice(state.legal_moves()))
    copy = state.clone()
    slots = declared_slots(state)
    assert slots, "no slots read"
    missing = [s for s in slots if not hasattr(copy, s)]
    assert missing == [], f"{type(state).__name__}.clone() does not set {missing}"
    assert copy.reveal() == state.reveal()
    assert copy.view(copy.current_player) == state.view(state.current_player)
