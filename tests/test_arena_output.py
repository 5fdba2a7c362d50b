"""The arena's report and plot: golden output, whole words, 80 columns, a readable plot."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from tikki import arena
from tikki.cli import arena as cli  # the arena command: its console, report and durations

LINEUP = ("heuristic", "random", "random", "random", "random", "random")
SPEC = arena.ArenaSpec("mueckenstich", 6, {}, LINEUP, 6, 3)

GOLDEN_SCORED = """\
mueckenstich, 6 players, 6 games, seed 3
                Points                          Moves    Time
                   per                            per     per
Bot       Seats  round Advantage   95% interval  game    move
━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
heuristic     6   2.25     +2.35 +2.35 to +2.35   400 1.23 ms
random       30  -0.10     -0.47 -0.47 to -0.47   400 12.3 µs
No game was abandoned and no bot forfeited.
OpenSkill ratings (Plackett–Luce)
Bot       Rating (μ − 3σ) Skill μ Uncertainty σ
━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━
heuristic           12.92   34.37          7.15
random              -5.82   15.63          7.15
"""


def _results() -> list[arena.GameResult]:
    """Six made-up games of the line-up over three deals: the heuristic seat scores 2 or 3
    per round."""
    out = []
    for index in range(6):
        seats = arena.seating(SPEC, index)
        scores = [(15 if index % 2 else 12) if s == "heuristic" else 0 for s in seats]
        scores = [sc if sc else (-1 if (i + index) % 2 else 0) for i, sc in enumerate(scores)]
        outcome = {"scores": scores, "rounds": [{}] * 6, "abandoned": False, "returns": scores}
        think = [0.1231 if s == "heuristic" else 0.00123 for s in seats]
        out.append(arena.GameResult(index, index // 2, seats, outcome, 400, think, [100] * 6, {}))
    return out


def _report(results: list[arena.GameResult], spec: arena.ArenaSpec) -> str:
    cli.console = Console(width=80, file=io.StringIO(), record=True, highlight=False)
    cli._report(spec, results, arena.summarize(results, spec.lineup))
    return "\n".join(line.rstrip() for line in cli.console.export_text().splitlines())


def test_scored_report_golden_and_within_80_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "console", cli.console)
    out = _report(_results(), SPEC)
    assert out == GOLDEN_SCORED.rstrip("\n"), out
    assert all(len(line) <= 80 for line in out.splitlines())
    assert "…" not in out


def test_shedding_report_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "console", cli.console)
    spec = arena.ArenaSpec(
        "myllymatti", 4, {}, ("ismcts:iterations=1000", "random", "random", "random"), 4, 1
    )
    results = []
    for index in range(4):
        seats = arena.seating(spec, index)
        outcome = {"loser": index % 4, "out_order": [], "abandoned": False, "returns": [0.0] * 4}
        results.append(arena.GameResult(index, 0, seats, outcome, 91, [2.5] * 4, [10] * 4, {}))
    out = _report(results, spec)
    for word in ("Loss rate", "95% interval", "Moves", "game", "No game was abandoned"):
        assert word in out
    for abbreviation in ("Aband.", "Forf.", "s/move", "CI", "Pts"):
        assert abbreviation not in out
    assert "250 ms" in out and all(len(line) <= 80 for line in out.splitlines())
    # With no column of zeros, a long bot name fits on its line
    assert "ismcts:iterations=1000 " in out.split("OpenSkill")[0]
    abandoned = results[3].outcome
    assert abandoned is not None
    abandoned["abandoned"] = True
    results[2].forfeit = 1
    results[2].error = "ismcts:iterations=1000 timed out"
    out = _report(results, spec)
    for word in ("Abandoned", "Forfeits"):
        assert word in out
    assert all(len(line) <= 80 for line in out.splitlines())


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(1.5, "1.50 s"), (0.0123, "12.3 ms"), (0.000123, "123 µs"), (1.0e-7, "0.1 µs"), (0, "0 s")],
)
def test_time_per_move_has_three_significant_digits(seconds: float, text: str) -> None:
    assert cli.duration(seconds) == text


def test_plot_is_wide_labels_its_baseline_and_shows_zero_bars(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.image
    import matplotlib.pyplot as plt

    saved: list[Any] = []
    real_close = plt.close
    monkeypatch.setattr(plt, "close", lambda fig: saved.append(fig))
    spec = arena.ArenaSpec("myllymatti", 3, {}, ("heuristic", "random", "random"), 3, 1)
    results = []
    for index in range(3):
        seats = arena.seating(spec, index)
        loser = seats.index("random")
        outcome = {"loser": loser, "out_order": [], "abandoned": False, "returns": [0.0] * 3}
        results.append(arena.GameResult(index, 0, seats, outcome, 50, [0.1] * 3, [5] * 3, {}))
    stats = arena.summarize(results, spec.lineup)
    assert stats[0].losses == 0  # the heuristic bar has height zero
    path = tmp_path / "plot.png"
    arena.plot(path, spec, stats)
    height, width = matplotlib.image.imread(path).shape[:2]
    assert width >= 1000 and height >= 500
    fig = saved[0]
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any("random player's loss rate (1 in 3)" in label for label in labels)
    ticks = [c for c in ax.collections if len(c.get_offsets())]
    assert any(list(c.get_offsets()[:, 1]).count(0.0) for c in ticks)
    real_close(fig)


def test_think_times_per_move_are_a_table_of_their_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each bot's median, 90th percentile and longest think time per move
    in the terminal report too (not only in --json), within 80 columns."""
    monkeypatch.setattr(cli, "console", cli.console)
    results = _results()
    for result in results:
        result.move_seconds = [
            [0.001 * (k + 1) for k in range(10)] if s == "heuristic" else [2e-5] * 10
            for s in result.seats
        ]
    out = _report(results, SPEC)
    tail = out.split("Think time per move", 1)[1].splitlines()
    assert tail[1].split() == ["Bot", "Median", "90th", "percentile", "Longest"]
    rows = {line.split()[0]: line.split()[1:] for line in tail[3:5]}
    assert rows["heuristic"] == ["5.00", "ms", "9.00", "ms", "10.0", "ms"]  # nearest rank
    assert rows["random"] == ["20.0", "µs", "20.0", "µs", "20.0", "µs"]
    assert all(len(line) <= 80 for line in out.splitlines())
