"""Bot strength: the arena targets, each run and checked, one table.

Targets ("X vs Y": one X against n−1 Y, seats rotated over duplicate deals, the arena's
seating):

* ``myllymatti-heuristic``, ``mattis-heuristic``: ``heuristic`` vs two ``random`` loses
  ≤ 12% of 3-player games;
* ``myllymatti-ismcts``, ``mattis-ismcts``: ``ismcts`` at 1,000 iterations per move vs
  two ``heuristic`` loses ≤ 25% of 3-player games (at least 300 games);
* ``mueckenstich-heuristic``: ``heuristic`` beats three ``random`` by ≥ 3 points a round;
* ``mueckenstich-ismcts``: ``ismcts`` vs three ``heuristic``: the 95% interval of its
  mean score advantage per round lies above 0.

and the ``expert`` targets (one core, at least 300 games, the median think
time of ``expert`` at most 1 s a move):

* ``myllymatti-expert``: ``expert`` vs two ``ismcts:iterations=1000`` loses ≤ 22% of
  3-player games (the fair share is 33%);
* ``mattis-expert``: the same, ≤ 25%;
* ``mueckenstich-expert``: ``expert`` vs three ``ismcts:iterations=500`` gains at least
  +1.0 points a round over the other seats.

and those of learned play:

* ``myllymatti-learned``, ``mattis-learned``, ``mueckenstich-learned``: ``learned`` (the
  game's policy alone) vs ``heuristic`` loses less than ``heuristic`` does in the same
  seats: the reference, ``heuristic`` in every seat over the same deals, is run beside it
  and its figure is the limit (its own games are saved too); "Met" is ``yes`` only where
  the 95% interval lies wholly on the better side, ``not shown`` where the figure is better
  but the interval reaches the limit;
* ``mueckenstich-new-expert``: today's ``expert`` vs three of the expert as it was before
  its belief (``--old-expert``, default ``expert:belief=0``), head to head: at least +0.5 points a
  round.  ``--expert`` names the new one here too.

Each line gives the exact ``tikki arena`` command that reproduces it, the figure with its
95% interval and the median seconds per move of the bot measured.  Progress (one line per
finished game, with the figure so far) goes to stderr.  The defaults are the full protocol
(300 games a target, seed 12 fixed before the run, one core); the full runs take hours
(an expert one at 1 s a move one to three hours with ``--jobs 2``, twice that one game
at a time); ``--games`` and
``--expert expert:seconds=0.2`` make a quick, noisy, weaker check, and the table's title
says what was run.

**Long runs across sessions:** with ``--results FILE`` every finished game is appended to
``FILE`` (one JSON line: the target, its lineup, the seed and the game's result, without
its record), and a run started again with the same file plays only the games missing
there: the table is then over all of them, as one uninterrupted run would give (each game
is fixed by the seed and its index).  Lines of other targets, lineups or seeds are left
alone, so one file can hold several runs.

Run: ``.venv/bin/python benchmarks/strength.py [--targets mattis-ismcts,...]
[--games 300] [--seed 12] [--mueckenstich-ismcts ismcts:iterations=500]
[--expert expert] [--old-expert expert:belief=0] [--jobs 1] [--results FILE]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from tikki import arena


@dataclass(frozen=True)
class Target:
    """One arena target: game, lineup and the figure that must be met."""

    name: str
    game: str
    players: int
    bots: tuple[str, str]
    limit: float
    """Loss-rate ceiling (shedding games) or advantage floor per round (Mückenstich)."""
    max_median: float | None = None
    """The most seconds per move the measured bot may take at the median, if bounded."""
    against_reference: bool = False
    """Whether ``limit`` is instead the figure of ``bots[1]`` in every seat (run beside it):
    the measured bot must do better than it in the same seats."""


TARGETS = (
    Target("myllymatti-heuristic", "myllymatti", 3, ("heuristic", "random"), 0.12),
    Target("myllymatti-ismcts", "myllymatti", 3, ("ismcts:iterations=1000", "heuristic"), 0.25),
    Target("mattis-heuristic", "mattis", 3, ("heuristic", "random"), 0.12),
    Target("mattis-ismcts", "mattis", 3, ("ismcts:iterations=1000", "heuristic"), 0.25),
    Target("mueckenstich-heuristic", "mueckenstich", 4, ("heuristic", "random"), 3.0),
    Target("mueckenstich-ismcts", "mueckenstich", 4, ("ismcts:iterations=500", "heuristic"), 0.0),
    Target("myllymatti-expert", "myllymatti", 3, ("expert", "ismcts:iterations=1000"), 0.22, 1.0),
    Target("mattis-expert", "mattis", 3, ("expert", "ismcts:iterations=1000"), 0.25, 1.0),
    Target("mueckenstich-expert", "mueckenstich", 4, ("expert", "ismcts:iterations=500"), 1.0, 1.0),
    Target("myllymatti-learned", "myllymatti", 3, ("learned", "heuristic"), 0.0, None, True),
    Target("mattis-learned", "mattis", 3, ("learned", "heuristic"), 0.0, None, True),
    Target("mueckenstich-learned", "mueckenstich", 4, ("learned", "heuristic"), 0.0, None, True),
    Target("mueckenstich-new-expert", "mueckenstich", 4, ("expert", "expert:belief=0"), 0.5),
)


def run_key(target: Target, spec: arena.ArenaSpec) -> dict[str, Any]:
    """What identifies a run's games in a results file: target, lineup and seed."""
    return {"target": target.name, "lineup": list(spec.lineup), "seed": spec.seed}


def load_results(path: Path, key: dict[str, Any], games: int) -> list[arena.GameResult]:
    """The games of the run ``key`` already in ``path`` (those with an index below
    ``games``, the last line of an index winning); none if the file does not exist.

    Raise ``SystemExit`` with the line's number when a line is not a saved game.
    """
    if not path.exists():
        return []
    found: dict[int, arena.GameResult] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            if {k: row[k] for k in key} != key:
                continue
            result = arena.GameResult(**row["result"])
        except (ValueError, KeyError, TypeError) as error:
            raise SystemExit(
                f"{path}:{number}: not a saved game of benchmarks/strength.py ({error});"
                " fix or remove that line, or name another --results file"
            ) from None
        if 0 <= result.index < games:
            found[result.index] = result
    return [found[i] for i in sorted(found)]


def save_result(path: Path, key: dict[str, Any], result: arena.GameResult) -> None:
    """Append one finished game of the run ``key`` to ``path`` (its record left out)."""
    row = dict(key, result=asdict(replace(result, record={})))
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(row) + "\n")


def measure(
    target: Target, games: int, seed: int, jobs: int = 1, results_file: Path | None = None
) -> tuple[str, str, str, bool, str]:
    """Run one target; return its figure, interval, median seconds per move, whether it
    is met, and the command.  With ``results_file`` the games saved there are not
    played again, and each new one is saved as it ends.  A target measured against a
    reference runs the reference first (``bots[1]`` in every seat, saved under the
    target's name with ``-reference``) and takes its figure as the limit."""
    suffix = ""
    if target.against_reference:
        reference = replace(
            target, name=f"{target.name}-reference", bots=(target.bots[1], target.bots[1])
        )
        base = play(reference, games, seed, jobs, results_file)
        limit = base["loss_rate"] if "loss_rate" in base else base["mean_advantage"]
        target = replace(target, limit=limit)
        suffix = f"; {target.bots[1]} in its seats: {headline(base)}"
    figures = play(target, games, seed, jobs, results_file)
    command = (
        f"tikki arena {target.game} --players {target.players} --bots {','.join(target.bots)} "
        f"--games {games} --jobs {jobs} --seed {seed}"
    )
    median = figures["think_p50"]
    fast = target.max_median is None or median <= target.max_median
    if "loss_rate" in figures:
        low, high = figures["loss_ci"]
        rate = figures["loss_rate"]
        figure, interval = f"loss {rate:.1%}", f"{low:.1%}–{high:.1%}"
        if target.against_reference:  # better in the same seats: the interval says whether
            met = verdict(rate < target.limit, high < target.limit)
        else:
            met = verdict(rate <= target.limit, True)
    else:
        low, high = figures["advantage_ci"]
        advantage = figures["mean_advantage"]
        figure, interval = f"advantage {advantage:+.2f}", f"{low:+.2f}–{high:+.2f}"
        if target.against_reference:
            met = verdict(advantage > target.limit, low > target.limit)
        elif target.limit == 0.0:
            met = verdict(low > target.limit, True)
        else:
            met = verdict(advantage >= target.limit, True)
    return figure + suffix, interval, f"{median:.3f}", met if fast else "NO", command


def verdict(better: bool, beyond_chance: bool) -> str:
    """The table's "Met": ``yes``, ``NO``, or ``not shown`` where the figure beats the
    limit but its 95% interval reaches past it (a target measured against a reference in
    the same seats must be better beyond chance, as the README's table reads it)."""
    if not better:
        return "NO"
    return "yes" if beyond_chance else "not shown"


def headline(figures: dict[str, Any]) -> str:
    """A run's figure in a few words: its loss rate or its advantage a round."""
    if "loss_rate" in figures:
        return f"loss {figures['loss_rate']:.1%}"
    return f"advantage {figures['mean_advantage']:+.2f}"


def play(
    target: Target, games: int, seed: int, jobs: int, results_file: Path | None
) -> dict[str, Any]:
    """Play one target's games (those not saved yet); return the measured bot's figures."""
    spec = arena.ArenaSpec(
        target.game,
        target.players,
        {},
        arena.lineup_for(target.players, target.bots),
        games,
        seed,
    )
    key = run_key(target, spec)
    saved = [] if results_file is None else load_results(results_file, key, games)
    if saved:
        print(f"{target.name}: {len(saved)} games resumed from {results_file}", file=sys.stderr)
    done = list(saved)
    start = time.perf_counter()

    def progress(result: arena.GameResult) -> None:
        done.append(result)
        if results_file is not None:
            save_result(results_file, key, result)
        elapsed = time.perf_counter() - start
        print(
            f"{target.name}: game {len(done)}/{games} {elapsed:.0f}s"
            f" ({len(done) - len(saved)} this run), so far {so_far(done, spec.lineup)}",
            file=sys.stderr,
        )

    skip = {r.index for r in saved}
    results = sorted(
        saved + arena.run(spec, jobs=jobs, on_result=progress, skip=skip),
        key=lambda r: r.index,
    )
    figures: dict[str, Any] = arena.summarize(results, spec.lineup)[0].as_dict()
    return figures


def so_far(results: list[arena.GameResult], lineup: Sequence[str]) -> str:
    """The measured bot's figure over the games finished so far (the progress line)."""
    figures = arena.summarize(results, lineup)[0].as_dict()
    if "loss_rate" in figures:
        return f"lost {figures['losses']} ({figures['loss_rate']:.1%})"
    return f"advantage {figures['mean_advantage']:+.2f} a round"


def main() -> None:
    """Run the chosen targets and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--targets", default=",".join(t.name for t in TARGETS))
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument(
        "--mueckenstich-ismcts", default=None, help="the ismcts spec for mueckenstich-ismcts"
    )
    parser.add_argument(
        "--expert", default="expert", help="the expert spec of the *-expert targets"
    )
    parser.add_argument(
        "--old-expert",
        default="expert:belief=0",
        help="the expert as it was before its belief, the opponent of mueckenstich-new-expert",
    )
    parser.add_argument(
        "--jobs", type=int, default=1, help="games at once (the protocol: 1, one core)"
    )
    parser.add_argument(
        "--results",
        type=Path,
        default=None,
        help="a JSON-lines file: each finished game is saved there, and the games already"
        " there are not played again (a long run resumed)",
    )
    args = parser.parse_args()
    chosen = [t for t in TARGETS if t.name in args.targets.split(",")]
    cores = "one core" if args.jobs == 1 else f"{args.jobs} games at once"
    table = Table(title=f"Bot strength ({args.games} games a target, seed {args.seed}, {cores})")
    for column in ("Target", "Figure", "95% interval", "Median s/move", "Met", "Command"):
        table.add_column(column)
    for target in chosen:
        if target.name == "mueckenstich-ismcts" and args.mueckenstich_ismcts:
            target = Target(
                target.name,
                target.game,
                target.players,
                (args.mueckenstich_ismcts, "heuristic"),
                target.limit,
            )
        if target.name == "mueckenstich-new-expert":
            target = replace(target, bots=(args.expert, args.old_expert))
        elif target.bots[0] == "expert":
            target = replace(target, bots=(args.expert, target.bots[1]))
        figure, interval, median, met, command = measure(
            target, args.games, args.seed, args.jobs, args.results
        )
        table.add_row(target.name, figure, interval, median, met, command)
    Console(width=200).print(table)


if __name__ == "__main__":
    main()
