"""The lobby of a cluster process lists the tables another process owns from their
stored lobby lines (``tikki_table_summaries``, written with each move): it reads no move
and replays none, and shows what the owner shows.

``TIKKI_TEST_POSTGRES`` names the server (see ``tests/test_cluster.py``)."""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import Engine, event
from sqlalchemy.pool import Pool

from tests._server import auth
from tests.test_cluster import held_locks, node, play_moves, start_game, wait_for
from tikki.core import State
from tikki.serve_settings import Policy
from tikki.server.cluster import ClusterOwnership, Ownership
from tikki.server.db import Store, StoredSeat, StoredTable, now
from tikki.server.tables import TableManager
from tikki.server.tables import ownership as ownership_module
from tikki.server.tables.ownership import Finder
from tikki.server.tables.registry import Registry
from tikki.server.tables.storage import Clock, Storage

SHOWN = ("id", "game", "status", "seq", "to_act", "seats", "takeovers", "expires", "options")
"""What the two lobbies must agree on (``timer`` counts down where it is read)."""
OWNER_ONLY = ("connected", "away_since", "may_hand_over")
"""A seat's presence, which only the owner knows (a replayed copy did not know it either)."""


def shown(table: dict[str, Any]) -> dict[str, Any]:
    """What a lobby entry shows that every process knows."""
    out = {k: table[k] for k in SHOWN}
    out["seats"] = [{k: v for k, v in s.items() if k not in OWNER_ONLY} for s in out["seats"]]
    return out


def person_to_act(http: httpx.Client, tid: str, token: str) -> bool:
    """Whether the bots are done and the person (seat 0) is to act."""
    state = http.get(f"/api/tables/{tid}/state", headers=auth(token)).json()
    return bool(state["view"]["legal_moves"])


async def lobby_of_b(url: str, statements: list[str]) -> list[dict[str, Any]]:
    """The ``playing`` lobby of a second process "b" (owning none of the tables), with
    every SQL statement its storage ran meanwhile."""
    store = Store(url)
    manager = TableManager(store, ownership=ClusterOwnership(url, "b"))
    await manager.start()

    def note(*args: Any) -> None:
        statements.append(str(args[2]))

    event.listen(Engine, "before_cursor_execute", note)  # every engine of the store's
    try:
        return [t.public() for t in await manager.lobby("playing", 50)]
    finally:
        event.remove(Engine, "before_cursor_execute", note)
        await manager.stop()


def test_the_lobby_of_a_non_owner_reads_no_moves(
    tmp_path: Path, postgres_url: str, monkeypatch: Any
) -> None:
    """Three tables owned by process a, played a few moves each: b's lobby lists them
    as a's does (seq, seat to act, seats, status), without one statement on the moves
    and without replaying one (the engine's play fails if called), and a keeps them."""
    with node(postgres_url, tmp_path / "a.log", "a", "--bot-delay", "0.01") as (_pa, http_a):
        tids = []
        for _ in range(3):
            tid, token = start_game(http_a)
            play_moves(http_a, tid, token, 3)
            wait_for(lambda: person_to_act(http_a, tid, token), "the person's turn")  # noqa: B023
            tids.append(tid)
        ours = http_a.get("/api/tables", params={"status": "playing"}).json()["tables"]

        def no_replay(self: State, move: str) -> None:
            raise AssertionError(f"the lobby replayed move {move!r}")

        statements: list[str] = []
        with monkeypatch.context() as patched:
            for cls in {type(s) for s in _states()}:
                patched.setattr(cls, "play", no_replay)
            theirs = asyncio.run(lobby_of_b(postgres_url, statements))
        locks = held_locks(postgres_url, tids)
    assert statements, "the lobby read nothing"
    assert not [s for s in statements if "tikki_moves" in s]
    mine = {t["id"]: shown(t) for t in ours}
    other = {t["id"]: shown(t) for t in theirs}
    assert set(other) == set(tids) == set(mine)
    assert other == mine
    assert all(mine[t]["seq"] >= 3 and mine[t]["to_act"] == 0 for t in tids)
    assert locks == {t: ["tikki a"] for t in tids}


def _states() -> list[State]:
    """A fresh state of each game's class the tables here use (Mattis)."""
    from tikki.core import load

    return [load("mattis", 3).new_state(seed=1)]


class Elsewhere(Ownership):
    """A cluster process that holds none of the tables (others own them)."""

    clustered = True


def test_a_non_owners_lobby_is_one_read_whatever_its_tables(tmp_path: Path) -> None:
    """A non-owner's lobby of eleven live tables, eight with lobby lines and three
    without (nobody moved yet, or stored by code before the lines: read whole): found
    and read in one storage call of six statements (before: the ids, the lines, then
    each table without a line alone, a call and four statements each); each listed as
    stored, newest first."""
    store = Store(f"sqlite:///{tmp_path / 'lobby.sqlite'}")
    store.create_schema()
    ids = [f"t{i:02d}" for i in range(11)]
    for i, tid in enumerate(ids):
        seats = [StoredSeat(s, "bot", bot="random") for s in range(3)]
        made = now() + timedelta(seconds=i)
        assert store.add_table(StoredTable(tid, "mattis", 3, "standard", {}, i, "playing",
                                           made, None, None, seats, []))  # fmt: skip
        if i % 4 != 3:  # t03, t07, t11: no line
            for seq in range(i + 1):
                store.add_move(tid, seq, seq % 3, f"m{seq}", None, to_act=(seq + 1) % 3)
    storage = Storage(store)
    ownership = Elsewhere("b")
    finder = Finder(Registry(ownership, Policy(), Clock()), storage, ownership, lambda _t: None)
    statements: list[str] = []
    calls: list[str] = []
    run = storage.run

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(getattr(fn, "__name__", "?"))
        return await run(fn, *args, **kwargs)

    storage.run = counted  # type: ignore[method-assign]
    event.listen(
        store.engine, "before_cursor_execute", lambda *args: statements.append(str(args[2]))
    )
    listed = asyncio.run(finder.lobby(["playing"], 50))
    storage.shutdown()
    assert [t.id for t in listed] == ids[::-1]
    assert len(calls) == 1 and len(statements) <= 6, (calls, statements)
    shown = {t.id: (t.seq, t.to_act) for t in listed}
    for i, tid in enumerate(ids):
        if i % 4 == 3:
            assert shown[tid][0] == 0  # read whole: no move stored
        else:
            assert shown[tid] == (i + 1, (i + 1) % 3)


ROUND_TRIP = re.compile(r"^\S+ \S+\tF\t\d+\t(Query|Sync)\b", re.MULTILINE)
"""A message of libpq's trace after which the client waits for PostgreSQL's answer: a
simple query (``BEGIN``, ``ROLLBACK``, the pool's ping) or the end of an extended one."""


def _bot_tables(store: Store, numbers: range, lines: bool = True) -> list[str]:
    """Playing bot-only tables ``t00``, ``t01``, … (``numbers``), each with a move and
    its lobby line (or, not ``lines``, no move); their ids, newest first."""
    ids = [f"t{i:02d}" for i in numbers]
    for i, tid in zip(numbers, ids, strict=True):
        seats = [StoredSeat(s, "bot", bot="random") for s in range(3)]
        made = now() + timedelta(seconds=i)
        assert store.add_table(StoredTable(tid, "mattis", 3, "standard", {}, i, "playing",
                                           made, None, None, seats, []))  # fmt: skip
        if lines:
            store.add_move(tid, 0, 0, "m0", None, to_act=1)
    return ids[::-1]


def test_a_non_owners_lobby_is_one_round_trip_to_postgresql(
    postgres_url: str, tmp_path: Path
) -> None:
    """On PostgreSQL a non-owner's lobby of live tables with lobby lines is one round
    trip to the server, as libpq's trace of its connection shows: one statement, with no
    ping, ``BEGIN`` or ``ROLLBACK`` around it (the reading thread waits for the GIL
    after each round trip, behind a busy event loop; before: six).  A table without a
    line adds one, its moves."""
    store = Store(postgres_url)
    store.create_schema()
    ids = _bot_tables(store, range(5))
    storage = Storage(store)
    ownership = Elsewhere("b")
    finder = Finder(Registry(ownership, Policy(), Clock()), storage, ownership, lambda _t: None)
    trace = tmp_path / "libpq.trace"

    def traced(dbapi_connection: Any, *_args: Any) -> None:
        dbapi_connection.pgconn.trace(handle.fileno())

    def round_trips() -> int:
        """The round trips of one lobby, with a fresh copy of no table."""
        finder._peeked.clear()
        start = trace.stat().st_size
        listed = asyncio.run(finder.lobby(["playing"], 50))
        assert {t.id for t in listed} <= set(ids)
        return len(ROUND_TRIP.findall(trace.read_text()[start:]))

    with trace.open("w") as handle:
        event.listen(Pool, "checkout", traced)
        try:
            asyncio.run(finder.lobby(["playing"], 50))  # the first connects
            one = round_trips()
            ids += _bot_tables(store, range(5, 7), lines=False)  # no line
            two = round_trips()
        finally:
            event.remove(Pool, "checkout", traced)
            storage.shutdown()
            store.close()
    assert (one, two) == (1, 2)


def _counted(storage: Storage, calls: list[str]) -> None:
    """Note the name of every storage call in ``calls``."""
    run = storage.run

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(getattr(fn, "__name__", "?"))
        return await run(fn, *args, **kwargs)

    storage.run = counted  # type: ignore[method-assign]


def test_a_burst_of_lobby_requests_costs_one_read(tmp_path: Path, monkeypatch: Any) -> None:
    """A non-owner's lobby read is kept: five requests at once and one after them cost
    one storage call, and list the same tables; a lobby change (the cluster's
    notification, or this process's own) makes it stale, and so does its age
    (:data:`PEEK_TTL`, here 0): the next request reads again and lists the new table."""
    store = Store(f"sqlite:///{tmp_path / 'lobby.sqlite'}")
    store.create_schema()
    ids = _bot_tables(store, range(4))
    storage = Storage(store)
    ownership = Elsewhere("b")
    finder = Finder(Registry(ownership, Policy(), Clock()), storage, ownership, lambda _t: None)
    calls: list[str] = []
    _counted(storage, calls)

    async def burst() -> list[list[str]]:
        lists = await asyncio.gather(*(finder.lobby(["playing"], 50) for _ in range(5)))
        lists.append(await finder.lobby(["playing"], 50))
        return [[t.id for t in tables] for tables in lists]

    try:
        assert asyncio.run(burst()) == [ids] * 6
        assert calls == ["lobby"]
        ids = _bot_tables(store, range(4, 5)) + ids
        finder.lobby_changed("t04")
        assert [t.id for t in asyncio.run(finder.lobby(["playing"], 50))] == ids
        assert calls == ["lobby"] * 2
        monkeypatch.setattr(ownership_module, "PEEK_TTL", 0.0)
        asyncio.run(finder.lobby(["playing"], 50))
        assert calls == ["lobby"] * 3
    finally:
        storage.shutdown()


def test_a_processs_own_lobby_change_is_heard_at_once() -> None:
    """A lobby change made by this process of a cluster reaches its own lobby when it is
    made, not when its notification comes back from PostgreSQL (here it never does)."""
    heard: list[str] = []
    ownership = ClusterOwnership("postgresql://nowhere/tikki", "b")
    ownership._changed = heard.append

    async def nothing(channel: str, **payload: str) -> None:
        """No notification is sent."""

    ownership._notify = nothing  # type: ignore[method-assign]
    asyncio.run(ownership.changed("t1"))
    assert heard == ["t1"]
