"""Crowds against one web-table server, each measured before and under attack.

Grown out of ``benchmarks/load.py --abuse``. The benchmark starts ``tikki serve`` (its
defaults, but ``--forwarded-allow-ips 127.0.0.1`` and ``--allow-client-seeds``): the
crowds' HTTP requests and WebSockets go through 127.0.0.1, the trusted proxy of this test
configuration, each with its own ``X-Forwarded-For`` address, so one client process acts
as many addresses; the raw-TCP crowds (idle connections, slowloris) connect from other
loopback addresses (127.0.0.5, 127.0.0.6), each one host. Everything stays on
127.0.0.0/8 and every attack loop is bounded.

Each crowd meets a fresh server. It measures, first with the server quiet and then while
the crowd runs:

- **bot s**: a person's Hard bot (``ismcts:iterations=1000``) at a quiet two-seat
  Myllymatti table, the median seconds from the person's move to the bot's answer (the
  same seeded deals and moves both times, so the same searches);
- **others p95 ms**: another person's move latency at a table against a Medium bot (from
  sending the move to the state that holds it), 95th percentile;
- the server's **RSS** (MiB) and **open files** (under a crowd: the largest seen while
  it ran, sampled four times a second);
- what the crowd got (tables, jobs, connections accepted or refused) and the server's
  log lines while it ran.

The crowds: ``bots`` 20 addresses with an all-Expert bot-only table
each; ``analysis`` 15 addresses asking for 2 analyses each of finished tables; ``idle``
20,000 connections from one host that send nothing; ``slowloris`` 200 connections from one
host sending a header byte every 2 s; ``watchers`` 3,000 WebSockets from one address on
the measured table; ``tables`` 110 addresses creating waiting tables for 30 s, then a new
user creates one; ``hoard``, ``watchers-idle``, ``idle-http``, ``chat``, ``unknown-joins``
and ``seated-expert``: see ``benchmarks/crowds_hoard.py``; ``replay-1``/``replay-5``
addresses uploading a 58 KB record of ~9,800 moves and the longest record replayed (2,000
moves, changed each time: never cached); ``login-5``/``login-20`` addresses guessing one
account's password (and registering now and then); ``hint-1``/``hint-5``/``hint-20``
addresses at tables of their own, asking for a hint at every turn and playing it.  A crowd
writes its notes as it goes; one stopped before its end says ``cut_short``.

Run: ``.venv/bin/python benchmarks/abuse.py [--only bots,idle] [--save FILE]``
(``--save`` writes the results as JSON; runs are kept in ``benchmarks/runs/``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.table import Table
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).parent))
from crowds_hoard import HOARD_CROWDS, NOFILE, as_address, seat_at
from load import free_port

console = Console(width=160) if not sys.stdout.isatty() else Console()

HARD = "ismcts:iterations=1000"
EXPERT = "expert:iterations=3000"
PROXY = "127.0.0.1"
"""The trusted proxy of the test configuration: the crowds' requests carry their address."""
IDLE_HOST = "127.0.0.5"
SLOW_HOST = "127.0.0.6"


@dataclass
class Probe:
    """One measurement of the quiet clients and the server."""

    bot_s: float
    others_p95_ms: float
    rss_mib: float
    open_files: int


@dataclass
class Result:
    """One crowd: the probes before and under it, and what it got."""

    attack: str
    before: Probe
    under: Probe
    notes: dict[str, Any] = field(default_factory=dict)


@dataclass
class Server:
    """The ``tikki serve`` child process and the lines it printed."""

    proc: subprocess.Popen[str]
    url: str
    lines: list[str] = field(default_factory=list)

    def pump(self) -> None:
        """Collect the server's output lines (in a thread)."""
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def stats(self) -> tuple[float, int]:
        """RSS in MiB and open file descriptors of the server process."""
        pid = self.proc.pid
        rss = 0.0
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) / 1024
        return rss, len(os.listdir(f"/proc/{pid}/fd"))


def start(workdir: Path, bot_delay: float, nofile: int | None = None) -> Server:
    """``tikki serve`` on a free loopback port, trusting 127.0.0.1 as its proxy (under
    ``ulimit -n nofile`` when given)."""
    port = free_port()
    tikki = Path(sys.executable).with_name("tikki")
    cmd = [str(tikki), "serve", "--host", "127.0.0.1", "--port", str(port)]
    cmd += ["--db", f"sqlite:///{workdir / 'abuse.sqlite'}", "--bot-delay", str(bot_delay)]
    cmd += ["--forwarded-allow-ips", PROXY, "--allow-client-seeds"]
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        preexec_fn=None if nofile is None else lambda: limit_files(nofile),
    )
    server = Server(proc, f"http://127.0.0.1:{port}")
    threading.Thread(target=server.pump, daemon=True).start()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit("the server stopped at start:\n" + "\n".join(server.lines))
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{server.url}/api/games", timeout=1).status_code == 200:
                return server
        time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not answer within 30 s")


def limit_files(nofile: int) -> None:
    """``ulimit -n nofile`` (soft and hard) for the server about to start."""
    import resource

    resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))


async def bot_answers(url: str, moves: int, address: str) -> list[float]:
    """A person's moves against a Hard bot at fresh seeded tables: the bot's answer times."""
    ws_base = re.sub(r"^http", "ws", url)
    rng = random.Random(7)
    times: list[float] = []
    seats = [{"kind": "open"}, {"kind": "bot", "bot": HARD}]
    async with httpx.AsyncClient(base_url=url, timeout=120) as http:
        deal = 0
        while len(times) < moves:
            deal += 1
            table_id, token = await seat_at(http, seats, address, seed=deal)
            async with connect(
                f"{ws_base}/ws/tables/{table_id}", additional_headers=as_address(address)
            ) as ws:
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
                        times.append(time.perf_counter() - sent_at)
                    sent_at, seq = time.perf_counter(), msg["seq"]
                    move = rng.choice(legal)
                    await ws.send(json.dumps({"type": "move", "move": move, "seq": seq}))
    return times


async def move_latencies(url: str, seconds: float, address: str) -> list[float]:
    """Another person's move latencies against a Medium bot for ``seconds``."""
    ws_base = re.sub(r"^http", "ws", url)
    rng = random.Random(11)
    out: list[float] = []
    stop = time.monotonic() + seconds
    seats = [{"kind": "open"}, {"kind": "bot", "bot": "heuristic"}]
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        while time.monotonic() < stop:
            table_id, token = await seat_at(http, seats, address)
            async with connect(
                f"{ws_base}/ws/tables/{table_id}", additional_headers=as_address(address)
            ) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                sent_at, sent_seq = None, -1
                async for raw in ws:
                    msg = json.loads(raw)
                    if msg["type"] != "state":
                        continue
                    if sent_at is not None and msg["seq"] > sent_seq:
                        out.append(time.perf_counter() - sent_at)
                        sent_at = None
                    legal = msg["view"].get("legal_moves")
                    if msg["status"] == "finished" or time.monotonic() >= stop:
                        break
                    if sent_at is None and legal:
                        await asyncio.sleep(0.05)
                        sent_at, sent_seq = time.perf_counter(), msg["seq"]
                        move = rng.choice(legal)
                        await ws.send(json.dumps({"type": "move", "move": move, "seq": sent_seq}))
    return out


def p95(values: list[float]) -> float:
    """The 95th percentile of ``values`` in milliseconds."""
    if len(values) < 2:
        return float("nan") if not values else values[0] * 1000
    return statistics.quantiles(values, n=100, method="inclusive")[94] * 1000


async def probe(server: Server, args: argparse.Namespace, tag: str) -> Probe:
    """Measure the quiet clients (the bot and the other person together) and the server."""
    bot, others = await asyncio.gather(
        bot_answers(server.url, args.bot_moves, f"192.0.2.{10 + len(tag)}"),
        move_latencies(server.url, args.seconds, f"192.0.2.{100 + len(tag)}"),
    )
    rss, files = server.stats()
    return Probe(statistics.median(bot) if bot else float("nan"), p95(others), rss, files)


# --- the crowds -------------------------------------------------------------------------

Crowd = Callable[[Server, dict[str, Any]], Coroutine[Any, Any, None]]


async def bots_crowd(server: Server, notes: dict[str, Any]) -> None:
    """20 addresses, one all-Expert bot-only Mattis table each (they play on and on)."""
    created = refused = 0
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        body = {"game": "mattis", "seats": [{"kind": "bot", "bot": EXPERT}] * 3}
        for i in range(20):
            r = await http.post("/api/tables", json=body, headers=as_address(f"10.20.0.{i + 1}"))
            created, refused = created + (r.status_code == 201), refused + (r.status_code != 201)
    notes.update(tables=created, refused=refused)
    await asyncio.sleep(3600)  # they play until the crowd is stopped


async def finished_tables(http: httpx.AsyncClient, n: int) -> list[str]:
    """``n`` finished tables of two Easy bots (made by 10.30.x addresses)."""
    ids = []
    body = {"game": "myllymatti", "seats": [{"kind": "bot", "bot": "random"}] * 2}
    for i in range(n):
        r = await http.post("/api/tables", json=body, headers=as_address(f"10.30.0.{i + 1}"))
        r.raise_for_status()
        ids.append(r.json()["table"]["id"])
    for table_id in ids:
        for _ in range(600):
            r = await http.get(f"/api/tables/{table_id}", headers=as_address("10.30.1.1"))
            if r.json()["status"] == "finished":
                break
            await asyncio.sleep(0.1)
    return ids


async def analysis_crowd(server: Server, notes: dict[str, Any]) -> None:
    """15 addresses, 2 analyses each of finished tables (asking again as jobs end)."""
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        ids = notes.pop("prepared")
        started = refused = 0
        for i, table_id in enumerate(ids):
            for seat in (0, 1):
                r = await http.post(
                    f"/api/tables/{table_id}/analysis/{seat}",
                    headers=as_address(f"10.40.0.{i + 1}"),
                )
                started += r.status_code == 202
                refused += r.status_code == 429
        notes.update(jobs=started, refused=refused)
        jobs = [(t, seat) for t in ids for seat in (0, 1)][:started]
        most = 0
        for _ in range(3600):  # the largest queue place any job shows
            await asyncio.sleep(1)
            for table_id, seat in jobs:
                r = await http.get(
                    f"/api/tables/{table_id}/analysis/{seat}", headers=as_address("10.40.9.9")
                )
                if r.status_code == 200 and r.json().get("queue") is not None:
                    most = max(most, r.json()["queue"])
            notes["largest_place_shown"] = most


async def analysis_prepare(server: Server) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        return {"prepared": await finished_tables(http, 15)}


async def idle_crowd(server: Server, notes: dict[str, Any]) -> None:
    """20,000 connections from one host (127.0.0.5) that never send a byte."""
    host, port = "127.0.0.1", int(server.url.rsplit(":", 1)[1])
    held: list[asyncio.StreamWriter] = []
    refused = 0
    attempts = 0
    gate = asyncio.Semaphore(200)

    async def one() -> None:
        nonlocal refused
        async with gate:
            try:
                reader, writer = await asyncio.open_connection(
                    host, port, local_addr=(IDLE_HOST, 0)
                )
            except OSError:
                refused += 1
                return
            try:
                data = await asyncio.wait_for(reader.read(100), 0.5)
            except TimeoutError:
                held.append(writer)  # still open: the server keeps it
                return
            refused += 1 if not data or data.startswith(b"HTTP/1.1 503") else 0
            writer.close()

    try:
        batch = []
        for attempts in range(1, 20_001):
            batch.append(asyncio.create_task(one()))
            if len(batch) >= 1000:
                await asyncio.gather(*batch)
                batch = []
                notes.update(attempts=attempts, refused=refused)
        await asyncio.gather(*batch)
        notes.update(attempts=attempts, refused=refused, unanswered_at_once=len(held))
        await asyncio.sleep(3600)
    finally:
        for writer in held:
            writer.close()


async def slowloris_crowd(server: Server, notes: dict[str, Any]) -> None:
    """200 connections from one host (127.0.0.6), a header byte every 2 s each."""
    host, port = "127.0.0.1", int(server.url.rsplit(":", 1)[1])
    held_for: list[float] = []

    async def one() -> None:
        try:
            reader, writer = await asyncio.open_connection(host, port, local_addr=(SLOW_HOST, 0))
        except OSError:
            held_for.append(0.0)
            return
        began = time.monotonic()
        request = b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 10_000
        try:
            for byte in request:
                writer.write(bytes([byte]))
                await writer.drain()
                with contextlib.suppress(TimeoutError):
                    if await asyncio.wait_for(reader.read(100), 2.0) == b"":
                        break
        except (ConnectionError, OSError):
            pass
        finally:
            held_for.append(time.monotonic() - began)
            writer.close()
            notes.update(closed=len(held_for), longest_s=round(max(held_for), 1))

    await asyncio.gather(*(one() for _ in range(200)))
    await asyncio.sleep(3600)


async def watchers_crowd(server: Server, notes: dict[str, Any]) -> None:
    """3,000 WebSockets from one address, all watching the same playing table."""
    ws_base = re.sub(r"^http", "ws", server.url)
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        seats = [{"kind": "open"}, {"kind": "bot", "bot": "heuristic"}]
        table_id, _token = await seat_at(http, seats, "10.50.0.1")
    accepted: list[Any] = []
    refused = 0
    for _ in range(3000):
        try:
            ws = await connect(
                f"{ws_base}/ws/tables/{table_id}", additional_headers=as_address("10.50.0.2")
            )
            await ws.send(json.dumps({"type": "hello"}))
            first = json.loads(await asyncio.wait_for(ws.recv(), 5))
            if first.get("type") == "error":
                refused += 1
                await ws.close()
            else:
                accepted.append(ws)
        except Exception:
            refused += 1
        notes.update(accepted=len(accepted), refused=refused)
    try:
        await asyncio.sleep(3600)
    finally:
        for ws in accepted:
            with contextlib.suppress(Exception):
                await ws.close()


async def tables_crowd(server: Server, notes: dict[str, Any]) -> None:
    """110 addresses creating waiting tables for 30 s; then a new user creates one."""
    made = refused = 0
    body = {"game": "myllymatti", "seats": [{"kind": "open"}] * 2}
    stop = time.monotonic() + 30
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:

        async def address(n: int) -> None:
            nonlocal made, refused
            for _ in range(40):
                if time.monotonic() > stop:
                    return
                r = await http.post(
                    "/api/tables", json=body, headers=as_address(f"10.60.{n // 250}.{n % 250 + 1}")
                )
                made, refused = made + (r.status_code == 201), refused + (r.status_code == 429)
                notes.update(tables=made, refused=refused)  # kept if the crowd is cut short
                await asyncio.sleep(0.5)

        await asyncio.gather(*(address(n) for n in range(110)))
        notes.update(tables=made, refused=refused)
        r = await http.post("/api/tables", json=body, headers=as_address("198.51.100.77"))
        notes["new_user"] = r.status_code
    await asyncio.sleep(3600)


def long_record(moves: int) -> dict[str, Any]:
    """A legal Myllymatti record of about ``moves`` moves (four players taking the trick
    again and again, ``max_moves`` raised): 9,800 moves are some 58 KB of compact JSON."""
    from tikki.core import load

    state = load("myllymatti", 4, max_moves=10_000).new_state(seed=2)
    rng = random.Random(2)
    while not state.is_over and len(state.moves) < moves:
        legal = state.legal_moves()
        cards = [m for m in legal if m != "take"]
        state.play(
            "take" if "take" in legal and rng.random() < 0.97 else rng.choice(cards or legal)
        )
    return dict(state.record())


def counted(notes: dict[str, Any], what: str, status: int) -> None:
    """Count one answer's status in the notes (``what``: ``"200"`` ...)."""
    key = f"{what}_{status}"
    notes[key] = notes.get(key, 0) + 1


async def replay_crowd(addresses: int, server: Server, notes: dict[str, Any]) -> None:
    """``addresses`` addresses uploading records to replay without pause: the 58 KB record
    of ~9,800 moves, and the longest record replayed (2,000 moves), changed each time so
    that no answer is cached."""
    huge = json.dumps(long_record(9800), separators=(",", ":"))
    longest = long_record(2000)
    notes.update(record_kb=round(len(huge) / 1000), record_moves=9800)
    headers = {"Content-Type": "application/json", "Accept-Encoding": "gzip"}

    async def one(n: int, http: httpx.AsyncClient) -> None:
        address = f"10.70.0.{n + 1}"
        for i in range(100_000):
            r = await http.post(
                "/api/replay", content=huge, headers={**headers, **as_address(address)}
            )
            counted(notes, "huge", r.status_code)
            body = json.dumps({**longest, "note": f"{n}-{i}"}, separators=(",", ":"))
            r = await http.post(
                "/api/replay", content=body, headers={**headers, **as_address(address)}
            )
            counted(notes, "longest", r.status_code)
            if r.status_code == 429:
                await asyncio.sleep(0.2)  # the attacker knocks again soon

    async with httpx.AsyncClient(base_url=server.url, timeout=120) as http:
        await asyncio.gather(*(one(n, http) for n in range(addresses)))


async def login_prepare(server: Server) -> dict[str, Any]:
    """The account the login crowd guesses at."""
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        await http.get("/api/account", headers=as_address("10.80.9.9"))
        r = await http.post(
            "/api/account/register",
            json={"name": "Annaliisa", "password": "a long and right password"},
            headers={"X-CSRF-Token": http.cookies["tikki_csrf"], **as_address("10.80.9.9")},
        )
        r.raise_for_status()
    return {}


async def login_crowd(addresses: int, server: Server, notes: dict[str, Any]) -> None:
    """``addresses`` addresses guessing one account's password without pause (and trying
    names of their own: a registration each now and then)."""

    async def one(n: int) -> None:
        address = f"10.80.{n // 250}.{n % 250 + 1}"
        async with httpx.AsyncClient(base_url=server.url, timeout=120) as http:
            await http.get("/api/account", headers=as_address(address))
            for i in range(100_000):
                headers = {"X-CSRF-Token": http.cookies["tikki_csrf"], **as_address(address)}
                name = "Annaliisa" if i % 4 else f"Crowd{n}x{i}"
                path = "/api/account/login" if i % 4 else "/api/account/register"
                body = {"name": name, "password": f"guess number {i}"}
                r = await http.post(path, json=body, headers=headers)
                counted(notes, "login" if i % 4 else "register", r.status_code)
                if r.status_code in (429, 503):
                    await asyncio.sleep(0.1)

    await asyncio.gather(*(one(n) for n in range(addresses)))


async def hint_crowd(addresses: int, server: Server, notes: dict[str, Any]) -> None:
    """``addresses`` addresses, each at a table of its own against a Medium bot, asking
    for a hint at every turn and playing it (a new position each time: no hint is
    shared)."""
    seats = [{"kind": "open"}, {"kind": "bot", "bot": "heuristic"}]

    async def one(n: int, http: httpx.AsyncClient) -> None:
        address = f"10.90.0.{n + 1}"
        while True:
            table_id, token = await seat_at(http, seats, address)
            auth = {"Authorization": f"Bearer {token}", **as_address(address)}
            while True:
                s = (await http.get(f"/api/tables/{table_id}/state", headers=auth)).json()
                if s["status"] == "finished":
                    break
                if not s["view"].get("legal_moves"):
                    await asyncio.sleep(0.05)
                    continue
                r = await http.post(f"/api/tables/{table_id}/hint", headers=auth)
                counted(notes, "hint", r.status_code)
                if r.status_code != 200:
                    move = s["view"]["legal_moves"][0]
                    await asyncio.sleep(0.5)
                else:
                    move = r.json()["move"]
                await http.post(
                    f"/api/tables/{table_id}/moves",
                    json={"move": move, "seq": s["seq"]},
                    headers=auth,
                )

    async with httpx.AsyncClient(base_url=server.url, timeout=120) as http:
        await asyncio.gather(*(one(n, http) for n in range(addresses)))


def sized(
    crowd: Callable[[int, Server, dict[str, Any]], Coroutine[Any, Any, None]], n: int
) -> Crowd:
    """``crowd`` with ``n`` addresses."""

    async def run(server: Server, notes: dict[str, Any]) -> None:
        notes["addresses"] = n
        await crowd(n, server, notes)

    return run


CROWDS: dict[str, tuple[Crowd, Callable[[Server], Awaitable[dict[str, Any]]] | None]] = {
    "bots": (bots_crowd, None),
    "analysis": (analysis_crowd, analysis_prepare),
    "idle": (idle_crowd, None),
    "slowloris": (slowloris_crowd, None),
    "watchers": (watchers_crowd, None),
    "tables": (tables_crowd, None),
    **{name: (crowd, None) for name, crowd in HOARD_CROWDS.items()},
    "replay-1": (sized(replay_crowd, 1), None),
    "replay-5": (sized(replay_crowd, 5), None),
    "login-5": (sized(login_crowd, 5), login_prepare),
    "login-20": (sized(login_crowd, 20), login_prepare),
    "hint-1": (sized(hint_crowd, 1), None),
    "hint-5": (sized(hint_crowd, 5), None),
    "hint-20": (sized(hint_crowd, 20), None),
}


@contextlib.asynccontextmanager
async def running(crowd: Crowd, server: Server, notes: dict[str, Any]) -> AsyncIterator[None]:
    """Run ``crowd`` in the background for the body, then stop it."""
    task = asyncio.create_task(crowd(server, notes))
    try:
        yield
    finally:
        if not task.done():
            notes["cut_short"] = True  # stopped before it ended: its notes so far
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


async def measure(name: str, server: Server, args: argparse.Namespace) -> Result:
    """One crowd: probe, start it, let it settle, probe again, stop it."""
    crowd, prepare = CROWDS[name]
    notes: dict[str, Any] = await prepare(server) if prepare else {}
    before = await probe(server, args, name)
    lines = len(server.lines)
    peak = [0.0, 0]

    async def sample() -> None:  # the server's largest RSS and open files under the crowd
        while True:
            rss, files = server.stats()
            peak[:] = [max(peak[0], rss), max(int(peak[1]), files)]
            await asyncio.sleep(0.25)

    async with running(crowd, server, notes):
        sampler = asyncio.create_task(sample())
        await asyncio.sleep(args.settle)
        under = await probe(server, args, name + "!")
        sampler.cancel()
    under.rss_mib, under.open_files = (
        max(under.rss_mib, peak[0]),
        max(under.open_files, int(peak[1])),
    )
    notes["log_lines"] = len(server.lines) - lines
    notes.pop("prepared", None)
    await asyncio.sleep(2)  # let the server drop what the crowd left
    return Result(name, before, under, notes)


def report(results: list[Result]) -> None:
    """Print one row per crowd."""
    table = Table(title="tikki web table under crowds: before → under")
    for column in (
        "crowd",
        "bot s",
        "others p95 ms",
        "RSS MiB",
        "open files",
        "what the crowd got",
    ):
        table.add_column(
            column, justify="left" if column in ("crowd", "what the crowd got") else "right"
        )
    for r in results:
        b, u = r.before, r.under
        notes = ", ".join(f"{k} {v}" for k, v in r.notes.items())
        table.add_row(
            r.attack,
            f"{b.bot_s:.2f} → {u.bot_s:.2f}",
            f"{b.others_p95_ms:.0f} → {u.others_p95_ms:.0f}",
            f"{b.rss_mib:.0f} → {u.rss_mib:.0f}",
            f"{b.open_files} → {u.open_files}",
            notes,
        )
    console.print(table)


def main() -> None:
    """Start a server, run the crowds one after another, report (and save)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default=",".join(CROWDS), help="crowds to run (all)")
    parser.add_argument("--bot-moves", type=int, default=6, help="Hard bot answers a probe (6)")
    parser.add_argument("--seconds", type=float, default=10, help="others' probe, s (10)")
    parser.add_argument("--settle", type=float, default=5, help="s a crowd runs before (5)")
    parser.add_argument("--bot-delay", type=float, default=0, help="server --bot-delay (0)")
    parser.add_argument("--save", type=Path, help="write the results as JSON here")
    args = parser.parse_args()
    names = [n.strip() for n in args.only.split(",") if n.strip()]
    unknown = sorted(set(names) - set(CROWDS))
    if unknown:
        parser.error(f"unknown crowds {unknown}: choose from {', '.join(CROWDS)}")
    results = []
    for name in names:  # each crowd against a fresh server: nothing left from the one before
        with tempfile.TemporaryDirectory() as tmp:
            try:
                server = start(Path(tmp), args.bot_delay, NOFILE.get(name))
            except SystemExit as err:  # this crowd's server did not start: the others stay
                console.print(f"crowd {name}: {err}")
                continue
            try:
                asyncio.run(bot_answers(server.url, 2, "192.0.2.1"))  # warm the workers
                console.print(f"crowd: {name} …")
                results.append(asyncio.run(measure(name, server, args)))
                report(results[-1:])
            finally:
                server.proc.terminate()
                server.proc.wait(timeout=15)
    report(results)
    if args.save:
        saved = {
            "command": " ".join(["benchmarks/abuse.py", *sys.argv[1:]]),
            "cores": len(os.sched_getaffinity(0)),
            "results": [asdict(r) for r in results],
        }
        args.save.write_text(json.dumps(saved, indent=1) + "\n")


if __name__ == "__main__":
    main()
