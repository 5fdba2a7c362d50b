"""Throughput of tikki's rules engine on one core, beside two peer engines.

What is measured
----------------
*Random playouts.* For every tikki game and variant, the loop a user would write with the
public text API, timed as written::

    game = tikki.load("myllymatti", players=3)      # options as keywords
    rng = random.Random(seed)
    state = game.new_state(seed=k)                  # k = seed, seed + 1, ... one per game
    while not state.is_over:
        state.play(rng.choice(state.legal_moves()))

Only player moves count (one per ``play`` call); dealing and any other random event is
inside the timing but not counted. Reported: moves/s, games/s and moves per game, by the
process's CPU time (``time.process_time``): on a shared machine the wall clock also counts
the time other processes held the CPU, which made the ratios of one run swing several-fold.
The time a configuration plays (``--seconds``) is still wall-clock time.

*With views.* The same loop with ``state.view(state.current_player)`` before every move,
as a bot asks it and reads it (the hand, and the move drawn from the view's
``legal_moves``; the view is held while the move is played): the "with view" column
gives its moves/s and "view ×" its share of the plain loop's speed (target ≥0.5× in
every game).

*The issue's three columns.* A closing table gives, for every configuration, the compiled
build's playouts (this script run on ``--compiled``, by default ``.build-compiled`` from
``make compiled``, in a child process right after the pure row) and the pure build's,
each × hearts of this run, and the view loop × the plain loop; the machine's load
averages before and after are printed and saved. Each run is appended as one JSON line to
``benchmarks/runs/throughput.jsonl`` and its printed text saved as
``benchmarks/runs/throughput-<UTC time>.txt`` (``--no-save`` skips both).

*Search primitives.* On mid-game states (a random game replayed to half its length):
``clone()``, one ``play(move)`` (each legal move played on its own fresh clone; making the
clones is not timed), and ``legal_moves()`` on each state those plays produced (the first
call on a new state, so no cache answers it), each in µs per call.

*Peers*, measured the same way in the same run:

- OpenSpiel's C++ ``hearts`` (``pyspiel``): ``apply_action(rng.choice(legal_actions()))``
  at player nodes; chance nodes (pass direction, the deal) are sampled by their
  probabilities with the same ``rng`` and not counted as moves. Clone: ``state.clone()``.
- RLCard's ``uno`` (two players, RLCard's only setting), driven at the level of its game
  object, ``UnoGame``: ``init_game()``, then ``step(rng.choice(get_legal_actions()))`` until
  ``is_over()``. This is the fastest honest loop RLCard offers: its ``Env`` (the "uno env"
  row, shown for information) does the same plus NumPy observation encoding at every step,
  while going below ``UnoGame`` would mean calling its round internals. RLCard has no clone;
  its own step-back uses ``copy.deepcopy``, and so does this benchmark.

Ratios ``× hearts`` and ``× UNO`` compare each tikki row's moves/s with the peers'. Targets:
Myllymatti ≥160,000 moves/s, ≥1.0× hearts, ≥2× UNO; Mattis ≥100,000 moves/s, ≥0.8× hearts,
≥1.3× UNO; Mückenstich ≥100,000 moves/s, ≥1.3× hearts, ≥1.3× UNO. Cells are green when
met, red when not.

The process pins itself to one CPU where the OS allows it (the engines are
single-threaded). Games that are not registered yet in ``tikki.games()`` are skipped with a
note; a missing peer is skipped with a note and tikki's part still runs.

How to run
----------
``make bench`` installs the ``bench`` extras (open-spiel, rlcard) into ``.venv`` and runs
this script; or, once installed, ``.venv/bin/python benchmarks/throughput.py [options]``.
It measures whichever tikki it imports and says which build that is (pure Python, or
compiled by mypyc); ``make bench-compiled`` runs it on the compiled build
(``.build-compiled``), with the same peers in the same run::

    --seconds S        time per configuration (default 3)
    --games N          a fixed number of games per configuration instead of --seconds
    --only NAME        only tikki configurations whose game or label matches (repeatable,
                       or comma-separated), e.g. --only myllymatti --only "mattis 3p"
    --no-peers         skip OpenSpiel and RLCard (no ratios then)
    --no-search        skip the clone/legal/play measurements
    --no-view          skip the loop with a view before every move
    --json FILE        save every figure, with versions and machine, as JSON
    --compiled DIR     the compiled build measured beside each row in a child process
                       (default .build-compiled; --no-compiled skips it)
    --save FILE        append the run as a JSON line (default benchmarks/runs/throughput.jsonl)
                       and save what it printed beside it, as throughput-<UTC time>.txt
                       (--no-save skips both)
    --check            exit 1 if a measured target is missed
"""

from __future__ import annotations

import argparse
import copy
import importlib
import importlib.metadata
import importlib.util
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
RUNS = ROOT / "benchmarks" / "runs" / "throughput.jsonl"
MAX_MOVES_PER_GAME = 100_000
MIDGAME_STATES = 32
# Wide enough for the tables when the output goes to a file or a pipe.
console = Console(highlight=False, width=None if sys.stdout.isatty() else 140, record=True)


# --------------------------------------------------------------------------- configuration


@dataclass(frozen=True)
class Config:
    """One tikki game setting to measure."""

    game: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """Short text such as ``myllymatti 3p take=all``."""
        opts = " ".join(f"{k}={_text(v)}" for k, v in self.options.items())
        return f"{self.game} {self.players}p" + (f" {opts}" if opts else "")


@dataclass(frozen=True)
class Target:
    """What a game's rows should reach."""

    moves_per_s: float
    vs_hearts: float
    vs_uno: float

    def __str__(self) -> str:
        return f"≥{self.moves_per_s / 1000:.0f}k, ≥{self.vs_hearts:g}×H, ≥{self.vs_uno:g}×U"


CONFIGS: list[Config] = [
    Config("myllymatti", 2),
    Config("myllymatti", 3),
    Config("myllymatti", 4),
    Config("myllymatti", 3, {"variant": "koira"}),
    Config("myllymatti", 3, {"runs": True}),
    Config("myllymatti", 3, {"take": "all"}),
    Config("myllymatti", 3, {"take": "bottom"}),
    Config("myllymatti", 4, {"duel": False}),
    Config("mattis", 3, {"max_sequence": 2}),
    Config("mattis", 3, {"max_sequence": 3}),
    *(Config("mueckenstich", n) for n in range(3, 7)),
]

TARGETS: dict[str, Target] = {
    "myllymatti": Target(160_000, 1.0, 2.0),
    "mattis": Target(100_000, 0.8, 1.3),
    "mueckenstich": Target(100_000, 1.3, 1.3),
}

VIEW_SHARE: dict[str, float] = {"myllymatti": 0.5, "mattis": 0.5, "mueckenstich": 0.5}
"""The with-view loop's least share of the plain loop's speed."""

# The figure each game is judged by in the closing summary.
HEADLINES: list[Config] = [
    Config("myllymatti", 3),
    Config("mattis", 3, {"max_sequence": 2}),
    Config("mueckenstich", 4),
]


def _text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


# --------------------------------------------------------------------------- measurement


@dataclass(frozen=True)
class Budget:
    """Stop after ``seconds`` of playing, or after ``games`` games when that is given."""

    seconds: float
    games: int | None = None

    def more(self, games: int, start: float) -> bool:
        """Whether to start another game."""
        if self.games is not None:
            return games < self.games
        return time.perf_counter() - start < self.seconds


@dataclass
class Throughput:
    """Random-playout figures of one system and setting."""

    system: str
    label: str
    games: int
    moves: int
    seconds: float

    @property
    def moves_per_s(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def moves_per_game(self) -> float:
        return self.moves / self.games if self.games else 0.0


@dataclass
class SearchCost:
    """Costs of the search primitives on mid-game states, in microseconds."""

    system: str
    label: str
    states: int
    clone_us: float
    legal_us: float
    play_us: float


class TooLong(RuntimeError):
    """A playout ran past MAX_MOVES_PER_GAME."""


def _too_long(label: str) -> TooLong:
    return TooLong(f"{label}: a game ran past {MAX_MOVES_PER_GAME} moves")


def _timed_ops(
    states: Sequence[Any],
    clone: Callable[[Any], Any],
    legal: Callable[[Any], Sequence[Any]],
    play: Callable[[Any, Any], object],
    seconds: float,
) -> tuple[float, float, float]:
    """µs per clone, per play and per legal-move listing, from ``states`` round-robin.

    ``play`` is timed on fresh clones, one per legal move of each state. ``legal`` is timed
    once on each state those plays produced, so that no engine answers from a cache.
    """
    share = seconds / 3
    calls, spent, reps = 0, 0.0, 20
    while spent < share or calls == 0:
        for s in states:
            t0 = time.perf_counter()
            for _ in range(reps):
                clone(s)
            spent += time.perf_counter() - t0
            calls += reps
    clone_us = spent / calls * 1e6

    moves = [list(legal(s)) for s in states]
    play_calls, play_spent, legal_calls, legal_spent = 0, 0.0, 0, 0.0
    while play_spent < share or legal_spent < share or play_calls == 0:
        batch = [(clone(s), m) for s, ms in zip(states, moves, strict=True) for m in ms]
        t0 = time.perf_counter()
        for c, m in batch:
            play(c, m)
        play_spent += time.perf_counter() - t0
        play_calls += len(batch)
        t0 = time.perf_counter()
        for c, _ in batch:
            legal(c)
        legal_spent += time.perf_counter() - t0
        legal_calls += len(batch)
    return clone_us, legal_spent / legal_calls * 1e6, play_spent / play_calls * 1e6


# --------------------------------------------------------------------------- tikki


def import_tikki() -> tuple[ModuleType | None, str]:
    """The tikki package, or None and why not."""
    if importlib.util.find_spec("tikki") is None:
        sys.path.insert(0, str(ROOT))
    try:
        tikki = importlib.import_module("tikki")
    except Exception as exc:  # an engine mid-rewrite may fail in any way
        return None, f"import tikki failed: {type(exc).__name__}: {exc}"
    missing = [n for n in ("load", "games") if not hasattr(tikki, n)]
    if missing:
        where = getattr(tikki, "__file__", None) or list(getattr(tikki, "__path__", []))
        return None, f"tikki ({where}) has no {', '.join(missing)} yet"
    build = "compiled (mypyc)" if getattr(tikki, "COMPILED", False) else "pure Python"
    return tikki, f"tikki from {Path(tikki.__file__ or '.').parent}, {build}"


def tikki_playouts(game: Any, label: str, budget: Budget, seed: int) -> Throughput:
    """The user's loop over ``game``: new_state(seed=k), then random legal moves."""
    rng = random.Random(seed)
    games = moves = 0
    k = seed
    start, cpu = time.perf_counter(), time.process_time()
    while budget.more(games, start):
        state = game.new_state(seed=k)
        n = 0
        while not state.is_over:
            state.play(rng.choice(state.legal_moves()))
            n += 1
            if n > MAX_MOVES_PER_GAME:
                raise _too_long(label)
        moves += n
        games += 1
        k += 1
    return Throughput("tikki", label, games, moves, time.process_time() - cpu)


def tikki_view_playouts(game: Any, label: str, budget: Budget, seed: int) -> Throughput:
    """The user's loop with ``view(seat to act)`` before every move (same seeds, same
    moves), the view read as a bot reads it: its hand, and the move drawn from its
    ``legal_moves``; the view is held while the move is played."""
    rng = random.Random(seed)
    games = moves = cards = 0
    k = seed
    start, cpu = time.perf_counter(), time.process_time()
    while budget.more(games, start):
        state = game.new_state(seed=k)
        n = 0
        while not state.is_over:
            view = state.view(state.current_player)
            cards += len(view["hand"])
            state.play(rng.choice(view["legal_moves"]))
            n += 1
            if n > MAX_MOVES_PER_GAME:
                raise _too_long(label)
        moves += n
        games += 1
        k += 1
    return Throughput("tikki", label, games, moves, time.process_time() - cpu)


def tikki_midgame(game: Any, count: int, seed: int) -> list[Any]:
    """States half-way through random games (each game replayed to half its length)."""
    states = []
    for k in range(seed, seed + count):
        length = 0
        state = game.new_state(seed=k)
        rng = random.Random(k)
        while not state.is_over:
            state.play(rng.choice(state.legal_moves()))
            length += 1
            if length > MAX_MOVES_PER_GAME:
                raise _too_long(game.name)
        state = game.new_state(seed=k)
        rng = random.Random(k)
        for _ in range(length // 2):
            state.play(rng.choice(state.legal_moves()))
        states.append(state)
    return states


# --------------------------------------------------------------------------- peers


def _sample_chance(outcomes: Sequence[tuple[int, float]], rng: random.Random) -> int:
    r = rng.random()
    for action, p in outcomes:
        r -= p
        if r < 0:
            return action
    return outcomes[-1][0]


def hearts_playouts(pyspiel: Any, budget: Budget, seed: int) -> Throughput:
    """OpenSpiel hearts, uniform random at player nodes, chance sampled, not counted."""
    game = pyspiel.load_game("hearts")
    rng = random.Random(seed)
    games = moves = 0
    start, cpu = time.perf_counter(), time.process_time()
    while budget.more(games, start):
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(_sample_chance(state.chance_outcomes(), rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                n += 1
                if n > MAX_MOVES_PER_GAME:
                    raise _too_long("hearts")
        moves += n
        games += 1
    return Throughput("OpenSpiel", "hearts 4p", games, moves, time.process_time() - cpu)


def _hearts_advance(state: Any, rng: random.Random) -> None:
    while state.is_chance_node():
        state.apply_action(_sample_chance(state.chance_outcomes(), rng))


def hearts_midgame(pyspiel: Any, count: int, seed: int) -> list[Any]:
    """Hearts states half-way through (in player moves) random games."""
    game = pyspiel.load_game("hearts")
    states = []
    for k in range(seed, seed + count):
        rng = random.Random(k)
        state = game.new_initial_state()
        _hearts_advance(state, rng)
        length = 0
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            _hearts_advance(state, rng)
            length += 1
        rng = random.Random(k)
        state = game.new_initial_state()
        _hearts_advance(state, rng)
        for _ in range(length // 2):
            state.apply_action(rng.choice(state.legal_actions()))
            _hearts_advance(state, rng)
        states.append(state)
    return states


def uno_playouts(uno_game_cls: Any, budget: Budget, seed: int) -> Throughput:
    """RLCard UNO through its game object (see the module docstring)."""
    game = uno_game_cls()
    rng = random.Random(seed)
    games = moves = 0
    k = seed
    start, cpu = time.perf_counter(), time.process_time()
    while budget.more(games, start):
        game.np_random.seed(k)
        game.init_game()
        n = 0
        while not game.is_over():
            game.step(rng.choice(game.get_legal_actions()))
            n += 1
            if n > MAX_MOVES_PER_GAME:
                raise _too_long("uno")
        moves += n
        games += 1
        k += 1
    return Throughput("RLCard", "uno 2p", games, moves, time.process_time() - cpu)


def uno_env_playouts(rlcard: Any, budget: Budget, seed: int) -> Throughput:
    """RLCard UNO through ``rlcard.make('uno')``: reset/step, legal actions from its state."""
    env = rlcard.make("uno", config={"seed": seed})
    rng = random.Random(seed)
    games = moves = 0
    start, cpu = time.perf_counter(), time.process_time()
    while budget.more(games, start):
        state, _ = env.reset()
        n = 0
        while not env.is_over():
            state, _ = env.step(rng.choice(state["raw_legal_actions"]), raw_action=True)
            n += 1
            if n > MAX_MOVES_PER_GAME:
                raise _too_long("uno env")
        moves += n
        games += 1
    return Throughput("RLCard", "uno 2p (env)", games, moves, time.process_time() - cpu)


def uno_midgame(uno_game_cls: Any, count: int, seed: int) -> list[Any]:
    """UNO games half-way through (deep copies taken along one random game each)."""
    states = []
    for k in range(seed, seed + count):
        game = uno_game_cls()
        game.np_random.seed(k)
        game.init_game()
        rng = random.Random(k)
        trail = [copy.deepcopy(game)]
        while not game.is_over():
            game.step(rng.choice(game.get_legal_actions()))
            trail.append(copy.deepcopy(game))
        states.append(trail[(len(trail) - 1) // 2])
    return states


def peer_version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "?"


# --------------------------------------------------------------------------- report


def _num(x: float) -> str:
    return f"{x:,.0f}"


def _colored(text: str, ok: bool | None) -> str:
    if ok is None:
        return text
    return f"[green]{text}[/]" if ok else f"[red]{text}[/]"


@dataclass
class Row:
    """One tikki configuration's results and verdicts."""

    config: Config
    options: dict[str, Any]
    playouts: Throughput
    search: SearchCost | None
    vs_hearts: float | None
    vs_uno: float | None
    with_view: Throughput | None = None
    compiled: Throughput | None = None
    """The same playouts on the compiled build (a child process, ``--compiled``)."""
    compiled_vs_hearts: float | None = None

    @property
    def target(self) -> Target | None:
        return TARGETS.get(self.config.game)

    @property
    def view_share(self) -> float | None:
        """The with-view loop's moves/s as a share of the plain loop's."""
        if self.with_view is None or not self.playouts.moves_per_s:
            return None
        return self.with_view.moves_per_s / self.playouts.moves_per_s

    def checks(self) -> dict[str, bool]:
        """Each target that could be judged: met or not."""
        t = self.target
        if t is None:
            return {}
        out = {"moves_per_s": self.playouts.moves_per_s >= t.moves_per_s}
        if self.vs_hearts is not None:
            out["vs_hearts"] = self.vs_hearts >= t.vs_hearts
        if self.vs_uno is not None:
            out["vs_uno"] = self.vs_uno >= t.vs_uno
        share = VIEW_SHARE.get(self.config.game)
        if share is not None and self.view_share is not None:
            out["view_share"] = self.view_share >= share
        return out


def playout_table(rows: list[Row], peers: list[Throughput]) -> Table:
    table = Table(title="Random playouts, one core (player moves only)", title_justify="left")
    for name in ("system", "configuration", "games", "moves/game", "games/s", "moves/s"):
        table.add_column(name, justify="left" if name in ("system", "configuration") else "right")
    table.add_column("× hearts", justify="right")
    table.add_column("× UNO", justify="right")
    table.add_column("with view", justify="right")
    table.add_column("view ×", justify="right")
    table.add_column("clone+play µs", justify="right")
    table.add_column("target", justify="left")
    for p in peers:
        table.add_row(
            p.system,
            p.label,
            _num(p.games),
            f"{p.moves_per_game:.1f}",
            _num(p.games_per_s),
            _num(p.moves_per_s),
            "",
            "",
            "",
            "",
            "",
            "",
        )
    if peers and rows:
        table.add_section()
    for r in rows:
        ok = r.checks()
        p = r.playouts
        table.add_row(
            "tikki",
            p.label,
            _num(p.games),
            f"{p.moves_per_game:.1f}",
            _num(p.games_per_s),
            _colored(_num(p.moves_per_s), ok.get("moves_per_s")),
            _colored(f"{r.vs_hearts:.2f}×", ok.get("vs_hearts")) if r.vs_hearts else "–",
            _colored(f"{r.vs_uno:.2f}×", ok.get("vs_uno")) if r.vs_uno else "–",
            _num(r.with_view.moves_per_s) if r.with_view else "–",
            _colored(f"{r.view_share:.2f}×", ok.get("view_share")) if r.view_share else "–",
            f"{r.search.clone_us + r.search.play_us:.2f}" if r.search else "–",
            str(r.target) if r.target else "",
        )
    return table


def search_table(costs: list[SearchCost]) -> Table:
    table = Table(
        title=f"Search primitives on mid-game states (µs per call, {MIDGAME_STATES} states)",
        title_justify="left",
    )
    table.add_column("system")
    table.add_column("configuration")
    for name in ("clone", "legal moves", "play", "clone + play"):
        table.add_column(name, justify="right")
    for c in costs:
        table.add_row(
            c.system,
            c.label,
            f"{c.clone_us:.2f}",
            f"{c.legal_us:.2f}",
            f"{c.play_us:.2f}",
            f"{c.clone_us + c.play_us:.2f}",
        )
    return table


# --------------------------------------------------------------------------- main


def pin_one_core(cpu: int | None) -> str:
    """Pin this process to one CPU (the last one allowed unless told); say what was done."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity on this OS)"
    allowed = sorted(os.sched_getaffinity(0))
    chosen = allowed[-1] if cpu is None else cpu
    try:
        os.sched_setaffinity(0, {chosen})
    except OSError as exc:
        return f"not pinned ({exc})"
    return f"pinned to CPU {chosen} (of {len(allowed)} allowed)"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Random-playout throughput of tikki and its peers on one core."
    )
    amount = parser.add_mutually_exclusive_group()
    amount.add_argument(
        "--seconds", type=float, default=3.0, help="time per configuration (default 3)"
    )
    amount.add_argument("--games", type=int, help="a fixed number of games per configuration")
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="NAME",
        help="only tikki configurations whose game or label matches (repeatable, or a,b)",
    )
    parser.add_argument("--no-peers", action="store_true", help="skip OpenSpiel and RLCard")
    parser.add_argument("--no-search", action="store_true", help="skip clone/legal/play costs")
    parser.add_argument("--no-view", action="store_true", help="skip the loop with views")
    parser.add_argument(
        "--search-seconds",
        type=float,
        default=1.5,
        help="time for the search primitives of each configuration (default 1.5)",
    )
    parser.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="save the results as JSON")
    parser.add_argument("--cpu", type=int, help="the CPU to pin to (default: last allowed)")
    parser.add_argument("--no-pin", action="store_true", help="do not pin to one CPU")
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    parser.add_argument(
        "--compiled",
        type=Path,
        default=ROOT / ".build-compiled",
        metavar="DIR",
        help="the compiled build whose playouts a child process measures beside each row "
        "(default .build-compiled, made by `make compiled`; skipped when absent)",
    )
    parser.add_argument("--no-compiled", action="store_true", help="skip the compiled build")
    parser.add_argument(
        "--save",
        type=Path,
        default=RUNS,
        metavar="FILE",
        help="append the run, as one JSON line, to FILE (default benchmarks/runs/throughput.jsonl)",
    )
    parser.add_argument(
        "--no-save", action="store_true", help="do not append the run nor save its text"
    )
    parser.add_argument("--label", help=argparse.SUPPRESS)  # one configuration, exactly
    args = parser.parse_args(argv)
    args.only = [n.strip().lower() for item in args.only for n in item.split(",") if n.strip()]
    return args


def selected(config: Config, only: list[str], label: str | None = None) -> bool:
    if label is not None:
        return config.label == label
    if not only:
        return True
    label = config.label.lower()
    return any(n == config.game or n in label for n in only)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    budget = Budget(args.seconds, args.games)
    warmup = Budget(0.0, 2)
    notes: list[str] = []

    def note(text: str) -> None:
        notes.append(text)
        console.print(f"[yellow]note:[/] {escape(text)}")

    load_before = os.getloadavg()
    pinned = "not pinned (--no-pin)" if args.no_pin else pin_one_core(args.cpu)
    amount = f"{args.games} games" if args.games is not None else f"{args.seconds:g} s"
    console.print(f"[bold]tikki throughput[/] — {amount} per configuration, {pinned}")
    console.print(
        f"Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.machine()}, {_cpu_model()}"
    )

    peers: list[Throughput] = []
    peer_search: list[SearchCost] = []
    versions: dict[str, str] = {}
    hearts: Throughput | None = None
    uno: Throughput | None = None
    if args.no_peers:
        note("peers skipped (--no-peers): no ratios")
    else:
        hearts, uno = _run_peers(args, budget, warmup, peers, peer_search, versions, note)

    tikki, where = import_tikki()
    build = "compiled" if tikki is not None and getattr(tikki, "COMPILED", False) else "pure"
    compiled_dir = _compiled_dir(args, build, note)
    rows: list[Row] = []
    tikki_search: list[SearchCost] = []
    if tikki is None:
        note(f"tikki's part skipped: {where}")
    else:
        console.print(where)
        versions["tikki"] = str(getattr(tikki, "__version__", peer_version("tikki")))
        try:
            registered = tikki.games()
        except Exception as exc:
            registered = {}
            note(f"tikki.games() failed: {type(exc).__name__}: {exc}")
        wanted = [c for c in CONFIGS if selected(c, args.only, args.label)]
        if args.only and not wanted:
            note(f"--only {','.join(args.only)} matches no configuration")
        announced: set[str] = set()
        for config in wanted:
            if config.game not in registered:
                if config.game not in announced:
                    announced.add(config.game)
                    note(f"{config.game} is not registered in tikki.games() yet: skipped")
                continue
            row = _run_tikki(tikki, config, args, budget, warmup, hearts, uno, note)
            if row is not None:
                if compiled_dir is not None:
                    row.compiled = compiled_playouts(compiled_dir, config, args, note)
                    if row.compiled is not None and hearts is not None and hearts.moves_per_s:
                        row.compiled_vs_hearts = row.compiled.moves_per_s / hearts.moves_per_s
                rows.append(row)
                if row.search is not None:
                    tikki_search.append(row.search)

    console.print()
    if peers or rows:
        console.print(playout_table(rows, peers))
    if peer_search or tikki_search:
        console.print(search_table(peer_search + tikki_search))
    missed = _summary(rows, hearts, uno)
    if rows and args.label is None:
        console.print(issue_table(rows, hearts, build))
    load = (load_before, os.getloadavg())
    console.print(
        f"machine load (1, 5, 15 min averages) before {_loads(load[0])}, after {_loads(load[1])}"
        f" on {os.cpu_count()} CPUs"
    )
    data = _json_data(args, pinned, versions, peers, peer_search, rows, notes, build, load)
    if args.json:
        args.json.write_text(json.dumps(data, indent=2, default=str) + "\n", encoding="utf-8")
        console.print(f"results saved to {args.json}")
    if not args.no_save and args.label is None:
        args.save.parent.mkdir(parents=True, exist_ok=True)
        with args.save.open("a", encoding="utf-8") as out:
            out.write(json.dumps(data, default=str) + "\n")
        console.print(f"run appended to {args.save}")
        text = args.save.parent / time.strftime("throughput-%Y%m%d-%H%M%S.txt", time.gmtime())
        console.print(f"its text saved to {text}")
        console.save_text(str(text))
    return 1 if args.check and missed else 0


def _loads(loads: Sequence[float]) -> str:
    return ", ".join(f"{x:.1f}" for x in loads)


def _compiled_dir(args: argparse.Namespace, build: str, note: Callable[[str], None]) -> Path | None:
    """The compiled build to measure beside the pure rows, or ``None`` (and why not)."""
    if args.no_compiled or args.label is not None:
        return None
    if build == "compiled":
        note("this process runs the compiled build: no second compiled column")
        return None
    if not any(args.compiled.glob("tikki/core/*.so")):
        note(f"no compiled build in {args.compiled} (make compiled): compiled column skipped")
        return None
    return Path(args.compiled)


def compiled_playouts(
    where: Path, config: Config, args: argparse.Namespace, note: Callable[[str], None]
) -> Throughput | None:
    """``config``'s random playouts on the compiled build in ``where``: this script in a
    child process (same budget, seed and CPU) importing tikki from there."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "row.json"
        cmd = [sys.executable, str(Path(__file__).resolve()), "--label", config.label]
        cmd += ["--no-peers", "--no-view", "--no-search", "--no-save", "--json", str(out)]
        cmd += ["--seed", str(args.seed)]
        cmd += ["--games", str(args.games)] if args.games is not None else []
        cmd += ["--seconds", str(args.seconds)] if args.games is None else []
        cmd += ["--no-pin"] if args.no_pin else [] if args.cpu is None else ["--cpu", str(args.cpu)]
        env = {**os.environ, "PYTHONPATH": str(where.resolve())}
        done = subprocess.run(cmd, env=env, cwd=where, capture_output=True, text=True, check=False)
        if done.returncode != 0 or not out.exists():
            note(f"{config.label}: compiled playouts failed: {done.stderr.strip()[-300:]}")
            return None
        data = json.loads(out.read_text(encoding="utf-8"))
    if data["meta"]["build"] != "compiled" or not data["tikki"]:
        note(f"{config.label}: the child did not run a compiled tikki from {where}")
        return None
    row = data["tikki"][0]
    got = Throughput("compiled", config.label, row["games"], row["moves"], row["seconds"])
    _progress(got)
    return got


def issue_table(rows: list[Row], hearts: Throughput | None, build: str) -> Table:
    """The three headline columns for every measured configuration."""
    table = Table(
        title="Per game: compiled and pure playouts vs OpenSpiel's C++ hearts (same run), "
        "and the loop with a view before each move vs the plain loop",
        title_justify="left",
    )
    table.add_column("configuration")
    table.add_column("compiled × hearts", justify="right")
    table.add_column(f"{build} × hearts", justify="right")
    table.add_column(f"view loop × plain ({build})", justify="right")
    for r in rows:
        table.add_row(
            r.config.label,
            f"{r.compiled_vs_hearts:.2f}×" if r.compiled_vs_hearts is not None else "–",
            f"{r.vs_hearts:.2f}×" if r.vs_hearts is not None else "–",
            f"{r.view_share:.2f}×" if r.view_share is not None else "–",
        )
    if hearts is None:
        table.caption = "no hearts measured: no ratios to it"
    return table


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def _run_peers(
    args: argparse.Namespace,
    budget: Budget,
    warmup: Budget,
    peers: list[Throughput],
    peer_search: list[SearchCost],
    versions: dict[str, str],
    note: Callable[[str], None],
) -> tuple[Throughput | None, Throughput | None]:
    hearts: Throughput | None = None
    uno: Throughput | None = None
    try:
        pyspiel = importlib.import_module("pyspiel")
    except ImportError as exc:
        note(f"OpenSpiel missing ({exc}): no hearts; `pip install -e '.[bench]'` brings it")
    else:
        versions["open-spiel"] = peer_version("open-spiel")
        try:
            hearts_playouts(pyspiel, warmup, args.seed + 10_000)
            hearts = hearts_playouts(pyspiel, budget, args.seed)
            peers.append(hearts)
            _progress(hearts)
            if not args.no_search:
                s = hearts_midgame(pyspiel, MIDGAME_STATES, args.seed)
                cost = _timed_ops(
                    s,
                    pyspiel.State.clone,
                    pyspiel.State.legal_actions,
                    pyspiel.State.apply_action,
                    args.search_seconds,
                )
                peer_search.append(SearchCost("OpenSpiel", "hearts 4p", len(s), *cost))
        except Exception as exc:
            note(f"hearts failed: {type(exc).__name__}: {exc}")
    try:
        rlcard = importlib.import_module("rlcard")
        uno_game_cls = importlib.import_module("rlcard.games.uno.game").UnoGame
    except ImportError as exc:
        note(f"RLCard missing ({exc}): no UNO; `pip install -e '.[bench]'` brings it")
    else:
        versions["rlcard"] = peer_version("rlcard")
        versions["numpy"] = peer_version("numpy")
        try:
            uno_playouts(uno_game_cls, warmup, args.seed + 10_000)
            uno = uno_playouts(uno_game_cls, budget, args.seed)
            peers.append(uno)
            _progress(uno)
            env = uno_env_playouts(rlcard, budget, args.seed)
            peers.append(env)
            _progress(env)
            if not args.no_search:
                s = uno_midgame(uno_game_cls, MIDGAME_STATES, args.seed)
                cost = _timed_ops(
                    s,
                    copy.deepcopy,
                    uno_game_cls.get_legal_actions,
                    uno_game_cls.step,
                    args.search_seconds,
                )
                peer_search.append(SearchCost("RLCard", "uno 2p (deepcopy)", len(s), *cost))
        except Exception as exc:
            note(f"UNO failed: {type(exc).__name__}: {exc}")
    return hearts, uno


def _run_tikki(
    tikki: ModuleType,
    config: Config,
    args: argparse.Namespace,
    budget: Budget,
    warmup: Budget,
    hearts: Throughput | None,
    uno: Throughput | None,
    note: Callable[[str], None],
) -> Row | None:
    try:
        game = tikki.load(config.game, players=config.players, **config.options)
    except Exception as exc:
        note(f"{config.label}: tikki.load failed: {type(exc).__name__}: {exc}")
        return None
    try:
        tikki_playouts(game, config.label, warmup, args.seed + 10_000)
        result = tikki_playouts(game, config.label, budget, args.seed)
    except Exception as exc:
        note(f"{config.label}: playout failed: {type(exc).__name__}: {exc}")
        return None
    _progress(result)
    with_view: Throughput | None = None
    if not args.no_view:
        try:
            with_view = tikki_view_playouts(game, config.label + " +view", budget, args.seed)
            _progress(with_view)
        except Exception as exc:
            note(f"{config.label}: playout with views failed: {type(exc).__name__}: {exc}")
    search: SearchCost | None = None
    if not args.no_search:
        try:
            states = tikki_midgame(game, MIDGAME_STATES, args.seed)
            cls = type(states[0])
            cost = _timed_ops(
                states,
                cls.clone,
                cls.legal_moves,
                cls.play,
                args.search_seconds,
            )
            search = SearchCost("tikki", config.label, len(states), *cost)
        except Exception as exc:
            note(f"{config.label}: search primitives failed: {type(exc).__name__}: {exc}")
    options = dict(getattr(game, "options", config.options))
    return Row(
        config,
        options,
        result,
        search,
        result.moves_per_s / hearts.moves_per_s if hearts and hearts.moves_per_s else None,
        result.moves_per_s / uno.moves_per_s if uno and uno.moves_per_s else None,
        with_view,
    )


def _progress(t: Throughput) -> None:
    console.print(
        f"  {t.system:9} {t.label:32} {_num(t.moves_per_s):>10} moves/s "
        f"{_num(t.games_per_s):>8} games/s  ({t.games} games)"
    )


def _summary(rows: list[Row], hearts: Throughput | None, uno: Throughput | None) -> bool:
    """Print each game's headline verdict; whether any measured row missed a target."""
    by_label = {r.config.label: r for r in rows}
    for headline in HEADLINES:
        row = by_label.get(headline.label)
        if row is None or row.target is None:
            continue
        t = row.target
        parts = [f"{_num(row.playouts.moves_per_s)} moves/s (≥{_num(t.moves_per_s)})"]
        if row.vs_hearts is not None and hearts is not None:
            parts.append(f"{row.vs_hearts:.2f}× hearts (≥{t.vs_hearts}×)")
        if row.vs_uno is not None and uno is not None:
            parts.append(f"{row.vs_uno:.2f}× UNO (≥{t.vs_uno}×)")
        share = VIEW_SHARE.get(headline.game)
        if row.view_share is not None:
            parts.append(f"{row.view_share:.2f}× with views" + (f" (≥{share}×)" if share else ""))
        verdict = "[green]meets[/]" if all(row.checks().values()) else "[red]misses[/]"
        unmeasured = "" if len(parts) >= 3 else " (ratios not measured)"
        console.print(
            f"[bold]{headline.label}[/]: {', '.join(parts)} — {verdict} its targets{unmeasured}"
        )
    return any(not ok for r in rows for ok in r.checks().values())


def _json_data(
    args: argparse.Namespace,
    pinned: str,
    versions: dict[str, str],
    peers: list[Throughput],
    peer_search: list[SearchCost],
    rows: list[Row],
    notes: list[str],
    build: str,
    load: tuple[tuple[float, float, float], tuple[float, float, float]],
) -> dict[str, Any]:
    """Every figure of the run, with versions, machine and load, JSON-ready."""

    def playouts(t: Throughput) -> dict[str, Any]:
        return {
            "system": t.system,
            "label": t.label,
            "games": t.games,
            "moves": t.moves,
            "seconds": t.seconds,
            "moves_per_s": t.moves_per_s,
            "games_per_s": t.games_per_s,
            "moves_per_game": t.moves_per_game,
        }

    def search(c: SearchCost | None) -> dict[str, Any] | None:
        if c is None:
            return None
        return {
            "states": c.states,
            "clone_us": c.clone_us,
            "legal_us": c.legal_us,
            "play_us": c.play_us,
        }

    searched = {c.label.split(" (")[0]: c for c in peer_search}
    data = {
        "meta": {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "python": sys.version,
            "implementation": platform.python_implementation(),
            "machine": platform.machine(),
            "cpu": _cpu_model(),
            "pinning": pinned,
            "seconds": None if args.games is not None else args.seconds,
            "games": args.games,
            "seed": args.seed,
            "versions": versions,
            "build": build,
            "loadavg_before": list(load[0]),
            "loadavg_after": list(load[1]),
            "cpus": os.cpu_count(),
        },
        "peers": [{**playouts(p), "search": search(searched.get(p.label))} for p in peers],
        "tikki": [
            {
                **playouts(r.playouts),
                "game": r.config.game,
                "players": r.config.players,
                "options": r.options,
                "search": search(r.search),
                "vs_hearts": r.vs_hearts,
                "vs_uno": r.vs_uno,
                "with_view": None if r.with_view is None else playouts(r.with_view),
                "view_share": r.view_share,
                "compiled": None if r.compiled is None else playouts(r.compiled),
                "compiled_vs_hearts": r.compiled_vs_hearts,
                "target": None
                if r.target is None
                else {
                    "moves_per_s": r.target.moves_per_s,
                    "vs_hearts": r.target.vs_hearts,
                    "vs_uno": r.target.vs_uno,
                },
                "met": r.checks(),
            }
            for r in rows
        ],
        "notes": notes,
    }
    return data


if __name__ == "__main__":
    sys.exit(main())
