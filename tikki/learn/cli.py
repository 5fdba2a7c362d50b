"""The command line of :mod:`tikki.learn`: ``data``, ``train``, ``reinforce`` and ``eval`` a
game's model."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer

from tikki.commandline import fail, run
from tikki.core import RulesError, game_class
from tikki.i18n import _ as _t
from tikki.tui import outputs
from tikki.tui.outputs import OutputError

DATA_ROOT = Path("learn-data")
"""Where ``data`` writes and ``train`` reads by default: ``learn-data/<game>/``."""
PROG = "python -m tikki.learn"
"""How the command is called."""

app = typer.Typer(
    name=PROG,
    help="Self-play data, training and evaluation of the learned models.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
)

GameArgument = Annotated[str, typer.Argument(metavar="GAME", show_default=False)]
"""The game whose data or model it is (an unknown one is one ``error:`` line)."""
Seed = Annotated[int, typer.Option("--seed")]
"""``--seed``."""
Bot = Annotated[str, typer.Option("--bot")]
"""``--bot``: the search bot whose self-play makes the data."""
SEARCH_BOT = "ismcts:iterations=200"
"""The default ``--bot``."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; 0 on success, 2 with a one-line error."""
    return run(app, argv, PROG)


def _checked(game: str) -> None:
    """Raise the exit of a one-line error if ``game`` is unknown."""
    try:
        game_class(game)
    except RulesError as err:
        raise fail(str(err)) from None


@app.command("data", help="self-play positions of a search bot (resumable)")
def data_command(
    game: GameArgument,
    games: Annotated[int, typer.Option("-n", "--games")] = 40,
    seed: Seed = 1,
    players: Annotated[int | None, typer.Option("-p", "--players")] = None,
    bot: Bot = SEARCH_BOT,
    chunk: Annotated[int, typer.Option("--chunk", help="games per chunk file")] = 2,
    out: Annotated[Path | None, typer.Option("--out", help="default learn-data/GAME")] = None,
) -> None:
    """Write self-play positions of a search bot in chunk files."""
    _checked(game)
    from tikki.learn import data

    folder = out or DATA_ROOT / game
    try:
        paths = data.generate(game, folder, games, seed, players, bot, chunk, progress=_say)
    except RulesError as err:
        raise fail(str(err)) from None
    print(f"{len(paths)} chunks in {folder}")


@app.command("train", help="train GAME's model on its data (--games N: make the data first)")
def train_command(
    game: GameArgument,
    data: Annotated[
        list[Path] | None,
        typer.Option(
            "--data",
            help="default learn-data/GAME; repeat to train on several folders joined"
            " (--games makes the first)",
        ),
    ] = None,
    games: Annotated[int, typer.Option("-n", "--games", help="self-play games to have")] = 0,
    bot: Bot = SEARCH_BOT,
    seed: Seed = 1,
    epochs: Annotated[int, typer.Option("--epochs")] = 8,
    patience: Annotated[
        int, typer.Option("--patience", help="stop after N epochs without a better one")
    ] = 0,
    hidden: Annotated[str, typer.Option("--hidden", help="the two layers' widths")] = "128,64",
    target: Annotated[
        str,
        typer.Option(
            "--target", help="the policy's target: the search's visit shares or the move played"
        ),
    ] = "visits",
    value: Annotated[
        str,
        typer.Option(
            "--value",
            help="the value: ridge regression on the observation, or the old joint MLP head",
        ),
    ] = "linear",
    init: Annotated[
        Path | None, typer.Option("--init", help="start from this model's weights (warm start)")
    ] = None,
    out: Annotated[
        Path | None, typer.Option("-o", "--out", help="default learn-data/GAME/model.npz")
    ] = None,
    ship: Annotated[
        bool, typer.Option("--ship", help="write tikki/models/GAME.npz (the shipped model)")
    ] = False,
) -> None:
    """Train GAME's model on its data, making the data first with --games N."""
    _checked(game)
    from tikki import inference
    from tikki.learn import data as datalib
    from tikki.learn import train

    try:
        widths = _hidden(hidden)
        folders = data or [DATA_ROOT / game]
        target_file = inference.shipped(game) if ship else _checked_out(out, folders[0])
        datalib.check_folders(folders, game, datalib.DEFAULT_PLAYERS.get(game) if ship else None)
        if games > 0:
            datalib.generate(game, folders[0], games, seed, bot=bot, progress=_say)
        trained = train.train(
            datalib.join(folders),
            hidden=widths,
            epochs=epochs,
            seed=seed,
            progress=_say,
            target=target,
            value=value,
            patience=patience,
            init=inference.read(init) if init is not None else None,
        )
        trained.save(target_file)
    except (RulesError, OutputError) as err:
        raise fail(str(err)) from None
    print(f"{target_file}: {json.dumps(trained.meta['validation'])}")


def _checked_out(out: Path | None, folder: Path) -> Path:
    """The model file to write: ``--out`` checked before any work as every command's
    output is (an ``.npz`` in a folder that exists), else ``model.npz`` in the data
    folder (made with the data)."""
    if out is None:
        return folder / "model.npz"
    return outputs.check("--out", out, "npz").path


def _hidden(text: str) -> tuple[int, int]:
    parts = text.split(",")
    if len(parts) != 2 or not all(p.strip().isdigit() and int(p) > 0 for p in parts):
        raise RulesError(_t("--hidden is two whole numbers, e.g. 128,64; got {text!r}", text=text))
    return int(parts[0]), int(parts[1])


REINFORCE_HELP = (
    "REINFORCE with a baseline: the learner samples its moves in one seat (rotated) against"
    " --against bots; the greedy policy is evaluated on a fixed set of arena games every"
    " --eval-every updates and the best checkpoint is kept."
)
"""What ``reinforce --help`` says first."""


@app.command(
    "reinforce",
    help=REINFORCE_HELP,
    short_help="fine-tune a model by policy gradient against fixed opponents",
)
def reinforce_command(
    game: Annotated[
        str,
        typer.Argument(
            metavar="GAME",
            help="the game whose model is trained (`tikki games` lists them)",
            show_default=False,
        ),
    ],
    out: Annotated[Path, typer.Option("-o", "--out", help="the best model (.npz)")],
    init: Annotated[
        Path | None,
        typer.Option("--init", help="the starting model (.npz); None: the game's shipped one"),
    ] = None,
    against: Annotated[str, typer.Option("--against", help="the opponents' bot spec")] = (
        "heuristic"
    ),
    games: Annotated[int, typer.Option("-n", "--games", help="training games")] = 2000,
    seed: Annotated[int, typer.Option("--seed", help="the same seed gives the same model")] = 1,
    players: Annotated[
        int | None, typer.Option("-p", "--players", help="None: the game's default")
    ] = None,
    batch: Annotated[int, typer.Option("--batch", help="games per update")] = 32,
    lr: Annotated[float, typer.Option("--lr", help="AdamW learning rate")] = 1e-4,
    weight_decay: Annotated[float, typer.Option("--weight-decay", help="AdamW weight decay")] = 0.0,
    temperature: Annotated[float, typer.Option("--temperature", help="of the sampled moves")] = 1.0,
    entropy: Annotated[float, typer.Option("--entropy", help="entropy bonus weight")] = 0.0,
    baseline: Annotated[
        str,
        typer.Option(
            "--baseline",
            help="value (the starting model's), mean (the batch's) or group (the deal's other"
            " games)",
        ),
    ] = "value",
    group: Annotated[int, typer.Option("--group", help="games a deal (with --baseline group)")] = 1,
    rollouts: Annotated[
        int,
        typer.Option(
            "--rollouts",
            help="value every legal move by N rollouts a decision (the all-action gradient)",
        ),
    ] = 0,
    margin: Annotated[
        bool,
        typer.Option(
            "--margin",
            help="reward the seat's gain minus the others' mean (what the arena's advantage"
            " scores)",
        ),
    ] = False,
    average: Annotated[
        float,
        typer.Option(
            "--average",
            help="evaluate and keep a running average of the weights (e.g. 0.99; 0: off)",
        ),
    ] = 0.0,
    eval_every: Annotated[
        int, typer.Option("--eval-every", help="updates between evaluations")
    ] = 20,
    eval_games: Annotated[
        int, typer.Option("--eval-games", help="games of each evaluation (seats rotated)")
    ] = 300,
    eval_seed: Annotated[int, typer.Option("--eval-seed", help="not the protocol's 12")] = 99,
) -> None:
    """Fine-tune a model by policy gradient against fixed opponents."""
    _checked(game)
    from tikki import inference
    from tikki.learn import reinforce

    try:
        if out.suffix != ".npz":
            raise RulesError(_t("--out is a .npz file, not {path!r}", path=str(out)))
        recipe = reinforce.Recipe(
            game=game,
            init=init or inference.shipped(game),
            out=out,
            against=against,
            games=games,
            seed=seed,
            players=players,
            batch=batch,
            lr=lr,
            weight_decay=weight_decay,
            temperature=temperature,
            entropy=entropy,
            baseline=baseline,
            group=group,
            rollouts=rollouts,
            margin=margin,
            average=average,
            eval_every=eval_every,
            eval_games=eval_games,
            eval_seed=eval_seed,
        )
        best = reinforce.reinforce(recipe, progress=_say)
    except RulesError as err:
        raise fail(str(err)) from None
    print(f"{out}: {best.meta['reinforce']['eval']}")


@app.command("eval", help="a model's figures on held-out data")
def eval_command(
    game: GameArgument,
    model: Annotated[
        Path | None,
        typer.Option(
            "--model", help="the model to evaluate (.npz); default: the game's shipped one"
        ),
    ] = None,
    data: Annotated[Path | None, typer.Option("--data", help="default learn-data/GAME")] = None,
) -> None:
    """A model's figures on held-out data."""
    _checked(game)
    from tikki import inference
    from tikki.learn import data as datalib
    from tikki.learn import train

    try:
        loaded = inference.read(model or inference.shipped(game))
        rows = datalib.load(data or DATA_ROOT / game)
        if rows["observation"].shape[1] != loaded.inputs:
            raise RulesError(_t("the data and the model are for different games or player counts"))
    except RulesError as err:
        raise fail(str(err)) from None
    print(json.dumps({"data": train.evaluate(loaded, rows), "trained": loaded.meta}, indent=1))


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
