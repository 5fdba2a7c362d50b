"""Clients that never read: the server's memory and how soon it drops them.

The benchmark starts ``tikki serve`` as its own process (a fresh SQLite file), creates one
long table of bots only (Mückenstich, four Medium bots, a short bot delay, so state
messages keep coming) and opens ``--clients`` spectator WebSockets to it. Each client
sends ``{"type": "sync"}`` every ``--interval`` seconds and never reads (its receive buffer
is small, so the server's sends soon block). A client counts as *closed* when its send
fails because the server dropped the connection.

It prints one table: clients, the server's RSS before the clients and its peak while they
ran (from ``/proc``), the rise, how many clients were closed, and the time to close
(median and slowest, from the first sync). The issue's target: 100 clients raise the RSS
by less than 150 MiB and are all closed within 30 s.

Run: ``.venv/bin/python benchmarks/slow_clients.py [--clients 100] [--seconds 40]
[--interval 0.02]`` (Linux: RSS comes from ``/proc/PID/status``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
from rich.console import Console
from rich.table import Table
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import start_server

console = Console(width=140)
SEATS = [{"kind": "bot", "bot": "heuristic"}] * 4


def rss_mib(pid: int) -> float:
    """The resident memory of a process, in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def slow_client(url: str, interval: float, deadline: float) -> float | None:
    """Send sync and never read; the seconds until the server dropped us (None: never)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    host, port = url.split("//", 1)[1].split("/", 1)[0].split(":")
    sock.connect((host, int(port)))
    sock.setblocking(False)
    started = time.monotonic()
    async with connect(url, sock=sock, max_queue=1, open_timeout=30) as ws:
        with contextlib.suppress(ConnectionClosed, OSError):
            while time.monotonic() < deadline:
                await asyncio.wait_for(ws.send('{"type": "sync"}'), 5)
                await asyncio.sleep(interval)
            return None
    return time.monotonic() - started


async def run(base: str, pid: int, clients: int, seconds: float, interval: float) -> None:
    """Create the table, let the clients loose, watch the RSS; print the table."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        made = await http.post("/api/tables", json={"game": "mueckenstich", "seats": SEATS})
        made.raise_for_status()
        table_id = made.json()["table"]["id"]
    await asyncio.sleep(2)
    before = rss_mib(pid)
    ws_url = base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
    deadline = time.monotonic() + seconds
    tasks = [asyncio.create_task(slow_client(ws_url, interval, deadline)) for _ in range(clients)]
    peak = before
    while not all(t.done() for t in tasks):
        peak = max(peak, rss_mib(pid))
        await asyncio.sleep(0.25)
    closed = [t for t in (t.result() for t in tasks) if t is not None]
    table = Table(title="clients that send sync and never read")
    for column in ("clients", "RSS before MiB", "RSS peak MiB", "rise MiB", "closed"):
        table.add_column(column, justify="right")
    table.add_column("close p50 s", justify="right")
    table.add_column("close max s", justify="right")
    table.add_row(
        str(clients),
        f"{before:.0f}",
        f"{peak:.0f}",
        f"{peak - before:.0f}",
        f"{len(closed)}/{clients}",
        f"{statistics.median(closed):.1f}" if closed else "-",
        f"{max(closed):.1f}" if closed else "-",
    )
    console.print(table)


def main() -> None:
    """Start a server, run the clients, report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=100, help="slow clients (100)")
    parser.add_argument("--seconds", type=float, default=40, help="longest wait, s (40)")
    parser.add_argument("--interval", type=float, default=0.02, help="between syncs, s (0.02)")
    parser.add_argument("--bot-delay", type=float, default=0.05, help="server bot delay (0.05)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_server(args.bot_delay, Path(tmp))
        try:
            asyncio.run(run(url, proc.pid, args.clients, args.seconds, args.interval))
        finally:
            proc.terminate()
            proc.wait(timeout=10)


if __name__ == "__main__":
    main()
