"""benchmarks/throughput_rounds.py: the medians over rounds of throughput.py, what it saves,
and its exit status (the rounds themselves are faked: they need OpenSpiel and minutes)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests._benchmarks import script

rounds_script = script("throughput_rounds")


def _round(
    hearts: float, rows: dict[str, tuple[float | None, float, float | None]]
) -> dict[str, Any]:
    """A throughput.py JSON with hearts at ``hearts`` moves/s and, per label, its
    (compiled × hearts, pure × hearts, view share)."""
    return {
        "peers": [
            {"system": "OpenSpiel", "label": "hearts 4p", "moves_per_s": hearts},
            {"system": "RLCard", "label": "uno 2p", "moves_per_s": 1.0},
        ],
        "tikki": [
            {"label": label, "compiled_vs_hearts": c, "vs_hearts": p, "view_share": v}
            for label, (c, p, v) in rows.items()
        ],
    }


ROUNDS = [
    _round(466_000.0, {"mattis 3p": (2.05, 0.99, None), "myllymatti 3p": (2.5, 1.3, 0.6)}),
    _round(446_000.0, {"mattis 3p": (2.13, 1.04, None), "myllymatti 3p": (2.6, 1.2, 0.55)}),
    _round(483_000.0, {"myllymatti 3p": (2.4, 1.25, 0.58), "mattis 3p": (1.97, 1.01, None)}),
]


def test_the_medians_lowest_and_highest_of_each_column() -> None:
    summary = rounds_script.aggregate(ROUNDS)
    assert list(summary) == ["mattis 3p", "myllymatti 3p"]  # the first round's order
    pure = summary["mattis 3p"]["vs_hearts"]
    assert (pure.median, pure.low, pure.high, pure.rounds) == (1.01, 0.99, 1.04, 3)
    assert summary["mattis 3p"]["compiled_vs_hearts"].median == 2.05
    assert summary["mattis 3p"]["view_share"] is None  # measured in no round
    assert summary["myllymatti 3p"]["view_share"].median == 0.58
    assert rounds_script.hearts_rates(ROUNDS) == [466_000.0, 446_000.0, 483_000.0]
    assert pure.text() == "1.01× (0.99–1.04)"


def test_a_median_meets_its_target_or_not() -> None:
    spread = rounds_script.spread
    assert rounds_script.met("vs_hearts", spread([0.99, 1.0, 1.2])) is True
    assert rounds_script.met("vs_hearts", spread([0.99, 0.98, 1.2])) is False
    assert rounds_script.met("compiled_vs_hearts", spread([2.0])) is True
    assert rounds_script.met("view_share", None) is None
    assert spread([]) is None


def _fake_rounds(
    monkeypatch: pytest.MonkeyPatch, rounds: list[dict[str, Any] | None]
) -> list[list[str]]:
    """Make run_round return ``rounds`` in turn; the passthrough options it got."""
    calls: list[list[str]] = []
    queue = list(rounds)

    def fake(index: int, total: int, passthrough: list[str]) -> dict[str, Any] | None:
        calls.append(passthrough)
        return queue.pop(0)

    monkeypatch.setattr(rounds_script, "run_round", fake)
    return calls


def test_a_run_saves_every_round_and_the_medians(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    calls = _fake_rounds(monkeypatch, [*ROUNDS, None])  # the fourth round failed
    save = tmp_path / "runs" / "rounds.jsonl"
    status = rounds_script.main(
        ["--rounds", "4", "--save", str(save), "--", "--seconds", "2", "--only", "mattis"]
    )
    assert calls == [["--seconds", "2", "--only", "mattis"]] * 4
    assert status == 0  # every median meets its target (mattis pure 1.01, compiled 2.05)
    line = json.loads(save.read_text(encoding="utf-8"))
    assert line["options"] == ["--seconds", "2", "--only", "mattis"]
    assert len(line["rounds"]) == 3
    assert line["medians"]["mattis 3p"]["vs_hearts"]["median"] == 1.01
    texts = list(save.parent.glob("throughput-rounds-*.txt"))
    assert len(texts) == 1
    assert "1.01× (0.99–1.04)" in texts[0].read_text(encoding="utf-8")


def test_a_median_below_its_target_fails_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    low = [_round(466_000.0, {"mattis 3p": (2.1, pure, None)}) for pure in (0.97, 0.99, 1.02)]
    _fake_rounds(monkeypatch, list(low))
    assert rounds_script.main(["--rounds", "3", "--no-save"]) == 1
    _fake_rounds(monkeypatch, [None, None])
    assert rounds_script.main(["--rounds", "2", "--no-save"]) == 2  # no round succeeded


@pytest.mark.parametrize(
    ("argv", "why"),
    [
        (["--rounds", "0"], "--rounds must be at least 1"),
        (["--", "--json", "x.json"], "--json after -- is this script's to set"),
        (["--", "--no-save"], "--no-save after -- is this script's to set"),
    ],
)
def test_bad_options_are_refused_with_a_reason(
    argv: list[str], why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        rounds_script.parse_args(argv)
    assert stop.value.code == 2
    assert why in capsys.readouterr().err
