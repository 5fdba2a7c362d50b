"""The dataset writer: records or bot games to .npz, deterministic, round-tripping."""

from __future__ import annotations

import json
import os
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


def _need_pyarrow() -> None:
    """Parquet needs pyarrow (the ``parquet`` extra): CI installs it, so there it must be."""
    if os.environ.get("CI") != "true":
        pytest.importorskip("pyarrow")


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


def test_rows_carry_their_games_seed_record_id_and_bots() -> None:
    data = dataset.from_bots("myllymatti", 2, ["heuristic", "random"], games=4, seed=1)
    results = arena.run(arena.ArenaSpec("myllymatti", 2, {}, ("heuristic", "random"), 4, 1))
    ids = set()
    for episode, result in enumerate(results):
        rows = np.flatnonzero(data["episode"] == episode)
        assert data["step"][rows].tolist() == list(range(len(result.record["moves"])))
        assert set(data["seed"][rows].tolist()) == {str(result.record["seed"])}
        assert set(data["deck"][rows].tolist()) == {""}
        assert {tuple(b) for b in data["bots"][rows].tolist()} == {tuple(result.seats)}
        assert set(data["record_id"][rows].tolist()) == {dataset.record_id(result.record)}
        ids.add(dataset.record_id(result.record))
    assert len(ids) == 4 and data["bots"].shape == (len(data["action"]), 2)
    assert json.loads(data["meta"])["format"] == 2


def _special_records() -> list[dict[str, Any]]:
    """Games a server could store: a 128-bit seed, and a fixed first deal (a deck)."""
    g = tikki.load("mattis", 3)
    deck = list(g.new_state(seed=5).reveal()["deal_order"])
    records = []
    for seed, given in ((2**127 + 12345, None), (9, deck)):
        state = g.new_state(seed=seed, deck=given)
        state.random_playout(random.Random(seed % 97))
        record = state.record()
        record["seats"] = ["you", "heuristic", "random"]  # as tikki play saves it
        records.append(record)
    return records


@pytest.mark.parametrize("suffix", [".npz", ".parquet"])
def test_a_row_alone_rebuilds_its_state_and_its_game(tmp_path: Path, suffix: str) -> None:
    if suffix == ".parquet":
        _need_pyarrow()
    cases = [
        dataset.from_bots("myllymatti", 3, ["heuristic", "random"], games=3, seed=4),
        dataset.from_bots("mueckenstich", 3, ["random"], games=2, seed=2),
        dataset.from_records(_special_records()),
    ]
    rng = random.Random(11)
    for k, made in enumerate(cases):
        path = dataset.save(tmp_path / f"d{k}{suffix}", made)
        data = dataset.load(path)
        enc = encoder_for(dataset.game_of(data))
        for index in rng.sample(range(len(data["action"])), 25):
            state = dataset.state_of(data, index)
            seat = int(data["seat"][index])
            assert state.current_player == seat and len(state.moves) == data["step"][index]
            np.testing.assert_array_equal(enc.encode(state, seat), data["observation"][index])
            mask = enc.legal_mask(state, seat, np.zeros(len(enc.actions), np.int8))
            np.testing.assert_array_equal(mask, data["action_mask"][index])
        for episode in range(len(data["returns"])):
            record = dataset.record_of(data, episode)
            outcome = tikki.replay(record).outcome
            assert outcome is not None
            assert outcome["returns"] == data["returns"][episode].tolist()
    special = dataset.load(tmp_path / f"d2{suffix}")
    assert special["seed"][0] == str(2**127 + 12345) and special["deck"][0] == ""
    assert json.loads(special["deck"][-1]) == _special_records()[1]["deck"]
    assert special["bots"][0].tolist() == ["you", "heuristic", "random"]


def test_a_row_whose_game_is_not_whole_is_refused_in_words() -> None:
    data = dataset.from_bots("mattis", 3, ["random"], games=2, seed=3)
    last = int(np.flatnonzero(data["episode"] == 0)[-1])
    cut = {k: v[1:] if k not in ("meta", "returns") else v for k, v in data.items()}
    with pytest.raises(RulesError, match="moves before it"):
        dataset.state_of(cut, last - 1)
    with pytest.raises(RulesError, match="no row 99999"):
        dataset.state_of(data, 99999)
    tampered = dict(data, action=data["action"].copy())
    tampered["action"][last] = tampered["action"][last - 1]
    with pytest.raises(RulesError):
        dataset.record_of(tampered, 0)


def test_parquet_holds_the_same_columns_byte_for_byte(tmp_path: Path) -> None:
    _need_pyarrow()
    data = dataset.from_bots("myllymatti", 2, ["heuristic", "random"], games=3, seed=1)
    a = dataset.save(tmp_path / "a.parquet", data)
    b = dataset.save(tmp_path / "b.parquet", dict(data))
    assert a.read_bytes() == b.read_bytes() and a.read_bytes()[:4] == b"PAR1"
    back, npz = dataset.load(a), dataset.load(dataset.save(tmp_path / "a.npz", data))
    for name in dataset.COLUMNS:
        np.testing.assert_array_equal(back[name], npz[name])
        assert back[name].dtype == npz[name].dtype, name
    assert back["meta"] == npz["meta"]
    import pyarrow.parquet as pq

    table = pq.read_table(a)
    assert table.num_rows == len(data["action"]) and "record_id" in table.column_names


def test_parquet_without_pyarrow_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util

    from tikki import extras

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda n, *a: None if n == "pyarrow" else real(n, *a)
    )
    data = dataset.from_bots("mattis", 3, ["random"], games=1, seed=1)
    with pytest.raises(extras.MissingExtra, match=r"pip install 'tikki\[parquet\]'"):
        dataset.save(tmp_path / "x.parquet", data)
    out = tmp_path / "y.parquet"
    argv = ["mattis", "--bots", "random", "-n", "1", "--format", "parquet", "-o", str(out)]
    assert dataset.main(argv) == 2
    assert "pip install 'tikki[parquet]'" in capsys.readouterr().err and not out.exists()


def test_the_command_line_writes_parquet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _need_pyarrow()
    out = tmp_path / "g.parquet"
    argv = ["mattis", "--bots", "random", "-n", "2", "--seed", "2", "--format", "parquet"]
    assert dataset.main([*argv, "-o", str(out)]) == 0
    made = dataset.from_bots("mattis", 3, ["random"], games=2, seed=2)
    assert out.read_bytes() == dataset.save(tmp_path / "api.parquet", made).read_bytes()
    assert dataset.main([*argv, "-o", str(tmp_path / "g.npz")]) == 2
    assert dataset.main(["mattis", "--bots", "random", "--format", "csv", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "the dataset is a .parquet file" in err and "--format is npz or parquet" in err
