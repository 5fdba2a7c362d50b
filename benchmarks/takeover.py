"""How long the tables of a killed ``tikki serve --cluster`` process stay still.

For each table count N: store N bot-only tables being played in a fresh PostgreSQL schema,
start process A (it claims them all), start process B, ``kill -9`` A, then poll the
database until B holds every table's lock (``owned``) and every table has stored a move
made after the kill (``moving``; this includes one ``--bot-delay``).

    TIKKI_TEST_POSTGRES=postgresql://tikki:tikki@127.0.0.1:5432/tikki \\
        nice -n 10 .venv/bin/python benchmarks/takeover.py --tables 50 200 --repeat 3
"""

from __future__ import annotations

import argparse
import os
import random
import select
import signal
import subprocess
import sys
import time
import uuid
from contextlib import suppress
from statistics import median
from urllib.parse import quote

import psycopg

from tikki.core import load
from tikki.server.cluster import libpq_url, lock_key
from tikki.server.db import Store, StoredSeat, StoredTable, now


def start(url: str, name: str, delay: float) -> subprocess.Popen[str]:
    """A cluster process; returns once it listens."""
    command = [sys.executable, "-m", "tikki.cli", "serve", "--cluster", "--node", name]
    command += ["--port", "0", "--bot-delay", str(delay), "--db", url]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], 60)
    assert ready and proc.stdout.readline().startswith("tikki web table:"), f"{name} did not start"
    return proc


def holders(conn: psycopg.Connection, keys: dict[int, str]) -> dict[str, str]:
    """Table id -> application name of the session holding its lock."""
    rows = conn.execute(
        "SELECT ((l.classid::bigint << 32) | l.objid::bigint), a.application_name "
        "FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
        "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1"
    ).fetchall()
    out = {}
    for key, name in rows:
        signed = key - (1 << 64) if key >= 1 << 63 else key
        if signed in keys:
            out[keys[signed]] = str(name)
    return out


def one_run(base: str, count: int, delay: float) -> tuple[float, float]:
    """(seconds until B owns all, seconds until all moved again) after the kill."""
    schema = f"tikki_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(base, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
    url = f"{base}{'&' if '?' in base else '?'}options={quote(f'-csearch_path={schema}')}"
    procs: list[subprocess.Popen[str]] = []
    try:
        store = Store(url)
        store.create_schema()
        game = load("mattis", 3)
        ids = [f"t{i:05d}" for i in range(count)]
        for i, tid in enumerate(ids):
            seats = [StoredSeat(s, "bot", f"Bot {s}", "heuristic") for s in range(3)]
            options = {**game.options, "rules": game.rules}
            store.add_table(StoredTable(tid, "mattis", 3, game.options["variant"], options,
                                        i, "playing", now(), None, None, seats, []))  # fmt: skip
        store.close()
        keys = {lock_key(schema, t): t for t in ids}
        with psycopg.connect(libpq_url(url), autocommit=True) as conn:
            procs.append(start(url, "a", delay))
            while len(holders(conn, keys)) < count:
                time.sleep(0.02)
            procs.append(start(url, "b", delay))
            time.sleep(1.0 + random.random())  # any phase of B's once-a-second scan
            moves = "SELECT table_id, max(time) FROM tikki_moves GROUP BY table_id"
            procs[0].send_signal(signal.SIGKILL)
            procs[0].wait()
            killed = time.monotonic()
            kill_time = conn.execute("SELECT timezone('utc', now())").fetchone()[0]  # type: ignore[index]
            owned = moving = None
            while moving is None and time.monotonic() - killed < 120:
                held = holders(conn, keys)
                if owned is None and len(held) == count and set(held.values()) == {"tikki b"}:
                    owned = time.monotonic() - killed
                rows = conn.execute(moves).fetchall()
                if sum(1 for _t, last in rows if last > kill_time) == count:
                    moving = time.monotonic() - killed
                time.sleep(0.02)
            assert owned is not None and moving is not None, "the takeover did not finish"
            return owned, moving
    finally:
        for proc in procs:
            with suppress(Exception):
                proc.kill()
                proc.wait(10)
        with psycopg.connect(base, autocommit=True) as admin:
            admin.execute(f"DROP SCHEMA {schema} CASCADE")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--bot-delay", type=float, default=0.2)
    args = parser.parse_args()
    base = os.environ.get("TIKKI_TEST_POSTGRES")
    if not base:
        sys.exit("set TIKKI_TEST_POSTGRES to a PostgreSQL server URL")
    print(f"kill -9 of the owner; --bot-delay {args.bot_delay:g}; median of {args.repeat}")
    print(f"{'tables':>7} {'owned (s)':>10} {'moving (s)':>11}   runs (owned/moving)")
    for count in args.tables:
        runs = [one_run(base, count, args.bot_delay) for _ in range(args.repeat)]
        shown = " ".join(f"{o:.2f}/{m:.2f}" for o, m in runs)
        print(f"{count:>7} {median(o for o, _m in runs):>10.2f} "
              f"{median(m for _o, m in runs):>11.2f}   {shown}")  # fmt: skip


if __name__ == "__main__":
    main()
