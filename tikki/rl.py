"""Reinforcement learning with Gymnasium (``pip install 'tikki[gym]'``).

* Registered ids — importing this module registers one Gymnasium id per registered game,
  ``tikki/<Game>-v0`` after the game's class name (:data:`GYM_IDS`, :func:`gym_id`);
  the keywords of :func:`make_env` (``players``, ``opponents``, ``seat``, ``reward``, the
  game's options) are the ids' kwargs::

      import gymnasium
      import tikki.rl  # registers the ids (or: gymnasium.make("tikki.rl:tikki/<Game>-v0"))
      env = gymnasium.make("tikki/<Game>-v0", players=4, variant="standard",
                           opponents=["heuristic"])

* :func:`make_env` — one seat of a game against fixed tikki bots, as a single-agent
  ``gymnasium.Env``::

      from tikki.rl import make_env
      env = make_env(name, players=3, opponents=["heuristic", "random"], seat=0)
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
  other seat (the last repeated), move until it is the learner's turn.

  Rewards: with ``reward="game"`` (the default) 0 until the game ends, then the learner's
  ``outcome["returns"]``; with ``reward="round"`` the change of the learner's running
  total (``State.returns_so_far``) since its last step, so a match of scored rounds pays each
  round's score as the round is scored (the rewards add up to the match's returns; a
  one-round game pays the same as ``"game"``).  A game that reaches its ``max_moves`` cap
  (RULINGS C-5, abandoned) ends ``truncated=True, terminated=False`` with reward
  ``abandoned_reward`` (default 0: a cut, not a loss; the game's own returns, −1 for every
  seat, are in ``info["outcome"]``; give ``abandoned_reward=-1`` to punish stalling).
  An illegal action ends the episode with reward ``illegal_reward`` (default −1) and
  ``info["illegal"]``; the game is not changed.  ``reset(seed=s)`` deals
  ``new_state(seed=s)`` and seeds the bots from ``s``, so a seed replays an episode exactly.
* :func:`make_vec` — ``N`` copies of that env in Gymnasium's own ``SyncVectorEnv`` with
  ``autoreset_mode=SAME_STEP``: a finished game is dealt anew in the step that ends it,
  so ``infos["action_mask"]`` is a valid mask on every step (the finished game's last
  observation and info are in ``infos["final_obs"]`` and ``infos["final_info"]``).  With
  Gymnasium's default ``NEXT_STEP`` mode the mask returned with ``terminated`` is all
  zeros (the game is over) and the next action is ignored.
* :mod:`tikki.rl.dataset` (:mod:`tikki.interop.dataset`) — records, or games bots play,
  as an ``.npz`` of observations, masks, actions and these rewards, for offline learning.
* :class:`VectorEnv` — ``N`` games of self-play, a ``gymnasium.vector.VectorEnv``: in each
  game the seat to act is the agent.  ``step(actions)`` plays one action in each game;
  the reward is that of the seat that just acted (as above); a game that ends is dealt anew
  in the same step (``SAME_STEP`` autoreset), and ``infos["returns"]`` holds every seat's
  returns of the games that ended (zeros elsewhere) and ``infos["final_obs"]`` their last
  observation, of the seat that ended them (rows marked by ``infos["_final_obs"]``).
  ``infos["action_mask"]`` and ``infos["seat"]`` describe the seat to act now, on every
  step.  The observations and masks of all ``N`` games are written at once into arrays
  kept between steps (the same values as a single game's; the fast way to collect
  self-play experience, see ``benchmarks/adapters.py``).
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
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from gymnasium.vector.utils import batch_space

import tikki
from tikki import bots as botlib
from tikki.core import RulesError, game_class
from tikki.interop import dataset
from tikki.interop.observations import encoder_for
from tikki.interop.rows import play_rows

Obs = npt.NDArray[np.float32]

REWARDS = ("game", "round")
"""The reward modes (see the module notes)."""


def gym_id(name: str) -> str:
    """The Gymnasium id of a registered game: ``tikki/<its class name>-v0``."""
    return f"tikki/{game_class(name).__name__}-v0"


GYM_IDS: dict[str, str] = {name: gym_id(name) for name in tikki.games()}
"""The Gymnasium id of each game, plug-in games included (registered when this module is
imported)."""


def _check_reward(reward: str) -> str:
    if reward not in REWARDS:
        raise RulesError(f"reward must be 'game' or 'round', not {reward!r}")
    return reward


def _step_reward(state: tikki.State, seat: int, mode: str, before: float) -> float:
    """What ``seat`` earns for the moves since its running total was ``before``."""
    outcome = state.outcome
    if mode == "round":
        return float(state.returns_so_far()[seat]) - before
    return 0.0 if outcome is None else float(outcome["returns"][seat])


def _abandoned(state: tikki.State) -> bool:
    outcome = state.outcome
    return outcome is not None and bool(outcome.get("abandoned"))


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
        reward: str = "game",
        abandoned_reward: float = 0.0,
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
        self.reward_mode = _check_reward(reward)
        self.abandoned_reward = float(abandoned_reward)
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
        self._banked = 0.0

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
        self._banked = 0.0
        self._advance()
        self._banked = self._total()
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
        info = self._info()
        if outcome is not None:
            info["outcome"] = outcome
        if _abandoned(state):
            return self._observe(), self.abandoned_reward, False, True, info
        reward = _step_reward(state, self.seat, self.reward_mode, self._banked)
        self._banked = self._total()
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

    def _total(self) -> float:
        if self.reward_mode != "round":
            return 0.0
        return float(self._state().returns_so_far()[self.seat])

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
    (and ``illegal_reward``, ``render_mode``, ``reward``, ``abandoned_reward``)."""
    return TikkiGymEnv(game, players, opponents, seat, **options)


def make_vec(game: str, num_envs: int, **kwargs: Any) -> SyncVectorEnv:
    """``num_envs`` copies of :func:`make_env` (same keywords) in Gymnasium's
    ``SyncVectorEnv`` with ``SAME_STEP`` autoreset: ``infos["action_mask"]`` is the legal
    mask of the game in play on every step (see the module notes)."""
    if num_envs < 1:
        raise RulesError(f"num_envs must be at least 1, not {num_envs}")
    make_env(game, **kwargs)  # bad arguments fail here, once, clearly
    return SyncVectorEnv(
        [lambda: make_env(game, **kwargs) for _ in range(num_envs)],
        autoreset_mode=AutoresetMode.SAME_STEP,
    )


def register_envs() -> list[str]:
    """Register the Gymnasium id of every game (again: no-op); return the ids."""
    registry = gymnasium.envs.registration.registry
    for name, env_id in GYM_IDS.items():
        if env_id not in registry:
            gymnasium.register(id=env_id, entry_point="tikki.rl:TikkiGymEnv", kwargs={"game": name})
    return list(GYM_IDS.values())


class VectorEnv(gymnasium.vector.VectorEnv[Obs, npt.NDArray[np.int64], Any]):
    """``num_envs`` self-play games stepped together (see the module notes).

    ``reset(seed=s)`` and ``step(actions)`` return Gymnasium's tuples: ``obs``
    ``(N, size)`` is the observation of the seat to act in each game,
    ``infos["action_mask"]`` ``(N, A)`` its legal actions, ``infos["seat"]`` ``(N,)``
    which seat that is; ``rewards`` ``(N,)`` are the rewards of the seats that just acted
    and ``infos["returns"]`` ``(N, players)`` the returns of the games that just ended
    (dealt anew at once, so ``obs`` is already the new game's; as in Gymnasium's
    ``SAME_STEP`` autoreset, ``infos["final_obs"]`` holds the ended game's last observation
    of the seat that ended it, on the rows ``infos["_final_obs"]`` marks).  Each step plays
    the games' moves, then writes every observation and mask at once
    (:meth:`~tikki.interop.observations.Encoder.encode_batch`, the same values as one
    game's).  ``reward`` and
    ``abandoned_reward`` are as in :func:`make_env`.  Arrays are reused between calls:
    copy what you keep.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 - Gymnasium's

    def __init__(
        self,
        game: str,
        num_envs: int,
        players: int | None = None,
        reward: str = "game",
        abandoned_reward: float = 0.0,
        **options: Any,
    ) -> None:
        if num_envs < 1:
            raise RulesError(f"num_envs must be at least 1, not {num_envs}")
        self.game = tikki.load(game, players, **options)
        self.num_envs = num_envs
        self.reward_mode = _check_reward(reward)
        self.abandoned_reward = float(abandoned_reward)
        self.encoder = encoder_for(self.game)
        self.actions = self.encoder.actions
        n, size, a = self.game.players, self.encoder.size, len(self.actions)
        self.single_observation_space = gymnasium.spaces.Box(
            self.encoder.low, self.encoder.high, (size,), np.float32
        )
        self.single_action_space = gymnasium.spaces.Discrete(a)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.obs = np.zeros((num_envs, size), np.float32)
        self.mask = np.zeros((num_envs, a), np.int8)
        self.seats = np.zeros(num_envs, np.int64)
        self.rewards = np.zeros(num_envs, np.float32)
        self.returns = np.zeros((num_envs, n), np.float32)
        self.terminated = np.zeros(num_envs, bool)
        self.truncated = np.zeros(num_envs, bool)
        self.banked = np.zeros((num_envs, n), np.float64)
        self.final_obs = np.zeros((num_envs, size), np.float32)
        self.final = np.zeros(num_envs, bool)
        self.states: list[tikki.State] = []
        self._seats: list[int] = []
        self._deals = random.Random()
        self._rows = np.arange(num_envs)

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Deal ``num_envs`` games (from ``seed``, or the generator)."""
        if isinstance(seed, list):
            seed = seed[0] if seed else None
        if seed is not None:
            self._deals = random.Random(seed)
        self.states = [self._deal() for _ in range(self.num_envs)]
        self.banked.fill(0.0)
        self.returns.fill(0.0)
        self._observe()
        return self.obs, self._info()

    def step(
        self, actions: Sequence[int] | npt.NDArray[np.integer[Any]]
    ) -> tuple[Obs, Any, Any, Any, dict[str, Any]]:
        """Play one action in each game (for its seat to act); observe every game at once.
        An illegal action (see the mask) raises :class:`tikki.IllegalMove` and plays no
        game's action."""
        if not self.states:
            raise RuntimeError("call reset() before step()")
        chosen = self._checked(actions)
        texts = self.actions.texts
        self.rewards.fill(0.0)
        self.returns.fill(0.0)
        self.terminated.fill(False)
        self.truncated.fill(False)
        if self.final.any():
            self.final_obs[self.final] = 0.0
            self.final.fill(False)
        seats = self._seats
        for i in play_rows(self.states, texts, chosen, self.reward_mode == "round"):
            self._settle(i, seats[i])
        self._observe()
        return self.obs, self.rewards, self.terminated, self.truncated, self._info()

    def _checked(self, actions: Sequence[int] | npt.NDArray[np.integer[Any]]) -> list[int]:
        """The actions as ints, each legal in its game (checked before any is played)."""
        if len(actions) != self.num_envs:
            raise ValueError(f"give {self.num_envs} actions, one per game, not {len(actions)}")
        chosen = np.asarray(actions).astype(np.int64).reshape(-1)
        inside = (chosen >= 0) & (chosen < self.mask.shape[1])
        legal = inside & (self.mask[self._rows, np.where(inside, chosen, 0)] != 0)
        if not legal.all():
            i = int(np.flatnonzero(~legal)[0])
            raise tikki.IllegalMove(f"game {i}: action {chosen[i]} is not legal (see the mask)")
        result: list[int] = chosen.tolist()
        return result

    def _settle(self, i: int, seat: int) -> None:
        """The reward of game ``i``'s mover ``seat``; a finished game's returns, and a new
        deal in its place."""
        state = self.states[i]
        outcome = state.outcome
        if outcome is not None and outcome.get("abandoned"):
            self.rewards[i] = self.abandoned_reward
            self.truncated[i] = True
        else:
            self.rewards[i] = _step_reward(state, seat, self.reward_mode, self.banked[i, seat])
            if self.reward_mode == "round":
                self.banked[i, seat] = state.returns_so_far()[seat]
            self.terminated[i] = outcome is not None
        if outcome is not None:
            self.returns[i] = outcome["returns"]
            self.encoder.encode(state, seat, self.final_obs[i])
            self.final[i] = True
            self.states[i] = self._deal()
            self.banked[i].fill(0.0)

    def _deal(self) -> tikki.State:
        return self.game.new_state(seed=self._deals.randrange(2**32))

    def _observe(self) -> None:
        """Every game's seat to act, its observation and its mask, written in place."""
        states = self.states
        seats: list[int] = [state.current_player for state in states]  # type: ignore[misc]
        self._seats = seats
        self.seats[:] = seats
        self.encoder.encode_batch(states, seats, self.obs)
        self.encoder.mask_batch(states, self.mask, seats)

    def _info(self) -> dict[str, Any]:
        return {
            "action_mask": self.mask,
            "seat": self.seats,
            "returns": self.returns,
            "final_obs": self.final_obs,
            "_final_obs": self.final,
        }


register_envs()

__all__ = [
    "GYM_IDS",
    "REWARDS",
    "TikkiGymEnv",
    "VectorEnv",
    "dataset",
    "gym_id",
    "make_env",
    "make_vec",
    "register_envs",
]
