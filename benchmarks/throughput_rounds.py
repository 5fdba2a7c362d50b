"""``benchmarks/throughput.py`` run several times, each in a fresh process, and the issue's
three columns given as the median of the rounds (with their lowest and highest).

Why: within one process OpenSpiel's C++ hearts plays at a steady speed (four measurements
of 2 s in a row agree within 0.2 %), but from one process to the next it swings by up to
8 % on the same quiet machine (446,000 to 483,000 moves/s), and tikki's rows by 3-5 %.
One run's ratio ``× hearts`` therefore carries the luck of its one hearts measurement; the
median of several runs does not.  Each round is a whole ``throughput.py`` run (hearts, then
every selected tikki row, pure and compiled), with the options given after ``--``::

    python benchmarks/throughput_rounds.py --rounds 5 -- --seconds 2 --only mattis \\
        --no-view --no-search

The table gives, per configuration, the median over the rounds of each round's own ratio
(its tikki row against its own hearts), the lowest and highest in brackets, and whether the
median meets the issue's target (compiled ≥ 2.0× hearts, pure ≥ 1.0× hearts, the loop with
a view ≥ 0.5× the plain loop).  Hearts's moves/s in each round are printed too.  The run is
appended as one JSON line (every round's figures) to
``benchmarks/runs/throughput-rounds.jsonl`` and its text saved beside it as
``throughput-rounds-<UTC time>.txt`` (``--no-save`` skips both).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

HERE = Path(__file__).resolve().parent
TARGETS: dict[str, float] = {"compiled_vs_hearts": 2.0, "vs_hearts": 1.0, "view_share": 0.5}
"""The issue's goal for each column (a ratio at least this)."""
COLUMNS: tuple[tuple[str, str], ...] = (
    ("compiled_vs_hearts", "compiled × hearts"),
    ("vs_hearts", "pure × hearts"),
    ("view_share", "view loop × plain (pure)"),
)

console = Console(record=True, width=140)


@dataclass
class Spread:
    """One column of one configuration over the rounds: its median, lowest and highest."""

    median: float
    low: float
    high: float
    rounds: int

    def text(self) -> str:
        """``1.02× (0.99–1.05)``, or the one value when there was one round."""
        if self.rounds == 1:
            return f"{self.median:.2f}×"
        return f"{self.median:.2f}× ({self.low:.2f}–{self.high:.2f})"


def spread(values: Sequence[float]) -> Spread | None:
    """The :class:`Spread` of ``values`` (``None`` when there are none)."""
    if not values:
        return None
    return Spread(statistics.median(values), min(values), max(values), len(values))


def aggregate(rounds: Sequence[dict[str, Any]]) -> dict[str, dict[str, Spread | None]]:
    """Per configuration label (in the order of the first round that has it), each
    column's :class:`Spread` over the rounds that measured it."""
    labels: list[str] = []
    values: dict[str, dict[str, list[float]]] = {}
    for data in rounds:
        for row in data.get("tikki", []):
            label = row["label"]
            if label not in values:
                labels.append(label)
                values[label] = {key: [] for key, _ in COLUMNS}
            for key, _ in COLUMNS:
                if row.get(key) is not None:
                    values[label][key].append(float(row[key]))
    return {label: {key: spread(values[label][key]) for key, _ in COLUMNS} for label in labels}


def hearts_rates(rounds: Sequence[dict[str, Any]]) -> list[float]:
    """OpenSpiel hearts's moves/s in each round that measured it."""
    rates = []
    for data in rounds:
        for peer in data.get("peers", []):
            if peer["system"] == "OpenSpiel" and peer["label"].startswith("hearts"):
                rates.append(float(peer["moves_per_s"]))
    return rates


def met(key: str, cell: Spread | None) -> bool | None:
    """Whether ``cell``'s median meets ``key``'s target (``None``: not measured)."""
    return None if cell is None else cell.median >= TARGETS[key]


def table(summary: dict[str, dict[str, Spread | None]], rounds: int) -> Table:
    """The medians as a table, a cell green where its median meets the target."""
    out = Table(
        title=f"Median of {rounds} rounds (lowest–highest), each round's tikki row against "
        "that round's hearts",
        title_justify="left",
    )
    out.add_column("configuration")
    for _, title in COLUMNS:
        out.add_column(title, justify="right")
    for label, cells in summary.items():
        texts = []
        for key, _ in COLUMNS:
            cell = cells[key]
            ok = met(key, cell)
            colour = "" if ok is None else "green" if ok else "red"
            text = "–" if cell is None else cell.text()
            texts.append(f"[{colour}]{text}[/]" if colour else text)
        out.add_row(label, *texts)
    return out


def run_round(index: int, total: int, passthrough: list[str]) -> dict[str, Any] | None:
    """One ``throughput.py`` run in a child process; its JSON, or ``None`` if it failed."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "round.json"
        cmd = [sys.executable, str(HERE / "throughput.py"), "--no-save", "--json", str(out)]
        started = time.perf_counter()
        done = subprocess.run(
            cmd + passthrough, capture_output=True, text=True, check=False, cwd=HERE.parent
        )
        took = time.perf_counter() - started
        if done.returncode not in (0, 1) or not out.exists():  # 1: a target missed (--check)
            console.print(f"[red]round {index}/{total} failed[/] ({took:.0f} s):")
            console.print(done.stderr.strip()[-800:] or done.stdout.strip()[-800:])
            return None
        data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    hearts = hearts_rates([data])
    said = f"hearts {hearts[0]:,.0f} moves/s" if hearts else "no hearts"
    console.print(f"round {index}/{total} done in {took:.0f} s: {said}")
    return data


def parse_args(argv: Sequence[str] | None) -> tuple[argparse.Namespace, list[str]]:
    """This script's options, and those after ``--`` (for ``throughput.py``)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    passthrough: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, passthrough = argv[:cut], argv[cut + 1 :]
    parser = argparse.ArgumentParser(
        description="Run benchmarks/throughput.py several times (fresh processes) and give "
        "the median of each ratio; throughput.py's own options go after --.",
    )
    parser.add_argument("--rounds", type=int, default=5, help="how many runs (default 5)")
    parser.add_argument(
        "--save",
        type=Path,
        default=HERE / "runs" / "throughput-rounds.jsonl",
        help="append the run here as a JSON line, its text beside it "
        "(default benchmarks/runs/throughput-rounds.jsonl)",
    )
    parser.add_argument("--no-save", action="store_true", help="save nothing")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    for option in ("--json", "--save", "--no-save", "--label"):
        if option in passthrough:
            parser.error(f"{option} after -- is this script's to set; leave it out")
    return args, passthrough


def main(argv: Sequence[str] | None = None) -> int:
    """Run the rounds, print the medians, save the run; 0 if every median meets its
    target, 1 if one misses, 2 if no round succeeded."""
    args, passthrough = parse_args(argv)
    shown = " ".join(passthrough) or "(throughput.py's defaults)"
    console.print(f"[bold]throughput rounds[/]: {args.rounds} × throughput.py {shown}")
    load_before = os.getloadavg()
    rounds = []
    for i in range(1, args.rounds + 1):
        data = run_round(i, args.rounds, passthrough)
        if data is not None:
            rounds.append(data)
    if not rounds:
        console.print("[red]no round succeeded[/]")
        return 2
    summary = aggregate(rounds)
    console.print(table(summary, len(rounds)))
    hearts = hearts_rates(rounds)
    if hearts:
        console.print("hearts moves/s by round: " + ", ".join(f"{h:,.0f}" for h in hearts))
    load_after = os.getloadavg()
    loads = ", ".join(f"{x:.1f}" for x in load_before), ", ".join(f"{x:.1f}" for x in load_after)
    console.print(f"machine load before {loads[0]}, after {loads[1]} on {os.cpu_count()} CPUs")
    missed = [
        f"{label} {title}"
        for label, cells in summary.items()
        for key, title in COLUMNS
        if met(key, cells[key]) is False
    ]
    console.print("every median meets its target" if not missed else "missed: " + "; ".join(missed))
    if not args.no_save:
        _save(args.save, passthrough, rounds, summary, (load_before, load_after))
    return 1 if missed else 0


def _save(
    where: Path,
    passthrough: list[str],
    rounds: list[dict[str, Any]],
    summary: dict[str, dict[str, Spread | None]],
    load: tuple[tuple[float, float, float], tuple[float, float, float]],
) -> None:
    where.parent.mkdir(parents=True, exist_ok=True)
    medians = {
        label: {key: None if cell is None else vars(cell) for key, cell in cells.items()}
        for label, cells in summary.items()
    }
    line = {
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "options": passthrough,
        "loadavg_before": list(load[0]),
        "loadavg_after": list(load[1]),
        "medians": medians,
        "rounds": rounds,
    }
    with where.open("a", encoding="utf-8") as out:
        out.write(json.dumps(line, default=str) + "\n")
    text = where.parent / time.strftime("throughput-rounds-%Y%m%d-%H%M%S.txt", time.gmtime())
    console.print(f"run appended to {where}; its text saved to {text}")
    console.save_text(str(text))


if __name__ == "__main__":
    sys.exit(main())
