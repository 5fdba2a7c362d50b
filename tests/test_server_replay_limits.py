"""Replays are bounded: a record of too many moves is refused in words, answers are
built off the event loop (in a crowd worker), a finished table's answers and an
uploaded record's are cached within bounds, and each address may have only so many
built a minute.  No timing is asserted."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from tests._server import TestClient, app_state, client, error_of
from tests.test_server_analysis import finished_table
from tikki.core import load
from tikki.server import replay
from tikki.server.replay import MAX_MOVES, Cache


def long_record(moves: int = 9800) -> dict[str, Any]:
    """A legal Myllymatti record of about ``moves`` moves (four players taking the
    trick again and again, ``max_moves`` raised): some 58 KB of JSON."""
    game = load("myllymatti", 4, max_moves=10_000)
    state = game.new_state(seed=2)
    rng = random.Random(2)
    while not state.is_over and len(state.moves) < moves:
        legal = state.legal_moves()
        cards = [m for m in legal if m != "take"]
        state.play(
            "take" if "take" in legal and rng.random() < 0.97 else rng.choice(cards or legal)
        )
    return dict(state.record())


def inline(c: TestClient) -> None:
    """Build replays in the test's own process (the route's logic, not the pool's)."""

    async def run(_address: str, _key: str, fn: Any, args: tuple[Any, ...]) -> Any:
        return fn(*args)

    app_state(c).replays.runner = run


def test_a_record_of_thousands_of_moves_is_refused_in_words(tmp_path: Path) -> None:
    record = long_record()
    assert len(record["moves"]) > 9000
    assert len(json.dumps(record, separators=(",", ":"))) < replay.MAX_RECORD  # it fits
    with client(tmp_path) as c:
        inline(c)
        r = c.post("/api/replay", json=record)
        status, code, message = error_of(r)
        assert (status, code) == (422, "too_long")
        assert f"{len(record['moves'])} moves" in message and str(MAX_MOVES) in message
        r = c.post("/api/replay", json=record, headers={"Accept-Language": "fi"})
        assert error_of(r)[1] == "too_long" and "siirtoa" in error_of(r)[2]
        assert app_state(c).replays.built == 0  # refused before anything was built


def test_a_body_over_the_record_limit_is_413(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        record = long_record()
        record["padding"] = "x" * replay.MAX_RECORD
        status, code, _message = error_of(c.post("/api/replay", json=record))
        assert (status, code) == (413, "too_large")


def test_a_finished_tables_replay_is_built_once_off_the_event_loop(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        table_id, _record = finished_table(c)
        replays = app_state(c).replays
        assert replays.runner == app_state(c).manager.bots.crowd_run
        first = c.get(f"/api/tables/{table_id}/replay", params={"seat": "all"})
        assert first.status_code == 200, first.text
        assert app_state(c).manager.bots.crowd_searches._executor is not None  # a worker built it
        for _ in range(3):
            again = c.get(f"/api/tables/{table_id}/replay", params={"seat": "all"})
            assert again.json() == first.json()
        assert replays.built == 1 and len(replays.cache) == 1
        c.get(f"/api/tables/{table_id}/replay", params={"seat": "0"})
        assert replays.built == 2  # another view is another answer


def test_each_address_has_so_many_replays_built_a_minute(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        inline(c)
        table_id, record = finished_table(c)
        replays = app_state(c).replays
        replays.per_address.clock = lambda: 0.0  # no token comes back while the test runs
        codes = []
        for i in range(int(replay.REPLAY_BURST) + 1):
            record["seed_note"] = i  # another record each time: no cached answer
            codes.append(c.post("/api/replay", json=record).status_code)
        assert codes == [200] * int(replay.REPLAY_BURST) + [429]
        r = c.post("/api/replay", json=record)
        status, code, message = error_of(r)
        assert (status, code) == (429, "rate_limited") and "replays" in message
        assert int(r.headers["Retry-After"]) >= 1
        # an answer already built costs nothing, and another address has its own
        record["seed_note"] = 0
        assert c.post("/api/replay", json=record).status_code == 200
        other = TestClient(c.app, client=("10.7.0.7", 50000))
        assert other.get(f"/api/tables/{table_id}/replay").status_code == 200


def test_the_cache_is_bounded_in_answers_and_bytes() -> None:
    cache = Cache(entries=3, size=4000)
    for i in range(5):
        cache.put(f"k{i}", (b"x" * 100, b"y" * 10))
    assert len(cache) == 3 and cache.get("k0") is None and cache.get("k4") is not None
    assert cache.held == 3 * 110
    cache.get("k2")  # used: kept before k3
    cache.put("big", (b"x" * 900, b"y" * 100))
    cache.put("k5", (b"x" * 900, b"y" * 100))
    assert cache.get("k2") is not None and cache.get("k3") is None
    cache.put("huge", (b"x" * 2000, b"y"))  # over a quarter of the bytes: not kept
    assert cache.get("huge") is None and cache.held <= 4000
    many = Cache(entries=1000, size=5000)
    for i in range(100):
        many.put(f"k{i}", (b"x" * 500, b"y" * 500))
    assert many.held <= 5000 and len(many) == 5


@pytest.mark.parametrize("seat", ["0", "all"])
def test_an_uploaded_unfinished_record_still_shows_no_hidden_card(
    tmp_path: Path, seat: str
) -> None:
    record = long_record(60)
    with client(tmp_path) as c:
        inline(c)
        status, code, _message = error_of(c.post("/api/replay", json=record, params={"seat": seat}))
        assert (status, code) == (409, "not_finished")
        assert c.post("/api/replay", json=record).status_code == 200
