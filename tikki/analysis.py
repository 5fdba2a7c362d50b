"""Game analysis: every decision of one seat judged by the ``expert`` bot's own search.

**One judge.**  :func:`analyse` replays a record and, at every decision of the chosen seat
that offered a choice, runs :meth:`tikki.bots.expert.ExpertBot.appraise`: the expert's
ISMCTS, with its exact endgame solver where it applies, at a budget of ``iterations``
(the expert's work budget: a move with more legal moves gets more, as the bot's own
moves do).  The hints (terminal and web table) are the same call's best move
(:func:`hint`): the hint for a position is the move the analysis rates best there, at the
same budget and seed.  "Faster" and "deeper" change only ``iterations``.

* A move's **value** is what that search returns for it from the seat's view: the mean,
  over the search's iterations through the move, of the seat's own result: for a game
  with a loser (``value_kind`` ``not_loser``) the chance of **not** being the loser, for
  one scored in points (``points``) the points the round in progress scores for the seat
  (at the round's end, not the running total).  A move the endgame solver proves an
  escape is worth 1 (and, with two players, a proven loss 0).
* The **best** move is the one the expert plays (the most visited, a proven escape, never
  a proven loss when another move is not).
* The **loss** of the played move is the best move's value minus its own (at least 0), and
  its **error** is the standard error of that difference (from the two moves' sampling
  errors; every value's own error is in ``errors``).
* A move gets a **label** (:data:`THRESHOLDS`: inaccuracy, mistake, blunder) by what is
  sure of its loss: the loss *less its error* must reach the threshold, so that sampling
  noise alone labels nothing (two seeds give the same label on about 95% of decisions,
  ``benchmarks/judge.py``).  **Accuracy** is the share of decisions without a label.

The judge never receives the real state: only the seat's view, from which the search draws
its states with the game's determinizer, or its belief where it has one (how players
really play, e.g. which cards they set aside; :func:`tikki.bots.ismcts.belief_sampler`).

Moves of a game's ``rule_phases`` (discards) are not judged: the expert plays them by rule
(:func:`tikki.bots.expert.rule_phases`), since the search hardly tells them apart.

Every decision has its own seed, derived from ``seed`` and the move number
(:func:`decision_seed`), so a result is the same whatever ``jobs`` is.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from tikki.bots.expert import FOCUS, Appraisal, ExpertBot, rule_phases, value_kind
from tikki.core import Game, RulesError, game_class, load, replay
from tikki.extras import require
from tikki.i18n import _ as _t
from tikki.i18n import ngettext

THRESHOLDS: Mapping[str, tuple[float, float, float]] = {
    "not_loser": (0.05, 0.10, 0.20),
    "points": (1.0, 2.0, 4.0),
}
"""Loss thresholds of (inaccuracy, mistake, blunder), per kind of value: in chance of not
being the loser (5, 10 and 20 percentage points), or in points (1, 2 and 4)."""
LABELS = ("inaccuracy", "mistake", "blunder")
"""The labels, mildest first."""
ITERATIONS = 1000
"""The default budget: the expert's ``iterations`` per decision (the web table's and the
terminal's default; a whole game takes well under 30 s on one core)."""
Z = 1.0
"""How many stated errors (±) wide a settled verdict's interval is on each side."""
EXTRA = 2
"""The most extra work a decision gets to settle its verdict: ``EXTRA`` times its search's
own iterations (so a decision costs at most ``1 + EXTRA`` times its budget)."""


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


def label_rule(kind: str) -> str:
    """One sentence: how a label is decided (the web page and the terminal say it)."""
    if kind == "points":
        return _t(
            "A move is labelled when the best move beats it by at least 1 point "
            "(inaccuracy), 2 (mistake) or 4 (blunder), after taking off the sampling "
            "error (±)."
        )
    return _t(
        "A move is labelled when the best move's chance beats it by at least 5% "
        "(inaccuracy), 10% (mistake) or 20% (blunder), after taking off the sampling "
        "error (±)."
    )


@dataclass(frozen=True)
class Decision:
    """One decision of the analysed seat: every legal move's value and the verdict."""

    number: int
    """The move's number in the game (1 = the first move)."""
    seat: int
    phase: str
    played: str
    values: dict[str, float]
    """Each legal move's value (see the module), the best move first."""
    errors: dict[str, float]
    """The standard error of each value."""
    best: str
    """The move the expert plays here (the hint's move)."""
    loss: float
    """The best value minus the played move's value (0 when the played move is best)."""
    error: float
    """The standard error of the loss."""
    label: str | None
    """``inaccuracy``, ``mistake``, ``blunder`` or ``None``."""
    how: str = "search"
    """How the best move was found: ``search`` or ``proof`` (the endgame solver)."""
    settled: bool = True
    """Whether the verdict is settled: the loss's interval (± :data:`Z` errors) lies
    wholly inside one label's band.  An unsettled decision has no label (unclear)."""
    extra: int = 0
    """The iterations the decision got beyond its budget to settle (at most :data:`EXTRA`
    times the budget)."""

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
    """``not_loser`` (chance of not being the loser) or ``points`` (points of the round)."""
    iterations: int
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
            "judge": "expert",
            "iterations": self.iterations,
            "seed": self.seed,
            "thresholds": dict(zip(LABELS, THRESHOLDS[self.kind], strict=True)),
            "rule": label_rule(self.kind),
            "accuracy": self.accuracy,
            "counts": self.counts(),
            "worst": [d.number for d in self.worst()],
            "decisions": [asdict(d) | {"value": d.value} for d in self.decisions],
        }


def label_for(kind: str, loss: float, error: float) -> str | None:
    """The label of a loss: the strongest threshold that the loss *less its sampling error*
    reaches (so that noise alone labels nothing)."""
    sure = loss - error
    found = None
    for label, threshold in zip(LABELS, THRESHOLDS[kind], strict=True):
        if sure >= threshold - 1e-12:
            found = label
    return found


def band(kind: str, loss: float) -> int:
    """How many of the thresholds of (inaccuracy, mistake, blunder) ``loss`` reaches."""
    return sum(1 for t in THRESHOLDS[kind] if loss >= t - 1e-12)


def label_settled(kind: str, loss: float, error: float) -> bool:
    """Whether a loss's label is settled: its interval, ± :data:`Z` errors, lies wholly
    inside one band (no label, inaccuracy, mistake, blunder)."""
    return band(kind, loss - Z * error) == band(kind, loss + Z * error)


def verdict(kind: str, loss: float, error: float) -> tuple[str | None, bool]:
    """The label of a loss and whether it is settled: a label only when settled (then it
    is :func:`label_for`'s), else none."""
    if not label_settled(kind, loss, error):
        return None, False
    return label_for(kind, loss, error), True


def rival(found: Appraisal) -> str | None:
    """The best move's rival: the most visited other move (``None`` if no other was
    visited)."""
    others = [(n, m) for m, n in found.visits.items() if m != found.best and n > 0]
    return max(others)[1] if others else None


def best_settled(found: Appraisal) -> bool:
    """Whether the best move is settled: its value's interval (± :data:`Z` errors of the
    difference) lies above its rival's, or the two are surely within the inaccuracy
    threshold of each other (so either is best).  A move decided without search (forced,
    by rule, proven) is settled."""
    other = rival(found)
    if found.how != "search" or other is None:
        return True
    diff = found.values[found.best] - found.values[other]
    error = math.hypot(found.errors[found.best], found.errors[other])
    equal = THRESHOLDS[found.kind][0]
    return diff - Z * error > 0 or abs(diff) + Z * error < equal


# --- one decision -------------------------------------------------------------------------


def decision_seed(seed: int, number: int) -> int:
    """The seed of decision ``number`` (move number; the same whatever the job split, and
    the hint's for that move)."""
    return (seed * 1_000_003 + number) & ((1 << 63) - 1)


def _check_iterations(iterations: int) -> None:
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise RulesError(
            _t("the analysis budget is 1 or more iterations, not {value!r}", value=iterations)
        )


def appraise(
    game: Game,
    view: Mapping[str, Any],
    iterations: int = ITERATIONS,
    seed: int = 0,
    focus: Sequence[str] = (),
) -> Appraisal:
    """Every legal move of ``view``'s seat as the judge values it (the expert's search at
    ``iterations``, seeded by ``seed``; the ``focus`` moves, and the best, valued surely:
    :meth:`~tikki.bots.expert.ExpertBot.appraise`).  Only ``view`` is read."""
    _check_iterations(iterations)
    if not view.get("legal_moves") or not isinstance(view.get("seat"), int):
        raise RulesError(_t("the view has no legal moves: it is not this seat's turn"))
    return ExpertBot(seed=seed, iterations=iterations).appraise(game, view, focus)


def settle_best(bot: ExpertBot, game: Game, view: Mapping[str, Any], cap: int) -> int:
    """Deepen ``bot``'s last search, by its own budget at a time and at most ``cap``
    iterations in all, until its best move is settled (:func:`best_settled`); the
    iterations spent.  Depends on the view and the seed only (the hint's move is this)."""
    budget = max(1, bot.search.last_iterations)
    spent = 0
    found = bot.current(game, view)
    while not best_settled(found) and spent + budget <= cap:
        found = bot.deepen(game, view, budget)
        spent += budget
    return spent


def settle_label(bot: ExpertBot, game: Game, view: Mapping[str, Any], played: str, cap: int) -> int:
    """More iterations through the best and the played move, doubling theirs each time and
    at most ``cap`` in all, until the played move's label is settled
    (:func:`label_settled`); the iterations spent."""
    spent = 0
    found = bot.current(game, view)
    while True:
        best = found.best
        if played == best:
            return spent
        loss, error = loss_of(found, played)
        if label_settled(found.kind, loss, error):
            return spent
        n = min(max(found.visits[best], found.visits[played], 1), (cap - spent) // 2)
        if n < 1:
            return spent
        found = bot.extend(game, view, (best, played), n)
        spent += 2 * n


def loss_of(found: Appraisal, played: str) -> tuple[float, float]:
    """The played move's loss against the best and its standard error."""
    best, values, errors = found.best, found.values, found.errors
    if played == best:
        return 0.0, 0.0
    loss = max(0.0, values[best] - values[played])
    return loss, math.sqrt(errors[best] ** 2 + errors[played] ** 2)


def settled_appraise(
    game: Game,
    view: Mapping[str, Any],
    iterations: int = ITERATIONS,
    seed: int = 0,
    played: str | None = None,
    extra: int = EXTRA,
) -> tuple[Appraisal, int]:
    """The judge's appraisal of a decision with an adaptive budget, and the extra
    iterations it took: the search at ``iterations`` (:func:`appraise`); while its best
    move is not settled it is deepened (:func:`settle_best`); then the ``played`` move and
    the best get their floor of iterations, and more while the label is not settled
    (:func:`settle_label`).  The extra work is at most ``extra`` times the search's own
    iterations."""
    _check_iterations(iterations)
    if not view.get("legal_moves") or not isinstance(view.get("seat"), int):
        raise RulesError(_t("the view has no legal moves: it is not this seat's turn"))
    bot = ExpertBot(seed=seed, iterations=iterations)
    bot.appraise(game, view)
    budget = bot.search.last_iterations
    cap = extra * max(1, budget)
    spent = settle_best(bot, game, view, cap)
    if played is None:
        return bot.current(game, view), spent
    found = bot.current(game, view)
    floor = round(budget * FOCUS)  # as :meth:`ExpertBot.appraise` with a focus
    for move in dict.fromkeys([found.best, played]):
        bot.extend(game, view, (move,), floor - found.visits.get(move, 0))
    spent += settle_label(bot, game, view, played, cap - spent)
    return bot.current(game, view), spent


def hint(
    game: Game, view: Mapping[str, Any], number: int, iterations: int = ITERATIONS, seed: int = 0
) -> str:
    """The hint for move ``number`` (1 = the game's first move) from ``view``: the move
    :func:`analyse` rates best there at the same ``iterations`` and ``seed`` (the expert's
    move, found without searching where it is forced or proven)."""
    _check_iterations(iterations)
    if not view.get("legal_moves") or not isinstance(view.get("seat"), int):
        raise RulesError(_t("the view has no legal moves: it is not this seat's turn"))
    return best_move(game, view, iterations, decision_seed(seed, number))


def best_move(game: Game, view: Mapping[str, Any], iterations: int, seed: int) -> str:
    """The expert's move, deepened as the analysis deepens it until settled
    (:func:`settle_best`; no search where the move is forced, ruled or proven)."""
    bot = ExpertBot(seed=seed, iterations=iterations)
    move = bot.choose(game, view)
    if bot.last.get("how") != "search":
        return move
    settle_best(bot, game, view, EXTRA * max(1, bot.search.last_iterations))
    return bot.current(game, view).best


def best_task(task: Task, iterations: int) -> str:
    """The judge's best move for a :data:`Task`'s view and seed (the web table's hints,
    in worker processes): :func:`hint`'s move."""
    name, players, rules, options, view, _number, _phase, _played, seed = task
    game = load(name, players, rules=rules, **dict(options))
    _check_iterations(iterations)
    return best_move(game, view, iterations, seed)


def judge(
    number: int, seat: int, phase: str, played: str, appraisal: Appraisal, extra: int = 0
) -> Decision:  # fmt: skip
    """The :class:`Decision` of a played move, from the judge's appraisal of its position
    (a label only where settled: :func:`verdict`)."""
    values, errors, best = appraisal.values, appraisal.errors, appraisal.best
    loss, error = loss_of(appraisal, played)
    label, settled = verdict(appraisal.kind, loss, error) if played != best else (None, True)
    return Decision(
        number=number,
        seat=seat,
        phase=phase,
        played=played,
        values=dict(values),
        errors=dict(errors),
        best=best,
        loss=loss,
        error=error,
        label=label,
        how="proof" if appraisal.how == "proof" else "search",
        settled=settled,
        extra=extra,
    )


# --- a whole record -----------------------------------------------------------------------

Task = tuple[str, int, str, tuple[tuple[str, Any], ...], dict[str, Any], int, str, str, int]
"""What one decision's job needs: game, players, rules, options, view, number, phase,
played move and seed (picklable, for worker processes)."""


def judge_task(task: Task, iterations: int, extra: int = EXTRA) -> Decision:
    """Judge one decision (a :data:`Task`; at most ``extra`` times its budget more to
    settle it); runs in worker processes too."""
    name, players, rules, options, view, number, phase, played, seed = task
    game = load(name, players, rules=rules, **dict(options))
    found, spent = settled_appraise(game, view, iterations, seed, played, extra)
    return judge(number, int(view["seat"]), phase, played, found, spent)


Found = list[tuple[int, str, str, dict[str, Any]]]
"""A seat's decisions with a choice: (move number, phase, move played, the seat's view)."""


def decisions_of(record: Mapping[str, Any], seat: int) -> tuple[Game, Found]:
    """Replay ``record``; the seat's judged decisions: (number, phase, move, view).  Forced
    moves and the phases the expert plays by rule are left out."""
    found: Found = []
    moves = list(record.get("moves") or [])
    cut = dict(record)
    cut["moves"] = []
    cut.pop("outcome", None)
    state = replay(cut)
    game = state.game
    if not 0 <= seat < game.players:
        raise RulesError(_t("no seat {seat}: seats are 0–{last}", seat=seat, last=game.players - 1))
    ruled = rule_phases(game)
    for i, move in enumerate(moves):
        if (
            state.current_player == seat
            and state.phase not in ruled
            and len(state.legal_moves()) > 1
        ):
            found.append((i + 1, state.phase, str(move), state.view(seat)))
        state.play(move)
    return game, found


def tasks_of(
    record: Mapping[str, Any], seat: int, seed: int = 0, first: int = 1
) -> tuple[Game, list[Task]]:
    """The game and the jobs of ``seat``'s judged decisions from move ``first`` on (the record is
    replayed and checked first: a malformed or illegal one raises :class:`RulesError`)."""
    replay(record)  # the whole record is valid before any work starts
    game, found = decisions_of(record, seat)
    options = tuple(sorted(game.options.items()))
    return game, [
        (game.name, game.players, game.rules, options, view, number, phase, played,
         decision_seed(seed, number))
        for number, phase, played, view in found
        if number >= first
    ]  # fmt: skip


def analyse(
    record: Mapping[str, Any],
    seat: int,
    iterations: int = ITERATIONS,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    first: int = 1,
    extra: int = EXTRA,
) -> Analysis:
    """Analyse every decision of ``seat`` in ``record`` from move number ``first`` on
    (see the module; ``extra``: the most extra work a decision gets to settle, in times its
    budget).

    ``progress(done, total)`` is called after each decision.  The record is replayed and
    checked first: a malformed or illegal one raises :class:`RulesError`.
    """
    _check_iterations(iterations)
    if jobs < 1:
        raise RulesError(_t("jobs is 1 or more, not {jobs}", jobs=jobs))
    game, tasks = tasks_of(record, seat, seed, first)
    decisions = _map(tasks, iterations, jobs, progress, extra)
    return result_of(game, seat, iterations, seed, decisions)


def result_of(
    game: Game, seat: int, iterations: int, seed: int, decisions: list[Decision]
) -> Analysis:
    """The :class:`Analysis` of judged ``decisions`` (the web table builds it too)."""
    return Analysis(
        game=game.name,
        players=game.players,
        seat=seat,
        kind=value_kind(game),
        iterations=iterations,
        seed=seed,
        decisions=decisions,
    )


def _map(
    tasks: list[Task],
    iterations: int,
    jobs: int,
    progress: Callable[[int, int], None] | None,
    extra: int = EXTRA,
) -> list[Decision]:
    done: list[Decision] = []
    if jobs == 1 or len(tasks) < 2:
        for task in tasks:
            done.append(judge_task(task, iterations, extra))
            if progress is not None:
                progress(len(done), len(tasks))
        return done
    with ProcessPoolExecutor(min(jobs, len(tasks))) as pool:
        n = len(tasks)
        for decision in pool.map(judge_task, tasks, [iterations] * n, [extra] * n):
            done.append(decision)
            if progress is not None:
                progress(len(done), len(tasks))
    return done


def plot(analysis: Analysis, path: Any) -> None:
    """Write a PNG chart of the position's value, decision by decision (``plot`` extra)."""
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
    for label in sorted({d.label for d in analysis.decisions if d.label}, key=LABELS.index):
        word = label_word(label)  # the letters' legend: "B = blunder"
        ax.plot([], [], linestyle="none", marker=f"${word[0].upper()}$", color=colours[label],
                label=f"{word[0].upper()} = {word}")  # fmt: skip
    ax.set_xlabel(_t("move number"))
    if analysis.kind == "not_loser":
        ax.set_ylabel(_t("chance of not being the loser"))
        ax.set_ylim(-0.02, 1.02)
    else:
        ax.set_ylabel(_t("expected points of the round (at its end)"))
    title = _t(
        "{game}, seat {seat}: accuracy {accuracy}",
        game=game_class(analysis.game).title,
        seat=analysis.seat,
        accuracy=f"{analysis.accuracy:.0%}",
    )
    ax.set_title(title)
    ax.legend(loc="best")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


__all__ = [
    "EXTRA",
    "ITERATIONS",
    "LABELS",
    "THRESHOLDS",
    "Analysis",
    "Decision",
    "Task",
    "Z",
    "analyse",
    "appraise",
    "band",
    "best_move",
    "best_settled",
    "best_task",
    "decision_seed",
    "decisions_of",
    "hint",
    "judge",
    "judge_task",
    "label_count",
    "label_for",
    "label_rule",
    "label_settled",
    "label_word",
    "loss_of",
    "plot",
    "result_of",
    "rival",
    "settle_best",
    "settle_label",
    "settled_appraise",
    "tasks_of",
    "value_kind",
    "verdict",
]
