"""A tournament survives the loss of a process: two ``tikki serve --cluster`` processes
on one PostgreSQL database, a tournament under way (a Swiss one of bots; an arena of
bots and a person playing over HTTP), ``kill -9`` of the process running it (the holder
of its lease) while its tables are playing; the other takes the tournament over when
the lease runs out, and the killed process's tables too (the orphan scan), and plays it
to the end: every table finished and scored from its stored outcome, nothing twice.
Skips loudly without ``TIKKI_TEST_POSTGRES`` (fails under ``CI=true``), like the other
cluster tests."""

from __future__ import annotations

import json
import signal
import time
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from pathlib import Path
from typing import Any

import httpx

from tests._server import auth, pick
from tests.test_cluster import SLACK, nodes, sql, wait_for
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


def play_once(http: httpx.Client, tid: str) -> int:
    """One move of the signed-in person at their table of tournament ``tid`` if it is
    theirs to play (their seat fetched from the tournament); the moves played, 0 or 1."""
    r = http.get(f"/api/tournaments/{tid}/seat")
    if r.status_code != 200:
        return 0
    table_id, token = r.json()["table"]["id"], r.json()["token"]
    r = http.get(f"/api/tables/{table_id}/state", headers=auth(token))
    if r.status_code != 200:
        return 0
    state = r.json()
    if state["status"] != "playing" or not state["view"]["legal_moves"]:
        return 0
    body = {"move": pick(state["view"], state["seq"]), "seq": state["seq"]}
    r = http.post(f"/api/tables/{table_id}/moves", json=body, headers=auth(token))
    return int(r.status_code == 200)


def play_until(http: httpx.Client, tid: str, done: Any, what: str, limit: float = SLACK) -> int:
    """Play the person's moves in ``tid`` until ``done()``; the moves played."""
    moves = 0
    deadline = time.monotonic() + limit
    while not done():
        assert time.monotonic() < deadline, f"waited {limit:g} s for {what}"
        played = play_once(http, tid)
        moves += played
        if not played:
            time.sleep(0.02)
    return moves


def test_an_arena_goes_on_after_its_runner_is_killed(tmp_path: Path, postgres_url: str) -> None:
    """An arena of 30 minutes with 20 entrants (tables of 3): Anna, playing over HTTP
    through the process that does not run it (then through the survivor), and 19 Easy
    bots.  Once
    tables have finished and others play, ``kill -9`` of the lease holder; its tables
    are taken over by the other process, which takes the lease and seats new tables
    until the clock ends (the test brings the end to 30 s after the kill by moving the
    stored start back 29.5 minutes).  Then every table seated
    before the end is finished and counted once, none seated after; nobody sits at two
    tables at once; each table's points are its stored outcome's; the standings are
    the sums; no traceback in the log."""
    log = tmp_path / "cluster.log"
    with ExitStack() as stack:
        (proc_a, http_a), (proc_b, http_b) = stack.enter_context(
            nodes(postgres_url, log, ["a", "b"], "--bot-delay", "0.05")
        )
        headers = sign_up(http_a, "Anna")
        for cookie in http_a.cookies.jar:  # Anna signed in on both processes
            http_b.cookies.jar.set_cookie(cookie)
        starts = (datetime.now(UTC) + timedelta(seconds=2)).isoformat()
        body = {"name": "Cluster arena", "kind": "arena", "game": "mueckenstich",
                "players": 3, "options": {"rounds": 1}, "minutes": 30, "starts": starts,
                "cap": 20}  # fmt: skip
        r = http_a.post("/api/tournaments", json=body, headers=headers)
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        assert http_a.post(f"/api/tournaments/{tid}/join", headers=headers).status_code == 200
        r = http_a.post(f"/api/tournaments/{tid}/bots", json={"bot": "random", "count": 19},
                        headers=headers)  # fmt: skip
        assert r.status_code == 200, r.text
        runner = wait_for(
            lambda: sql(postgres_url, "SELECT lease_node FROM tikki_tournaments")[0][0],
            "the arena to start",
        )
        far = {"a": http_b, "b": http_a}[runner]  # the runner holds its tables: Anna
        # plays through the other process (her seat read there, her moves forwarded)

        def under_way() -> bool:
            """Tables scored, and tables playing that the runner made."""
            rows = sql(postgres_url, "SELECT count(points), count(table_id) - count(points) "
                       "FROM tikki_tournament_games")  # fmt: skip
            return bool(rows[0][0] >= 3 and rows[0][1] >= 2)

        moves = play_until(far, tid, under_way, "tables to finish and others to play")
        assert moves > 0  # her seat and table found through the process not holding it
        playing = {g[0] for g in sql(postgres_url, "SELECT table_id FROM tikki_tournament_games "
                                     "WHERE points IS NULL AND table_id IS NOT NULL")}  # fmt: skip
        killed, survivor, other = (proc_a, "b", http_b) if runner == "a" else (proc_b, "a", http_a)
        killed.send_signal(signal.SIGKILL)
        killed.wait(10)
        kill = datetime.now(UTC).replace(tzinfo=None)
        earlier = (kill + timedelta(seconds=30) - timedelta(minutes=30)).replace(microsecond=0)
        sql(postgres_url, "UPDATE tikki_tournaments SET starts = %s RETURNING id", earlier)

        def finished() -> bool:
            status = sql(postgres_url, "SELECT status FROM tikki_tournaments")[0][0]
            return bool(status == "finished")

        moves += play_until(
            other, tid, finished, "the arena to finish on the other process", 3 * SLACK
        )
        assert sql(postgres_url, "SELECT lease_node FROM tikki_tournaments")[0][0] == survivor
        found = other.get(f"/api/tournaments/{tid}").json()
    assert moves > 0
    ends = datetime.fromisoformat(found["ends"].rstrip("Z"))
    games = sql(postgres_url, "SELECT g.seats, g.table_id, g.points, g.created, t.status, "
                "t.outcome, t.created, t.finished FROM tikki_tournament_games g "
                "LEFT JOIN tikki_tables t ON t.id = g.table_id")  # fmt: skip
    assert all(g[4] == "finished" for g in games), games  # every table made and played out
    assert playing <= {g[1] for g in games if g[2] is not None}  # the killed one's too
    assert any(g[3] > kill for g in games)  # the survivor seated tables
    assert all(g[3] < ends for g in games), (ends, games)  # none after the end
    totals: dict[int, float] = {}
    sittings: dict[int, list[tuple[datetime, datetime]]] = {}
    for seats, _table, points, _seated, _status, outcome, began, over in games:
        assert _json(points) == place_points(_json(outcome))
        for entrant, p in zip(_json(seats), _json(points), strict=True):
            totals[entrant] = totals.get(entrant, 0.0) + p
            sittings.setdefault(entrant, []).append((began, over))
    for entrant, spans in sittings.items():
        spans.sort()
        assert all(a[1] <= b[0] for a, b in pairwise(spans)), entrant  # one at a time
    anna = next(e["id"] for e in found["entrants"] if not e["bot"])
    assert anna in sittings
    assert sql(postgres_url, "SELECT count(*) FROM tikki_tables")[0][0] == len(games)
    lines = {line["entrant"]: (line["points"], line["games"]) for line in found["standings"]}
    assert set(lines) == {e["id"] for e in found["entrants"]} and len(lines) == 20
    assert lines == {e: (totals.get(e, 0.0), len(sittings.get(e, []))) for e in lines}
    assert "Traceback" not in log.read_text()


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value
