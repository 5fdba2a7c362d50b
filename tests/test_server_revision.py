"""The web table keeps a game's rulings revision: a table stored under r1 (before tables
stored their revision) is rebuilt after a restart under r1 and finishes under r1; a new
table stores and plays the current revision; ``rules`` is not a table option."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import tikki
from tests._server import auth, client, create, error_of
from tikki.server.db import Store, StoredSeat, StoredTable, now
from tikki.server.tables import hash_token

TOKENS = ["token-a", "token-b", "token-c"]
OPTIONS: dict[str, Any] = {"max_moves": 80}


def r1_only_game() -> tuple[int, list[str]]:
    """A seeded Mattis game of r1 whose moves so far are illegal under r2 (AM-5)."""
    for seed in range(100):
        state = tikki.load("mattis", rules="r1", **OPTIONS).new_state(seed=seed)
        check = tikki.load("mattis", **OPTIONS).new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            move = rng.choice(state.legal_moves())
            state.play(move)
            if move not in check.legal_moves():
                return seed, state.moves
            check.play(move)
    raise AssertionError("no r1 game in the sample left r2 behind")


def test_a_table_stored_under_r1_finishes_under_r1(tmp_path: Path) -> None:
    seed, moves = r1_only_game()
    game = tikki.load("mattis", rules="r1", **OPTIONS)
    store = Store(f"sqlite:///{tmp_path / 'web.sqlite'}")
    store.create_schema()
    seats = [StoredSeat(s, "human", f"P{s}", None, hash_token(TOKENS[s])) for s in range(3)]
    row = StoredTable(
        "r1table", "mattis", 3, "standard", game.options, seed, "playing", now(), None, None,
        seats, [],
    )  # fmt: skip
    assert "rules" not in row.options, "a row from before the revisions were stored"
    assert store.add_table(row)
    reference = game.new_state(seed=seed)
    for i, move in enumerate(moves):
        store.add_move("r1table", i, reference.current_player or 0, move, None)
        reference.play(move)
    store.close()
    with client(tmp_path) as c:
        while not reference.is_over:
            seat = reference.current_player
            assert seat is not None
            message = c.get("/api/tables/r1table/state", headers=auth(TOKENS[seat])).json()
            assert sorted(message["view"]["legal_moves"]) == sorted(reference.legal_moves())
            move = reference.legal_moves()[-1]
            r = c.post(
                "/api/tables/r1table/moves",
                json={"move": move, "seq": message["seq"]},
                headers=auth(TOKENS[seat]),
            )
            assert r.status_code == 200, r.text
            reference.play(move)
        record = c.get("/api/tables/r1table/record").json()
    assert record["rules"] == "r1" and record["moves"] == reference.moves
    assert tikki.replay(record).outcome == reference.outcome


def test_a_new_table_stores_the_current_revision(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        table = create(c, "mattis", [{"kind": "open"}] * 3)["table"]
        r = c.post(
            "/api/tables",
            json={"game": "mattis", "seats": [{"kind": "open"}] * 3, "options": {"rules": "r1"}},
        )
        status, code, message = error_of(r)
        assert (status, code) == (400, "bad_options") and "rules is not an option" in message
    store = Store(f"sqlite:///{tmp_path / 'web.sqlite'}")
    stored = store.load(table["id"])
    store.close()
    assert stored is not None and stored.options["rules"] == tikki.RULES_REVISION


def test_memory_aids_is_a_stored_mueckenstich_table_option(tmp_path: Path) -> None:
    """MS-12: the table option "memory aids" (off by default) is stored with the table,
    shown in TABLE, kept over a restart, and refused for the other games."""
    seats = [{"kind": "open"}] * 3
    with client(tmp_path) as c:
        plain = create(c, "mueckenstich", seats)["table"]
        aided = create(c, "mueckenstich", seats, memory_aids=True)["table"]
        assert plain["memory_aids"] is False and aided["memory_aids"] is True
        r = c.post("/api/tables", json={"game": "mattis", "seats": seats, "memory_aids": True})
        status, code, message = error_of(r)
        assert (status, code) == (400, "bad_options") and "Mückenstich table option" in message
    with client(tmp_path) as c:
        again = c.get(f"/api/tables/{aided['id']}").json()
        assert again["memory_aids"] is True and again["rules"] == tikki.RULES_REVISION
        assert c.get(f"/api/tables/{plain['id']}").json()["memory_aids"] is False
