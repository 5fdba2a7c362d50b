"""Baselines to beat: seeded learning curves of NFSP, Deep CFR and PPO.

Four runs, each deterministic given ``--seed`` (one torch thread, every generator seeded;
the saved CPU seconds are the only figures that vary):

* ``medium-nfsp``: OpenSpiel's NFSP (PyTorch) by self-play on a medium rung; the y axis
  is the NashConv of its average policy, computed in C++ on the rung's EFG tree
  (:mod:`tikki.interop.tree`, as ``benchmarks/ladder.py`` does for CFR).
* ``medium-deepcfr``: OpenSpiel's Deep CFR (PyTorch) on the same rung, the same measure
  (its policy network trained from the strategy memory at each checkpoint).
* ``full-ppo``: a small PPO of this script's own (PyTorch, masked logits) as one seat of a
  full game against ``heuristic`` bots, through ``tikki.rl`` (one env per seat, Gymnasium's
  ``SyncVectorEnv``); the y axis is its win rate against the shipped bots.
* ``full-nfsp``: NFSP by self-play on the full game with the compact information-state
  tensor; the same measure.

Win rate: the share of games in which the agent's seat has a positive return (two players:
it won; more players: it was not the loser; an abandoned game is a loss), one agent
against n−1 copies of a bot, over ``--eval-deals`` seeded deals played once per seat,
with a Wilson 95% interval. NashConv of a two-player zero-sum rung is twice its
exploitability::

    .venv/bin/python benchmarks/baselines.py --run medium-nfsp --run medium-deepcfr \\
        --out benchmarks/runs/baselines-medium.json --plot docs/images/baselines-medium.png
    .venv/bin/python benchmarks/baselines.py --run full-ppo --run full-nfsp \\
        --out benchmarks/runs/baselines-full.json --plot docs/images/baselines-full.png
    .venv/bin/python benchmarks/baselines.py --preset tiny --out /tmp/b.json --plot /tmp/b.png
"""

# ruff: noqa: E402  (torch's thread count is set before anything else uses it)
from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel
import torch
from torch import nn

torch.set_num_threads(1)

from open_spiel.python import rl_environment
from open_spiel.python.pytorch import deep_cfr, nfsp

import tikki
from tikki import rl
from tikki.interop import openspiel, spiel, tree

Array = npt.NDArray[np.float32]
ProbsFn = Callable[[Array, npt.NDArray[np.bool_]], Array]
"""A batch policy: information-state (or observation) rows and legal masks to probabilities."""

RUNS = ("medium-nfsp", "medium-deepcfr", "full-ppo", "full-nfsp")


@dataclass(frozen=True)
class Budget:
    """How much each run trains and how much each checkpoint measures."""

    nfsp_episodes: tuple[int, ...]
    deepcfr_iterations: tuple[int, ...]
    deepcfr_traversals: int
    deepcfr_train_steps: int
    ppo_steps: tuple[int, ...]
    full_nfsp_episodes: tuple[int, ...]
    eval_deals: int


PRESETS = {
    "standard": Budget(  # about 10 CPU minutes a run on an idle core
        nfsp_episodes=(0, 5000, 10000, 25000, 50000, 100000),
        deepcfr_iterations=(1, 5, 10, 25, 50, 100, 150),
        deepcfr_traversals=40,
        deepcfr_train_steps=100,
        ppo_steps=(0, 65536, 262144, 524288, 1048576, 2097152),
        full_nfsp_episodes=(0, 500, 1000, 2000),
        eval_deals=100,
    ),
    "short": Budget(  # the saved runs (docs/research.md)
        nfsp_episodes=(0, 1000, 2500, 5000, 10000, 15000),
        deepcfr_iterations=(1, 5, 10, 20, 40),
        deepcfr_traversals=40,
        deepcfr_train_steps=100,
        ppo_steps=(0, 8192, 16384, 32768, 65536),
        full_nfsp_episodes=(0, 200, 400),
        eval_deals=50,
    ),
    "tiny": Budget(
        nfsp_episodes=(0, 20),
        deepcfr_iterations=(1, 2),
        deepcfr_traversals=2,
        deepcfr_train_steps=2,
        ppo_steps=(0, 256),
        full_nfsp_episodes=(0, 1),
        eval_deals=1,
    ),
}


def seed_all(seed: int) -> None:
    """Seed every generator the runs draw from."""
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def masked_probs(logits: torch.Tensor, mask: npt.NDArray[np.bool_]) -> Array:
    """Softmax over the legal actions only (illegal ones get probability 0)."""
    legal = torch.as_tensor(mask)
    out = torch.softmax(logits.masked_fill(~legal, -1e9), dim=-1)
    return out.detach().numpy().astype(np.float32)


def wilson(wins: int, n: int) -> tuple[float, float]:
    """Wilson 95% interval of ``wins`` in ``n``."""
    if n == 0:
        return (0.0, 1.0)
    z, p = 1.96, wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


# --- the medium rung's judge -------------------------------------------------------


class Judge:
    """NashConv of a policy on an explicit-deal rung, in C++ on its EFG tree.

    The rung is walked once as an EFG game and once through the OpenSpiel adapter side
    by side; each EFG information set keeps the adapter's information-state tensor and
    legal actions, so a policy of the adapter's tensors becomes a ``pyspiel.TabularPolicy``
    of the EFG game (actions matched by their move text)."""

    def __init__(self, name: str, players: int, variant: str) -> None:
        walked = tree.walk(tikki.load(name, players, variant=variant))
        self.summary = walked.summary()
        self.efg = pyspiel.load_efg_game(walked.efg)
        self.game = pyspiel.load_game(f"python_tikki_{name}(players={players},variant={variant})")
        self.keys: list[list[str]] = [[] for _ in range(players)]
        self.rows: list[list[Any]] = [[] for _ in range(players)]
        self.legal: list[list[list[int]]] = [[] for _ in range(players)]
        self.efg_actions: list[list[list[int]]] = [[] for _ in range(players)]
        self._seen: set[str] = set()
        self._walk(self.efg.new_initial_state(), self.game.new_initial_state())
        width = self.game.num_distinct_actions()
        self.masks = [self._mask(p, width) for p in range(players)]
        self.tensors = [np.asarray(r, dtype=np.float32) for r in self.rows]
        self.uniform = pyspiel.nash_conv(self.efg, pyspiel.UniformRandomPolicy(self.efg))

    def _mask(self, player: int, width: int) -> npt.NDArray[np.bool_]:
        mask = np.zeros((len(self.legal[player]), width), dtype=bool)
        for i, legal in enumerate(self.legal[player]):
            mask[i, legal] = True
        return mask

    def _walk(self, efg_state: Any, state: Any) -> None:
        if efg_state.is_terminal():
            return
        if efg_state.is_chance_node():
            mine, theirs = efg_state.chance_outcomes(), state.chance_outcomes()
            assert [round(p, 9) for _, p in mine] == [round(p, 9) for _, p in theirs]
            for (a, _), (b, _) in zip(mine, theirs, strict=True):
                self._walk(efg_state.child(a), state.child(b))
            return
        player = efg_state.current_player()
        by_text = {efg_state.action_to_string(a): a for a in efg_state.legal_actions()}
        legal = state.legal_actions()
        if sorted(by_text) != sorted(state.action_to_string(a) for a in legal):
            raise AssertionError(f"the EFG tree and the adapter differ at {state}")
        key = efg_state.information_state_string()
        if key not in self._seen:
            self._seen.add(key)
            self.keys[player].append(key)
            self.rows[player].append(state.information_state_tensor(player))
            self.legal[player].append(legal)
            self.efg_actions[player].append([by_text[state.action_to_string(a)] for a in legal])
        for a in legal:
            self._walk(efg_state.child(by_text[state.action_to_string(a)]), state.child(a))

    def nash_conv(self, probs: Sequence[ProbsFn]) -> float:
        """NashConv of the policy whose seat ``p`` plays ``probs[p]``."""
        table: dict[str, list[tuple[int, float]]] = {}
        for p, fn in enumerate(probs):
            out = fn(self.tensors[p], self.masks[p])
            for i, key in enumerate(self.keys[p]):
                row = [float(out[i, a]) for a in self.legal[p][i]]
                total = sum(row) or 1.0
                table[key] = [
                    (e, x / total) for e, x in zip(self.efg_actions[p][i], row, strict=True)
                ]
        return float(pyspiel.nash_conv(self.efg, pyspiel.TabularPolicy(table)))


# --- NFSP with light time steps ------------------------------------------------------


def time_step(state: Any, players: int) -> rl_environment.TimeStep:
    """An ``rl_environment.TimeStep`` with only the tensors its readers use (the acting
    seat's; every seat's at the end), not every seat's at every step."""
    info: list[Any] = [None] * players
    legal: list[list[int]] = [[] for _ in range(players)]
    if state.is_terminal():
        info = [state.information_state_tensor(p) for p in range(players)]
        rewards, kind, player = list(state.returns()), rl_environment.StepType.LAST, -4
    else:
        player = state.current_player()
        info[player] = state.information_state_tensor(player)
        legal[player] = state.legal_actions(player)
        rewards, kind = [0.0] * players, rl_environment.StepType.MID
    observations = {"info_state": info, "legal_actions": legal, "current_player": player}
    return rl_environment.TimeStep(observations, rewards, [1.0] * players, kind)


def nfsp_agents(game: Any, seed: int) -> list[nfsp.NFSP]:
    """One NFSP agent a seat, with the hyperparameters of OpenSpiel's Leduc example."""
    size = game.information_state_tensor_shape()[0]
    return [
        nfsp.NFSP(
            p,
            size,
            game.num_distinct_actions(),
            hidden_layers_sizes=[128],
            reservoir_buffer_capacity=int(2e5),
            anticipatory_param=0.1,
            batch_size=128,
            rl_learning_rate=0.01,
            sl_learning_rate=0.01,
            min_buffer_size_to_learn=1000,
            learn_every=64,
            replay_buffer_capacity=int(2e5),
            epsilon_start=0.06,
            epsilon_end=0.001,
            epsilon_decay_duration=int(1e6),
            seed=seed + 10 * p,
        )
        for p in range(game.num_players())
    ]


def nfsp_episode(game: Any, agents: list[nfsp.NFSP], rng: np.random.Generator) -> int:
    """Play one self-play episode, training every agent; the number of moves."""
    state, players, moves = game.new_initial_state(), game.num_players(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, odds = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=odds)))
            continue
        step = time_step(state, players)
        output = agents[state.current_player()].step(step)
        state.apply_action(int(output.action))
        moves += 1
    last = time_step(state, players)
    for agent in agents:
        agent.step(last)
    return moves


def nfsp_probs(agent: nfsp.NFSP) -> ProbsFn:
    """The agent's average policy as a batch policy."""

    def probs(rows: Array, mask: npt.NDArray[np.bool_]) -> Array:
        with torch.no_grad():
            return masked_probs(agent._avg_network(torch.as_tensor(rows)), mask)

    return probs


# --- the runs on the medium rung ---------------------------------------------------


def run_medium_nfsp(
    judge: Judge, budget: Budget, seed: int, points: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """NFSP's NashConv curve on the rung."""
    seed_all(seed)
    agents = nfsp_agents(judge.game, seed)
    rng, done, started = np.random.default_rng(seed), 0, time.process_time()
    for target in budget.nfsp_episodes:
        while done < target:
            nfsp_episode(judge.game, agents, rng)
            done += 1
        conv = judge.nash_conv([nfsp_probs(a) for a in agents])
        points.append(point(done, started, nash_conv=round(conv, 4)))
    return points


def run_medium_deepcfr(
    judge: Judge, budget: Budget, seed: int, points: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Deep CFR's NashConv curve on the rung (OpenSpiel's ``solve`` loop, checkpointed)."""
    seed_all(seed)
    solver = deep_cfr.DeepCFRSolver(
        judge.game,
        policy_network_layers=(64, 64),
        advantage_network_layers=(64, 64),
        num_traversals=budget.deepcfr_traversals,
        learning_rate=1e-3,
        batch_size_advantage=512,
        batch_size_strategy=512,
        memory_capacity=int(1e6),
        policy_network_train_steps=budget.deepcfr_train_steps * 4,
        advantage_network_train_steps=budget.deepcfr_train_steps,
        seed=seed,
    )
    root, started = judge.game.new_initial_state(), time.process_time()
    players = judge.game.num_players()
    for i in range(1, max(budget.deepcfr_iterations) + 1):
        for p in range(players):
            for _ in range(budget.deepcfr_traversals):
                solver._traverse_game_tree(root, p)
            solver._reinitialize_advantage_network(p)
            solver._learn_advantage_network(p)
        solver._iteration += 1
        if i in budget.deepcfr_iterations:
            solver._learn_strategy_network()
            net = solver._policy_network

            def probs(rows: Array, mask: npt.NDArray[np.bool_], net: Any = net) -> Array:
                with torch.no_grad():
                    out = net(torch.as_tensor(rows)).numpy() * mask
                return (out / np.maximum(out.sum(axis=1, keepdims=True), 1e-12)).astype(np.float32)

            conv = judge.nash_conv([probs] * players)
            points.append(point(i, started, nash_conv=round(conv, 4)))
            solver._reinitialize_policy_network()
    return points


def point(x: int, started: float, **figures: Any) -> dict[str, Any]:
    """A checkpoint: its x, its figures and the CPU seconds so far."""
    return {"x": x, **figures, "cpu_s": round(time.process_time() - started, 1)}


# --- the full game: evaluation against the shipped bots ------------------------------

Chooser = Callable[[Any, int, np.random.Generator], int]
"""An agent in a full game: (pyspiel state, its seat, rng) to an action."""


def evaluate(game: Any, choose: Chooser, opponent: str, deals: int, seed: int) -> dict[str, Any]:
    """The agent's win rate (and mean return) as one seat against ``opponent`` bots,
    every deal played once per seat; the same deals and bot seeds at every checkpoint."""
    engine, players = game.tikki_game, game.num_players()
    wins = games = 0
    total = 0.0
    for d in range(deals):
        for seat in range(players):
            rng = np.random.default_rng([seed, d, seat])
            bots = {
                p: spiel.TikkiBot(game, opponent, seed=seed * 1000 + d * 10 + p)
                for p in range(players)
                if p != seat
            }
            state = spiel.state_from(game, engine.new_state(seed=seed * 100_000 + d))
            while not state.is_terminal():
                p = state.current_player()
                action = choose(state, p, rng) if p == seat else bots[p].step(state)
                state.apply_action(action)
            ret = state.returns()[seat]
            wins, games, total = wins + (ret > 0), games + 1, total + ret
    low, high = wilson(wins, games)
    return {
        "games": games,
        "win_rate": round(wins / games, 4),
        "ci": [round(low, 4), round(high, 4)],
        "mean_return": round(total / games, 4),
    }


def sampler(probs: ProbsFn, tensor: str) -> Chooser:
    """An agent that samples ``probs`` on the state's ``tensor`` (``information_state``
    or ``observation``)."""

    def choose(state: Any, seat: int, rng: np.random.Generator) -> int:
        row = np.asarray(getattr(state, f"{tensor}_tensor")(seat), dtype=np.float32)[None]
        mask = np.zeros((1, state.get_game().num_distinct_actions()), dtype=bool)
        mask[0, state.legal_actions(seat)] = True
        out = probs(row, mask)[0].astype(np.float64)
        return int(rng.choice(len(out), p=out / out.sum()))

    return choose


def full_point(
    game: Any, choose: Chooser, x: int, started: float, budget: Budget, seed: int
) -> dict[str, Any]:
    """A full-game checkpoint: against each shipped bot; CPU seconds of training only."""
    train_s = round(time.process_time() - started, 1)
    measured = time.process_time()
    vs = {b: evaluate(game, choose, b, budget.eval_deals, seed) for b in ("heuristic", "random")}
    return {
        "x": x,
        "vs": vs,
        "cpu_s": train_s,
        "eval_cpu_s": round(time.process_time() - measured, 1),
    }


def run_full_nfsp(
    game: Any, budget: Budget, seed: int, points: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """NFSP by self-play on the full game, measured against the shipped bots."""
    seed_all(seed)
    agents = nfsp_agents(game, seed)
    rng, done, spent = np.random.default_rng(seed), 0, 0.0
    for target in budget.full_nfsp_episodes:
        started = time.process_time()
        while done < target:
            nfsp_episode(game, agents, rng)
            done += 1
        spent += time.process_time() - started
        probs = [nfsp_probs(a) for a in agents]

        def choose(state: Any, seat: int, r: np.random.Generator, probs: Any = probs) -> int:
            return sampler(probs[seat], "information_state")(state, seat, r)

        pt = full_point(game, choose, done, time.process_time(), budget, seed + 1)
        points.append({**pt, "cpu_s": round(spent, 1)})
    return points


# --- PPO ---------------------------------------------------------------------------


class ActorCritic(nn.Module):  # type: ignore[misc]
    """A small actor-critic MLP over the observation."""

    def __init__(self, size: int, actions: int, hidden: int = 128) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(size, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh()
        )
        self.pi = nn.Linear(hidden, actions)
        self.v = nn.Linear(hidden, 1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Logits and value."""
        h = self.body(x)
        return self.pi(h), self.v(h).squeeze(-1)


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Illegal actions' logits pushed out of reach."""
    return logits.masked_fill(~mask, -1e9)


def run_full_ppo(
    game: Any,
    name: str,
    players: int,
    budget: Budget,
    seed: int,
    points: list[dict[str, Any]],
    envs_per_seat: int = 4,
) -> list[dict[str, Any]]:
    """PPO as one seat against ``heuristic`` bots (every seat in turn), measured at
    checkpoints against the shipped bots."""
    seed_all(seed)
    from gymnasium.vector import AutoresetMode, SyncVectorEnv

    fns = [
        (lambda s=seat: rl.make_env(name, players=players, opponents=["heuristic"], seat=s))
        for seat in range(players)
        for _ in range(envs_per_seat)
    ]
    vec = SyncVectorEnv(fns, autoreset_mode=AutoresetMode.SAME_STEP)
    n, horizon = len(fns), 64
    obs, info = vec.reset(seed=seed)
    size, actions = obs.shape[1], int(vec.single_action_space.n)
    net = ActorCritic(size, actions)
    opt = torch.optim.Adam(net.parameters(), lr=3e-4)
    steps, spent = 0, 0.0

    def probs(rows: Array, mask: npt.NDArray[np.bool_]) -> Array:
        with torch.no_grad():
            return masked_probs(net(torch.as_tensor(rows))[0], mask)

    for target in budget.ppo_steps:
        started = time.process_time()
        while steps < target:
            obs, info = ppo_update(vec, net, opt, obs, info, horizon)
            steps += n * horizon
        spent += time.process_time() - started
        pt = full_point(
            game, sampler(probs, "observation"), steps, time.process_time(), budget, seed + 1
        )
        points.append({**pt, "cpu_s": round(spent, 1)})
    vec.close()
    return points


def ppo_update(
    vec: Any, net: ActorCritic, opt: torch.optim.Optimizer, obs: Any, info: Any, horizon: int
) -> tuple[Any, Any]:
    """Collect ``horizon`` steps of every env and take PPO's clipped steps on them."""
    n = obs.shape[0]
    b_obs, b_mask, b_act, b_logp, b_val, b_rew, b_done = [], [], [], [], [], [], []
    for _ in range(horizon):
        x = torch.as_tensor(obs, dtype=torch.float32)
        mask = torch.as_tensor(np.asarray(info["action_mask"], dtype=bool))
        with torch.no_grad():
            logits, value = net(x)
            dist = torch.distributions.Categorical(logits=masked_logits(logits, mask))
            act = dist.sample()
        obs, reward, term, trunc, info = vec.step(act.numpy())
        b_obs.append(x), b_mask.append(mask), b_act.append(act)
        b_logp.append(dist.log_prob(act)), b_val.append(value)
        b_rew.append(torch.as_tensor(reward, dtype=torch.float32))
        b_done.append(torch.as_tensor(np.logical_or(term, trunc), dtype=torch.float32))
    with torch.no_grad():
        next_value = net(torch.as_tensor(obs, dtype=torch.float32))[1]
    adv, last = torch.zeros(horizon, n), torch.zeros(n)
    for t in reversed(range(horizon)):
        nv = next_value if t == horizon - 1 else b_val[t + 1]
        alive = 1.0 - b_done[t]
        delta = b_rew[t] + 0.99 * nv * alive - b_val[t]
        last = delta + 0.99 * 0.95 * alive * last
        adv[t] = last
    ret = adv + torch.stack(b_val)
    flat = {
        "obs": torch.stack(b_obs).reshape(horizon * n, -1),
        "mask": torch.stack(b_mask).reshape(horizon * n, -1),
        "act": torch.stack(b_act).reshape(-1),
        "logp": torch.stack(b_logp).reshape(-1),
        "adv": adv.reshape(-1),
        "ret": ret.reshape(-1),
    }
    for _ in range(4):
        order = torch.randperm(horizon * n)
        for chunk in order.split(256):
            ppo_step(net, opt, {k: v[chunk] for k, v in flat.items()})
    return obs, info


def ppo_step(net: ActorCritic, opt: torch.optim.Optimizer, mb: dict[str, torch.Tensor]) -> None:
    """One clipped-objective gradient step on a minibatch."""
    logits, value = net(mb["obs"])
    dist = torch.distributions.Categorical(logits=masked_logits(logits, mb["mask"]))
    ratio = (dist.log_prob(mb["act"]) - mb["logp"]).exp()
    adv = (mb["adv"] - mb["adv"].mean()) / (mb["adv"].std() + 1e-8)
    pg = -torch.min(ratio * adv, ratio.clamp(0.8, 1.2) * adv).mean()
    loss = pg + 0.5 * ((value - mb["ret"]) ** 2).mean() - 0.01 * dist.entropy().mean()
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(net.parameters(), 0.5)
    opt.step()


# --- the table, the plot, the command ------------------------------------------------


def table(result: dict[str, Any]) -> str:
    """A Markdown table of one run's checkpoints."""
    if result["measure"] == "nash_conv":
        lines = [f"| {result['x_label']} | NashConv | CPU s |", "|---|---|---|"]
        lines += [f"| {p['x']} | {p['nash_conv']:.4f} | {p['cpu_s']} |" for p in result["points"]]
        return "\n".join(lines)
    lines = [f"| {result['x_label']} | vs heuristic | vs random | CPU s |", "|---|---|---|---|"]
    for p in result["points"]:
        cells = [
            f"{v['win_rate']:.0%} ({v['ci'][0]:.0%}–{v['ci'][1]:.0%}), {v['mean_return']:+.2f}"
            for v in (p["vs"]["heuristic"], p["vs"]["random"])
        ]
        lines.append(f"| {p['x']} | " + " | ".join(cells) + f" | {p['cpu_s']} |")
    return "\n".join(lines)


def plot(results: list[dict[str, Any]], path: Path) -> None:
    """One panel a run: NashConv (log scale) or win rate with its interval band."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(results), figsize=(5 * len(results), 3.8), squeeze=False)
    for ax, result in zip(axes[0], results, strict=True):
        xs = [p["x"] for p in result["points"]]
        if result["measure"] == "nash_conv":
            ax.plot(xs, [p["nash_conv"] for p in result["points"]], "o-", label=result["run"])
            ax.axhline(result["uniform_nash_conv"], color="grey", ls=":", label="uniform policy")
            ax.set_ylabel("NashConv (C++, EFG tree)")
            top = max([result["uniform_nash_conv"]] + [p["nash_conv"] for p in result["points"]])
            ax.set_ylim(0, top * 1.1)
        else:
            for bot, colour in (("heuristic", "C0"), ("random", "C1")):
                rates = [p["vs"][bot]["win_rate"] for p in result["points"]]
                low = [p["vs"][bot]["ci"][0] for p in result["points"]]
                high = [p["vs"][bot]["ci"][1] for p in result["points"]]
                ax.plot(xs, rates, "o-", color=colour, label=f"vs {bot}")
                ax.fill_between(xs, low, high, color=colour, alpha=0.2)
            ax.axhline(1 / result["players"], color="grey", ls=":", label="equal share")
            ax.set_ylabel("win rate (95% interval)")
            ax.set_ylim(0, 1)
        ax.set_xlabel(result["x_label"])
        ax.set_title(f"{result['run']}: {result['game']}", fontsize=9)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    """Run the chosen baselines; print their tables, save the run and the plot."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--run", action="append", choices=RUNS, help="repeatable; default all")
    parser.add_argument("--medium", default="mattis:2:medium", help="GAME:PLAYERS:VARIANT")
    parser.add_argument("--full", default="myllymatti:2", help="GAME:PLAYERS")
    parser.add_argument("--preset", choices=sorted(PRESETS), default="standard")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True, help="the run as JSON")
    parser.add_argument("--plot", type=Path, required=True, help="the curves as PNG")
    args = parser.parse_args(argv)
    for path in (args.out, args.plot):
        if not path.parent.is_dir():
            print(f"no such folder: {path.parent}", file=sys.stderr)
            return 2
    openspiel.register()
    budget, runs = PRESETS[args.preset], args.run or list(RUNS)
    judges: dict[str, Judge] = {}
    given = argv if argv is not None else sys.argv[1:]
    meta = {"command": "benchmarks/baselines.py " + " ".join(given)}
    meta |= {"seed": args.seed, "preset": args.preset, "torch": torch.__version__}
    results: list[dict[str, Any]] = []

    def save() -> None:
        args.out.write_text(json.dumps({"meta": meta, "runs": results}, indent=1) + "\n")
        plot(results, args.plot)

    for run in runs:  # saved at every checkpoint: a stopped run keeps what it measured
        one_run(run, args, budget, judges, results, save)
    return 0


class Recorded(list[dict[str, Any]]):
    """A run's checkpoints, saved each time one is added."""

    def __init__(self, save: Callable[[], None]) -> None:
        super().__init__()
        self._save = save

    def append(self, item: dict[str, Any]) -> None:
        """Add a checkpoint, save the whole run so far and print a progress line."""
        super().append(item)
        self._save()
        print(f"checkpoint {item}", file=sys.stderr, flush=True)


def one_run(
    run: str,
    args: argparse.Namespace,
    budget: Budget,
    judges: dict[str, Judge],
    results: list[dict[str, Any]],
    save: Callable[[], None],
) -> None:
    """Train and measure one run into ``results`` (saved at each checkpoint); print its
    table."""
    started = time.process_time()
    points = Recorded(save)
    if run.startswith("medium"):
        name, players, variant = args.medium.split(":")
        if args.medium not in judges:
            judges[args.medium] = Judge(name, int(players), variant)
        judge = judges[args.medium]
        result: dict[str, Any] = {
            "run": run,
            "game": f"python_tikki_{name}(players={players},variant={variant})",
            "rung": judge.summary,
            "measure": "nash_conv",
            "uniform_nash_conv": round(judge.uniform, 4),
            "x_label": "episodes" if run == "medium-nfsp" else "iterations",
            "points": points,
        }
        results.append(result)
        fn = run_medium_nfsp if run == "medium-nfsp" else run_medium_deepcfr
        fn(judge, budget, args.seed, points)
    else:
        name, players = args.full.split(":")
        game = pyspiel.load_game(f"python_tikki_{name}(players={players},rng_seed={args.seed})")
        result = {
            "run": run,
            "game": f"python_tikki_{name}(players={players})",
            "players": int(players),
            "measure": "win_rate",
            "eval_deals": budget.eval_deals,
            "x_label": "learner moves" if run == "full-ppo" else "episodes",
            "points": points,
        }
        results.append(result)
        if run == "full-ppo":
            run_full_ppo(game, name, int(players), budget, args.seed, points)
        else:
            run_full_nfsp(game, budget, args.seed, points)
    result["total_cpu_s"] = round(time.process_time() - started, 1)
    save()
    print(f"\n{run}: {result['game']} (seed {args.seed}, {result['total_cpu_s']} CPU s)\n")
    print(table(result), flush=True)


if __name__ == "__main__":
    sys.exit(main())
