"""Every tikki game as an OpenSpiel Python game (``pip install tikki[openspiel]``).

:func:`register` registers each game of ``tikki.games()`` as ``python_tikki_<name>``, with
the game's options as OpenSpiel parameters (defaults from the option specs), plus
``players``, ``variant`` and ``rng_seed``::

    import numpy as np
    import pyspiel
    from tikki.interop import openspiel

    openspiel.register()
    game = pyspiel.load_game("python_tikki_myllymatti(players=3,variant=koira)")
    state, rng = game.new_initial_state(), np.random.default_rng(7)
    while not state.is_terminal():
        print(state.current_player(), state.observation_string())   # the seat's view
        action = rng.choice(state.legal_actions())
        print("  plays", state.action_to_string(action))
        state.apply_action(action)
    print(state.returns())

What the adapter provides
-------------------------
* Sequential, imperfect information, general-sum (shedding games are zero-sum except
  that an abandoned game gives −1 to everyone, docs/design.md: ``outcome``), terminal rewards:
  ``returns()`` is ``outcome["returns"]``.
* Integer actions with a fixed space per game and options, from
  :mod:`tikki.interop.encoding` (card ids first, then runs, words, ``slough X`` …);
  ``action_to_string`` gives the canonical move text, legal actions come sorted.
* Observations from ``state.view(player)`` only (an observer through
  ``make_py_observer``): the observation string is the canonical JSON of the view without
  its history, the information-state string is the canonical JSON of the whole view (the
  history included, so it has perfect recall); the observation tensor is the seat's
  vector from :func:`tikki.interop.observations.encoder_for`, written straight from the
  state (features in ``docs/observations.md``).  ``state.observation_tensor(p)`` and
  ``game.observation_tensor_shape()`` are answered in Python without OpenSpiel's sizing
  deal.  There is no information-state tensor: ``information_state_tensor`` raises
  ``NotImplementedError`` saying so (the game type says
  ``provides_information_state_tensor=False``).  A public observer
  (``private_info=NONE``) uses ``view(None)``.
* ``resample_from_infostate(player, sampler)`` returns ``game.sample_state(view, rng)``
  wrapped as a state of this game (its ``history()`` is empty: OpenSpiel's Python states
  cannot be given a history), with ``rng`` seeded from the sampler.  That is what
  OpenSpiel's ISMCTS bot uses.
* Serialization: ``state.serialize()`` and ``game.deserialize_state(text)`` work (OpenSpiel
  pickles a Python state's attributes; the tikki state pickles as its record, seed and
  moves, replayed and verified on load, or, for a sampled state that has no seed, as the
  state itself).  ``pyspiel.serialize_game_and_state`` and ``pickle`` of a state do not:
  for a sampled-stochastic game they ask the game for ``GetRNGState``, a C++ method that
  OpenSpiel does not let Python games implement; so ``random_sim_test`` runs with
  ``serialize=False`` and the round trip is tested on its own.

Parameters: an option left at its spec default does not override the variant preset
(OpenSpiel fills every parameter with its default, so "not given" and "given the default"
cannot be told apart); to play a preset with one option back at its default, give
``variant=standard`` and every option.

The chance model: sampled stochastic
------------------------------------
The game type says ``SAMPLED_STOCHASTIC``: there are no chance nodes; each state deals
itself from a seed it holds (docs/design.md: randomness).  Why not explicit chance nodes:
tikki's randomness is more than the first deal (the Mattis dreck is shuffled mid-game,
each Mückenstich round is dealt anew), and the public contract can inject only the first
deal (``new_state(deck=…)``); every later random event follows from the state's seed.
Exposing the first deal as chance nodes while the rest stayed hidden in the seed would
claim an explicit model that the game does not have, so the honest choice is the one
docs/design.md names: sampled stochastic.

The seed of each game is chosen when its initial state is first used (a state OpenSpiel
makes only to copy into it, as ``clone()`` does, draws none): from ``SystemRandom`` when
``rng_seed`` is −1 (the default), else the next number of ``random.Random(rng_seed)``
owned by the game object, so a fixed ``rng_seed`` replays the same sequence of deals in
the same program (OpenSpiel itself makes and observes an initial state whenever it sizes an
observation tensor, and that state takes the next seed too).
That makes OpenSpiel's handling of sampled chance correct: every random event is drawn
from the true distribution (the seeded shuffle), independently of anything a player has
seen; it is hidden from every observation (views never hold the seed or the stock order);
``clone()`` copies the state and its seed, so a clone replays the same future, as
OpenSpiel documents for sampled stochastic games; and algorithms that must not know the
future (ISMCTS) draw their worlds with ``resample_from_infostate``, whose states carry no
seed and draw future random events from the sampler's rng.  Algorithms that enumerate
chance outcomes (CFR, exact best response) do not apply, as for any sampled-stochastic
game: there are none to enumerate.
"""

# ruff: noqa: E402  (the extra is checked before its imports)
from __future__ import annotations

from tikki.extras import require

require("openspiel", "the OpenSpiel adapter")

import json
import pickle
import random
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

import tikki
from tikki.core import game_class
from tikki.interop.encoding import canonical_json
from tikki.interop.observations import encoder_for

PREFIX = "python_tikki_"
"""OpenSpiel short names are ``PREFIX + tikki name``."""

_NO_INFOSTATE_TENSOR = (
    "tikki games provide no information-state tensor: a perfect-recall tensor of a "
    "whole game does not fit a useful fixed size. Use information_state_string() (the "
    "whole view, with its history) or observation_tensor() (a Markov summary of what the "
    "seat knows: its hand, every public card and count; docs/observations.md)"
)


class _Held:
    """A tikki state inside an OpenSpiel state: dealt lazily, copied by ``clone``, pickled
    as its record."""

    __slots__ = ("_seeds", "adapter", "state")

    def __init__(
        self,
        adapter: _Adapter,
        state: tikki.State | None,
        seeds: Callable[[], int] | None = None,
    ) -> None:
        self.adapter = adapter
        self.state = state
        self._seeds = seeds

    def get(self) -> tikki.State:
        if self.state is None:
            assert self._seeds is not None
            self.state = self.adapter.game.new_state(seed=self._seeds())
        return self.state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.adapter, self.get().clone())

    def __reduce__(self) -> tuple[Any, ...]:
        state = self.get()
        game = self.adapter.game
        if state.seed is not None:
            payload: Any = canonical_json(state.record())
        else:
            payload = pickle.dumps(state)
        return (_restore, (game.name, game.players, canonical_json(game.options), payload))


def _restore(name: str, players: int, options: str, payload: Any) -> _Held:
    adapter = _adapter(name, players, options)
    if isinstance(payload, bytes):
        state = pickle.loads(payload)
    else:
        state = tikki.replay(_json_loads(payload))
    return _Held(adapter, state)


def _json_loads(text: str) -> Any:
    return json.loads(text)


class _Adapter:
    """What one tikki game (name, players, options) needs: actions, encoder, bounds."""

    def __init__(self, game: tikki.Game) -> None:
        self.game = game
        self.encoder = encoder_for(game)
        self.actions = self.encoder.actions
        self.utility = game.utility_bounds
        self.length = game.max_length


@cache
def _adapter(name: str, players: int, options: str) -> _Adapter:
    return _Adapter(tikki.load(name, players, **_json_loads(options)))


def game_type(name: str) -> Any:
    """The ``pyspiel.GameType`` of one tikki game."""
    cls = game_class(name)
    spec = tikki.games()[name]
    params: dict[str, Any] = {"players": cls.default_players, "variant": "standard"}
    for option in spec["options"]:
        params[option["name"]] = option["default"]
    params["rng_seed"] = -1
    return pyspiel.GameType(
        short_name=PREFIX + name,
        long_name=f"tikki {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def _options_from(name: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """tikki options from OpenSpiel parameters; defaults leave the variant preset alone."""
    spec = tikki.games()[name]
    options: dict[str, Any] = {"variant": params.get("variant", "standard")}
    for option in spec["options"]:
        key = option["name"]
        if key in params and params[key] != option["default"]:
            options[key] = params[key]
    return options


class TikkiGame(pyspiel.Game):  # type: ignore[misc]
    """One tikki game as an OpenSpiel game; made by ``pyspiel.load_game``."""

    def __init__(self, name: str, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", game_class(name).default_players))
        tgame = tikki.load(name, players, **_options_from(name, params))
        self.adapter = _adapter(name, players, canonical_json(tgame.options))
        seed = int(params.get("rng_seed", -1))
        self._rng: random.Random = random.SystemRandom() if seed < 0 else random.Random(seed)
        low, high = self.adapter.utility
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.adapter.actions),
            max_chance_outcomes=0,
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=None,
            max_game_length=self.adapter.length,
        )
        super().__init__(game_type(name), info, params)

    def _next_seed(self) -> int:
        return self._rng.randrange(2**32)

    def new_initial_state(self) -> TikkiState:
        """A new game, dealt from the next seed when first used."""
        return TikkiState(self, _Held(self.adapter, None, self._next_seed))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> TikkiObserver:
        """An observer: strings and tensors from ``view`` (see the module notes)."""
        return TikkiObserver(self.adapter, iig_obs_type, params)

    def observation_tensor_shape(self) -> list[int]:
        """``[size]`` of the observation tensor (known without dealing a game)."""
        return [self.adapter.encoder.size]

    def observation_tensor_size(self) -> int:
        """Length of the observation tensor."""
        return self.adapter.encoder.size

    def information_state_tensor_shape(self) -> list[int]:
        """Not provided: raises ``NotImplementedError`` (see the module notes)."""
        raise NotImplementedError(_NO_INFOSTATE_TENSOR)

    def information_state_tensor_size(self) -> int:
        """Not provided: raises ``NotImplementedError`` (see the module notes)."""
        raise NotImplementedError(_NO_INFOSTATE_TENSOR)

    @property
    def tikki_game(self) -> tikki.Game:
        """The tikki game this OpenSpiel game plays."""
        return self.adapter.game


class TikkiState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state around one tikki state (``tikki_state``)."""

    def __init__(self, game: TikkiGame, held: _Held) -> None:
        super().__init__(game)
        self._held = held

    @property
    def tikki_state(self) -> tikki.State:
        """The tikki state (the whole truth: do not show it to a player)."""
        return self._held.get()

    def current_player(self) -> int:
        """The seat to act, or ``pyspiel.PlayerId.TERMINAL``."""
        seat = self.tikki_state.current_player
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        state = self.tikki_state
        if player != state.current_player:
            return []
        return self._held.adapter.actions.legal_ids(state.legal_moves())

    def _apply_action(self, action: int) -> None:
        self.tikki_state.play(self._held.adapter.actions.to_text(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self._held.adapter.actions.to_text(action)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.tikki_state.is_over

    def returns(self) -> list[float]:
        """``outcome["returns"]`` at the end, zeros before."""
        outcome = self.tikki_state.outcome
        if outcome is None:
            return [0.0] * self._held.adapter.game.players
        return [float(r) for r in outcome["returns"]]

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """``player``'s observation (default: the player to act) as a list of floats,
        encoded straight from the state (:mod:`tikki.interop.observations`)."""
        seat = self.current_player() if player is None else player
        adapter = self._held.adapter
        if not 0 <= seat < adapter.game.players:
            raise ValueError(f"observation_tensor needs a seat 0..{adapter.game.players - 1}")
        return adapter.encoder.encode(self.tikki_state, seat).tolist()  # type: ignore[no-any-return]

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """Not provided: raises ``NotImplementedError`` (see the module notes)."""
        raise NotImplementedError(_NO_INFOSTATE_TENSOR)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TikkiState:
        """A state consistent with everything ``player_id`` knows (``game.sample_state``)."""
        adapter = self._held.adapter
        rng = random.Random(int(probability_sampler() * 2**53))
        sampled = adapter.game.sample_state(self.tikki_state.view(player_id), rng)
        return TikkiState(self.get_game(), _Held(adapter, sampled))

    def __str__(self) -> str:
        return canonical_json(self.tikki_state.reveal())


class TikkiObserver:
    """OpenSpiel's PyObserver interface over ``view``: ``tensor``, ``dict``, strings."""

    def __init__(
        self, adapter: _Adapter, iig_obs_type: Any, params: Mapping[str, Any] | None
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {dict(params)}")
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER
        recall = False
        if iig_obs_type is not None:
            private = iig_obs_type.private_info
            recall = iig_obs_type.perfect_recall
            if not iig_obs_type.public_info:
                raise ValueError("a tikki observer always includes the public information")
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("tikki observers see one seat's private information, or none")
        self._adapter = adapter
        self._public = private == pyspiel.PrivateInfoType.NONE
        self._recall = recall
        self.tensor: npt.NDArray[np.float32] | None = None
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        if not recall:
            self.tensor = adapter.encoder.empty()
            self.dict = adapter.encoder.split(self.tensor)

    def _view(self, state: TikkiState, player: int) -> tuple[dict[str, Any], int | None]:
        seat = None if self._public else player
        return state.tikki_state.view(seat), seat

    def set_from(self, state: TikkiState, player: int) -> None:
        """Fill ``tensor`` with ``player``'s observation of ``state``."""
        if self.tensor is None:
            return
        seat = None if self._public else player
        self._adapter.encoder.encode(state.tikki_state, seat, self.tensor)

    def string_from(self, state: TikkiState, player: int) -> str:
        """The view as canonical JSON (without its history unless perfect recall)."""
        view, _ = self._view(state, player)
        if not self._recall:
            view = {k: v for k, v in view.items() if k != "history"}
        return canonical_json(view)


def register() -> list[str]:
    """Register every tikki game with OpenSpiel (again: no-op); return the short names."""
    known = set(pyspiel.registered_names())
    names = []
    for name in tikki.games():
        short = PREFIX + name
        if short not in known:
            pyspiel.register_game(game_type(name), _creator(name))
        names.append(short)
    return names


def _creator(name: str) -> type[TikkiGame]:
    """A TikkiGame subclass for one game: OpenSpiel's registry holds it (a class, not a
    closure, so that the registry can let go of it safely when Python exits)."""

    def __init__(self: TikkiGame, params: Mapping[str, Any] | None = None) -> None:
        TikkiGame.__init__(self, name, params)

    cls = type(f"TikkiGame_{name}", (TikkiGame,), {"__init__": __init__, "__doc__": name})
    _CLASSES[name] = cls
    return cls


_CLASSES: dict[str, type[TikkiGame]] = {}

__all__ = ["TikkiGame", "TikkiObserver", "TikkiState", "game_type", "register"]
