"""Steps per second through the OpenSpiel and PettingZoo adapters beside tikki's own API.

Random playouts of one game (default Myllymatti, 3 players), each loop as a user writes it:

- *tikki*: ``state.play(rng.choice(state.legal_moves()))`` until ``state.is_over``;
- *OpenSpiel*: ``state.apply_action(rng.choice(state.legal_actions()))`` on
  ``pyspiel.load_game("python_tikki_myllymatti(players=3)")``;
- *OpenSpiel + obs*: the same, also reading ``state.observation_tensor()`` of the player to
  act before each move (what a learning loop does); the adapter answers it in Python from
  the state encoder (a list of floats, as OpenSpiel returns), without OpenSpiel's sizing
  deal;
- *OpenSpiel + observer*: reading the observation through an observer instead
  (``game.make_py_observer()``, ``observer.set_from(state, player)``, ``observer.tensor``),
  which skips that sizing;
- *PettingZoo*: ``for agent in env.agent_iter(): obs, ... = env.last()``, a random legal
  action from ``obs["action_mask"]``, ``env.step(action)`` (``last()`` builds the
  observation, as it does in every PettingZoo loop).

- *RLCard UNO*: ``env.step`` of RLCard's UNO environment with a random legal action (it
  encodes an observation at every step): the yardstick of the targets (``bench`` extra);
- *PettingZoo parallel*: ``parallel_env``, one move a step, every live agent's observation
  and mask each step (as PettingZoo's parallel API hands them out);
- *Gym vector*: :class:`tikki.rl.VectorEnv`, N games stepped per call, observations and
  masks for every game written into one preallocated array each (``gym`` extra); a step
  is one agent move.  The actions are drawn from the masks with NumPy, inside the timing.

Targets: PettingZoo ≥ 50k steps/s and ≥ 0.6× RLCard UNO; OpenSpiel + obs ≥ 40k;
Gym vector ≥ 150k (on the compiled build, whose ``COMPILED_MODULES`` hold the vector's
lists too: ``make compiled``, then ``cd .build-compiled && PYTHONPATH=.
../.venv/bin/python benchmarks/adapters.py --only "Gym vector"``).  Times are the
process's CPU time (``time.process_time``), so other processes on a shared machine
disturb the figures less.  The title says whether the engine is the compiled build
(``tikki.COMPILED``, ``setup.py``) or pure Python.

A step is one move of a player (dealing and the PettingZoo steps that retire finished
agents are not counted).  ``× tikki`` is each loop's steps/s over the native loop's.

Run: ``.venv/bin/python benchmarks/adapters.py [--seconds S] [--game NAME] [--players N]
[--only LABEL]`` (``--only "Gym vector"``: the loops whose label holds it, the native one
for the ratio)
(needs the ``openspiel`` and ``pettingzoo`` extras; a missing one is skipped with a note).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table

import tikki

Loop = Callable[[int], int]
"""Plays one game from a seed; returns the number of moves played."""


def native_loop(name: str, players: int) -> Loop:
    """tikki's own text API."""
    game = tikki.load(name, players)

    def play(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        moves = 0
        while not state.is_over:
            state.play(rng.choice(state.legal_moves()))
            moves += 1
        return moves

    return play


def openspiel_loop(name: str, players: int, observe: str = "") -> Loop:
    """The OpenSpiel adapter; ``observe``: "", "tensor" (``observation_tensor``) or
    "observer" (a Python observer) read at each step."""
    import pyspiel

    from tikki.interop import openspiel

    openspiel.register()
    game = pyspiel.load_game(f"{openspiel.PREFIX}{name}(players={players},rng_seed=1)")
    observer = game.make_py_observer()

    def play(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            if observe == "tensor":
                state.observation_tensor(state.current_player())
            elif observe == "observer":
                observer.set_from(state, state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
        return moves

    return play


def pettingzoo_loop(name: str, players: int) -> Loop:
    """The PettingZoo adapter's AEC loop."""
    from tikki.interop import pettingzoo as tikki_pz

    env = tikki_pz.env(name, players=players)

    def play(seed: int) -> int:
        rng = random.Random(seed)
        env.reset(seed=seed)
        moves = 0
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            moves += 1
        return moves

    return play


def parallel_loop(name: str, players: int) -> Loop:
    """The PettingZoo adapter's parallel API: the acting agent's random legal action."""
    from tikki.interop import pettingzoo as tikki_pz

    env = tikki_pz.parallel_env(name, players=players)

    def play(seed: int) -> int:
        rng = random.Random(seed)
        observations, infos = env.reset(seed=seed)
        moves = 0
        while env.agents:
            actor = infos[env.agents[0]]["active_agent"]
            legal = np.flatnonzero(observations[actor]["action_mask"])
            observations, _, _, _, infos = env.step({actor: int(rng.choice(legal))})
            moves += 1
        return moves

    return play


def rlcard_loop() -> Loop:
    """RLCard's UNO environment: ``env.step`` with a random legal action."""
    import rlcard

    env = rlcard.make("uno", config={"seed": 0})

    def play(seed: int) -> int:
        rng = random.Random(seed)
        state, _ = env.reset()
        moves = 0
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            moves += 1
        return moves

    return play


def vector_loop(name: str, players: int, size: int = 64) -> Loop:
    """``tikki.rl.VectorEnv``: ``size`` games, every seat a random legal action."""
    from tikki.rl import VectorEnv

    env = VectorEnv(name, size, players=players)

    def play(seed: int) -> int:
        rng = np.random.default_rng(seed)
        _, info = env.reset(seed=seed)
        steps = 0
        for _ in range(200):
            mask = info["action_mask"]
            noise = rng.random(mask.shape) * mask
            _, _, _, _, info = env.step(noise.argmax(axis=1))
            steps += size
        return steps

    return play


def measure(loop: Loop, seconds: float) -> tuple[float, int, int]:
    """Play games for about ``seconds`` of CPU time; return (steps/s, games, steps)."""
    loop(10_000)  # warm up (imports, caches)
    games = steps = 0
    start = time.process_time()
    while True:
        steps += loop(games)
        games += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return steps / elapsed, games, steps


def main(argv: list[str] | None = None) -> None:
    """Measure each loop and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per loop (default 3)")
    parser.add_argument("--game", default="myllymatti")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument(
        "--only", action="append", help="loops whose label contains this (repeatable)"
    )
    args = parser.parse_args(argv)
    console = Console()
    makers: list[tuple[str, Callable[[], Loop]]] = [
        ("tikki (native)", lambda: native_loop(args.game, args.players)),
        ("OpenSpiel", lambda: openspiel_loop(args.game, args.players)),
        ("OpenSpiel + obs", lambda: openspiel_loop(args.game, args.players, "tensor")),
        ("OpenSpiel + observer", lambda: openspiel_loop(args.game, args.players, "observer")),
        ("PettingZoo (obs + mask)", lambda: pettingzoo_loop(args.game, args.players)),
        ("PettingZoo parallel (all obs)", lambda: parallel_loop(args.game, args.players)),
        ("Gym vector (64, obs + mask)", lambda: vector_loop(args.game, args.players)),
        ("Gym vector (256, obs + mask)", lambda: vector_loop(args.game, args.players, 256)),
        ("RLCard UNO env.step", rlcard_loop),
    ]
    build = "compiled engine" if tikki.COMPILED else "pure Python"
    table = Table(title=f"{args.game} {args.players}p random playouts, one core, {build}")
    for column in ("loop", "steps/s", "games", "steps/call", "× tikki"):
        table.add_column(column, justify="left" if column == "loop" else "right")
    native: float | None = None
    native_label = makers[0][0]  # always measured: the ratio's base
    for label, make in makers:
        if args.only and native_label != label and not any(p in label for p in args.only):
            continue
        try:
            loop = make()
        except ImportError as err:
            console.print(f"[yellow]{label}: skipped ({err})[/]")
            continue
        rate, games, steps = measure(loop, args.seconds)
        if native is None:
            native = rate
        ratio: Any = f"{rate / native:.3f}"
        table.add_row(label, f"{rate:,.0f}", str(games), f"{steps / games:.0f}", ratio)
    console.print(table)


if __name__ == "__main__":
    main()
