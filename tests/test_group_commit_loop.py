"""Group commits written on the event loop on a SQLite file
(:meth:`tikki.server.tables.storage.Storage._write_here`,
:meth:`tikki.server.db.Store.add_moves_here`): the loop's own connection never waits for a
lock or a checkpoint; a group it cannot write at once (another connection writing, a
broken connection) or that finishes a game goes to the storage thread whole, and so do
the groups after it while that thread has any, so a table's moves stay in order; a
conflict refuses that move only; the WAL is checkpointed from the storage thread."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.test_group_commit import moves, stored
from tikki.server import db
from tikki.server.db import MoveConflict, MoveWrite, Store
from tikki.server.tables import storage as storage_module
from tikki.server.tables.storage import Storage


def pragma(raw: Any, name: str) -> Any:
    """One PRAGMA's value on a DBAPI connection."""
    cursor = raw.cursor()
    try:
        return cursor.execute(f"PRAGMA {name}").fetchone()[0]
    finally:
        cursor.close()


def lobby_seq(store: Store, table_id: str) -> int | None:
    """The moves stored according to a table's lobby line."""
    listed = store.load_listed([table_id])
    line = listed[0].summary if listed else None
    return None if line is None else line.seq


def test_a_group_on_a_sqlite_file_is_written_on_the_event_loop(tmp_path: Path) -> None:
    """Moves made together are one group, written on the loop (no call to the storage
    thread's group commit), stored with their lobby lines, and acknowledged."""
    store = stored(tmp_path, 3)
    storage = Storage(store)
    on_thread: list[int] = []
    store_add_moves = store.add_moves

    def noted(writes: list[MoveWrite]) -> list[Exception | None]:
        on_thread.append(len(writes))
        return store_add_moves(writes)

    store.add_moves = noted  # type: ignore[method-assign]

    async def main() -> None:
        writes = [MoveWrite(f"t{i}", 0, 0, f"m{i}", None, 1, False) for i in range(3)]
        await asyncio.gather(*(storage.add_move(w) for w in writes))
        await storage.add_move(MoveWrite("t0", 1, 1, "n", None, 2, True))

    asyncio.run(main())
    storage.shutdown()
    assert on_thread == []
    assert (storage.groups, storage.groups_here) == (2, 2)
    assert moves(store, "t0") == [(0, "m0"), (1, "n")]
    assert [moves(store, f"t{i}") for i in (1, 2)] == [[(0, "m1")], [(0, "m2")]]
    assert lobby_seq(store, "t0") == 2


def test_the_loops_connection_never_waits_for_a_lock_or_a_checkpoint(tmp_path: Path) -> None:
    """Its ``busy_timeout`` and ``wal_autocheckpoint`` are 0; the pool's connections keep
    theirs (5 s, SQLite's 1,000 pages): the loop's pragmas do not leak into the pool."""
    store = stored(tmp_path, 1)
    store.add_moves_here([MoveWrite("t0", 0, 0, "m", None, 1, False)])
    here = store._here
    assert here is not None
    assert (pragma(here, "busy_timeout"), pragma(here, "wal_autocheckpoint")) == (0, 0)
    assert pragma(here, "journal_mode") == "wal" and pragma(here, "synchronous") == 1
    pooled = store.engine.raw_connection()
    try:
        assert pragma(pooled, "busy_timeout") == 5000
        assert pragma(pooled, "wal_autocheckpoint") == 1000
    finally:
        pooled.close()
    store.close()
    assert store._here is None


def test_a_group_that_finds_the_database_locked_goes_to_the_thread_in_order(
    tmp_path: Path,
) -> None:
    """Another connection holds SQLite's write lock: the loop does not wait (a ticker
    keeps running, nothing is acknowledged), the group goes to the storage thread, and the
    table's next move follows it there; once the lock is gone both are stored in order
    and the lobby line is the newest."""
    path = tmp_path / "moves.sqlite"
    store = stored(tmp_path, 2)
    storage = Storage(store)
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.001)

    async def main() -> tuple[int, bool]:
        nonlocal ticks
        other = sqlite3.connect(path, timeout=0, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # SQLite's write lock, held
        ticking = asyncio.create_task(ticker())
        first = asyncio.ensure_future(storage.add_move(MoveWrite("t0", 0, 0, "a", None, 1)))
        await asyncio.sleep(0.01)
        second = asyncio.ensure_future(storage.add_move(MoveWrite("t0", 1, 1, "b", None, 2)))
        ticks = 0
        await asyncio.sleep(0.2)
        waited = first.done() or second.done()
        ticked = ticks
        other.execute("ROLLBACK")
        other.close()
        await asyncio.gather(first, second)
        ticking.cancel()
        return ticked, waited

    ticked, waited = asyncio.run(main())
    storage.shutdown()
    assert not waited and ticked >= 20, (ticked, waited)
    assert storage.groups_here == 0 and storage.groups >= 1
    assert moves(store, "t0") == [(0, "a"), (1, "b")]
    assert lobby_seq(store, "t0") == 2


def test_a_conflict_written_on_the_loop_refuses_that_move_only(tmp_path: Path) -> None:
    """A group with a move whose number is taken: the loop's write is undone whole, the
    storage thread stores the others, and the taken one is refused ``MoveConflict``."""
    store = stored(tmp_path, 3)
    store.add_move("t1", 0, 2, "theirs", None)
    storage = Storage(store)

    async def main() -> list[Any]:
        writes = [MoveWrite(f"t{i}", 0, 0, f"m{i}", None, 1, False) for i in range(3)]
        return await asyncio.gather(*(storage.add_move(w) for w in writes),
                                    return_exceptions=True)  # fmt: skip

    results = asyncio.run(main())
    storage.shutdown()
    assert [type(r) for r in results] == [type(None), MoveConflict, type(None)]
    assert moves(store, "t1") == [(0, "theirs")]
    assert [moves(store, f"t{i}") for i in (0, 2)] == [[(0, "m0")], [(0, "m2")]]
    assert store._here is not None  # a conflict breaks nothing: the connection is kept


def test_a_group_that_finishes_a_game_is_written_on_the_thread(tmp_path: Path) -> None:
    """The last move of a game (an outcome: the table is marked finished in the same
    transaction) is the storage thread's, not the loop's."""
    store = stored(tmp_path, 1)
    storage = Storage(store)

    async def main() -> None:
        await storage.add_move(MoveWrite("t0", 0, 0, "end", {"scores": [1, 0, 0]}, None))

    asyncio.run(main())
    storage.shutdown()
    assert (storage.groups, storage.groups_here) == (1, 0)
    loaded = store.load("t0")
    assert loaded is not None and loaded.status == "finished" and loaded.moves == ["end"]


def test_a_broken_loop_connection_is_dropped_and_the_thread_stores_the_group(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An error that is not a lock (the disk) on the loop's connection: the group goes to
    the storage thread, which stores it; the connection is made anew for the next group."""
    store = stored(tmp_path, 1)
    storage = Storage(store)
    write_rows = db._write_rows
    failed: list[bool] = []

    def fails_once(raw: Any, writes: list[MoveWrite], dialect: Any) -> None:
        if raw is store._here and not failed:
            failed.append(True)
            raise sqlite3.OperationalError("disk I/O error")
        write_rows(raw, writes, dialect)

    monkeypatch.setattr(db, "_write_rows", fails_once)

    async def main() -> None:
        await storage.add_move(MoveWrite("t0", 0, 0, "a", None, 1))
        dropped = store._here is None
        for _ in range(1000):  # the thread marks itself done just after it told the loop
            if not storage._writing:
                break
            await asyncio.sleep(0.001)
        await storage.add_move(MoveWrite("t0", 1, 1, "b", None, 2))
        assert dropped and store._here is not None

    asyncio.run(main())
    storage.shutdown()
    assert failed == [True] and storage.groups_here == 1
    assert moves(store, "t0") == [(0, "a"), (1, "b")]


def test_the_loops_groups_are_checkpointed_from_the_storage_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every ``CHECKPOINT_GROUPS`` groups written on the loop, a passive checkpoint runs on
    the storage thread, and it copies the whole log into the database."""
    monkeypatch.setattr(storage_module, "CHECKPOINT_GROUPS", 3)
    store = stored(tmp_path, 1)
    storage = Storage(store)
    checkpoint = store.checkpoint
    threads: list[str] = []

    def noted() -> None:
        import threading

        threads.append(threading.current_thread().name)
        checkpoint()

    store.checkpoint = noted  # type: ignore[method-assign]

    async def main() -> None:
        for seq in range(7):
            await storage.add_move(MoveWrite("t0", seq, seq % 3, f"m{seq}", None, 0))

    asyncio.run(main())
    storage.shutdown()
    assert threads == ["tikki-db_0", "tikki-db_0"]
    assert storage.groups_here == 7 and len(moves(store, "t0")) == 7
    with sqlite3.connect(tmp_path / "moves.sqlite") as probe:
        busy, log, copied = probe.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    assert busy == 0 and log == copied


def test_an_in_memory_database_writes_its_groups_on_the_thread(tmp_path: Path) -> None:
    """One connection for everything (an in-memory database): nothing on the loop."""
    store = Store("sqlite://")
    assert not store.writes_here
    store.groups_here = True
    assert not store.writes_here
    on_file = Store(f"sqlite:///{tmp_path / 'file.sqlite'}")
    assert on_file.writes_here
    on_file.groups_here = False
    assert not on_file.writes_here
    on_file.close()
    store.close()


def test_a_group_due_on_the_loop_after_shutdown_is_refused_not_written(tmp_path: Path) -> None:
    """A move whose group was due at the loop's next step when the storage shut down is
    refused (as the storage thread refuses one after its shutdown): no connection is
    made again on a closed store."""
    store = stored(tmp_path, 1)
    storage = Storage(store)

    async def main() -> BaseException | None:
        task = asyncio.ensure_future(storage.add_move(MoveWrite("t0", 0, 0, "a", None, 1)))
        await asyncio.sleep(0)  # the move waits; its group is due at the next step
        assert storage._waiting and not task.done()
        storage.shutdown()
        store.close()
        try:
            await task
        except RuntimeError as err:
            return err
        return None

    refused = asyncio.run(main())
    assert isinstance(refused, RuntimeError)
    assert store._here is None and storage.groups == 0
