"""A group commit on its DBAPI connection (:meth:`tikki.server.db.Store.add_moves`): the rows
are those SQLAlchemy's statements wrote, a refused group stores nothing, and a group that
breaks midway leaves nothing pending on the connection the next group uses."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.test_group_commit import stored
from tikki.server import db
from tikki.server.db import MoveConflict, MoveWrite, Store


def _moves(store: Store, table_id: str) -> list[str]:
    loaded = store.load(table_id)
    assert loaded is not None
    return list(loaded.moves)


def _rows(path: Path, query: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path / "moves.sqlite") as connection:
        return list(connection.execute(query))


def test_the_group_path_writes_the_rows_the_single_path_writes(tmp_path: Path) -> None:
    """A move stored in a group and one stored alone (SQLAlchemy's statements) are the
    same rows: the date-times as the same text, the lobby line's flag as 0 or 1."""
    store = stored(tmp_path, 2)
    assert store.add_moves([MoveWrite("t0", 0, 1, "7H", None, 2, True)]) == [None]
    store.add_move("t1", 0, 1, "7H", None, to_act=2, played=True)
    moves = _rows(tmp_path, "SELECT table_id, seq, seat, move, time FROM tikki_moves")
    lines = _rows(tmp_path, "SELECT * FROM tikki_table_summaries ORDER BY table_id")
    assert [m[1:4] for m in moves] == [(0, 1, "7H"), (0, 1, "7H")]
    assert {type(m[4]) for m in moves} == {str} and {len(m[4]) for m in moves} == {26}
    assert [line[1:3] + line[4:] for line in lines] == [(1, 2, 1), (1, 2, 1)]
    assert {len(line[3]) for line in lines} == {26}
    assert _moves(store, "t0") == _moves(store, "t1") == ["7H"]


def test_a_refused_group_stores_the_others(tmp_path: Path) -> None:
    """A move whose number is taken refuses that move only (the group's others stored)."""
    store = stored(tmp_path, 2)
    assert store.add_moves([MoveWrite("t0", 0, 0, "a", None, 1, False)]) == [None]
    results = store.add_moves(
        [MoveWrite("t0", 0, 0, "a", None, 1, False), MoveWrite("t1", 0, 0, "b", None, 1, False)]
    )
    assert isinstance(results[0], MoveConflict) and results[1] is None
    assert (_moves(store, "t0"), _moves(store, "t1")) == (["a"], ["b"])


def test_a_group_that_breaks_midway_leaves_nothing_pending(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A group whose lobby lines fail after its moves were inserted (not a driver's
    error) raises, and the next group commits only its own move."""
    store = stored(tmp_path, 2)
    assert store.add_moves([MoveWrite("t0", 0, 0, "a", None, 1, False)]) == [None]
    real = db.Prepared.execute
    broke: list[bool] = []

    def breaking(self: db.Prepared, cursor: Any, rows: list[dict[str, Any]]) -> None:
        if "tikki_table_summaries" in self.sql and not broke:
            broke.append(True)
            raise RuntimeError("broken midway")
        real(self, cursor, rows)

    monkeypatch.setattr(db.Prepared, "execute", breaking)
    with pytest.raises(RuntimeError):
        store.add_moves([MoveWrite("t0", 1, 1, "lost", None, 2, False)])
    assert store.add_moves([MoveWrite("t1", 0, 0, "b", None, 1, False)]) == [None]
    assert (_moves(store, "t0"), _moves(store, "t1")) == (["a"], ["b"])
    store.close()
