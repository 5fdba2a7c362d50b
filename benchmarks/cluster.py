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

**Saturation** (``--saturate``, instead of the above): ``--saturate-tables`` bot-only
tables (random bots, bot delay 0) kept live at once on 1, 2 and 3 ``--cluster``
processes (each table created on a process in turn, which owns it; finished ones are
replaced), ``--seconds`` measured: moves/s (rows stored), the tikki processes' CPU (cores
used, ms per move), PostgreSQL's own CPU beside them (every ``postgres`` process's
``/proc/<pid>/stat``), commits per move, the lobby of 87 tables as read on the last
process (most of them another's: their lobby lines; three reads, or ``--lobby-reads``,
2.1 s apart, the tables topped up before each; then, with ``--lobby-burst N``, N reads
sent at once, timed until all are answered), the event loops' share of time not idle
(``loop busy``: running, or ready and waiting for a CPU that the machine's other work
holds; ``/proc/<pid>/task/<pid>/schedstat``) and the load average.  ``--baseline DIR``
runs the same on the code checked out in DIR (a ``git worktree`` of an earlier commit) in
the same run, alternating with this checkout's.

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
from concurrent.futures import ThreadPoolExecutor
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


def loop_seconds(pid: int) -> float:
    """Seconds so far the process's main thread (its event loop) ran or was ready to run
    and waited for a CPU (``/proc/PID/task/PID/schedstat``): its time not idle."""
    run, wait, _ = Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()
    return (int(run) + int(wait)) / 1e9


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


def postgres_cpu() -> float:
    """CPU seconds so far of every PostgreSQL server process on this machine."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        if text.split("(", 1)[1].split(")", 1)[0].startswith("postgres"):
            fields = text.rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    return total


def live_and_moves(db: str) -> tuple[int, int]:
    """Live tables, and moves stored, in the benchmark's schema."""
    with psycopg.connect(db, autocommit=True) as conn:
        live = conn.execute("SELECT count(*) FROM tikki_tables WHERE status <> 'finished'")
        moves = conn.execute("SELECT count(*) FROM tikki_moves")
        return int(live.fetchone()[0]), int(moves.fetchone()[0])  # type: ignore[index]


@dataclass
class Saturated:
    """One saturation run's figures."""

    label: str
    moves_per_s: float
    cores: float
    cpu_ms_per_move: float
    pg_cores: float
    pg_ms_per_move: float
    commits_per_move: float
    lobby_s: list[float]
    burst_s: float | None
    """The time of ``--lobby-burst`` lobby reads sent at once (``None``: none sent)."""
    loop_busy: float
    """The event loops' share of the time not idle (running, or ready and waiting for
    a CPU the machine's other work held), the mean of the processes."""
    load: float
    """The machine's load average (1 min) at the end."""


@contextlib.contextmanager
def code_of(folder: str | None) -> Iterator[None]:
    """Start the servers from the code in ``folder`` (``None``: this checkout)."""
    if folder is None:
        yield
        return
    before, path = os.getcwd(), os.environ.get("PYTHONPATH")
    os.chdir(folder)
    os.environ["PYTHONPATH"] = folder
    try:
        yield
    finally:
        os.chdir(before)
        if path is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = path


def top_up(http: httpx.Client, urls: list[str], db: str, wanted: int, turn: int) -> int:
    """Create bot-only tables, a process at a time in turn, until ``wanted`` are live."""
    live, _ = live_and_moves(db)
    seats = [{"kind": "bot", "bot": "random"}] * 3
    for _ in range(max(0, wanted - live)):
        made = http.post(f"{urls[turn % len(urls)]}/api/tables",
                         json={"game": "mattis", "seats": seats})  # fmt: skip
        made.raise_for_status()
        turn += 1
    return turn


def saturate_run(label: str, base: str, nodes: int, args: argparse.Namespace) -> Saturated:
    """``nodes`` cluster processes kept saturated with bot-only tables; their figures."""
    with fresh_schema(base) as db, tempfile.TemporaryDirectory() as tmp:
        cluster = Cluster(db, nodes, free_ports(nodes + 1), Path(tmp), OPEN, 0.0)
        with cluster, httpx.Client(timeout=60) as http:
            urls = [node.url for node in cluster.members]
            pids = [node.proc.pid for node in cluster.members if node.proc is not None]
            turn = top_up(http, urls, db, args.saturate_tables, 0)
            time.sleep(args.ramp)
            cpu0, pg0 = sum(cpu_seconds(pid) for pid in pids), postgres_cpu()
            loop0 = sum(loop_seconds(pid) for pid in pids)
            _, moves0 = live_and_moves(db)
            commits0, _ = pg_figures(db)
            began = time.monotonic()
            while time.monotonic() - began < args.seconds:
                turn = top_up(http, urls, db, args.saturate_tables, turn)
                time.sleep(0.25)
            elapsed = time.monotonic() - began
            cpu, pg = sum(cpu_seconds(pid) for pid in pids) - cpu0, postgres_cpu() - pg0
            loop = sum(loop_seconds(pid) for pid in pids) - loop0
            _, moves1 = live_and_moves(db)
            commits1, _ = pg_figures(db)
            lobby = []
            for _ in range(args.lobby_reads):  # under load; after the lobby's copies expire
                turn = top_up(http, urls, db, args.saturate_tables, turn)
                time.sleep(2.1)
                start = time.monotonic()
                listed = http.get(f"{urls[-1]}/api/tables",
                                  params={"status": "playing", "limit": 87})  # fmt: skip
                listed.raise_for_status()
                lobby.append(time.monotonic() - start)
            burst = lobby_burst(http, urls, db, args, turn) if args.lobby_burst else None
    moves = max(moves1 - moves0, 1)
    return Saturated(
        label, moves / elapsed, cpu / elapsed, cpu / moves * 1000, pg / elapsed,
        pg / moves * 1000, (commits1 - commits0) / moves, lobby, burst,
        loop / elapsed / len(pids),
        os.getloadavg()[0],
    )  # fmt: skip


def lobby_burst(
    http: httpx.Client, urls: list[str], db: str, args: argparse.Namespace, turn: int
) -> float:
    """The time until ``--lobby-burst`` lobby reads of the last process, sent at once
    (after a top-up and 2.1 s, as the reads before), are all answered."""
    top_up(http, urls, db, args.saturate_tables, turn)
    time.sleep(2.1)

    def read(_: int) -> None:
        listed = http.get(f"{urls[-1]}/api/tables", params={"status": "playing", "limit": 87})
        listed.raise_for_status()

    start = time.monotonic()
    with ThreadPoolExecutor(args.lobby_burst) as pool:
        list(pool.map(read, range(args.lobby_burst)))
    return time.monotonic() - start


def saturate(base: str, args: argparse.Namespace) -> None:
    """Every saturation configuration (with the baseline's code, alternating) and the table."""
    rows = []
    for n in _counts(args.nodes):
        if args.baseline:
            with code_of(args.baseline):
                rows.append(saturate_run(f"{n} process(es), baseline", base, n, args))
        rows.append(saturate_run(f"{n} process(es)", base, n, args))
    table = Table(
        title=f"saturated: {args.saturate_tables} bot-only Mattis tables live (random bots, "
        f"bot delay 0), {args.seconds:g} s measured, {os.cpu_count()} cores on this machine"
    )
    burst = [f"{args.lobby_burst} lobbies at once s"] if args.lobby_burst else []
    for column in ("set-up", "moves/s", "tikki cores", "tikki CPU ms/move", "PG cores",
                   "PG CPU ms/move", "commits/move", "lobby(87) s, non-owner", *burst,
                   "loop busy", "load"):  # fmt: skip
        table.add_column(column, justify="right")
    for row in rows:
        burst_s = [] if row.burst_s is None else [f"{row.burst_s:.3f}"]
        table.add_row(
            row.label, f"{row.moves_per_s:,.0f}", f"{row.cores:.2f}",
            f"{row.cpu_ms_per_move:.2f}", f"{row.pg_cores:.2f}", f"{row.pg_ms_per_move:.2f}",
            f"{row.commits_per_move:.2f}", _reads(row.lobby_s), *burst_s,
            f"{row.loop_busy:.0%}", f"{row.load:.1f}",
        )  # fmt: skip
    console.print(table)


def _reads(seconds: list[float]) -> str:
    """The lobby's read times: each of three or fewer, else their median and the slowest.

    >>> _reads([0.01, 0.02]), _reads([0.04, 0.01, 0.03, 0.02])
    ('0.010 0.020', 'median 0.025, max 0.040 (4)')
    """
    if len(seconds) <= 3:
        return " ".join(f"{s:.3f}" for s in seconds)
    return f"median {statistics.median(seconds):.3f}, max {max(seconds):.3f} ({len(seconds)})"


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
    parser.add_argument("--saturate", action="store_true", help="the saturation runs only")
    parser.add_argument("--saturate-tables", type=int, default=150, help="live tables (150)")
    parser.add_argument("--baseline", help="a checkout of earlier code to run beside this")
    parser.add_argument("--lobby-reads", type=int, default=3,
                        help="the non-owner's lobby reads per saturation run (3)")  # fmt: skip
    parser.add_argument("--lobby-burst", type=int, default=0,
                        help="then N lobby reads at once, timed together (0)")  # fmt: skip
    args = parser.parse_args()
    base = os.environ.get("TIKKI_TEST_POSTGRES") or postgres_url()
    if args.saturate:
        saturate(base, args)
        return
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
