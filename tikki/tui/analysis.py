"""A game's analysis in the terminal: the progress bar, the decisions table and the summary.

Shared by ``tikki analyse`` and the end of a terminal game (which offers to run it).  Moves
are shown as in the game (``9♦``, ``5♥+6♥``), styled by suit.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from tikki import analysis
from tikki.analysis import label_count, label_rule, label_word
from tikki.core import RulesError, game_class
from tikki.i18n import _, current, ngettext
from tikki.tui.common import move_text, phase_word

OFFER_JOBS = 2
"""Worker processes for the analysis offered at the end of a terminal game (at most the
machine's cores; results do not depend on it)."""


def progress_bar(console: Console) -> Progress:
    """A transient bar: what is analysed, decisions done of all, time left."""
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    return Progress(*columns, console=console, transient=True)


def run(
    console: Console,
    record: Mapping[str, Any],
    seat: int,
    iterations: int,
    seed: int = 0,
    jobs: int = 1,
    first: int = 1,
) -> Any:
    """:func:`tikki.analysis.analyse` with a progress bar; its result (or its RulesError)."""
    with progress_bar(console) as progress:
        task = progress.add_task(_("analysing seat {seat}", seat=seat), total=None)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        return analysis.analyse(record, seat, iterations, seed, jobs, advance, first)


def offer_jobs() -> int:
    """Processes for the offered analysis: :data:`OFFER_JOBS`, or fewer cores."""
    return max(1, min(OFFER_JOBS, os.cpu_count() or 1))


def game_title(name: str) -> str:
    """A game's title (its ``title``, with umlauts) from its registered name."""
    try:
        return game_class(name).title
    except RulesError:
        return name


def decimal(text: str) -> str:
    """Numbers with the decimal mark of the language: ``2.9`` in English, ``2,9`` in
    Finnish and German."""
    return text.replace(".", ",") if current() in ("fi", "de") else text


def table(result: Any, fmt: Callable[[float], str]) -> Table:
    """One row per decision: the move played, the best one, their values and the verdict."""
    game = game_title(result.game)
    if result.kind == "not_loser":
        title = _("{game}, seat {seat}: chance of not losing", game=game, seat=result.seat)
    else:
        title = _(
            "{game}, seat {seat}: points the round will score (at its end, not the running total)",
            game=game,
            seat=result.seat,
        )
    shown = Table(title=title, box=box.SIMPLE_HEAD)
    for column, right in (
        (_("move"), False),
        (_("phase"), False),
        (_("played"), False),
        (_("its value"), True),
        (_("best"), False),
        (_("best value"), True),
        (_("loss"), True),
        (_("verdict"), False),
    ):
        shown.add_column(column, justify="right" if right else "left")
    for d in result.decisions:
        best = move_text(d.best) if d.best != d.played else Text("=")
        phase = phase_word(d.phase, short=True)
        shown.add_row(
            str(d.number), phase, move_text(d.played), fmt(d.values[d.played]),
            best, fmt(d.value), compact(d.loss, d.error, percent=result.kind == "not_loser"),
            label_word(d.label) if d.label else "",
        )  # fmt: skip
    return shown


def compact(loss: float, error: float, percent: bool) -> str:
    """A loss with its sampling error, short for the table: ``21±9%``, ``1.5±0.4``."""
    if percent:
        return f"{loss * 100:.0f}±{error * 100:.0f}%"
    return decimal(f"{loss:.1f}±{error:.1f}")


def show(console: Console, result: Any) -> None:
    """The decisions table and the summary of an analysis."""
    percent = result.kind == "not_loser"

    def fmt(value: float) -> str:
        return f"{value:.0%}" if percent else decimal(f"{value:+.1f}")

    if not result.decisions:
        console.print(
            _("Seat {seat} had no decision to judge (a choice of moves) here.", seat=result.seat),
            markup=False,
        )
        return
    console.print(table(result, fmt))
    counts = ", ".join(label_count(label, n) for label, n in result.counts().items())
    console.print(
        ngettext(
            "Accuracy {accuracy} over {n} decision: {counts} (judged by the expert's "
            "search, {iterations} iterations each, seed {seed}).",
            "Accuracy {accuracy} over {n} decisions: {counts} (judged by the expert's "
            "search, {iterations} iterations each, seed {seed}).",
            len(result.decisions),
            accuracy=f"{result.accuracy:.0%}",
            counts=counts,
            iterations=result.iterations,
            seed=result.seed,
        ),
        markup=False,
    )
    console.print(label_rule(result.kind), markup=False)
    for d in result.worst():
        line = _(
            "move {n}: {played} ({label}); {best} was better by {loss}",
            n=d.number,
            played=move_text(d.played).plain,
            label=label_word(d.label),
            best=move_text(d.best).plain,
            loss=f"{fmt(d.loss).lstrip('+')} ±{fmt(d.error).lstrip('+')}",
        )
        console.print("  " + line, markup=False)
