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
from rich.table import Table

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
    file: Annotated[Path, typer.Argument(help="a record file (JSON) written by tikki")],
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="only verify; print the result")
    ] = False,
) -> None:
    """Replay a record move by move, verifying each move, and print the game.

    Example: [bold]tikki replay records/myllymatti-20261130-101500.json[/]
    """
    try:
        data = json.loads(file.read_text())
    except FileNotFoundError:
        raise _fail(f"no such file: {file}", 1) from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise _fail(f"{file} is not a JSON record: {err}", 1) from None
    try:
        state = replay(data)
    except RulesError as err:
        raise _fail(f"{file}: {err}", 1) from None
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


def main() -> None:
    """Entry point of the ``tikki`` console script."""
    app()


__all__ = ["app", "main", "parse_options"]

if __name__ == "__main__":
    main()
