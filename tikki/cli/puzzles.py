"""``tikki puzzles``: build a set of puzzles proven by the exact endgame solver, and check
a set again from its stored positions (:mod:`tikki.puzzles`)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated

import typer

from tikki import puzzles
from tikki.cli.shared import LangOption, PlayersOption, game_name, progress_bar, use_lang
from tikki.commandline import console, fail
from tikki.core import RulesError
from tikki.i18n import N_, _

app = typer.Typer(
    name="puzzles",
    help="puzzles: positions where exactly one move is proven to escape",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
)


@app.command("build")
def build_command(
    game: Annotated[str, typer.Argument(help="the game")],
    count: Annotated[int, typer.Option("--count", "-n", help="how many puzzles")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="seed of the games played")] = 0,
    out: Annotated[
        Path | None, typer.Option("--out", help="the puzzle file (.json or .json.gz)")
    ] = None,
    private: Annotated[
        Path | None,
        typer.Option("--private", help="also write where each puzzle came from (keep it private)"),
    ] = None,
    players: PlayersOption = None,
    append: Annotated[
        bool,
        typer.Option(
            "--append", help="add the new puzzles to the --out file's (skipping those it has)"
        ),
    ] = False,
    steps: Annotated[
        int,
        typer.Option(
            "--steps",
            help="the most moves a puzzle takes (1: one move each, as the shipped sets'"
            " seeds 1-50 were built)",
        ),
    ] = puzzles.line.MOST_STEPS,
    lang: LangOption = None,
) -> None:
    """Build puzzles from seeded bot games: positions where, over every way the hidden
    cards may lie, exactly one move escapes whatever the others play (the exact endgame
    solver proves it; in a game scored in points: one move scores at least 2 points more than
    every other).
    The same seed gives the same file, byte for byte; --append grows a file seed by seed.

    Example: [bold]tikki puzzles build myllymatti --count 100 --seed 1 --out mm.json.gz[/]
    """
    use_lang(lang)
    if count < 1:
        raise fail(_("--count is 1 or more, not {count}", count=count))
    if steps < 1:
        raise fail(_("--steps is 1 or more, not {steps}", steps=steps))
    target = out or Path(f"puzzles-{game_name(game)}.json.gz")
    start = time.perf_counter()
    try:
        old = puzzles.read(target) if append and target.exists() else None
        skip = frozenset(p["id"] for p in old["puzzles"]) if old else frozenset()
        with progress_bar() as progress:
            task = progress.add_task(_("puzzles found"), total=count)

            def advance(found: int, games: int) -> None:
                progress.update(task, completed=found)

            built = puzzles.build(
                game_name(game), count, seed, players, progress=advance, skip=skip, steps=steps
            )
        document = puzzles.merged(old, built.document) if old else built.document
        puzzles.dump(document, target)
        if private is not None:
            private.write_text(json.dumps(built.private, sort_keys=True, indent=1) + "\n")
    except RulesError as err:
        raise fail(str(err)) from None
    except OSError as err:
        raise fail(_("cannot write {path}: {err}", path=str(target), err=err)) from None
    minutes = (time.perf_counter() - start) / 60
    found = built.document["count"]
    console.print(
        _(
            "{found} puzzles from {games} games ({tried} positions tried) in {minutes} min"
            " ({rate} a minute): {path}",
            found=found,
            games=built.games,
            tried=built.tried,
            minutes=f"{minutes:.1f}",
            rate=f"{found / max(minutes, 1e-9):.1f}",
            path=str(target),
        )
    )
    lines = sum("steps" in p for p in built.document["puzzles"])
    if lines:
        console.print(_("{n} of the new puzzles take several moves", n=lines))


@app.command("merge")
def merge_command(
    files: Annotated[
        list[Path], typer.Argument(help="puzzle files of one game", metavar=N_("FILE"))
    ],
    out: Annotated[Path, typer.Option("--out", help="the merged file (.json or .json.gz)")],
    lang: LangOption = None,
) -> None:
    """Join puzzle files of one game (the same players and rules) into one, in the order
    given, each puzzle once: sets built side by side (say odd seeds in one process, even
    seeds in another) become one set.

    Example: [bold]tikki puzzles merge odd.json.gz even.json.gz --out ms.json.gz[/]
    """
    use_lang(lang)
    try:
        documents = [puzzles.read(path) for path in files]
        document = documents[0]
        for more in documents[1:]:
            document = puzzles.merged(document, more)
        puzzles.dump(document, out)
    except RulesError as err:
        raise fail(str(err)) from None
    except OSError as err:
        raise fail(_("cannot write {path}: {err}", path=str(out), err=err)) from None
    console.print(
        _(
            "{n} puzzles from {files} files: {path}",
            n=document["count"],
            files=len(files),
            path=str(out),
        )
    )


@app.command("check")
def check_command(
    file: Annotated[Path, typer.Argument(help="a puzzle file", metavar="FILE")],
    lang: LangOption = None,
) -> None:
    """Check every puzzle of a file again from its stored position alone: enumerate the
    worlds its view allows, solve each, and compare with the stored answer. Exits with
    status 1 if any puzzle fails.

    Example: [bold]tikki puzzles check mm.json.gz[/]
    """
    use_lang(lang)
    try:
        document = puzzles.read(file)
        with progress_bar() as progress:
            task = progress.add_task(_("puzzles checked"), total=len(document["puzzles"]))

            def advance(done: int, total: int) -> None:
                progress.update(task, completed=done)

            failures = puzzles.check(document, progress=advance)
    except (RulesError, KeyError, TypeError) as err:
        raise fail(_("not a puzzle file: {err}", err=err)) from None
    total = len(document["puzzles"])
    for pid, what in failures:
        console.print(_("puzzle {id} fails: {what}", id=pid, what=what))
    console.print(_("{ok} of {total} puzzles proved again", ok=total - len(failures), total=total))
    if failures:
        raise typer.Exit(1)
