"""The dataset writer: records or bot games to .npz, deterministic, round-tripping."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tikki
from tikki import arena
from tikki.core import RulesError
from tikki.interop import dataset
from tikki.interop.observations import encoder_for


def _records(game: str, players: int, n: int, **options: Any) -> list[dict[str, Any]]:
    g = tikki.load(game, players, **options)
    records = []
    for seed in range(n):
        state = g.new_state(seed=seed)
        state.random_playout(random.Random(seed))
        records.append(state.record())
    return records


def test_bot_games_round_trip_byte_for_byte_and_match_their_records(tmp_path: Path) -> None:
    data = dataset.from_bots("myllymatti", 2, ["heuristic", "random"], games=4, seed=1)
    a, b = dataset.save(tmp_path / "a.npz", data), tmp_path / "b.npz"
    dataset.save(b, dataset.from_bots("myllymatti", 2, ["heuristic", "random"], games=4, seed=1))
    assert a.read_bytes() == b.read_bytes()
    back = dataset.load(a)
    for name in dataset.COLUMNS:
        np.testing.assert_array_equal(back[name], data[name])
        assert back[name].dtype == data[name].dtype
    meta = back["meta"]
    assert (meta["game"], meta["players"], meta["reward"]) == ("myllymatti", 2, "game")
    spec = arena.ArenaSpec("myllymatti", 2, {}, ("heuristic", "random"), 4, 1)
    records = [r.record for r in arena.run(spec)]
    game = tikki.load("myllymatti", 2)
    enc = encoder_for(game)
    for episode, record in enumerate(records):
        rows = np.flatnonzero(back["episode"] == episode)
        assert [meta["actions"][a] for a in back["action"][rows]] == record["moves"]
        state = game.new_state(seed=record["seed"])
        for row in rows:
            seat = int(back["seat"][row])
            assert seat == state.current_player
            np.testing.assert_array_equal(back["observation"][row], enc.encode(state, seat))
            assert back["action_mask"][row][back["action"][row]] == 1
            state.play(meta["actions"][back["action"][row]])
        returns = back["returns"][episode]
        for seat in range(2):
            mine = rows[back["seat"][rows] == seat]
            assert back["reward"][mine].sum() == pytest.approx(returns[seat])
            assert back["terminated"][mine].tolist() == [False] * (len(mine) - 1) + [True]
            nxt = back["next_index"][mine]
            assert nxt[:-1].tolist() == mine[1:].tolist() and nxt[-1] == -1


def test_round_rewards_and_truncation_follow_tikki_rl() -> None:
    data = dataset.from_records(_records("mueckenstich", 3, 1), reward="round")
    for seat in range(3):
        mine = data["seat"] == seat
        assert data["reward"][mine].sum() == pytest.approx(data["returns"][0][seat])
        assert np.count_nonzero(data["reward"][mine]) > 1  # paid round by round
    capped = dataset.from_records(_records("myllymatti", 3, 2, max_moves=7))
    acted = {(int(e), int(s)) for e, s in zip(capped["episode"], capped["seat"], strict=True)}
    assert capped["truncated"].sum() == len(acted) and not capped["terminated"].any()
    assert (capped["reward"] == 0).all()


def test_bad_inputs_are_refused_clearly(tmp_path: Path) -> None:
    mixed = _records("myllymatti", 3, 1) + _records("myllymatti", 2, 1)
    with pytest.raises(RulesError, match="a dataset holds one game"):
        dataset.from_records(mixed)
    with pytest.raises(RulesError, match="no records"):
        dataset.from_records([])
    tampered = _records("myllymatti", 3, 1)[0]
    tampered["moves"][3] = "stock"
    with pytest.raises(RulesError):
        dataset.from_records([tampered])
    with pytest.raises(RulesError, match="reward must be 'game' or 'round'"):
        dataset.from_records(_records("myllymatti", 3, 1), reward="trick")


def test_the_command_line_writes_from_records_a_database_and_bots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = []
    for i, record in enumerate(_records("mattis", 3, 2)):
        files.append(tmp_path / f"r{i}.json")
        files[-1].write_text(json.dumps(record), encoding="utf-8")
    out = tmp_path / "rec.npz"
    assert dataset.main(["--records", *map(str, files), "-o", str(out)]) == 0
    assert len(dataset.load(out)["returns"]) == 2
    spec = arena.ArenaSpec("mattis", 3, {}, ("random",) * 3, 3, 2)
    arena.store(tmp_path / "a.sqlite", spec, arena.run(spec))
    out_db = tmp_path / "db.npz"
    assert dataset.main(["--db", str(tmp_path / "a.sqlite"), "-o", str(out_db)]) == 0
    assert dataset.load(out_db)["meta"]["sources"][0].endswith("game 1")
    bots = ["mattis", "--bots", "random", "-n", "3", "--seed", "2", "-o", str(tmp_path / "b.npz")]
    assert dataset.main(bots) == 0
    np.testing.assert_array_equal(
        dataset.load(tmp_path / "b.npz")["action"], dataset.load(out_db)["action"]
    )
    assert dataset.main(["--records", str(files[0]), "-o", str(tmp_path / "x.csv")]) == 2
    assert dataset.main(["--db", str(tmp_path / "none.sqlite"), "-o", str(out)]) == 2
    assert dataset.main(["-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "the dataset is an .npz file" in err and "no database" in err
    assert "give --bots (new games), --records or --db" in err
