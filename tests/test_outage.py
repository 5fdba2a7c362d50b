"""The database away for a moment (a PostgreSQL restart, a broken connection): requests
wait a bounded time and go on, or are answered ``503 unavailable`` with ``Retry-After``,
never a 500; a move whose commit answer was lost is tried again and stored once.

In one process on SQLite, with the store's calls made to fail the way a lost connection
fails (``sqlalchemy.exc.OperationalError``); ``tests/test_cluster.py`` breaks the real
PostgreSQL connections of a cluster process (``pg_terminate_backend``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from tests._server import app_state, auth, client, create, join, socket, state
from tikki.server.tables import storage as storage_module


def broken(*_args: Any, **_kwargs: Any) -> Any:
    """A store call while the database is away."""
    raise OperationalError("SELECT 1", {}, Exception("server closed the connection"))


def failing_times(fn: Callable[..., Any], times: int, after: bool = False) -> Callable[..., Any]:
    """``fn`` that fails ``times`` times as an outage does (``after``: the call is made,
    and only its answer is lost, as a commit whose connection broke)."""
    left = [times]

    def call(*args: Any, **kwargs: Any) -> Any:
        if left[0] > 0:
            left[0] -= 1
            if after:
                fn(*args, **kwargs)
            broken()
        return fn(*args, **kwargs)

    return call


@pytest.fixture
def short_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """Outages are waited for 0.3 s (not seconds) in these tests."""
    monkeypatch.setattr(storage_module, "OUTAGE_WAIT", 0.3, raising=False)


def test_the_lobby_answers_503_with_retry_after_while_the_database_is_away(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, short_wait: None
) -> None:
    with client(tmp_path) as c:
        create(c)
        store = app_state(c).manager.store
        monkeypatch.setattr(store, "table_ids", broken)
        r = c.get("/api/tables")
        assert r.status_code == 503, r.text
        assert r.json()["detail"]["code"] == "unavailable"
        assert "database" in r.json()["detail"]["message"]
        assert int(r.headers["Retry-After"]) >= 1
        monkeypatch.undo()
        assert c.get("/api/tables").status_code == 200


def test_a_read_during_a_blip_waits_and_answers(tmp_path: Path, short_wait: None) -> None:
    """A call that fails once (the pool's connection was cut) is made again: 200."""
    with client(tmp_path) as c:
        create(c)
        store = app_state(c).manager.store
        store.table_ids = failing_times(store.table_ids, 1)
        r = c.get("/api/tables")
        assert r.status_code == 200, r.text
        assert len(r.json()["tables"]) == 1


def test_a_move_whose_commit_answer_was_lost_is_stored_once_and_acknowledged(
    tmp_path: Path, short_wait: None
) -> None:
    with client(tmp_path) as c:
        table = create(c, seed=5)["table"]
        tokens = [join(c, table["id"], 0, "Anna"), join(c, table["id"], 1, "Ben")]
        mine = state(c, table["id"], tokens[0])
        store = app_state(c).manager.store
        store.groups_here = False  # the storage thread's groups, made to fail
        store.add_moves = failing_times(store.add_moves, 1, after=True)  # the group's commit
        body = {"move": mine["view"]["legal_moves"][0], "seq": mine["seq"]}
        r = c.post(f"/api/tables/{table['id']}/moves", json=body, headers=auth(tokens[0]))
        assert r.status_code == 200, r.text
        assert state(c, table["id"], tokens[0])["seq"] == mine["seq"] + 1
        assert store.move_count(table["id"]) == mine["seq"] + 1


def test_a_move_that_was_not_stored_is_tried_again(tmp_path: Path, short_wait: None) -> None:
    with client(tmp_path) as c:
        table = create(c, seed=5)["table"]
        tokens = [join(c, table["id"], 0, "Anna"), join(c, table["id"], 1, "Ben")]
        mine = state(c, table["id"], tokens[0])
        store = app_state(c).manager.store
        store.groups_here = False  # the storage thread's groups, made to fail
        store.add_moves = failing_times(store.add_moves, 1)  # the group, then the move alone
        store.add_move = failing_times(store.add_move, 1)
        body = {"move": mine["view"]["legal_moves"][0], "seq": mine["seq"]}
        r = c.post(f"/api/tables/{table['id']}/moves", json=body, headers=auth(tokens[0]))
        assert r.status_code == 200, r.text
        assert store.move_count(table["id"]) == mine["seq"] + 1


def test_a_longer_outage_refuses_the_move_with_retry_after_and_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, short_wait: None
) -> None:
    with client(tmp_path) as c:
        table = create(c, seed=5)["table"]
        tokens = [join(c, table["id"], 0, "Anna"), join(c, table["id"], 1, "Ben")]
        mine = state(c, table["id"], tokens[0])
        store = app_state(c).manager.store
        store.groups_here = False  # the storage thread's groups, made to fail
        monkeypatch.setattr(store, "add_moves", broken)
        monkeypatch.setattr(store, "add_move", broken)
        body = {"move": mine["view"]["legal_moves"][0], "seq": mine["seq"]}
        r = c.post(f"/api/tables/{table['id']}/moves", json=body, headers=auth(tokens[0]))
        assert r.status_code == 503, r.text
        assert r.json()["detail"]["code"] == "unavailable"
        assert int(r.headers["Retry-After"]) >= 1
        monkeypatch.undo()
        assert state(c, table["id"], tokens[0])["seq"] == mine["seq"]
        assert store.move_count(table["id"]) == mine["seq"]


def test_a_socket_to_a_table_that_cannot_be_read_closes_with_its_own_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, short_wait: None
) -> None:
    """Not 4400 ("bad first message"): 4503, "try again in a moment"."""
    from starlette.websockets import WebSocketDisconnect

    with client(tmp_path) as c:
        table = create(c)["table"]
        manager = app_state(c).manager
        manager.tables.pop(table["id"])  # as if another process had it: read it back
        monkeypatch.setattr(manager.store, "load", broken)
        with socket(c, table["id"]) as ws:
            message = ws.receive_json()
            assert message["type"] == "error" and message["code"] == "unavailable", message
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
        assert closed.value.code == 4503


def failing_async(fn: Callable[..., Any], times: int) -> Callable[..., Any]:
    """An async ``fn`` that fails ``times`` times as an outage does."""
    left = [times]

    async def call(*args: Any, **kwargs: Any) -> Any:
        if left[0] > 0:
            left[0] -= 1
            broken()
        return await fn(*args, **kwargs)

    return call


def lose_locks(c: TestClient, monkeypatch: pytest.MonkeyPatch, fails: int) -> set[str]:
    """Make the app's process a cluster process whose lock connection broke with the
    database (a PostgreSQL restart): it holds no table's lock, and finding an owner or
    taking a lock fails as an outage ``fails`` times before the database answers again.
    The locks it takes again."""
    ownership = app_state(c).manager.ownership
    held: set[str] = set()

    async def acquire(table_id: str) -> bool:
        held.add(table_id)
        return True

    async def route(table_id: str) -> None:
        return None  # nobody holds it: its lock went with the connection

    monkeypatch.setattr(ownership, "clustered", True, raising=False)
    monkeypatch.setattr(ownership, "holds", held.__contains__)
    monkeypatch.setattr(ownership, "acquire", failing_async(acquire, fails))
    monkeypatch.setattr(ownership, "route", failing_async(route, fails))
    return held


def test_a_table_request_while_the_locks_are_being_made_again_waits_and_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, short_wait: None
) -> None:
    """The database restarted: the process lost its tables' locks, and finding the
    owner and taking the lock fail for a moment; the request waits, takes the table
    back and answers 200 (it was refused 503 ``table … is moving``)."""
    with client(tmp_path) as c:
        table = create(c, seed=5)["table"]
        token = join(c, table["id"], 0, "Anna")
        held = lose_locks(c, monkeypatch, fails=1)
        r = c.get(f"/api/tables/{table['id']}/state", headers=auth(token))
        assert r.status_code == 200, r.text
        assert r.json()["seq"] == 0
        assert table["id"] in held


def test_a_socket_while_the_locks_are_being_made_again_waits_and_is_served(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, short_wait: None
) -> None:
    with client(tmp_path) as c:
        table = create(c, seed=5)["table"]
        lose_locks(c, monkeypatch, fails=1)
        with socket(c, table["id"]) as ws:
            message = ws.receive_json()
            assert message["type"] == "state", message


def test_a_table_request_in_a_longer_outage_is_refused_503_with_retry_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, short_wait: None
) -> None:
    with client(tmp_path) as c:
        table = create(c, seed=5)["table"]
        token = join(c, table["id"], 0, "Anna")
        lose_locks(c, monkeypatch, fails=1000)
        r = c.get(f"/api/tables/{table['id']}/state", headers=auth(token))
        assert r.status_code == 503, r.text
        assert r.json()["detail"]["code"] == "unavailable"
        assert int(r.headers["Retry-After"]) >= 1


def test_a_request_whose_owner_went_away_is_served_by_the_next_owner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, short_wait: None
) -> None:
    """The owner stopped (SIGTERM) between finding it and forwarding to it: nothing
    listens at its address any more.  The request finds the table's next owner (here,
    this process takes it) and is answered 200, not 503 ``table … is moving``."""
    from tikki.server.cluster import Hop

    with client(tmp_path) as c:
        table = create(c, seed=5)["table"]
        token = join(c, table["id"], 0, "Anna")
        held = lose_locks(c, monkeypatch, fails=0)
        gone = [Hop("http://127.0.0.1:9", "secret", "node-gone")]  # nothing listens there

        async def route(table_id: str) -> Hop | None:
            return gone.pop() if gone else None

        monkeypatch.setattr(app_state(c).manager.ownership, "route", route)
        r = c.get(f"/api/tables/{table['id']}/state", headers=auth(token))
        assert r.status_code == 200, r.text
        assert not gone and table["id"] in held
