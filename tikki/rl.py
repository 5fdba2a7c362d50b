"""Reinforcement learning with Gymnasium (``pip install 'tikki[gym]'``).

* :func:`make_env` — one seat of a game against fixed tikki bots, as a single-agent
  ``gymnasium.Env``::

      from tikki.rl import make_env
      env = make_env("myllymatti", players=3, opponents=["heuristic", "random"], seat=0)
      obs, info = env.reset(seed=7)
      while True:
          action = env.action_space.sample(info["action_mask"])   # or your policy
          obs, reward, terminated, truncated, info = env.step(action)
          if terminated or truncated:
              break

  Observations are the seat's vector from :func:`tikki.interop.observations.encoder_for`
  (``docs/observations.md``); actions are the fixed ids of
  :mod:`tikki.interop.encoding` (``env.unwrapped.actions.to_text(id)`` is the move text);
  ``info["action_mask"]`` (``int8``) marks the legal ones.  The opponents, one bot spec per
  other seat (the last repeated), move until it is the learner's turn.  The reward is 0
  until the game ends, then the learner's ``outcome["returns"]``.  An illegal action
  ends the episode with reward ``illegal_reward`` (default −1) and ``info["illegal"]``;
  the game is not changed.  ``reset(seed=s)`` deals ``new_state(seed=s)`` and seeds the
  bots from ``s``, so a seed replays an episode exactly.
* :class:`VectorEnv` — ``N`` games of self-play stepped in one call: every game's seat to
  act is an agent, ``step(actions)`` plays one action in each game and returns the next
  observations, masks and seats as arrays; a finished game is dealt anew at once.
"""

# ruff: noqa: E402  (the extra is checked before its imports)
from __future__ import annotations

from tikki.extras import require

require("gym", "tikki.rl")

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

import tikki
from tikki import bots as botlib
from tikki.core import RulesError
from tikki.interop.observations import encoder_for

Obs = npt.NDArray[np.float32]


class TikkiGymEnv(gymnasium.Env[Obs, np.int64]):
    """One seat of a tikki game against fixed bots (see :func:`make_env`)."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 - Gymnasium's convention

    def __init__(
        self,
        game: str,
        players: int | None = None,
        opponents: Sequence[str] = ("random",),
        seat: int = 0,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.game = tikki.load(game, players, **options)
        n = self.game.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise RulesError(f"seat must be 0..{n - 1}, not {seat!r}")
        if not opponents:
            raise RulesError("give at least one opponent bot spec, e.g. opponents=['random']")
        others = [s for s in range(n) if s != seat]
        specs = list(opponents)[: len(others)]
        specs += [specs[-1]] * (len(others) - len(specs))
        for spec in set(specs):
            botlib.make(spec, seed=0)  # a bad spec fails here, clearly
        self.specs = dict(zip(others, specs, strict=True))
        self.seat = seat
        self.illegal_reward = float(illegal_reward)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.encoder = encoder_for(self.game)
        self.actions = self.encoder.actions
        self.observation_space = gymnasium.spaces.Box(
            self.encoder.low, self.encoder.high, (self.encoder.size,), np.float32
        )
        self.action_space = gymnasium.spaces.Discrete(len(self.actions))
        self.state: tikki.State | None = None
        self._bots: dict[int, botlib.Bot] = {}
        self._deals = random.Random()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Deal a new game (from ``seed``, or the environment's generator) and let the
        opponents move until the learner is to act."""
        super().reset(seed=seed)
        if seed is not None:
            self._deals = random.Random(seed)
        deal = seed if seed is not None else self._deals.randrange(2**32)
        self.state = self.game.new_state(seed=deal)
        self._bots = {s: botlib.make(spec, seed=deal * 16 + s) for s, spec in self.specs.items()}
        self._advance()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """Play ``action`` (an action id) for the learner, then the opponents' moves."""
        state = self._state()
        if state.is_over:
            raise RuntimeError("the episode is over: call reset()")
        mask = self._mask()
        a = int(action)
        if not 0 <= a < len(mask) or not mask[a]:
            info = self._info()
            info["illegal"] = True
            return self._observe(), self.illegal_reward, True, False, info
        state.play(self.actions.to_text(a))
        self._advance()
        outcome = state.outcome
        reward = 0.0 if outcome is None else float(outcome["returns"][self.seat])
        info = self._info()
        if outcome is not None:
            info["outcome"] = outcome
        return self._observe(), reward, outcome is not None, False, info

    def render(self) -> str | None:
        """The learner's view as text (``render_mode="ansi"``)."""
        if self.render_mode is None:
            return None
        view = self._state().view(self.seat)
        return "\n".join(f"{k}: {v}" for k, v in view.items() if k != "history")

    def _state(self) -> tikki.State:
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        return self.state

    def _advance(self) -> None:
        state = self._state()
        while not state.is_over and state.current_player != self.seat:
            seat = state.current_player
            assert seat is not None
            state.play(self._bots[seat].choose(self.game, state.view(seat)))

    def _mask(self) -> npt.NDArray[np.int8]:
        return self.encoder.legal_mask(
            self._state(), self.seat, np.zeros(len(self.actions), np.int8)
        )

    def _observe(self) -> Obs:
        return self.encoder.encode(self._state(), self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask()}


def make_env(
    game: str,
    players: int | None = None,
    opponents: Sequence[str] = ("random",),
    seat: int = 0,
    **options: Any,
) -> TikkiGymEnv:
    """A single-agent Gymnasium env: ``seat`` of ``game`` against ``opponents`` (bot
    specs, one per other seat, the last repeated); ``options`` are the game's options
    (and ``illegal_reward``, ``render_mode``)."""
    return TikkiGymEnv(game, players, opponents, seat, **options)


class VectorEnv:
    """``num_envs`` self-play games stepped together (see the module notes).

    ``reset(seed)`` and ``step(actions)`` return ``(obs, rewards, terminated, truncated,
    info)`` (``reset``: ``(obs, info)``): ``obs`` ``(N, size)`` is the observation of the
    seat to act in each game, ``info["action_mask"]`` ``(N, A)`` its legal actions,
    ``info["seat"]`` ``(N,)`` which seat that is; ``rewards`` ``(N, players)`` are the
    returns of a game that just ended (then ``terminated`` is true and the game was
    dealt anew, so ``obs`` is already the new game's).  Arrays are reused between calls:
    copy what you keep.
    """

    def __init__(self, game: str, num_envs: int, players: int | None = None, **options: Any):
        if num_envs < 1:
            raise RulesError(f"num_envs must be at least 1, not {num_envs}")
        self.game = tikki.load(game, players, **options)
        self.num_envs = num_envs
        self.encoder = encoder_for(self.game)
        self.actions = self.encoder.actions
        n, size, a = self.game.players, self.encoder.size, len(self.actions)
        self.obs = np.zeros((num_envs, size), np.float32)
        self.mask = np.zeros((num_envs, a), np.int8)
        self.seats = np.zeros(num_envs, np.int64)
        self.rewards = np.zeros((num_envs, n), np.float32)
        self.terminated = np.zeros(num_envs, bool)
        self.truncated = np.zeros(num_envs, bool)
        self.states: list[tikki.State] = []
        self._deals = random.Random()

    def reset(self, seed: int | None = None) -> tuple[Obs, dict[str, Any]]:
        """Deal ``num_envs`` games (from ``seed``, or the generator)."""
        if seed is not None:
            self._deals = random.Random(seed)
        self.states = [self._deal() for _ in range(self.num_envs)]
        for i in range(self.num_envs):
            self._observe(i)
        return self.obs, self._info()

    def step(
        self, actions: Sequence[int] | npt.NDArray[np.integer[Any]]
    ) -> tuple[Obs, npt.NDArray[np.float32], Any, Any, dict[str, Any]]:
        """Play one action in each game (for its seat to act)."""
        if len(actions) != self.num_envs:
            raise ValueError(f"give {self.num_envs} actions, one per game, not {len(actions)}")
        texts = self.actions.texts
        self.rewards.fill(0.0)
        self.terminated.fill(False)
        for i, action in enumerate(actions):
            state = self.states[i]
            a = int(action)
            if not 0 <= a < len(texts) or not self.mask[i, a]:
                raise tikki.IllegalMove(f"game {i}: action {a} is not legal (see the mask)")
            state.play(texts[a])
            outcome = state.outcome
            if outcome is not None:
                self.rewards[i] = outcome["returns"]
                self.terminated[i] = True
                self.states[i] = state = self._deal()
            self._observe(i)
        return self.obs, self.rewards, self.terminated, self.truncated, self._info()

    def _deal(self) -> tikki.State:
        return self.game.new_state(seed=self._deals.randrange(2**32))

    def _observe(self, i: int) -> None:
        state = self.states[i]
        seat = state.current_player
        assert seat is not None
        self.seats[i] = seat
        self.encoder.encode(state, seat, self.obs[i])
        row = self.mask[i]
        row.fill(0)
        index = self.actions.index
        row[[index[m] for m in state.legal_moves()]] = 1

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.mask, "seat": self.seats}


__all__ = ["TikkiGymEnv", "VectorEnv", "make_env"]
