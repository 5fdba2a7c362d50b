"""Worlds weighted by the play: policy-based inference for the search's determinizations.

After Rebstock, Solinas, Buro and Sturtevant, "Policy Based Inference in Trick-Taking Card
Games" (IEEE CoG 2019).  A determinizer deals the hidden cards uniformly among the deals the
view allows; it ignores what the other seats' moves say about their hands.  Here each drawn
world gets a *weight*: the product, over the other seats' past decisions that offered a
choice, of the probability an opponent model gives the move the seat actually made, seeing
the seat's own hand *in that world* and the public table at the time.  The search then
draws its states in proportion to the weights (:func:`weighted`).

The game supplies the likelihood (a function ``likelihood(game, view)`` in its tactics
module, :func:`likelihood_for`): it reads the view's public history once (per move), and
returns a function of a world (a state drawn from the view) to the world's weight, or
``None`` where nothing can be read.  It reads only the view and the world, never the real
state; a world's weight is never 0 (a model's probabilities are floored), so a surprising
move makes a world less likely, never impossible.

Sampling-importance-resampling in chunks: :data:`CHUNK` worlds are drawn and weighed at
a time, then each of the next :data:`CHUNK` iterations takes one of them (a copy) in
proportion to its weight.  The search draws as many worlds as it did without inference
(the same diversity), and a move's cost grows by the weighing and one copy an iteration
(``bot.last`` of the ``expert`` shows both).
"""

from __future__ import annotations

import bisect
import itertools
import random
import time
from collections.abc import Callable, Mapping
from typing import Any

from tikki.core import Game, State, tactics

Likelihood = Callable[[State], float]
"""A world's weight: how likely the other seats' observed moves were in it (never 0)."""
Sampler = Callable[[random.Random], State]
CHUNK = 64
"""How many worlds are drawn and weighed at a time (:func:`weighted`)."""
MODES = ("off", "policy")
"""The ``expert``'s ``inference``: ``off`` (uniform worlds, as before) or ``policy``."""


def likelihood_for(game: Game, view: Mapping[str, Any]) -> Likelihood | None:
    """The weight of a world drawn from ``view``, from the game's tactics module
    (``likelihood(game, view)``), or ``None`` where the game offers none or the view's
    history holds no decision of another seat to read."""
    if not type(game).bots.tactics:
        return None
    make = getattr(tactics(game.name), "likelihood", None)
    if make is None:
        return None
    found: Likelihood | None = make(game, view)
    return found


class Tally:
    """What the weighing cost and gave over one search: worlds weighed, the seconds
    spent weighing them, and the mean effective sample size of a chunk (its share)."""

    __slots__ = ("ess", "seconds", "worlds")

    def __init__(self) -> None:
        self.worlds = 0
        self.seconds = 0.0
        self.ess = 0.0

    def add(self, weights: list[float], seconds: float) -> None:
        """Count one chunk's ``weights``, weighed in ``seconds``."""
        total = sum(weights)
        squares = sum(w * w for w in weights)
        share = (total * total / squares) / len(weights) if squares > 0 else 1.0
        chunks = self.worlds // len(weights) if weights else 0
        self.ess = (self.ess * chunks + share) / (chunks + 1)
        self.worlds += len(weights)
        self.seconds += seconds


def weighted(sample: Sampler, likelihood: Likelihood, tally: Tally, chunk: int = CHUNK) -> Sampler:
    """Draws states as ``sample`` does, each reweighted by ``likelihood``: every
    ``chunk`` draws, ``chunk`` fresh worlds are weighed, and each draw is a copy of one
    of them, chosen with chance proportional to its weight (the ``rng`` of the draw)."""
    pool: list[State] = []
    cumulative: list[float] = []
    used = chunk

    def draw(rng: random.Random) -> State:
        nonlocal pool, cumulative, used
        if used >= chunk:
            pool = [sample(rng) for _ in range(chunk)]
            start = time.perf_counter()
            weights = [likelihood(world) for world in pool]
            tally.add(weights, time.perf_counter() - start)
            cumulative = list(itertools.accumulate(weights))
            used = 0
        used += 1
        i = bisect.bisect_right(cumulative, rng.random() * cumulative[-1])
        return pool[min(i, chunk - 1)].clone()

    return draw
