"""The ``tikki`` command: play, replay, rules, games.

Every command reports bad input (an unknown game, option, bot or a broken record) with a
clear message and exit status 2 (usage) or 1 (bad record), never a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from tikki import arena
from tikki import bots as botlib
from tikki.core import Game, RulesError, State, game_class, games, load, replay
from tikki.tui import common
from tikki.tui.app import Session, default_record_path, presenter

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
    errors.print(f"[bold red]error:[/] {message}", soft_wrap=True)
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


def _make_game(name: str, players: int | None, variant: str | None, option: list[str]) -> Game:
    options: dict[str, Any] = parse_options(option)
    if variant is not None:
        options["variant"] = variant
    return load(name, players=players, **options)


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
) -> None:
    """Play a game in the terminal against bots.

    Example: [bold]tikki play myllymatti --players 3 --seed 7 --option take=all[/]
    """
    try:
        g = _make_game(game, players, variant, option)
        human = None if watch else seat
        if human is not None and not 0 <= human < g.players:
            raise RulesError(f"no seat {human}: seats are 0–{g.players - 1}")
        specs = _bot_specs(g, human, bots, bot)
        state = g.new_state(seed=seed)
    except RulesError as err:
        raise _fail(str(err)) from None
    path = None if no_record else (record or default_record_path(g))
    session = Session(g, state, human, specs, console, console.input, path, delay=delay)
    raise typer.Exit(session.run())


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
) -> None:
    """Replay a record move by move, verifying each move, and print the game.

    Examples: [bold]tikki replay records/myllymatti-20261130-101500.json[/],
    [bold]tikki replay --db results.sqlite 17[/]
    """
    data = _read_record(target, db)
    try:
        state = replay(data)
    except RulesError as err:
        raise _fail(f"{target}: {err}", 1) from None
    if not quiet:
        _print_replay(state)
    outcome = state.outcome
    status = (
        "over"
        if state.is_over
        else f"unfinished ({state.phase}, seat {state.current_player} to act)"
    )
    console.print(f"Verified {len(state.moves)} moves of {state.game.name}: game {status}.")
    if outcome is not None:
        console.print(f"Outcome: {json.dumps(outcome)}")


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


def _print_replay(state: State) -> None:
    g = state.game
    names = [f"Seat {s}" for s in range(g.players)]
    module = presenter(g)
    describe = getattr(module, "event", None)
    for i, entry in enumerate(state.history(None), 1):
        line = describe(entry, names) if describe else common.event_sentence(entry, names)
        console.print(f"{i:4d}. ", line, sep="")


@app.command("rules")
def rules_command(game: Annotated[str, typer.Argument(help="the game")]) -> None:
    """Print the rules of a game.

    Example: [bold]tikki rules myllymatti[/]
    """
    try:
        cls = game_class(game.strip().lower())
    except RulesError as err:
        raise _fail(str(err)) from None
    console.print(Markdown(cls.rules_text))


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
            values = ", ".join(map(str, spec.get("choices", []))) or spec["type"]
            table.add_row(spec["name"], str(spec["default"]), values, spec["help"])
        variants = ", ".join(f"{k} ({v})" for k, v in info["variants"].items() if v)
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
    except RulesError as err:
        raise _fail(str(err)) from None
    deals = -(-games_count // g.players)
    spec = arena.ArenaSpec(g.name, g.players, g.options, lineup, deals * g.players, seed)
    results = _run_with_progress(spec, jobs)
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


def _run_with_progress(spec: arena.ArenaSpec, jobs: int) -> list[arena.GameResult]:
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
        return arena.run(spec, jobs, on_result=lambda _: progress.advance(task))


def _report(
    spec: arena.ArenaSpec, results: list[arena.GameResult], stats: list[arena.BotStats]
) -> None:
    figures = [s.as_dict() for s in stats]
    scored = "mean_advantage" in figures[0]
    title = f"{spec.game}, {spec.players} players, {spec.games} games, seed {spec.seed}"
    table = Table(title=title, title_justify="left")
    table.add_column("Bot", overflow="fold")
    table.add_column("Seats", justify="right")
    if scored:
        table.add_column("Pts/round", justify="right")
        table.add_column("Advantage [95% CI]", justify="right", no_wrap=True)
    else:
        table.add_column("Loss [95% CI]", justify="right", no_wrap=True)
    for column in ("Moves", "Aband.", "Forf.", "s/move"):
        table.add_column(column, justify="right")
    for f in figures:
        if scored:
            lo, hi = f["advantage_ci"]
            cells = [
                f"{f['mean_score_per_round']:.2f}",
                f"{f['mean_advantage']:+.2f} [{lo:+.2f}–{hi:+.2f}]",
            ]
        else:
            lo, hi = f["loss_ci"]
            cells = [f"{f['loss_rate']:.1%} [{lo:.1%}–{hi:.1%}]"]
        table.add_row(
            f["bot"],
            str(f["seat_games"]),
            *cells,
            f"{f['mean_moves']:.0f}",
            str(f["abandoned"]),
            str(f["forfeits"]),
            f"{f['seconds_per_move']:.4f}",
        )
    console.print(table)
    if not scored:
        console.print(f"A random bot's expected loss rate is {1 / spec.players:.1%}.")
    for result in results:
        if result.error:
            console.print(f"[yellow]game {result.index}: forfeit by {result.error}[/]")
    rated = arena.ratings(results)
    if rated:
        rt = Table(title="OpenSkill ratings (Plackett–Luce)", title_justify="left")
        rt.add_column("Bot")
        for column in ("Ordinal", "mu", "sigma"):
            rt.add_column(column, justify="right")
        for name, (ordinal, mu, sigma) in sorted(rated.items(), key=lambda kv: -kv[1][0]):
            rt.add_row(name, f"{ordinal:.2f}", f"{mu:.2f}", f"{sigma:.2f}")
        console.print(rt)


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
) -> None:
    """Run the web table: play in the browser with friends and bots.

    Example: [bold]tikki serve --port 8000 --db sqlite:///tikki.sqlite[/]
    """
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
        )
        serve(host, port, db, bot_delay, hint_bot, announce=console.print, policy=policy)
    except (ServeError, ValueError) as err:
        raise _fail(str(err)) from None


def main() -> None:
    """Entry point of the ``tikki`` console script."""
    app()


__all__ = ["app", "main", "parse_options"]

if __name__ == "__main__":
    main()
