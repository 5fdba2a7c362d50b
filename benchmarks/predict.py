"""How well a model of play predicts a bot's Mückenstich cards (the gate for inference).

Inference from play, weighting each determinization by how likely the opponents' cards so
far were under a model of their play (the next lever for ``expert`` in
Mückenstich), can only help if the model predicts what the opponents play.  This plays
``--rounds`` first rounds of 4 ``--bot`` seats and, at every card play with a choice of at
least two distinct cards, asks each model which card it would play from the same view:

* ``cheap_card``: the quick rule of the greedy playouts
  (:func:`tikki.games.mueckenstich_tactics.cheap_card`), the only model cheap enough to
  evaluate for every sampled world;
* ``heuristic``: the heuristic bot (a view per play: far too slow to weigh thousands of
  worlds a move, measured here as the better model's ceiling);

and prints, per model, the share of plays it predicted exactly (Wilson 95% interval)
beside chance (the mean of ``1/k`` over the plays, ``k`` distinct legal cards).  A model
no better than chance carries no information about the hidden hands.

Round ``r`` is the first round of ``new_state(seed=SEED + r)``, seat ``s``'s bot has seed
``10 r + s``.

Run: ``.venv/bin/python benchmarks/predict.py [--bot ismcts:iterations=500] [--rounds 12]
[--seed 7000]`` (progress, one line per round, goes to stderr).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.table import Table

import tikki
from tikki import arena, bots
from tikki.bots.heuristic import policy_for
from tikki.cards import COLOURS
from tikki.games.mueckenstich import CARD_TEXT, TEXT_CARD
from tikki.games.mueckenstich_tactics import cheap_card

PLAYERS = 4


def cheap_prediction(view: Mapping[str, Any]) -> str:
    """The card ``cheap_card`` plays from ``view`` (a card play, not a trump naming)."""
    options = sorted(TEXT_CARD[m] for m in view["legal_moves"])
    trick = [(t["seat"], TEXT_CARD[t["card"]]) for t in view["trick"]]
    led = -1 if view["led"] is None else COLOURS.index(view["led"])
    trump = -1 if view["trump"] is None else COLOURS.index(view["trump"])
    return CARD_TEXT[cheap_card(options, trick, view["seat"], led, trump, PLAYERS)]


def count(spec: str, rounds: range, seed: int) -> tuple[int, int, int, float]:
    """Plays with a choice, those ``cheap_card`` and the heuristic predicted, and the
    summed chance ``1/k`` of a uniform guess."""
    game = tikki.load("mueckenstich", players=PLAYERS)
    heuristic = policy_for(game)
    plays = cheap = guessed = 0
    chance = 0.0
    for r in rounds:
        state = game.new_state(seed=seed + r)
        lineup = [bots.make(spec, seed=10 * r + s) for s in range(PLAYERS)]
        while not state.is_over and state.view(0)["round"] == 0:
            seat = state.current_player
            assert seat is not None
            view = state.view(seat)
            move = lineup[seat].choose(game, view)
            legal = view["legal_moves"]
            if view["phase"] == "play" and not view["naming_trump"] and len(set(legal)) > 1:
                plays += 1
                chance += 1 / len(set(legal))
                cheap += cheap_prediction(view) == move
                guessed += heuristic(game, view, random.Random(r)) == move
            state.play(move)
        print(f"round {r - rounds.start + 1}/{len(rounds)}: {plays} plays", file=sys.stderr)
    return plays, cheap, guessed, chance


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="ismcts:iterations=500", help="the seats' bot")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--seed", type=int, default=7000)
    args = parser.parse_args()
    plays, cheap, guessed, chance = count(args.bot, range(args.rounds), args.seed)
    table = Table(
        title=f"Cards of {args.bot} predicted, {plays} plays with a choice, {args.rounds} rounds"
    )
    for column in ("model", "predicted", "95% interval"):
        table.add_column(column)
    for label, hits in (("cheap_card (playouts)", cheap), ("heuristic bot", guessed)):
        low, high = arena.wilson(hits, plays)
        table.add_row(label, f"{hits / plays:.1%}", f"{low:.1%} to {high:.1%}")
    table.add_row("chance (1/k)", f"{chance / plays:.1%}", "")
    Console(width=120).print(table)


if __name__ == "__main__":
    main()
