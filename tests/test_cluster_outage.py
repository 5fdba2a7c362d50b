"""A cluster process whose PostgreSQL connections are all cut at once (what a PostgreSQL
restart does to it; here ``pg_terminate_backend``, which needs no superuser): its lock
and listen connections are made again, it takes its tables back, and no request gets a
500 or a traceback meanwhile.

``TIKKI_TEST_POSTGRES`` names the server (see ``tests/test_cluster.py``)."""

from __future__ import annotations

import time
import uuid
from pathlib import Path

import httpx

from tests._server import auth, pick
from tests.test_cluster import GAME, SLACK, contiguous, node, sql, start_game, wait_for
from tests.test_metrics import samples

GOOD = {200, 201}
"""Answers that did what was asked."""


def cut(db_url: str, tag: str) -> int:
    """End every PostgreSQL session whose ``application_name`` holds ``tag``; how many."""
    rows = sql(
        db_url,
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
        "WHERE application_name LIKE %s AND pid <> pg_backend_pid()",
        f"%{tag}%",
    )
    return sum(1 for (done,) in rows if done)


def clean(r: httpx.Response) -> bool:
    """A good answer, or a refusal that says to try again (503 with ``Retry-After``, or a
    409 that says why); never a 500."""
    if r.status_code in GOOD:
        return True
    if r.status_code == 503:
        assert int(r.headers["Retry-After"]) >= 1, r.headers
        return False
    assert r.status_code == 409 and r.json()["detail"]["code"] in ("moved", "stale"), r.text
    return False


def move_once(http: httpx.Client, tid: str, token: str) -> int:
    """Play one move of seat 0 (asking again while refused cleanly); the new seq."""
    deadline = time.monotonic() + SLACK
    while time.monotonic() < deadline:
        r = http.get(f"/api/tables/{tid}/state", headers=auth(token))
        if not clean(r) or not r.json()["view"]["legal_moves"]:
            time.sleep(0.05)
            continue
        mine = r.json()
        body = {"move": pick(mine["view"], mine["seq"]), "seq": mine["seq"]}
        r = http.post(f"/api/tables/{tid}/moves", json=body, headers=auth(token))
        if clean(r):
            return int(mine["seq"]) + 1
    raise AssertionError("no move went through")


def test_a_process_whose_connections_are_cut_makes_them_again(
    tmp_path: Path, postgres_url: str
) -> None:
    tag = f"cut{uuid.uuid4().hex[:10]}"
    url = f"{postgres_url}&application_name={tag}"  # the pool's sessions carry the tag too
    log = tmp_path / "cluster.log"
    with node(url, log, tag, "--bot-delay", "0") as (_proc, http):
        tid, token = start_game(http)
        move_once(http, tid, token)
        assert cut(postgres_url, tag) >= 2  # at least the lock and the listen connections
        # at once: a new table needs a lock, on a connection made again on the spot
        r = http.post("/api/tables", json={**GAME, "seed": None})
        assert r.status_code == 201, r.text
        lobby = http.get("/api/tables")
        assert lobby.status_code == 200, lobby.text
        seq = move_once(http, tid, token)
        seq = max(seq, move_once(http, tid, token))
        wait_for(lambda: http.get("/healthz").status_code == 200, "the health check")
        counts = {
            name: value for (name, _labels), value in samples(http.get("/metrics").text).items()
        }
        assert counts["tikki_reconnects_total"] >= 1, counts
        assert counts["tikki_lock_losses_total"] >= 1, counts
        assert counts["tikki_takeovers_total"] >= 1, counts
        # the old connections are gone, new ones hold the table's lock
        holders = sql(
            postgres_url,
            "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND a.application_name = %s",
            f"tikki {tag}",
        )
        assert holders[0][0] >= 1
        # cut again while nothing happens: the listen connection is made again, too
        assert cut(postgres_url, tag) >= 2
        wait_for(
            lambda: (
                sql(
                    postgres_url,
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
                    f"tikki {tag}",
                )[0][0]
                >= 2
            ),
            "the lock and listen connections to be made again",
        )
        assert move_once(http, tid, token) > seq
    assert contiguous(postgres_url)[tid] >= seq
    text = log.read_text()
    assert "Traceback" not in text and "AttributeError" not in text, text[-3000:]
