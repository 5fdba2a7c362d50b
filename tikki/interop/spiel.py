"""The OpenSpiel bridge: tikki bots as ``pyspiel.Bot``, tikki rollouts as an MCTS
``Evaluator``, and pyspiel states built from tikki states, decks and records
(``pip install 'tikki[openspiel]'``).

::

    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
    from tikki.interop import openspiel, spiel

    openspiel.register()
    game = pyspiel.load_game("python_tikki_<name>(players=3,rng_seed=1)")
    bots = [spiel.TikkiBot(game, "heuristic", seed=s) for s in range(3)]
    print(evaluate_bots(game.new_initial_state(), bots, np.random.default_rng(0)))

* :class:`TikkiBot` plays a tikki bot spec (``"random"``, ``"heuristic"``,
  ``"ismcts:iterations=200"`` …) from the view of the player to act: it sees what that
  seat may know, nothing more.
* :class:`RolloutEvaluator` is an ``open_spiel.python.algorithms.mcts.Evaluator``: the
  value of a state is the mean of ``n_rollouts`` random playouts by tikki's own fast
  ``State.random_playout`` (no OpenSpiel round trip per move); the prior is uniform.
  For ISMCTS give it states from ``resample_from_infostate``, which carry no future deal.
  Use it instead of OpenSpiel's stock ``mcts.RandomRolloutEvaluator``: that one plays each
  rollout through the adapter (a pyspiel round trip per move, about 47 simulations a
  second in Myllymatti), this one about 9× faster.
* :func:`state_from` wraps a tikki state (of the same game) as a pyspiel state;
  :func:`state_from_deck` deals a fixed deck; :func:`state_from_record` replays a record
  (``tikki replay``'s JSON) and verifies it.
"""

# ruff: noqa: E402  (the extra is checked before its imports)
from __future__ import annotations

from tikki.extras import require

require("openspiel", "the OpenSpiel bridge")

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import tikki
from tikki import bots as botlib
from tikki.core import RulesError
from tikki.interop.openspiel import TikkiGame, TikkiState, _Held


class TikkiBot(pyspiel.Bot):  # type: ignore[misc]
    """A tikki bot (a spec) as an OpenSpiel bot, for ``evaluate_bots`` and friends."""

    def __init__(self, game: TikkiGame, spec: str, seed: int | None = None) -> None:
        pyspiel.Bot.__init__(self)
        self._game = game.tikki_game
        self._actions = game.adapter.actions
        self._bot = botlib.make(spec, seed=seed)
        self.spec = spec

    def step(self, state: TikkiState) -> int:
        """The action id of the bot's move for the player to act."""
        seat = state.current_player()
        view = state.tikki_state.view(seat)
        return self._actions.to_id(self._bot.choose(self._game, view))

    def restart_at(self, state: TikkiState) -> None:
        """Nothing to reset: the bot reads the whole view at every step."""

    def inform_action(self, state: TikkiState, player_id: int, action: int) -> None:
        """Nothing to track: the bot reads the whole view at every step."""

    def provides_policy(self) -> bool:
        """Tikki bots give a move, not a policy."""
        return False


class RolloutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """Mean returns of random playouts with tikki's ``random_playout`` (see the module)."""

    def __init__(self, n_rollouts: int = 1, seed: int | None = None) -> None:
        if n_rollouts < 1:
            raise ValueError(f"n_rollouts must be at least 1, not {n_rollouts}")
        self.n_rollouts = n_rollouts
        self._rng = random.Random(seed)

    def evaluate(self, state: TikkiState) -> Any:
        """The mean returns of ``n_rollouts`` playouts from ``state``."""
        total = np.zeros(state.get_game().num_players(), np.float64)
        for _ in range(self.n_rollouts):
            working = state.tikki_state.clone()
            working.random_playout(self._rng)
            outcome = working.outcome
            assert outcome is not None
            total += np.asarray(outcome["returns"], np.float64)
        return total / self.n_rollouts

    def prior(self, state: TikkiState) -> list[tuple[int, float]]:
        """Equal probability for every legal action."""
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


def state_from(game: TikkiGame, state: tikki.State) -> TikkiState:
    """``state`` (a tikki state of ``game``'s tikki game) as a pyspiel state; the pyspiel
    state plays on a clone, so ``state`` is not changed."""
    mine = game.tikki_game
    if (state.game.name, state.game.players, dict(state.game.options)) != (
        mine.name,
        mine.players,
        dict(mine.options),
    ):
        raise RulesError(
            f"the state is a game of {state.game!r}; this OpenSpiel game plays {mine!r}"
        )
    return TikkiState(game, _Held(game.adapter, state.clone()))


def state_from_deck(game: TikkiGame, deck: Sequence[Any], seed: int = 0) -> TikkiState:
    """A pyspiel state dealt from a fixed deck (``new_state(seed, deck)``: the deck fixes
    the first deal, the seed any later random event)."""
    return state_from(game, game.tikki_game.new_state(seed=seed, deck=list(deck)))


def state_from_record(game: TikkiGame, record: Mapping[str, Any]) -> TikkiState:
    """A pyspiel state at the end of a record (``tikki.replay``, verified)."""
    return state_from(game, tikki.replay(dict(record)))


__all__ = ["RolloutEvaluator", "TikkiBot", "state_from", "state_from_deck", "state_from_record"]
