"""``tikki analyse``: every decision of one seat judged by the expert's search."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from tikki import analysis, extras, i18n
from tikki.cli.replay import read_record, verify
from tikki.cli.shared import (
    LangOption,
    render_chart,
    use_lang,
    write_bytes,
    write_output,
    write_text,
)
from tikki.commandline import console, fail
from tikki.core import RulesError
from tikki.i18n import _
from tikki.tui import analysis as analysis_view
from tikki.tui import outputs


def analyse_command(
    target: Annotated[
        str, typer.Argument(help="a record file (JSON), or a game id with --db", metavar="FILE")
    ],
    seat: Annotated[int, typer.Option("--seat", help="the seat whose moves are judged")] = 0,
    iterations: Annotated[
        int,
        typer.Option(
            "--iterations",
            help="the judge's budget: expert search iterations per decision (more: surer)",
        ),
    ] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="seed of the analysis")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="worker processes")] = 1,
    first: Annotated[
        int, typer.Option("--from", help="judge the moves from this move number on")
    ] = 1,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="write every decision as JSON")
    ] = None,
    plot: Annotated[Path | None, typer.Option("--plot", help="write a PNG chart")] = None,
    db: Annotated[
        Path | None, typer.Option("--db", help="an arena database: FILE is a game id")
    ] = None,
    lang: LangOption = None,
) -> None:
    """Judge every decision of one seat: each legal move's value from that seat's view.

    The judge is the expert bot's own search (the hint's too), from the seat's view only.
    Values are the chance of not being the loser (a game with a loser) or the points the
    round in progress will score (a game scored in points). Moves that lose 5/10/20 points of chance
    (1/2/4 points), after taking off the sampling error, are inaccuracies, mistakes and
    blunders. --iterations sets the budget (the web table's default is the same).

    Example: [bold]tikki analyse records/myllymatti-20261130-101500.json --seat 0[/]
    """
    use_lang(lang)
    try:
        json_file = None if json_out is None else outputs.check("--json", json_out, "json")
        plot_file = None if plot is None else outputs.check("--plot", plot, "plot")
        if plot is not None:
            extras.require("plot", "analyse --plot")
    except (outputs.OutputError, extras.MissingExtra) as err:
        raise fail(str(err)) from None
    data = read_record(target, db)
    state = verify(target, data)
    if not 1 <= first <= max(1, len(state.moves)):
        too_far = ngettext_moves(first, len(state.moves))
        raise fail(too_far)
    try:
        result = analysis_view.run(console, data, seat, iterations, seed, jobs, first)
    except RulesError as err:
        raise fail(str(err)) from None
    analysis_view.show(console, result)
    ok = True
    if json_file is not None:
        text = json.dumps(result.to_json(), indent=1) + "\n"
        ok &= write_output(
            json_file, _("Analysis written to {file}"), lambda p: write_text(p, text)
        )
    if plot_file is not None:
        chart = render_chart(plot_file, lambda p: analysis.plot(result, p))
        ok &= write_output(plot_file, _("Plot written to {file}"), lambda p: write_bytes(p, chart))
    if not ok:
        raise typer.Exit(1)


def ngettext_moves(first: int, moves: int) -> str:
    """``--from 999``: the game has only so many moves."""
    return i18n.ngettext(
        "--from {first}: the game has {n} move; give a move number from 1 to {n}",
        "--from {first}: the game has {n} moves; give a move number from 1 to {n}",
        moves,
        first=first,
    )
