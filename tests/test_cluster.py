"""Several ``tikki serve --cluster`` processes on one PostgreSQL database:
each live table is owned by exactly one of them (an advisory lock), a request that reaches
another process is forwarded to the owner (the table stays), and a killed process's tables
go on elsewhere (the orphan scan), with every acknowledged move kept and none twice.

Real processes: ``python -m tikki.cli serve --cluster --port 0``.  ``TIKKI_TEST_POSTGRES``
names the server; each test works in a schema of its own (the ``postgres_url`` fixture).
Without it these tests skip loudly, except under ``CI=true``, where they fail.
"""

from __future__ import annotations

import json
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from tests._server import auth, client, pick
from tikki.server.quota import Policy

GAME = {
    "game": "mattis",
    "players": 3,
    "seed": 424_242,
    "seats": [
        {"kind": "open"},
        {"kind": "bot", "bot": "heuristic"},
        {"kind": "bot", "bot": "heuristic"},
    ],
}
BOTS = {
    "game": "mattis",
    "players": 3,
    "seats": [{"kind": "bot", "bot": "heuristic"}] * 3,
}
PULLED = 45
"""Moves of the table two processes pull back and forth (about 15 by the person)."""
SLACK = 60.0
"""Seconds a test waits for something that takes well under a second here (a generous
bound for a loaded CI machine, never a timed assertion)."""


@contextmanager
def nodes(
    db_url: str, log: Path, names: list[str], *extra: str
) -> Iterator[list[tuple[subprocess.Popen[str], httpx.Client]]]:
    """``tikki serve --cluster --node NAME --port 0`` processes, all started before any is
    waited for, with an HTTP client each."""
    command = [sys.executable, "-m", "tikki.cli", "serve", "--cluster", "--port", "0"]
    command += ["--allow-client-seeds", "--create-rate", "10000"]
    command += ["--tables-per-address", "1000", "--max-bot-tables", "1000", *extra]
    procs = []
    with ExitStack() as stack:
        try:
            with log.open("a") as errors:
                for name in names:
                    procs.append(
                        subprocess.Popen(
                            [*command, "--node", name, "--db", db_url],
                            stdout=subprocess.PIPE,
                            stderr=errors,
                            text=True,
                        )
                    )
            out = []
            for name, proc in zip(names, procs, strict=True):
                assert proc.stdout is not None
                ready, _, _ = select.select([proc.stdout], [], [], SLACK)
                assert ready, f"node {name} did not start: {log.read_text()}"
                line = proc.stdout.readline()
                assert line.startswith("tikki web table: http://127.0.0.1:"), line + log.read_text()
                url = line.split(": ", 1)[1].strip()
                out.append((proc, stack.enter_context(httpx.Client(base_url=url, timeout=SLACK))))
            yield out
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.kill()
                proc.wait(10)
                if proc.stdout is not None:
                    proc.stdout.close()


@contextmanager
def node(
    db_url: str, log: Path, name: str, *extra: str
) -> Iterator[tuple[subprocess.Popen[str], httpx.Client]]:
    """One cluster process (:func:`nodes`)."""
    with nodes(db_url, log, [name], *extra) as started:
        yield started[0]


def sql(db_url: str, query: str, *args: Any) -> list[tuple[Any, ...]]:
    """Rows of one query in the test's schema."""
    import psycopg

    from tikki.server.cluster import libpq_url

    with psycopg.connect(libpq_url(db_url), autocommit=True) as conn:
        return list(conn.execute(query, args or None).fetchall())


def stored_moves(db_url: str, table_id: str) -> list[tuple[int, str]]:
    """A table's stored moves, (seq, move) in order."""
    rows = sql(
        db_url, "SELECT seq, move FROM tikki_moves WHERE table_id = %s ORDER BY seq", table_id
    )
    return [(int(r[0]), str(r[1])) for r in rows]


def contiguous(db_url: str) -> dict[str, int]:
    """Every table's move count; asserts that the seqs are 0..n-1 (no gap, none twice)."""
    rows = sql(
        db_url,
        "SELECT table_id, count(*), max(seq), count(DISTINCT seq) FROM tikki_moves "
        "GROUP BY table_id",
    )
    for table_id, count, top, distinct in rows:
        assert count == distinct == top + 1, (table_id, count, top, distinct)
    return {str(r[0]): int(r[1]) for r in rows}


def wait_for(check: Callable[[], Any], what: str, limit: float = SLACK) -> Any:
    """Poll ``check`` until it returns something true (fails after ``limit`` s)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"waited {limit:g} s for {what}")


def play_moves(http: httpx.Client, tid: str, token: str, count: int | None) -> int:
    """Play seat 0 for ``count`` of its moves (``None``: to the end); the table's seq."""
    played = 0
    deadline = time.monotonic() + SLACK
    while time.monotonic() < deadline:
        r = http.get(f"/api/tables/{tid}/state", headers=auth(token))
        assert r.status_code == 200, r.text
        mine = r.json()
        if mine["status"] == "finished" or (count is not None and played >= count):
            return int(mine["seq"])
        if not mine["view"]["legal_moves"]:
            time.sleep(0.01)
            continue
        body = {"move": pick(mine["view"], mine["seq"]), "seq": mine["seq"]}
        r = http.post(f"/api/tables/{tid}/moves", json=body, headers=auth(token))
        assert r.status_code == 200, r.text
        played += 1
    raise AssertionError("the game did not go on")


def start_game(http: httpx.Client) -> tuple[str, str]:
    r = http.post("/api/tables", json=GAME)
    assert r.status_code == 201, r.text
    tid = r.json()["table"]["id"]
    invite = r.json()["invites"][0]["url"].split("#invite=")[1]
    r = http.post(f"/api/tables/{tid}/seats/0", json={"name": "Anna", "invite": invite})
    assert r.status_code == 200, r.text
    return tid, r.json()["token"]


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The record of :data:`GAME` played in one process, without a cluster."""
    with client(tmp_path_factory.mktemp("reference"), client_seeds=True, policy=Policy()) as c:
        tid, token = start_game(c)
        play_moves(c, tid, token, None)
        record: dict[str, Any] = c.get(f"/api/tables/{tid}/record").json()
    assert "outcome" in record
    return record


def ws_url(http: httpx.Client, tid: str) -> str:
    base = urlsplit(str(http.base_url))
    return f"ws://{base.netloc}/ws/tables/{tid}"


def test_handover_between_two_processes(
    tmp_path: Path, postgres_url: str, reference: dict[str, Any]
) -> None:
    """A table made through one process and played through the other stays where it
    is: the other forwards every request to the owner, so there is no handover (the
    lock stays the first's, its WebSocket is never closed and sees every move); the game
    is the same move for move as in one process, every move stored once, in order."""
    from websockets.sync.client import connect

    log = tmp_path / "cluster.log"
    with ExitStack() as stack:
        _a, http_a = stack.enter_context(node(postgres_url, log, "a", "--bot-delay", "0"))
        _b, http_b = stack.enter_context(node(postgres_url, log, "b", "--bot-delay", "0"))
        tid, token = start_game(http_a)
        with connect(ws_url(http_a, tid)) as watcher:
            watcher.send(json.dumps({"type": "hello"}))
            assert json.loads(watcher.recv(SLACK))["type"] == "state"
            play_moves(http_a, tid, token, 3)
            seq = play_moves(http_b, tid, token, 3)  # forwarded to a: no handover
            assert held_locks(postgres_url, [tid])[tid] == ["tikki a"]
            lobby = http_b.get("/api/tables", params={"status": "playing"}).json()["tables"]
            assert next(t["seq"] for t in lobby if t["id"] == tid) >= seq  # b's lobby: a's
            play_moves(http_a, tid, token, 2)
            play_moves(http_b, tid, token, None)
            seen = json.loads(watcher.recv(SLACK))
            while seen["status"] != "finished":  # never closed: every move reaches it
                seen = json.loads(watcher.recv(SLACK))
        record = http_a.get(f"/api/tables/{tid}/record").json()
        assert http_b.get(f"/api/tables/{tid}/record").json() == record
        finished = http_b.get("/api/tables", params={"status": "finished"}).json()["tables"]
        assert tid in [t["id"] for t in finished]
    assert [h["move"] for h in seen["view"]["history"]] == record["moves"]
    assert record["moves"] == reference["moves"] and record["outcome"] == reference["outcome"]
    assert [m for _s, m in stored_moves(postgres_url, tid)] == record["moves"]
    contiguous(postgres_url)
    text = log.read_text()
    assert "handed table" not in text and "took over table" not in text, text[-3000:]
    assert "Traceback" not in text


def uninterrupted(seed: int) -> list[str]:
    """The moves of a bot-only :data:`BOTS` table played in one go (each bot's seed comes
    from the table seed, the seat and the seq, so a takeover changes nothing)."""
    from tikki.core import load
    from tikki.server import botplay

    game = load("mattis", 3)
    state = game.new_state(seed=seed)
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        view = state.view(seat)
        state.play(
            botplay.choose("heuristic", game, view, botplay.bot_seed(seed, seat, len(state.moves)))
        )
    return list(state.moves)


def test_kill_9_of_the_owner(tmp_path: Path, postgres_url: str) -> None:
    """``kill -9`` of the process that owns bot-only tables mid-game: the other claims
    them (nobody asks for them) and they finish; the moves stored before the kill are
    kept, every table's moves are contiguous, and each game is move for move the one
    played without a kill."""
    log = tmp_path / "cluster.log"
    with ExitStack() as stack:
        proc_a, http_a = stack.enter_context(node(postgres_url, log, "a", "--bot-delay", "0.05"))
        _b, http_b = stack.enter_context(node(postgres_url, log, "b", "--bot-delay", "0.05"))
        tables = []
        for i in range(8):
            r = http_a.post("/api/tables", json={**BOTS, "seed": 1000 + i})
            assert r.status_code == 201, r.text
            tables.append(r.json()["table"]["id"])
        wait_for(
            lambda: (
                all(n >= 5 for n in contiguous(postgres_url).values())
                and len(contiguous(postgres_url)) == 8
            ),
            "moves at every table",
        )
        proc_a.send_signal(signal.SIGKILL)
        proc_a.wait(10)
        before = {t: stored_moves(postgres_url, t) for t in tables}
        live = sql(postgres_url, "SELECT count(*) FROM tikki_tables WHERE status <> 'finished'")
        assert live[0][0] > 0  # (the database, not b: a request to b would take them over)

        def all_finished() -> bool:
            rows = sql(postgres_url, "SELECT count(*) FROM tikki_tables WHERE status <> 'finished'")
            return bool(rows[0][0] == 0)

        wait_for(all_finished, "every table to finish on the other process")
        counts = contiguous(postgres_url)
        assert any(len(stored_moves(postgres_url, t)) > len(before[t]) for t in tables)
        for t in tables:
            after = stored_moves(postgres_url, t)
            assert after[: len(before[t])] == before[t]
            assert counts[t] == len(after)
            seed = int(sql(postgres_url, "SELECT seed FROM tikki_tables WHERE id = %s", t)[0][0])
            assert [m for _s, m in after] == uninterrupted(seed)
            record = http_b.get(f"/api/tables/{t}/record").json()
            assert record["moves"] == [m for _s, m in after]
        lobby = http_b.get("/api/tables", params={"status": "finished", "limit": 50}).json()[
            "tables"
        ]
        assert set(tables) <= {t["id"] for t in lobby}
    assert "Traceback" not in log.read_text()


def seed_tables(db_url: str, count: int) -> list[str]:
    """Store ``count`` bot-only tables being played (no moves yet) straight through the
    Store, as a stopped process would have left them."""
    from tikki.core import load
    from tikki.server.db import Store, StoredSeat, StoredTable, now

    store = Store(db_url)
    store.create_schema()
    game = load("mattis", 3)
    ids = []
    for i in range(count):
        tid = f"race{i:04d}"
        seats = [StoredSeat(s, "bot", f"Bot {s}", "heuristic") for s in range(3)]
        options = {**game.options, "rules": game.rules}
        table = StoredTable(
            tid,
            game.name,
            3,
            game.options["variant"],
            options,
            5000 + i,
            "playing",
            now(),
            None,
            None,
            seats,
            [],
        )
        assert store.add_table(table)
        ids.append(tid)
    store.close()
    return ids


def held_locks(db_url: str, ids: list[str]) -> dict[str, list[str]]:
    """The application names of the sessions that hold each table's advisory lock."""
    from tikki.server.cluster import lock_key

    schema = sql(db_url, "SELECT current_schema()")[0][0]
    keys = {lock_key(schema, t): t for t in ids}
    rows = sql(
        db_url,
        "SELECT ((l.classid::bigint << 32) | l.objid::bigint)::bigint, a.application_name "
        "FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
        "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1",
    )
    held: dict[str, list[str]] = {t: [] for t in ids}
    for key, name in rows:
        signed = key - (1 << 64) if key >= 1 << 63 else key
        if signed in keys:
            held[keys[signed]].append(str(name))
    return held


def test_takeover_race_of_200_tables(tmp_path: Path, postgres_url: str) -> None:
    """Two processes start at once on a database with 200 unfinished tables: each table
    ends up owned by exactly one of them (pg_locks), and the tables play on without a
    move stored twice."""
    ids = seed_tables(postgres_url, 200)
    log = tmp_path / "cluster.log"
    with nodes(postgres_url, log, ["a", "b"], "--bot-delay", "0.5") as [(proc_a, _a), _b]:

        def all_held() -> dict[str, list[str]] | None:
            held = held_locks(postgres_url, ids)
            return held if all(held.values()) else None

        held = wait_for(all_held, "every table to have an owner")
        assert all(len(names) == 1 for names in held.values()), held
        assert {n for names in held.values() for n in names} <= {"tikki a", "tikki b"}
        wait_for(lambda: len(contiguous(postgres_url)) == 200, "a move at every table")
        live = [
            r[0]
            for r in sql(postgres_url, "SELECT id FROM tikki_tables WHERE status <> 'finished'")
        ]
        held = held_locks(postgres_url, live)
        assert all(len(names) == 1 for names in held.values()), held
        # A deliberate stop (SIGTERM) hands a's tables over: b soon holds every live one.
        proc_a.send_signal(signal.SIGTERM)
        assert proc_a.wait(SLACK) == 0

        def all_b() -> bool:
            live = [
                r[0]
                for r in sql(postgres_url, "SELECT id FROM tikki_tables WHERE status <> 'finished'")
            ]
            return all(names == ["tikki b"] for names in held_locks(postgres_url, live).values())

        wait_for(all_b, "b to hold every live table")
    contiguous(postgres_url)
    assert "Traceback" not in log.read_text()


def test_cluster_refuses_sqlite(tmp_path: Path) -> None:
    """``--cluster`` on SQLite: one clear line, no server."""
    command = [sys.executable, "-m", "tikki.cli", "serve", "--cluster", "--port", "0"]
    result = subprocess.run(
        [*command, "--db", f"sqlite:///{tmp_path / 'x.sqlite'}"],
        capture_output=True,
        text=True,
        timeout=SLACK,
    )
    assert result.returncode != 0
    assert "--cluster needs a PostgreSQL database" in result.stderr + result.stdout
    assert "Traceback" not in result.stderr


def test_a_move_another_process_stored_first_is_refused_as_stale(tmp_path: Path) -> None:
    """The ``(table_id, seq)`` key decides: when move N is already stored (by a process
    that owned the table a moment ago), this process's move N is refused as ``409
    stale``, nothing is stored twice, and the next request reads the table back with
    the stored move (the same code with and without ``--cluster``)."""
    from tests._server import app_state, create, join, state

    with client(tmp_path) as c:
        table = create(c, seed=11)["table"]
        tokens = [join(c, table["id"], 0, "Anna"), join(c, table["id"], 1, "Ben")]
        mine = state(c, table["id"], tokens[0])
        seq, legal = mine["seq"], mine["view"]["legal_moves"]
        store = app_state(c).manager.store
        store.add_move(table["id"], seq, 0, legal[0], None)  # "the other process"
        r = c.post(
            f"/api/tables/{table['id']}/moves",
            json={"move": legal[-1], "seq": seq},
            headers=auth(tokens[0]),
        )
        assert r.status_code == 409, r.text
        assert r.json()["detail"]["code"] == "stale"
        assert "another server stored move" in r.json()["detail"]["message"]
        again = state(c, table["id"], tokens[0])
        assert again["seq"] == seq + 1
        assert app_state(c).manager.tables[table["id"]].state.moves[-1] == legal[0]
        assert store.move_count(table["id"]) == seq + 1


def test_two_processes_pulling_one_table_answer_cleanly(tmp_path: Path, postgres_url: str) -> None:
    """The worst routing: one seat played through two processes at once, so the table is
    handed back and forth under moves in flight. Every answer is a clean one (200, or
    409/503 saying why: stale, moved, not your turn, moving), never a 500; the stored
    moves are contiguous and replay (the first :data:`PULLED` moves: enough handovers)."""
    import threading

    from tikki.core import load

    log = tmp_path / "cluster.log"
    answers: list[int] = []
    with nodes(postgres_url, log, ["a", "b"], "--bot-delay", "0") as [(_pa, http_a), (_pb, http_b)]:
        tid, token = start_game(http_a)
        clean = {200, 409, 503}

        def player(http: httpx.Client, salt: int) -> None:
            deadline = time.monotonic() + SLACK
            while time.monotonic() < deadline:
                r = http.get(f"/api/tables/{tid}/state", headers=auth(token))
                answers.append(r.status_code)
                if r.status_code != 200:
                    continue
                mine = r.json()
                if mine["status"] == "finished" or mine["seq"] >= PULLED:
                    return
                if not mine["view"]["legal_moves"]:
                    continue
                body = {"move": pick(mine["view"], mine["seq"], salt), "seq": mine["seq"]}
                r = http.post(f"/api/tables/{tid}/moves", json=body, headers=auth(token))
                answers.append(r.status_code)
                assert r.status_code in clean, r.text

        threads = [
            threading.Thread(target=player, args=(h, i)) for i, h in enumerate((http_a, http_b))
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert set(answers) <= clean, answers
        assert answers.count(200) > 20
    moves = stored_moves(postgres_url, tid)
    assert [s for s, _m in moves] == list(range(len(moves)))
    state = load("mattis", 3).new_state(seed=GAME["seed"])
    for _seq, move in moves:
        state.play(move)
    assert len(moves) >= PULLED
    assert "Traceback" not in log.read_text()


def test_the_table_caps_hold_for_the_whole_cluster(tmp_path: Path, postgres_url: str) -> None:
    """``--max-tables`` counts the live tables of every process (the database's), so a
    process that holds fewer than the cap itself still refuses one over it."""
    log = tmp_path / "cluster.log"
    with nodes(postgres_url, log, ["a", "b"], "--max-tables", "3") as [(_a, http_a), (_b, http_b)]:
        for http in (http_a, http_a, http_b):
            r = http.post("/api/tables", json={**GAME, "seed": None})
            assert r.status_code == 201, r.text
        r = http_a.post("/api/tables", json={**GAME, "seed": None})
        assert r.status_code == 429, r.text
        assert "3 live tables" in r.json()["detail"]["message"]
    assert "Traceback" not in log.read_text()
