"""``tikki play``: a game in the terminal against bots."""

from __future__ import annotations

import contextlib
import re
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from tikki import bots as botlib
from tikki import extras
from tikki.bots.learned import LearnedBot
from tikki.cli.shared import (
    GAMES_HELP,
    MEMORY_AIDS_HELP,
    VARIANT_HELP,
    GameOptionsOption,
    LangOption,
    PlayersOption,
    complain,
    make_game,
    use_lang,
)
from tikki.commandline import console, fail
from tikki.core import Game, RulesError, memory_aid_titles
from tikki.i18n import _
from tikki.tui import outputs
from tikki.tui.app import Session, default_record_path


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
        made = botlib.make(spec, seed=0)  # validate early: unknown bots and parameters
        if isinstance(made, LearnedBot):  # and a model for this game and player count
            try:
                made.policy(game)
            except RulesError as err:
                raise RulesError(_("bot spec {spec!r}: {err}", spec=spec, err=err)) from None
    return specs


def play(
    game: Annotated[str, typer.Argument(help=GAMES_HELP)],
    players: PlayersOption = None,
    seat: Annotated[int, typer.Option("--seat", help="your seat (0 leads the first trick)")] = 0,
    seed: Annotated[
        int | None, typer.Option("--seed", help="deal seed (same seed, same game)")
    ] = None,
    variant: Annotated[str | None, typer.Option("--variant", help=VARIANT_HELP)] = None,
    option: GameOptionsOption = [],  # noqa: B006
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
            help=MEMORY_AIDS_HELP,
        ),
    ] = False,
    auto: Annotated[
        bool,
        typer.Option("--auto/--no-auto", help="play your move for you when it is the only one"),
    ] = True,
    lang: LangOption = None,
) -> None:
    """Play a game in the terminal against bots.

    Exit status: 0 when the game ends or you quit, 1 when a bot fails (it forfeits),
    2 for a bad command line, 130 after Ctrl-C. The record is saved in every case.

    Example: [bold]tikki play myllymatti --players 3 --seed 7 --option take=all[/]
    """
    use_lang(lang)
    try:
        g = make_game(game, players, variant, option)
        human = None if watch else seat
        if human is not None and not 0 <= human < g.players:
            raise RulesError(
                _("no seat {seat}: seats are 0–{last}", seat=human, last=g.players - 1)
            )
        if not 0 <= delay <= 60:
            raise RulesError(_("--delay is seconds from 0 to 60, not {delay}", delay=f"{delay:g}"))
        specs = _bot_specs(g, human, bots, bot)
        if memory_aids and not g.memory_aids:
            raise RulesError(
                _(
                    "--memory-aids is a {games} table option: {game} always shows "
                    "every card played",
                    games=memory_aid_titles(),
                    game=g.title,
                )
            )
        state = g.new_state(seed=seed)
        saved = None if no_record or record is None else outputs.check("--record", record, "json")
    except (RulesError, outputs.OutputError, extras.MissingExtra) as err:
        raise fail(str(err)) from None
    path = None if no_record else (saved.path if saved else default_record_path(g))
    _line_editing()
    session = Session(
        g,
        state,
        human,
        specs,
        console,
        _reader(),
        path,
        delay=delay,
        auto=auto,
        memory_aids=memory_aids,
        complain=complain,
    )
    raise typer.Exit(session.run())


def _line_editing() -> None:
    """Give the ``Your move:`` prompt line editing and history (readline), on a terminal."""
    if sys.stdin.isatty():
        with contextlib.suppress(ImportError):  # a Python built without readline
            import readline  # noqa: F401  (importing it is what turns it on for input())


def _reader() -> Any:
    """The function that asks the person: on a terminal, ``input`` itself gets the prompt
    (its colour codes wrapped in ``\\001…\\002``), so that readline knows where the line
    starts and redraws history and edits after the prompt, not over it."""
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        return console.input

    def read(prompt: str) -> str:
        with console.capture() as captured:
            console.print(prompt, end="", markup=False)
        return input(readline_prompt(captured.get()))

    return read


def readline_prompt(text: str) -> str:
    """``text`` with each terminal escape sequence wrapped in ``\\001…\\002`` (readline's
    marks for characters that take no room on the screen)."""
    return re.sub(r"(\x1b\[[0-9;?]*[A-Za-z])", "\x01\\1\x02", text)
