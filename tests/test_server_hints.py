"""Hints are the crowd's work, shared per position: every ask for one (table, seq)
waits on the same search, a position already hinted answers at once, and the search
waits its turn in the asking address's lane among the crowd's work (behind people's
bots), never in the people's pool.  No timing is asserted."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from tests._server import TestClient, app_state, auth, client, create, join, state
from tikki.server.tables import Table


def seated(c: TestClient) -> tuple[Table, int, str]:
    """A two-person table whose seat 0 is to act: (table, seat, token)."""
    table_id = create(c, seed=3)["table"]["id"]
    tokens = [join(c, table_id, 0, "Anna"), join(c, table_id, 1, "Bert")]
    seat = state(c, table_id, tokens[0])["view"]["to_act"]
    table = app_state(c).manager.tables[table_id]
    return table, seat, tokens[seat]


def spy(c: TestClient) -> tuple[list[tuple[str, bool]], list[Any]]:
    """Record the search slots taken (lane, people) and the crowd pool's runs; the runs
    answer the first legal move after the test lets them (an event)."""
    bots = app_state(c).manager.bots
    slots: list[tuple[str, bool]] = []
    runs: list[Any] = []
    slot = bots.search_slots.slot

    @asynccontextmanager
    async def slot_spy(lane: str, key: str, people: bool = True) -> AsyncIterator[None]:
        slots.append((lane, people))
        async with slot(lane, key, people):
            yield

    async def run(_fn: Any, task: Any, *_args: Any) -> str:
        runs.append(task)
        await asyncio.sleep(0.05)  # long enough for the other asks to arrive
        return str(task[4]["legal_moves"][0])

    async def people(*_args: Any) -> str:
        raise AssertionError("a hint ran in the people's pool")

    bots.search_slots.slot = slot_spy
    bots.crowd_searches.run = run
    bots.searches.run = people
    return slots, runs


def test_asks_for_one_position_share_one_search(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        table, seat, _token = seated(c)
        slots, runs = spy(c)
        manager = app_state(c).manager

        async def asks() -> list[str]:
            return list(
                await asyncio.gather(*(manager.hint(table, seat, f"10.8.0.{i}") for i in range(5)))
            )

        assert c.portal is not None
        moves = c.portal.call(asks)
        assert len(runs) == 1 and len(set(moves)) == 1  # one search, one answer for all
        assert slots == [("10.8.0.0", False)]  # the first asker's lane, the crowd's share
        # a later ask for the same position answers at once, without a search
        assert c.portal.call(manager.hint, table, seat, "10.8.0.9") == moves[0]
        assert len(runs) == 1


def test_a_hint_by_http_waits_in_the_asking_addresss_lane(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        table, _seat, token = seated(c)
        slots, runs = spy(c)
        asker = TestClient(c.app, client=("10.9.0.1", 50000))
        r = asker.post(f"/api/tables/{table.id}/hint", headers=auth(token))
        assert r.status_code == 200, r.text
        assert slots == [("10.9.0.1", False)] and len(runs) == 1
        again = c.post(f"/api/tables/{table.id}/hint", headers=auth(token))
        assert again.json()["move"] == r.json()["move"] and len(runs) == 1
