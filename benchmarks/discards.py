"""Mückenstich discards: the search against the heuristic's rules (``expert:rules``).

Two measurements, one table each:

1. **What the bots set aside** (MS-4): over ``--deals`` fresh 4-player deals, the share of
   each bot's discards that are mosquitoes, beside the share of mosquitoes among the cards
   it held (the base rate).
2. **What it is worth**: one round of each deal, ``A`` and ``B`` (by default ``expert``
   with its discards searched, ``rules=0``, and by rule, ``rules=1``) in each seat in turn
   against three ``--opponent``; each round's score minus the others' mean, and the paired
   difference ``B - A`` per deal with its 95% interval (deals are the clusters).

Deal ``d`` (from ``--first`` on) is ``new_state(seed=SEED + d)`` and seat ``s``'s bot has seed
``10 d + s``, so a run with ``--first`` continues another exactly.

Run: ``.venv/bin/python benchmarks/discards.py [--deals 60] [--first 0] [--seed 5000]
[--a expert:iterations=1000:rules=0] [--b expert:iterations=1000:rules=1]
[--opponent ismcts:iterations=500] [--part both|shares|worth]`` (progress, one line per
deal, goes to stderr).
"""

from __future__ import annotations

import argparse
import statistics
import sys

from rich.console import Console
from rich.table import Table

import tikki
from tikki import arena, bots

PLAYERS = 4


def mosquito_shares(spec: str, deals: range, seed: int) -> tuple[float, float]:
    """The share of mosquitoes among ``spec``'s discards and among the cards it held."""
    game = tikki.load("mueckenstich", players=PLAYERS)
    set_aside = mosquitoes = held = held_mosquitoes = 0
    for d in deals:
        state = game.new_state(seed=seed + d)
        bot = bots.make(spec, seed=d)
        while state.view(0)["phase"] == "discard":
            seat = state.current_player
            assert seat is not None
            view = state.view(seat)
            if not view["discards"]:
                held += len(view["hand"])
                held_mosquitoes += sum(c.startswith("M") for c in view["hand"])
            move = bot.choose(game, view)
            set_aside += 1
            mosquitoes += move.split()[-1].startswith("M")
            state.play(move)
    return mosquitoes / set_aside, held_mosquitoes / held


def round_advantage(spec: str, opponent: str, seed: int, seat: int, deal: int) -> float:
    """One round of deal ``deal``: ``spec`` in ``seat`` against three ``opponent``s;
    its score minus the others' mean."""
    game = tikki.load("mueckenstich", players=PLAYERS)
    state = game.new_state(seed=seed + deal)
    lineup = [
        bots.make(spec if s == seat else opponent, seed=deal * 10 + s) for s in range(PLAYERS)
    ]
    while not state.is_over and state.view(0)["round"] == 0:
        to_act = state.current_player
        assert to_act is not None
        state.play(lineup[to_act].choose(game, state.view(to_act)))
    scores = state.returns_so_far()
    return scores[seat] - (sum(scores) - scores[seat]) / (PLAYERS - 1)


def main() -> None:
    """Measure and print the tables asked for."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--first", type=int, default=0, help="the first deal's number")
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--a", default="expert:iterations=1000:rules=0")
    parser.add_argument("--b", default="expert:iterations=1000:rules=1")
    parser.add_argument("--opponent", default="ismcts:iterations=500")
    parser.add_argument("--part", choices=("both", "shares", "worth"), default="both")
    args = parser.parse_args()
    deals = range(args.first, args.first + args.deals)
    console = Console(width=120)

    if args.part != "worth":
        console.print(shares_table(args, deals))
    if args.part != "shares":
        console.print(worth_table(args, deals))


def shares_table(args: argparse.Namespace, deals: range) -> Table:
    """Table 1: the mosquitoes among the discards of each bot."""
    shares = Table(title=f"Mosquitoes set aside, {args.deals} deals of 4 players")
    for column in ("bot", "mosquitoes among its discards", "among the cards it held"):
        shares.add_column(column)
    for spec in ("heuristic", args.opponent, args.a, args.b):
        aside, base = mosquito_shares(spec, deals, args.seed)
        shares.add_row(spec, f"{aside:.1%}", f"{base:.1%}")
    return shares


def worth_table(args: argparse.Namespace, deals: range) -> Table:
    """Table 2: A and B against three opponents, one round a deal, each seat in turn."""
    per_deal: list[tuple[float, float]] = []
    for deal in deals:
        a, b = (
            statistics.mean(
                round_advantage(spec, args.opponent, args.seed, seat, deal)
                for seat in range(PLAYERS)
            )
            for spec in (args.a, args.b)
        )
        per_deal.append((a, b))
        print(
            f"deal {len(per_deal)}/{args.deals}: A {a:+.2f}, B {b:+.2f}",
            file=sys.stderr,
        )
    worth = Table(title=f"One round a deal, each seat in turn, against three {args.opponent}")
    for column in ("bot", "points a round over the others", "95% interval"):
        worth.add_column(column)
    for label, values in (
        (f"A {args.a}", [a for a, _ in per_deal]),
        (f"B {args.b}", [b for _, b in per_deal]),
        ("B - A (paired by deal)", [b - a for a, b in per_deal]),
    ):
        mean, (low, high) = arena.mean_ci(values)
        worth.add_row(label, f"{mean:+.2f}", f"{low:+.2f} to {high:+.2f}")
    return worth


if __name__ == "__main__":
    main()
