"""Training a game's model on self-play data, in NumPy alone (no deep-learning library).

:func:`train` fits :class:`~tikki.learn.model.Model` with AdamW on minibatches:

* the policy by the cross-entropy between its masked softmax and the search's visit
  distribution (the soft targets of AlphaZero);
* the value by the squared error of the seat's gain, divided by its standard deviation
  (``value_scale``, kept in the model so that it answers in the gain's units).

A tenth of the *games* (not positions: the positions of one game are alike) is held out;
the weights of the epoch with the lowest held-out loss are kept, and the held-out figures
(:func:`evaluate`: the policy's cross-entropy, how often its top move is the search's most
visited, the value's mean squared error and the share of its variance explained) go into
the model's ``meta``.  The same data and seed give the same model.
"""

# ruff: noqa: E402  (the extra is checked before its imports)
from __future__ import annotations

from tikki.extras import require

require("models", "the learning tools (NumPy)", ("numpy",))

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from tikki.core import RulesError
from tikki.i18n import _ as _t
from tikki.learn.model import LAYERS, Array, Model, masked_softmax

Batch = Mapping[str, npt.NDArray[Any]]


def split(data: Batch, seed: int, held_out: float = 0.1) -> tuple[dict[str, Any], dict[str, Any]]:
    """Training and held-out rows, by whole games (``held_out`` of them, at least one)."""
    games = np.unique(data["game"])
    rng = np.random.default_rng(seed)
    rng.shuffle(games)
    n_valid = max(1, round(len(games) * held_out)) if len(games) > 1 else 0
    valid = np.isin(data["game"], games[:n_valid])
    cols = ("observation", "mask", "visits", "value")
    return {k: data[k][~valid] for k in cols}, {k: data[k][valid] for k in cols}


def _grads(
    model: Model, rows: Batch, scale: float, value_weight: float
) -> tuple[dict[str, Array], float]:
    """The loss of a batch and its gradient for every weight (backpropagation)."""
    w = model.weights
    x, mask, target = rows["observation"], rows["mask"], rows["visits"]
    y = rows["value"] / np.float32(scale)
    n = np.float32(len(x))
    a1 = x @ w["w1"] + w["b1"]
    h1 = np.maximum(a1, 0)
    a2 = h1 @ w["w2"] + w["b2"]
    h2 = np.maximum(a2, 0)
    p = masked_softmax(h2 @ w["wp"] + w["bp"], mask)
    v = (h2 @ w["wv"] + w["bv"])[:, 0]
    ce = -float(np.sum(target * np.log(np.maximum(p, 1e-12)))) / float(n)
    mse = float(np.mean((v - y) ** 2))
    d_logits = (p - target) / n
    d_v = (np.float32(2 * value_weight) * (v - y) / n)[:, None].astype(np.float32)
    g: dict[str, Array] = {
        "wp": h2.T @ d_logits,
        "bp": d_logits.sum(0),
        "wv": h2.T @ d_v,
        "bv": d_v.sum(0),
    }
    d2 = (d_logits @ w["wp"].T + d_v @ w["wv"].T) * (a2 > 0)
    g["w2"], g["b2"] = h1.T @ d2, d2.sum(0)
    d1 = (d2 @ w["w2"].T) * (a1 > 0)
    g["w1"], g["b1"] = x.T @ d1, d1.sum(0)
    return g, ce + value_weight * mse


def evaluate(model: Model, rows: Batch) -> dict[str, float]:
    """Held-out figures: ``policy_ce`` (cross-entropy with the visit distribution),
    ``top1`` (the policy's top move is the search's most visited), ``value_mse`` (in the
    gain's units squared) and ``value_r2`` (the share of the gain's variance explained)."""
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
) -> Model:
    """A model trained on ``data`` (:func:`tikki.learn.data.load`); see the module notes."""
    if len(data.get("action", ())) == 0:
        raise RulesError(_t("no positions to train on: generate data first"))
    fit, valid = split(data, seed)
    x = fit["observation"]
    model = Model.init(x.shape[1], fit["mask"].shape[1], hidden, seed)
    scale = float(max(np.std(fit["value"]), 1e-3))
    model.meta["value_scale"] = scale
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in model.weights.items()}
    rng = np.random.default_rng(seed)
    best: tuple[float, dict[str, Array], int] | None = None
    step = 0
    for epoch in range(epochs):
        order = rng.permutation(len(x))
        for start in range(0, len(x), batch):
            rows = {k: v[order[start : start + batch]] for k, v in fit.items()}
            grads, _loss = _grads(model, rows, scale, value_weight)
            step += 1
            _adamw(model, grads, moments, lr, weight_decay, step)
        score = _held_out_loss(model, valid if len(valid["value"]) else fit, scale, value_weight)
        if progress is not None:
            progress(f"epoch {epoch + 1}/{epochs}: held-out loss {score:.4f}")
        if best is None or score < best[0]:
            best = (score, {k: v.copy() for k, v in model.weights.items()}, epoch + 1)
    assert best is not None
    model.weights = best[1]
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
            "hidden": list(hidden),
            "epochs": epochs,
            "best_epoch": best[2],
            "batch": batch,
            "lr": lr,
            "weight_decay": weight_decay,
            "seed": seed,
        },
        validation=evaluate(model, valid),
    )
    return model


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
    beta1: float = 0.9,
    beta2: float = 0.999,
) -> None:
    """One AdamW step (decoupled weight decay on the weight matrices, not the biases)."""
    for key in LAYERS:
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
