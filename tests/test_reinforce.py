"""Policy-gradient fine-tuning against fixed opponents (tikki/learn/reinforce.py):
the update's direction and gradient, a short run's reproducibility, the evaluation's
agreement with the arena, and the command line's refusals (no real training here)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import tikki
from tikki import arena, inference
from tikki.learn import cli, reinforce

ACTIONS = 4


def _tiny(seed: int = 0) -> tuple[inference.Model, np.ndarray, np.ndarray]:
    """A small model, one observation (repeated) and an all-legal mask but the last id."""
    m = inference.Model.init(5, ACTIONS, (8, 6), seed)
    obs = np.random.default_rng(seed).standard_normal((3, 5)).astype(np.float32)
    mask = np.ones((3, ACTIONS), np.int8)
    mask[:, -1] = 0
    return m, obs, mask


def _probs(m: inference.Model, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return inference.masked_softmax(m.forward(obs)[0], mask)


@pytest.mark.parametrize(("sign", "direction"), [(1.0, 1), (-1.0, -1)])
def test_the_update_follows_the_advantage(sign: float, direction: int) -> None:
    m, obs, mask = _tiny()
    before = _probs(m, obs, mask)[:, 1]
    value_weights = {k: m.weights[k].copy() for k in ("wv", "bv")}
    opt = reinforce.Optimiser(m, lr=1e-2, weight_decay=0.0)
    action = np.ones(3, np.int64)  # move 1 played in each position
    for _ in range(5):
        grads, _loss = reinforce.policy_grads(m, obs, mask, action, np.full(3, sign, np.float32))
        opt.update(grads)
    after = _probs(m, obs, mask)
    assert np.all(np.sign(after[:, 1] - before) == direction)
    assert np.all(after[:, -1] == 0)  # the illegal move stays at exactly 0
    for k, w in value_weights.items():
        assert np.array_equal(m.weights[k], w)  # the value's weights do not move


def test_the_all_action_update_follows_the_move_values() -> None:
    m, obs, mask = _tiny()
    before = _probs(m, obs, mask)
    q = np.zeros((3, ACTIONS), np.float32)
    q[:, 2], q[:, 0] = 1.0, -1.0  # move 2 wins, move 0 loses, move 1 in between
    adv = reinforce.move_advantages(q, mask)
    assert np.all(adv[:, -1] == 0) and adv[0, 2] > adv[0, 1] > adv[0, 0]
    opt = reinforce.Optimiser(m, lr=1e-2, weight_decay=0.0)
    for _ in range(5):
        opt.update(reinforce.expected_grads(m, obs, mask, adv)[0])
    after = _probs(m, obs, mask)
    assert np.all(after[:, 2] > before[:, 2]) and np.all(after[:, 0] < before[:, 0])


def test_the_average_trails_the_weights() -> None:
    m, obs, mask = _tiny()
    start = {k: v.copy() for k, v in m.weights.items()}
    opt = reinforce.Optimiser(m, lr=1e-2, weight_decay=0.0, average=0.75)
    grads, _loss = reinforce.policy_grads(
        m, obs, mask, np.ones(3, np.int64), np.ones(3, np.float32)
    )
    opt.update(grads)
    mean = opt.averaged()
    assert np.allclose(mean.weights["wp"], 0.75 * start["wp"] + 0.25 * m.weights["wp"])
    assert not np.allclose(mean.weights["wp"], m.weights["wp"])
    assert reinforce.Optimiser(m, 1e-2, 0.0).averaged() is m  # not averaging: the model


@pytest.mark.parametrize(("entropy", "all_actions"), [(0.0, False), (0.3, False), (0.3, True)])
def test_policy_grads_match_finite_differences(entropy: float, all_actions: bool) -> None:
    m, obs, mask = _tiny(3)
    action = np.array([0, 1, 2], np.int64)
    weight = np.array([1.0, -0.5, 2.0], np.float32)
    adv = np.random.default_rng(1).standard_normal((3, ACTIONS)).astype(np.float32) * mask

    def loss_and_grads() -> tuple[dict[str, np.ndarray], float]:
        if all_actions:
            return reinforce.expected_grads(m, obs, mask, adv, entropy)
        return reinforce.policy_grads(m, obs, mask, action, weight, entropy)

    grads, _loss = loss_and_grads()
    for key, index in (("wp", (2, 1)), ("bp", (0,)), ("w2", (1, 3)), ("w1", (4, 2))):
        w = m.weights[key]
        old = float(w[index])
        losses = []
        for delta in (1e-3, -1e-3):
            w[index] = old + delta
            losses.append(loss_and_grads()[1])
        w[index] = old
        numeric = (losses[0] - losses[1]) / 2e-3
        assert grads[key][index] == pytest.approx(numeric, abs=2e-3), key


def test_advantages_are_centred_and_scaled() -> None:
    gain = np.array([1.0, -1.0, 0.5, 0.5], np.float32)
    adv = reinforce.advantages(gain, np.array([0.5, 0.0, 0.0, 0.5], np.float32))
    assert adv.mean() == pytest.approx(0, abs=1e-6)
    assert adv.std() == pytest.approx(1, abs=1e-5)
    assert adv[0] > adv[3]  # the same gain, a lower baseline: a larger advantage
    assert np.all(reinforce.advantages(np.ones(3, np.float32), None) == 0)


def test_the_group_baseline_is_the_deals_other_games() -> None:
    episodes = [reinforce.Episode(action=[0] * k, result=r) for k, r in ((2, 1.0), (1, -1.0))]
    episodes += [reinforce.Episode(action=[0], result=r) for r in (0.5, 0.5)]
    gain, baseline = reinforce._group_gains(episodes, 2)
    assert gain.tolist() == [1.0, 1.0, -1.0, 0.5, 0.5]
    assert baseline.tolist() == [-1.0, -1.0, 1.0, 0.5, 0.5]


def test_rollouts_value_every_legal_move_and_are_seeded() -> None:
    game = tikki.load("myllymatti", 3)
    learner = reinforce.Learner(game, inference.read(inference.shipped("myllymatti")))
    first = reinforce.play_episode(learner, "heuristic", 3, 0, rollouts=1)
    again = reinforce.play_episode(learner, "heuristic", 3, 0, rollouts=1)
    assert len(first.q) == len(first.action) > 0
    for q, q2, mask in zip(first.q, again.q, first.mask, strict=True):
        assert np.array_equal(q, q2) and np.all(q[mask == 0] == 0)
        assert set(np.unique(q[mask != 0])) <= {-1.0, 0.5}  # a whole game's return each
    assert any(len(set(q[mask != 0])) > 1 for q, mask in zip(first.q, first.mask, strict=True))


def test_the_margin_is_the_gain_less_the_others_mean() -> None:
    game = tikki.load("mueckenstich", 4)
    state = game.new_state(seed=5)
    while state.round == 0:
        state.play(state.legal_moves()[0])
    totals = state.returns_so_far()
    assert len(set(totals)) > 1  # a round scored
    margin = reinforce.gain(state, 1, margin=True)
    assert margin == pytest.approx(totals[1] - (totals[0] + totals[2] + totals[3]) / 3)
    assert reinforce.gain(state, 1) == totals[1]


def test_a_group_shares_the_deal_and_the_opponents() -> None:
    game = tikki.load("myllymatti", 3)
    learner = reinforce.Learner(game, inference.read(inference.shipped("myllymatti")))
    first, second = (reinforce.play_episode(learner, "heuristic", 3, i, 1.0, 7) for i in (0, 1))
    assert np.array_equal(first.obs[0], second.obs[0])  # the same cards, the same seat
    alone = reinforce.play_episode(learner, "heuristic", 3, 7)
    assert np.array_equal(first.obs[0], alone.obs[0])


def _recipe(tmp_path: Path, name: str) -> reinforce.Recipe:
    return reinforce.Recipe(
        game="myllymatti",
        init=inference.shipped("myllymatti"),
        out=tmp_path / name,
        games=6,
        batch=3,
        seed=4,
        lr=1e-3,
        eval_every=1,
        eval_games=3,
    )


def test_a_short_run_is_reproducible_and_records_its_recipe(tmp_path: Path) -> None:
    lines: list[str] = []
    first = reinforce.reinforce(_recipe(tmp_path, "a.npz"), progress=lines.append)
    second = reinforce.reinforce(_recipe(tmp_path, "b.npz"))
    last = inference.read(tmp_path / "a.last.npz")
    shipped = inference.read(inference.shipped("myllymatti"))
    for key, w in last.weights.items():
        assert np.array_equal(w, inference.read(tmp_path / "b.last.npz").weights[key])
        assert np.array_equal(first.weights[key], second.weights[key])
    assert any(not np.array_equal(last.weights[k], shipped.weights[k]) for k in ("w1", "wp"))
    meta = last.meta["reinforce"]
    assert (meta["against"], meta["games_played"], meta["updates"]) == ("heuristic", 6, 2)
    assert meta["init"].endswith("myllymatti.npz") and meta["seed"] == 4
    assert last.meta["game"] == "myllymatti"  # the starting model's meta is kept
    assert sum("eval after" in line for line in lines) == 3  # the start and two updates


def test_the_evaluation_is_the_arena_run() -> None:
    game = tikki.load("mattis", 3)
    learner = reinforce.Learner(game, inference.read(inference.shipped("mattis")))
    figure = reinforce.evaluate(learner, "heuristic", 9, 5, game)
    spec = arena.ArenaSpec("mattis", 3, {}, ("learned", "heuristic", "heuristic"), 9, 5)
    stats = arena.summarize(arena.run(spec), spec.lineup)[0].as_dict()
    assert (figure.kind, figure.value) == ("lost", stats["loss_rate"])
    own = reinforce.evaluate("random", "heuristic", 9, 5, game)  # a bot in the seat
    spec = arena.ArenaSpec("mattis", 3, {}, ("random", "heuristic", "heuristic"), 9, 5)
    stats = arena.summarize(arena.run(spec), spec.lineup)[0].as_dict()
    assert own.value == stats["loss_rate"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["reinforce", "nosuchgame", "-o", "x.npz"], "nosuchgame"),
        (["reinforce", "mattis", "--init", "missing.npz", "-o", "x.npz"], "missing.npz"),
        (["reinforce", "mattis", "--games", "0", "-o", "x.npz"], "--games"),
        (["reinforce", "mattis", "--baseline", "median", "-o", "x.npz"], "baseline"),
        (["reinforce", "mattis", "--against", "nobot", "-o", "x.npz"], "nobot"),
        (["reinforce", "mattis", "-o", "x.txt"], ".npz"),
        (["reinforce", "mattis", "--margin", "-o", "x.npz"], "--margin"),
        (["reinforce", "mattis", "--average", "1", "-o", "x.npz"], "--average"),
        (["reinforce", "mattis", "--baseline", "group", "-o", "x.npz"], "--group"),
        (["reinforce", "mattis", "--group", "5", "--baseline", "group", "-o", "x.npz"], "--group"),
        (
            ["reinforce", "mattis", "--init", str(inference.shipped("myllymatti")), "-o", "x.npz"],
            "for",
        ),
    ],
)
def test_the_command_refuses_bad_arguments_in_words(
    args: list[str], words: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    args = [str(tmp_path / a) if a.endswith(("x.npz", "x.txt")) else a for a in args]
    assert cli.main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and words in err and "Traceback" not in err
    assert not list(tmp_path.iterdir())  # nothing written
