"""Where the engine's time goes, per game: legality, apply, copying, views, text.

For every headline setting (and ``--all`` for every benchmark setting) this plays random
games and times each primitive on the same positions, in µs per call:

* ``legal``: ``legal_moves()`` on a fresh position (no cache answers it);
* ``play``: ``play(move)`` of a legal move, its legal moves already listed;
* ``clone``: ``clone()``;
* ``clone+play``: both, as a search step costs;
* ``view``: what ``view(seat to act)`` adds to each move of a playout (the loop with a
  view before every move against the loop without, in CPU time), views kept up to date;
* ``cold view``: ``view(seat to act)`` of a fresh clone (nothing built yet);
  ``history``: its ``history`` part alone; ``view[-1]``: a cold view at the last
  position of a game (the longest history);

With ``--cprofile`` it also prints the functions that take the most time in the loop
``view(seat to act); play(random legal move)``, grouped into those parts.

Run: ``.venv/bin/python benchmarks/profile_engine.py [--games N] [--all] [--cprofile]``.
Timings on a shared machine are noisy: compare figures of one run with each other.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import tikki  # noqa: E402

SETTINGS: list[tuple[str, int, dict[str, Any]]] = [
    ("myllymatti", 3, {}),
    ("mattis", 3, {"max_sequence": 2}),
    ("mueckenstich", 4, {}),
]
MORE: list[tuple[str, int, dict[str, Any]]] = [
    ("myllymatti", 2, {}),
    ("myllymatti", 4, {}),
    ("myllymatti", 3, {"variant": "koira"}),
    ("mattis", 3, {"max_sequence": 3}),
    ("mueckenstich", 3, {}),
    ("mueckenstich", 6, {}),
]
GROUPS = {
    "legality": ("_generate", "legal_moves", "_beaters", "_playable", "_runs", "_run_texts"),
    "apply": ("play", "_apply", "_collect", "_shed", "_take", "_play", "_discard", "_advance"),
    "copying": ("clone",),
    "view": ("view", "history", "attach", "to_json", "_build", "last_trick", "_trick"),
}
console = Console(highlight=False, width=None if sys.stdout.isatty() else 140)


def positions(game: Any, games: int, seed: int) -> list[Any]:
    """Every position of ``games`` random games (clones), in order."""
    rng = random.Random(seed)
    out = []
    for k in range(games):
        state = game.new_state(seed=seed + k)
        while not state.is_over:
            out.append(state.clone())
            state.play(rng.choice(state.legal_moves()))
    return out


def per_call(fn: Callable[[Any], object], items: Sequence[Any]) -> float:
    """µs of CPU time per call of ``fn`` over ``items`` (one pass).

    The items (thousands of states) are frozen out of the garbage collector first, so
    that its passes over them are not charged to ``fn``.
    """
    gc.collect()
    gc.freeze()
    try:
        t0 = time.process_time()
        for item in items:
            fn(item)
        return (time.process_time() - t0) / max(1, len(items)) * 1e6
    finally:
        gc.unfreeze()


def measure(name: str, players: int, options: dict[str, Any], games: int) -> dict[str, float]:
    """The per-primitive costs of one setting, in µs."""
    game = tikki.load(name, players=players, **options)
    states = positions(game, games, 1)
    rng = random.Random(2)
    moves = [rng.choice(s.legal_moves()) for s in states]
    out: dict[str, float] = {}
    out["legal"] = per_call(lambda s: s.legal_moves(), [_fresh(s) for s in states])
    pairs = [(s.clone(), m) for s, m in zip(states, moves, strict=True)]
    for s, _ in pairs:
        s.legal_moves()
    out["play"] = per_call(lambda p: p[0].play(p[1]), pairs)
    out["clone"] = per_call(lambda s: s.clone(), states)
    for s in states:
        s.legal_moves()
    out["clone+play"] = per_call(
        lambda p: p[0].clone().play(p[1]), list(zip(states, moves, strict=True))
    )
    out["view"] = _view_share(game, games)
    out["cold view"] = per_call(lambda s: s.view(s.current_player), [s.clone() for s in states])
    out["history"] = per_call(lambda s: s.history(s.current_player), [s.clone() for s in states])
    last = [states[i] for i in range(len(states)) if i + 1 == len(states) or _starts(states, i + 1)]
    out["view[-1]"] = per_call(
        lambda s: s.view(s.current_player), [s.clone() for s in last for _ in range(5)]
    )
    out["moves/game"] = len(states) / games
    return out


def _view_share(game: Any, games: int) -> float:
    """µs that ``view(seat to act)`` adds to each move of a random playout (CPU time)."""
    spent = {False: 0.0, True: 0.0}
    moves = 0
    for view in (False, True, False, True):
        rng = random.Random(4)
        t0 = time.process_time()
        for k in range(games):
            state = game.new_state(seed=k)
            while not state.is_over:
                if view:
                    state.view(state.current_player)
                state.play(rng.choice(state.legal_moves()))
                moves += not view
        spent[view] += time.process_time() - t0
    return (spent[True] - spent[False]) / max(1, moves) * 1e6


def _starts(states: Sequence[Any], i: int) -> bool:
    return len(states[i].moves) == 0


def _fresh(state: Any) -> Any:
    """A clone with no legal moves cached."""
    new = state.clone()
    if hasattr(new, "_legal"):
        new._legal = None
    return new


def profile_loop(name: str, players: int, options: dict[str, Any], games: int) -> None:
    """cProfile the loop with views, and print the top functions by own time."""
    game = tikki.load(name, players=players, **options)
    rng = random.Random(3)

    def loop() -> None:
        for k in range(games):
            state = game.new_state(seed=k)
            while not state.is_over:
                state.view(state.current_player)
                state.play(rng.choice(state.legal_moves()))

    prof = cProfile.Profile()
    prof.runcall(loop)
    stats = pstats.Stats(prof)
    totals = dict.fromkeys([*GROUPS, "other"], 0.0)
    rows = []
    for (path, line, func), (_, _, tottime, _, _) in stats.stats.items():  # type: ignore[attr-defined]
        group = next((g for g, names in GROUPS.items() if func.startswith(names)), "other")
        totals[group] += tottime
        where = f"{func} ({Path(path).name}:{line})" if line else func
        rows.append((tottime, where, group))
    whole = sum(totals.values()) or 1.0
    table = Table(title=f"cProfile {name} {players}p, view + play loop, {games} games")
    table.add_column("part")
    table.add_column("share", justify="right")
    for group, spent in totals.items():
        table.add_row(group, f"{spent / whole:.0%}")
    console.print(table)
    top = Table(title="top functions by own time")
    for col in ("function", "part", "share"):
        top.add_column(col)
    for tottime, func, group in sorted(rows, reverse=True)[:12]:
        top.add_row(func, group, f"{tottime / whole:.0%}")
    console.print(top)


def main(argv: Sequence[str] | None = None) -> int:
    """Print the per-primitive table (and the profiles with ``--cprofile``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=30, help="games per setting (default 30)")
    parser.add_argument("--all", action="store_true", help="more settings than the headlines")
    parser.add_argument("--cprofile", action="store_true", help="also print cProfile groups")
    args = parser.parse_args(argv)
    settings = SETTINGS + (MORE if args.all else [])
    cols = ["legal", "play", "clone", "clone+play", "view", "cold view", "history", "view[-1]"]
    table = Table(title="µs per call (random positions of random games)")
    table.add_column("setting")
    for col in [*cols, "moves/game"]:
        table.add_column(col, justify="right")
    for name, players, options in settings:
        label = f"{name} {players}p" + "".join(f" {k}={v}" for k, v in options.items())
        got = measure(name, players, options, args.games)
        table.add_row(label, *(f"{got[c]:.1f}" for c in cols), f"{got['moves/game']:.0f}")
    console.print(table)
    if args.cprofile:
        for name, players, options in settings:
            profile_loop(name, players, options, max(1, args.games // 3))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
