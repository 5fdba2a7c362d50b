"""An outside yardstick: tikki's bots against OpenSpiel's ``ISMCTSBot``.

One tikki bot (default ``expert``) against n−1 copies of OpenSpiel's own Python
``ISMCTSBot`` (``open_spiel.python.algorithms.ismcts``), playing through tikki's OpenSpiel
adapter (``python_tikki_<game>``):

* **Equal wall time per move:** the tikki bot gets ``--seconds`` (``expert:seconds=S``;
  an ``ismcts`` spec gets ``seconds=S``), and OpenSpiel's bot searches for the same time
  (its search loop run against a clock instead of ``max_simulations``), weighted by the
  number of legal moves as ``expert`` weighs its own (:func:`tikki.bots.expert.time_share`),
  so that both think equally long over the same decisions.
  OpenSpiel's C++ ``ISMCTSBot`` crashes on Python games, so the Python one is used.
* **Seeded:** OpenSpiel's ISMCTS draws its determinizations through
  ``resample_from_infostate`` with an unseeded ``pyspiel.UniformProbabilitySampler``; here
  every OpenSpiel bot gets a resampler (``set_resampler``) drawing from a
  ``numpy.random.RandomState`` seeded from the run seed, the deal and the seat, and seeded
  generators for its own choices and its random rollouts.
* **Duplicate deals, seats rotated:** deal ``d`` is played n times, the tikki bot in each
  seat once (the deal fixed by the game's ``rng_seed``).

Target: ``expert`` loses at most 15% of Myllymatti 3-player games.  The table gives the
tikki bot's loss rate with its Wilson 95% interval, and each side's median seconds and
OpenSpiel's median simulations per move.  Timing-based, so figures vary from run to run.

Run: ``.venv/bin/python benchmarks/openspiel_ismcts.py [--game myllymatti] [--players 3]
[--deals 100] [--seconds 1.0] [--bot expert] [--seed 15] [--jobs 1]`` (needs the
``openspiel`` extra).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts
from rich.console import Console
from rich.table import Table

from tikki import arena
from tikki import bots as botlib
from tikki.bots.expert import time_share
from tikki.interop import openspiel


class TimedISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTS bot, searching for ``seconds`` of wall time a move."""

    def __init__(self, game: Any, seconds: float, seed: int) -> None:
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed + 1))
        super().__init__(
            game,
            evaluator,
            2.0,
            max_simulations=1,
            random_state=np.random.RandomState(seed),
        )
        self.seconds = seconds
        self.simulations: list[int] = []
        sampler = np.random.RandomState(seed + 2)
        self.set_resampler(
            lambda state, player: state.resample_from_infostate(player, sampler.uniform)
        )

    def run_search(self, state: Any) -> Any:
        """OpenSpiel's ``run_search`` with a clock in place of ``max_simulations``."""
        self.reset()
        legal_actions = state.legal_actions()
        if len(legal_actions) == 1:
            return [(legal_actions[0], 1.0)]
        self._root_node = self.create_new_node(state)
        deadline = time.perf_counter() + self.seconds * time_share(len(legal_actions))
        count = 0
        while count < 2 or time.perf_counter() < deadline:  # the first only expands the root
            self.run_simulation(self.sample_root_state(state))
            count += 1
        self.simulations.append(count)
        return self.get_final_policy(state, self._root_node)


def tikki_spec(spec: str, seconds: float) -> str:
    """The tikki bot's spec with the time budget added (``expert``, ``ismcts``)."""
    name, params = botlib.parse_spec(spec)
    if name in ("expert", "ismcts") and "seconds" not in params and "iterations" not in params:
        return f"{spec}:seconds={seconds}"
    return spec


def play(
    args: argparse.Namespace, deal: int, seat: int, spec: str
) -> tuple[bool, list[float], list[int]]:
    """One game: the tikki bot at ``seat``; return whether it lost, its think times and
    OpenSpiel's simulations per move."""
    openspiel.register()
    deal_seed = arena.derive_seed(args.seed, deal) % 2**31
    game = pyspiel.load_game(
        f"python_tikki_{args.game}(players={args.players},rng_seed={deal_seed})"
    )
    tgame = game.tikki_game
    state = game.new_initial_state()
    mine = botlib.make(spec, seed=arena.derive_seed(args.seed, deal, seat))
    others = {
        s: TimedISMCTS(game, args.seconds, arena.derive_seed(args.seed, deal, s, 1) % 2**31)
        for s in range(args.players)
        if s != seat
    }
    times: list[float] = []
    while not state.is_terminal():
        player = state.current_player()
        if player == seat:
            start = time.perf_counter()
            move = mine.choose(tgame, state.tikki_state.view(seat))
            times.append(time.perf_counter() - start)
            state.apply_action(
                next(a for a in state.legal_actions() if state.action_to_string(a) == move)
            )
        else:
            state.apply_action(others[player].step(state))
    simulations = [s for bot in others.values() for s in bot.simulations]
    return state.tikki_state.outcome["loser"] == seat, times, simulations


def main() -> None:
    """Play the deals and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="myllymatti")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--bot", default="expert")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument(
        "--jobs", type=int, default=1, help="games at once, each on its own core (default 1)"
    )
    args = parser.parse_args()
    spec = tikki_spec(args.bot, args.seconds)
    losses, games, times, sims = 0, 0, [], []
    begin = time.perf_counter()
    with ProcessPoolExecutor(max(1, args.jobs)) as pool:
        futures = [
            pool.submit(play, args, deal, seat, spec)
            for deal in range(args.deals)
            for seat in range(args.players)
        ]
        for future in as_completed(futures):
            lost, spent, simulations = future.result()
            losses += lost
            games += 1
            times.extend(spent)
            sims.extend(simulations)
            elapsed = time.perf_counter() - begin
            print(f"game {games}: lost={lost} losses={losses} {elapsed:.0f}s", file=sys.stderr)
    low, high = arena.wilson(losses, games)
    table = Table(
        title=(
            f"{spec} vs OpenSpiel ISMCTSBot (Python), {args.game} {args.players}p, "
            f"{args.deals} deals × {args.players} seats, {args.seconds} s a move, seed {args.seed}"
        )
    )
    for column in ("Games", "Loss", "95% interval", "tikki s/move (median)", "OpenSpiel sims/move"):
        table.add_column(column)
    table.add_row(
        str(games),
        f"{losses / games:.1%}",
        f"{low:.1%}–{high:.1%}",
        f"{statistics.median(times):.3f}" if times else "-",
        f"{statistics.median(sims):.0f}" if sims else "-",
    )
    Console(width=200).print(table)


if __name__ == "__main__":
    main()
