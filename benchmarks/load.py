"""Load on one web-table server: N tables, each one simulated human over a WebSocket + bots.

The benchmark starts ``tikki serve`` as its own process (one uvicorn worker, a fresh SQLite
file, the given bot delay), creates ``--tables`` tables over the HTTP API (one open seat,
bots in the others), joins each open seat and connects one WebSocket per table, all from
this one client process. Each simulated human waits for its turn, thinks ``--think``
seconds, plays a random legal move and measures the **move latency**: from sending the
move to receiving the state message that contains it (on loopback this is the server's
own time to check, apply, store and send, plus queueing when it is busy). The clients ask
for history deltas as the web page does (``"history": "delta"`` in the hello: each state
carries only the entries new to the socket, which the client appends to the history it
keeps); ``--whole-history`` runs them without, every state carrying the whole history. When a game
ends, the client starts a new table, so the number of live tables stays constant. The
clients join over a ramp-up (``--ramp`` seconds, default 5: 200 people do not all sit
down in the same millisecond); moves and latencies are counted after it, for ``--seconds``.

It prints one table: tables, moves/s at the server (every move: humans' and bots'),
human moves measured, latency p50 / p90 / p99 / max, refused moves (must be 0), games
finished and the server's CPU time per move (user + system of the server process over the
measured time, from ``/proc``, divided by the moves at the server; ``-`` with ``--url``).
The issue's target is 200 tables with p99 < 100 ms.

Run: ``.venv/bin/python benchmarks/load.py [--tables 200] [--seconds 30] [--game myllymatti]
[--players 3] [--bots heuristic] [--think 0.3] [--bot-delay 0.3]`` (``--url`` measures an
already running server instead of starting one).

Abuse scenario (``--abuse``): before the measured players sit down, another client (from
the address 127.0.0.2, so its tables are another creator's) starts ``--hard-tables`` (20)
Mattis tables of five Hard bots and ``--medium-tables`` (1,000) Mattis tables of three
Medium bots, all bots only. A probe also plays a quiet two-seat Myllymatti table against
one Hard bot, before the abuse and under it, and reports the Hard bot's answer time
(from the probe's move to the bot's, less the bot delay). The probe deals the same seeded
games and plays the same moves both times, so each answer under the abuse is compared with
the very same search unloaded. Targets: a person's
move p99 under 100 ms, the Hard bot under load within 2x its unloaded time. The server
is started with limits high enough for the benchmark's own clients (one address). The
crowds, from many addresses and against the server's default limits, are
``benchmarks/abuse.py``'s.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.progress import Progress
from rich.table import Table
from websockets.asyncio.client import ClientConnection, connect

console = Console(width=140) if not sys.stdout.isatty() else Console()


@dataclass
class Stats:
    """What the simulated clients observed."""

    latencies: list[float] = field(default_factory=list)
    moves_seen: int = 0
    measuring_from: float = 0.0
    games_finished: int = 0
    errors: list[str] = field(default_factory=list)
    server_cpu: float | None = None
    """The server process's CPU seconds (user and system) over the measured time."""
    threads: list[tuple[float, float]] = field(default_factory=list)
    """The CPU seconds (user, system) of each of the server's threads that used any over
    the measured time, the busiest first (the event loop, then the storage thread)."""


@dataclass(frozen=True)
class Config:
    """One load run."""

    url: str
    tables: int
    seconds: float
    game: str
    players: int
    bots: str
    think: float
    seed: int
    ramp: float
    server_pid: int | None = None
    """The server's process (when this benchmark started it): its CPU time is measured."""
    profiled: bool = False
    """The server runs under cProfile (``--profile``): signalled when the measured time
    begins and ends."""
    deltas: bool = True
    """The clients ask for history deltas, as the web page does (``--whole-history``: not)."""


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


OPEN_LIMITS = ["--create-rate", "1e6", "--join-rate", "1e6", "--tables-per-address", "1000000"]
OPEN_LIMITS += ["--max-tables", "1000000", "--allow-client-seeds"]
OPEN_LIMITS += ["--waiting-per-address", "1000000", "--max-bot-tables", "1000000"]
OPEN_LIMITS += ["--connections-per-address", "100000", "--watchers-per-address", "100000"]
OPEN_LIMITS += ["--connect-rate", "1e6", "--read-rate", "1e6", "--hint-rate", "1e6"]
"""``tikki serve`` options that lift the per-client limits for the benchmark's clients (and
let the Hard-bot probe deal the same games with and without the abuse)."""


def cpu_seconds(pid: int | None) -> float | None:
    """The CPU time (user + system, seconds) process ``pid`` has used, from
    ``/proc/PID/stat``; ``None`` without a pid or a ``/proc``."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def thread_cpu(pid: int | None) -> dict[int, tuple[float, float]]:
    """Each thread's CPU time (user, system; seconds) of process ``pid``, by thread id."""
    out: dict[int, tuple[float, float]] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for task in Path(f"/proc/{pid}/task").glob("*") if pid is not None else []:
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[int(task.name)] = (int(fields[11]) / tick, int(fields[12]) / tick)
    return out


PROFILED = """
import cProfile, signal, sys, time
from tikki.cli import main
from tikki.server.tables.storage import Storage
out = sys.argv.pop(1)
profile, storing = cProfile.Profile(time.thread_time), cProfile.Profile(time.thread_time)
on = []
write_group = Storage._write_group
def profiled_group(self):
    return storing.runcall(write_group, self) if on else write_group(self)
Storage._write_group = profiled_group
def cpu():
    import threading
    return {(t.name, t.native_id): time.clock_gettime(time.pthread_getcpuclockid(t.ident))
            for t in threading.enumerate()}
before = {}
def start(*_):
    on.append(True)
    before.update(cpu())
    profile.enable()
def stop(*_):
    on.clear()
    profile.disable()
    profile.dump_stats(out)
    storing.dump_stats(out + ".storage")
    with open(out + ".threads", "w") as f:
        for key, seconds in cpu().items():
            f.write(f"{key[0]} {key[1]} {seconds - before.get(key, 0.0):.3f} s CPU\\n")
signal.signal(signal.SIGUSR1, start)
signal.signal(signal.SIGUSR2, stop)
main()
"""
"""The server under cProfile (``--profile``): the main thread's CPU time (the event loop)
from SIGUSR1 (the measured time begins) to SIGUSR2 (it ends: the statistics are written),
and the storage thread's group commits (to the file's name + ``.storage``)."""


def start_server(
    bot_delay: float, workdir: Path, extra: list[str] | None = None, profile: str | None = None
) -> tuple[subprocess.Popen[str], str]:
    """Start ``tikki serve`` on a free port with a fresh SQLite file; return it and its URL
    (``profile``: under cProfile, its statistics written to that file when it stops)."""
    port = free_port()
    tikki = Path(sys.executable).with_name("tikki")
    cmd = [str(tikki), "serve", "--port", str(port), "--bot-delay", str(bot_delay)]
    if profile is not None:
        cmd[:1] = [sys.executable, "-c", PROFILED, profile]
    cmd += ["--db", f"sqlite:///{workdir / 'load.sqlite'}", *(extra or [])]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            out = proc.stdout.read() if proc.stdout else ""
            raise SystemExit(f"the server stopped at start:\n{out}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/api/games", timeout=1).status_code == 200:
                return proc, url
        time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not answer within 30 s")


async def new_table(http: httpx.AsyncClient, cfg: Config) -> tuple[str, str]:
    """Create a table with the human in seat 0 and bots elsewhere; join it; (id, token)."""
    seats: list[dict[str, Any]] = [{"kind": "open"}]
    seats += [{"kind": "bot", "bot": cfg.bots}] * (cfg.players - 1)
    body = {"game": cfg.game, "players": cfg.players, "seats": seats}  # the server deals
    made = await http.post("/api/tables", json=body)
    made.raise_for_status()
    table_id = made.json()["table"]["id"]
    invite = made.json()["invites"][0]["url"].split("#invite=")[1]
    joined = await http.post(
        f"/api/tables/{table_id}/seats/0", json={"name": "load", "invite": invite}
    )
    joined.raise_for_status()
    return table_id, joined.json()["token"]


async def play_table(ws: ClientConnection, cfg: Config, rng: random.Random, stats: Stats) -> None:
    """Play seat 0 of one table until the game is over, timing each move."""
    sent_at: float | None = None
    sent_seq = -1
    last_seq = 0
    history: list[Any] = []
    async for raw in ws:
        msg = json.loads(raw)
        if msg["type"] == "error":
            stats.errors.append(f"{msg['code']}: {msg['message']}")
            sent_at = None
            continue
        if msg["type"] != "state":
            continue
        history = whole_history(history, msg)
        seq = int(msg["seq"])
        measuring = time.monotonic() >= stats.measuring_from
        if measuring:
            stats.moves_seen += max(0, seq - last_seq)
        last_seq = max(last_seq, seq)
        if sent_at is not None and seq > sent_seq:
            if measuring:
                stats.latencies.append(time.perf_counter() - sent_at)
            sent_at = None
        if msg["status"] == "finished":
            stats.games_finished += 1
            return
        view = msg["view"]
        if sent_at is None and msg["status"] == "playing" and view.get("legal_moves"):
            await asyncio.sleep(cfg.think * rng.uniform(0.5, 1.5))
            move = rng.choice(view["legal_moves"])
            sent_at, sent_seq = time.perf_counter(), seq
            await ws.send(json.dumps({"type": "move", "move": move, "seq": seq}))


def whole_history(kept: list[Any], msg: dict[str, Any]) -> list[Any]:
    """The whole history of a state message: ``kept`` (what the socket was sent before)
    cut to ``history_from`` entries and the message's appended, as the web page does; the
    message's own history where it has no ``history_from`` (whole histories)."""
    entries = msg["view"].get("history") or []
    start = msg.get("history_from")
    return entries if start is None else kept[:start] + entries


def hello(token: str, cfg: Config) -> str:
    """The hello of a seat's socket (with ``"history": "delta"`` unless ``--whole-history``)."""
    said: dict[str, Any] = {"type": "hello", "token": token}
    if cfg.deltas:
        said["history"] = "delta"
    return json.dumps(said)


async def human(
    index: int, cfg: Config, http: httpx.AsyncClient, stop: float, stats: Stats
) -> None:
    """One simulated player: table after table until the time is up."""
    rng = random.Random(cfg.seed * 100_003 + index)
    ws_base = re.sub(r"^http", "ws", cfg.url)
    await asyncio.sleep(cfg.ramp * index / max(1, cfg.tables))
    while time.monotonic() < stop:
        table_id, token = await new_table(http, cfg)
        async with connect(f"{ws_base}/ws/tables/{table_id}") as ws:
            await ws.send(hello(token, cfg))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(play_table(ws, cfg, rng, stats), stop - time.monotonic())


def signal_profiler(cfg: Config, signum: int) -> None:
    """Tell the profiled server (``--profile``) that the measured time begins or ends."""
    if cfg.profiled and cfg.server_pid is not None:
        os.kill(cfg.server_pid, signum)


async def run(cfg: Config) -> tuple[Stats, float]:
    """All the clients together for ``cfg.seconds``; the stats and the elapsed time."""
    stats = Stats()
    limits = httpx.Limits(max_connections=64)
    async with httpx.AsyncClient(base_url=cfg.url, timeout=60, limits=limits) as http:
        start = time.monotonic()
        stats.measuring_from = start + cfg.ramp
        stop = stats.measuring_from + cfg.seconds
        tasks = [asyncio.create_task(human(i, cfg, http, stop, stats)) for i in range(cfg.tables)]
        cpu_from: float | None = None
        threads_from: dict[int, tuple[float, float]] = {}
        with Progress(console=console, transient=True) as progress:
            bar = progress.add_task(f"{cfg.tables} tables", total=cfg.ramp + cfg.seconds)
            while time.monotonic() < stop:
                await asyncio.sleep(min(0.5, max(0.01, stop - time.monotonic())))
                if cpu_from is None and time.monotonic() >= stats.measuring_from:
                    cpu_from = cpu_seconds(cfg.server_pid)
                    threads_from = thread_cpu(cfg.server_pid)
                    signal_profiler(cfg, signal.SIGUSR1)
                progress.update(bar, completed=time.monotonic() - start)
        cpu_to = cpu_seconds(cfg.server_pid)
        threads_to = thread_cpu(cfg.server_pid)
        signal_profiler(cfg, signal.SIGUSR2)
        if cpu_from is not None and cpu_to is not None:
            stats.server_cpu = cpu_to - cpu_from
            used = [(u - threads_from.get(t, (0.0, 0.0))[0], y - threads_from.get(t, (0.0, 0.0))[1])
                    for t, (u, y) in threads_to.items()]  # fmt: skip
            stats.threads = sorted((c for c in used if sum(c) > 0), key=sum, reverse=True)
        await asyncio.gather(*tasks, return_exceptions=False)
        return stats, time.monotonic() - stats.measuring_from


def event_loop_of(pid: int | None) -> str:
    """The server's event loop, ``uvloop`` or ``asyncio`` (whether uvloop's extension is
    mapped into the process: ``tikki serve`` takes it where it is installed); ``-`` for a
    server this benchmark did not start."""
    if pid is None:
        return "-"
    try:
        maps = Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return "?"
    return "uvloop" if "/uvloop/" in maps else "asyncio"


HARD = "ismcts:iterations=1000"


async def abuse(url: str, hard: int, medium: int) -> None:
    """Start the abusive bots-only tables from another client address (127.0.0.2)."""
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
    async with httpx.AsyncClient(base_url=url, timeout=60, transport=transport) as http:
        bodies = [{"game": "mattis", "seats": [{"kind": "bot", "bot": HARD}] * 5}] * hard
        bodies += [{"game": "mattis", "seats": [{"kind": "bot", "bot": "heuristic"}] * 3}] * medium
        for start in range(0, len(bodies), 50):
            answers = await asyncio.gather(
                *(http.post("/api/tables", json=b) for b in bodies[start : start + 50])
            )
            for answer in answers:
                answer.raise_for_status()


async def hard_answers(url: str, moves: int, bot_delay: float) -> list[float]:
    """Play a quiet table against one Hard bot; the bot's answer times, less the delay."""
    ws_base = re.sub(r"^http", "ws", url)
    seats = [{"kind": "open"}, {"kind": "bot", "bot": HARD}]
    rng = random.Random(7)
    times: list[float] = []
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        for deal in itertools.count(1):
            if len(times) >= moves:
                break
            body = {"game": "myllymatti", "seats": seats, "seed": deal}  # same deals each run
            made = await http.post("/api/tables", json=body)
            made.raise_for_status()
            table_id = made.json()["table"]["id"]
            invite = made.json()["invites"][0]["url"].split("#invite=")[1]
            joined = await http.post(
                f"/api/tables/{table_id}/seats/0", json={"name": "probe", "invite": invite}
            )
            joined.raise_for_status()
            token = joined.json()["token"]
            async with connect(f"{ws_base}/ws/tables/{table_id}") as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                sent_at, seq = None, -1
                async for raw in ws:
                    msg = json.loads(raw)
                    if msg["type"] != "state":
                        continue
                    legal = msg["view"].get("legal_moves")
                    if msg["status"] == "finished" or len(times) >= moves:
                        break
                    if not legal:
                        continue
                    if sent_at is not None and msg["seq"] == seq + 2:  # one bot answer
                        times.append(time.perf_counter() - sent_at - bot_delay)
                    sent_at, seq = time.perf_counter(), msg["seq"]
                    move = rng.choice(legal)
                    await ws.send(json.dumps({"type": "move", "move": move, "seq": seq}))
    return times


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0–100) of ``values``, in milliseconds."""
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0] * 1000
    return statistics.quantiles(values, n=1000, method="inclusive")[int(q * 10) - 1] * 1000


def report(cfg: Config, bot_delay: float, stats: Stats, elapsed: float) -> None:
    """Print the results table."""
    table = Table(title=f"tikki web table under load: {cfg.game}, {cfg.players} players")
    for column in ("tables", "think s", "bot delay s", "moves/s", "human moves"):
        table.add_column(column, justify="right")
    for column in ("p50 ms", "p90 ms", "p99 ms", "max ms", "refused", "games"):
        table.add_column(column, justify="right")
    table.add_column("server CPU ms/move", justify="right")
    lat = stats.latencies
    cpu = stats.server_cpu
    per_move = cpu / stats.moves_seen * 1000 if cpu is not None and stats.moves_seen else None
    table.add_row(
        str(cfg.tables),
        f"{cfg.think:g}",
        f"{bot_delay:g}",
        f"{stats.moves_seen / elapsed:,.0f}",
        f"{len(lat):,}",
        f"{percentile(lat, 50):.1f}",
        f"{percentile(lat, 90):.1f}",
        f"{percentile(lat, 99):.1f}",
        f"{max(lat) * 1000 if lat else float('nan'):.1f}",
        str(len(stats.errors)),
        str(stats.games_finished),
        "-" if per_move is None else f"{per_move:.2f}",
    )
    console.print(table)
    if stats.threads and stats.moves_seen:
        each = ", ".join(f"{u / stats.moves_seen * 1000:.2f}+{y / stats.moves_seen * 1000:.2f}"
                         for u, y in stats.threads)  # fmt: skip
        console.print(f"server threads, CPU ms/move (user+system), busiest first: {each}")
    for error in stats.errors[:5]:
        console.print(f"[red]refused:[/red] {error}")


def main() -> None:
    """Parse the options, start a server unless ``--url`` is given, run the load, report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="concurrent tables (200)")
    parser.add_argument("--seconds", type=float, default=30, help="measuring time (30)")
    parser.add_argument("--game", default="myllymatti", help="game (myllymatti)")
    parser.add_argument("--players", type=int, default=3, help="players per table (3)")
    parser.add_argument("--bots", default="heuristic", help="bot spec of the other seats")
    parser.add_argument("--think", type=float, default=0.3, help="human think time, s (0.3)")
    parser.add_argument("--bot-delay", type=float, default=0.3, help="server bot delay (0.3)")
    parser.add_argument("--ramp", type=float, default=5, help="ramp-up before measuring, s (5)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the clients' choices")
    parser.add_argument("--url", help="measure this running server instead of starting one")
    parser.add_argument("--abuse", action="store_true", help="run the abuse scenario beside")
    parser.add_argument("--hard-tables", type=int, default=20, help="abuse: 5-Hard tables (20)")
    parser.add_argument("--medium-tables", type=int, default=1000, help="abuse: Medium (1000)")
    parser.add_argument("--probe-moves", type=int, default=8, help="abuse: Hard answers (8)")
    parser.add_argument("--profile", help="run the server under cProfile, stats to this file")
    parser.add_argument(
        "--whole-history",
        action="store_true",
        help="clients without history deltas (every state the whole history)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc = None
        url = args.url
        if url is None:
            proc, url = start_server(args.bot_delay, Path(tmp), OPEN_LIMITS, args.profile)
        cfg = Config(
            url.rstrip("/"),
            args.tables,
            args.seconds,
            args.game,
            args.players,
            args.bots,
            args.think,
            args.seed,
            args.ramp,
            proc.pid if proc is not None else None,
            args.profile is not None,
            not args.whole_history,
        )
        loop = event_loop_of(cfg.server_pid)
        try:
            if args.abuse:
                quiet = asyncio.run(hard_answers(cfg.url, args.probe_moves, args.bot_delay))
                asyncio.run(abuse(cfg.url, args.hard_tables, args.medium_tables))
            stats, elapsed = asyncio.run(run(cfg))
            if args.abuse:
                loaded = asyncio.run(hard_answers(cfg.url, args.probe_moves, args.bot_delay))
        finally:
            if proc is not None:
                proc.terminate()
                proc.wait(timeout=10)
        pid = proc.pid if proc else "-"
        kind = "history deltas" if cfg.deltas else "whole histories"
        console.print(f"server: {url} (pid {pid}, event loop {loop}), client pid {os.getpid()}, "
                      f"{kind}")  # fmt: skip
        report(cfg, args.bot_delay, stats, elapsed)
        if args.abuse:
            report_abuse(args, quiet, loaded)


def report_abuse(args: argparse.Namespace, quiet: list[float], loaded: list[float]) -> None:
    """Print the Hard bot's answer times at a quiet table, without and with the abuse."""
    table = Table(
        title="Hard bot at a quiet table (answer time less the bot delay; the same deals and"
        " moves both times, x unloaded = median of the per-answer ratios)"
    )
    for column in ("abuse", "answers", "median s", "max s", "x unloaded"):
        table.add_column(column, justify="right")
    ratios = [b / a for a, b in zip(quiet, loaded, strict=False) if a > 0]
    for name, times in (("none", quiet), (f"{args.hard_tables}+{args.medium_tables}", loaded)):
        ratio = statistics.median(ratios) if times is loaded else 1.0
        table.add_row(
            name, str(len(times)), f"{statistics.median(times):.3f}", f"{max(times):.3f}",
            f"{ratio:.2f}",
        )  # fmt: skip
    console.print(table)


if __name__ == "__main__":
    main()
