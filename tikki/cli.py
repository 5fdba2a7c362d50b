"""The ``tikki`` command: play, replay, rules, games.

Every command reports bad input (an unknown game, option, bot or a broken record) with a
clear message and exit status 2 (usage) or 1 (bad record), never a traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from tikki import arena, extras, rules
from tikki import bots as botlib
from tikki.core import Game, RulesError, State, game_class, games, load, replay
from tikki.tui import common
from tikki.tui.app import Session, default_record_path, presenter
from tikki.tui.events import event_lines

app = typer.Typer(
    name="tikki",
    help="Myllymatti, Mattis and Mückenstich, played exactly by their rules.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
)
console = Console(highlight=False)
errors = Console(stderr=True, highlight=False)


def _fail(message: str, code: int = 2) -> typer.Exit:
    errors.print(f"[bold red]error:[/] {escape(message)}", soft_wrap=True)
    return typer.Exit(code)


def parse_options(pairs: list[str]) -> dict[str, str]:
    """``["take=all", "runs=true"]`` → ``{"take": "all", "runs": "true"}``."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise RulesError(f"option {pair!r} is not KEY=VALUE (for example take=all)")
        out[key.strip()] = value.strip()
    return out


def game_name(text: str) -> str:
    """A game name as typed (``Mückenstich``, ``MUECKENSTICH``) → its registered name."""
    name = text.strip().casefold()
    for umlaut, letters in (("ü", "ue"), ("ö", "oe"), ("ä", "ae")):
        name = name.replace(umlaut, letters)
    return name


def _make_game(name: str, players: int | None, variant: str | None, option: list[str]) -> Game:
    options: dict[str, Any] = parse_options(option)
    if variant is not None:
        options["variant"] = variant
    return load(game_name(name), players=players, **options)


def _bot_specs(game: Game, human: int | None, bots: str | None, bot: list[str]) -> list[str]:
    """One spec per seat (the human seat's entry is unused)."""
    given = list(bot) if bot else [s for s in (bots or "random").split(",") if s.strip()]
    if not given:
        given = ["random"]
    specs: list[str] = []
    others = iter(given)
    last = given[0]
    for seat in range(game.players):
        if seat == human:
            specs.append("you")
            continue
        last = next(others, last)
        specs.append(last)
    for spec in {s for i, s in enumerate(specs) if i != human}:
        botlib.make(spec, seed=0)  # validate early: unknown bots and parameters
    return specs


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="myllymatti, mattis or mueckenstich")],
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="number of players")
    ] = None,
    seat: Annotated[int, typer.Option("--seat", help="your seat (0 leads the first trick)")] = 0,
    seed: Annotated[
        int | None, typer.Option("--seed", help="deal seed (same seed, same game)")
    ] = None,
    variant: Annotated[str | None, typer.Option("--variant", help="a preset, e.g. koira")] = None,
    option: Annotated[
        list[str], typer.Option("--option", "-o", help="game option KEY=VALUE (repeatable)")
    ] = [],  # noqa: B006
    bots: Annotated[
        str | None, typer.Option("--bots", help="bots for the other seats, e.g. random,random")
    ] = None,
    bot: Annotated[
        list[str], typer.Option("--bot", help="one bot spec per other seat (repeatable)")
    ] = [],  # noqa: B006
    watch: Annotated[bool, typer.Option("--watch", help="bots play every seat; you watch")] = False,
    record: Annotated[
        Path | None, typer.Option("--record", help="where to save the record")
    ] = None,
    no_record: Annotated[bool, typer.Option("--no-record", help="do not save a record")] = False,
    delay: Annotated[float, typer.Option("--delay", help="seconds to pause after bot moves")] = 0.0,
    memory_aids: Annotated[
        bool,
        typer.Option(
            "--memory-aids",
            help="Mückenstich: show won tricks, the last trick and mosquito counts during a round",
        ),
    ] = False,
    auto: Annotated[
        bool,
        typer.Option("--auto/--no-auto", help="play your move for you when it is the only one"),
    ] = True,
) -> None:
    """Play a game in the terminal against bots.

    Exit status: 0 when the game ends or you quit, 1 when a bot fails (it forfeits),
    2 for a bad command line, 130 after Ctrl-C. The record is saved in every case.

    Example: [bold]tikki play myllymatti --players 3 --seed 7 --option take=all[/]
    """
    try:
        g = _make_game(game, players, variant, option)
        human = None if watch else seat
        if human is not None and not 0 <= human < g.players:
            raise RulesError(f"no seat {human}: seats are 0–{g.players - 1}")
        if not 0 <= delay <= 60:
            raise RulesError(f"--delay is seconds from 0 to 60, not {delay:g}")
        specs = _bot_specs(g, human, bots, bot)
        if memory_aids and g.name != "mueckenstich":
            raise RulesError(
                f"--memory-aids is a Mückenstich table option: {g.title} always shows "
                "every card played"
            )
        state = g.new_state(seed=seed)
    except RulesError as err:
        raise _fail(str(err)) from None
    path = None if no_record else (record or default_record_path(g))
    _line_editing()
    session = Session(
        g,
        state,
        human,
        specs,
        console,
        console.input,
        path,
        delay=delay,
        auto=auto,
        memory_aids=memory_aids,
    )
    raise typer.Exit(session.run())


def _line_editing() -> None:
    """Give the ``Your move:`` prompt line editing and history (readline), on a terminal."""
    import contextlib
    import sys

    if sys.stdin.isatty():
        with contextlib.suppress(ImportError):  # a Python built without readline
            import readline  # noqa: F401  (importing it is what turns it on for input())


@app.command("replay")
def replay_command(
    target: Annotated[
        str, typer.Argument(help="a record file (JSON), or a game id with --db", metavar="FILE")
    ],
    db: Annotated[
        Path | None, typer.Option("--db", help="an arena database: FILE is a game id")
    ] = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="only verify; print the result")
    ] = False,
    seat: Annotated[
        int | None,
        typer.Option("--seat", help="show what this seat saw (its own face-down cards too)"),
    ] = None,
) -> None:
    """Replay a record move by move, verifying each move, and print the game.

    Without --seat the game is shown as an onlooker sees it: face-down cards stay hidden.

    Examples: [bold]tikki replay records/myllymatti-20261130-101500.json[/],
    [bold]tikki replay --seat 0 --db results.sqlite 17[/]
    """
    data = _read_record(target, db)
    state = _verify(target, data)
    if seat is not None and not 0 <= seat < state.game.players:
        raise _fail(f"no seat {seat}: seats are 0–{state.game.players - 1}")
    if not quiet:
        _print_replay(state, seat)
    status = (
        "over"
        if state.is_over
        else f"unfinished ({state.phase}, seat {state.current_player} to act)"
    )
    console.print(f"Verified {len(state.moves)} moves of {state.game.name}: game {status}.")
    if state.outcome is not None:
        console.print(outcome_table(state, [f"Seat {s}" for s in range(state.game.players)]))


def _verify(target: str, data: Any) -> State:
    """Replay ``data``; a bad or truncated record ends the command with exit status 1."""
    if not isinstance(data, dict):
        raise _fail(f"{target}: a record is a JSON object", 1)
    if "game" in data and not isinstance(data["game"], str):
        names = ", ".join(games())
        raise _fail(f"{target}: the record's game must be a name ({names})", 1)
    claimed = data.get("outcome")
    try:
        state = replay({k: v for k, v in data.items() if k != "outcome"})
        if claimed is not None and not state.is_over:
            raise RulesError(
                f"the record ends before the game does (move {len(state.moves)} of an "
                f"unfinished game, yet the record gives its outcome)"
            )
        state = replay(data)
    except RulesError as err:
        raise _fail(f"{target}: {err}", 1) from None
    except (TypeError, AttributeError) as err:  # a field of the wrong JSON type
        raise _fail(f"{target}: a field of the record has the wrong type ({err})", 1) from None
    return state


def outcome_table(state: State, names: list[str]) -> Table:
    """The outcome of a finished game as a table: places and the loser, or the scores."""
    outcome = state.outcome or {}
    table = Table(title="Outcome", title_justify="left")
    table.add_column("Seat")
    if "scores" in outcome:
        table.add_column("Points", justify="right")
        best = max(outcome["scores"])
        for seat, score in enumerate(outcome["scores"]):
            table.add_row(names[seat], str(score) + (" (winner)" if score == best else ""))
        return table
    table.add_column("Result")
    order = outcome.get("out_order", [])
    for seat in range(state.game.players):
        if outcome.get("abandoned"):
            result = "abandoned (no loser)"
        elif seat == outcome.get("loser"):
            result = "lost (last to hold cards)"
        elif seat in order:
            result = f"out {_ordinal(order.index(seat) + 1)}"
        else:
            result = "—"
        table.add_row(names[seat], result)
    return table


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"#{n}")


def _read_record(target: str, db: Path | None) -> Any:
    if db is not None:
        if not target.isdigit():
            raise _fail(f"with --db, give a game id (a number), not {target!r}")
        try:
            return arena.load_record(db, int(target))
        except RulesError as err:
            raise _fail(str(err), 1) from None
    file = Path(target)
    try:
        return json.loads(file.read_text())
    except FileNotFoundError:
        raise _fail(f"no such file: {file}", 1) from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise _fail(f"{file} is not a JSON record: {err}", 1) from None


def _print_replay(state: State, seat: int | None = None) -> None:
    g = state.game
    names = [f"Seat {s}" for s in range(g.players)]
    module = presenter(g)
    describe = getattr(module, "event", None)
    for i, entry in enumerate(state.history(seat), 1):
        line = describe(entry, names) if describe else common.event_sentence(entry, names)
        console.print(f"{i:4d}. ", line, sep="")
        for event in event_lines(entry, names, g.name):
            console.print("      ", event, sep="")


@app.command("analyse")
def analyse_command(
    target: Annotated[
        str, typer.Argument(help="a record file (JSON), or a game id with --db", metavar="FILE")
    ],
    seat: Annotated[int, typer.Option("--seat", help="the seat whose moves are judged")] = 0,
    bot: Annotated[
        str,
        typer.Option("--bot", help="the rollout policy: greedy (fast), random or heuristic"),
    ] = "greedy",
    samples: Annotated[
        int, typer.Option("--samples", help="determinizations per decision (more: surer)")
    ] = 100,
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
) -> None:
    """Judge every decision of one seat: each legal move's value from that seat's view.

    Values are the chance of not being the loser (Myllymatti, Mattis) or the expected
    points at the end of the round (Mückenstich), estimated by rollouts from states drawn
    from the seat's view only. Moves losing 5/10/20 points of chance (1/2/4 points) are
    inaccuracies, mistakes and blunders.

    Example: [bold]tikki analyse records/myllymatti-20261130-101500.json --seat 0[/]
    """
    from tikki import analysis

    data = _read_record(target, db)
    _verify(target, data)
    if plot is not None:
        extras.require("plot", "analyse --plot")
    try:
        with _progress_bar() as progress:
            task = progress.add_task(f"analysing seat {seat}", total=None)

            def advance(done: int, total: int) -> None:
                progress.update(task, completed=done, total=total)

            result = analysis.analyse(data, seat, samples, bot, seed, jobs, advance, first)
    except RulesError as err:
        raise _fail(str(err)) from None
    _print_analysis(result)
    if json_out is not None:
        json_out.write_text(json.dumps(result.to_json(), indent=1) + "\n")
        console.print(f"Analysis written to {json_out}")
    if plot is not None:
        analysis.plot(result, plot)
        console.print(f"Plot written to {plot}")


def _progress_bar() -> Progress:
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    return Progress(*columns, console=console, transient=True)


_PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}


def _print_analysis(result: Any) -> None:
    """The decisions table and the summary of an analysis."""
    percent = result.kind == "not_loser"

    def fmt(value: float) -> str:
        return f"{value:.0%}" if percent else f"{value:+.1f}"

    title = "chance of not losing" if percent else "expected points (end of round)"
    table = Table(title=f"{result.game}, seat {result.seat}: {title}", box=box.SIMPLE_HEAD)
    for column in ("move", "phase", "played", "its value", "best", "best value", "loss", "verdict"):
        table.add_column(
            column, justify="right" if "value" in column or column == "loss" else "left"
        )
    for d in result.decisions:
        table.add_row(
            str(d.number), d.phase, d.played, fmt(d.values[d.played]),
            d.best if d.best != d.played else "=", fmt(d.value), fmt(d.loss).lstrip("+"),
            d.label or "",
        )  # fmt: skip
    console.print(table)
    counts = result.counts()
    console.print(
        f"Accuracy {result.accuracy:.0%} over {len(result.decisions)} decisions: "
        + ", ".join(common.count(n, label, _PLURALS[label]) for label, n in counts.items())
        + f" ({result.samples} samples each, {result.rollout} rollouts, seed {result.seed})."
    )
    for d in result.worst():
        better = fmt(d.loss).lstrip("+")
        console.print(f"  move {d.number}: {d.played} ({d.label}); {d.best} was better by {better}")


@app.command("rules")
def rules_command(
    game: Annotated[str, typer.Argument(help="the game")],
    lang: Annotated[
        str | None,
        typer.Option("--lang", help="en, fi or de (default: LC_ALL, LC_MESSAGES or LANG, else en)"),
    ] = None,
) -> None:
    """Print the rules of a game, in English, Finnish or German.

    Example: [bold]tikki rules myllymatti --lang fi[/]
    """
    try:
        name = game_class(game_name(game)).name
        text = rules.rules_text(name, rules.terminal_language(lang))
    except RulesError as err:
        raise _fail(str(err)) from None
    console.print(Markdown(text))


_TYPE_WORDS = {"int": "a whole number", "bool": "true or false", "str": "text"}


@app.command("games")
def games_command() -> None:
    """List the games, their player counts, variants and options.

    Example: [bold]tikki games[/]
    """
    for name, info in games().items():
        p = info["players"]
        span = f"{p['min']}–{p['max']} players (default {p['default']})"
        table = Table(title=f"{name} — {info['title']}, {span}", title_justify="left")
        table.add_column("Option")
        table.add_column("Default")
        table.add_column("Values")
        table.add_column("Meaning")
        for spec in info["options"]:
            values = common.value_text(spec.get("choices", [])) or _TYPE_WORDS.get(
                spec["type"], spec["type"]
            )
            table.add_row(spec["name"], common.value_text(spec["default"]), values, spec["help"])
        variants = "; ".join(
            f"{k} ({common.value_text(v)})" for k, v in info["variants"].items() if v
        )
        table.caption = f"variants: {variants}" if variants else None
        console.print(table)


@app.command("arena")
def arena_command(
    game: Annotated[str, typer.Argument(help="myllymatti, mattis or mueckenstich")],
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="number of players")
    ] = None,
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
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="worker processes")] = 1,
    seed: Annotated[int, typer.Option("--seed", help="arena seed (deals and bot seeds)")] = 0,
    variant: Annotated[str | None, typer.Option("--variant", help="a preset, e.g. koira")] = None,
    option: Annotated[
        list[str], typer.Option("--option", "-o", help="game option KEY=VALUE (repeatable)")
    ] = [],  # noqa: B006
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
) -> None:
    """Play many games between bots and measure them.

    Example: [bold]tikki arena myllymatti --players 3 --bots heuristic,random --games 600
    --jobs 2 --seed 1 --db results.sqlite --plot results.png[/]
    """
    try:
        g = _make_game(game, players, variant, option)
        given = list(bot) if bot else [s for s in (bots or "").split(",") if s.strip()]
        lineup = arena.lineup_for(g.players, given)
        for spec_text in set(lineup):
            botlib.make(spec_text, seed=0)
        if games_count < 1 or jobs < 1:
            raise RulesError("--games and --jobs must be at least 1")
        if plot is not None:
            extras.require("plot", "arena --plot")
        if ray is not None:
            extras.require("ray", "arena --ray")
    except (RulesError, extras.MissingExtra) as err:
        raise _fail(str(err)) from None
    deals = -(-games_count // g.players)
    spec = arena.ArenaSpec(g.name, g.players, g.options, lineup, deals * g.players, seed)
    results = _run_with_progress(spec, jobs, ray)
    stats = arena.summarize(results, lineup)
    _report(spec, results, stats)
    if db is not None:
        arena_id = arena.store(db, spec, results)
        first, last = arena.game_ids(db, arena_id)
        console.print(
            f"Stored in {db} as arena {arena_id}: games {first}–{last} "
            f"(tikki replay --db {db} {first})"
        )
    if plot is not None:
        arena.plot(plot, spec, stats)
        console.print(f"Plot written to {plot}")
    if json_out is not None:
        summary = {
            "arena": {**spec.__dict__, "options": dict(spec.options), "lineup": list(lineup)},
            "bots": [s.as_dict() for s in stats],
        }
        json_out.write_text(json.dumps(summary, indent=1) + "\n")
        console.print(f"Summary written to {json_out}")


def _run_with_progress(
    spec: arena.ArenaSpec, jobs: int, ray: str | None = None
) -> list[arena.GameResult]:
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console) as progress:
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
    title = f"{spec.game}, {spec.players} players, {spec.games} games, seed {spec.seed}"
    table = Table(title=title, title_justify="left", **_COMPACT)
    table.add_column("Bot", overflow="fold")
    table.add_column("Seats", justify="right", width=5)
    if scored:
        table.add_column("Points per round", justify="right", width=6)
        table.add_column("Advantage", justify="right", width=9)
    else:
        table.add_column("Loss rate", justify="right", width=9)
    table.add_column("95% interval", justify="right", width=14 if scored else 15)
    for column, width in (
        ("Moves per game", 5),
        ("Abandoned", 9),
        ("Forfeits", 8),
        ("Time per move", 7),
    ):
        table.add_column(column, justify="right", width=width)
    for f in figures:
        cells: list[str | Text]
        if scored:
            lo, hi = f["advantage_ci"]
            cells = [
                f"{f['mean_score_per_round']:.2f}",
                f"{f['mean_advantage']:+.2f}",
                Text(f"{lo:+.2f} to {hi:+.2f}", no_wrap=True),
            ]
        else:
            lo, hi = f["loss_ci"]
            cells = [f"{f['loss_rate']:.1%}", Text(f"{lo:.1%} to {hi:.1%}", no_wrap=True)]
        table.add_row(
            f["bot"],
            str(f["seat_games"]),
            *cells,
            f"{f['mean_moves']:.0f}",
            str(f["abandoned"]),
            str(f["forfeits"]),
            duration(f["seconds_per_move"]),
        )
    console.print(table)
    if not scored:
        console.print(f"A random bot's expected loss rate is {1 / spec.players:.1%}.")
    _think_table(figures)
    for result in results:
        if result.error:
            console.print(f"[yellow]game {result.index}: forfeit by {result.error}[/]")
    rated = arena.ratings(results)
    if rated:
        rt = Table(title="OpenSkill ratings (Plackett–Luce)", title_justify="left", **_COMPACT)
        rt.add_column("Bot")
        for column in ("Rating (μ − 3σ)", "Skill μ", "Uncertainty σ"):
            rt.add_column(column, justify="right")
        for name, (ordinal, mu, sigma) in sorted(rated.items(), key=lambda kv: -kv[1][0]):
            rt.add_row(name, f"{ordinal:.2f}", f"{mu:.2f}", f"{sigma:.2f}")
        console.print(rt)


def _think_table(figures: list[dict[str, Any]]) -> None:
    """Each bot's think time per move: median, 90th percentile and longest."""
    if not any(f["think_max"] > 0 for f in figures):
        return
    table = Table(title="Think time per move", title_justify="left", **_COMPACT)
    table.add_column("Bot")
    for column in ("Median", "90th percentile", "Longest"):
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


@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option("--host", help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="port (0: pick a free one)")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help="sqlite:///PATH or postgresql://USER:PASS@HOST/DB "
            "(default: an SQLite file in the user's data directory)",
        ),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option("--bot-delay", help="seconds a bot waits before it moves")
    ] = 0.6,
    hint_bot: Annotated[
        str, typer.Option("--hint-bot", help="the bot that answers hints")
    ] = "heuristic",
    allow_client_seeds: Annotated[
        bool,
        typer.Option(
            "--allow-client-seeds",
            help="accept a creator's seed at tables with open seats too (tests and demos "
            "only: the creator then knows every hand)",
        ),
    ] = False,
    allow_bot_specs: Annotated[
        bool,
        typer.Option("--allow-bot-specs", help="accept any bot spec, not only Easy/Medium/Hard"),
    ] = False,
    bot_workers: Annotated[
        int, typer.Option("--bot-workers", help="processes for searching bots (0: one per core)")
    ] = 0,
    create_rate: Annotated[
        float, typer.Option("--create-rate", help="tables one address may create per minute")
    ] = 10,
    join_rate: Annotated[
        float, typer.Option("--join-rate", help="seats one address may take per minute")
    ] = 30,
    tables_per_address: Annotated[
        int, typer.Option("--tables-per-address", help="live tables one address may create")
    ] = 20,
    max_tables: Annotated[int, typer.Option("--max-tables", help="live tables in all")] = 2000,
    waiting_expiry: Annotated[
        float, typer.Option("--waiting-expiry", help="seconds a table may wait for players")
    ] = 86400,
    sync_rate: Annotated[
        float, typer.Option("--sync-rate", help="sync messages a connection may send per minute")
    ] = 60,
    analysis_samples: Annotated[
        int,
        typer.Option("--analysis-samples", help="deals tried per decision by 'Analyse my game'"),
    ] = 60,
    away_after: Annotated[
        float,
        typer.Option(
            "--away-after",
            help="seconds a seated person may be away before the others may hand the seat to a bot",
        ),
    ] = 120,
    stalled_expiry: Annotated[
        float,
        typer.Option(
            "--stalled-expiry",
            help="seconds without a move after which a table being played leaves the lobby",
        ),
    ] = 3600,
    min_turn_timer: Annotated[
        int,
        typer.Option(
            "--min-turn-timer",
            help="shortest turn timer a table may ask for (below 30: tests and demos)",
        ),
    ] = 30,
) -> None:
    """Run the web table: play in the browser with friends and bots.

    Example: [bold]tikki serve --port 8000 --db sqlite:///tikki.sqlite[/]
    """
    try:
        extras.require("web", "the web table")
        if db is not None and db.startswith("postgres"):
            extras.require("postgres", "a PostgreSQL database")
    except extras.MissingExtra as err:
        raise _fail(str(err)) from None
    from tikki.server.quota import Policy
    from tikki.server.run import ServeError, serve

    try:
        policy = Policy(
            allow_bot_specs=allow_bot_specs,
            bot_workers=bot_workers,
            create_per_minute=create_rate,
            join_per_minute=join_rate,
            tables_per_address=tables_per_address,
            max_tables=max_tables,
            waiting_expiry=waiting_expiry,
            sync_per_minute=sync_rate,
            analysis_samples=analysis_samples,
            away_after=away_after,
            stalled_expiry=stalled_expiry,
            min_turn_timer=min_turn_timer,
        )
        serve(
            host, port, db, bot_delay, hint_bot, announce=console.print,
            client_seeds=allow_client_seeds, policy=policy,
        )  # fmt: skip
    except (ServeError, ValueError) as err:
        raise _fail(str(err)) from None


OPTIONAL_VALUES = {"--ray": "local"}
"""Options whose value may be left out (``tikki arena … --ray`` is ``--ray local``)."""


def bare_options(args: list[str]) -> list[str]:
    """``args`` with the default value put after a bare :data:`OPTIONAL_VALUES` option (one
    at the end, or followed by another option)."""
    out: list[str] = []
    for i, arg in enumerate(args):
        out.append(arg)
        if arg in OPTIONAL_VALUES:
            following = args[i + 1] if i + 1 < len(args) else None
            if following is None or following.startswith("-"):
                out.append(OPTIONAL_VALUES[arg])
    return out


def main() -> None:
    """Entry point of the ``tikki`` console script."""
    app(args=bare_options(sys.argv[1:]))


__all__ = ["app", "main", "parse_options"]

if __name__ == "__main__":
    main()
