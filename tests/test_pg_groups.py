"""A group commit on PostgreSQL (:mod:`tikki.server.pg_groups`): one statement and one
round trip; the rows are those SQLAlchemy's statements write for a move stored alone (the
moves, the lobby lines, a finished table's status, time and outcome); a key that refuses
one move refuses that move only; a broken connection is an outage, and the next group
takes a fresh one.  The storage writes the groups from the event loop, paced under load.
The cluster's live counts, read at each table's creation, are one statement."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy import Pool, event, text

from tests.test_group_commit import stored_at
from tikki.server.db import MoveConflict, MoveWrite, Store, StoredSeat, StoredTable, is_outage, now
from tikki.server.tables import storage as storage_module
from tikki.server.tables.storage import Storage

ROUND_TRIP = re.compile(r"^\S+ \S+\tF\t\d+\t(Query|Sync)\b", re.MULTILINE)
"""A message of libpq's trace after which the client waits for the server's answer."""
OUTCOME = {"winner": [1], "points": [0, 3, 1], "reason": "won"}


def _store(url: str, tables: int) -> Store:
    """A PostgreSQL store with ``tables`` bot tables ``t0``, ``t1``, …"""
    return stored_at(url, tables)


def _rows(store: Store, query: str) -> list[tuple[Any, ...]]:
    with store.engine.connect() as connection:
        return [tuple(row) for row in connection.execute(text(query))]


def test_a_group_writes_the_rows_a_move_stored_alone_writes(postgres_url: str) -> None:
    """Two tables each get a move and a game-ending move, one table by a group commit, the
    other by the single path: the same moves, lobby lines and finished tables."""
    store = _store(postgres_url, 2)
    try:
        group = [MoveWrite("t0", 0, 1, "7H", None, 2, True),
                 MoveWrite("t0", 1, 2, "8H", OUTCOME, None, True)]  # fmt: skip
        assert store.add_moves(group) == [None, None]
        store.add_move("t1", 0, 1, "7H", None, to_act=2, played=True)
        store.add_move("t1", 1, 2, "8H", OUTCOME, to_act=None, played=True)
        moves = _rows(store, "SELECT table_id, seq, seat, move FROM tikki_moves ORDER BY 1, 2")
        lines = _rows(store, "SELECT table_id, seq, to_act, played FROM tikki_table_summaries")
        ended = _rows(store, "SELECT id, status, finished IS NOT NULL, outcome::text "
                             "FROM tikki_tables ORDER BY id")  # fmt: skip
    finally:
        store.close()
    assert [m[1:] for m in moves if m[0] == "t0"] == [m[1:] for m in moves if m[0] == "t1"]
    assert sorted(line[1:] for line in lines) == [(2, None, True)] * 2
    assert [e[1:3] for e in ended] == [("finished", True)] * 2
    assert ended[0][3] == ended[1][3]
    loaded = store.load("t0")
    assert loaded is not None and loaded.outcome == OUTCOME


def test_a_group_is_one_round_trip(postgres_url: str, tmp_path: Path) -> None:
    """libpq's trace of the group commits' connection: one statement sent and one
    answer waited for, a group that ends a game included (before: the pool's ping, the
    moves, the lobby lines and the commit, and a game's end through SQLAlchemy's
    transaction)."""
    _store(postgres_url, 2).close()
    store = Store(postgres_url)  # its connections are made below, traced
    trace = tmp_path / "libpq.trace"

    def traced(dbapi_connection: Any, *_args: Any) -> None:
        dbapi_connection.pgconn.trace(handle.fileno())

    with trace.open("w") as handle:
        event.listen(Pool, "checkout", traced)
        try:
            assert store.add_moves([MoveWrite("t0", 0, 0, "a", None, 1, False)]) == [None]
            start = trace.stat().st_size  # after the connection's first checkout
            writes = [MoveWrite("t0", 1, 1, "b", None, 2, False),
                      MoveWrite("t1", 0, 0, "c", OUTCOME, None, False)]  # fmt: skip
            assert store.add_moves(writes) == [None, None]
        finally:
            event.remove(Pool, "checkout", traced)
            store.close()
    assert len(ROUND_TRIP.findall(trace.read_text()[start:])) == 1


def test_a_refused_move_refuses_only_itself(postgres_url: str) -> None:
    """A move whose number is taken is refused (:class:`MoveConflict`); the group's
    others are stored."""
    store = _store(postgres_url, 2)
    try:
        assert store.add_moves([MoveWrite("t0", 0, 0, "a", None, 1, False)]) == [None]
        results = store.add_moves([MoveWrite("t0", 0, 0, "x", None, 1, False),
                                   MoveWrite("t1", 0, 0, "b", None, 1, False)])  # fmt: skip
        t0, t1 = store.load("t0"), store.load("t1")
    finally:
        store.close()
    assert isinstance(results[0], MoveConflict) and results[1] is None
    assert t0 is not None and t1 is not None
    assert (list(t0.moves), list(t1.moves)) == (["a"], ["b"])


def test_a_broken_connection_is_an_outage_and_the_next_group_reconnects(
    postgres_url: str,
) -> None:
    """The group's connection is ended by the server (as a restart ends it): the group
    raises an error the storage takes for an outage (it then checks each move on its
    own), and the next group is stored on a fresh connection."""
    store = _store(postgres_url, 2)
    try:
        assert store.add_moves([MoveWrite("t0", 0, 0, "a", None, 1, False)]) == [None]
        assert store._groups is not None and store._groups._raw is not None
        pid = store._groups._raw.info.backend_pid
        admin = postgres_url.split("?")[0]
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute("SELECT pg_terminate_backend(%s)", (pid,))
        with pytest.raises(Exception) as broke:
            store.add_moves([MoveWrite("t0", 1, 1, "b", None, 2, False)])
        assert is_outage(broke.value)
        assert store.add_moves([MoveWrite("t1", 0, 0, "c", None, 1, False)]) == [None]
        t1 = store.load("t1")
    finally:
        store.close()
    assert t1 is not None and list(t1.moves) == ["c"]


def _gathered(storage: Storage, writes: list[MoveWrite]) -> list[BaseException | None]:
    """What became of ``writes`` handed to the storage at once."""

    async def main() -> list[BaseException | None]:
        told = await asyncio.gather(*(storage.add_move(w) for w in writes),
                                    return_exceptions=True)  # fmt: skip
        await storage.aclose()
        return list(told)

    return asyncio.run(main())


def test_the_storage_writes_postgresqls_groups_from_the_event_loop(postgres_url: str) -> None:
    """Moves handed to the storage at once are stored and acknowledged with no call on
    the storage thread (the group is written from the event loop); a move whose number
    is taken is refused there and the others of its group are stored."""
    store = _store(postgres_url, 3)
    storage = Storage(store)
    threaded: list[object] = []
    call = storage._thread.call

    def counted(fn: Any) -> None:
        threaded.append(fn)
        call(fn)

    storage._thread.call = counted  # type: ignore[method-assign]
    try:
        first = _gathered(storage, [MoveWrite(f"t{i}", 0, 0, f"m{i}", None, 1, False)
                                    for i in range(3)])  # fmt: skip
        groups = storage.groups
        again = _gathered(storage, [MoveWrite("t0", 0, 0, "x", None, 1, False),
                                    MoveWrite("t1", 1, 1, "n", None, 2, False)])  # fmt: skip
        t0, t1 = store.load("t0"), store.load("t1")
    finally:
        storage.shutdown()
        store.close()
    assert first == [None] * 3 and groups >= 1 and threaded == []
    assert isinstance(again[0], MoveConflict) and again[1] is None
    assert t0 is not None and t1 is not None
    assert (list(t0.moves), list(t1.moves)) == (["m0"], ["m1", "n"])


def test_a_group_whose_connection_was_ended_is_stored_once(postgres_url: str) -> None:
    """The event loop's connection is ended by the server (a restart): the next group's
    moves are checked and stored one by one (the outage path), once each, and the group
    after them is written from the loop again on a fresh connection."""
    store = _store(postgres_url, 2)
    storage = Storage(store)
    try:
        assert _gathered(storage, [MoveWrite("t0", 0, 0, "a", None, 1, False)]) == [None]

        async def ended() -> list[BaseException | None]:
            groups = storage._on_loop
            assert groups is not None
            conn = await groups._connection()
            admin = postgres_url.split("?")[0]
            with psycopg.connect(admin, autocommit=True) as other:
                other.execute("SELECT pg_terminate_backend(%s)", (conn.info.backend_pid,))
            writes = [MoveWrite("t0", 1, 1, "b", None, 2, False),
                      MoveWrite("t1", 0, 0, "c", None, 1, False)]  # fmt: skip
            told = await asyncio.gather(*(storage.add_move(w) for w in writes),
                                        return_exceptions=True)  # fmt: skip
            await storage.add_move(MoveWrite("t1", 1, 1, "d", None, 2, False))
            await storage.aclose()
            return list(told)

        told = asyncio.run(ended())
        t0, t1 = store.load("t0"), store.load("t1")
    finally:
        storage.shutdown()
        store.close()
    assert told == [None, None]
    assert t0 is not None and t1 is not None
    assert (list(t0.moves), list(t1.moves)) == (["a", "b"], ["c", "d"])


def test_moves_that_keep_coming_wait_for_the_groups_pace(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Moves waiting when a group commit ends are written :data:`GROUP_PACE` after that
    group began, with every move that came meanwhile (here each commit made to take
    50 ms, five moves 20 ms apart after the first, a pace of 0.5 s: one group after the
    first move's, where without the pace three would follow it); a lone move after the
    writing stopped is written at once, not after a pace."""
    monkeypatch.setattr(storage_module, "GROUP_PACE", 0.5)
    store = _store(postgres_url, 6)
    storage = Storage(store)
    groups = storage._on_loop
    assert groups is not None
    write_now = groups.write

    async def slow(writes: Any, moment: Any) -> None:
        await write_now(writes, moment)
        await asyncio.sleep(0.05)

    monkeypatch.setattr(groups, "write", slow)

    async def main() -> tuple[int, int]:
        first = asyncio.create_task(storage.add_move(MoveWrite("t0", 0, 0, "a", None, 1, False)))
        later = []
        for i in range(1, 6):
            await asyncio.sleep(0.02)
            write = MoveWrite(f"t{i}", 0, 0, "b", None, 1, False)
            later.append(asyncio.create_task(storage.add_move(write)))
        await asyncio.gather(first, *later)
        paced = storage.groups
        while storage._writing:
            await asyncio.sleep(0.01)
        lone = MoveWrite("t0", 1, 1, "c", None, 2, False)
        await asyncio.wait_for(storage.add_move(lone), timeout=0.4)  # not after a pace
        await storage.aclose()
        return paced, storage.groups

    try:
        paced, written = asyncio.run(main())
    finally:
        storage.shutdown()
        store.close()
    assert (paced, written) == (2, 3)


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_the_live_counts_are_the_live_tables_and_the_bot_only_ones(
    database: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """:meth:`Store.live_counts` (the cluster's site-wide caps, read in one statement):
    waiting and playing tables count, finished ones do not; a table is bot-only when no
    seat is a person's or open."""
    url = (
        request.getfixturevalue("postgres_url")
        if database == "postgresql"
        else f"sqlite:///{tmp_path / 'counts.sqlite'}"
    )
    store = Store(url)
    store.create_schema()
    kinds = {"bots": ["bot"] * 3, "person": ["human", "bot", "bot"], "open": ["open"] * 3}
    tables = [("a", "playing", "bots"), ("b", "waiting", "bots"), ("c", "finished", "bots"),
              ("d", "playing", "person"), ("e", "waiting", "open")]  # fmt: skip
    try:
        for i, (tid, status, seated) in enumerate(tables):
            seats = [StoredSeat(s, kind, bot="random" if kind == "bot" else None)
                     for s, kind in enumerate(kinds[seated])]  # fmt: skip
            row = StoredTable(tid, "mattis", 3, "standard", {}, i, status, now(), None, None,
                              seats, [])  # fmt: skip
            assert store.add_table(row)
        counts = store.live_counts()
    finally:
        store.close()
    assert counts == (4, 2)


def test_a_new_table_is_one_statement_with_the_rows_sqlalchemy_writes(
    postgres_url: str, tmp_path: Path
) -> None:
    """A table stored on PostgreSQL (one statement, one round trip) loads as the same
    table stored through SQLAlchemy's inserts on SQLite: its options, big seed, seats of
    every kind; a taken id stores nothing and says so."""
    seats = [StoredSeat(0, "human", name="Aino", token_hash="t" * 64),
             StoredSeat(1, "bot", bot="expert:1s"),
             StoredSeat(2, "open", invite_hash="i" * 64)]  # fmt: skip
    made = now()
    table = StoredTable("x1", "mattis", 3, "standard", {"max_sequence": 2}, 2**100 + 7,
                        "waiting", made, None, None, seats, [])  # fmt: skip
    loaded = []
    trace = tmp_path / "libpq.trace"
    for url in (postgres_url, f"sqlite:///{tmp_path / 'made.sqlite'}"):
        store = Store(url)
        store.create_schema()
        try:
            assert store.add_table(table)
            if store._groups is not None:
                assert store._groups._raw is not None
                with trace.open("w") as handle:
                    store._groups._raw.pgconn.trace(handle.fileno())
                    twin = StoredTable(**{**table.__dict__, "id": "x2"})
                    assert store.add_table(twin)
                    store._groups._raw.pgconn.untrace()
            assert not store.add_table(table)  # the id is taken
            loaded.append(store.load("x1"))
        finally:
            store.close()
    assert loaded[0] is not None and loaded[0] == loaded[1]
    assert loaded[0].seed == 2**100 + 7 and loaded[0].options == {"max_sequence": 2}
    assert len(ROUND_TRIP.findall(trace.read_text())) == 1
