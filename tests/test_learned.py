"""Learned play: the shipped models, the ``learned`` bot, ``expert`` guided by
a model, the adapters' policy, and a tiny data-and-training run (no real training here)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tikki
from tests._bots import play_game
from tikki import bots, extras, inference
from tikki.core import RulesError
from tikki.inference import StatePolicy, ViewPolicy
from tikki.interop.observations import encoder_for
from tikki.learn import cli, data, train
from tikki.learn.policy import AdapterPolicy

SHIPPED = (("myllymatti", 3), ("mattis", 3), ("mueckenstich", 4))


def _positions(game: tikki.Game, count: int, seed: int) -> list[tikki.State]:
    """States of random play where the player to move has a choice."""
    rng = random.Random(seed)
    found: list[tikki.State] = []
    while len(found) < count:
        state = game.new_state(seed=rng.randrange(10**6))
        for _ in range(rng.randrange(0, 120)):
            if state.is_over:
                break
            state.play(rng.choice(state.legal_moves()))
        if not state.is_over and len(state.legal_moves()) > 1:
            found.append(state)
    return found


@pytest.mark.parametrize(("name", "players"), SHIPPED)
def test_shipped_model_loads_and_fits_the_game(name: str, players: int) -> None:
    game = tikki.load(name, players)
    path = inference.shipped(name)
    assert path.stat().st_size < 4_000_000
    loaded = inference.load_for(game)
    loaded.check(game, encoder_for(game).size)
    assert loaded.actions == len(encoder_for(game).actions)
    assert loaded.meta["data"]["rows"] > 0 and "top1" in loaded.meta["validation"]
    with pytest.raises(RulesError, match="players"):
        loaded.check(tikki.load(name, players + 1), encoder_for(tikki.load(name, players + 1)).size)


@pytest.mark.parametrize(("name", "players"), SHIPPED)
def test_policy_sums_to_one_over_the_legal_moves(name: str, players: int) -> None:
    game = tikki.load(name, players)
    guide = StatePolicy(game)
    adapter = AdapterPolicy(name, players)
    enc = encoder_for(game)
    for state in _positions(game, 6, seed=3):
        legal = state.legal_moves()
        priors = guide.priors(state, legal)
        assert set(priors) == set(legal)
        assert sum(priors.values()) == pytest.approx(1.0, abs=1e-5)
        seat = state.current_player
        assert seat is not None
        mask = enc.legal_mask(state, seat, np.zeros(len(enc.actions), np.int8))
        probs = adapter.probabilities(enc.encode(state, seat), mask)
        assert float(probs.sum()) == pytest.approx(1.0, abs=1e-5)
        assert float(probs[mask == 0].sum()) == 0.0
        assert mask[adapter(enc.encode(state, seat), mask)] == 1
        assert len(guide.values(state)) == players


@pytest.mark.parametrize(("name", "players"), SHIPPED)
def test_learned_bot_plays_whole_games_legally(name: str, players: int) -> None:
    game = tikki.load(name, players)
    lineup = [bots.make(f"learned:{name}", seed=1), bots.make("learned:sample=1", seed=2)]
    lineup += [bots.make("heuristic", seed=3 + s) for s in range(players - 2)]
    state = play_game(game, lineup, seed=11)
    assert state.is_over


def test_learned_bot_reads_only_the_view() -> None:
    """States that differ only in cards hidden from the seat: the same observation from
    the view as from the true state, and the same move."""
    game = tikki.load("myllymatti", players=3)
    policy = ViewPolicy(game)
    enc = encoder_for(game)
    rng = random.Random(4)
    compared = 0
    for seed in range(10):
        state = game.new_state(seed=seed)
        for _ in range(rng.randrange(0, 20)):
            state.play(rng.choice(state.legal_moves()))
        seat = state.current_player
        assert seat is not None
        hidden = sorted(state.reveal()["hidden"][str(seat)])
        a, b = rng.sample(hidden, 2)
        deck = state.reveal()["deal_order"]
        other = game.new_state(seed=seed, deck=[b if c == a else a if c == b else c for c in deck])
        for move in state.moves:
            other.play(move)
        assert other.view(seat) == state.view(seat)
        truth = enc.encode(state, seat).copy()
        assert np.array_equal(policy.observe(state.view(seat), random.Random(1)), truth)
        moves = [bots.make("learned", seed=9).choose(game, s.view(seat)) for s in (state, other)]
        assert moves[0] == moves[1]
        compared += 1
    assert compared == 10


def test_learned_specs_are_checked() -> None:
    assert bots.parse_spec("learned:mattis") == ("learned", {"model": "mattis"})
    with pytest.raises(RulesError, match="plays mattis, not myllymatti"):
        play_game(tikki.load("myllymatti", 3), [bots.make("learned:mattis")] * 3, seed=1)
    with pytest.raises(RulesError, match="sample"):
        bots.make("learned:sample=2")
    with pytest.raises(RulesError, match="value"):
        bots.make("expert:value=2")
    with pytest.raises(RulesError, match="cannot read the model"):
        inference.read(Path("/nonexistent.npz"))
    assert "learned" in bots.bot_names()


def test_missing_numpy_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(extras, "_absent", lambda modules: list(modules))
    with pytest.raises(extras.MissingExtra, match=r"pip install 'tikki\[models\]'"):
        bots.make("learned")
    with pytest.raises(extras.MissingExtra, match=r"pip install 'tikki\[models\]'"):
        bots.make("expert:priors=1")


@pytest.mark.parametrize("spec", ["expert:iterations=40:priors=1", "expert:iterations=40:value=1"])
@pytest.mark.parametrize(("name", "players"), [("myllymatti", 3), ("mueckenstich", 4)])
def test_expert_guided_by_the_model_plays_legal_games(spec: str, name: str, players: int) -> None:
    game = tikki.load(name, players)
    guided = bots.make(spec, seed=1)
    lineup = [guided] + [bots.make("heuristic", seed=2 + s) for s in range(players - 1)]
    assert play_game(game, lineup, seed=5).is_over
    assert guided.search.guide is not None  # type: ignore[attr-defined]


def test_expert_without_guidance_loads_no_model() -> None:
    game = tikki.load("myllymatti", 3)
    plain = bots.make("expert:iterations=40", seed=1)
    play_game(game, [plain] + [bots.make("heuristic", seed=s) for s in (2, 3)], seed=5)
    assert plain.search.guide is None  # type: ignore[attr-defined]


def test_adapter_policy_plays_a_pettingzoo_game() -> None:
    from tikki.interop import pettingzoo as tikki_pz

    policy = AdapterPolicy("mattis", players=3)
    env = tikki_pz.env("mattis", players=3)
    env.reset(seed=7)
    for _agent in env.agent_iter():
        obs, _reward, terminated, truncated, info = env.last()
        env.step(None if terminated or truncated else policy(obs))
    assert "outcome" in info


def test_tiny_data_and_training_run(tmp_path: Path) -> None:
    """A seconds-long run of everything: data (resumable), training, the bot on it."""
    out = tmp_path / "data"
    paths = data.generate("myllymatti", out, 2, seed=3, bot="ismcts:iterations=8", chunk=1)
    stamps = [p.stat().st_mtime_ns for p in paths]
    assert data.generate("myllymatti", out, 2, seed=3, bot="ismcts:iterations=8", chunk=1)
    assert [p.stat().st_mtime_ns for p in paths] == stamps  # resumed: nothing rewritten
    with pytest.raises(RulesError, match="another run's data"):
        data.generate("myllymatti", out, 2, seed=4, bot="ismcts:iterations=8", chunk=1)
    rows = data.load(out)
    assert np.allclose(rows["visits"].sum(axis=1), 1.0, atol=1e-5)
    assert not rows["visits"][rows["mask"] == 0].any()
    assert set(np.unique(rows["value"])) <= {-1.0, 0.5}
    trained = train.train(rows, hidden=(16, 8), epochs=2, seed=1)
    path = trained.save(tmp_path / "m.npz")
    assert inference.read(path).meta["validation"]["rows"] > 0
    game = tikki.load("myllymatti", 3)
    lineup = [bots.make(f"learned:model={path}", seed=1), bots.make("random", seed=2)]
    assert play_game(game, [*lineup, bots.make("random", seed=3)], seed=2).is_over
    again = tmp_path / "m2.npz"
    argv = ["train", "myllymatti", "--data", str(out), "--epochs", "1", "--hidden", "8,4"]
    assert cli.main([*argv, "-o", str(again)]) == 0
    assert again.exists()
    assert cli.main(["train", "myllymatti", "--data", str(out), "--hidden", "8"]) == 2


def test_expert_search_data_is_one_hot_where_it_did_not_search() -> None:
    game = tikki.load("mueckenstich", 4)
    state = game.new_state(seed=1)
    seat = state.current_player
    assert seat is not None
    decision = data.decide(bots.make("expert:iterations=20", seed=1), game, state.view(seat))
    assert decision.visits == {decision.move: 1.0}  # the discards are played by rule


def test_a_game_without_a_model_is_refused_clearly(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(inference, "MODELS_DIR", tmp_path)
    monkeypatch.setattr(inference, "_CACHE", {})
    with pytest.raises(RulesError, match="no learned model for mattis"):
        bots.make("learned").choose(tikki.load("mattis", 3), _view("mattis", 3))


def _view(name: str, players: int) -> dict[str, object]:
    state = _positions(tikki.load(name, players), 1, seed=2)[0]
    seat = state.current_player
    assert seat is not None
    return state.view(seat)


def test_the_web_table_runs_learned_with_allowed_specs() -> None:
    from tikki.server import botplay

    game = tikki.load("mattis", 3)
    assert botplay.check_spec("learned", game, any_spec=True) == "learned"
    assert botplay.check_spec("learned:sample=1", game, any_spec=True) == "learned:sample=1"
    with pytest.raises(RulesError, match="not 'model'"):
        botplay.check_spec("learned:model=/etc/passwd", game, any_spec=True)
    assert botplay.check_spec("learned", game) == "learned"  # a level (Learned)
    with pytest.raises(RulesError, match="bot levels"):
        botplay.check_spec("learned:sample=1", game)
    with pytest.raises(RulesError, match="not Mattis with 4 players"):
        botplay.check_spec("learned", tikki.load("mattis", 4), any_spec=True)


def test_imitation_data_of_a_bot_without_search_is_one_hot(tmp_path: Path) -> None:
    data.generate("mattis", tmp_path, 1, seed=2, bot="heuristic", chunk=1)
    rows = data.load(tmp_path)
    assert np.array_equal(rows["visits"].max(axis=1), np.ones(len(rows["action"])))
    assert np.array_equal(rows["visits"].argmax(axis=1), rows["action"])
    assert rows["mask"][np.arange(len(rows["action"])), rows["action"]].all()


def test_tikki_train_command(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from tikki.cli import app

    runner = CliRunner()
    out = tmp_path / "m.npz"
    args = ["train", "Myllymatti", "--games", "1", "--bot", "ismcts:iterations=5"]
    args += ["--data", str(tmp_path / "d"), "--out", str(out), "--epochs", "1"]
    done = runner.invoke(app, args)
    assert done.exit_code == 0, done.output
    assert inference.read(out).meta["data"]["games"] == 2  # one chunk of two games
    bad = runner.invoke(app, ["train", "poker"])
    assert bad.exit_code == 2 and "no game 'poker'" in bad.output
    assert "Traceback" not in bad.output


def test_learned_is_a_gymnasium_opponent_and_policy() -> None:
    from tikki import rl

    env = rl.make_env("mattis", opponents=["learned"])
    policy = AdapterPolicy("mattis", players=3)
    obs, info = env.reset(seed=3)
    done = False
    while not done:
        obs, _reward, terminated, truncated, info = env.step(policy(obs, info["action_mask"]))
        done = terminated or truncated
    assert terminated


def _memorable(games: int = 120, per_game: int = 30, seed: int = 0) -> dict[str, Any]:
    """Data shaped like self-play's: one result per game, a feature that predicts it
    (noisily) and bits that name the game (as a deal's cards do), constant in a game."""
    rng = np.random.default_rng(seed)
    rows, actions = games * per_game, 6
    result = np.repeat(rng.choice([-1.0, 1.0], games), per_game)
    names = np.repeat(rng.integers(0, 2, (games, 39)), per_game, axis=0)
    hint = 0.5 + 0.25 * result + 0.5 * rng.random(rows) - 0.25
    action = rng.integers(0, actions, rows)
    return {
        "observation": np.c_[hint, names].astype(np.float32),
        "mask": np.ones((rows, actions), np.int8),
        "visits": np.full((rows, actions), 1 / actions, np.float32),
        "action": action,
        "value": result.astype(np.float32),
        "seat": np.zeros(rows, np.int64),
        "game": np.repeat(np.arange(games), per_game),
        "meta": {"game": "myllymatti", "players": 3, "options": {}},
    }


def test_the_value_generalises_to_held_out_games() -> None:
    """The joint MLP value head learned the training games by heart (held-out R² below 0
    in every shipped model); the default value is fitted so that it carries over."""
    rows = _memorable()
    trained = train.train(rows, hidden=(32, 16), epochs=6, seed=1)
    assert trained.meta["validation"]["value_r2"] > 0.3
    assert inference.LINEAR_VALUE in trained.weights
    old = train.train(rows, hidden=(32, 16), epochs=6, seed=1, value="mlp")
    assert old.meta["validation"]["value_r2"] < trained.meta["validation"]["value_r2"]


def test_the_linear_value_survives_saving(tmp_path: Path) -> None:
    rows = _memorable(games=20, per_game=10)
    trained = train.train(rows, hidden=(8, 4), epochs=1, seed=1)
    again = inference.read(trained.save(tmp_path / "m.npz"))
    obs = rows["observation"][:5]
    assert np.allclose(again.forward(obs)[1], trained.forward(obs)[1], atol=1e-5)
    assert not np.allclose(again.forward(obs)[1], again.forward(obs)[1][0])


def test_training_on_the_move_played_with_early_stopping_and_a_warm_start(
    tmp_path: Path,
) -> None:
    """``target="move"``: the move played one-hot (the visits here say nothing);
    ``patience`` stops when the held-out loss stops falling; ``init`` starts from a model."""
    rows = _memorable(games=60, per_game=20)
    rows["action"] = (rows["observation"][:, 0] > 0.5).astype(np.int64)  # a rule to learn
    assert np.array_equal(train.targets(rows, "move").argmax(axis=1), rows["action"])
    sharp = train.train(rows, (16, 8), 40, lr=0.01, seed=1, target="move", patience=2)
    assert sharp.meta["validation"]["top1"] > 0.75  # chance: 0.5
    assert sharp.meta["training"]["epochs_run"] < 40
    assert sharp.meta["training"]["best_epoch"] <= sharp.meta["training"]["epochs_run"]
    same = train.train(rows, epochs=0, seed=2, target="move", init=sharp)
    obs = rows["observation"][:10]
    assert np.array_equal(same.forward(obs)[0], sharp.forward(obs)[0])
    with pytest.raises(RulesError, match="policy target is one of visits, move"):
        train.train(rows, epochs=1, target="best")
    folder = tmp_path / "d"
    data.generate("myllymatti", folder, 1, seed=3, bot="heuristic", chunk=1)
    argv = ["train", "myllymatti", "--data", str(folder), "--hidden", "8,4", "--epochs", "3"]
    first = tmp_path / "first.npz"
    assert cli.main([*argv, "--target", "move", "--patience", "1", "-o", str(first)]) == 0
    again = tmp_path / "again.npz"
    assert cli.main([*argv, "--init", str(first), "--value", "mlp", "-o", str(again)]) == 0
    assert inference.read(again).meta["training"]["init"]["bot"] == "heuristic"
    assert cli.main([*argv, "--value", "deep"]) == 2


def test_data_folders_join_with_their_games_apart(tmp_path: Path) -> None:
    """Imitation and search data trained on together (``--data`` twice): each folder's
    games keep their own numbers, so the held-out split still takes whole games."""
    data.generate("mattis", tmp_path / "a", 1, seed=2, bot="heuristic", chunk=1)
    data.generate("mattis", tmp_path / "b", 1, seed=2, bot="ismcts:iterations=5", chunk=1)
    a, b = data.load(tmp_path / "a"), data.load(tmp_path / "b")
    both = data.join([tmp_path / "a", tmp_path / "b"])
    assert len(both["action"]) == len(a["action"]) + len(b["action"])
    assert set(np.unique(both["game"])) == {0, data.GAMES_APART}
    assert both["meta"]["bot"] == "heuristic+ismcts:iterations=5"
    argv = ["train", "mattis", "--data", str(tmp_path / "a"), "--data", str(tmp_path / "b")]
    assert cli.main([*argv, "--epochs", "1", "--hidden", "8,4", "-o", str(tmp_path / "m.npz")]) == 0
    assert inference.read(tmp_path / "m.npz").meta["data"]["games"] == 2
    data.generate("myllymatti", tmp_path / "c", 1, seed=2, bot="heuristic", chunk=1)
    with pytest.raises(RulesError, match="different games"):
        data.join([tmp_path / "a", tmp_path / "c"])
