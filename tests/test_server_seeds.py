"""Deal seeds: the server draws 128-bit secret seeds, stores them
exactly, publishes them (as decimal text in TABLE) only when the game is over, and takes a
client's seed only for a table whose seats are all bots."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    DateTime,
    Float,
    MetaData,
    String,
    Table,
    create_engine,
    insert,
)
from sqlalchemy.orm import Session

from tests._server import TestClient, client, error_of
from tikki.server import botplay
from tikki.server.db import Store, StoredSeat, StoredTable, TableRow, normalize_url, now
from tikki.server.seeds import SEED_MAX

BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
OPEN = [{"kind": "open"}, {"kind": "bot", "bot": "random"}]


def finished(c: TestClient, table_id: str) -> dict[str, object]:
    """The table once its bots have played it to the end."""
    for _ in range(2000):
        table: dict[str, object] = c.get(f"/api/tables/{table_id}").json()
        if table["status"] == "finished":
            return table
    raise AssertionError(f"table {table_id} did not finish")


def test_a_drawn_seed_has_128_bits_and_is_published_as_text_at_the_end(c: TestClient) -> None:
    tables = []
    for _ in range(3):
        r = c.post("/api/tables", json={"game": "myllymatti", "seats": BOTS})
        assert r.status_code == 201, r.text
        tables.append(r.json()["table"]["id"])
    seeds = []
    for tid in tables:
        table = finished(c, tid)
        assert isinstance(table["seed"], str) and table["seed"].isdigit()
        record = c.get(f"/api/tables/{tid}/record").json()
        assert record["seed"] == int(table["seed"])  # records keep the integer
        seeds.append(record["seed"])
    # 64 bits or fewer in all three has probability 2**-192 for 128-bit seeds.
    assert max(seeds).bit_length() > 100 and len(set(seeds)) == 3
    assert all(0 <= s <= SEED_MAX for s in seeds)


def test_a_client_seed_at_a_table_with_open_seats_is_refused(c: TestClient) -> None:
    for seed in (7, "7"):
        r = c.post("/api/tables", json={"game": "myllymatti", "seats": OPEN, "seed": seed})
        status, code, message = error_of(r)
        assert (status, code) == (400, "seed_not_allowed"), r.text
        assert "all bots" in message
    assert c.get("/api/tables?status=all").json()["tables"] == []


def test_a_client_seed_at_a_table_of_bots_is_kept_exactly(c: TestClient) -> None:
    big = SEED_MAX - 12345
    for seed in (big, str(big)):
        body = {"game": "mattis", "players": 2, "seats": BOTS, "seed": seed}
        r = c.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        table = finished(c, r.json()["table"]["id"])
        assert table["seed"] == str(big)
    r = c.post("/api/tables", json={"game": "mattis", "seats": BOTS, "seed": SEED_MAX + 1})
    assert error_of(r)[:2] == (422, "bad_request")
    r = c.post("/api/tables", json={"game": "mattis", "seats": BOTS, "seed": str(SEED_MAX + 1)})
    assert error_of(r)[:2] == (422, "bad_request")


def test_a_server_may_allow_client_seeds_everywhere(tmp_path: Path) -> None:
    with client(tmp_path, client_seeds=True) as c:
        r = c.post("/api/tables", json={"game": "myllymatti", "seats": OPEN, "seed": 7})
        assert r.status_code == 201, r.text


def test_bot_seeds_come_from_the_whole_seed() -> None:
    seeds = {botplay.bot_seed(2**127 + k, 1, 5) for k in (0, 2**64)}
    assert len(seeds) == 2


def stored(seed: int) -> StoredTable:
    """A waiting Myllymatti table with ``seed``."""
    seats = [StoredSeat(0, "open"), StoredSeat(1, "bot", "Easy bot", "random")]
    return StoredTable(
        "t1", "myllymatti", 2, "standard", {}, seed, "waiting", now(), None, None, seats, []
    )


def check_store(url: str) -> None:
    """A 128-bit seed and a 200-character bot spec are stored and read back exactly."""
    store = Store(url)
    try:
        store.create_schema()
        table = stored(SEED_MAX)
        table.seats[1].bot = "ismcts:iterations=10:c=1." + "0" * 170
        assert 120 < len(table.seats[1].bot) <= 200
        assert store.add_table(table)
        back = store.load("t1")
        assert back is not None and back.seed == SEED_MAX
        assert back.seats[1].bot == table.seats[1].bot
    finally:
        store.close()


def test_store_keeps_big_seeds_on_sqlite(tmp_path: Path) -> None:
    check_store(f"sqlite:///{tmp_path / 'web.sqlite'}")


def test_store_keeps_big_seeds_on_postgresql(postgres_url: str) -> None:
    check_store(postgres_url)


def check_upgrade(url: str) -> None:
    """A database of an earlier version (64-bit integer seeds, bot specs of at most 120
    characters) keeps its tables and takes 128-bit seeds and 200-character specs."""
    old = MetaData()
    tables = Table(
        "tikki_tables",
        old,
        Column("id", String(32), primary_key=True),
        Column("game", String(32)),
        Column("players", BigInteger),
        Column("variant", String(32)),
        Column("options", JSON),
        Column("seed", BigInteger, nullable=False),
        Column("status", String(16)),
        Column("created", DateTime),
        Column("finished", DateTime, nullable=True),
        Column("outcome", JSON, nullable=True),
    )
    Table(
        "tikki_seats",
        old,
        Column("table_id", String(32), primary_key=True),
        Column("seat", BigInteger, primary_key=True),
        Column("kind", String(8)),
        Column("name", String(80), nullable=True),
        Column("bot", String(120), nullable=True),
        Column("token_hash", String(64), nullable=True),
    )
    analyses = Table(  # accuracy only, no kept result
        "tikki_analyses",
        old,
        Column("table_id", String(32), primary_key=True),
        Column("seat", BigInteger, primary_key=True),
        Column("accuracy", Float),
        Column("decisions", BigInteger),
    )
    engine = create_engine(normalize_url(url))
    old.create_all(engine)
    with engine.begin() as conn:
        conn.execute(
            insert(tables),
            {
                "id": "old1", "game": "myllymatti", "players": 2, "variant": "standard",
                "options": {}, "seed": 2**62 + 1, "status": "finished", "created": now(),
            },
        )  # fmt: skip
        conn.execute(
            insert(analyses), {"table_id": "old1", "seat": 0, "accuracy": 0.5, "decisions": 4}
        )
    engine.dispose()
    store = Store(url)
    try:
        store.create_schema()
        store.create_schema()  # a second start changes nothing
        with Session(store.engine) as session:
            row = session.get(TableRow, "old1")
            assert row is not None and row.seed == 2**62 + 1
            assert row.takeovers is None  # the column of stand-in bots was added
        # an earlier analysis kept only its accuracy: it is analysed afresh when asked
        assert store.kept_analysis("old1", 0) is None and store.analysed_seats("old1") == []
        result = {"accuracy": 1.0, "decisions": [{"number": 1}]}
        store.keep_analysis("old1", 0, result)
        assert store.kept_analysis("old1", 0) == result and store.analysed_seats("old1") == [0]
    finally:
        store.close()
    with engine.begin() as conn:  # the old rows are gone; the new kinds of value fit
        conn.execute(analyses.delete())
        conn.execute(tables.delete())
    check_store(url)


def test_a_sqlite_database_of_an_earlier_version_is_upgraded(tmp_path: Path) -> None:
    check_upgrade(f"sqlite:///{tmp_path / 'old.sqlite'}")


def test_a_postgresql_database_of_an_earlier_version_is_upgraded(postgres_url: str) -> None:
    check_upgrade(postgres_url)


@pytest.mark.parametrize("seed", [SEED_MAX, 2**64 + 3])
def test_the_engine_deals_from_big_seeds(seed: int) -> None:
    import tikki

    for name in ("myllymatti", "mattis", "mueckenstich"):
        game = tikki.load(name, 3)
        first, second = game.new_state(seed=seed), game.new_state(seed=seed)
        assert first.view(None) == second.view(None) and first.record()["seed"] == seed
