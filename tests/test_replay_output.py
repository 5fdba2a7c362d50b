"""``tikki replay``: the outcome as a table (golden output), truncated records, face-down cards."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

import tikki
from tikki.cli import app

runner = CliRunner()

GOLDEN_MYLLYMATTI = """\
Verified 123 moves of Myllymatti: game over.
Outcome
┏━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━┓
┃ Seat   ┃ Result                    ┃
┡━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━┩
│ Seat 0 │ out second                │
│ Seat 1 │ lost (last to hold cards) │
│ Seat 2 │ out first                 │
└────────┴───────────────────────────┘
"""


def _record(game: str, players: int, seed: int, moves: int | None = None) -> dict[str, Any]:
    """A game played by always taking the first legal move (deterministic)."""
    state = tikki.load(game, players=players).new_state(seed=seed)
    while not state.is_over and (moves is None or len(state.moves) < moves):
        state.play(state.legal_moves()[0])
    record: dict[str, Any] = state.record()
    return record


def _replay(tmp_path: Path, record: dict[str, Any], *args: str) -> tuple[int, str]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["replay", *args, str(path)])
    return result.exit_code, "\n".join(line.rstrip() for line in result.output.splitlines()) + "\n"


def test_outcome_is_a_table_golden(tmp_path: Path) -> None:
    code, out = _replay(tmp_path, _record("myllymatti", 3, 5), "--quiet")
    assert code == 0
    assert out == GOLDEN_MYLLYMATTI


def test_mueckenstich_outcome_gives_the_points(tmp_path: Path) -> None:
    record = _record("mueckenstich", 3, 2)
    code, out = _replay(tmp_path, record, "--quiet")
    assert code == 0 and "{" not in out and "returns" not in out
    scores = record["outcome"]["scores"]
    for seat, score in enumerate(scores):
        assert re.search(rf"│ Seat {seat} │ +{score}( \(winner\))? +│", out), out


def test_a_truncated_record_says_where_it_ends(tmp_path: Path) -> None:
    record = _record("myllymatti", 3, 5)
    record["moves"] = record["moves"][:40]
    code, out = _replay(tmp_path, record)
    assert code == 1
    text = " ".join(out.split())
    assert "the record ends before the game does (move 40 of an unfinished game" in text
    assert "{" not in text and "Traceback" not in text


def test_mueckenstich_discards_only_to_whoever_may_see_them(tmp_path: Path) -> None:
    record = _record("mueckenstich", 4, 8, moves=8)
    state = tikki.replay(record)
    own = [
        h["move"] for h in state.history(0) if h["seat"] == 0 and h["move"].startswith("discard")
    ]
    assert own and all(m != "discard ?" for m in own)
    _, public = _replay(tmp_path, record)
    _, seat0 = _replay(tmp_path, record, "--seat", "0")
    for move in own:
        card = move.split()[1]
        assert f"Seat 0 sets {card} aside" not in public
        assert f"Seat 0 sets {card} aside" in seat0
    assert "Seat 1 sets a card aside" in seat0
    code, out = _replay(tmp_path, record, "--seat", "9")
    assert code == 2 and "no seat 9" in out
