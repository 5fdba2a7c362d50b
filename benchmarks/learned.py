"""Learned models: their held-out figures and what guidance costs the search.

For each game's shipped model (``tikki/models/<game>.npz``) the table gives the data it
was trained on and its held-out figures (:func:`tikki.learn.train.evaluate`), then the
``expert`` search's iterations per second on the same positions (drawn from heuristic
self-play, seeded) plain, with learned priors (``priors=1``) and with the learned value in
place of rollouts (``value=1``), at the same time budget a move: the ratio is what the
guidance costs in search speed.  The strength figures are arena runs (docs/bots.md).

Run: ``.venv/bin/python benchmarks/learned.py [--positions 6] [--seconds 0.3] [--seed 5]``

``--duel GAME:X,Y`` (repeatable) instead plays arena runs, one ``X`` against ``n−1`` ``Y``
over duplicate deals with seats rotated (``--games``, ``--seed``; the same as ``tikki arena
GAME --bots X,Y``), and prints X's loss rate (shedding games) or its advantage a round
(Mückenstich) with the 95% interval: e.g. ``--duel mueckenstich:expert:iterations=300:
priors=1,expert:iterations=300`` is an A/B of the priors at equal work.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from rich.console import Console
from rich.table import Table

import tikki
from tikki import arena, bots, inference
from tikki.bots.expert import ExpertBot

GAMES = (("myllymatti", 3), ("mattis", 3), ("mueckenstich", 4))
SPECS = ("", ":priors=1", ":value=1")


def positions(name: str, players: int, count: int, seed: int) -> list[tikki.State]:
    """Seeded states of heuristic play where the player to move has three moves or more
    and the search runs (not a phase played by rule)."""
    game = tikki.load(name, players)
    rng = random.Random(seed)
    found: list[tikki.State] = []
    while len(found) < count:
        state = game.new_state(seed=rng.randrange(10**6))
        heuristic = bots.make("heuristic", seed=rng.randrange(10**6))
        for _ in range(rng.randrange(5, 60)):
            if state.is_over:
                break
            seat = state.current_player
            assert seat is not None
            state.play(heuristic.choose(game, state.view(seat)))
        if (
            not state.is_over
            and len(state.legal_moves()) >= 3
            and state.phase not in game.bots.rule_phases
            and state.phase != game.bots.endgame_phase
        ):
            found.append(state)
    return found


def speed(states: list[tikki.State], spec: str) -> float:
    """The median ISMCTS iterations per second of ``spec`` over ``states``."""
    rates = []
    for i, state in enumerate(states):
        bot = bots.make(spec, seed=i)
        assert isinstance(bot, ExpertBot)
        seat = state.current_player
        assert seat is not None
        bot.choose(state.game, state.view(seat))
        seconds = bot.seconds * (1 - 0.02)
        rates.append(bot.last["iterations"] / seconds if bot.last["how"] == "search" else 0.0)
    return statistics.median(rates)


def duel(text: str, games: int, seed: int) -> str:
    """One arena run ``GAME:X,Y``: X's figure with its 95% interval, and the command."""
    name, _, lineup = text.partition(":")
    x, _, y = lineup.rpartition(",")
    players = dict(GAMES)[name]
    spec = arena.ArenaSpec(name, players, {}, arena.lineup_for(players, (x, y)), games, seed)
    started = time.perf_counter()
    results = arena.run(spec, jobs=1)
    figures = arena.summarize(results, spec.lineup)[0].as_dict()
    if "loss_rate" in figures:
        low, high = figures["loss_ci"]
        figure = f"lost {figures['loss_rate']:.1%} ({low:.1%}–{high:.1%})"
    else:
        low, high = figures["advantage_ci"]
        figure = f"advantage {figures['mean_advantage']:+.2f} a round ({low:+.2f} to {high:+.2f})"
    return (
        f"tikki arena {name} -p {players} --bots {x},{y} --games {games} --seed {seed}: "
        f"{len(results)} games, {x} {figure}, median {figures['think_p50']:.3f} s a move, "
        f"{time.perf_counter() - started:.0f} s"
    )


def main() -> None:
    """Print the table (or the duels' figures)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=0.3)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--duel", action="append", default=[], help="GAME:X,Y (repeatable)")
    parser.add_argument("--games", type=int, default=60)
    args = parser.parse_args()
    if args.duel:
        for text in args.duel:
            print(duel(text, args.games, args.seed), flush=True)
        return
    table = Table(title=f"learned models; expert iterations/s at {args.seconds} s a move")
    for head in ("game", "data", "top-1", "policy CE", "value R²", "plain", "priors", "value"):
        table.add_column(head)
    for name, players in GAMES:
        loaded = inference.load_for(tikki.load(name, players))
        meta, valid = loaded.meta, loaded.meta["validation"]
        states = positions(name, players, args.positions, args.seed)
        rates = [speed(states, f"expert:seconds={args.seconds}{extra}") for extra in SPECS]
        table.add_row(
            name,
            f"{meta['data']['rows']} positions, {meta['data']['games']} games",
            f"{valid['top1']:.1%}",
            f"{valid['policy_ce']:.3f}",
            f"{valid['value_r2']:.2f}",
            f"{rates[0]:.0f}",
            f"{rates[1]:.0f} ({rates[1] / rates[0]:.0%})",
            f"{rates[2]:.0f} ({rates[2] / rates[0]:.0%})",
        )
    Console(width=120).print(table)


if __name__ == "__main__":
    main()
