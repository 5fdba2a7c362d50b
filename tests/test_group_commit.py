"""Moves stored by group commit (:meth:`tikki.server.tables.storage.Storage.add_move`):
the moves that wait while a transaction is written go together into the next one, each
acknowledged only once committed; a conflict refuses that move only (``MoveConflict``,
the others stored); a group whose commit broke is checked move by move (never doubled);
each stored move writes its table's lobby line in the same transaction.  A bot turn
gives its slot back once its move waits for its commit, so the commits' time never caps
how many bot moves a process makes."""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from tikki.serve_settings import Policy
from tikki.server.db import MoveConflict, MoveWrite, Store, StoredSeat, StoredTable, now
from tikki.server.tables import BOT_TURNS, NewTable, TableManager
from tikki.server.tables.storage import Storage


def stored(path: Path, tables: int) -> Store:
    """A SQLite store with ``tables`` bot tables ``t0``, ``t1``, …"""
    return stored_at(f"sqlite:///{path / 'moves.sqlite'}", tables)


def stored_at(url: str, tables: int) -> Store:
    """The store at ``url`` with ``tables`` bot tables ``t0``, ``t1``, …"""
    store = Store(url)
    store.create_schema()
    for i in range(tables):
        seats = [StoredSeat(s, "bot", bot="random") for s in range(3)]
        row = StoredTable(f"t{i}", "mattis", 3, "standard", {}, i, "playing", now(), None,
                          None, seats, [])  # fmt: skip
        assert store.add_table(row)
    return store


def moves(store: Store, table_id: str) -> list[tuple[int, str]]:
    """The stored moves of a table: (seq, text)."""
    loaded = store.load(table_id)
    assert loaded is not None
    return list(enumerate(loaded.moves))


def test_moves_waiting_together_share_a_transaction(tmp_path: Path) -> None:
    """Twelve moves of twelve tables made at once: every one stored and acknowledged,
    in fewer transactions than moves (the first alone, the rest grouped)."""
    store = stored(tmp_path, 12)
    storage = Storage(store)

    async def main() -> None:
        writes = [MoveWrite(f"t{i}", 0, 0, f"m{i}", None, 1, False) for i in range(12)]
        await asyncio.gather(*(storage.add_move(w) for w in writes))

    asyncio.run(main())
    storage.shutdown()
    assert [moves(store, f"t{i}") for i in range(12)] == [[(0, f"m{i}")] for i in range(12)]
    assert 1 <= storage.groups < 12


def test_a_conflict_in_a_group_refuses_that_move_only(tmp_path: Path) -> None:
    """A group in which one move's number is taken: that move is refused
    ``MoveConflict`` (the stored one stays), the others are stored."""
    store = stored(tmp_path, 3)
    store.add_move("t1", 0, 2, "theirs", None)
    writes = [MoveWrite(f"t{i}", 0, 0, f"m{i}", None, 1, False) for i in range(3)]
    results = store.add_moves(writes)
    assert [type(r) for r in results] == [type(None), MoveConflict, type(None)]
    assert moves(store, "t0") == [(0, "m0")]
    assert moves(store, "t1") == [(0, "theirs")]
    assert moves(store, "t2") == [(0, "m2")]

    storage = Storage(store)

    async def main() -> list[Any]:
        more = [MoveWrite(f"t{i}", 1, 1, f"n{i}", None, 2, False) for i in range(3)]
        more[2] = MoveWrite("t2", 0, 1, "again", None, 2, False)  # its move 0 is stored
        return await asyncio.gather(*(storage.add_move(w) for w in more),
                                    return_exceptions=True)  # fmt: skip

    results = asyncio.run(main())
    storage.shutdown()
    assert [type(r) for r in results] == [type(None), type(None), MoveConflict]
    assert moves(store, "t2") == [(0, "m2")]


def test_a_group_whose_commit_broke_is_neither_lost_nor_doubled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The connection breaks after the group's commit (the database cannot say whether
    it happened): each move is checked on its own, found stored, and acknowledged once."""
    store = stored(tmp_path, 4)
    store.groups_here = False  # the storage thread's groups (a lost commit answer is theirs)
    storage = Storage(store)
    write_group = store.add_moves
    broken = []

    def commit_then_break(writes: list[MoveWrite]) -> list[Exception | None]:
        write_group(writes)
        broken.append(len(writes))
        raise OperationalError("COMMIT", {}, Exception("server closed the connection"))

    monkeypatch.setattr(store, "add_moves", commit_then_break)

    async def main() -> None:
        writes = [MoveWrite(f"t{i}", 0, 0, f"m{i}", None, 1, False) for i in range(4)]
        await asyncio.gather(*(storage.add_move(w) for w in writes))

    asyncio.run(main())
    storage.shutdown()
    assert sum(broken) == 4
    assert [moves(store, f"t{i}") for i in range(4)] == [[(0, f"m{i}")] for i in range(4)]


def test_each_stored_move_writes_its_lobby_line(tmp_path: Path) -> None:
    """The lobby line (moves stored, seat to act, time, a person's move) follows each
    stored move, grouped or not, and is read without the moves."""
    store = stored(tmp_path, 2)
    store.add_move("t0", 0, 0, "a", None, to_act=1)
    store.add_moves([MoveWrite("t0", 1, 1, "b", None, 2, True), MoveWrite("t1", 0, 0, "c")])
    listed = {t.id: t for t in store.load_listed(["t0", "t1", "nope"])}
    assert set(listed) == {"t0", "t1"}
    line = listed["t0"].summary
    assert line is not None and (line.seq, line.to_act, line.played) == (2, 2, True)
    assert isinstance(line.last_move, datetime) and listed["t0"].moves == []
    other = listed["t1"].summary
    assert other is not None and (other.seq, other.to_act) == (1, None)


class GatedStore(Store):
    """A store whose group commits wait for :attr:`gate` once it is closed (the test's
    slow database), and which notes the size of each group; its groups go to the storage
    thread (a gate on the event loop would stop it)."""

    groups_here = False

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.gate = threading.Event()
        self.gate.set()
        self.groups: list[int] = []
        self.held = 0
        """The moves of the group waiting at the closed gate."""

    def add_moves(self, writes: list[MoveWrite]) -> list[Exception | None]:
        """Wait for the gate, then store the group."""
        if not self.gate.is_set():
            self.held = len(writes)
        self.gate.wait()
        self.groups.append(len(writes))
        return super().add_moves(writes)


def test_queued_is_told_before_the_commit(tmp_path: Path) -> None:
    """``queued`` is called once the move waits in its group, while the commit has not
    happened (nothing stored yet); the move is acknowledged only after the commit."""
    store = GatedStore(f"sqlite:///{tmp_path / 'moves.sqlite'}")
    store.create_schema()
    store.add_table(stored(tmp_path, 1).load("t0"))  # type: ignore[arg-type]
    storage = Storage(store)
    seen: list[list[tuple[int, str]]] = []

    async def main() -> None:
        store.gate.clear()
        write = MoveWrite("t0", 0, 0, "m", None, 1, False)
        acknowledged = asyncio.ensure_future(
            storage.add_move(write, queued=lambda: seen.append(moves(store, "t0")))
        )
        for _ in range(1000):
            if seen:
                break
            await asyncio.sleep(0.001)
        assert seen == [[]] and not acknowledged.done()
        store.gate.set()
        await acknowledged

    asyncio.run(main())
    storage.shutdown()
    assert moves(store, "t0") == [(0, "m")]


def test_bot_moves_waiting_for_a_commit_hold_no_turn(tmp_path: Path) -> None:
    """While one commit is slow, every bot-only table's next move waits for the next one:
    more than :data:`BOT_TURNS` moves in one group (a turn held its slot until its move
    was committed before, so at most ``BOT_TURNS - 1`` of one creator's moves could wait:
    the commit's time capped the moves a process made)."""
    tables = 3 * BOT_TURNS
    store = GatedStore(f"sqlite:///{tmp_path / 'bots.sqlite'}")

    async def main() -> None:
        policy = Policy(create_per_minute=1000, tables_per_address=1000, waiting_per_address=1000)
        manager = TableManager(store, bot_delay=0, policy=policy)
        await manager.start()
        try:
            wanted = NewTable("mattis", 3, None, {}, [("bot", "random")] * 3, None)
            for _ in range(tables):
                await manager.create(wanted, "10.0.0.1")
            store.gate.clear()  # the next commit waits: the others' moves pile up
            for _ in range(2000):
                if store.held and len(manager.storage._waiting) + store.held >= tables:
                    break
                await asyncio.sleep(0.005)
            before = len(store.groups)
            store.gate.set()
            for _ in range(2000):
                if len(store.groups) >= before + 2:
                    break
                await asyncio.sleep(0.005)
        finally:
            store.gate.set()
            await manager.stop()
        assert max(store.groups[before:]) > BOT_TURNS, store.groups[before:]

    asyncio.run(main())


def test_one_pass_of_the_event_loop_applies_at_most_bot_turns_moves(tmp_path: Path) -> None:
    """After a slow commit, every table's next bot move is due at once: they are applied
    at most :data:`BOT_TURNS` in one pass of the event loop (a turn gives its slot back
    at the next pass), so a request never waits behind all of them (a slot given back at
    once let every due move run in the same pass)."""
    tables = 3 * BOT_TURNS
    store = GatedStore(f"sqlite:///{tmp_path / 'passes.sqlite'}")
    passes = 0
    moved_in: list[int] = []

    async def count_passes() -> None:
        nonlocal passes
        while True:
            passes += 1
            await asyncio.sleep(0)

    async def main() -> None:
        policy = Policy(create_per_minute=1000, tables_per_address=1000, waiting_per_address=1000)
        manager = TableManager(store, bot_delay=0, policy=policy)
        await manager.start()
        add_move = manager.storage.add_move

        async def noted(write: MoveWrite, queued: Any = None, first: bool = False) -> None:
            moved_in.append(passes)
            await add_move(write, queued, first)

        manager.storage.add_move = noted  # type: ignore[method-assign]
        ticker = asyncio.create_task(count_passes())
        try:
            wanted = NewTable("mattis", 3, None, {}, [("bot", "random")] * 3, None)
            for _ in range(tables):
                await manager.create(wanted, "10.0.0.1")
            store.gate.clear()  # every table's move piles up behind one slow commit
            for _ in range(2000):
                if store.held and len(manager.storage._waiting) + store.held >= tables:
                    break
                await asyncio.sleep(0.005)
            moved_in.clear()
            store.gate.set()
            for _ in range(2000):
                if len(moved_in) >= 3 * tables:
                    break
                await asyncio.sleep(0.005)
        finally:
            ticker.cancel()
            store.gate.set()
            await manager.stop()

    asyncio.run(main())
    per_pass = Counter(moved_in)
    assert len(moved_in) >= 3 * tables
    assert max(per_pass.values()) <= BOT_TURNS, per_pass


class NotingStore(Store):
    """A store that notes, on the storage thread, when a group commit begins (its groups
    go to the storage thread, as a SQLite file's that the event loop could not write)."""

    groups_here = False

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.began = threading.Event()

    def add_moves(self, writes: list[MoveWrite]) -> list[Exception | None]:
        """Note the commit's start, then store the group."""
        self.began.set()
        return super().add_moves(writes)


def test_a_lone_move_is_written_at_once_not_at_the_loops_next_pass(tmp_path: Path) -> None:
    """A move with nothing else waiting goes to the storage thread within its own step of
    the event loop: its commit begins while the loop is still busy with other work (no
    batching window; the writer did not wait for the loop's next pass, behind every bot
    move and broadcast due in it), and it is acknowledged only once committed."""
    store = NotingStore(f"sqlite:///{tmp_path / 'lone.sqlite'}")
    store.create_schema()
    store.add_table(stored(tmp_path, 1).load("t0"))  # type: ignore[arg-type]
    storage = Storage(store)

    async def main() -> tuple[bool, bool]:
        write = MoveWrite("t0", 0, 0, "m", None, 1, True)
        acknowledged = asyncio.ensure_future(storage.add_move(write))
        await asyncio.sleep(0)  # the move's own step: it now waits for its commit
        began = store.began.wait(timeout=10)  # the loop stays busy here meanwhile
        early = acknowledged.done()
        await acknowledged
        return began, early

    began, early = asyncio.run(main())
    storage.shutdown()
    assert began and not early
    assert moves(store, "t0") == [(0, "m")]


def test_the_lobby_line_statement_is_built_once() -> None:
    """The group commit's lobby-line upsert is one statement per dialect, not one built
    (and keyed for the statement cache) anew at every commit, on the storage thread that
    every move of the process waits for."""
    from tikki.server.db import _upsert_summary

    assert _upsert_summary("sqlite") is _upsert_summary("sqlite")
    assert _upsert_summary("postgresql") is _upsert_summary("postgresql")


def test_a_persons_move_is_acknowledged_first_in_its_group(tmp_path: Path) -> None:
    """Bot moves and a person's move waiting for the same commit: the person's is
    acknowledged first, so their table's broadcast runs before the bots' of the group."""
    store = GatedStore(f"sqlite:///{tmp_path / 'first.sqlite'}")
    store.create_schema()
    seeded = stored(tmp_path, 5)
    for i in range(5):
        store.add_table(seeded.load(f"t{i}"))  # type: ignore[arg-type]
    storage = Storage(store)
    order: list[str] = []

    async def one(write: MoveWrite, first: bool = False) -> None:
        await storage.add_move(write, first=first)
        order.append(write.table_id)

    async def main() -> None:
        store.gate.clear()
        ahead = asyncio.ensure_future(one(MoveWrite("t0", 0, 0, "m", None, 1, False)))
        for _ in range(1000):
            if store.held:
                break
            await asyncio.sleep(0.001)
        bots = [one(MoveWrite(f"t{i}", 0, 0, "m", None, 1, False)) for i in (1, 2, 3)]
        person = one(MoveWrite("t4", 0, 0, "m", None, 1, True), first=True)
        group = asyncio.gather(*bots, person)
        await asyncio.sleep(0)
        store.gate.set()
        await ahead
        await group

    asyncio.run(main())
    storage.shutdown()
    assert store.groups == [1, 4]
    assert order[:2] == ["t0", "t4"], order
