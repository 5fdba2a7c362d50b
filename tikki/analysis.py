"""Game analysis: the value of every legal move of one seat, from that seat's view only.

:func:`analyse` replays a record and, at every decision of the chosen seat that offered a
choice (forced moves are skipped), estimates the value of **each** legal move by
determinized Monte Carlo:

1. ``samples`` full states are drawn from the seat's **view** with the game's determinizer
   (``game.sampler(view)``: the hidden cards dealt at random among the places the seat
   cannot see).  The analysis never receives the real state: only the view, so nothing it
   says can depend on a card the seat could not see.
2. For every sample, every legal move is played on a copy and the game is played on with
   the rollout policy (the game's fast *greedy* playout by default, as the ``ismcts`` bot's
   rollouts).  All moves share the same samples and the same rollout random numbers
   (common random numbers), so the differences between moves carry little noise.
3. A move's **value** is, for the shedding games (Myllymatti, Mattis), the seat's chance of
   **not** being the loser, and for Mückenstich the seat's expected points at the end of
   the round in progress.

The **loss** of the played move is the best move's value minus the played move's value.
Labels follow :data:`THRESHOLDS` (inaccuracy, mistake, blunder), and a move is labelled
only when its loss is also more than two standard errors of the paired difference, so
noise alone does not label a move.  **Accuracy** is the share of decisions without a label.

Every decision has its own random stream, derived from ``seed`` and the move number, so the
result for a seed is the same whatever ``jobs`` is.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from tikki.core import Game, RulesError, State, load, replay
from tikki.i18n import _ as _t
from tikki.i18n import ngettext

ROLLOUTS = ("greedy", "random", "heuristic")
"""Rollout policies of the analysis: the game's fast greedy playout (``ismcts``'s own),
uniform moves, or the game's heuristic bot at every seat (faithful, about 20× slower)."""
THRESHOLDS: Mapping[str, tuple[float, float, float]] = {
    "not_loser": (0.05, 0.10, 0.20),
    "points": (1.0, 2.0, 4.0),
}
"""Loss thresholds of (inaccuracy, mistake, blunder), per kind of value: in chance of not
being the loser (5, 10 and 20 percentage points), or in expected points (1, 2 and 4)."""
LABELS = ("inaccuracy", "mistake", "blunder")
"""The labels, mildest first."""


def label_word(label: str) -> str:
    """A label as people read it, in the current language (``blunder``: ``törkeä virhe``)."""
    words = {"inaccuracy": _t("inaccuracy"), "mistake": _t("mistake"), "blunder": _t("blunder")}
    return words[label]


def label_count(label: str, n: int) -> str:
    """``2 blunders``, ``2 törkeää virhettä``, ``2 grobe Fehler``."""
    if label == "inaccuracy":
        return ngettext("{n} inaccuracy", "{n} inaccuracies", n)
    if label == "mistake":
        return ngettext("{n} mistake", "{n} mistakes", n)
    return ngettext("{n} blunder", "{n} blunders", n)


SAMPLES = 100
"""Default number of determinizations per decision."""
GREEDY = 0.9
"""How often the greedy rollout takes the game's cheap heuristic move (as ``ismcts``)."""


@dataclass(frozen=True)
class Decision:
    """One decision of the analysed seat: every legal move's value and the verdict."""

    number: int
    """The move's number in the game (1 = the first move)."""
    seat: int
    phase: str
    played: str
    values: dict[str, float]
    """Each legal move's estimated value (see the module), best first."""
    best: str
    loss: float
    """The best value minus the played move's value (0 when the played move is best)."""
    error: float
    """The standard error of the loss (paired over the samples)."""
    label: str | None
    """``inaccuracy``, ``mistake``, ``blunder`` or ``None``."""

    @property
    def value(self) -> float:
        """The value of the position before the move: its best move's value."""
        return self.values[self.best]


@dataclass(frozen=True)
class Analysis:
    """The analysis of one seat's decisions in one game."""

    game: str
    players: int
    seat: int
    kind: str
    """``not_loser`` (chance of not being the loser) or ``points`` (expected points)."""
    samples: int
    rollout: str
    seed: int
    decisions: list[Decision] = field(default_factory=list)

    @property
    def accuracy(self) -> float:
        """The share (0–1) of decisions without a label (1 when there was no choice)."""
        if not self.decisions:
            return 1.0
        return sum(1 for d in self.decisions if d.label is None) / len(self.decisions)

    def counts(self) -> dict[str, int]:
        """How many decisions got each label."""
        return {label: sum(1 for d in self.decisions if d.label == label) for label in LABELS}

    def worst(self, k: int = 3) -> list[Decision]:
        """The ``k`` labelled decisions with the largest losses, largest first."""
        labelled = [d for d in self.decisions if d.label is not None]
        return sorted(labelled, key=lambda d: (-d.loss, d.number))[:k]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: the settings, the summary and every decision."""
        return {
            "game": self.game,
            "players": self.players,
            "seat": self.seat,
            "kind": self.kind,
            "samples": self.samples,
            "rollout": self.rollout,
            "seed": self.seed,
            "thresholds": dict(zip(LABELS, THRESHOLDS[self.kind], strict=True)),
            "accuracy": self.accuracy,
            "counts": self.counts(),
            "worst": [d.number for d in self.worst()],
            "decisions": [asdict(d) | {"value": d.value} for d in self.decisions],
        }


def value_kind(game: Game) -> str:
    """``points`` for games scored in points (Mückenstich), else ``not_loser``."""
    return "points" if game.name == "mueckenstich" else "not_loser"


def label_for(kind: str, loss: float, error: float) -> str | None:
    """The label of a loss: the strongest threshold it reaches, if above two errors."""
    if loss <= 2 * error:
        return None
    found = None
    for label, threshold in zip(LABELS, THRESHOLDS[kind], strict=True):
        if loss >= threshold - 1e-12:
            found = label
    return found


# --- one decision -------------------------------------------------------------------------


def _rollout(state: State, rng: random.Random, rollout: str) -> None:
    """Play ``state`` on to the end of the round (points games) or of the game."""
    if rollout == "heuristic":
        _heuristic_rollout(state, rng)
        return
    state.random_playout(rng, GREEDY if rollout == "greedy" else 0.0, rounds=1)


def _heuristic_rollout(state: State, rng: random.Random) -> None:
    from tikki.bots.heuristic import policy_for

    game = state.game
    policy = policy_for(game)
    start = state.round
    while not state.is_over and state.round == start:
        seat = state.current_player
        state.play(policy(game, state.view(seat), rng))


def _score(state: State, seat: int, kind: str) -> float:
    """The seat's result where a rollout stopped, as the analysis values it."""
    if kind == "points":
        outcome = state.outcome
        if outcome is not None:
            return float(outcome["returns"][seat])
        return state.returns_so_far()[seat]
    outcome = state.outcome
    if outcome is None:  # pragma: no cover - shedding rollouts always end the game
        return 0.0
    return 1.0 if outcome["returns"][seat] >= 0 else 0.0


def decision_seed(seed: int, number: int) -> int:
    """The random stream of decision ``number`` (the same whatever the job split)."""
    return (seed * 1_000_003 + number) & ((1 << 63) - 1)


def evaluate(
    game: Game,
    view: Mapping[str, Any],
    samples: int = SAMPLES,
    rollout: str = "greedy",
    seed: int = 0,
) -> dict[str, list[float]]:
    """Each legal move of ``view``'s seat, with its result in each of ``samples`` rollouts.

    Only ``view`` is read: the states are drawn from it by the game's determinizer.
    """
    legal = [str(m) for m in view.get("legal_moves") or []]
    seat = view.get("seat")
    if not legal or not isinstance(seat, int):
        raise RulesError(_t("the view has no legal moves: it is not this seat's turn"))
    kind = value_kind(game)
    sample = game.sampler(view)
    rng = random.Random(seed)
    results: dict[str, list[float]] = {m: [] for m in legal}
    for _ in range(samples):
        base = sample(rng)
        stream = rng.getrandbits(64)
        for move in legal:
            state = base.clone()
            state.play(move)
            if not state.is_over:
                _rollout(state, random.Random(stream), rollout)
            results[move].append(_score(state, seat, kind))
    return results


def judge(
    number: int, seat: int, phase: str, played: str, results: Mapping[str, Sequence[float]],
    kind: str,
) -> Decision:  # fmt: skip
    """The :class:`Decision` of a played move, from every move's rollout results."""
    means = {m: sum(r) / len(r) for m, r in results.items()}
    order = sorted(means, key=lambda m: (-means[m], m != played, m))  # a tie: played
    best = order[0]
    diffs = [b - p for b, p in zip(results[best], results[played], strict=True)]
    loss = max(0.0, means[best] - means[played])
    error = _standard_error(diffs)
    return Decision(
        number=number,
        seat=seat,
        phase=phase,
        played=played,
        values={m: means[m] for m in order},
        best=best,
        loss=loss,
        error=error,
        label=label_for(kind, loss, error) if played != best else None,
    )


def _standard_error(values: Sequence[float]) -> float:
    n = len(values)
    if n < 2:
        return 0.0
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return math.sqrt(var / n)


# --- a whole record -----------------------------------------------------------------------

Task = tuple[str, int, str, tuple[tuple[str, Any], ...], dict[str, Any], int, str, str, int, str]
"""What one decision's job needs: game, players, rules, options, view, number, phase,
played move, seed and rollout (picklable, for worker processes)."""


def judge_task(task: Task, samples: int) -> Decision:
    """Judge one decision (a :data:`Task`); runs in worker processes too."""
    name, players, rules, options, view, number, phase, played, seed, rollout = task
    game = load(name, players, rules=rules, **dict(options))
    results = evaluate(game, view, samples, rollout, seed)
    return judge(number, int(view["seat"]), phase, played, results, value_kind(game))


Found = list[tuple[int, str, str, dict[str, Any]]]
"""A seat's decisions with a choice: (move number, phase, move played, the seat's view)."""


def decisions_of(record: Mapping[str, Any], seat: int) -> tuple[Game, Found]:
    """Replay ``record``; the seat's decisions with a choice: (number, phase, move, view)."""
    found: Found = []
    moves = list(record.get("moves") or [])
    cut = dict(record)
    cut["moves"] = []
    cut.pop("outcome", None)
    state = replay(cut)
    game = state.game
    if not 0 <= seat < game.players:
        raise RulesError(_t("no seat {seat}: seats are 0–{last}", seat=seat, last=game.players - 1))
    for i, move in enumerate(moves):
        if state.current_player == seat and len(state.legal_moves()) > 1:
            found.append((i + 1, state.phase, str(move), state.view(seat)))
        state.play(move)
    return game, found


def analyse(
    record: Mapping[str, Any],
    seat: int,
    samples: int = SAMPLES,
    rollout: str = "greedy",
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    first: int = 1,
) -> Analysis:
    """Analyse every decision of ``seat`` in ``record`` from move number ``first`` on
    (see the module).

    ``progress(done, total)`` is called after each decision.  The record is replayed and
    checked first: a malformed or illegal one raises :class:`RulesError`.
    """
    if rollout not in ROLLOUTS:
        choices = _t(" or ").join(ROLLOUTS)
        raise RulesError(
            _t("the analysis rollout is {choices}, not {value!r}", choices=choices, value=rollout)
        )
    if samples < 2:
        raise RulesError(
            _t("the analysis needs at least 2 samples, not {samples}", samples=samples)
        )
    if jobs < 1:
        raise RulesError(_t("jobs is 1 or more, not {jobs}", jobs=jobs))
    replay(record)  # the whole record is valid before any work starts
    game, found = decisions_of(record, seat)
    options = tuple(sorted(game.options.items()))
    tasks: list[Task] = [
        (game.name, game.players, game.rules, options, view, number, phase, played,
         decision_seed(seed, number), rollout)
        for number, phase, played, view in found
        if number >= first
    ]  # fmt: skip
    decisions = _map(tasks, samples, jobs, progress)
    return Analysis(
        game=game.name,
        players=game.players,
        seat=seat,
        kind=value_kind(game),
        samples=samples,
        rollout=rollout,
        seed=seed,
        decisions=decisions,
    )


def _map(
    tasks: list[Task], samples: int, jobs: int, progress: Callable[[int, int], None] | None
) -> list[Decision]:
    done: list[Decision] = []
    if jobs == 1 or len(tasks) < 2:
        for task in tasks:
            done.append(judge_task(task, samples))
            if progress is not None:
                progress(len(done), len(tasks))
        return done
    with ProcessPoolExecutor(min(jobs, len(tasks))) as pool:
        for decision in pool.map(judge_task, tasks, [samples] * len(tasks)):
            done.append(decision)
            if progress is not None:
                progress(len(done), len(tasks))
    return done


def plot(analysis: Analysis, path: Any) -> None:
    """Write a PNG chart of the position's value, decision by decision (``plot`` extra)."""
    from tikki.extras import require

    require("plot", "analyse --plot", ("matplotlib",))
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    numbers = [d.number for d in analysis.decisions]
    values = [d.value for d in analysis.decisions]
    played = [d.values[d.played] for d in analysis.decisions]
    fig, ax = plt.subplots(figsize=(12, 4), dpi=100)
    ax.plot(numbers, values, marker="o", label=_t("best move"))
    ax.plot(numbers, played, marker=".", linestyle="--", label=_t("move played"))
    colours = {"inaccuracy": "#e0a000", "mistake": "#e06000", "blunder": "#c00000"}
    for d in analysis.decisions:
        if d.label is not None:
            mark = (d.number, d.values[d.played])
            letter = label_word(d.label)[0].upper()
            ax.annotate(letter, mark, color=colours[d.label], ha="center", va="top")
    ax.set_xlabel(_t("move number"))
    if analysis.kind == "not_loser":
        ax.set_ylabel(_t("chance of not being the loser"))
        ax.set_ylim(-0.02, 1.02)
    else:
        ax.set_ylabel(_t("expected points at the end of the round"))
    title = _t(
        "{game}, seat {seat}: accuracy {accuracy}",
        game=analysis.game,
        seat=analysis.seat,
        accuracy=f"{analysis.accuracy:.0%}",
    )
    ax.set_title(title)
    ax.legend(loc="best")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


__all__ = [
    "LABELS",
    "ROLLOUTS",
    "SAMPLES",
    "THRESHOLDS",
    "Analysis",
    "Decision",
    "analyse",
    "decision_seed",
    "decisions_of",
    "evaluate",
    "judge",
    "judge_task",
    "label_count",
    "label_for",
    "label_word",
    "plot",
    "value_kind",
]
