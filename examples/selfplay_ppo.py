"""Self-play PPO on a tikki Gymnasium id, CleanRL-style, in PyTorch.

The learner plays one seat of ``tikki/Myllymatti-v0`` (or any id of ``tikki.rl.GYM_IDS``);
every other seat is a frozen copy of the learner (the bot ``snapshot``, registered here),
refreshed every ``--refresh`` updates: self-play against its own recent past.  The policy
is a small MLP over the seat's observation with masked logits (illegal actions get
probability 0); the update is PPO's clipped objective with GAE, as in CleanRL's
``ppo.py``.  Environments come from ``tikki.rl.make_vec`` (Gymnasium's ``SyncVectorEnv``
with ``SAME_STEP`` autoreset, so the mask is valid on every step).

    pip install 'tikki[learn]'        # CPU PyTorch, Gymnasium, NumPy
    python examples/selfplay_ppo.py --steps 200000 --out ppo.pt

At the end it plays ``--eval-games`` games against ``random`` and against ``heuristic``
and prints the learner's mean return (compare with the leaderboard in docs/research.md),
then saves the policy's weights (``torch.save``) to ``--out``.  ``--steps 256`` runs in
seconds (the test suite does that).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Mapping
from typing import Any

# ruff: noqa: E402  (the extras are checked before their imports)
from tikki.extras import require

require("gym", "examples/selfplay_ppo.py")
try:
    import torch
    from torch import nn
except ImportError:
    sys.exit("examples/selfplay_ppo.py needs PyTorch: pip install 'tikki[learn]'")

import gymnasium
import numpy as np

import tikki
import tikki.rl
from tikki import bots
from tikki.core import Game
from tikki.interop.observations import encoder_for


class Policy(nn.Module):
    """An MLP actor-critic with masked logits."""

    def __init__(self, size: int, actions: int, hidden: int = 128) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(size, hidden), nn.Tanh(), nn.Linear(hidden, hidden))
        self.actor = nn.Linear(hidden, actions)
        self.critic = nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[Any, torch.Tensor]:
        """The masked action distribution and the value of ``obs``."""
        h = torch.tanh(self.body(obs))
        logits = self.actor(h).masked_fill(mask == 0, -1e9)
        return torch.distributions.Categorical(logits=logits), self.critic(h).squeeze(-1)


_ENCODERS: dict[Game, Any] = {}


class SnapshotBot:
    """An opponent that plays a frozen copy of the learner from its view.

    The observation encoder reads a state, so the bot encodes a state drawn from its own
    view (``game.sample_state``): the encoders read only what the seat may know, so any
    such state gives the seat's observation."""

    name = "snapshot"
    policy: Policy | None = None

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game, view: Mapping[str, Any]) -> str:
        """The snapshot's sampled move."""
        moves = list(view["legal_moves"])
        if self.policy is None or len(moves) == 1:
            return str(moves[self.rng.randrange(len(moves))])
        encoder = _ENCODERS.get(game)
        if encoder is None:
            encoder = _ENCODERS[game] = encoder_for(game)
        state = game.sample_state(view, self.rng)
        obs = torch.as_tensor(encoder.encode(state, view["seat"]))[None]
        mask = torch.zeros(1, len(encoder.actions))
        mask[0, encoder.actions.legal_ids(moves)] = 1
        with torch.no_grad():
            dist, _ = self.policy(obs, mask)
        return encoder.actions.to_text(int(dist.sample().item()))


def evaluate(policy: Policy, env_id: str, players: int, opponent: str, games: int) -> float:
    """The learner's mean return against ``opponent`` over ``games`` seeded games."""
    env = gymnasium.make(env_id, players=players, opponents=[opponent])
    total = 0.0
    for g in range(games):
        obs, info = env.reset(seed=10_000 + g)
        while True:
            with torch.no_grad():
                dist, _ = policy(
                    torch.as_tensor(obs)[None], torch.as_tensor(info["action_mask"])[None]
                )
            obs, reward, terminated, truncated, info = env.step(int(dist.probs.argmax()))
            total += float(reward)
            if terminated or truncated:
                break
    return total / games


def main(argv: list[str] | None = None) -> None:
    """Train by self-play, evaluate, save."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="myllymatti", choices=sorted(tikki.rl.GYM_IDS))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--steps", type=int, default=100_000, help="learner steps in all")
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--rollout", type=int, default=128, help="steps per env per update")
    parser.add_argument("--refresh", type=int, default=5, help="updates between snapshots")
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="ppo.pt")
    args = parser.parse_args(argv)
    torch.manual_seed(args.seed)
    bots.register_bot("snapshot", SnapshotBot)
    env_id = tikki.rl.GYM_IDS[args.game]
    envs = tikki.rl.make_vec(args.game, args.envs, players=args.players, opponents=["snapshot"])
    encoder = encoder_for(tikki.load(args.game, args.players))
    size, actions = encoder.size, len(encoder.actions)
    policy = Policy(size, actions)
    SnapshotBot.policy = Policy(size, actions)
    SnapshotBot.policy.load_state_dict(policy.state_dict())
    optimizer = torch.optim.Adam(policy.parameters(), lr=3e-4)
    n, t_len = args.envs, args.rollout
    obs_buf = torch.zeros(t_len, n, size)
    mask_buf = torch.zeros(t_len, n, actions)
    act_buf = torch.zeros(t_len, n, dtype=torch.long)
    logp_buf, rew_buf, done_buf, val_buf = (torch.zeros(t_len, n) for _ in range(4))
    obs, info = envs.reset(seed=args.seed)
    updates = max(1, args.steps // (n * t_len))
    finished: list[float] = []
    for update in range(1, updates + 1):
        for t in range(t_len):
            o, m = torch.as_tensor(obs), torch.as_tensor(info["action_mask"], dtype=torch.float32)
            with torch.no_grad():
                dist, value = policy(o, m)
            action = dist.sample()
            obs_buf[t], mask_buf[t], act_buf[t] = o, m, action
            logp_buf[t], val_buf[t] = dist.log_prob(action), value
            obs, reward, terminated, truncated, info = envs.step(action.numpy())
            rew_buf[t] = torch.as_tensor(reward, dtype=torch.float32)
            done_buf[t] = torch.as_tensor(np.logical_or(terminated, truncated), dtype=torch.float32)
            finished += [float(r) for r, d in zip(reward, terminated | truncated, strict=True) if d]
        _ppo_update(
            policy,
            optimizer,
            obs_buf,
            mask_buf,
            act_buf,
            logp_buf,
            rew_buf,
            done_buf,
            val_buf,
            obs,
            info,
        )
        if update % args.refresh == 0:
            SnapshotBot.policy.load_state_dict(policy.state_dict())
        recent = finished[-200:]
        mean = sum(recent) / len(recent) if recent else float("nan")
        print(
            f"update {update}/{updates}: {len(finished)} games, mean return {mean:+.3f}",
            flush=True,
        )
    for opponent in ("random", "heuristic"):
        score = evaluate(policy, env_id, args.players, opponent, args.eval_games)
        print(f"greedy policy vs {opponent}: mean return {score:+.3f} over {args.eval_games} games")
    torch.save(policy.state_dict(), args.out)
    print(f"policy saved to {args.out}")


def _ppo_update(
    policy: Policy,
    optimizer: Any,
    obs: torch.Tensor,
    masks: torch.Tensor,
    acts: torch.Tensor,
    logps: torch.Tensor,
    rewards: torch.Tensor,
    dones: torch.Tensor,
    values: torch.Tensor,
    next_obs: Any,
    info: Mapping[str, Any],
    gamma: float = 1.0,
    lam: float = 0.95,
    clip: float = 0.2,
    epochs: int = 4,
) -> None:
    """One PPO update (GAE advantages, clipped surrogate, value loss, entropy bonus)."""
    t_len = obs.shape[0]
    with torch.no_grad():
        mask = torch.as_tensor(info["action_mask"], dtype=torch.float32)
        _, next_value = policy(torch.as_tensor(next_obs), mask)
        advantages = torch.zeros_like(rewards)
        last = torch.zeros_like(next_value)
        for t in reversed(range(t_len)):
            following = next_value if t == t_len - 1 else values[t + 1]
            alive = 1.0 - dones[t]
            delta = rewards[t] + gamma * following * alive - values[t]
            last = delta + gamma * lam * alive * last
            advantages[t] = last
        returns = advantages + values
    flat = (obs.flatten(0, 1), masks.flatten(0, 1), acts.flatten(), logps.flatten())
    adv, ret = advantages.flatten(), returns.flatten()
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    for _ in range(epochs):
        dist, value = policy(flat[0], flat[1])
        ratio = torch.exp(dist.log_prob(flat[2]) - flat[3])
        surrogate = torch.min(ratio * adv, torch.clamp(ratio, 1 - clip, 1 + clip) * adv)
        loss = -surrogate.mean() + 0.5 * ((value - ret) ** 2).mean() - 0.01 * dist.entropy().mean()
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
        optimizer.step()


if __name__ == "__main__":
    main()
