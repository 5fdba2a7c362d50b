"""``benchmarks/strength.py --results``: a long strength run saved game by game and resumed
(the full protocol takes longer than a session), and ``arena.run(skip=...)``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests._benchmarks import strength
from tikki import arena


def test_skipped_games_are_not_played_and_the_rest_are_unchanged() -> None:
    spec = arena.ArenaSpec("myllymatti", 3, {}, ("heuristic", "random", "random"), 6, 4)
    whole = arena.run(spec)
    part = arena.run(spec, skip={0, 2, 3})
    assert [r.index for r in part] == [1, 4, 5]
    assert [r.record["moves"] for r in part] == [whole[i].record["moves"] for i in (1, 4, 5)]


def test_a_resumed_run_plays_only_the_missing_games_and_gives_the_same_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = strength()
    target = bench.Target("t", "myllymatti", 3, ("heuristic", "random"), 0.12)
    saved = tmp_path / "runs.jsonl"
    whole = bench.measure(target, 6, 4, 1, saved)
    lines = saved.read_text().splitlines()
    assert len(lines) == 6
    assert all(json.loads(line)["result"]["record"] == {} for line in lines)
    saved.write_text("\n".join(lines[:4]) + "\n")  # a run cut off after four games
    capsys.readouterr()
    resumed = bench.measure(target, 6, 4, 1, saved)
    err = capsys.readouterr().err
    assert "4 games resumed" in err
    assert err.count("this run)") == 2  # only the two missing games were played
    assert [resumed[i] for i in (0, 1, 3)] == [whole[i] for i in (0, 1, 3)]  # figure, interval, met
    assert len(saved.read_text().splitlines()) == 6
    other = bench.Target("t", "myllymatti", 3, ("heuristic", "random"), 0.12)
    assert bench.measure(other, 6, 5, 1, saved)[0]  # another seed: its own games
    assert len(saved.read_text().splitlines()) == 12


def test_a_malformed_results_line_is_a_clear_error(tmp_path: Path) -> None:
    bench = strength()
    target = bench.Target("t", "myllymatti", 3, ("heuristic", "random"), 0.12)
    saved = tmp_path / "runs.jsonl"
    saved.write_text('{"target": "t"\n')
    with pytest.raises(SystemExit, match=r"runs.jsonl:1: not a saved game"):
        bench.measure(target, 2, 4, 1, saved)
    assert saved.read_text() == '{"target": "t"\n'  # nothing lost


def test_a_target_against_a_reference_runs_and_saves_the_reference_and_compares(
    tmp_path: Path,
) -> None:
    """The learned targets' "loses less than ``heuristic`` does in the same seats": the reference
    (``heuristic`` in every seat, the same deals) is run and saved beside the target, and
    its figure is the limit: ``random`` against it is shown worse, ``heuristic`` itself
    is not better than itself."""
    bench = strength()
    saved = tmp_path / "runs.jsonl"
    weak = bench.Target("w", "myllymatti", 3, ("random", "heuristic"), 0.0, None, True)
    figure, _interval, _median, met, _command = bench.measure(weak, 6, 4, 1, saved)
    assert "heuristic in its seats: loss" in figure
    assert met == "NO"
    rows = [json.loads(line) for line in saved.read_text().splitlines()]
    assert sorted({row["target"] for row in rows}) == ["w", "w-reference"]
    reference = next(row["lineup"] for row in rows if row["target"] == "w-reference")
    assert reference == ["heuristic"] * 3
    same = bench.Target("s", "myllymatti", 3, ("heuristic", "heuristic"), 0.0, None, True)
    assert bench.measure(same, 6, 4, 1, None)[3] == "NO"  # not better than itself
    names = {t.name for t in bench.TARGETS}
    assert {"myllymatti-learned", "mattis-learned", "mueckenstich-learned"} <= names
    assert "mueckenstich-new-expert" in names
