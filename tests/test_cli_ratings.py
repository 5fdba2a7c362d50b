"""``tikki ratings``: the bot levels' anchored ratings from the arena."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tikki.cli import app, ratings

runner = CliRunner()
ANCHORS: dict[str, Any] = {
    "seed": 42,
    "games": 8,
    "ratings": {
        "myllymatti": {
            "random": {"label": "Easy", "mu": 11.5, "sigma": 6.0},
            "heuristic": {"label": "Medium", "mu": 28.0, "sigma": 5.0},
        }
    },
}


@pytest.fixture
def anchors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "bot_ratings.json"
    path.write_text(json.dumps(ANCHORS))
    monkeypatch.setattr(ratings, "BOT_RATINGS", path)
    return path


def test_ratings_table_best_first(anchors: Path) -> None:
    result = runner.invoke(app, ["ratings"])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if "myllymatti" in line]
    assert "Medium" in lines[0] and "13.0" in lines[0]
    assert "Easy" in lines[1] and "-6.5" in lines[1]
    assert "8 games per pairing" in result.output


def test_ratings_json_and_errors(anchors: Path) -> None:
    result = runner.invoke(app, ["ratings", "myllymatti", "--json"])
    assert json.loads(result.output) == {"myllymatti": ANCHORS["ratings"]["myllymatti"]}
    result = runner.invoke(app, ["ratings", "mattis"])
    assert result.exit_code == 2 and "no bot ratings for mattis yet" in result.output
    anchors.unlink()
    result = runner.invoke(app, ["ratings"])
    assert result.exit_code == 2 and "run benchmarks/anchors.py" in result.output


def test_a_level_added_later_says_how_it_was_rated(anchors: Path) -> None:
    data = {**ANCHORS, "added": {"Expert": {"games": 4, "seed": 42}}}
    data["ratings"] = {"myllymatti": {**ANCHORS["ratings"]["myllymatti"]}}
    data["ratings"]["myllymatti"]["expert:iterations=3000"] = {
        "label": "Expert",
        "mu": 40.0,
        "sigma": 6.0,
    }
    anchors.write_text(json.dumps(data))
    result = runner.invoke(app, ["ratings"])
    assert result.exit_code == 0, result.output
    assert "Expert was added later" in result.output and "4 games per pairing" in result.output


def test_a_level_rated_against_some_anchors_names_them(anchors: Path) -> None:
    """``anchors.py --add Expert --against Hard`` plays only the pairings with Hard: the
    line says so rather than "against the others"."""
    data = {**ANCHORS, "added": {"Expert": {"games": 24, "seed": 7, "against": ["Hard"]}}}
    anchors.write_text(json.dumps(data))
    result = runner.invoke(app, ["--lang", "en", "ratings"])
    assert result.exit_code == 0, result.output
    said = "rated against Hard only, the anchors kept as they were: 24 games per pairing"
    assert said in result.output
    assert "the others" not in result.output
    result = runner.invoke(app, ["--lang", "de", "ratings"])
    assert "gegen Hard" in result.output or "gegen Schwer" in result.output, result.output


def test_shipped_anchors_cover_the_levels() -> None:
    data = json.loads(ratings.BOT_RATINGS.read_text(encoding="utf-8"))
    levels = data["ratings"]["myllymatti"]
    assert {"random", "heuristic"} <= set(levels)
    rating = {spec: r["mu"] - 3 * r["sigma"] for spec, r in levels.items()}
    assert rating["heuristic"] > rating["random"], "Medium is measured stronger than Easy"


def test_every_level_a_table_offers_but_learned_is_anchored_in_every_game() -> None:
    """The profile's bot-level lines and rated tables need each level's anchor: Expert's
    was missing (the profile showed Easy, Medium and Hard only)."""
    data = json.loads(ratings.BOT_RATINGS.read_text(encoding="utf-8"))
    for game, levels in data["ratings"].items():
        labels = {r["label"] for r in levels.values()}
        assert labels == {"Easy", "Medium", "Hard", "Expert"}, (game, labels)
    assert data["added"]["Expert"]["against"] == ["Hard"]
