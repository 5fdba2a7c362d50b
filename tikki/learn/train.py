"""Training a game's model on self-play data, in NumPy alone (no deep-learning library).

:func:`train` fits :class:`~tikki.inference.Model` with AdamW on minibatches:

* the policy by the cross-entropy between its masked softmax and a target: the search's
  visit distribution (``target="visits"``, the soft targets of AlphaZero) or the move the
  bot played, one-hot (``target="move"``: a sharp teacher whose visits are flat);
* the value (``value="linear"``, the default) *after* the policy, in closed form: a ridge
  regression of the seat's gain on the observation (:func:`fit_value`), its strength
  chosen on the held-out games.  The old joint value head (``value="mlp"``: the squared
  error of the gain over its standard deviation, ``value_scale``, in the same minibatches)
  learns the games by heart: a game's positions share one result per seat, and two hidden
  layers recognise a deal from its cards, so it explained 84% of the gain's variance in
  training and less than nothing (R² −0.07 to −0.15) on held-out games.

A tenth of the *games* (not positions: the positions of one game are alike) is held out;
the weights of the epoch with the lowest held-out loss are kept (``patience``: stop after
that many epochs without a better one), and the held-out figures (:func:`evaluate`: the
policy's cross-entropy, how often its top move is the target's, the value's mean squared
error and the share of its variance explained) go into the model's ``meta``.  ``init``
starts from another model's weights (a warm start, e.g. heuristic imitation before search
data, or a stopped run continued).  The same data, options and seed give the same model.
"""

# ruff: noqa: E402  (the extra is checked before its imports)
from __future__ import annotations

from tikki.extras import require

require("models", "the learning tools (NumPy)", ("numpy",))

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from tikki.core import RulesError
from tikki.i18n import _ as _t
from tikki.inference import LAYERS, LINEAR_VALUE, Array, Model, masked_softmax

Batch = Mapping[str, npt.NDArray[Any]]
TARGETS = ("visits", "move")
"""The policy's training targets: the search's visit shares or the move played."""
VALUES = ("linear", "mlp")
"""How the value is trained: ridge regression on the observation, or the joint MLP head."""
RIDGE = (1.0, 10.0, 100.0, 1000.0, 10000.0)
"""The ridge strengths :func:`fit_value` tries (the held-out games choose)."""


def split(data: Batch, seed: int, held_out: float = 0.1) -> tuple[dict[str, Any], dict[str, Any]]:
    """Training and held-out rows, by whole games (``held_out`` of them, at least one)."""
    games = np.unique(data["game"])
    rng = np.random.default_rng(seed)
    rng.shuffle(games)
    n_valid = max(1, round(len(games) * held_out)) if len(games) > 1 else 0
    valid = np.isin(data["game"], games[:n_valid])
    cols = ("observation", "mask", "visits", "value", "action")
    return {k: data[k][~valid] for k in cols}, {k: data[k][valid] for k in cols}


class Activations(NamedTuple):
    """One forward pass's intermediate values, kept for :func:`backprop`."""

    a1: Array
    """The first layer's inputs to its ReLU."""
    h1: Array
    """The first layer's outputs."""
    a2: Array
    """The second layer's inputs to its ReLU."""
    h2: Array
    """The second layer's outputs (the trunk both heads read)."""
    logits: Array
    """The policy head's logits, before the legal moves' mask."""
    value: Array
    """The value head's output, one number a row (the MLP head alone, not the linear part)."""


def activations(model: Model, x: Array) -> Activations:
    """The forward pass of a batch of observations, every layer kept for :func:`backprop`."""
    w = model.weights
    a1 = x @ w["w1"] + w["b1"]
    h1 = np.maximum(a1, 0)
    a2 = h1 @ w["w2"] + w["b2"]
    h2 = np.maximum(a2, 0)
    return Activations(a1, h1, a2, h2, h2 @ w["wp"] + w["bp"], (h2 @ w["wv"] + w["bv"])[:, 0])


def backprop(
    model: Model, x: Array, acts: Activations, d_logits: Array, d_value: Array | None = None
) -> dict[str, Array]:
    """The gradient of every weight from the loss's gradients at the logits and at the
    value (``d_value``, one column; ``None``: the loss does not read the value, whose
    weights get zeros)."""
    w = model.weights
    g: dict[str, Array] = {"wp": acts.h2.T @ d_logits, "bp": d_logits.sum(0)}
    d2: Array = d_logits @ w["wp"].T
    if d_value is None:
        g["wv"], g["bv"] = np.zeros_like(w["wv"]), np.zeros_like(w["bv"])
    else:
        g["wv"], g["bv"] = acts.h2.T @ d_value, d_value.sum(0)
        d2 = d2 + d_value @ w["wv"].T
    d2 = d2 * (acts.a2 > 0)
    g["w2"], g["b2"] = acts.h1.T @ d2, d2.sum(0)
    d1: Array = (d2 @ w["w2"].T) * (acts.a1 > 0)
    g["w1"], g["b1"] = x.T @ d1, d1.sum(0)
    return g


def _grads(
    model: Model, rows: Batch, scale: float, value_weight: float
) -> tuple[dict[str, Array], float]:
    """The loss of a batch and its gradient for every weight (backpropagation)."""
    x, mask, target = rows["observation"], rows["mask"], rows["visits"]
    y = rows["value"] / np.float32(scale)
    n = np.float32(len(x))
    acts = activations(model, x)
    p = masked_softmax(acts.logits, mask)
    v = acts.value
    ce = -float(np.sum(target * np.log(np.maximum(p, 1e-12)))) / float(n)
    mse = float(np.mean((v - y) ** 2))
    d_logits = (p - target) / n
    d_v = (np.float32(2 * value_weight) * (v - y) / n)[:, None].astype(np.float32)
    return backprop(model, x, acts, d_logits, d_v), ce + value_weight * mse


def evaluate(model: Model, rows: Batch) -> dict[str, float]:
    """Held-out figures: ``policy_ce`` (cross-entropy with the policy's target: the visit
    distribution or the move played), ``top1`` (the policy's top move is the target's),
    ``value_mse`` (in the gain's units squared) and ``value_r2`` (the share of the gain's
    variance explained)."""
    if len(rows["observation"]) == 0:
        return {}
    logits, value = model.forward(rows["observation"])
    p = masked_softmax(logits, rows["mask"])
    target = rows["visits"]
    ce = -float(np.mean(np.sum(target * np.log(np.maximum(p, 1e-12)), axis=1)))
    top1 = float(np.mean(np.argmax(p, axis=1) == np.argmax(target, axis=1)))
    y = rows["value"]
    mse = float(np.mean((value - y) ** 2))
    var = float(np.var(y))
    return {
        "policy_ce": round(ce, 4),
        "top1": round(top1, 4),
        "value_mse": round(mse, 4),
        "value_r2": round(1 - mse / var, 4) if var > 0 else 0.0,
        "rows": len(y),
    }


def targets(data: Mapping[str, Any], target: str) -> npt.NDArray[np.float32]:
    """The policy's target rows: the visit shares, or the move played one-hot."""
    if target not in TARGETS:
        raise RulesError(
            _t(
                "the policy target is one of {names}, not {got!r}",
                names=", ".join(TARGETS),
                got=target,
            )
        )
    visits: npt.NDArray[np.float32] = data["visits"]
    if target == "visits":
        return visits
    onehot = np.zeros_like(visits)
    onehot[np.arange(len(onehot)), data["action"]] = 1.0
    return onehot


def train(
    data: Mapping[str, Any],
    hidden: tuple[int, int] = (128, 64),
    epochs: int = 8,
    batch: int = 256,
    lr: float = 1e-3,
    weight_decay: float = 1e-4,
    value_weight: float = 1.0,
    seed: int = 1,
    progress: Callable[[str], None] | None = None,
    *,
    target: str = "visits",
    value: str = "linear",
    patience: int = 0,
    init: Model | None = None,
) -> Model:
    """A model trained on ``data`` (:func:`tikki.learn.data.load`); see the module notes.
    ``value_weight`` weighs the value's loss in ``value="mlp"`` only."""
    if len(data.get("action", ())) == 0:
        raise RulesError(_t("no positions to train on: generate data first"))
    if value not in VALUES:
        raise RulesError(
            _t("the value is one of {names}, not {got!r}", names=", ".join(VALUES), got=value)
        )
    rows = {**data, "visits": targets(data, target)}
    fit, valid = split(rows, seed)
    model = _start(fit, hidden, seed, init)
    model.meta["value_scale"] = float(max(np.std(fit["value"]), 1e-3))
    weight = value_weight if value == "mlp" else 0.0
    best, stopped = _descend(
        model, fit, valid, epochs, batch, lr, weight_decay, weight, seed, patience, progress
    )
    model.weights = best[1]
    ridge = fit_value(model, fit, valid) if value == "linear" else None
    model.meta.update(
        game=data["meta"]["game"],
        players=data["meta"]["players"],
        options=data["meta"]["options"],
        value_kind=data["meta"].get("value_kind", ""),
        data={
            "bot": data["meta"].get("bot"),
            "seed": data["meta"].get("seed"),
            "rows": len(data["action"]),
            "games": len(np.unique(data["game"])),
        },
        training={
            "hidden": [model.weights["b1"].size, model.weights["b2"].size],
            "epochs": epochs,
            "epochs_run": stopped,
            "best_epoch": best[2],
            "patience": patience,
            "batch": batch,
            "lr": lr,
            "weight_decay": weight_decay,
            "seed": seed,
            "target": target,
            "value": value,
            "value_ridge": ridge,
            "init": init.meta.get("data") if init is not None else None,
        },
        validation=evaluate(model, valid),
    )
    return model


def _start(fit: Batch, hidden: tuple[int, int], seed: int, init: Model | None) -> Model:
    """Fresh weights, or a copy of ``init``'s (refused if it reads other inputs)."""
    inputs, actions = fit["observation"].shape[1], fit["mask"].shape[1]
    if init is None:
        return Model.init(inputs, actions, hidden, seed)
    if (init.inputs, init.actions) != (inputs, actions):
        raise RulesError(_t("the starting model is for another game or player count than the data"))
    weights = {k: init.weights[k].copy() for k in LAYERS}
    return Model(weights, {"value_scale": 1.0})


def _descend(
    model: Model,
    fit: Batch,
    valid: Batch,
    epochs: int,
    batch: int,
    lr: float,
    weight_decay: float,
    value_weight: float,
    seed: int,
    patience: int,
    progress: Callable[[str], None] | None,
) -> tuple[tuple[float, dict[str, Array], int], int]:
    """The epochs of minibatch AdamW; the best epoch's (held-out loss, weights, number) and
    how many epochs ran (``patience`` > 0 stops early)."""
    x = fit["observation"]
    scale = float(model.meta["value_scale"])
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in model.weights.items()}
    rng = np.random.default_rng(seed)
    best: tuple[float, dict[str, Array], int] | None = None
    step = epoch = 0
    for epoch in range(1, epochs + 1):
        order = rng.permutation(len(x))
        for start in range(0, len(x), batch):
            rows = {k: v[order[start : start + batch]] for k, v in fit.items()}
            grads, _loss = _grads(model, rows, scale, value_weight)
            step += 1
            _adamw(model, grads, moments, lr, weight_decay, step)
        score = _held_out_loss(model, valid if len(valid["value"]) else fit, scale, value_weight)
        if progress is not None:
            progress(f"epoch {epoch}/{epochs}: held-out loss {score:.4f}")
        if best is None or score < best[0]:
            best = (score, {k: v.copy() for k, v in model.weights.items()}, epoch)
        elif patience and epoch - best[2] >= patience:
            break
    if best is None:  # epochs == 0: the starting weights
        best = (float("inf"), {k: v.copy() for k, v in model.weights.items()}, 0)
    return best, epoch


def fit_value(
    model: Model, fit: Batch, valid: Batch, strengths: tuple[float, ...] = RIDGE
) -> float:
    """Set ``model``'s value to a ridge regression of the gain on the observation (fitted
    on ``fit``; the strength with the lowest held-out error, or 100 without held-out rows);
    the MLP's value head is zeroed.  Returns the strength chosen."""
    scale = np.float64(model.meta["value_scale"])
    x = np.asarray(fit["observation"], np.float64)
    y = np.asarray(fit["value"], np.float64) / scale
    mean_x, mean_y = x.mean(axis=0), float(y.mean())
    xc = x - mean_x
    gram, moment = xc.T @ xc, xc.T @ (y - mean_y)
    eye = np.eye(len(gram))

    def solve(strength: float) -> tuple[npt.NDArray[np.float64], float]:
        w = np.linalg.solve(gram + strength * eye, moment)
        return w, mean_y - float(mean_x @ w)

    chosen = 100.0
    if len(valid["value"]):
        xv = np.asarray(valid["observation"], np.float64)
        yv = np.asarray(valid["value"], np.float64) / scale

        def error(strength: float) -> float:
            w, b = solve(strength)
            return float(np.mean((xv @ w + b - yv) ** 2))

        chosen = min(strengths, key=error)
    w, b = solve(chosen)
    model.weights[LINEAR_VALUE] = w.astype(np.float32).reshape(-1, 1)
    model.weights["wv"] = np.zeros_like(model.weights["wv"])
    model.weights["bv"] = np.asarray([b], np.float32)
    return chosen


def _held_out_loss(model: Model, rows: Batch, scale: float, value_weight: float) -> float:
    """The training loss over ``rows``, without the gradient."""
    logits, value = model.forward(rows["observation"])
    p = masked_softmax(logits, rows["mask"])
    ce = -float(np.mean(np.sum(rows["visits"] * np.log(np.maximum(p, 1e-12)), axis=1)))
    mse = float(np.mean((value / np.float32(scale) - rows["value"] / np.float32(scale)) ** 2))
    return ce + value_weight * mse


def _adamw(
    model: Model,
    grads: Mapping[str, Array],
    moments: dict[str, tuple[Array, Array]],
    lr: float,
    weight_decay: float,
    step: int,
    keys: Sequence[str] = LAYERS,
    beta1: float = 0.9,
    beta2: float = 0.999,
) -> None:
    """One AdamW step on the weights ``keys`` (decoupled weight decay on the weight
    matrices, not the biases)."""
    for key in keys:
        g = grads[key]
        m, v = moments[key]
        m *= beta1
        m += (1 - beta1) * g
        v *= beta2
        v += (1 - beta2) * g * g
        m_hat = m / (1 - beta1**step)
        v_hat = v / (1 - beta2**step)
        w = model.weights[key]
        if key.startswith("w"):
            w *= np.float32(1 - lr * weight_decay)
        w -= (lr * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)
