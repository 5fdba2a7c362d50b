"""The arena: seating, determinism across jobs, forfeits, statistics, storage, plot, CLI."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

import tikki
from tikki import arena
from tikki import bots as botlib
from tikki.cli import app
from tikki.core import RulesError

runner = CliRunner()


def _spec(lineup: tuple[str, ...], games: int = 6, seed: int = 3) -> arena.ArenaSpec:
    return arena.ArenaSpec("myllymatti", 3, tikki.load("myllymatti").options, lineup, games, seed)


def test_lineup_and_rotation() -> None:
    assert arena.lineup_for(3, ["heuristic", "random"]) == ("heuristic", "random", "random")
    with pytest.raises(RulesError):
        arena.lineup_for(2, ["a", "b", "c"])
    with pytest.raises(RulesError):
        arena.lineup_for(3, [])
    spec = _spec(("heuristic", "random", "random"), games=9)
    where = Counter(
        seat for i in range(9) for seat, b in enumerate(arena.seating(spec, i)) if b == "heuristic"
    )
    assert where == {0: 3, 1: 3, 2: 3}


def test_a_caller_seats_its_own_player_under_a_spec_it_chooses() -> None:
    spec = _spec(("mine", "random", "random"), games=3)
    asked: list[tuple[str, int | None]] = []

    def make(name: str, seed: int | None = None) -> botlib.Bot:
        asked.append((name, seed))
        return botlib.make("heuristic" if name == "mine" else name, seed=seed)

    for index in range(3):
        result = arena.play_game(spec, index, make)
        alike = arena.play_game(_spec(("heuristic", "random", "random"), games=3), index)
        assert result.seats[index] == "mine" and result.outcome == alike.outcome
    seeds = [arena.derive_seed(3, 0, index, seat) for index in range(3) for seat in range(3)]
    assert [seed for _name, seed in asked] == seeds
    assert [name for name, _seed in asked].count("mine") == 3


def test_duplicate_deals_share_the_cards() -> None:
    spec = _spec(("heuristic", "random", "random"), games=3)
    results = arena.run(spec)
    decks = {json.dumps(tikki.replay(r.record).reveal()["deal_order"]) for r in results}
    assert len(decks) == 1 and {r.deal for r in results} == {0}


def test_results_do_not_depend_on_jobs() -> None:
    spec = _spec(("heuristic", "random", "ismcts:iterations=20"), games=6)
    one = arena.run(spec, jobs=1)
    two = arena.run(spec, jobs=2)
    assert [r.record for r in one] == [r.record for r in two]
    assert [r.outcome for r in one] == [r.outcome for r in two]


def test_a_failing_bot_forfeits_and_the_arena_goes_on(tmp_path: Path) -> None:
    program = tmp_path / "bad.py"
    program.write_text(
        'import sys\nfor line in sys.stdin:\n    print(\'{"move": "nope"}\', flush=True)\n'
    )
    spec = _spec((f"cmd:{sys.executable} {program}", "random", "random"), games=3)
    results = arena.run(spec)
    assert len(results) == 3
    assert all(r.forfeit is not None and "not a legal move" in (r.error or "") for r in results)
    stats = {s.bot: s.as_dict() for s in arena.summarize(results, spec.lineup)}
    bad = stats[spec.lineup[0]]
    assert bad["forfeits"] == 3 and bad["loss_rate"] == 1.0


def test_statistics() -> None:
    low, high = arena.wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-3)
    low, high = arena.wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    mean, (lo, hi) = arena.mean_ci([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5 and lo < 2.5 < hi
    spec = _spec(("heuristic", "random", "random"), games=12)
    results = arena.run(spec)
    stats = {s.bot: s for s in arena.summarize(results, spec.lineup)}
    assert stats["heuristic"].seats == 12 and stats["random"].seats == 24
    losers = Counter(r.seats[r.outcome["loser"]] for r in results if r.outcome)
    assert stats["heuristic"].losses == losers["heuristic"]
    rated = arena.ratings(results)
    assert set(rated) == {"heuristic", "random"}


def test_cli_arena_stores_plots_and_replays(tmp_path: Path) -> None:
    db, png, summary = tmp_path / "r.sqlite", tmp_path / "r.png", tmp_path / "r.json"
    args = ["arena", "myllymatti", "--bots", "heuristic,random", "--games", "5", "--seed", "2"]
    args += ["--db", str(db), "--plot", str(png), "--json", str(summary)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "Loss rate" in result.output and "OpenSkill" in result.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    data = json.loads(summary.read_text())
    assert data["arena"]["games"] == 6  # rounded up to whole duplicate deals
    assert [b["bot"] for b in data["bots"]] == ["heuristic", "random"]
    again = runner.invoke(app, ["replay", "--db", str(db), "6", "--quiet"])
    assert again.exit_code == 0, again.output
    assert "Verified" in again.output
    missing = runner.invoke(app, ["replay", "--db", str(db), "99"])
    assert missing.exit_code == 1 and "no game 99" in missing.output


def test_cli_arena_rejects_bad_input() -> None:
    result = runner.invoke(app, ["arena", "myllymatti", "--bots", "wizard"])
    assert result.exit_code == 2 and "the bots are" in result.output
    result = runner.invoke(app, ["arena", "myllymatti", "--bots", "random", "--games", "0"])
    assert result.exit_code == 2 and "at least 1" in result.output
