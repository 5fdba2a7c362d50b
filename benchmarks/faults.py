"""Faults under load: a ``make cluster`` (3 ``tikki serve --cluster`` processes behind
nginx) with people and bots playing over the WebSocket protocol and HTTP, and, one after
the other, ``kill -9`` of a process, SIGTERM of a process, a PostgreSQL restart and a split
route (spectator sockets of tables on a process that does not own them).

It grows from the failover test (``tests/test_cluster_proxy.py``): the same simulated
people (seat 0 of a two-seat Myllymatti table against a random bot, over a WebSocket or
over HTTP, always through nginx, reconnecting whenever a socket closes), bot-only Mattis
tables beside them, both topped up as games end, and a lobby reader through nginx.

Per fault it counts:

- **lost**: moves a person saw acknowledged (a state with a higher ``seq`` after it, or
  the HTTP 200) that are not stored at their ``seq``;
- **doubled**: tables whose stored moves are not numbered 0, 1, 2, … or do not replay
  from the seed (a move applied twice does not);
- **5xx**: answers with a status of 500 or more that a client got through nginx (HTTP
  requests, WebSocket upgrades), by status;
- **tracebacks**: ``Traceback`` in the tikki processes' logs written meanwhile;
- **moving after**: seconds from the fault until every table that was being played when
  it began has stored a move (or ended); for the split route, from the moment the
  stray sockets are open;
- the close codes the people's sockets saw, moves refused ``unavailable`` or ``moved``
  (both say: send it again), reconnects, and for the split route the tables that changed
  hands (its target is none).

**PostgreSQL.** By default the benchmark runs its own PostgreSQL server (``initdb`` in a
temporary directory, on a free port, as the ``postgres`` user when run as root), so that
``pg_ctl restart -m fast`` restarts a real server without touching anyone else's. With
``--db URL`` (or where no ``initdb`` is found) it uses that server in a fresh schema and the
database fault is ``pg_terminate_backend`` of every session of its own tikki processes
instead (found by their connections' local ports, so nobody else's sessions on that
server are touched); the output says which was done.

**Load.** Modest by default (the machine it was written on has 2 shared cores): 12
people over WebSockets, 4 over HTTP and 16 bot tables, bots waiting ``--bot-delay`` 0.4 s.

    nice -n 5 .venv/bin/python benchmarks/faults.py            # saves benchmarks/runs/faults.*
    .venv/bin/python benchmarks/faults.py --db "$TIKKI_TEST_POSTGRES" --no-save
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import psycopg

from tikki.server.cluster import lock_key
from tikki.server.cluster_run import Cluster, free_port, free_ports, tail

RUNS = Path(__file__).resolve().parent / "runs"
OPEN = ["--create-rate", "1e6", "--join-rate", "1e6", "--tables-per-address", "100000"]
OPEN += ["--waiting-per-address", "100000", "--max-bot-tables", "100000"]
OPEN += ["--connect-rate", "1e6", "--read-rate", "1e6", "--watchers-per-address", "100000"]
OPEN += ["--connections-per-address", "100000", "--allow-bot-specs", "--bot-workers", "1"]
PERSON_TABLE = [{"kind": "open"}, {"kind": "bot", "bot": "random"}]
BOT_TABLE = [{"kind": "bot", "bot": "random"}] * 3


# --- PostgreSQL -------------------------------------------------------------------------


class Postgres:
    """A PostgreSQL server of the benchmark's own (``own``) or a shared one in a fresh
    schema; :meth:`fault` restarts the first and cuts the second's tikki sessions."""

    def __init__(self, shared: str | None) -> None:
        self.shared = shared
        self.dir: Path | None = None
        self.port = 0
        self.bin = _pg_bin()
        self.url = ""
        self.kind = ""
        self.schema = ""
        self.base = ""

    @property
    def own(self) -> bool:
        """Whether this is the benchmark's own server (restartable)."""
        return self.dir is not None

    def start(self) -> str:
        """Start (or pick) the server; the tikki URL."""
        if self.shared is None and self.bin is not None:
            self._init()
            self.kind = "PostgreSQL restart (pg_ctl restart -m fast, own server)"
        else:
            base = self.shared or os.environ.get("TIKKI_TEST_POSTGRES", "")
            if not base:
                raise SystemExit("no initdb found: give --db URL (or TIKKI_TEST_POSTGRES)")
            schema = self.schema = f"tikki_faults_{uuid.uuid4().hex[:8]}"
            self.base = base
            with psycopg.connect(base, autocommit=True) as conn:
                conn.execute(f"CREATE SCHEMA {schema}")
            joiner = "&" if "?" in base else "?"
            self.url = f"{base}{joiner}options={quote(f'-csearch_path={schema}')}"
            self.kind = (
                "pg_terminate_backend of every session of the benchmark's processes (shared server)"
            )
        return self.url

    def _init(self) -> None:
        assert self.bin is not None
        self.dir = Path(tempfile.mkdtemp(prefix="tikki-faults-pg-"))
        self.port = free_port()
        data = self.dir / "data"
        (self.dir / "pw").write_text("postgres\n")
        if os.geteuid() == 0:
            os.chmod(self.dir, 0o755)
            shutil.chown(self.dir, "postgres", "postgres")
            shutil.chown(self.dir / "pw", "postgres", "postgres")
        self._as_pg(
            [
                "initdb",
                "-D",
                str(data),
                "-U",
                "postgres",
                "-A",
                "scram-sha-256",
                "--pwfile",
                str(self.dir / "pw"),
                "-E",
                "UTF8",
                "--no-sync",
            ]
        )
        conf = f"listen_addresses='127.0.0.1'\nport={self.port}\n"
        conf += f"unix_socket_directories='{self.dir}'\nmax_connections=200\n"
        with (data / "postgresql.conf").open("a") as out:
            out.write(conf)
        self._ctl("start")
        admin = f"postgresql://postgres:postgres@127.0.0.1:{self.port}/postgres"
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute("CREATE ROLE tikki LOGIN PASSWORD 'tikki'")
            conn.execute("CREATE DATABASE tikki OWNER tikki")
        self.url = f"postgresql://tikki:tikki@127.0.0.1:{self.port}/tikki"

    def _as_pg(self, command: list[str]) -> None:
        assert self.bin is not None
        full = [str(self.bin / command[0]), *command[1:]]
        if os.geteuid() == 0:
            full = ["runuser", "-u", "postgres", "--", *full]
        subprocess.run(full, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def _ctl(self, action: str) -> None:
        assert self.dir is not None
        log = str(self.dir / "postgres.log")
        self._as_pg(["pg_ctl", "-D", str(self.dir / "data"), "-l", log, "-m", "fast", "-w", action])

    def fault(self, pids: list[int]) -> str:
        """Restart the server (own), or end the PostgreSQL sessions of the processes
        ``pids`` (shared: only this benchmark's, found by their connections' ports, so
        that nobody else's tikki on the same server is touched); what was done."""
        if self.own:
            started = time.monotonic()
            self._ctl("restart")
            return f"restarted in {time.monotonic() - started:.2f} s"
        ports = sorted(
            local_ports(
                pids, remote_port=psycopg.conninfo.conninfo_to_dict(self.url).get("port") or 5432
            )
        )
        with psycopg.connect(self.url, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE client_port = ANY(%s) AND pid <> pg_backend_pid()",
                (ports,),
            ).fetchall()
        return f"{sum(1 for (done,) in rows if done)} sessions ended"

    def stop(self) -> None:
        """Stop the own server and remove its files."""
        if self.dir is None and self.schema:
            with contextlib.suppress(psycopg.Error), psycopg.connect(self.base) as conn:
                conn.execute(f"DROP SCHEMA {self.schema} CASCADE")
        if self.dir is not None:
            with contextlib.suppress(subprocess.CalledProcessError):
                self._ctl("stop")
            shutil.rmtree(self.dir, ignore_errors=True)


def local_ports(pids: list[int], remote_port: int | str) -> set[int]:
    """The local TCP ports of the processes ``pids``' connections to ``remote_port``
    (from /proc: the sockets among their open files, looked up in /proc/net/tcp{,6})."""
    inodes: set[str] = set()
    for pid in pids:
        with contextlib.suppress(OSError):
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                with contextlib.suppress(OSError):
                    target = os.readlink(fd)
                    if target.startswith("socket:["):
                        inodes.add(target[8:-1])
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                parts = line.split()
                local, remote, inode = parts[1], parts[2], parts[9]
                if inode in inodes and int(remote.rsplit(":", 1)[1], 16) == int(remote_port):
                    ports.add(int(local.rsplit(":", 1)[1], 16))
    return ports


def _pg_bin() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


# --- the load ---------------------------------------------------------------------------


@dataclass
class Counts:
    """What the clients saw, with the time of each event (monotonic)."""

    statuses: list[tuple[float, int, str]] = field(default_factory=list)
    """(when, HTTP status >= 500, what was asked)."""
    closes: list[tuple[float, int]] = field(default_factory=list)
    unavailable: list[float] = field(default_factory=list)
    reconnects: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def status(self, code: int, what: str, headers: Any = None) -> None:
        """Note an HTTP answer (kept when it is a 5xx, marked when it said Retry-After)."""
        if code >= 500:
            told = headers is not None and headers.get("retry-after") is not None
            self.statuses.append((time.monotonic(), code, what + (" +Retry-After" if told else "")))


@dataclass
class Person:
    """A person at seat 0 of a table, with what the server acknowledged."""

    table: str
    token: str
    acked: dict[int, tuple[str, float]] = field(default_factory=dict)
    """seq -> (the move stored there, when the person saw it acknowledged)."""
    over: bool = False


class Load:
    """The people, the bot tables and the lobby reader, kept going until :meth:`stop`."""

    def __init__(self, url: str, db: str, ws_people: int, http_people: int, bots: int):
        self.url, self.db = url, db
        self.counts = Counts()
        self.people: list[Person] = []
        self.want = (ws_people, http_people, bots)
        self.stopping = asyncio.Event()
        self.tasks: list[asyncio.Task[None]] = []
        self.bot_tables: set[str] = set()

    async def start(self) -> None:
        """Seat the people and make the bot tables; start every client."""
        ws_people, http_people, _ = self.want
        for _ in range(ws_people):
            self.tasks.append(asyncio.create_task(self.keep(self.ws_person)))
        for _ in range(http_people):
            self.tasks.append(asyncio.create_task(self.keep(self.http_person)))
        self.tasks.append(asyncio.create_task(self.bots()))
        self.tasks.append(asyncio.create_task(self.lobby()))

    async def stop(self) -> None:
        """Stop every client."""
        self.stopping.set()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    async def post(self, http: httpx.AsyncClient, path: str, body: dict[str, Any]) -> Any:
        """POST through nginx until it is answered 2xx (5xx counted); the JSON."""
        while not self.stopping.is_set():
            try:
                answer = await http.post(path, json=body)
            except httpx.HTTPError:
                await asyncio.sleep(0.2)
                continue
            self.counts.status(answer.status_code, f"POST {path.split('/')[-1]}", answer.headers)
            if answer.status_code < 300:
                return answer.json()
            await asyncio.sleep(0.2)
        return None

    async def seat(self, http: httpx.AsyncClient) -> Person | None:
        """A new table with a person in seat 0."""
        made = await self.post(http, "/api/tables", {"game": "myllymatti", "seats": PERSON_TABLE})
        if made is None:
            return None
        table = made["table"]["id"]
        invite = made["invites"][0]["url"].split("#invite=")[1]
        body = {"name": "p", "invite": invite}
        joined = await self.post(http, f"/api/tables/{table}/seats/0", body)
        if joined is None:
            return None
        person = Person(table, joined["token"])
        self.people.append(person)
        return person

    async def keep(self, play: Any) -> None:
        """One person after another: a new table whenever a game ends."""
        async with httpx.AsyncClient(base_url=self.url, timeout=10) as http:
            while not self.stopping.is_set():
                person = await self.seat(http)
                if person is not None:
                    await play(person)

    async def ws_person(self, person: Person) -> None:
        """Play over a WebSocket through nginx; connect again whenever it closes."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidStatus

        rng = random.Random(person.table)
        address = self.url.replace("http://", "ws://") + f"/ws/tables/{person.table}"
        while not self.stopping.is_set() and not person.over:
            try:
                async with connect(address, open_timeout=5) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": person.token}))
                    await self.play_socket(ws, person, rng)
                    if person.over or self.stopping.is_set():
                        return
                    await ws.close()
            except InvalidStatus as err:
                self.counts.status(
                    err.response.status_code, "WebSocket upgrade", err.response.headers
                )
            except ConnectionClosed as err:
                code = err.rcvd.code if err.rcvd is not None else 1006
                self.counts.closes.append((time.monotonic(), code))
            except (OSError, TimeoutError):
                pass
            if not self.stopping.is_set():
                self.counts.reconnects.append(time.monotonic())
                await asyncio.sleep(0.1)

    async def play_socket(self, ws: Any, person: Person, rng: random.Random) -> None:
        """Read states and answer them with moves until the game ends or we stop."""
        sent: tuple[int, str] | None = None
        while not self.stopping.is_set():
            with contextlib.suppress(TimeoutError):
                msg = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                if msg.get("type") == "error":
                    if msg.get("code") in ("unavailable", "moved"):
                        self.counts.unavailable.append(time.monotonic())
                    elif msg.get("code") not in ("stale", "not_your_turn"):
                        self.counts.errors.append(f"{msg.get('code')}: {msg.get('message')}")
                    sent = None
                    continue
                if msg.get("type") != "state":
                    continue
                seq = int(msg["seq"])
                if sent is not None and seq > sent[0]:
                    person.acked[sent[0]] = (sent[1], time.monotonic())
                    sent = None
                if msg["status"] == "finished":
                    person.over = True
                    return
                legal = msg["view"].get("legal_moves") or []
                if sent is None and msg["status"] == "playing" and legal:
                    move = rng.choice(legal)
                    await ws.send(json.dumps({"type": "move", "move": move, "seq": seq}))
                    sent = (seq, move)

    async def http_person(self, person: Person) -> None:
        """Play over HTTP through nginx: read the state, send a move."""
        rng = random.Random(person.table)
        headers = {"Authorization": f"Bearer {person.token}"}
        async with httpx.AsyncClient(base_url=self.url, timeout=10, headers=headers) as http:
            while not self.stopping.is_set() and not person.over:
                try:
                    await self.http_turn(http, person, rng)
                except httpx.HTTPError:
                    self.counts.reconnects.append(time.monotonic())
                    await asyncio.sleep(0.1)

    async def http_turn(self, http: httpx.AsyncClient, person: Person, rng: random.Random) -> None:
        """One read, and one move if it is the person's turn."""
        mine = await http.get(f"/api/tables/{person.table}/state")
        self.counts.status(mine.status_code, "GET state", mine.headers)
        if mine.status_code != 200:
            await asyncio.sleep(0.1)
            return
        now = mine.json()
        if now["status"] == "finished":
            person.over = True
            return
        legal = now["view"].get("legal_moves") or []
        if not legal:
            await asyncio.sleep(0.1)
            return
        move = rng.choice(legal)
        body = {"move": move, "seq": now["seq"]}
        answer = await http.post(f"/api/tables/{person.table}/moves", json=body)
        self.counts.status(answer.status_code, "POST moves", answer.headers)
        if answer.status_code == 200:
            person.acked[now["seq"]] = (move, time.monotonic())
        elif answer.status_code >= 500:
            await asyncio.sleep(0.1)
        else:
            code = answer.json().get("detail", {}).get("code")
            if code in ("unavailable", "moved"):
                self.counts.unavailable.append(time.monotonic())
            elif code != "stale":
                self.counts.errors.append(answer.text[:200])

    async def bots(self) -> None:
        """Keep the bot tables topped up (a new one for each that ended)."""
        async with httpx.AsyncClient(base_url=self.url, timeout=10) as http:
            while not self.stopping.is_set():
                live = await asyncio.to_thread(live_tables, self.db)
                self.bot_tables &= live
                for _ in range(self.want[2] - len(self.bot_tables)):
                    made = await self.post(
                        http, "/api/tables", {"game": "mattis", "seats": BOT_TABLE}
                    )
                    if made is not None:
                        self.bot_tables.add(made["table"]["id"])
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.stopping.wait(), 1.0)

    async def lobby(self) -> None:
        """Read the lobby through nginx twice a second (5xx counted)."""
        async with httpx.AsyncClient(base_url=self.url, timeout=10) as http:
            while not self.stopping.is_set():
                with contextlib.suppress(httpx.HTTPError):
                    answer = await http.get("/api/tables", params={"status": "all"})
                    self.counts.status(answer.status_code, "GET lobby", answer.headers)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.stopping.wait(), 0.5)


# --- the database's view ----------------------------------------------------------------


def _rows(db: str, query: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(db, autocommit=True, connect_timeout=3) as conn:
        return conn.execute(query).fetchall()  # type: ignore[arg-type]


def live_tables(db: str) -> set[str]:
    """Tables being played ({} while the database is away)."""
    with contextlib.suppress(psycopg.Error):
        return {
            str(r[0]) for r in _rows(db, "SELECT id FROM tikki_tables WHERE status = 'playing'")
        }
    return set()


def move_counts(db: str) -> dict[str, int] | None:
    """Stored moves per table (None while the database is away)."""
    with contextlib.suppress(psycopg.Error):
        rows = _rows(db, "SELECT table_id, count(*) FROM tikki_moves GROUP BY table_id")
        return {str(t): int(n) for t, n in rows}
    return None


def holders(db: str) -> dict[str, str]:
    """table id -> the process holding its advisory lock."""
    with psycopg.connect(db, autocommit=True) as conn:
        schema = str(conn.execute("SELECT current_schema()").fetchone()[0])  # type: ignore[index]
        ids = [str(r[0]) for r in conn.execute("SELECT id FROM tikki_tables")]
        rows = conn.execute(
            "SELECT (l.classid::bigint << 32) | l.objid::bigint, a.application_name "
            "FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND l.granted"
        ).fetchall()
    by_key = {(k - (1 << 64) if k >= 1 << 63 else k): str(n) for k, n in rows}
    return {t: by_key[lock_key(schema, t)] for t in ids if lock_key(schema, t) in by_key}


async def moving_again(db: str, limit: float, since: float) -> tuple[float | None, int, list[str]]:
    """Seconds from ``since`` (the fault's start) until every table being played now has
    stored a move after now or ended, polled every 0.1 s (None: not within ``limit``); how
    many tables; the ones still still. "Now" is after the fault was made (the signal sent,
    the database server up again after its restart), so a move stored just before the
    fault bit does not count."""
    started = time.monotonic()
    live: set[str] = set()
    before: dict[str, int] | None = None
    while before is None or not live:  # the database may be away at this very moment
        live = await asyncio.to_thread(live_tables, db)
        before = await asyncio.to_thread(move_counts, db)
        if time.monotonic() - started > limit:
            return None, 0, []
        if before is None or not live:
            await asyncio.sleep(0.1)
    waiting = set(live)
    while waiting and time.monotonic() - started < limit:
        await asyncio.sleep(0.1)
        now = await asyncio.to_thread(move_counts, db)
        still = await asyncio.to_thread(live_tables, db)
        if now is None:
            continue
        waiting = {t for t in waiting if now.get(t, 0) <= before.get(t, 0) and t in still}
    took = time.monotonic() - since
    return (None if waiting else took), len(live), sorted(waiting)


def doubled(db: str) -> list[str]:
    """Tables whose moves are not numbered 0..n-1 or do not replay from their seed."""
    from tikki.server.db import Store
    from tikki.server.tables import TableManager

    bad = []
    seqs: dict[str, list[int]] = {}
    for table, seq in _rows(db, "SELECT table_id, seq FROM tikki_moves ORDER BY table_id, seq"):
        seqs.setdefault(str(table), []).append(int(seq))
    bad += [t for t, s in seqs.items() if s != list(range(len(s)))]
    store = Store(db)
    manager = TableManager(store)
    try:
        for table in seqs:
            row = store.load(table)
            try:
                ok = row is not None and manager.registry.rebuild(row).seq == len(row.moves)
            except Exception:  # a move that does not apply: stored twice or on a stale state
                ok = False
            if not ok and table not in bad:
                bad.append(table)
    finally:
        store.close()
    return bad


def lost(db: str, people: list[Person]) -> list[tuple[str, int, float]]:
    """Acknowledged moves not stored at their seq: (table, seq, when acknowledged)."""
    stored: dict[tuple[str, int], str] = {
        (str(t), int(s)): str(m)
        for t, s, m in _rows(db, "SELECT table_id, seq, move FROM tikki_moves")
    }
    return [
        (p.table, seq, when)
        for p in people
        for seq, (move, when) in p.acked.items()
        if stored.get((p.table, seq)) != move
    ]


def tracebacks(cluster: Cluster) -> int:
    """``Traceback`` lines in every tikki process's log so far."""
    total = 0
    for node in cluster.members:
        with contextlib.suppress(OSError):
            total += node.log.read_text(errors="replace").count("Traceback")
    return total


# --- the faults -------------------------------------------------------------------------


@dataclass
class Fault:
    """One fault and what it cost."""

    name: str
    what: str = ""
    started: float = 0.0
    ended: float = 0.0
    moving_after_s: float | None = None
    tables: int = 0
    still: list[str] = field(default_factory=list)
    lost: int = 0
    doubled: int = 0
    http_5xx: dict[str, int] = field(default_factory=dict)
    tracebacks: int = 0
    closes: dict[str, int] = field(default_factory=dict)
    unavailable: int = 0
    reconnects: int = 0
    changed_hands: int | None = None


def busiest(cluster: Cluster, db: str) -> int:
    """The index of the process that holds the most tables."""
    owned = holders(db)
    names = [f"tikki {n.name}" for n in cluster.members]
    return max(range(len(names)), key=lambda i: sum(1 for h in owned.values() if h == names[i]))


async def split_route(cluster: Cluster, db: str, load: Load, limit: float, fault: Fault) -> None:
    """Open a spectator socket of each person's table on a process that does not own it
    (port to port, past nginx), keep them while the tables are played, count hand-overs."""
    from websockets.asyncio.client import connect

    owned = await asyncio.to_thread(holders, db)
    live = await asyncio.to_thread(live_tables, db)
    ports = {f"tikki {n.name}": n.port for n in cluster.members}
    stray = []
    for person in load.people:
        if person.table in live and person.table in owned:
            other = [p for h, p in ports.items() if h != owned[person.table]]
            stray.append((person.table, random.choice(other)))
    sockets = []
    for table, port in stray:
        ws = await connect(f"ws://127.0.0.1:{port}/ws/tables/{table}", open_timeout=5)
        await ws.send(json.dumps({"type": "hello"}))
        sockets.append(ws)
    seen: list[list[int]] = [[] for _ in sockets]
    closed: list[int | None] = [None] * len(sockets)
    watchers = [asyncio.create_task(_watch(ws, seen[i], closed, i)) for i, ws in enumerate(sockets)]
    fault.what = f"{len(sockets)} tables with a spectator socket on a non-owner"
    fault.started = time.monotonic()
    fault.moving_after_s, fault.tables, fault.still = await moving_again(db, limit, fault.started)
    await asyncio.sleep(4.0)  # the sockets stay a while: any ping-pong would show
    after = await asyncio.to_thread(holders, db)
    fault.changed_hands = sum(1 for t, _ in stray if t in after and after[t] != owned.get(t))
    for ws in sockets:
        await ws.close()
    await asyncio.gather(*watchers, return_exceptions=True)
    moved = sum(1 for seqs in seen if len(seqs) > 1 and seqs[-1] > seqs[0])
    early = [code for code in closed if code is not None]
    fault.what += f"; {moved} of them saw their table move there, {len(early)} closed early"
    fault.what += f" ({early})" if early else ""


async def _watch(ws: Any, seqs: list[int], closed: list[int | None], index: int) -> None:
    """Note the ``seq`` of each state a stray socket gets, and the code if the server
    closes it before the benchmark does."""
    from websockets.exceptions import ConnectionClosed

    try:
        async for raw in ws:
            msg = json.loads(raw)
            if msg.get("type") == "state":
                seqs.append(int(msg["seq"]))
    except ConnectionClosed as err:
        if err.rcvd is not None and err.rcvd.code != 1000:
            closed[index] = err.rcvd.code


async def inject(
    name: str, cluster: Cluster, pg: Postgres, db: str, load: Load, limit: float
) -> Fault:
    """Inject one fault, wait until every table moves, put things back; its counts
    (the ones from the clients are filled in by :func:`tally`)."""
    fault = Fault(name)
    tb = tracebacks(cluster)
    if name == "split route":
        await split_route(cluster, db, load, limit, fault)
    else:
        victim = await asyncio.to_thread(busiest, cluster, db) if name != "postgres" else -1
        fault.started = time.monotonic()
        if name == "kill -9":
            cluster.members[victim].proc.send_signal(signal.SIGKILL)  # type: ignore[union-attr]
            fault.what = f"kill -9 of {cluster.members[victim].name}"
        elif name == "SIGTERM":
            cluster.members[victim].proc.send_signal(signal.SIGTERM)  # type: ignore[union-attr]
            fault.what = f"SIGTERM of {cluster.members[victim].name}"
        else:
            pids = [n.proc.pid for n in cluster.members if n.proc is not None and n.alive]
            fault.what = f"{pg.kind}: " + await asyncio.to_thread(pg.fault, pids)
        fault.moving_after_s, fault.tables, fault.still = await moving_again(
            db, limit, fault.started
        )
        if victim >= 0:  # what systemd's Restart=always (or make cluster's runner) does
            await asyncio.to_thread(cluster.kill, victim)
            await asyncio.to_thread(cluster.start_node, victim)
    await asyncio.sleep(3.0)
    fault.ended = time.monotonic()
    fault.tracebacks = tracebacks(cluster) - tb
    return fault


def tally(
    faults: list[Fault], load: Load, gone: list[tuple[str, int, float]], twice: list[str]
) -> None:
    """Fill in each fault's client counts from the events in its window."""
    counts = load.counts
    for i, fault in enumerate(faults):
        end = faults[i + 1].started if i + 1 < len(faults) else float("inf")

        def inside(when: float, start: float = fault.started, stop: float = end) -> bool:
            return start <= when < stop

        for _, code, what in (s for s in counts.statuses if inside(s[0])):
            key = f"{code} {what}"
            fault.http_5xx[key] = fault.http_5xx.get(key, 0) + 1
        for _, code in (c for c in counts.closes if inside(c[0])):
            fault.closes[str(code)] = fault.closes.get(str(code), 0) + 1
        fault.unavailable = sum(1 for t in counts.unavailable if inside(t))
        fault.reconnects = sum(1 for t in counts.reconnects if inside(t))
        fault.lost = sum(1 for _, _, t in gone if inside(t))
    if faults:
        faults[-1].doubled = len(twice)  # known only at the end: reported as a total


def report(faults: list[Fault], summary: dict[str, Any]) -> str:
    """The table of results, as text."""
    head = [
        "fault",
        "tables",
        "moving after",
        "lost",
        "5xx",
        "tracebacks",
        "closes",
        "refused",
        "reconn.",
    ]
    rows = []
    for f in faults:
        moving = "not in time" if f.moving_after_s is None else f"{f.moving_after_s:.2f} s"
        closes = " ".join(f"{c}×{n}" for c, n in sorted(f.closes.items())) or "-"
        rows.append(
            [
                f.name,
                str(f.tables),
                moving,
                str(f.lost),
                str(sum(f.http_5xx.values())),
                str(f.tracebacks),
                closes,
                str(f.unavailable),
                str(f.reconnects),
            ]
        )
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in [head, *rows]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    out = [*lines, ""]
    for f in faults:
        out.append(f"{f.name}: {f.what}")
        if f.http_5xx:
            out.append(f"  5xx: {f.http_5xx}")
        if f.still:
            out.append(f"  still after the limit: {f.still}")
        if f.changed_hands is not None:
            out.append(f"  tables that changed hands: {f.changed_hands}")
    out.append("")
    out += [f"{k}: {v}" for k, v in summary.items()]
    return "\n".join(out)


async def run(
    args: argparse.Namespace, cluster: Cluster, pg: Postgres
) -> tuple[list[Fault], dict[str, Any]]:
    """The load, the faults in turn, the final checks."""
    load = Load(cluster.url, cluster.db, args.ws_people, args.http_people, args.bot_tables)
    await load.start()
    await asyncio.sleep(args.warm_up)
    faults = []
    for name in args.faults:
        faults.append(await inject(name, cluster, pg, cluster.db, load, args.limit))
        print(
            f"{name}: {faults[-1].what}; every table moving after {faults[-1].moving_after_s} s",
            flush=True,
        )
    await load.stop()
    twice = await asyncio.to_thread(doubled, cluster.db)
    gone = await asyncio.to_thread(lost, cluster.db, load.people)
    tally(faults, load, gone, twice)
    acked = sum(len(p.acked) for p in load.people)
    stored = sum((await asyncio.to_thread(move_counts, cluster.db) or {}).values())
    summary = {
        "acknowledged person moves": acked,
        "moves stored": stored,
        "acknowledged moves lost (all faults)": len(gone),
        "tables with a move applied twice (all faults)": len(twice),
        "tables": len(await asyncio.to_thread(move_counts, cluster.db) or {}),
        "other client errors": load.counts.errors[:5],
        "database fault": pg.kind,
        "load": f"{args.ws_people} people over WebSockets, {args.http_people} over HTTP, "
        f"{args.bot_tables} bot tables, bot delay {args.bot_delay} s, 3 processes "
        "behind nginx",
        "machine": f"{os.cpu_count()} cores ({platform.machine()}), load average before "
        f"{args.loadavg}, after {os.getloadavg()[0]:.2f}",
    }
    return faults, summary


def main() -> None:
    """Parse the options, run, print and save."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", help="a shared PostgreSQL (default: the benchmark's own)")
    parser.add_argument("--ws-people", type=int, default=12)
    parser.add_argument("--http-people", type=int, default=4)
    parser.add_argument("--bot-tables", type=int, default=16)
    parser.add_argument("--bot-delay", type=float, default=0.4)
    parser.add_argument("--warm-up", type=float, default=5.0)
    parser.add_argument("--limit", type=float, default=30.0, help="seconds to wait per fault")
    parser.add_argument(
        "--faults", nargs="+", default=["kill -9", "SIGTERM", "postgres", "split route"]
    )
    parser.add_argument("--save", default=str(RUNS / "faults"), help="FILE.json / FILE.txt")
    parser.add_argument("--no-save", action="store_true")
    args = parser.parse_args()
    args.loadavg = f"{os.getloadavg()[0]:.2f}"
    pg = Postgres(args.db)
    workdir = Path(tempfile.mkdtemp(prefix="tikki-faults-"))
    try:
        db = pg.start()
        cluster = Cluster(db, 3, free_ports(4), workdir, OPEN, args.bot_delay)
        with cluster:
            try:
                faults, summary = asyncio.run(run(args, cluster, pg))
            except BaseException:
                for node in cluster.members:
                    print(f"--- {node.name}\n{tail(node.log, 30)}")
                raise
    finally:
        pg.stop()
    text = report(faults, summary)
    print(text)
    print(f"logs: {workdir}")
    if not args.no_save:
        Path(f"{args.save}.txt").write_text(text + "\n")
        data = {
            "faults": [asdict(f) for f in faults],
            "summary": summary,
            "command": " ".join(sys.argv),
            "when": time.strftime("%Y-%m-%d %H:%M:%S"),
        }
        Path(f"{args.save}.json").write_text(json.dumps(data, indent=1) + "\n")
        print(f"saved {args.save}.txt and {args.save}.json")


if __name__ == "__main__":
    main()
