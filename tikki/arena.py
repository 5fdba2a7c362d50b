"""The arena: many games between bots, with statistics, ratings and storage.

Seating: a *lineup* is one bot spec per seat (``heuristic,random`` with 3 players is
``heuristic, random, random``: "X vs Y" is one X against n−1 Y).  Games come in *duplicate
deals*: deal ``d`` is played ``n`` times, the lineup rotated one seat each time, so every
bot sits in every seat equally often and meets the same cards.  Game ``g`` is deal
``g // n`` in rotation ``g % n``; its deal seed and its bots' seeds follow from the arena
seed and ``g`` alone, so the results are the same whatever ``--jobs`` is.

Per bot (bots with the same spec are pooled): games, loss rate with a Wilson 95% interval
(shedding games, where the share of a random bot is ``1/n``) or mean score per round and
the mean advantage over the other seats with a 95% interval (a game scored in points),
mean moves per game, abandoned (C-5) and forfeited games, and seconds per move.  Ratings
over all games come from ``openskill`` (Plackett–Luce).  Every game's record and result
can be stored in SQLite so that ``tikki replay --db FILE GAME_ID`` replays it.
"""

from __future__ import annotations

import hashlib
import json
import math
import multiprocessing
import pickle
import sqlite3
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from tikki import arena_ray, extras
from tikki import bots as botlib
from tikki.bots.external import BotFailure
from tikki.core import JSON, Game, RulesError, load
from tikki.i18n import _ as _t

Z95 = 1.959963984540054


@dataclass(frozen=True)
class ArenaSpec:
    """What to play: the game, its options, the lineup, how many games, the seed."""

    game: str
    players: int
    options: Mapping[str, Any]
    lineup: tuple[str, ...]
    games: int
    seed: int

    def load(self) -> Game:
        """The game to play."""
        return load(self.game, players=self.players, **self.options)


@dataclass
class GameResult:
    """One arena game: who sat where, what happened, how long each seat thought."""

    index: int
    deal: int
    seats: list[str]
    outcome: JSON | None
    moves: int
    think: list[float]
    decisions: list[int]
    record: JSON
    forfeit: int | None = None
    error: str | None = None
    move_seconds: list[list[float]] = field(default_factory=list)
    """Each seat's think time of every move it made, in seconds."""

    @property
    def abandoned(self) -> bool:
        """Whether the game hit ``max_moves`` (C-5)."""
        return bool(self.outcome and self.outcome.get("abandoned"))


def lineup_for(players: int, bots: Sequence[str]) -> tuple[str, ...]:
    """One spec per seat: the given specs in order, the last one repeated."""
    if not bots:
        raise RulesError(_t("name at least one bot, e.g. --bots heuristic,random"))
    if len(bots) > players:
        raise RulesError(
            _t(
                "{count} bots for {players} seats: name at most {players}",
                count=len(bots),
                players=players,
            )
        )
    return tuple(bots) + (bots[-1],) * (players - len(bots))


def derive_seed(seed: int, *parts: int) -> int:
    """The seed of one part of a run (a deal: ``(seed, deal)``; a seat's bot: ``(seed,
    deal, index, seat)``): the same parts give the same seed, and none reveals another."""
    text = ":".join(str(p) for p in (seed, *parts)).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:6], "big")


def seating(spec: ArenaSpec, index: int) -> list[str]:
    """The spec of each seat in game ``index`` (rotation ``index % n``)."""
    n = spec.players
    rotation = index % n
    return [spec.lineup[(seat - rotation) % n] for seat in range(n)]


def play_game(
    spec: ArenaSpec, index: int, make: Callable[..., botlib.Bot] = botlib.make
) -> GameResult:
    """Play game ``index`` of the arena (deterministic for the arena seed and index).

    ``make(spec, seed=...)`` makes each seat's bot (:func:`tikki.bots.make`; a caller
    may seat a player of its own, e.g. a policy being trained, under a spec it chooses)."""
    game = spec.load()
    n = spec.players
    deal = index // n
    seats = seating(spec, index)
    state = game.new_state(seed=derive_seed(spec.seed, deal))
    players = [
        make(s, seed=derive_seed(spec.seed, deal, index, seat)) for seat, s in enumerate(seats)
    ]
    think = [0.0] * n
    decisions = [0] * n
    times: list[list[float]] = [[] for _ in range(n)]
    forfeit, error = None, None
    try:
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            view = state.view(seat)
            start = time.perf_counter()
            try:
                move = players[seat].choose(game, view)
                state.play(move)
            except (BotFailure, RulesError, ValueError) as err:
                forfeit, error = seat, f"seat {seat} ({seats[seat]}): {err}"
                break
            finally:
                elapsed = time.perf_counter() - start
                think[seat] += elapsed
                times[seat].append(elapsed)
                decisions[seat] += 1
    finally:
        for bot in players:
            end = getattr(bot, "end", None)
            if end is not None:
                end(state.outcome)
    return GameResult(
        index=index,
        deal=deal,
        seats=seats,
        outcome=state.outcome,
        moves=len(state.moves),
        think=think,
        decisions=decisions,
        record=state.record(),
        forfeit=forfeit,
        error=error,
        move_seconds=times,
    )


def _play_task(task: tuple[ArenaSpec, int]) -> GameResult:
    return play_game(*task)


def play_chunk(
    spec: ArenaSpec, indices: Sequence[int], factories: Mapping[str, botlib.BotFactory]
) -> list[GameResult]:
    """Play the games ``indices`` in a worker, after registering the driver's own bots
    (``factories``, from :func:`shipped_bots`)."""
    install_bots(factories)
    return [play_game(spec, i) for i in indices]


def install_bots(factories: Mapping[str, botlib.BotFactory]) -> None:
    """Register ``factories`` (bots the driver registered) in this worker process."""
    for name, factory in factories.items():
        botlib.register_bot(name, factory)


SPAWN_GUARD = (
    "a worker process of the arena died while starting. With jobs > 1 every worker imports "
    'your script again: put the arena call under `if __name__ == "__main__":` (and '
    "define your bots at the top level of the script or of a module)"
)
"""The message of a pool whose workers die as they start (an unguarded script)."""


def shipped_bots(
    lineup: Sequence[str], dumps: Callable[[Any], bytes] = pickle.dumps
) -> dict[str, botlib.BotFactory]:
    """The bots of ``lineup`` that were registered in this process (``register_bot``), to be
    registered in each worker; refuses clearly a factory that ``dumps`` cannot send."""
    names = {botlib.parse_spec(spec)[0] for spec in lineup}
    factories = botlib.registered(names)
    for name, factory in factories.items():
        try:
            dumps(factory)
        except (pickle.PicklingError, AttributeError, TypeError) as err:
            raise RulesError(
                _t(
                    "bot {name!r} cannot be sent to worker processes ({err}): define it at "
                    "the top level of a module, or register it by import path, "
                    "register_bot({name!r}, 'module:Class')",
                    name=name,
                    err=err,
                )
            ) from None
    return factories


def _refuse_in_bootstrap() -> None:
    """Stop an arena that a spawned worker starts while importing the script (no
    ``__main__`` guard), instead of letting it start workers of its own."""
    if getattr(multiprocessing.current_process(), "_inheriting", False):
        raise RuntimeError(SPAWN_GUARD)


def run(
    spec: ArenaSpec,
    jobs: int = 1,
    on_result: Callable[[GameResult], None] | None = None,
    ray: str | None = None,
    skip: Collection[int] = (),
) -> list[GameResult]:
    """Play every game of the arena, ``jobs`` worker processes; results in game order.

    ``ray``: play the games as Ray tasks instead (``"local"``, ``"auto"`` or an address;
    :mod:`tikki.arena_ray`), with ``jobs`` CPUs for a local Ray when above 1.
    ``skip``: the indices of games not to play (a run resumed: they were played before;
    every other game is exactly as in the whole run).  Bots registered in this process
    (``bots.register_bot``) are registered in the workers too.  A script that runs the
    arena with ``jobs > 1`` or Ray needs the ``if __name__ == "__main__":`` guard; without
    it the run stops with :data:`SPAWN_GUARD` instead of hanging.
    """
    if ray is not None:
        if skip:
            raise ValueError("a Ray run plays every game: skip needs the local pool")
        return arena_ray.run(
            spec,
            play_chunk,
            lambda dumps: shipped_bots(spec.lineup, dumps),
            ray,
            on_result,
            jobs if jobs > 1 else None,
        )
    tasks = [(spec, i) for i in range(spec.games) if i not in skip]
    results: list[GameResult] = []
    if jobs <= 1:
        stream: Iterator[GameResult] = map(_play_task, tasks)
        for result in stream:
            results.append(result)
            if on_result:
                on_result(result)
        return results
    _refuse_in_bootstrap()
    factories = shipped_bots(spec.lineup)
    indices = [i for _, i in tasks]
    size = max(1, len(indices) // (jobs * 20))
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(jobs, mp_context=ctx) as pool:
        futures = [
            pool.submit(play_chunk, spec, indices[k : k + size], factories)
            for k in range(0, len(indices), size)
        ]
        try:
            for future in as_completed(futures):
                for result in future.result():
                    results.append(result)
                    if on_result:
                        on_result(result)
        except BrokenProcessPool:
            raise RuntimeError(SPAWN_GUARD) from None
    results.sort(key=lambda r: r.index)
    return results


# --- statistics ---------------------------------------------------------------------------


@dataclass
class BotStats:
    """The pooled results of one bot spec."""

    bot: str
    seats: int = 0
    losses: int = 0
    abandoned: int = 0
    forfeits: int = 0
    moves: int = 0
    games: set[int] = field(default_factory=set)
    think: float = 0.0
    decisions: int = 0
    per_round: list[float] = field(default_factory=list)
    advantage: list[float] = field(default_factory=list)
    deals: list[int] = field(default_factory=list)
    """The deal of each ``per_round``/``advantage`` value (its duplicate-deal cluster)."""
    move_times: list[float] = field(default_factory=list)

    def as_dict(self) -> JSON:
        """JSON-ready figures, intervals included."""
        out: JSON = {
            "bot": self.bot,
            "seat_games": self.seats,
            "games": len(self.games),
            "abandoned": self.abandoned,
            "forfeits": self.forfeits,
            "mean_moves": self.moves / len(self.games) if self.games else 0.0,
            "seconds_per_move": self.think / self.decisions if self.decisions else 0.0,
            **think_quantiles(self.move_times),
        }
        if self.per_round:
            out["mean_score_per_round"], out["score_ci"] = clustered_mean_ci(
                self.per_round, self.deals
            )
            out["mean_advantage"], out["advantage_ci"] = clustered_mean_ci(
                self.advantage, self.deals
            )
            out["deals"] = len(set(self.deals))
        else:
            out["losses"] = self.losses
            out["loss_rate"] = self.losses / self.seats if self.seats else 0.0
            out["loss_ci"] = wilson(self.losses, self.seats)
        return out


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """Wilson 95% interval of a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + Z95**2 / trials
    centre = (p + Z95**2 / (2 * trials)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / trials + Z95**2 / (4 * trials**2)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: Sequence[float]) -> tuple[float, tuple[float, float]]:
    """Mean and normal 95% interval of the mean."""
    if not values:
        return 0.0, (0.0, 0.0)
    mean = sum(values) / len(values)
    if len(values) < 2:
        return mean, (mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    half = Z95 * math.sqrt(var / len(values))
    return mean, (mean - half, mean + half)


def clustered_mean_ci(
    values: Sequence[float], clusters: Sequence[int]
) -> tuple[float, tuple[float, float]]:
    """Mean and 95% interval that treat each cluster (a duplicate deal) as one draw.

    The games of one deal share its cards, so their results are correlated; the interval
    is the normal interval of the per-deal means (balanced duplicate play gives every
    deal the same number of values, so their mean is the overall mean).
    """
    by_cluster: dict[int, list[float]] = {}
    for value, cluster in zip(values, clusters, strict=True):
        by_cluster.setdefault(cluster, []).append(value)
    means = [sum(v) / len(v) for v in by_cluster.values()]
    return mean_ci(means)


def think_quantiles(times: Sequence[float]) -> dict[str, float]:
    """``think_p50``, ``think_p90`` and ``think_max`` (seconds) of per-move think times."""
    if not times:
        return {"think_p50": 0.0, "think_p90": 0.0, "think_max": 0.0}
    ordered = sorted(times)

    def quantile(q: float) -> float:
        return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]

    return {"think_p50": quantile(0.5), "think_p90": quantile(0.9), "think_max": ordered[-1]}


def summarize(results: Sequence[GameResult], lineup: Sequence[str]) -> list[BotStats]:
    """Pool the results by bot spec, in lineup order."""
    stats = {name: BotStats(name) for name in dict.fromkeys(lineup)}
    for result in results:
        outcome = result.outcome
        for seat, name in enumerate(result.seats):
            s = stats[name]
            s.seats += 1
            s.games.add(result.index)
            s.think += result.think[seat]
            s.decisions += result.decisions[seat]
            if result.move_seconds:
                s.move_times.extend(result.move_seconds[seat])
            s.abandoned += result.abandoned
            lost = result.forfeit == seat or result.abandoned
            if outcome is not None and "scores" in outcome:
                _score_stats(s, outcome, seat, result.forfeit, result.deal)
            elif outcome is not None and outcome.get("loser") == seat:
                lost = True
            s.losses += lost
            s.forfeits += result.forfeit == seat
        for name in set(result.seats):
            stats[name].moves += result.moves
    return list(stats.values())


def _score_stats(
    s: BotStats, outcome: Mapping[str, Any], seat: int, forfeit: int | None, deal: int
) -> None:
    rounds = max(1, len(outcome["rounds"]))
    scores = [sc / rounds for sc in outcome["scores"]]
    if forfeit is not None or outcome.get("abandoned"):
        return
    others = [sc for i, sc in enumerate(scores) if i != seat]
    s.per_round.append(scores[seat])
    s.advantage.append(scores[seat] - sum(others) / len(others))
    s.deals.append(deal)


def ratings(
    results: Sequence[GameResult], fixed: Mapping[str, tuple[float, float]] | None = None
) -> dict[str, tuple[float, float, float]]:
    """OpenSkill (Plackett–Luce) ratings of the bots: ``{bot: (ordinal, mu, sigma)}``.

    ``fixed``: bots whose ``(mu, sigma)`` is known and kept (anchors): the others are
    rated against them, as a newcomer is against established players."""
    model = PlackettLuce()
    kept = dict(fixed or {})
    players: dict[str, Any] = {
        name: model.rating(mu=mu, sigma=sigma, name=name) for name, (mu, sigma) in kept.items()
    }
    for result in results:
        places = _places(result)
        if places is None:
            continue
        names = sorted(set(result.seats))
        if len(names) < 2:
            continue
        for name in names:
            players.setdefault(name, model.rating(name=name))
        mean_place = {
            name: sum(p for seat, p in enumerate(places) if result.seats[seat] == name)
            / result.seats.count(name)
            for name in names
        }
        teams = [[players[name]] for name in names]
        rated = model.rate(teams, ranks=[mean_place[name] for name in names])
        for name, team in zip(names, rated, strict=True):
            if name not in kept:
                players[name] = team[0]
    return {name: (r.ordinal(), r.mu, r.sigma) for name, r in players.items()}


def _places(result: GameResult) -> list[float] | None:
    """Each seat's place (1 best) in a game, or ``None`` for an abandoned game."""
    outcome = result.outcome
    n = len(result.seats)
    if result.forfeit is not None:
        return [float(n) if s == result.forfeit else 1.0 for s in range(n)]
    if outcome is None or outcome.get("abandoned"):
        return None
    if "scores" in outcome:
        scores = outcome["scores"]
        return [1.0 + sum(1 for o in scores if o > sc) for sc in scores]
    order = outcome["out_order"]
    return [float(order.index(s) + 1) if s in order else float(n) for s in range(n)]


# --- storage ------------------------------------------------------------------------------

SCHEMA = """
CREATE TABLE IF NOT EXISTS arenas (
    id INTEGER PRIMARY KEY, started TEXT, game TEXT, players INTEGER, options TEXT,
    lineup TEXT, games INTEGER, seed INTEGER
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY, arena INTEGER REFERENCES arenas(id), idx INTEGER, deal INTEGER,
    seats TEXT, outcome TEXT, moves INTEGER, forfeit INTEGER, error TEXT, record TEXT,
    think TEXT
);
"""


def store(path: Path, spec: ArenaSpec, results: Sequence[GameResult]) -> int:
    """Write the arena and every game (record included) to SQLite; return the arena id."""
    with sqlite3.connect(path) as db:
        db.executescript(SCHEMA)
        cur = db.execute(
            "INSERT INTO arenas (started, game, players, options, lineup, games, seed)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                time.strftime("%Y-%m-%d %H:%M:%S"),
                spec.game,
                spec.players,
                json.dumps(dict(spec.options)),
                json.dumps(list(spec.lineup)),
                spec.games,
                spec.seed,
            ),
        )
        arena_id = cur.lastrowid
        assert arena_id is not None
        db.executemany(
            "INSERT INTO games (arena, idx, deal, seats, outcome, moves, forfeit, error, record,"
            " think) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    arena_id,
                    r.index,
                    r.deal,
                    json.dumps(r.seats),
                    json.dumps(r.outcome),
                    r.moves,
                    r.forfeit,
                    r.error,
                    json.dumps(r.record),
                    json.dumps(r.think),
                )
                for r in results
            ],
        )
    return arena_id


def load_record(path: Path, game_id: int) -> JSON:
    """The record of a stored game, by its id (as printed by the arena)."""
    if not path.exists():
        raise RulesError(_t("no database {path}", path=path))
    with sqlite3.connect(path) as db:
        try:
            row = db.execute("SELECT record FROM games WHERE id = ?", (game_id,)).fetchone()
        except sqlite3.DatabaseError as err:
            raise RulesError(
                _t("{path} is not an arena database: {err}", path=path, err=err)
            ) from None
    if row is None:
        raise RulesError(_t("no game {game_id} in {path}", game_id=game_id, path=path))
    record: JSON = json.loads(row[0])
    return record


def game_ids(path: Path, arena_id: int) -> tuple[int, int]:
    """The first and last game id of an arena."""
    with sqlite3.connect(path) as db:
        row = db.execute(
            "SELECT MIN(id), MAX(id) FROM games WHERE arena = ?", (arena_id,)
        ).fetchone()
    return int(row[0]), int(row[1])


# --- plot ---------------------------------------------------------------------------------


def plot(path: Path, spec: ArenaSpec, stats: Sequence[BotStats]) -> None:
    """A PNG bar chart of each bot's loss rate (or score advantage) with its interval."""
    extras.require("plot", "arena plots")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figures = [s.as_dict() for s in stats]
    names = [f["bot"] for f in figures]
    if "loss_rate" in figures[0]:
        values = [f["loss_rate"] for f in figures]
        lows = [f["loss_rate"] - f["loss_ci"][0] for f in figures]
        highs = [f["loss_ci"][1] - f["loss_rate"] for f in figures]
        label, line = "loss rate (95% interval)", 1 / spec.players
        baseline = f"a random player's loss rate (1 in {spec.players})"
    else:
        values = [f["mean_advantage"] for f in figures]
        lows = [f["mean_advantage"] - f["advantage_ci"][0] for f in figures]
        highs = [f["advantage_ci"][1] - f["mean_advantage"] for f in figures]
        label, line = "score per round minus the others' mean (95% interval)", 0.0
        baseline = "no advantage (0)"
    lows = [max(0.0, v) for v in lows]
    highs = [max(0.0, v) for v in highs]
    fig, ax = plt.subplots(figsize=(PLOT_INCHES[0], PLOT_INCHES[1]))
    # One deal gives no interval (its bounds are the value itself): no error bar then.
    errors = [lows, highs] if any(lows) or any(highs) else None
    ax.bar(names, values, yerr=errors, capsize=6, color="#4477aa", label=label)
    # A short dark tick at each bar's value, so that a bar of height zero still shows.
    ax.scatter(names, values, marker="_", s=900, linewidths=3, color="#223355", zorder=3)
    ax.axhline(line, color="grey", linestyle="--", linewidth=1, label=baseline)
    ax.set_ylabel(label)
    ax.legend(loc="best")
    title = spec.load().title  # the game's title (with umlauts), not its id
    ax.set_title(f"{title}, {spec.players} players, {spec.games} games (seed {spec.seed})")
    fig.tight_layout()
    fig.savefig(path, dpi=PLOT_DPI)
    plt.close(fig)


PLOT_INCHES = (12.0, 6.0)
"""Size of the arena plot in inches; at :data:`PLOT_DPI` it is 1200 × 600 pixels."""
PLOT_DPI = 100


def result_json(result: GameResult) -> JSON:
    """A game result as JSON (for tests and exports)."""
    return asdict(result)
