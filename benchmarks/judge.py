"""Can the analysis be trusted? Calibration, stability and prediction of the judge.

Plays games between the project's bots with mixed seats (``--lineup bots``: ``expert``,
``ismcts`` and ``heuristic``; ``--lineup weak``: ``random`` and ``heuristic``, what a
beginner's game looks like; rotated over the seats from game to game), then analyses one
seat of each finished game (rotated too) with :func:`tikki.analysis.analyse` at the web
table's default budget and adaptive extra work (``--extra``, times a decision's budget; 0:
none), and measures, lineup by lineup:

* **Calibration** (Myllymatti, Mattis): every analysed decision is bucketed by the value of
  the move played (the chance of not being the loser the judge gave it, ten buckets of 10
  points) and compared with how often that seat did not lose: the expected calibration
  error (ECE, the buckets' gaps weighted by their sizes) with a 95% interval by
  bootstrap over games, and a reliability diagram (``--plot``, PNG).
* **Mückenstich points:** the predicted points of the round (the value of the move played)
  against the points the seat scored in that round: the mean error (scored minus
  predicted) with its 95% interval over games, and R².
* **Stability:** every ``--stability``-th game is analysed again with another seed: the
  share of decisions with the same label, and of decisions whose best move is clearly
  best (by more than the mistake threshold over the runner-up) with the same best move;
  and, over consecutive decisions of a seat with no new information between them (its
  own move, not a draw from the stock, and at once its turn again), the share whose
  position values differ by at most twice their stated sampling error.
* **Prediction** (Myllymatti, Mattis): the loss rate of analysed seats whose analysis
  shows a blunder against those without one, with Wilson 95% intervals.
* **Unclear:** the share of decisions whose verdict the extra work did not settle (they
  have no label), and the extra iterations a decision took.
* **Speed:** seconds to analyse one seat's game (median and largest; on a shared machine
  these are upper bounds), and the CPU seconds of the process (what one free core takes).

**Long runs:** with ``--results FILE`` every finished game is appended to ``FILE`` (one JSON
line: the settings, the lineup, the analysed seat's decisions) and a run started again with
the same file plays only the games missing there (each game is fixed by the seed and its
index).  ``benchmarks/runs/judge.jsonl`` holds the saved run from before the adaptive
budget (read it with ``--extra 0``: its labels by the rule of then, the loss less its
error), ``benchmarks/runs/judge-weak.jsonl`` the weak lineup's.

Run: ``.venv/bin/python benchmarks/judge.py [--games 100] [--game myllymatti,mattis,
mueckenstich] [--iterations 1000] [--bot-iterations 300] [--stability 3] [--jobs 1]
[--results FILE] [--plot judge.png] [--from-results] [--lineup bots,weak] [--extra 2]``
(``--from-results``: play nothing, report over the saved games).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import tikki
import tikki.bots
from tikki import analysis
from tikki.arena import Z95, clustered_mean_ci, wilson

GAMES = ("myllymatti", "mattis", "mueckenstich")
PLAYERS = {"myllymatti": 3, "mattis": 3, "mueckenstich": 4}
BINS = 10
"""Buckets of the reliability diagram (equal widths of 0.1)."""


LINEUPS = ("bots", "weak")
"""``bots``: expert, ismcts and heuristic seats; ``weak``: random and heuristic seats (what
a beginner's game looks like)."""


def lineup(index: int, players: int, bot_iterations: int, kind: str = "bots") -> list[str]:
    """The bots of game ``index``: expert, ismcts and heuristic (``bots``) or random and
    heuristic (``weak``) rotated over the seats."""
    if kind == "weak":
        bots = ["random", "heuristic"]
    else:
        bots = [
            f"expert:iterations={bot_iterations}",
            f"ismcts:iterations={bot_iterations}",
            "heuristic",
        ]
    return [bots[(index + seat) % len(bots)] for seat in range(players)]


def play(name: str, index: int, seed: int, specs: Sequence[str]) -> dict[str, Any]:
    """Play game ``index`` to its end; its record."""
    game = tikki.load(name, len(specs))
    state = game.new_state(seed=seed * 100_003 + index)
    bots = [tikki.bots.make(spec, seed=seed * 1009 + index * 7 + s) for s, spec in enumerate(specs)]
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        state.play(bots[seat].choose(game, state.view(seat)))
    return state.record()


def round_points(record: dict[str, Any], seat: int) -> dict[int, float]:
    """Per move number, the points ``seat`` scored in the round that move was made in."""
    moves = record["moves"]
    start = dict(record)
    start["moves"] = []
    start.pop("outcome", None)
    state = tikki.replay(start)
    totals = [state.returns_so_far()[seat]]
    rounds: list[int] = []
    for move in moves:
        rounds.append(len(totals) - 1)
        before = state.round
        state.play(move)
        if state.is_over:
            outcome = state.outcome
            assert outcome is not None
            totals.append(float(outcome["returns"][seat]))
        elif state.round != before:
            totals.append(state.returns_so_far()[seat])
    return {i + 1: totals[r + 1] - totals[r] for i, r in enumerate(rounds) if r + 1 < len(totals)}


def rows_of(result: analysis.Analysis) -> list[dict[str, Any]]:
    """The analysed decisions, as the benchmark keeps them."""
    return [
        {
            "number": d.number,
            "played": d.played,
            "best": d.best,
            "value": d.values[d.played],
            "error": d.errors[d.played],
            "best_value": d.value,
            "best_error": d.errors[d.best],
            "runner_up": max((v for m, v in d.values.items() if m != d.best), default=d.value),
            "loss": d.loss,
            "loss_error": d.error,
            "label": d.label,
            "settled": d.settled,
            "extra": d.extra,
        }
        for d in result.decisions
    ]


Job = tuple[str, int, int, int, int, int, str, int]
"""game, index, seed, iterations, bot iterations, stability, lineup, extra."""


def one_game(job: Job) -> dict[str, Any]:
    """Play and analyse game ``index`` (runs in worker processes)."""
    name, index, seed, iterations, bot_iterations, stability, kind, extra = job
    players = PLAYERS[name]
    specs = lineup(index, players, bot_iterations, kind)
    record = play(name, index, seed, specs)
    seat = index % players
    started, cpu = time.perf_counter(), time.process_time()
    first = analysis.analyse(record, seat, iterations=iterations, seed=0, extra=extra)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    out: dict[str, Any] = {
        "game": name,
        "index": index,
        "seed": seed,
        "iterations": iterations,
        "bot_iterations": bot_iterations,
        "lineup": kind,
        "extra": extra,
        "specs": specs,
        "seat": seat,
        "returns": record["outcome"]["returns"],
        "seconds": seconds,
        "cpu_seconds": cpu,
        "rows": rows_of(first),
    }
    if name == "mueckenstich":
        points = round_points(record, seat)
        for row in out["rows"]:
            row["scored"] = points.get(row["number"])
    if stability and index % stability == 0:
        again = analysis.analyse(record, seat, iterations=iterations, seed=1, extra=extra)
        out["again"] = rows_of(again)
    return out


# --- results file -------------------------------------------------------------------------


def key_of(game: dict[str, Any]) -> tuple[Any, ...]:
    """A saved game's key (a run from before the lineups and the adaptive budget is ``bots``
    at no extra work, labelled by the old rule)."""
    return (
        game["game"], game["index"], game["seed"], game["iterations"], game["bot_iterations"],
        game.get("lineup", "bots"), game.get("extra", 0),
    )  # fmt: skip


def load(path: Path | None) -> dict[tuple[Any, ...], dict[str, Any]]:
    if path is None or not path.exists():
        return {}
    found = {}
    for line in path.read_text().splitlines():
        if line.strip():
            game = json.loads(line)
            found[key_of(game)] = game
    return found


# --- measures -----------------------------------------------------------------------------


def label(row: dict[str, Any], kind: str) -> str | None:
    """The row's label: as the judge gave it (a label only where settled), or, in a run
    from before the adaptive budget, by the rule of then (the loss less its error)."""
    if "settled" in row:
        return row["label"]  # type: ignore[no-any-return]
    return (
        analysis.label_for(kind, row["loss"], row["loss_error"])
        if row["played"] != row["best"]
        else None
    )


def kind_of(game: dict[str, Any]) -> str:
    return "points" if game["game"] == "mueckenstich" else "not_loser"


def not_lost(game: dict[str, Any]) -> bool:
    return bool(game["returns"][game["seat"]] >= 0)


def ece(games: Sequence[dict[str, Any]]) -> tuple[float, list[tuple[float, float, int, int]]]:
    """The expected calibration error and the buckets (mean predicted, observed, decisions,
    games: the decisions of one game share its outcome, so a bucket's interval counts
    games)."""
    sums = [[0.0, 0.0, 0] for _ in range(BINS)]
    seen: list[set[int]] = [set() for _ in range(BINS)]
    for i, game in enumerate(games):
        outcome = 1.0 if not_lost(game) else 0.0
        for row in game["rows"]:
            b = min(BINS - 1, int(row["value"] * BINS))
            sums[b][0] += row["value"]
            sums[b][1] += outcome
            sums[b][2] += 1
            seen[b].add(i)
    total = sum(int(s[2]) for s in sums) or 1
    buckets = [
        (s[0] / s[2], s[1] / s[2], int(s[2]), len(g))
        for s, g in zip(sums, seen, strict=True)
        if s[2]
    ]
    error = sum(n / total * abs(p - o) for p, o, n, _ in buckets)
    return error, buckets


def ece_interval(games: Sequence[dict[str, Any]], draws: int = 400) -> tuple[float, float]:
    """A 95% bootstrap interval of the ECE, resampling whole games."""
    rng = random.Random(1)
    values = sorted(ece([rng.choice(games) for _ in games])[0] for _ in range(draws))
    return values[int(0.025 * draws)], values[int(0.975 * draws) - 1]


def blunders(games: Sequence[dict[str, Any]]) -> dict[str, tuple[int, int]]:
    """Losses and seats, of the seats with a blunder and of those without."""
    out = {"blunder": [0, 0], "none": [0, 0]}
    for game in games:
        had = any(label(r, kind_of(game)) == "blunder" for r in game["rows"])
        kind = "blunder" if had else "none"
        out[kind][0] += 0 if not_lost(game) else 1
        out[kind][1] += 1
    return {k: (v[0], v[1]) for k, v in out.items()}


def stability(games: Sequence[dict[str, Any]], kind: str) -> dict[str, Any]:
    """Same labels and clearly-best moves across two seeds; consistent consecutive values."""
    mistake = analysis.THRESHOLDS[kind][1]
    same = clear = clear_same = pairs = 0
    for game in games:
        for a, b in zip(game["rows"], game.get("again") or [], strict=False):
            pairs += 1
            same += label(a, kind) == label(b, kind)
            if a["best_value"] - a["runner_up"] > mistake:
                clear += 1
                clear_same += a["best"] == b["best"]
    steady = within = 0
    diffs: list[float] = []
    for game in games:
        rows = game["rows"]
        for a, b in itertools.pairwise(rows):
            if b["number"] != a["number"] + 1 or a["played"] == "stock":
                continue
            steady += 1
            diff = abs(a["value"] - b["best_value"])
            diffs.append(diff)
            within += diff <= 2 * math.hypot(a["error"], b["best_error"]) + 1e-12
    return {
        "pairs": pairs,
        "same_label": same / pairs if pairs else float("nan"),
        "clear": clear,
        "clear_same": clear_same / clear if clear else float("nan"),
        "consecutive": steady,
        "consecutive_within": within / steady if steady else float("nan"),
        "consecutive_mean_diff": statistics.fmean(diffs) if diffs else float("nan"),
    }


def points(games: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Mückenstich: the mean error (scored − predicted) with its interval over games, R²."""
    errors: list[float] = []
    clusters: list[int] = []
    scored: list[float] = []
    predicted: list[float] = []
    for game in games:
        for row in game["rows"]:
            if row.get("scored") is None:
                continue
            errors.append(row["scored"] - row["value"])
            clusters.append(game["index"])
            scored.append(row["scored"])
            predicted.append(row["value"])
    if len(errors) < 2:
        return {"n": len(errors)}
    mean, ci = clustered_mean_ci(errors, clusters)
    centre = statistics.fmean(scored)
    total = sum((s - centre) ** 2 for s in scored)
    residual = sum((s - p) ** 2 for s, p in zip(scored, predicted, strict=True))
    return {
        "n": len(errors),
        "mean_error": mean,
        "ci": ci,
        "r2": 1 - residual / total if total else float("nan"),
    }


def plot(games: Sequence[dict[str, Any]], path: Path, title: str) -> None:
    """The reliability diagram: per bucket, predicted against observed, with its interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 5), dpi=100)
    ax.plot([0, 1], [0, 1], color="#888", linestyle="--", label="perfect calibration")
    for name, colour in (("myllymatti", "#2a6fdb"), ("mattis", "#c05000")):
        chosen = [g for g in games if g["game"] == name]
        if not chosen:
            continue
        error, buckets = ece(chosen)
        xs = [p for p, _, _, _ in buckets]
        ys = [o for _, o, _, _ in buckets]
        half = [Z95 * math.sqrt(max(o * (1 - o), 0.25 / g) / g) for _, o, _, g in buckets]
        ax.errorbar(xs, ys, yerr=half, marker="o", capsize=3, color=colour,
                    label=f"{name} (ECE {error:.3f})")  # fmt: skip
    ax.set_xlabel("judged chance of not losing (move played)")
    ax.set_ylabel("share of those seats that did not lose (±95%, by games)")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_title(title, fontsize=9)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def pct(x: float) -> str:
    return f"{x:.1%}"


def report(games: Sequence[dict[str, Any]], args: argparse.Namespace) -> list[str]:
    """The table (Markdown) over ``games``, lineup by lineup."""
    lines = [
        f"judge: analysis at {args.iterations} iterations (web default {analysis.ITERATIONS}),"
        f" at most {args.extra} times a decision's budget more to settle it,"
        f" bots at {args.bot_iterations} iterations; {len(games)} games",
        "",
        "| game | games | decisions | measure | value | 95% interval | target |",
        "|---|---|---|---|---|---|---|",
    ]
    for kind in args.lineup:
        mine = [g for g in games if g.get("lineup", "bots") == kind]
        for name in args.game:
            chosen = [g for g in mine if g["game"] == name]
            if chosen:
                lines += game_rows(chosen, f"{name} ({kind})")
        shedding = [g for g in mine if g["game"] != "mueckenstich"]
        if shedding:
            lines += shedding_rows(shedding, f"shedding games ({kind})")
    return lines


def game_rows(chosen: Sequence[dict[str, Any]], title: str) -> list[str]:
    """The rows of one game in one lineup."""
    lines: list[str] = []
    name = chosen[0]["game"]
    n = sum(len(g["rows"]) for g in chosen)
    head = f"| {title} | {len(chosen)} | {n} "
    kind = "points" if name == "mueckenstich" else "not_loser"
    if kind == "not_loser":
        error, _ = ece(chosen)
        lo, hi = ece_interval(chosen)
        lines.append(
            head + f"| calibration error (ECE) | {error:.3f} | {lo:.3f}–{hi:.3f} | ≤ 0.05 |"
        )
        rates = blunders(chosen)
        for which, (lost, seats) in rates.items():
            lo, hi = wilson(lost, seats)
            what = "with a blunder" if which == "blunder" else "without a blunder"
            rate = lost / seats if seats else float("nan")
            lines.append(head + f"| loss rate {what} ({lost}/{seats}) | {pct(rate)} | "
                         f"{pct(lo)}–{pct(hi)} | blunder ≫ none |")  # fmt: skip
    else:
        p = points(chosen)
        if "mean_error" in p:
            lo, hi = p["ci"]
            lines.append(head + "| mean error of the round's points (scored − predicted) | "
                         f"{p['mean_error']:+.2f} | {lo:+.2f} to {hi:+.2f} "
                         "| contains 0 |")  # fmt: skip
            lines.append(head + f"| R² of the round's points | {p['r2']:.2f} | | |")
    s = stability(chosen, kind)
    lines.append(head + f"| same label, two seeds ({s['pairs']} decisions) | "
                 f"{pct(s['same_label'])} | | ≥ 90% |")  # fmt: skip
    lines.append(head + f"| same best move where clearly best ({s['clear']}) | "
                 f"{pct(s['clear_same'])} | | ≥ 90% |")  # fmt: skip
    lines.append(head + "| consecutive decisions, no new information, within 2 errors "
                 f"({s['consecutive']}) | {pct(s['consecutive_within'])} "
                 "| | ≈ 95% |")  # fmt: skip
    rows = [r for g in chosen for r in g["rows"] if "settled" in r]
    if rows:
        unclear = sum(not r["settled"] for r in rows) / len(rows)
        extra = statistics.fmean(r["extra"] for r in rows)
        lines.append(head + f"| unclear (not settled at the cap: no label) | {pct(unclear)} "
                     "| | |")  # fmt: skip
        lines.append(head + f"| extra iterations a decision (mean) | {extra:.0f} | | |")
    seconds = sorted(g["seconds"] for g in chosen)
    lines.append(head + "| seconds to analyse one seat's game (median / largest) | "
                 f"{statistics.median(seconds):.1f} / {seconds[-1]:.1f} "
                 "| | ≤ 30 |")  # fmt: skip
    cpu = sorted(g["cpu_seconds"] for g in chosen if "cpu_seconds" in g)
    if cpu:
        lines.append(head + "| CPU seconds to analyse one seat's game (median / largest) | "
                     f"{statistics.median(cpu):.1f} / {cpu[-1]:.1f} | | ≤ 30 |")  # fmt: skip
    return lines


def shedding_rows(shedding: Sequence[dict[str, Any]], title: str) -> list[str]:
    """Calibration and the blunders' loss rates over the shedding games of a lineup."""
    error, _ = ece(shedding)
    lo, hi = ece_interval(shedding)
    n = sum(len(g["rows"]) for g in shedding)
    lines = [f"| {title} | {len(shedding)} | {n} | calibration error (ECE) | "
             f"{error:.3f} | {lo:.3f}–{hi:.3f} | ≤ 0.05 |"]  # fmt: skip
    rates = blunders(shedding)
    for which, (lost, seats) in rates.items():
        lo, hi = wilson(lost, seats)
        what = "with a blunder" if which == "blunder" else "without a blunder"
        rate = lost / seats if seats else float("nan")
        lines.append(f"| {title} | {len(shedding)} | {n} | loss rate {what} "
                     f"({lost}/{seats}) | {pct(rate)} | {pct(lo)}–{pct(hi)} "
                     "| intervals apart |")  # fmt: skip
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per game (300: full)")
    parser.add_argument("--game", default=",".join(GAMES), help="comma-separated games")
    parser.add_argument("--iterations", type=int, default=analysis.ITERATIONS)
    parser.add_argument("--bot-iterations", type=int, default=300)
    parser.add_argument("--stability", type=int, default=3, help="every k-th game twice")
    parser.add_argument("--seed", type=int, default=37)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--results", type=Path, default=None)
    parser.add_argument("--plot", type=Path, default=None)
    parser.add_argument("--from-results", action="store_true")
    parser.add_argument("--lineup", default="bots", help="comma-separated: bots, weak")
    parser.add_argument(
        "--extra", type=int, default=analysis.EXTRA, help="the judge's most extra work (times)"
    )
    args = parser.parse_args()
    args.game = [g for g in args.game.split(",") if g]
    args.lineup = [k for k in args.lineup.split(",") if k]
    if any(k not in LINEUPS for k in args.lineup):
        parser.error(f"--lineup is one or more of {', '.join(LINEUPS)}")
    saved = load(args.results)
    games: list[dict[str, Any]] = []
    todo: list[Job] = []
    for index in range(args.games):  # interleaved, so a cut run covers every game
        for kind in args.lineup:
            for name in args.game:
                job: Job = (name, index, args.seed, args.iterations, args.bot_iterations,
                            args.stability, kind, args.extra)  # fmt: skip
                found = saved.get(job[:5] + job[6:])
                if found is not None:
                    games.append(found)
                elif not args.from_results:
                    todo.append(job)
    print(f"{len(games)} games saved, {len(todo)} to play", file=sys.stderr)

    def keep(game: dict[str, Any]) -> None:
        games.append(game)
        if args.results is not None:
            with args.results.open("a") as out:
                out.write(json.dumps(game) + "\n")
        labels = sum(1 for r in game["rows"] if label(r, kind_of(game)))
        print(f"{game['game']} ({game.get('lineup', 'bots')}) #{game['index']}: "
              f"{len(game['rows'])} decisions, {labels} labelled, {game['seconds']:.1f} s",
              file=sys.stderr, flush=True)  # fmt: skip

    if args.jobs > 1 and len(todo) > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            for game in pool.map(one_game, todo):
                keep(game)
    else:
        for job in todo:
            keep(one_game(job))
    lines = report(games, args)
    print("\n".join(lines))
    if args.plot is not None:
        shedding = sum(1 for g in games if g["game"] != "mueckenstich")
        title = f"{shedding} games, judge at {args.iterations} iterations"
        plot(games, args.plot, title)
        print(f"reliability diagram: {args.plot}", file=sys.stderr)


if __name__ == "__main__":
    main()
