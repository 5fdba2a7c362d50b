"""The command line of :mod:`tikki.learn`: ``data``, ``train``, ``reinforce`` and ``eval`` a
game's model."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from tikki.core import RulesError, game_class
from tikki.i18n import _ as _t

DATA_ROOT = Path("learn-data")
"""Where ``data`` writes and ``train`` reads by default: ``learn-data/<game>/``."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m tikki.learn",
        description="Self-play data, training and evaluation of the learned models.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    data = sub.add_parser("data", help="self-play positions of a search bot (resumable)")
    data.add_argument("game")
    data.add_argument("-n", "--games", type=int, default=40)
    data.add_argument("--seed", type=int, default=1)
    data.add_argument("-p", "--players", type=int, default=None)
    data.add_argument("--bot", default="ismcts:iterations=200")
    data.add_argument("--chunk", type=int, default=2, help="games per chunk file")
    data.add_argument("--out", type=Path, default=None, help="default learn-data/GAME")
    train = sub.add_parser(
        "train", help="train GAME's model on its data (--games N: make the data first)"
    )
    train.add_argument("game")
    train.add_argument(
        "--data",
        type=Path,
        action="append",
        default=None,
        help="default learn-data/GAME; repeat to train on several folders joined"
        " (--games makes the first)",
    )
    train.add_argument("-n", "--games", type=int, default=0, help="self-play games to have")
    train.add_argument("--bot", default="ismcts:iterations=200")
    train.add_argument("--seed", type=int, default=1)
    train.add_argument("--epochs", type=int, default=8)
    train.add_argument(
        "--patience", type=int, default=0, help="stop after N epochs without a better one"
    )
    train.add_argument("--hidden", default="128,64", help="the two layers' widths")
    train.add_argument(
        "--target",
        default="visits",
        help="the policy's target: the search's visit shares or the move played",
    )
    train.add_argument(
        "--value",
        default="linear",
        help="the value: ridge regression on the observation, or the old joint MLP head",
    )
    train.add_argument(
        "--init", type=Path, default=None, help="start from this model's weights (warm start)"
    )
    train.add_argument(
        "-o", "--out", type=Path, default=None, help="default learn-data/GAME/model.npz"
    )
    train.add_argument(
        "--ship", action="store_true", help="write tikki/models/GAME.npz (the shipped model)"
    )
    _reinforce_parser(sub)
    show = sub.add_parser("eval", help="a model's figures on held-out data")
    show.add_argument("game")
    show.add_argument(
        "--model",
        type=Path,
        default=None,
        help="the model to evaluate (.npz); default: the game's shipped one",
    )
    show.add_argument("--data", type=Path, default=None, help="default learn-data/GAME")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; 0 on success, 2 with a one-line error."""
    args = _parser().parse_args(argv)
    try:
        game_class(args.game)  # an unknown game fails here, clearly
        if args.command == "data":
            from tikki.learn import data

            out = args.out or DATA_ROOT / args.game
            paths = data.generate(
                args.game,
                out,
                args.games,
                args.seed,
                args.players,
                args.bot,
                args.chunk,
                progress=_say,
            )
            print(f"{len(paths)} chunks in {out}")
        elif args.command == "train":
            return _train(args)
        elif args.command == "reinforce":
            return _reinforce(args)
        else:
            return _eval(args)
    except RulesError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    return 0


def _hidden(text: str) -> tuple[int, int]:
    parts = text.split(",")
    if len(parts) != 2 or not all(p.strip().isdigit() and int(p) > 0 for p in parts):
        raise RulesError(_t("--hidden is two whole numbers, e.g. 128,64; got {text!r}", text=text))
    return int(parts[0]), int(parts[1])


def _train(args: argparse.Namespace) -> int:
    from tikki import inference
    from tikki.learn import data, train

    hidden = _hidden(args.hidden)
    folders = args.data or [DATA_ROOT / args.game]
    folder = folders[0]
    if args.games > 0:
        data.generate(args.game, folder, args.games, args.seed, bot=args.bot, progress=_say)
    trained = train.train(
        data.join(folders),
        hidden=hidden,
        epochs=args.epochs,
        seed=args.seed,
        progress=_say,
        target=args.target,
        value=args.value,
        patience=args.patience,
        init=inference.read(args.init) if args.init is not None else None,
    )
    out = inference.shipped(args.game) if args.ship else args.out or folder / "model.npz"
    trained.save(out)
    print(f"{out}: {json.dumps(trained.meta['validation'])}")
    return 0


def _reinforce_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    rl = sub.add_parser(
        "reinforce",
        help="fine-tune a model by policy gradient against fixed opponents",
        description="REINFORCE with a baseline: the learner samples its moves in one seat"
        " (rotated) against --against bots; the greedy policy is evaluated on a fixed set"
        " of arena games every --eval-every updates and the best checkpoint is kept.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    rl.add_argument("game", help="the game whose model is trained (`tikki games` lists them)")
    rl.add_argument(
        "--init",
        type=Path,
        default=None,
        help="the starting model (.npz); None: the game's shipped one",
    )
    rl.add_argument("--against", default="heuristic", help="the opponents' bot spec")
    rl.add_argument("-n", "--games", type=int, default=2000, help="training games")
    rl.add_argument("--seed", type=int, default=1, help="the same seed gives the same model")
    rl.add_argument("-p", "--players", type=int, default=None, help="None: the game's default")
    rl.add_argument("--batch", type=int, default=32, help="games per update")
    rl.add_argument("--lr", type=float, default=1e-4, help="AdamW learning rate")
    rl.add_argument("--weight-decay", type=float, default=0.0, help="AdamW weight decay")
    rl.add_argument("--temperature", type=float, default=1.0, help="of the sampled moves")
    rl.add_argument("--entropy", type=float, default=0.0, help="entropy bonus weight")
    rl.add_argument(
        "--baseline",
        default="value",
        help="value (the starting model's), mean (the batch's) or group (the deal's other games)",
    )
    rl.add_argument("--group", type=int, default=1, help="games a deal (with --baseline group)")
    rl.add_argument(
        "--rollouts",
        type=int,
        default=0,
        help="value every legal move by N rollouts a decision (the all-action gradient)",
    )
    rl.add_argument(
        "--margin",
        action="store_true",
        help="reward the seat's gain minus the others' mean (what the arena's advantage scores)",
    )
    rl.add_argument(
        "--average",
        type=float,
        default=0.0,
        help="evaluate and keep a running average of the weights (e.g. 0.99; 0: off)",
    )
    rl.add_argument("--eval-every", type=int, default=20, help="updates between evaluations")
    rl.add_argument(
        "--eval-games", type=int, default=300, help="games of each evaluation (seats rotated)"
    )
    rl.add_argument("--eval-seed", type=int, default=99, help="not the protocol's 12")
    rl.add_argument("-o", "--out", type=Path, required=True, help="the best model (.npz)")


def _reinforce(args: argparse.Namespace) -> int:
    from tikki import inference
    from tikki.learn import reinforce

    if args.out.suffix != ".npz":
        raise RulesError(_t("--out is a .npz file, not {path!r}", path=str(args.out)))
    recipe = reinforce.Recipe(
        game=args.game,
        init=args.init or inference.shipped(args.game),
        out=args.out,
        against=args.against,
        games=args.games,
        seed=args.seed,
        players=args.players,
        batch=args.batch,
        lr=args.lr,
        weight_decay=args.weight_decay,
        temperature=args.temperature,
        entropy=args.entropy,
        baseline=args.baseline,
        group=args.group,
        rollouts=args.rollouts,
        margin=args.margin,
        average=args.average,
        eval_every=args.eval_every,
        eval_games=args.eval_games,
        eval_seed=args.eval_seed,
    )
    best = reinforce.reinforce(recipe, progress=_say)
    print(f"{args.out}: {best.meta['reinforce']['eval']}")
    return 0


def _eval(args: argparse.Namespace) -> int:
    from tikki import inference
    from tikki.learn import data, train

    loaded = inference.read(args.model or inference.shipped(args.game))
    rows = data.load(args.data or DATA_ROOT / args.game)
    if rows["observation"].shape[1] != loaded.inputs:
        raise RulesError(_t("the data and the model are for different games or player counts"))
    print(json.dumps({"data": train.evaluate(loaded, rows), "trained": loaded.meta}, indent=1))
    return 0


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
