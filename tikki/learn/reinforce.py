"""Policy-gradient fine-tuning of a learned model against fixed opponents.

Imitation cannot beat its teacher: a policy trained on ``heuristic``'s moves plays at best
like ``heuristic``.  :func:`reinforce` improves a model (usually the shipped imitation
model) by **REINFORCE with a baseline** against fixed opponents (``--against``, by default
``heuristic``):

* games are played on the engine's states, the learner in one seat (game ``i`` puts it in
  seat ``i mod n``) and ``--against`` bots in the others; at each decision with two legal
  moves or more the learner **samples** its move from the policy (``temperature``);
* each such decision is scored with the seat's *gain* from it, as the search's rollouts
  and :mod:`tikki.learn.data` score it: the return at the game's end (the shedding games)
  or the points of the round in progress at the round's end (a game scored in points);
* after ``batch`` games the policy (trunk and head; the value's weights stay as they were)
  takes one AdamW step on ``−advantage · log p(move)`` minus an optional entropy bonus,
  with advantage = gain − baseline, centred and scaled over the batch.  The baseline is
  the *starting* model's value of the position (``baseline="value"``, frozen so that it
  does not drift with the trunk), nothing (``"mean"``: the centring makes it the batch's
  mean gain), or the group's (``"group"``, with ``group`` ≥ 2: the games of a batch come in
  groups of ``group`` on one deal, the learner in the same seat and the opponents with the
  same seeds, so they differ only by the learner's draws; a game's advantage is its result
  minus the mean of the group's other games, every decision of the game gets it, and the
  deal's luck cancels out);
* every ``eval_every`` updates the policy plays **greedily** (its most probable move, as
  the ``learned`` bot plays) a fixed evaluation set: ``eval_games`` arena games at
  ``eval_seed`` (duplicate deals, seats rotated: the games ``tikki arena GAME --bots
  learned:model=FILE,AGAINST --games G --seed S`` plays), and the best checkpoint so far is
  written to ``out`` (the starting model counts as the first checkpoint, so ``out`` is
  never worse on that set than the model it started from).  With ``average`` (e.g. 0.99)
  the policy evaluated and written is a running average of the weights (Polyak
  averaging), steadier than the last step's.

The run is fixed by its recipe and seed: game ``i``'s deal, the opponents' seeds and the
learner's draws come from ``(seed, i)``, so the same arguments give the same model.  The
latest weights are also written to ``out`` with ``.last`` before ``.npz`` at each
evaluation: a stopped run continues with ``--init OUT.last.npz`` and another seed.
"""

# ruff: noqa: E402  (the extra is checked before its imports)
from __future__ import annotations

from tikki.extras import require

require("models", "the learning tools (NumPy)", ("numpy",))

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import tikki
from tikki import arena
from tikki import bots as botlib
from tikki.core import Game, RulesError, State
from tikki.i18n import _ as _t
from tikki.inference import Array, Model, masked_softmax, read
from tikki.interop.observations import Encoder, encoder_for
from tikki.learn.data import DEFAULT_PLAYERS, _gains, derive
from tikki.learn.train import _adamw, activations, backprop

POLICY = ("w1", "b1", "w2", "b2", "wp", "bp")
"""The weights the policy gradient moves (the value's own weights stay fixed)."""
BASELINES = ("value", "mean", "group")
"""The baselines: the starting model's value of the position, the batch's mean gain, or
the mean result of the other games on the same deal."""


@dataclass(frozen=True)
class Recipe:
    """What :func:`reinforce` does: the game, the start, the opponents and the schedule."""

    game: str
    init: Path
    out: Path
    against: str = "heuristic"
    games: int = 2000
    seed: int = 1
    players: int | None = None
    batch: int = 32
    lr: float = 1e-4
    weight_decay: float = 0.0
    temperature: float = 1.0
    entropy: float = 0.0
    baseline: str = "value"
    group: int = 1
    rollouts: int = 0
    margin: bool = False
    average: float = 0.0
    eval_every: int = 20
    eval_games: int = 300
    eval_seed: int = 99

    def check(self) -> None:
        """Refuse a recipe that cannot run, in words."""
        if self.baseline not in BASELINES:
            raise RulesError(
                _t(
                    "the baseline is one of {names}, not {got!r}",
                    names=", ".join(BASELINES),
                    got=self.baseline,
                )
            )
        positive = {
            "--games": self.games,
            "--batch": self.batch,
            "--eval-every": self.eval_every,
            "--lr": self.lr,
            "--temperature": self.temperature,
        }
        for flag, number in positive.items():
            if number <= 0:
                raise RulesError(_t("{flag} must be above 0, not {got}", flag=flag, got=number))
        if (
            self.group < 1
            or self.batch % self.group
            or (self.baseline == "group") != (self.group > 1)
        ):
            raise RulesError(
                _t(
                    "--group is a divisor of --batch, above 1 with --baseline group and 1"
                    " otherwise (got group {group}, batch {batch})",
                    group=self.group,
                    batch=self.batch,
                )
            )
        if self.margin and self.baseline == "value" and not self.rollouts:
            raise RulesError(
                _t(
                    "--margin needs --baseline mean or group, or --rollouts (the value"
                    " baseline is the seat's own gain)"
                )
            )
        if self.entropy < 0 or self.weight_decay < 0 or self.eval_games < 0 or self.rollouts < 0:
            raise RulesError(
                _t("--entropy, --weight-decay, --eval-games and --rollouts cannot be negative")
            )
        if not 0 <= self.average < 1:
            raise RulesError(_t("--average is at least 0 and below 1, not {got}", got=self.average))


@dataclass
class Episode:
    """The learner's decisions in one game: observations, masks, moves and gains."""

    obs: list[Array] = field(default_factory=list)
    mask: list[npt.NDArray[np.int8]] = field(default_factory=list)
    action: list[int] = field(default_factory=list)
    gain: list[float] = field(default_factory=list)
    q: list[Array] = field(default_factory=list)
    """With rollouts: each decision's value of every legal move (0 for the others)."""
    result: float = 0.0
    """The learner's result: its return (shedding games) or its points of the game."""


@dataclass(frozen=True)
class Figure:
    """An evaluation: the learner's loss rate (shedding games) or its advantage a round
    (games scored in points), with the 95% interval; ``score`` is higher for better."""

    kind: str
    value: float
    low: float
    high: float
    games: int

    @property
    def score(self) -> float:
        """Higher is better: minus the loss rate, or the advantage."""
        return -self.value if self.kind == "lost" else self.value

    def __str__(self) -> str:
        if self.kind == "lost":
            return f"lost {self.value:.1%} ({self.low:.1%}–{self.high:.1%}) of {self.games} games"
        return (
            f"advantage {self.value:+.2f} a round ({self.low:+.2f} to {self.high:+.2f}),"
            f" {self.games} games"
        )


class Learner:
    """A model's policy on states: sampled (training) or greedy (evaluation); on a seat's
    view (:meth:`choose`) it is a bot, the ``learned`` bot of its model."""

    name = "learned"

    def __init__(self, game: Game, model: Model) -> None:
        self.game = game
        self._rng = random.Random(0)
        self.model = model
        self.encoder: Encoder = encoder_for(game)
        self.size = len(self.encoder.actions)
        self._obs = self.encoder.empty()
        self._mask = np.zeros(self.size, np.int8)

    def observe(self, state: State, seat: int) -> tuple[Array, npt.NDArray[np.int8]]:
        """``seat``'s observation and legal mask (fresh arrays)."""
        obs = self.encoder.encode(state, seat).copy()
        mask = self.encoder.legal_mask(state, seat, np.zeros(self.size, np.int8))
        return obs, mask

    def probabilities(self, obs: Array, mask: npt.NDArray[np.int8], temperature: float) -> Array:
        """The policy (at ``temperature``) over the action ids, 0 for illegal ones."""
        logits, _value = self.model.forward(obs.reshape(1, -1))
        probs: Array = masked_softmax(logits / np.float32(temperature), mask.reshape(1, -1))[0]
        return probs

    def choose(self, game: Game, view: Mapping[str, Any]) -> str:
        """The greedy move from ``view`` alone: the observation of a state the view allows
        (every such state gives the same vector, so the draw does not matter)."""
        legal = botlib.legal_of(view)
        if len(legal) == 1:
            return legal[0]
        return self.greedy(game.sampler(view)(self._rng), int(view["seat"]))

    def greedy(self, state: State, seat: int) -> str:
        """The policy's most probable legal move (the ``learned`` bot's choice)."""
        obs = self.encoder.encode(state, seat, self._obs)
        mask = self.encoder.legal_mask(state, seat, self._mask)
        logits = np.where(mask != 0, self.model.logits(obs), -np.inf)
        return self.encoder.actions.to_text(int(np.argmax(logits)))


def gain(state: State, seat: int, margin: bool = False) -> float:
    """``seat``'s running total (:func:`tikki.learn.data._gains`: the return at the game's
    end, the points so far in a game scored in points); with ``margin``, minus the other
    seats' mean, what the arena's advantage scores."""
    totals = _gains(state)
    if not margin:
        return totals[seat]
    others = [t for s, t in enumerate(totals) if s != seat]
    return totals[seat] - sum(others) / len(others)


def play_episode(
    learner: Learner,
    against: str,
    seed: int,
    index: int,
    temperature: float = 1.0,
    deal: int | None = None,
    rollouts: int = 0,
    margin: bool = False,
) -> Episode:
    """Training game ``index`` on deal ``deal`` (by default ``index``): the learner (seat
    ``deal mod n``) samples its moves; the deal fixes the cards and the opponents' seeds.
    With ``rollouts``, each decision also gets every legal move's value
    (:func:`rollout_values`).  ``margin``: the gains are the seat's margin
    (:func:`gain`)."""
    game = learner.game
    n = game.players
    deal = index if deal is None else deal
    me = deal % n
    state = game.new_state(seed=derive(seed, deal, 0) % 2**63)
    opponents = {
        s: botlib.make(against, seed=derive(seed, deal, 1 + s)) for s in range(n) if s != me
    }
    rng = np.random.default_rng(derive(seed, index, 99))
    episode = Episode()
    pending: list[tuple[int, float, int]] = []  # row, gain so far, round
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        if seat != me:
            state.play(opponents[seat].choose(game, state.view(seat)))
        elif len(state.legal_moves()) < 2:
            state.play(state.legal_moves()[0])
        else:
            obs, mask = learner.observe(state, seat)
            probs = learner.probabilities(obs, mask, temperature).astype(np.float64)
            action = int(rng.choice(len(probs), p=probs / probs.sum()))
            pending.append((len(episode.action), gain(state, me, margin), state.round))
            episode.obs.append(obs)
            episode.mask.append(mask)
            episode.action.append(action)
            episode.gain.append(0.0)
            if rollouts:
                seeds = [derive(seed, index, len(episode.action), r) for r in range(rollouts)]
                episode.q.append(rollout_values(learner, state, mask, against, seeds, margin))
            state.play(learner.encoder.actions.to_text(action))
        if pending and (state.is_over or state.round != pending[0][2]):
            total = gain(state, me, margin)
            for row, before, _round in pending:
                episode.gain[row] = total - before
            pending = []
    episode.result = gain(state, me, margin)
    return episode


def rollout_values(
    learner: Learner,
    state: State,
    mask: npt.NDArray[np.int8],
    against: str,
    seeds: Sequence[int],
    margin: bool = False,
) -> Array:
    """The value of each legal move (``mask``) for the player to move in ``state``: its
    mean gain over one rollout a seed, each the move, then the learner's greedy policy and
    fresh ``against`` bots (seeded alike for every move: common random numbers) to the end
    of the round (a game scored in points) or of the game.

    The rollouts start from the true state, the hidden cards included: the states a
    decision meets in training are drawn as the game draws them, so the values average
    over what the seat cannot see the way its own games do.  The policy still reads only
    the seat's observation."""
    game = learner.game
    me = state.current_player
    assert me is not None
    before, start = gain(state, me, margin), state.round
    ids = np.flatnonzero(mask)
    q = np.zeros(len(mask), np.float32)
    for rollout_seed in seeds:
        for action in ids:
            sim = state.clone()
            sim.play(learner.encoder.actions.to_text(int(action)))
            bots = {
                s: botlib.make(against, seed=derive(rollout_seed, s))
                for s in range(game.players)
                if s != me
            }
            while not sim.is_over and sim.round == start:
                seat = sim.current_player
                assert seat is not None
                if seat != me:
                    move = bots[seat].choose(game, sim.view(seat))
                else:
                    legal = sim.legal_moves()
                    move = legal[0] if len(legal) == 1 else learner.greedy(sim, seat)
                sim.play(move)
            q[action] += gain(sim, me, margin) - before
    values: Array = q / np.float32(len(seeds))
    return values


def expected_grads(
    model: Model, obs: Array, mask: npt.NDArray[Any], advantage: Array, entropy: float = 0.0
) -> tuple[dict[str, Array], float]:
    """The loss ``−mean(Σ_a p(a) · advantage(a)) − entropy · mean(H(p))`` (every legal
    move's advantage known: the all-action policy gradient) and its gradient."""
    acts = activations(model, obs)
    p = masked_softmax(acts.logits, mask)
    n = np.float32(len(obs))
    expected = np.sum(p * advantage, axis=1)
    d_logits = -p * (advantage - expected[:, None])
    loss = -float(np.mean(expected))
    if entropy:
        d_logits, loss = _entropy(p, mask, d_logits, loss, entropy)
    return backprop(model, obs, acts, (d_logits / n).astype(np.float32)), loss


def _entropy(
    p: Array, mask: npt.NDArray[Any], d_logits: Array, loss: float, entropy: float
) -> tuple[Array, float]:
    """Add the entropy bonus ``−entropy · mean(H(p))`` to a loss and its logits' gradient
    (before the division by the batch size)."""
    logp = np.where(mask != 0, np.log(np.maximum(p, 1e-12)), 0).astype(np.float32)
    h = -np.sum(p * logp, axis=1)
    return d_logits + np.float32(entropy) * p * (logp + h[:, None]), loss - entropy * float(
        np.mean(h)
    )


def policy_grads(
    model: Model,
    obs: Array,
    mask: npt.NDArray[Any],
    action: npt.NDArray[np.int64],
    weight: Array,
    entropy: float = 0.0,
) -> tuple[dict[str, Array], float]:
    """The loss ``mean(−weight · log p(action)) − entropy · mean(H(p))`` of a batch of
    decisions and its gradient for every weight (zero for the value's)."""
    acts = activations(model, obs)
    p = masked_softmax(acts.logits, mask)
    n = np.float32(len(obs))
    rows = np.arange(len(obs))
    onehot = np.zeros_like(p)
    onehot[rows, action] = 1.0
    d_logits = weight[:, None] * (p - onehot)
    loss = -float(np.sum(weight * np.log(np.maximum(p[rows, action], 1e-12))) / n)
    if entropy:
        d_logits, loss = _entropy(p, mask, d_logits, loss, entropy)
    return backprop(model, obs, acts, (d_logits / n).astype(np.float32)), loss


def move_advantages(q: Array, mask: npt.NDArray[Any]) -> Array:
    """Each legal move's value minus its position's mean over the legal moves, scaled to
    unit spread over the batch's legal moves (0 for illegal ones)."""
    legal = mask != 0
    mean = np.sum(np.where(legal, q, 0), axis=1, keepdims=True) / np.maximum(
        legal.sum(axis=1, keepdims=True), 1
    )
    adv = np.where(legal, q - mean, 0)
    spread = float(np.sqrt(np.sum(adv**2) / max(1, int(legal.sum()))))
    scaled: Array = (adv / np.float32(spread if spread > 1e-8 else 1.0)).astype(np.float32)
    return scaled


def advantages(gain: Array, baseline: Array | None) -> Array:
    """Gain minus baseline, centred and scaled to unit spread over the batch."""
    adv = gain - baseline if baseline is not None else gain.copy()
    adv = adv - adv.mean()
    spread = float(adv.std())
    scaled: Array = (adv / np.float32(spread if spread > 1e-8 else 1.0)).astype(np.float32)
    return scaled


class Optimiser:
    """AdamW on the policy's weights (:func:`tikki.learn.train._adamw`, value excluded)."""

    def __init__(self, model: Model, lr: float, weight_decay: float, average: float = 0.0) -> None:
        self.model = model
        self.lr = lr
        self.weight_decay = weight_decay
        self.moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in model.weights.items()}
        self.step = 0
        self.average = average
        self.mean = {k: v.copy() for k, v in model.weights.items()}

    def update(self, grads: dict[str, Array]) -> None:
        """One step (and the running average of the weights moved towards them)."""
        self.step += 1
        _adamw(self.model, grads, self.moments, self.lr, self.weight_decay, self.step, POLICY)
        if self.average:
            for key in POLICY:
                self.mean[key] *= np.float32(self.average)
                self.mean[key] += np.float32(1 - self.average) * self.model.weights[key]

    def averaged(self) -> Model:
        """The model with the running average of the weights (``average``: the weight of
        the old average at each step), or the model itself when not averaging."""
        if not self.average:
            return self.model
        return Model({k: v.copy() for k, v in self.mean.items()}, self.model.meta)


PLAYER = "@player"
"""The spec :func:`evaluate` seats its player under (the others' spec may be the same)."""


def evaluate(player: Learner | str, against: str, games: int, seed: int, game: Game) -> Figure:
    """The greedy policy (or the bot ``player``) alone against ``against`` bots: the games
    of ``tikki arena GAME --bots learned:model=FILE,AGAINST --games G --seed S`` (same
    deals, seats and opponent seeds), played and scored by the arena itself.  With
    ``player`` = ``against`` it is the opponents' own figure in the same seats (the
    reference)."""
    lineup = (PLAYER,) + (against,) * (game.players - 1)
    spec = arena.ArenaSpec(game.name, game.players, game.options, lineup, games, seed)

    def make(name: str, seed: int | None = None) -> botlib.Bot:
        if name != PLAYER:
            return botlib.make(name, seed=seed)
        return player if isinstance(player, Learner) else botlib.make(player, seed=seed)

    results = [arena.play_game(spec, index, make) for index in range(games)]
    stats = arena.summarize(results, lineup)[0].as_dict()
    if "mean_advantage" in stats:
        low, high = stats["advantage_ci"]
        return Figure("advantage", stats["mean_advantage"], low, high, games)
    low, high = stats["loss_ci"]
    return Figure("lost", stats["loss_rate"], low, high, games)


def load_game(recipe: Recipe) -> tuple[Game, Model]:
    """The game and the starting model, checked against each other and the recipe."""
    game = tikki.load(recipe.game, recipe.players or DEFAULT_PLAYERS.get(recipe.game))
    recipe.check()
    botlib.make(recipe.against, seed=0)  # a bad spec fails here, clearly
    model = read(recipe.init)
    model.check(game, encoder_for(game).size)
    return game, model


def reinforce(recipe: Recipe, progress: Callable[[str], None] | None = None) -> Model:
    """Fine-tune ``recipe.init`` (see the module notes); the best checkpoint is written to
    ``recipe.out`` and returned."""
    game, model = load_game(recipe)
    frozen = Model({k: v.copy() for k, v in model.weights.items()}, dict(model.meta))
    learner = Learner(game, model)
    opt = Optimiser(model, recipe.lr, recipe.weight_decay, recipe.average)
    say = progress or (lambda _line: None)
    started = time.perf_counter()
    best = _checkpoint(learner, model, recipe, 0, None, say, started)
    updates = -(-recipe.games // recipe.batch)
    results: list[float] = []
    for update in range(1, updates + 1):
        first = (update - 1) * recipe.batch
        episodes = [
            play_episode(
                learner,
                recipe.against,
                recipe.seed,
                i,
                recipe.temperature,
                i // recipe.group,
                recipe.rollouts,
                recipe.margin,
            )
            for i in range(first, min(first + recipe.batch, recipe.games))
        ]
        results.extend(e.result for e in episodes)
        _step(frozen, opt, episodes, recipe)
        if update % recipe.eval_every == 0 or update == updates:
            mean = sum(results) / max(1, len(results))
            say(f"update {update}/{updates}: the learner's mean result {mean:+.3f} (sampled)")
            results = []
            judged = Learner(game, opt.averaged()) if recipe.average else learner
            best = _checkpoint(judged, model, recipe, update, best, say, started)
    return read(recipe.out)


def _step(frozen: Model, opt: Optimiser, episodes: Sequence[Episode], recipe: Recipe) -> None:
    """One policy-gradient step on a batch of games."""
    obs = np.asarray([o for e in episodes for o in e.obs], np.float32)
    if len(obs) == 0:
        return
    mask = np.asarray([m for e in episodes for m in e.mask], np.int8)
    action = np.asarray([a for e in episodes for a in e.action], np.int64)
    if recipe.rollouts:
        q = np.asarray([v for e in episodes for v in e.q], np.float32)
        grads, _loss = expected_grads(
            opt.model, obs, mask, move_advantages(q, mask), recipe.entropy
        )
        opt.update(grads)
        return
    gain = np.asarray([g for e in episodes for g in e.gain], np.float32)
    baseline: Array | None = None
    if recipe.baseline == "group":
        gain, baseline = _group_gains(episodes, recipe.group)
    else:
        baseline = frozen.forward(obs)[1] if recipe.baseline == "value" else None
    weight = advantages(gain, baseline)
    grads, _loss = policy_grads(opt.model, obs, mask, action, weight, recipe.entropy)
    opt.update(grads)


def _group_gains(episodes: Sequence[Episode], group: int) -> tuple[Array, Array]:
    """Each decision's gain (its game's result) and baseline (the mean result of the other
    games of its group)."""
    gains: list[float] = []
    baselines: list[float] = []
    for start in range(0, len(episodes), group):
        members = episodes[start : start + group]
        total = sum(e.result for e in members)
        for e in members:
            others = (total - e.result) / max(1, len(members) - 1)
            gains.extend([e.result] * len(e.action))
            baselines.extend([others] * len(e.action))
    return np.asarray(gains, np.float32), np.asarray(baselines, np.float32)


def _checkpoint(
    learner: Learner,
    raw: Model,
    recipe: Recipe,
    update: int,
    best: tuple[float, Figure] | None,
    say: Callable[[str], None],
    started: float,
) -> tuple[float, Figure]:
    """Evaluate the policy (``learner``: the averaged weights with ``average``); write the
    weights trained (``raw``) as ``.last`` and, if the best so far, the policy as ``out``."""
    figure = evaluate(learner, recipe.against, recipe.eval_games, recipe.eval_seed, learner.game)
    games = min(update * recipe.batch, recipe.games)
    minutes = (time.perf_counter() - started) / 60
    model = learner.model
    recipe_meta = {k: str(v) if isinstance(v, Path) else v for k, v in asdict(recipe).items()}
    model.meta["reinforce"] = raw.meta["reinforce"] = {
        **recipe_meta,
        "games_played": games,
        "updates": update,
        "eval": str(figure),
        "eval_score": figure.score,
    }
    raw.save(recipe.out.with_suffix(".last.npz"))
    better = best is None or figure.score > best[0]
    say(
        f"eval after {games} games ({minutes:.1f} min): {figure}"
        + (" (best: saved)" if better else f" (best: {best[1] if best else '-'})")
    )
    if better:
        model.save(recipe.out)
        return figure.score, figure
    assert best is not None
    return best
