"""How well models of play predict a bot's moves, per game (the gate for inference).

Inference from play (``expert:inference=policy``, :mod:`tikki.bots.worlds`: each
determinization weighted by how likely the other seats' moves so far were under a model of
their play) can only help if the model predicts what the opponents play.  This plays
``--games`` games of ``--bot`` seats (Mückenstich: first rounds of 4 seats; Myllymatti and
Mattis: whole 3-player games) and, at every decision with a choice of at least two distinct
moves, asks each model which move it would make from the same view:

* ``learned``: the game's shipped policy (``tikki/models/<game>.npz``, trained on other
  deals: its data were dealt from seed 1 on, a few hundred games; these from ``--seed``):
  its most probable move, and the mean probability it gives the move played (what a
  world's weight multiplies);
* ``cheap_card`` (Mückenstich's card plays only): the quick rule of the greedy playouts
  (:func:`tikki.games.mueckenstich_tactics.cheap_card`), Mückenstich's opponent model in
  the inference;
* ``heuristic``: the heuristic bot (a view per decision: too slow to weigh every world,
  measured as a ceiling);

and prints, per model, the share of decisions it predicted exactly (Wilson 95% interval)
beside chance (the mean of ``1/k`` over the decisions, ``k`` distinct legal moves).  A model
no better than chance carries no information about the hidden hands.

Game ``g`` is ``new_state(seed=SEED + g)``, seat ``s``'s bot has seed ``10 g + s``.

Run: ``.venv/bin/python benchmarks/predict.py [--game all|myllymatti|mattis|mueckenstich]
[--bot ismcts:iterations=500] [--games 8] [--seed 7000]`` (progress, one line per game,
goes to stderr).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table

import tikki
from tikki import arena, bots
from tikki.bots.heuristic import policy_for
from tikki.cards import COLOURS
from tikki.games.mueckenstich import CARD_TEXT, TEXT_CARD
from tikki.games.mueckenstich_tactics import cheap_card
from tikki.inference import ViewPolicy

PLAYERS = {"myllymatti": 3, "mattis": 3, "mueckenstich": 4}


def cheap_prediction(view: Mapping[str, Any]) -> str:
    """The card ``cheap_card`` plays from a Mückenstich ``view`` (a card play)."""
    options = sorted(TEXT_CARD[m] for m in view["legal_moves"])
    trick = [(t["seat"], TEXT_CARD[t["card"]]) for t in view["trick"]]
    led = -1 if view["led"] is None else COLOURS.index(view["led"])
    trump = -1 if view["trump"] is None else COLOURS.index(view["trump"])
    n = int(view["players"])
    return CARD_TEXT[cheap_card(options, trick, view["seat"], led, trump, n)]


@dataclass
class Counts:
    """Decisions with a choice and each model's exact predictions."""

    decisions: int = 0
    chance: float = 0.0
    hits: dict[str, int] = field(default_factory=dict)
    learned_p: float = 0.0
    cheap_plays: int = 0
    cheap_chance: float = 0.0


def _predict(
    game: tikki.Game, view: Mapping[str, Any], move: str, model: ViewPolicy, c: Counts, r: int
) -> None:
    """Count one decision of ``view``'s seat, which played ``move``."""
    legal = view["legal_moves"]
    c.decisions += 1
    c.chance += 1 / len(set(legal))
    probs = model.probabilities(game, view, random.Random(r))
    c.learned_p += probs.get(move, 0.0)
    best = max(legal, key=lambda m: probs.get(m, 0.0))
    c.hits["learned"] = c.hits.get("learned", 0) + (best == move)
    guess = policy_for(game)(game, view, random.Random(r))
    c.hits["heuristic"] = c.hits.get("heuristic", 0) + (guess == move)
    if game.name == "mueckenstich" and view["phase"] == "play" and not view["naming_trump"]:
        c.cheap_plays += 1
        c.cheap_chance += 1 / len(set(legal))
        c.hits["cheap_card"] = c.hits.get("cheap_card", 0) + (cheap_prediction(view) == move)


def count(name: str, spec: str, games: range, seed: int) -> Counts:
    """Play the games and count every decision with a choice."""
    players = PLAYERS[name]
    game = tikki.load(name, players=players)
    model = ViewPolicy(game)
    c = Counts()
    for g in games:
        state = game.new_state(seed=seed + g)
        lineup = [bots.make(spec, seed=10 * g + s) for s in range(players)]
        while not state.is_over and (name != "mueckenstich" or state.view(0)["round"] == 0):
            seat = state.current_player
            assert seat is not None
            view = state.view(seat)
            move = lineup[seat].choose(game, view)
            if len(set(view["legal_moves"])) > 1:
                _predict(game, view, move, model, c, g)
            state.play(move)
        done = g - games.start + 1
        print(f"{name} game {done}/{len(games)}: {c.decisions} decisions", file=sys.stderr)
    return c


def report(name: str, spec: str, games: int, c: Counts) -> Table:
    """One game's table."""
    table = Table(
        title=f"{name}: moves of {spec} predicted, {c.decisions} decisions with a choice,"
        f" {games} {'first rounds' if name == 'mueckenstich' else 'games'}"
    )
    for column in ("model", "predicted", "95% interval", "p(move played)"):
        table.add_column(column)
    for label, key in (("learned (shipped policy)", "learned"), ("heuristic bot", "heuristic")):
        hits = c.hits.get(key, 0)
        low, high = arena.wilson(hits, c.decisions)
        p = f"{c.learned_p / c.decisions:.3f}" if key == "learned" else ""
        table.add_row(label, f"{hits / c.decisions:.1%}", f"{low:.1%} to {high:.1%}", p)
    table.add_row(
        "chance (1/k)", f"{c.chance / c.decisions:.1%}", "", f"{c.chance / c.decisions:.3f}"
    )
    if c.cheap_plays:
        hits = c.hits.get("cheap_card", 0)
        low, high = arena.wilson(hits, c.cheap_plays)
        table.add_row(
            f"cheap_card (card plays only, {c.cheap_plays})",
            f"{hits / c.cheap_plays:.1%}",
            f"{low:.1%} to {high:.1%}",
            "",
        )
        table.add_row("chance on those plays", f"{c.cheap_chance / c.cheap_plays:.1%}", "", "")
    return table


def main() -> None:
    """Measure and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="all", choices=["all", *PLAYERS])
    parser.add_argument("--bot", default="ismcts:iterations=500", help="the seats' bot")
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seed", type=int, default=7000)
    args = parser.parse_args()
    names = list(PLAYERS) if args.game == "all" else [args.game]
    console = Console(width=120)
    for name in names:
        c = count(name, args.bot, range(args.games), args.seed)
        console.print(report(name, args.bot, args.games, c))


if __name__ == "__main__":
    main()
