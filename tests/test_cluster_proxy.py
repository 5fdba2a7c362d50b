"""Three ``tikki serve --cluster`` processes on one PostgreSQL behind nginx
(``deploy/nginx.conf``, rendered by :mod:`tikki.server.cluster_run`), people and bot
tables spread over them, and ``kill -9`` of one process under load.

People play seat 0 of two-seat Myllymatti tables against a bot, some over a WebSocket,
some over HTTP, always through the proxy; other tables are bots only. After a warm-up
the process that holds the most live tables is killed with SIGKILL. Then:

- every table it held plays again (a move is stored) within :data:`PLAYS_AGAIN_WITHIN`
  seconds (the issue's target is 5 s for 200 tables; the time is printed);
- the people's clients reconnect through the proxy and play on;
- every move a person saw acknowledged (a state with a higher ``seq`` after it, or the
  HTTP answer) is stored at its ``seq``: 0 acknowledged moves lost;
- every table's stored moves are numbered 0, 1, 2, … without a gap or a repeat (no
  double move), and each one that is not over still answers through the proxy;
- right afterwards, each remaining process's lobby lists every live table, and a table
  created after the kill shows in every process's lobby;
- the killed process started again takes no table for a request (the requests nginx
  now hashes to it are forwarded to the owners and answered); ``tikki cluster
  rebalance`` hands it its share, and every live table is held and answers.

Needs nginx (``.ci/services.sh`` installs it) and ``TIKKI_TEST_POSTGRES``; without either
it is skipped loudly, except under ``CI=true``, where it fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shutil
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tikki.server.cluster_run import Cluster, free_ports, tail

NODES = 3
BOT_DELAY = 0.15
WS_PEOPLE = 6
HTTP_PEOPLE = 3
BOT_TABLES = 9
WARM_UP = 3.0
"""Seconds of play before the kill."""
AFTER = 8.0
"""Seconds of play after the kill."""
PLAYS_AGAIN_WITHIN = 15.0
"""The bound this test asserts (generous for a busy CI machine; the target is 5 s)."""
OPEN = ["--create-rate", "1e6", "--join-rate", "1e6", "--tables-per-address", "100000"]
OPEN += ["--waiting-per-address", "100000", "--max-bot-tables", "100000"]
OPEN += ["--connect-rate", "1e6", "--read-rate", "1e6", "--watchers-per-address", "100000"]
OPEN += ["--allow-bot-specs", "--bot-workers", "1"]


def nginx_or_skip() -> str:
    """nginx's path; a loud skip (a failure under CI) without it."""
    path = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.path.exists(path):
        reason = "nginx is not installed: the cluster failure test did NOT run (.ci/services.sh)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return path


@dataclass
class Person:
    """One simulated person at seat 0 of a table, and what the server acknowledged."""

    table: str
    token: str
    acked: dict[int, str] = field(default_factory=dict)
    """seq -> the move this person saw stored there."""
    reconnects: int = 0
    errors: list[str] = field(default_factory=list)
    over: bool = False


async def new_table(http: httpx.AsyncClient, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """Create a table through the proxy."""
    answer = await http.post("/api/tables", json={"game": "myllymatti", "seats": seats})
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


async def seat_person(http: httpx.AsyncClient) -> Person:
    """A table with a person in seat 0 (joined through the proxy) and a random bot."""
    made = await new_table(http, [{"kind": "open"}, {"kind": "bot", "bot": "random"}])
    table = made["table"]["id"]
    invite = made["invites"][0]["url"].split("#invite=")[1]
    answer = await http.post(f"/api/tables/{table}/seats/0", json={"name": "p", "invite": invite})
    assert answer.status_code == 200, answer.text
    return Person(table, answer.json()["token"])


async def ws_person(url: str, person: Person, stop: asyncio.Event) -> None:
    """Play over a WebSocket through the proxy; reconnect whenever it closes."""
    from websockets.asyncio.client import connect

    rng = random.Random(person.table)
    address = url.replace("http://", "ws://") + f"/ws/tables/{person.table}"
    while not stop.is_set() and not person.over:
        sent: tuple[int, str] | None = None
        try:
            async with connect(address, open_timeout=5) as ws:
                await ws.send(json.dumps({"type": "hello", "token": person.token}))
                while not stop.is_set():
                    with contextlib.suppress(TimeoutError):
                        msg = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                        sent = await on_message(ws, person, msg, sent, rng)
                        if person.over:
                            return
        except Exception as err:  # the process died, or handed the table over
            if not stop.is_set():
                person.reconnects += 1
                await asyncio.sleep(0.1)
            del err


async def on_message(
    ws: Any, person: Person, msg: dict[str, Any], sent: tuple[int, str] | None, rng: random.Random
) -> tuple[int, str] | None:
    """Handle one server message; return the move in flight."""
    if msg.get("type") == "error":
        if msg.get("code") not in ("stale", "not_your_turn"):
            person.errors.append(f"{msg.get('code')}: {msg.get('message')}")
        return None
    if msg.get("type") != "state":
        return sent
    seq = int(msg["seq"])
    if sent is not None and seq > sent[0]:
        person.acked[sent[0]] = sent[1]  # seat 0 was to act at sent[0]: that move is ours
        sent = None
    if msg["status"] == "finished":
        person.over = True
        return None
    legal = msg["view"].get("legal_moves") or []
    if sent is None and msg["status"] == "playing" and legal:
        move = rng.choice(legal)
        await ws.send(json.dumps({"type": "move", "move": move, "seq": seq}))
        return seq, move
    return sent


async def http_person(url: str, person: Person, stop: asyncio.Event) -> None:
    """Play over HTTP through the proxy: read the state, send a move, retry on errors."""
    rng = random.Random(person.table)
    headers = {"Authorization": f"Bearer {person.token}"}
    async with httpx.AsyncClient(base_url=url, timeout=10, headers=headers) as http:
        while not stop.is_set() and not person.over:
            try:
                mine = await http.get(f"/api/tables/{person.table}/state")
                if mine.status_code != 200:
                    await asyncio.sleep(0.1)
                    continue
                now = mine.json()
                if now["status"] == "finished":
                    person.over = True
                    return
                legal = now["view"].get("legal_moves") or []
                if not legal:
                    await asyncio.sleep(0.05)
                    continue
                move = rng.choice(legal)
                body = {"move": move, "seq": now["seq"]}
                answer = await http.post(f"/api/tables/{person.table}/moves", json=body)
                if answer.status_code == 200:
                    person.acked[now["seq"]] = move
                elif answer.status_code in (502, 503, 504):  # nginx: the process died
                    person.reconnects += 1  # with the move; not acknowledged: play on
                    await asyncio.sleep(0.1)
                elif answer.json()["detail"]["code"] != "stale":
                    person.errors.append(answer.text)
            except httpx.HTTPError:
                person.reconnects += 1
                await asyncio.sleep(0.1)


def moves_of(db: str) -> dict[str, list[tuple[int, str]]]:
    """Every table's stored moves, (seq, move) in order."""
    import psycopg

    out: dict[str, list[tuple[int, str]]] = {}
    with psycopg.connect(db, autocommit=True) as conn:
        for table, seq, move in conn.execute(
            "SELECT table_id, seq, move FROM tikki_moves ORDER BY table_id, seq"
        ):
            out.setdefault(table, []).append((seq, move))
    return out


def live_tables(db: str) -> set[str]:
    """The ids of the tables not over."""
    import psycopg

    with psycopg.connect(db, autocommit=True) as conn:
        rows = conn.execute("SELECT id FROM tikki_tables WHERE status <> 'finished'")
        return {str(row[0]) for row in rows}


def holders(db: str, tables: set[str]) -> dict[str, str]:
    """table id -> the process (``tikki NODE``) holding its advisory lock."""
    import psycopg

    from tikki.server.cluster import lock_key

    with psycopg.connect(db, autocommit=True) as conn:
        schema = str(conn.execute("SELECT current_schema()").fetchone()[0])  # type: ignore[index]
        rows = conn.execute(
            "SELECT (l.classid::bigint << 32) | l.objid::bigint, a.application_name "
            "FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.granted"
        ).fetchall()
    by_key = {}
    for key, name in rows:
        signed = key - (1 << 64) if key >= 1 << 63 else key
        by_key[signed] = str(name)
    return {t: by_key[lock_key(schema, t)] for t in tables if lock_key(schema, t) in by_key}


def replay_all(db: str) -> None:
    """Rebuild every stored table from its seed and moves, as a takeover does: a move
    applied twice (or on a stale state) would not replay."""
    from tikki.server.db import Store
    from tikki.server.tables import TableManager

    store = Store(db)
    manager = TableManager(store)
    try:
        for table in moves_of(db):
            row = store.load(table)
            assert row is not None, table
            rebuilt = manager.registry.rebuild(row)
            assert rebuilt.seq == len(row.moves), table
    finally:
        store.close()


async def run_load(cluster: Cluster, db: str) -> dict[str, Any]:
    """Seat the people, start the bot tables, kill the busiest process, watch, stop."""
    async with httpx.AsyncClient(base_url=cluster.url, timeout=20) as http:
        people = [await seat_person(http) for _ in range(WS_PEOPLE + HTTP_PEOPLE)]
        bots = [{"kind": "bot", "bot": "random"}] * 3
        for _ in range(BOT_TABLES):
            answer = await http.post("/api/tables", json={"game": "mattis", "seats": bots})
            assert answer.status_code == 201, answer.text
    stop = asyncio.Event()
    tasks = [asyncio.create_task(ws_person(cluster.url, p, stop)) for p in people[:WS_PEOPLE]]
    tasks += [asyncio.create_task(http_person(cluster.url, p, stop)) for p in people[WS_PEOPLE:]]
    await asyncio.sleep(WARM_UP)
    owned = await asyncio.to_thread(holders, db, live_tables(db))
    names = [f"tikki {node.name}" for node in cluster.members]
    victim = max(range(NODES), key=lambda i: sum(1 for n in owned.values() if n == names[i]))
    held = {t for t, n in owned.items() if n == names[victim]}
    before = {t: len(m) for t, m in moves_of(db).items()}
    cluster.kill(victim)
    killed_at = time.monotonic()
    again: dict[str, float] = {}
    while time.monotonic() - killed_at < AFTER:
        await asyncio.sleep(0.1)
        now = await asyncio.to_thread(moves_of, db)
        live = await asyncio.to_thread(live_tables, db)
        for table in held:
            if table not in again and (len(now.get(table, [])) > before.get(table, 0)
                                       or table not in live):  # fmt: skip
                again[table] = time.monotonic() - killed_at
    stop.set()
    await asyncio.gather(*tasks)
    live = await asyncio.to_thread(live_tables, db)
    moved = await asyncio.to_thread(holders, db, held & live)  # the survivors hold them
    return {
        "people": people, "held": held, "again": again, "victim": victim, "owned": owned,
        "live": live, "moved": moved,
    }  # fmt: skip


def check_lobbies(cluster: Cluster, db: str, victim: int) -> None:
    """Each remaining process lists every live table; a new table shows everywhere."""
    live = live_tables(db)
    survivors = [n for i, n in enumerate(cluster.members) if i != victim]
    for node in survivors:
        listed = httpx.get(f"{node.url}/api/tables", params={"status": "all", "limit": 200})
        assert listed.status_code == 200, listed.text
        ids = {t["id"] for t in listed.json()["tables"]}  # a table may end meanwhile
        assert live <= ids, f"{node.name}'s lobby misses {sorted(live - ids)}"
    made = httpx.post(
        f"{cluster.url}/api/tables", json={"game": "myllymatti", "seats": [{"kind": "open"}] * 2}
    )
    assert made.status_code == 201, made.text
    new = made.json()["table"]["id"]
    for node in survivors:
        deadline = time.monotonic() + 5
        while True:
            listed = httpx.get(f"{node.url}/api/tables", params={"status": "open"}).json()
            if new in {t["id"] for t in listed["tables"]} or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert new in {t["id"] for t in listed["tables"]}, f"{node.name}'s lobby misses {new}"


def check_metrics(cluster: Cluster, victim: int) -> None:
    """Each remaining process's /metrics (its own port) counts moves and locked tables,
    and the proxy does not serve /metrics."""
    from prometheus_client.parser import text_string_to_metric_families

    locked = 0.0
    for i, node in enumerate(cluster.members):
        if i == victim:
            continue
        page = httpx.get(f"{node.url}/metrics")
        assert page.status_code == 200, page.text
        values = {
            (s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(page.text)
            for s in family.samples
        }
        assert values["tikki_moves_total", (("by", "bot"),)] > 0, node.name
        locked += values["tikki_tables_locked", ()]
    assert locked > 0
    assert httpx.get(f"{cluster.url}/metrics").status_code == 404


def held_by(db: str, names: set[str]) -> dict[str, str]:
    """Every live table -> the process holding it; fails if a live table is held by no
    process of ``names`` (a table that ends meanwhile is left out)."""
    live = live_tables(db)
    held = holders(db, live)
    unheld = {t for t in live if held.get(t) not in names} & live_tables(db)
    assert not unheld, f"live tables no process holds: {sorted(unheld)} ({held})"
    return {t: n for t, n in held.items() if t not in unheld}


def rebalance(db: str) -> dict[str, int]:
    """``tikki cluster rebalance`` in a process of its own: the tables per process it
    printed once they were even."""
    command = [sys.executable, "-m", "tikki.cli", "cluster", "rebalance", "--db", db]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    shown = done.stdout.split("tables per process:")[-1].split(",")
    return {f"tikki {p.split(':')[0].strip()}": int(p.split(":")[1]) for p in shown if ":" in p}


def check_rejoin(cluster: Cluster, db: str, victim: int) -> int:
    """Start the killed process again (systemd's ``Restart=always``). A request never
    moves a table: every live table answers through nginx (forwarded to its owner where
    nginx now hashes it to the restarted process), and the restarted process takes none.
    ``tikki cluster rebalance`` then hands it its share: the tables are even, every live
    table is held by a live process and answers. Returns how many the restarted process
    holds."""
    names = {f"tikki {node.name}" for node in cluster.members}
    name = f"tikki {cluster.members[victim].name}"
    # the load's games may all have ended by now: tables waiting for people stay live, and
    # with 24 of them the chance that nginx hashes none to the restarted process is below
    # 1 in 10^4 (made before the restart, the survivors hold them)
    open_seats = {"game": "myllymatti", "seats": [{"kind": "open"}] * 2}
    for _ in range(24):
        made = httpx.post(f"{cluster.url}/api/tables", json=open_seats, timeout=20)
        assert made.status_code == 201, made.text
    cluster.start_node(victim)
    with httpx.Client(base_url=cluster.url, timeout=20) as proxy:
        for _ in range(3):  # nginx tries the restarted process again meanwhile
            for table in sorted(live_tables(db)):
                answer = proxy.get(f"/api/tables/{table}")
                assert answer.status_code == 200, (table, answer.text)
            time.sleep(0.5)
        before = held_by(db, names)
        assert name not in before.values(), f"a request moved a table to the restarted {name}"
        counts = rebalance(db)
        assert set(counts) == names, counts
        # the restarted process got a share and the heaviest holds no more than before (an
        # even split is tests/test_cluster_forward.py's; under load a game's end or a slow
        # handover can leave it uneven when the command's wait is over)
        heaviest = max(Counter(before.values()).values())
        assert counts[name] >= 1 and max(counts.values()) <= heaviest, (counts, heaviest)
        after = held_by(db, names)
        assert sum(1 for n in after.values() if n == name) >= 1, after
        for table in sorted(after):
            answer = proxy.get(f"/api/tables/{table}")
            assert answer.status_code == 200, (table, answer.text)
    return counts[name]


def test_kill_one_of_three_processes_under_load(postgres_url: str, tmp_path: Path) -> None:
    nginx = nginx_or_skip()
    port = free_ports(NODES + 1)
    cluster = Cluster(postgres_url, NODES, port, tmp_path, OPEN, BOT_DELAY, nginx)
    with cluster:
        try:
            result = asyncio.run(run_load(cluster, postgres_url))
            check_lobbies(cluster, postgres_url, result["victim"])
            check_metrics(cluster, result["victim"])
            rejoined = check_rejoin(cluster, postgres_url, result["victim"])
        except BaseException:
            for node in cluster.members:
                print(f"--- {node.name}\n{tail(node.log, 40)}")
            print(f"--- nginx\n{tail(tmp_path / 'nginx-error.log')}")
            raise
        stored = moves_of(postgres_url)
        live = live_tables(postgres_url)
        proxy = httpx.Client(base_url=cluster.url, timeout=20)
        held, again, people = result["held"], result["again"], result["people"]
        slowest = max(again.values(), default=0.0)
        print(
            f"killed node{result['victim'] + 1} holding {len(held)} live tables "
            f"(of {len(result['owned'])}); all played again within {slowest:.2f} s; "
            f"reconnects {sum(p.reconnects for p in people)}; "
            f"acknowledged person moves {sum(len(p.acked) for p in people)}; "
            f"the restarted process holds {rejoined} tables after the rebalance"
        )
        assert held, "the killed process held no table: the load did not spread"
        assert set(again) == held, f"tables that did not play again: {sorted(held - set(again))}"
        assert slowest <= PLAYS_AGAIN_WITHIN
        for table, moves in stored.items():
            assert [seq for seq, _move in moves] == list(range(len(moves))), table
        replay_all(postgres_url)
        moved = result["moved"]
        assert set(moved) == held & result["live"], f"unheld: {set(moved) ^ held}"
        names = {f"tikki {n.name}" for i, n in enumerate(cluster.members) if i != result["victim"]}
        assert set(moved.values()) <= names
        for person in people:
            assert not person.errors, (person.table, person.errors[:3])
            assert person.acked, f"{person.table}: no move of the person was acknowledged"
            have = dict(stored.get(person.table, []))
            lost = {s: m for s, m in person.acked.items() if have.get(s) != m}
            assert not lost, f"{person.table}: acknowledged moves lost or changed: {lost}"
            if person.table in live:
                info = proxy.get(f"/api/tables/{person.table}")
                assert info.status_code == 200, info.text
                assert info.json()["seq"] >= len(have)  # its bot may have moved since
        assert sum(p.reconnects for p in people[:WS_PEOPLE]) > 0 or not any(
            p.table in held for p in people[:WS_PEOPLE]
        )
