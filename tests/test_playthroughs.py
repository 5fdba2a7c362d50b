"""Golden games from ../shared/playthroughs: same seat to act, same legal-move sets, same outcome.

Every row of every file, every step.  Rows that end with a ``note`` (a Mattis dreck, whose
split depends on the engine's own shuffle) are checked up to their last step.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import tikki
from tests.conftest import shared_path

FILES = ("myllymatti", "mattis", "mueckenstich")


def _rows(name: str) -> list[dict[str, Any]]:
    path = shared_path("playthroughs", f"{name}.jsonl")
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("name", FILES)
def test_playthroughs(name: str) -> None:
    if name not in tikki.games():
        pytest.fail(f"{name} is not registered: its playthroughs cannot run")
    rows = _rows(name)
    assert rows, f"{name}.jsonl holds no games"
    for line, row in enumerate(rows, 1):
        game = tikki.load(row["game"], players=row["players"], **row["options"])
        state = game.new_state(deck=row["deck"])
        for i, step in enumerate(row["steps"]):
            where = f"{name}.jsonl line {line} step {i}"
            assert state.current_player == step["to_act"], where
            assert state.phase == step["phase"], where
            assert sorted(state.legal_moves()) == sorted(step["legal"]), where
            state.play(step["move"])
        if "outcome" in row:
            assert state.is_over, f"{name}.jsonl line {line}: game not over"
            outcome = state.outcome
            assert outcome is not None
            for key, value in row["outcome"].items():
                assert outcome[key] == value, f"{name}.jsonl line {line}: {key}"
