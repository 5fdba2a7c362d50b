"""The learned models and their inference, in pure NumPy: a small MLP per game, and the
policies the bots read it through.

A model maps a seat's observation (:func:`tikki.interop.observations.encoder_for`, the
vector the adapters give) through two ReLU layers to

* a **policy**: logits over the game's fixed action ids
  (:class:`tikki.interop.encoding.ActionSpace`), softmaxed over the legal moves only (every
  other action gets exactly 0);
* a **value**: the seat's expected *gain* from the position (the value head on the last
  layer plus, in models trained since the value fix, a linear term in the observation),
  what the search's rollouts score: its points of the round in progress (a game scored
  in points) or its return at the game's end (the shedding games: −1 for the loser,
  ``1/(n−1)`` for each other seat).

The weights and what they were trained for (game, players, options, observation and
action sizes, the value's scale, the data and the validation figures) are one ``.npz``:
the shipped ones are ``tikki/models/<game>.npz`` (:func:`shipped`), loaded by
:func:`load_for`; ``python -m tikki.learn train`` writes new ones (:mod:`tikki.learn`, the
training, builds on this module).

:class:`StatePolicy` is a game's model on states (the ``expert`` bot's priors and values)
and :class:`ViewPolicy` on a seat's view (the ``learned`` bot).
"""

# ruff: noqa: E402  (the extra is checked before its imports)
from __future__ import annotations

from tikki.extras import require

require("models", "the learned models (NumPy)", ("numpy",))

import functools
import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tikki.core import Game, RulesError, State
from tikki.i18n import _ as _t
from tikki.interop.observations import encoder_for

Array = npt.NDArray[np.float32]
MODELS_DIR = Path(__file__).resolve().parent / "models"
"""Where the shipped models are (package data)."""
LAYERS = ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv")
"""The weight arrays of a model, in order."""
LINEAR_VALUE = "wx"
"""The optional weights ``(inputs, 1)`` of the value's linear term in the observation
(:func:`tikki.learn.train.fit_value`); a model without them has the MLP's value alone."""


@dataclass
class Model:
    """A policy-and-value MLP for one game (name, players, options)."""

    weights: dict[str, Array]
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def init(cls, inputs: int, actions: int, hidden: tuple[int, int], seed: int) -> Model:
        """Fresh weights (He initialisation) for ``inputs`` values and ``actions`` ids."""
        rng = np.random.default_rng(seed)
        h1, h2 = hidden

        def layer(n_in: int, n_out: int) -> Array:
            scale = np.float32(np.sqrt(2.0 / n_in))
            return np.asarray(rng.standard_normal((n_in, n_out)), np.float32) * scale

        weights = {
            "w1": layer(inputs, h1),
            "b1": np.zeros(h1, np.float32),
            "w2": layer(h1, h2),
            "b2": np.zeros(h2, np.float32),
            "wp": layer(h2, actions) * np.float32(0.1),
            "bp": np.zeros(actions, np.float32),
            "wv": layer(h2, 1) * np.float32(0.1),
            "bv": np.zeros(1, np.float32),
        }
        return cls(weights, {"value_scale": 1.0})

    @property
    def inputs(self) -> int:
        """The observation size the model reads."""
        return int(self.weights["w1"].shape[0])

    @property
    def actions(self) -> int:
        """The number of action ids the policy covers."""
        return int(self.weights["bp"].shape[0])

    def hidden(self, obs: Array) -> Array:
        """The two hidden layers' output for observations (one or a batch): what both
        heads read."""
        w = self.weights
        h = np.maximum(obs @ w["w1"] + w["b1"], 0)
        out: Array = np.maximum(h @ w["w2"] + w["b2"], 0)
        return out

    def logits(self, obs: Array) -> Array:
        """The policy head's logits alone (the value head left out), one or a batch."""
        out: Array = self.hidden(obs) @ self.weights["wp"] + self.weights["bp"]
        return out

    def forward(self, obs: Array) -> tuple[Array, Array]:
        """Policy logits ``(batch, A)`` and values ``(batch,)`` of observations
        ``(batch, size)``; the values in the gain's own units."""
        w = self.weights
        h = self.hidden(obs)
        logits = h @ w["wp"] + w["bp"]
        raw = h @ w["wv"] + w["bv"]
        if LINEAR_VALUE in w:
            raw = raw + obs @ w[LINEAR_VALUE]
        value = raw[:, 0] * np.float32(self.meta.get("value_scale", 1.0))
        return logits, value

    def policy(self, obs: Array, mask: npt.NDArray[Any]) -> Array:
        """The move probabilities of one observation: they sum to 1 over the legal actions
        (``mask`` nonzero) and are 0 elsewhere."""
        logits, _value = self.forward(obs.reshape(1, -1))
        probs: Array = masked_softmax(logits, mask.reshape(1, -1))[0]
        return probs

    def value(self, obs: Array) -> float:
        """The expected gain of the seat whose observation ``obs`` is."""
        return float(self.forward(obs.reshape(1, -1))[1][0])

    def check(self, game: Game, size: int) -> None:
        """Refuse a model trained for another game, player count or encoding."""
        want = (game.name, game.players, size)
        have = (self.meta.get("game"), self.meta.get("players"), self.inputs)
        if want != have:
            raise RulesError(
                _t(
                    "the model is for {game} with {players} players ({inputs} inputs), not"
                    " {want} with {want_players} players ({want_inputs} inputs)",
                    game=have[0],
                    players=have[1],
                    inputs=have[2],
                    want=want[0],
                    want_players=want[1],
                    want_inputs=want[2],
                )
            )

    def save(self, path: Path) -> Path:
        """Write the model (weights as ``float32``, ``meta`` as JSON) to ``path``."""
        path.parent.mkdir(parents=True, exist_ok=True)
        keys = [*LAYERS, LINEAR_VALUE] if LINEAR_VALUE in self.weights else LAYERS
        arrays: dict[str, Any] = {k: self.weights[k].astype(np.float32) for k in keys}
        arrays["meta"] = np.asarray(json.dumps(self.meta, sort_keys=True))
        np.savez_compressed(path, **arrays)
        return path


def masked_softmax(logits: Array, mask: npt.NDArray[Any]) -> Array:
    """Row-wise softmax over the entries where ``mask`` is nonzero (others exactly 0)."""
    legal = mask != 0
    z = np.where(legal, logits, -np.inf)
    top = np.max(z, axis=1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    e = np.where(legal, np.exp(z - top), 0).astype(np.float32)
    total = e.sum(axis=1, keepdims=True)
    return (e / np.where(total > 0, total, 1)).astype(np.float32)


def read(path: Path) -> Model:
    """A model from its ``.npz`` (:meth:`Model.save`); a clear error if it is not one."""
    try:
        with np.load(path) as f:
            weights = {k: np.asarray(f[k], np.float32) for k in LAYERS}
            if LINEAR_VALUE in f.files:
                weights[LINEAR_VALUE] = np.asarray(f[LINEAR_VALUE], np.float32)
            meta = json.loads(str(f["meta"]))
    except (OSError, KeyError, ValueError) as err:
        raise RulesError(
            _t("cannot read the model {path!r}: {err}", path=str(path), err=err)
        ) from None
    return Model(weights, meta)


def shipped(name: str) -> Path:
    """The file of game ``name``'s shipped model."""
    return MODELS_DIR / f"{name}.npz"


@functools.cache
def shipped_players() -> dict[str, tuple[int, ...]]:
    """The games with a shipped model and the player counts it plays, from each model's
    ``meta``: ``{game name: (players,)}`` (where the web table offers its Learned level)."""
    found: dict[str, tuple[int, ...]] = {}
    for path in sorted(MODELS_DIR.glob("*.npz")):
        meta = read(path).meta
        if meta.get("game") == path.stem and isinstance(meta.get("players"), int):
            found[path.stem] = (meta["players"],)
    return found


_CACHE: dict[str, Model] = {}


def load_for(game: Game, path: str | Path | None = None) -> Model:
    """The model for ``game``: the shipped one (cached), or the file ``path``."""
    key = str(path) if path is not None else game.name
    model = _CACHE.get(key)
    if model is None:
        file = Path(path) if path is not None else shipped(game.name)
        if path is None and not file.exists():
            names = sorted(p.stem for p in MODELS_DIR.glob("*.npz"))
            raise RulesError(
                _t(
                    "no learned model for {game}: the shipped models are {names}"
                    " (tikki train GAME makes one)",
                    game=game.name,
                    names=", ".join(names) or "-",
                )
            )
        model = _CACHE[key] = read(file)
    return model


class StatePolicy:
    """A game's model on states: the observation of a seat, its policy and value.

    :meth:`encode` reads only what the seat may know (the encoders' contract)."""

    def __init__(self, game: Game, path: str | Path | None = None) -> None:
        self.game = game
        self.encoder = encoder_for(game)
        self.actions = self.encoder.actions
        self.model: Model = load_for(game, path)
        self.model.check(game, self.encoder.size)
        self._obs = self.encoder.empty()
        self._mask = np.zeros(len(self.actions), np.int8)

    def encode(self, state: State, seat: int) -> Array:
        """``seat``'s observation of ``state`` (a vector reused by the next call)."""
        return self.encoder.encode(state, seat, self._obs)

    def priors(self, state: State, legal: list[str]) -> dict[str, float]:
        """The policy's probability of each of ``legal`` for the player to move."""
        seat = state.current_player
        assert seat is not None
        obs = self.encode(state, seat)
        index = self.actions.index
        ids = [index[m] for m in legal]
        mask = self._mask
        mask.fill(0)
        mask[ids] = 1
        probs = self.model.policy(obs, mask)
        return {m: float(probs[i]) for m, i in zip(legal, ids, strict=True)}

    def values(self, state: State) -> list[float]:
        """Every seat's expected gain from ``state`` (one batch through the model)."""
        players = self.game.players
        obs = np.stack([self.encoder.encode(state, s) for s in range(players)])
        return [float(v) for v in self.model.forward(obs)[1]]


class ViewPolicy(StatePolicy):
    """A game's model on a seat's view (the ``learned`` bot)."""

    def observe(self, view: Mapping[str, Any], rng: random.Random) -> Array:
        """The observation of the view's seat, from a state the view allows (any gives the
        same vector: the encoders read only what the seat may know)."""
        state = self.game.sampler(view)(rng)
        return self.encode(state, int(view["seat"]))

    def probabilities(
        self, game: Game, view: Mapping[str, Any], rng: random.Random
    ) -> dict[str, float]:
        """Each legal move's probability (summing to 1 over them)."""
        legal = [str(m) for m in view["legal_moves"]]
        state = self.game.sampler(view)(rng)
        return self.priors(state, legal)
