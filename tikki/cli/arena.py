"""``tikki arena``: many games between bots, measured and reported."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from tikki import arena, extras
from tikki import bots as botlib
from tikki.cli.shared import (
    GAMES_HELP,
    VARIANT_HELP,
    ArenaSeedOption,
    GameOptionsOption,
    JobsOption,
    LangOption,
    PlayersOption,
    complain,
    make_game,
    progress_bar,
    render_chart,
    use_lang,
    write_bytes,
    write_output,
    write_text,
)
from tikki.commandline import console, fail
from tikki.core import RulesError
from tikki.i18n import _
from tikki.tui import outputs


def arena_command(
    game: Annotated[str, typer.Argument(help=GAMES_HELP)],
    players: PlayersOption = None,
    bots: Annotated[
        str | None,
        typer.Option("--bots", help="lineup, one spec per seat, the last repeated: X,Y = X vs Y"),
    ] = None,
    bot: Annotated[
        list[str], typer.Option("--bot", help="one spec per seat (repeatable; for cmd: bots)")
    ] = [],  # noqa: B006
    games_count: Annotated[
        int, typer.Option("--games", "-n", help="games (rounded up to whole duplicate deals)")
    ] = 300,
    jobs: JobsOption = 1,
    seed: ArenaSeedOption = 0,
    variant: Annotated[str | None, typer.Option("--variant", help=VARIANT_HELP)] = None,
    option: GameOptionsOption = [],  # noqa: B006
    db: Annotated[Path | None, typer.Option("--db", help="store every game in SQLite")] = None,
    plot: Annotated[Path | None, typer.Option("--plot", help="write a PNG of the results")] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="write the summary as JSON")
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            help="play on Ray: a local Ray (bare --ray, or local), auto or a cluster address",
        ),
    ] = None,
    lang: LangOption = None,
) -> None:
    """Play many games between bots and measure them.

    Example: [bold]tikki arena myllymatti --players 3 --bots heuristic,random --games 600
    --jobs 2 --seed 1 --db results.sqlite --plot results.png[/]
    """
    use_lang(lang)
    try:
        g = make_game(game, players, variant, option)
        given = list(bot) if bot else [s for s in (bots or "").split(",") if s.strip()]
        lineup = arena.lineup_for(g.players, given)
        for spec_text in set(lineup):
            botlib.make(spec_text, seed=0)
        if games_count < 1 or jobs < 1:
            raise RulesError(_("--games and --jobs must be at least 1"))
        if plot is not None:
            extras.require("plot", "arena --plot")
        if ray is not None:
            extras.require("ray", "arena --ray")
        db_file = None if db is None else outputs.check("--db", db, "sqlite")
        plot_file = None if plot is None else outputs.check("--plot", plot, "plot")
        json_file = None if json_out is None else outputs.check("--json", json_out, "json")
    except (RulesError, extras.MissingExtra, outputs.OutputError) as err:
        raise fail(str(err)) from None
    deals = -(-games_count // g.players)
    spec = arena.ArenaSpec(g.name, g.players, g.options, lineup, deals * g.players, seed)
    results = _run_with_progress(spec, jobs, ray)
    stats = arena.summarize(results, lineup)
    _report(spec, results, stats)
    ok = True
    if db_file is not None:
        ok &= _store(db_file, spec, results)
    if plot_file is not None:
        chart = render_chart(plot_file, lambda p: arena.plot(p, spec, stats))
        ok &= write_output(plot_file, _("Plot written to {file}"), lambda p: write_bytes(p, chart))
    if json_file is not None:
        summary = {
            "arena": {**spec.__dict__, "options": dict(spec.options), "lineup": list(lineup)},
            "bots": [s.as_dict() for s in stats],
        }
        text = json.dumps(summary, indent=1) + "\n"
        ok &= write_output(json_file, _("Summary written to {file}"), lambda p: write_text(p, text))
    if not ok:
        raise typer.Exit(1)


def _store(output: outputs.Output, spec: arena.ArenaSpec, results: list[arena.GameResult]) -> bool:
    """Store the arena in SQLite (a spare database if that fails) and say where."""
    stored: list[tuple[Path, int]] = []

    def write(path: Path) -> None:
        try:
            stored.append((path, arena.store(path, spec, results)))
        except sqlite3.Error as err:
            raise OSError(0, str(err)) from None

    ok = outputs.save(output, write, complain)
    if stored:
        path, arena_id = stored[-1]
        first, last = arena.game_ids(path, arena_id)
        line = _(
            "Stored in {db} as arena {arena}: games {first}–{last} "
            "(tikki replay --db {db} {first})",
            db=path,
            arena=arena_id,
            first=first,
            last=last,
        )
        console.print(line, markup=False)
    return ok


def _run_with_progress(
    spec: arena.ArenaSpec, jobs: int, ray: str | None = None
) -> list[arena.GameResult]:
    with progress_bar() as progress:
        task = progress.add_task(f"{spec.game} {','.join(spec.lineup)}", total=spec.games)
        return arena.run(spec, jobs, on_result=lambda _: progress.advance(task), ray=ray)


_COMPACT: dict[str, Any] = {
    "box": box.SIMPLE_HEAVY,
    "padding": (0, 0),
    "show_edge": False,
}
"""Table style of the arena report: light rules, so that wide line-ups fit 80 columns."""


def _report(
    spec: arena.ArenaSpec, results: list[arena.GameResult], stats: list[arena.BotStats]
) -> None:
    figures = [s.as_dict() for s in stats]
    scored = "mean_advantage" in figures[0]
    title = _(
        "{game}, {players} players, {games} games, seed {seed}",
        game=spec.game,
        players=spec.players,
        games=spec.games,
        seed=spec.seed,
    )
    table = Table(title=title, title_justify="left", **_COMPACT)
    table.add_column(
        _("Bot"), overflow="fold", min_width=min(28, max(len(f["bot"]) for f in figures))
    )
    table.add_column(_("Seats"), justify="right", width=5)
    if scored:
        table.add_column(_("Points per round"), justify="right", width=6)
        table.add_column(_("Advantage"), justify="right", width=9)
    else:
        table.add_column(_("Loss rate"), justify="right", width=9)
    table.add_column(_("95% interval"), justify="right", width=14 if scored else 15)
    # Columns of zeros make room for long bot names: a line below says there were none.
    trouble = any(f["abandoned"] or f["forfeits"] for f in figures)
    columns = [(_("Moves per game"), 5), (_("Abandoned"), 9), (_("Forfeits"), 8)]
    for column, width in [*columns[: 3 if trouble else 1], (_("Time per move"), 7)]:
        table.add_column(column, justify="right", width=width)
    one_deal = len({r.deal for r in results}) < 2
    for f in figures:
        cells: list[str | Text]
        if scored:
            lo, hi = f["advantage_ci"]
            span = _("{lo} to {hi}", lo=signed(lo), hi=signed(hi))
            cells = [
                f"{f['mean_score_per_round']:.2f}",
                signed(f["mean_advantage"]),
                Text("—" if one_deal else span, no_wrap=True),
            ]
        else:
            lo, hi = f["loss_ci"]
            span = _("{lo} to {hi}", lo=f"{lo:.1%}", hi=f"{hi:.1%}")
            cells = [f"{f['loss_rate']:.1%}", Text(span, no_wrap=True)]
        counts = [str(f["abandoned"]), str(f["forfeits"])] if trouble else []
        table.add_row(
            f["bot"],
            str(f["seat_games"]),
            *cells,
            f"{f['mean_moves']:.0f}",
            *counts,
            duration(f["seconds_per_move"]),
        )
    console.print(table)
    if not trouble:
        console.print(_("No game was abandoned and no bot forfeited."))
    if scored and one_deal:
        console.print(
            _(
                "One deal gives no interval (its games share the cards): play two deals or "
                "more, e.g. --games {games}.",
                games=2 * spec.players,
            )
        )
    if not scored:
        expected = f"{1 / spec.players:.1%}"
        console.print(_("A random bot's expected loss rate is {rate}.", rate=expected))
    _think_table(figures)
    for result in results:
        if result.error:
            forfeit = _("game {n}: forfeit by {error}", n=result.index, error=result.error)
            console.print(Text(forfeit, style="yellow"))
    rated = arena.ratings(results)
    if rated:
        rt = Table(title=_("OpenSkill ratings (Plackett–Luce)"), title_justify="left", **_COMPACT)
        rt.add_column(_("Bot"))
        for column in (_("Rating (μ − 3σ)"), _("Skill μ"), _("Uncertainty σ")):
            rt.add_column(column, justify="right")
        for name, (ordinal, mu, sigma) in sorted(rated.items(), key=lambda kv: -kv[1][0]):
            rt.add_row(name, f"{ordinal:.2f}", f"{mu:.2f}", f"{sigma:.2f}")
        console.print(rt)


def signed(value: float) -> str:
    """``+0.43``, ``-0.43``; never ``-0.00``."""
    text = f"{value:+.2f}"
    return "+0.00" if text == "-0.00" else text


def _think_table(figures: list[dict[str, Any]]) -> None:
    """Each bot's think time per move: median, 90th percentile and longest."""
    if not any(f["think_max"] > 0 for f in figures):
        return
    table = Table(title=_("Think time per move"), title_justify="left", **_COMPACT)
    table.add_column(_("Bot"))
    for column in (_("Median"), _("90th percentile"), _("Longest")):
        table.add_column(column, justify="right")
    for f in figures:
        table.add_row(
            f["bot"], duration(f["think_p50"]), duration(f["think_p90"]), duration(f["think_max"])
        )
    console.print(table)


def duration(seconds: float) -> str:
    """A time with three significant digits in a fitting unit: ``12.3 µs``, ``4.56 ms``."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:#.3g} {unit}".replace(". ", " ")
    return "0 s" if seconds <= 0 else f"{seconds / 1e-6:.2g} µs"


__all__ = ["arena_command", "console", "duration", "signed"]
"""``console`` too: the report prints on it (a test gives it a recording console)."""
