"""``tikki train``: self-play data and a game's learned model in one command."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tikki import extras
from tikki.cli.shared import (
    GAMES_HELP,
    LangOption,
    game_name,
    use_lang,
)
from tikki.commandline import fail
from tikki.core import RulesError
from tikki.i18n import N_


def train_command(
    game: Annotated[str, typer.Argument(help=GAMES_HELP)],
    games_count: Annotated[
        int,
        typer.Option(
            "--games", "-n", help="self-play games to have first (0: train on the data there)"
        ),
    ] = 0,
    epochs: Annotated[int, typer.Option("--epochs", help="passes over the data")] = 8,
    patience: Annotated[
        int, typer.Option("--patience", help="stop after N epochs without a better one (0: never)")
    ] = 0,
    target: Annotated[
        str,
        typer.Option(
            "--target",
            help="the policy's target: visits (the search's shares) or move (played)",
            metavar="visits|move",
        ),
    ] = "visits",
    value: Annotated[
        str,
        typer.Option(
            "--value",
            help="the value: linear (ridge on the observation) or mlp",
            metavar="linear|mlp",
        ),
    ] = "linear",
    init: Annotated[
        Path | None, typer.Option("--init", help="start from this model's weights (warm start)")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="data and training seed")] = 1,
    bot: Annotated[
        str,
        typer.Option(
            "--bot", help="the self-play bot: ismcts or expert (heuristic: imitation data)"
        ),
    ] = "ismcts:iterations=200",
    data: Annotated[
        list[Path] | None,
        typer.Option(
            "--data",
            help="data folder (default learn-data/GAME); repeat to join several",
            metavar=N_("FOLDER"),
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="model file (default learn-data/GAME/model.npz)"),
    ] = None,
    ship: Annotated[
        bool, typer.Option("--ship", help="replace the shipped model tikki/models/GAME.npz")
    ] = False,
    lang: LangOption = None,
) -> None:
    """Train a game's learned model (policy and value) on self-play games of a search bot.

    The data is resumable: a run stopped and started again plays only the games missing;
    --init continues from a saved model.
    The learned bot and expert:priors=1 use the model (docs/bots.md).

    Example: tikki train myllymatti --games 40 --out mm.npz"""
    use_lang(lang)
    try:
        extras.require("models", "tikki train", ("numpy",))
        from tikki.learn import cli
    except extras.MissingExtra as err:
        raise fail(str(err)) from None
    argv = ["train", game_name(game), "--epochs", str(epochs), "--seed", str(seed)]
    argv += ["--games", str(games_count), "--bot", bot, "--patience", str(patience)]
    argv += ["--target", target, "--value", value]
    if init is not None:
        argv += ["--init", str(init)]
    for folder in data or []:
        argv += ["--data", str(folder)]
    if ship:
        argv.append("--ship")
    elif out is not None:
        argv += ["--out", str(out)]
    try:
        code = cli.main(argv)
    except RulesError as err:
        raise fail(str(err)) from None
    if code:
        raise typer.Exit(code)
