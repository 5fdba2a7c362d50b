"""Every tikki game as a PettingZoo AEC environment (``pip install tikki[pettingzoo]``).

::

    from tikki.interop import pettingzoo as tikki_pz

    env = tikki_pz.env(name, players=3, render_mode="ansi")   # name: one of tikki.games()
    env.reset(seed=7)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            action = None                              # the finished agent leaves
        else:
            action = env.action_space(agent).sample(obs["action_mask"])   # or your policy
        env.step(action)
    print(info["outcome"])

What the environment provides
-----------------------------
* Agents ``player_0`` … ``player_{n-1}`` are the seats; ``agent_selection`` is the seat to
  act (tikki's turn order, not round-robin).
* ``action_space(agent)`` is ``Discrete(A)``, the fixed action space of
  :mod:`tikki.interop.encoding` (the same ids as the OpenSpiel adapter); an illegal action
  raises :class:`tikki.IllegalMove` (this environment never substitutes a move).
* ``observe(agent)`` is ``{"observation": float32 vector, "action_mask": int8 vector}``: the
  seat's observation from :func:`tikki.interop.observations.encoder_for` (seats relative
  to the agent, values in ``[low, high]``, nothing from other seats' hidden cards; the
  features are listed in ``docs/observations.md``) and the legal-action mask (zeros when
  it is not that agent's turn).  ``observation_space(agent)`` is the matching ``Dict`` of
  two ``Box`` spaces.
* Rewards are 0 until the game ends, then ``outcome["returns"]`` for every agent
  (``reward="game"``, the default); with ``reward="round"`` every agent earns the change
  of its running total (``State.returns_so_far``) on each step, so a match of scored rounds pays
  each round's score when the round is scored.  A game that reaches its move cap (``max_moves``,
  RULINGS C-5: abandoned) ends every agent ``truncated`` (not ``terminated``) with reward
  ``abandoned_reward`` (default 0; the game's own returns, −1 each, are in the outcome).
  ``infos[agent]`` is ``{}`` until the end, then ``{"outcome": outcome}``.
* Seeding: ``reset(seed=s)`` deals tikki's game ``new_state(seed=s)`` (so
  ``tikki.load(...).new_state(seed=s)`` replays it) and seeds the environment's own
  generator; a later ``reset()`` without a seed deals from that generator's next number.
* ``render_mode="ansi"``: ``render()`` returns the public view and the hand of the seat to
  act as text (``"human"`` prints it).

The parallel API, turn by turn
------------------------------
``parallel_env(...)`` (same arguments) is the same game as a PettingZoo ``ParallelEnv``, on
the conventions of PettingZoo's own ``turn_based_aec_to_parallel``: one move a step, played
by the agent to act; the other agents' entries in the actions dict are ignored (pass
anything, a no-op, or leave them out).  Every live agent gets its observation each step
(the action mask is zeros but for the agent to act) and ``infos[agent]["active_agent"]``
names the agent to act next; rewards, terminations and truncations are the AEC
environment's for that move.  When the game ends every agent leaves ``agents`` at once.
PettingZoo's ``aec_to_parallel`` refuses a turn-based game (all agents would have to act
in each cycle, ``is_parallelizable`` is false), and its ``parallel_api_test`` refuses its
``turn_based_aec_to_parallel`` wrapper, so this is an environment of its own::

    par = tikki_pz.parallel_env(name, players=3)
    observations, infos = par.reset(seed=7)
    while par.agents:
        actor = infos[par.agents[0]]["active_agent"]
        mask = observations[actor]["action_mask"]
        observations, rewards, terminations, truncations, infos = par.step(
            {actor: par.action_space(actor).sample(mask)}
        )
"""

# ruff: noqa: E402  (the extra is checked before its imports)
from __future__ import annotations

from tikki.extras import require

require("pettingzoo", "the PettingZoo adapter")

import random
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

import tikki
from tikki.interop.observations import encoder_for

_HIDDEN_IN_RENDER = frozenset({"game", "players", "options", "seat", "history", "legal_moves"})


class TikkiEnv(AECEnv):  # type: ignore[misc]
    """One tikki game (name, players, options) as a PettingZoo AEC environment."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's convention
        "render_modes": ["ansi", "human"],
        "name": "tikki_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        players: int | None = None,
        render_mode: str | None = None,
        reward: str = "game",
        abandoned_reward: float = 0.0,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        if reward not in ("game", "round"):
            raise tikki.RulesError(f"reward must be 'game' or 'round', not {reward!r}")
        self.reward_mode = reward
        self.abandoned_reward = float(abandoned_reward)
        self._banked: list[float] = []
        self.game = tikki.load(game, players, **options)
        self.metadata = {**self.metadata, "name": f"tikki_{self.game.name}_v0"}
        self.render_mode = render_mode
        self.encoder = encoder_for(self.game)
        self.actions = self.encoder.actions
        n = self.game.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        size = len(self.actions)
        self.action_spaces = {a: gymnasium.spaces.Discrete(size) for a in self.possible_agents}
        self.observation_spaces = {
            a: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(
                        self.encoder.low, self.encoder.high, (self.encoder.size,), np.float32
                    ),
                    "action_mask": gymnasium.spaces.Box(0, 1, (size,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._rng = random.Random()
        self.state: tikki.State | None = None

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The observation space of ``agent`` (the same object every time)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The action space of ``agent`` (the same object every time)."""
        return self.action_spaces[agent]

    def _tikki(self) -> tikki.State:
        if self.state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: from ``seed``, or from the environment's generator."""
        if seed is not None:
            self._rng = random.Random(seed)
            deal = seed
        else:
            deal = self._rng.randrange(2**32)
        self.state = self.game.new_state(seed=deal)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._banked = [0.0] * len(self.agents)
        self.agent_selection = self._agent_to_act()

    def _agent_to_act(self) -> str:
        seat = self._tikki().current_player
        return self.possible_agents[0 if seat is None else seat]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """``agent``'s observation: its view encoded, and its legal-action mask."""
        seat = self._seat[agent]
        state = self._tikki()
        encoder = self.encoder
        mask = np.zeros(len(self.actions), np.int8)
        if state.current_player == seat:
            mask.put(encoder.legal_ids(state), 1)
        return {"observation": encoder.encode(state, seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        """Play ``action`` (an action id) for the agent to act; ``None`` for a finished one."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: give an action id, not None")
        state = self._tikki()
        state.play(self.actions.to_text(int(action)))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.rewards, 0.0)
        outcome = state.outcome
        if self.reward_mode == "round":
            totals = state.returns_so_far()
            for seat, agent_id in enumerate(self.possible_agents):
                self.rewards[agent_id] = float(totals[seat]) - self._banked[seat]
                self._banked[seat] = float(totals[seat])
        if outcome is not None:
            self._finish(outcome)
        else:
            self.agent_selection = self._agent_to_act()
        self._accumulate_rewards()

    def _finish(self, outcome: dict[str, Any]) -> None:
        """End every agent: ``terminated`` with the returns, or ``truncated`` with
        ``abandoned_reward`` when the game reached its move cap (C-5)."""
        cut = bool(outcome.get("abandoned"))
        for seat, agent_id in enumerate(self.possible_agents):
            if cut:
                self.rewards[agent_id] = self.abandoned_reward
                self.truncations[agent_id] = True
            else:
                if self.reward_mode == "game":
                    self.rewards[agent_id] = float(outcome["returns"][seat])
                self.terminations[agent_id] = True
            self.infos[agent_id] = {"outcome": outcome}

    def render(self) -> str | None:
        """The public view and the hand of the seat to act, as text: returned with
        ``render_mode="ansi"``, printed with ``"human"``."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; use 'ansi'")
            return None
        text = self._render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _render_text(self) -> str:
        state = self._tikki()
        public = state.view(None)
        lines = [f"{self.game!r}"]
        for key, value in public.items():
            if key not in _HIDDEN_IN_RENDER and value not in (None, [], {}):
                lines.append(f"{key}: {value}")
        seat = state.current_player
        if seat is not None:
            mine = state.view(seat)
            lines.append(f"player_{seat} hand: {' '.join(mine['hand'])}")
            lines.append(f"player_{seat} legal: {', '.join(mine['legal_moves'])}")
        history = public.get("history") or []
        if history:
            last = history[-5:]
            lines.append("last moves: " + ", ".join(f"{h['seat']}:{h['move']}" for h in last))
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper, with ``last()`` answered by the environment
    itself once it has been reset (the same result, without a wrapper attribute lookup
    for each of the eight attributes ``last`` reads)."""

    def last(self, observe: bool = True) -> Any:
        """The observation, reward, termination, truncation and info of the agent to act."""
        if not self._has_reset:
            return super().last(observe)
        return self.env.last(observe)

    def step(self, action: Any) -> None:
        """The environment's step once it has been reset and has agents (else PettingZoo's
        errors and warnings)."""
        env = self.env
        if self._has_reset and env.agents:
            self._has_updated = True
            env.step(action)
        else:
            super().step(action)

    @property
    def agents(self) -> list[str]:
        """The live agents (after ``reset()``), read without the wrapper's lookup."""
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        found: list[str] = self.env.agents
        return found

    @property
    def agent_selection(self) -> str:
        """The agent to act (after ``reset()``), read without the wrapper's lookup."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        found: str = self.env.agent_selection
        return found


class TikkiParallelEnv(ParallelEnv):  # type: ignore[misc]
    """One tikki game as a PettingZoo parallel environment, one move a step (the module
    notes): the AEC environment :attr:`aec_env` underneath, its acting agent's action
    taken from each step's actions dict."""

    def __init__(
        self,
        game: str,
        players: int | None = None,
        render_mode: str | None = None,
        reward: str = "game",
        abandoned_reward: float = 0.0,
        **options: Any,
    ) -> None:
        self.aec_env = TikkiEnv(game, players, render_mode, reward, abandoned_reward, **options)
        self.metadata = dict(self.aec_env.metadata)
        self.render_mode = render_mode
        self.game = self.aec_env.game
        self.actions = self.aec_env.actions
        self.possible_agents = self.aec_env.possible_agents
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The observation space of ``agent`` (the same object every time)."""
        return self.aec_env.observation_space(agent)

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The action space of ``agent`` (the same object every time)."""
        return self.aec_env.action_space(agent)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        """Deal a new game (seeded as the AEC environment); every agent's observation, and
        infos naming the agent to act (``"active_agent"``)."""
        aec = self.aec_env
        aec.reset(seed=seed, options=options)
        self.agents = aec.agents[:]
        observations = {agent: aec.observe(agent) for agent in self.agents}
        infos = {agent: {"active_agent": aec.agent_selection} for agent in self.agents}
        return observations, infos

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        """Play the acting agent's action from ``actions`` (the others' are ignored);
        observations, rewards, terminations, truncations and infos of every agent that was
        live.  Without the acting agent's action, a :class:`ValueError` and no move."""
        aec = self.aec_env
        if not self.agents:
            return {}, {}, {}, {}, {}
        actor = aec.agent_selection
        if actions.get(actor) is None:
            raise ValueError(f"{actor} is to act: give its action id in the actions dict")
        aec.step(actions[actor])
        observations = {agent: aec.observe(agent) for agent in self.agents}
        rewards = {agent: aec.rewards[agent] for agent in self.agents}
        terminations = {agent: aec.terminations[agent] for agent in self.agents}
        truncations = {agent: aec.truncations[agent] for agent in self.agents}
        infos = {agent: dict(aec.infos[agent]) for agent in self.agents}
        while aec.agents and (
            aec.terminations[aec.agent_selection] or aec.truncations[aec.agent_selection]
        ):
            aec.step(None)
        self.agents = aec.agents[:]
        for agent in self.agents:
            infos[agent]["active_agent"] = aec.agent_selection
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """As the AEC environment's :meth:`TikkiEnv.render`."""
        return self.aec_env.render()

    def close(self) -> None:
        """Nothing to release."""


def raw_env(
    game: str, players: int | None = None, render_mode: str | None = None, **options: Any
) -> TikkiEnv:
    """The environment without PettingZoo's order-enforcing wrapper."""
    return TikkiEnv(game, players, render_mode, **options)


def env(
    game: str, players: int | None = None, render_mode: str | None = None, **options: Any
) -> Any:
    """The environment of one tikki game, wrapped in PettingZoo's ``OrderEnforcingWrapper``.

    ``env(name, players=3, variant="standard")``; options are tikki's keywords.
    """
    return _OrderEnforcing(raw_env(game, players, render_mode, **options))


def parallel_env(
    game: str, players: int | None = None, render_mode: str | None = None, **options: Any
) -> TikkiParallelEnv:
    """The parallel environment of one tikki game, one move a step (the module notes).

    ``parallel_env(name, players=3, variant="standard")``; options are tikki's keywords.
    """
    return TikkiParallelEnv(game, players, render_mode, **options)


__all__ = ["TikkiEnv", "TikkiParallelEnv", "env", "parallel_env", "raw_env"]
