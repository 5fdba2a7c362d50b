"""A tournament survives the loss of a process: two ``tikki serve --cluster`` processes
on one PostgreSQL database, a Swiss tournament of bots under way, ``kill -9`` of the
process running it (the holder of its lease) in the middle of a round (its tables made
and playing); the other takes
the tournament over when the lease runs out, and the killed process's tables too (the
orphan scan), and plays it to the end: every round seated once, every table finished
and scored from its stored outcome, nothing twice.  Skips loudly without
``TIKKI_TEST_POSTGRES`` (fails under ``CI=true``), like the other cluster tests."""

from __future__ import annotations

import json
import signal
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from tests.test_cluster import nodes, sql, wait_for
from tikki.server.accounts import CSRF_COOKIE

PASSWORD = "correct horse battery"


def sign_up(http: httpx.Client, name: str) -> dict[str, str]:
    """Register ``name`` on this client (its cookies kept); the CSRF header."""
    assert http.get("/api/account").status_code == 200
    headers = {"X-CSRF-Token": http.cookies[CSRF_COOKIE]}
    r = http.post("/api/account/register", json={"name": name, "password": PASSWORD},
                  headers=headers)  # fmt: skip
    assert r.status_code == 201, r.text
    return {"X-CSRF-Token": http.cookies[CSRF_COOKIE]}  # the session's own


def place_points(outcome: dict[str, Any]) -> list[float]:
    """Points by place from a scored game's outcome (worked out here)."""
    scores = outcome["scores"]
    return [float(sum(1 for o in scores if o <= s) - 1) for s in scores]


def test_a_tournament_goes_on_after_its_runner_is_killed(tmp_path: Path, postgres_url: str) -> None:
    log = tmp_path / "cluster.log"
    with ExitStack() as stack:
        (proc_a, http_a), (proc_b, http_b) = stack.enter_context(
            nodes(postgres_url, log, ["a", "b"], "--bot-delay", "0.05")
        )
        headers = sign_up(http_a, "Anna")
        starts = (datetime.now(UTC) + timedelta(seconds=2)).isoformat()
        body = {"name": "Cluster cup", "game": "mueckenstich", "players": 3, "rounds": 3,
                "options": {"rounds": 1}, "starts": starts, "cap": 9}  # fmt: skip
        r = http_a.post("/api/tournaments", json=body, headers=headers)
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        r = http_a.post(f"/api/tournaments/{tid}/bots", json={"bot": "random", "count": 9},
                        headers=headers)  # fmt: skip
        assert r.status_code == 200, r.text

        def second_round_playing() -> bool:
            """Every table of round 2 made and noted, one at least not finished."""
            rows = sql(postgres_url, "SELECT count(table_id), count(*) - count(points) "
                       "FROM tikki_tournament_games WHERE round = 2")  # fmt: skip
            return bool(rows[0][0] == 3 and rows[0][1] > 0)

        wait_for(second_round_playing, "the second round to be playing", 120)
        runner = sql(postgres_url, "SELECT lease_node FROM tikki_tournaments")[0][0]
        killed, survivor, other = (proc_a, "b", http_b) if runner == "a" else (proc_b, "a", http_a)
        killed.send_signal(signal.SIGKILL)
        killed.wait(10)
        assert sql(postgres_url, "SELECT status FROM tikki_tournaments")[0][0] == "running"

        def finished() -> bool:
            status = sql(postgres_url, "SELECT status FROM tikki_tournaments")[0][0]
            return bool(status == "finished")

        wait_for(finished, "the tournament to finish on the other process", 180)
        assert sql(postgres_url, "SELECT lease_node FROM tikki_tournaments")[0][0] == survivor
        found = other.get(f"/api/tournaments/{tid}").json()
    games = sql(postgres_url, "SELECT round, seats, table_id, points FROM tikki_tournament_games")
    assert sorted(int(g[0]) for g in games) == [1, 1, 1, 2, 2, 2, 3, 3, 3]
    totals: dict[int, float] = {}
    for n_round in (1, 2, 3):
        seated = [e for g in games if g[0] == n_round for e in _json(g[1])]
        assert sorted(seated) == sorted(e["id"] for e in found["entrants"])
    for _round, seats, table_id, points in games:
        row = sql(postgres_url, "SELECT status, outcome FROM tikki_tables WHERE id = %s", table_id)
        assert row[0][0] == "finished"
        mine = place_points(_json(row[0][1]))
        assert _json(points) == mine
        for entrant, p in zip(_json(seats), mine, strict=True):
            totals[entrant] = totals.get(entrant, 0.0) + p
    tables = sql(postgres_url, "SELECT count(*) FROM tikki_tables")[0][0]
    assert tables == 9  # no table made twice
    assert {line["entrant"]: line["points"] for line in found["standings"]} == totals
    assert "Traceback" not in log.read_text()


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value
