"""The cluster: moves/s and move latency for 1, 2 and 3 ``tikki serve --cluster``
processes behind nginx at the same offered load, one plain process without the proxy as
the baseline, and the time until a killed process's tables play again.

**Load.** Each configuration gets a fresh PostgreSQL schema and the same offered load:
``benchmarks/load.py``'s simulated people (imported, not copied): ``--tables`` tables, one
person over a WebSocket and bots in the other seats, each person thinking ``--think``
seconds, bots waiting ``--bot-delay``. Through the proxy the people's tables are spread
over the processes by nginx's hash of the table id. Per configuration it prints moves/s
(all moves, at the server), the people's move latency p50/p99 (send to the state that
contains the move), refused moves, the servers' CPU per move (from ``/proc`` and their
``/metrics``), PostgreSQL commits per move and its connections.

The baseline runs first and again last: the difference between the two shows how much the
machine's other work moved the figures meanwhile.

**Takeover.** Two processes; ``--takeover`` (50,100,200) bot-only tables created directly
on the first one (so it holds them all); after a moment it is killed with SIGKILL and
the time until every one of its tables has stored a new move is measured (the other
process claims them in its orphan scan, every second, replays them, and its bots move
after ``--takeover-delay``, which the time includes).

Run (a few minutes; the machine's other work shows in the numbers):
``nice -n 10 .venv/bin/python benchmarks/cluster.py [--tables 200] [--seconds 10]
[--think 0.1] [--bot-delay 0.1] [--takeover 50,100,200]``. It needs PostgreSQL
(``TIKKI_TEST_POSTGRES``, else ``.ci/services.sh``'s) and nginx.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import httpx
import psycopg
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import Config, console, percentile
from load import run as run_load

from tikki.server.cluster_run import Cluster, free_ports, postgres_url

OPEN = ["--create-rate", "1e6", "--join-rate", "1e6", "--tables-per-address", "1000000"]
OPEN += ["--max-tables", "1000000", "--waiting-per-address", "1000000"]
OPEN += ["--max-bot-tables", "1000000", "--connect-rate", "1e6", "--read-rate", "1e6"]
OPEN += ["--watchers-per-address", "100000", "--connections-per-address", "100000"]
"""The per-client limits lifted: every simulated client comes from 127.0.0.1."""
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def fresh_schema(base: str) -> Iterator[str]:
    """A URL of ``base`` whose search path is a new schema (dropped afterwards)."""
    schema = f"tikki_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    joiner = "&" if "?" in base else "?"
    try:
        yield f"{base}{joiner}options={quote(f'-csearch_path={schema}')}"
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user + system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def moves_total(url: str) -> float:
    """A process's ``tikki_moves_total`` (person and bot)."""
    text = httpx.get(f"{url}/metrics", timeout=10).text
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith("tikki_moves_total{")
    )


def pg_figures(db: str) -> tuple[int, int]:
    """PostgreSQL's commits so far in this database, and its open connections."""
    with psycopg.connect(db, autocommit=True) as conn:
        commits = conn.execute(
            "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
        connections = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid()"
        ).fetchone()
    assert commits is not None and connections is not None
    return int(commits[0]), int(connections[0])


@dataclass
class Row:
    """One load configuration's figures."""

    label: str
    moves_per_s: float
    p50: float
    p99: float
    refused: int
    cpu_ms_per_move: float
    commits_per_move: float
    connections: int


def load_run(label: str, base: str, nodes: int, proxy: bool, args: argparse.Namespace) -> Row:
    """One configuration: start it, run the load, read the figures, stop it."""
    with fresh_schema(base) as db, tempfile.TemporaryDirectory() as tmp:
        cluster = Cluster(
            db, nodes, free_ports(nodes + 1), Path(tmp), OPEN, args.bot_delay,
            clustered=proxy,
        )  # fmt: skip
        with cluster:
            servers = cluster.members
            url = cluster.url if proxy else servers[0].url
            pids = [node.proc.pid for node in servers if node.proc is not None]
            cpu0 = sum(cpu_seconds(pid) for pid in pids)
            moves0 = sum(moves_total(node.url) for node in servers)
            commits0, _ = pg_figures(db)
            cfg = Config(url, args.tables, args.seconds, args.game, args.players, args.bots,
                         args.think, args.seed, args.ramp)  # fmt: skip
            stats, elapsed = asyncio.run(run_load(cfg))
            commits1, connections = pg_figures(db)
            moves = sum(moves_total(node.url) for node in servers) - moves0
            cpu = sum(cpu_seconds(pid) for pid in pids) - cpu0
    lat = stats.latencies
    return Row(
        label,
        stats.moves_seen / elapsed,
        percentile(lat, 50),
        percentile(lat, 99),
        len(stats.errors),
        cpu / max(moves, 1) * 1000,
        (commits1 - commits0) / max(moves, 1),
        connections,
    )


def moves_by_table(db: str) -> dict[str, int]:
    """How many moves each table has stored."""
    with psycopg.connect(db, autocommit=True) as conn:
        rows = conn.execute("SELECT table_id, count(*) FROM tikki_moves GROUP BY table_id")
        return {str(table): int(count) for table, count in rows}


def takeover_run(base: str, tables: int, args: argparse.Namespace) -> tuple[int, float, float]:
    """Kill the process that holds ``tables`` bot tables; (held, median s, slowest s)."""
    with fresh_schema(base) as db, tempfile.TemporaryDirectory() as tmp:
        cluster = Cluster(db, 2, free_ports(3), Path(tmp), OPEN, args.takeover_delay)
        with cluster:
            first = cluster.members[0]
            seats = [{"kind": "bot", "bot": "random"}] * 3
            with httpx.Client(base_url=first.url, timeout=60) as http:
                for _ in range(tables):
                    made = http.post("/api/tables", json={"game": "mattis", "seats": seats})
                    made.raise_for_status()
            time.sleep(2 * args.takeover_delay + 0.5)
            before = moves_by_table(db)
            cluster.kill(0)
            killed = time.monotonic()
            again: dict[str, float] = {}
            while len(again) < len(before) and time.monotonic() - killed < 60:
                time.sleep(0.05)
                for table, count in moves_by_table(db).items():
                    if table not in again and count > before.get(table, 0):
                        again[table] = time.monotonic() - killed
    if len(again) < len(before):
        return len(before), float("nan"), float("nan")
    times = list(again.values())
    return len(before), statistics.median(times), max(times)


def main() -> None:
    """Run every configuration and print the two tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="concurrent tables (200)")
    parser.add_argument("--seconds", type=float, default=10, help="measuring time (10)")
    parser.add_argument("--ramp", type=float, default=3, help="ramp-up, s (3)")
    parser.add_argument("--game", default="myllymatti", help="game (myllymatti)")
    parser.add_argument("--players", type=int, default=3, help="players per table (3)")
    parser.add_argument("--bots", default="heuristic", help="bot spec of the other seats")
    parser.add_argument("--think", type=float, default=0.1, help="person's think time (0.1)")
    parser.add_argument("--bot-delay", type=float, default=0.1, help="bot delay, s (0.1)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the clients' choices")
    parser.add_argument("--nodes", default="1,2,3", help="process counts behind nginx (1,2,3)")
    parser.add_argument("--takeover", default="50,100,200", help="tables of the killed one")
    parser.add_argument("--takeover-delay", type=float, default=1.0, help="their bot delay")
    args = parser.parse_args()
    base = os.environ.get("TIKKI_TEST_POSTGRES") or postgres_url()
    rows = [load_run("1 process, no proxy", base, 1, False, args)]
    for n in (int(x) for x in args.nodes.split(",") if x):
        rows.append(load_run(f"{n} behind nginx", base, n, True, args))
    rows.append(load_run("1 process, no proxy, again", base, 1, False, args))  # the spread
    report_load(rows, args)
    takeovers = [(n, *takeover_run(base, n, args)) for n in _counts(args.takeover)]
    report_takeover(takeovers, args)


def _counts(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x]


def report_load(rows: list[Row], args: argparse.Namespace) -> None:
    """Print the load table."""
    table = Table(
        title=f"{args.tables} {args.game} tables ({args.players} players, 1 person), think "
        f"{args.think:g} s, bot delay {args.bot_delay:g} s, {args.seconds:g} s measured"
    )
    for column in ("set-up", "moves/s", "p50 ms", "p99 ms", "refused", "CPU ms/move"):
        table.add_column(column, justify="right")
    table.add_column("commits/move", justify="right")
    table.add_column("PG conns", justify="right")
    base = rows[0]
    for row in rows:
        table.add_row(
            row.label, f"{row.moves_per_s:,.0f}", f"{row.p50:.1f}",
            f"{row.p99:.1f} ({row.p99 / base.p99:.2f}x)", str(row.refused),
            f"{row.cpu_ms_per_move:.2f}", f"{row.commits_per_move:.2f}", str(row.connections),
        )  # fmt: skip
    console.print(table)


def report_takeover(rows: list[tuple[int, int, float, float]], args: argparse.Namespace) -> None:
    """Print the takeover table."""
    table = Table(
        title="kill -9 of the process holding N bot-only Mattis tables (2 processes; "
        f"bot delay {args.takeover_delay:g} s, included)"
    )
    for column in ("tables", "held", "median s", "all played again s"):
        table.add_column(column, justify="right")
    for wanted, held, median, slowest in rows:
        table.add_row(str(wanted), str(held), f"{median:.2f}", f"{slowest:.2f}")
    console.print(table)


if __name__ == "__main__":
    main()
