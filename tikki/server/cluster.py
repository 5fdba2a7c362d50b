"""Which process owns which table when several ``tikki serve --cluster`` share one
PostgreSQL database.

A live table is owned by exactly one process: the one holding the table's PostgreSQL
session-level advisory lock (``pg_try_advisory_lock`` on :func:`lock_key`, a stable 64-bit
hash of the schema and the table id).  Each process holds its locks on one dedicated
connection, so a process that dies (even by ``kill -9``) loses its connection and with it
every lock; the others take its tables over by replaying their stored moves.

Processes talk through ``LISTEN/NOTIFY`` on one more connection each:

* ``tikki_handover``: "hand table T over to me" (a request reached a process that does
  not own T); the owner finishes its move in flight, forgets T, closes T's WebSockets
  (the client reconnects) and releases the lock; ``tikki_released`` says it did.
* ``tikki_lobby``: a table was created, joined, finished or expired (each process forgets
  its cached copy, so its lobby is right whichever process a request reaches).
* ``tikki_notices``: a notice was stored for an account (``{"account": ID}``); each
  process wakes that account's open ``/ws/account`` sockets, which read it at once.
* ``tikki_cluster``: a process stopped on purpose; the others claim its tables at once.
  The operator's orders go on it too (``tikki cluster drain NODE``: ``{"drain": NODE}``,
  the process hands every table to the others and takes no new ones;
  ``tikki cluster rebalance``: ``{"rebalance": true}``, a process holding more than its
  share hands the excess over), and a process handing a table to another names it
  (``{"take": T, "node": NODE}``: NODE claims T at once).

Any process serves any socket: each process notes in ``tikki_nodes`` (keyed by its lock
connection's backend pid) the address where the others reach it and a secret of its own;
a WebSocket that reaches a process which does not own its table is relayed to the owner
(:meth:`ClusterOwnership.route`, :mod:`tikki.server.relay`), so a wrong route costs one
hop between processes, never a handover.  The owner is read from ``pg_locks`` (who holds
the table's advisory lock now), so a stale row never sends a socket to a dead process.

Without ``--cluster`` the manager uses :class:`Ownership`, which owns every table and
does nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import secrets
import socket
from collections import Counter
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import make_url

log = logging.getLogger("tikki.server.cluster")

HANDOVER = "tikki_handover"
"""The channel of handover requests: ``{"ns", "table", "by"}``."""
RELEASED = "tikki_released"
"""The channel on which a process says it released a table's lock: ``{"ns", "table"}``."""
LOBBY = "tikki_lobby"
"""The channel of lobby changes (created, joined, finished, expired): ``{"ns", "table"}``."""
CLUSTER = "tikki_cluster"
"""The channel on which a stopping process says its locks are free: ``{"ns", "node"}``."""
NOTICES = "tikki_notices"
"""The channel of an account's new notice: ``{"ns", "account"}``."""
CHANNELS = (HANDOVER, RELEASED, LOBBY, CLUSTER, NOTICES)
TAKE_WAIT = 5.0
"""Seconds a request waits for the owner of its table to hand it over."""
ASK_AGAIN = 1.0
"""Seconds after which a waiting request asks again (the lock may have gone elsewhere)."""
SCAN_EVERY = 1.0
"""Seconds between two orphan scans (claiming live tables whose owner died)."""

KEY_SQL = "('x' || substr(md5({ns} || ':' || {id}), 1, 16))::bit(64)::bigint"
""":func:`lock_key` in SQL (the orphan scan computes the keys in the database)."""
ORPHANS = f"""
WITH live AS MATERIALIZED (
    SELECT id, {KEY_SQL.format(ns="%(ns)s", id="id")} AS key
    FROM tikki_tables
    WHERE status IN ('waiting', 'playing') AND NOT (id = ANY(%(mine)s))
    ORDER BY created, id
)
SELECT id FROM live WHERE pg_try_advisory_lock(key)
"""
"""Lock and return every live table nobody holds (never one this process holds: a
session's advisory locks stack, and each would need its own unlock)."""


NODES = """
CREATE TABLE IF NOT EXISTS tikki_nodes (
    pid integer PRIMARY KEY,
    node text NOT NULL,
    url text NOT NULL,
    secret text NOT NULL,
    started timestamptz NOT NULL DEFAULT now()
)
"""
"""The cluster's processes: each one's lock connection (its backend pid), name, address
for the others (``http://HOST:PORT``) and the secret a relayed socket shows it."""
NODES_LOCK = 0x74696B6B696E6F64
"""The transaction lock around creating ``tikki_nodes`` (processes starting at once)."""
UNREGISTER = """
DELETE FROM tikki_nodes
WHERE pid = pg_backend_pid() OR pid NOT IN (SELECT pid FROM pg_stat_activity)
"""
"""Remove the rows of connections gone (this process's of before among them)."""
REGISTER = """
INSERT INTO tikki_nodes (pid, node, url, secret)
VALUES (pg_backend_pid(), %(node)s, %(url)s, %(secret)s)
"""
"""Note this process."""
OWNER = """
SELECT n.url, n.secret, n.node FROM pg_locks l JOIN tikki_nodes n ON n.pid = l.pid
WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND l.classid::bigint = %s AND l.objid::bigint = %s AND l.pid <> pg_backend_pid()
"""
"""The address of the other process that holds a table's lock now (no row: nobody does,
this process does, or the holder noted no address)."""


HOLDINGS = f"""
WITH live AS MATERIALIZED (
    SELECT id, {KEY_SQL.format(ns="%(ns)s", id="id")} AS key
    FROM tikki_tables WHERE status IN ('waiting', 'playing')
)
SELECT n.node, live.id FROM tikki_nodes n
LEFT JOIN pg_locks l ON l.pid = n.pid AND l.locktype = 'advisory' AND l.granted
    AND l.objsubid = 1
    AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
LEFT JOIN live ON live.key = ((l.classid::bigint << 32) | l.objid::bigint)
WHERE n.pid IN (SELECT pid FROM pg_stat_activity)
"""
"""Every live process of the cluster (``tikki_nodes``) with the live tables whose lock it
holds (a process holding none: one row with a null id)."""


def holdings(rows: Iterable[tuple[Any, Any]]) -> dict[str, list[str]]:
    """The rows of :data:`HOLDINGS` as each process's name and its tables."""
    held: dict[str, list[str]] = {}
    for node, table in rows:
        mine = held.setdefault(str(node), [])
        if table is not None:
            mine.append(str(table))
    return held


@dataclass(frozen=True)
class Hop:
    """Where a socket of a table owned by another process goes: the owner's address
    (``http://HOST:PORT``), the secret it expects of a relayed socket, and its name."""

    url: str
    secret: str
    node: str


def lock_key(namespace: str, table_id: str) -> int:
    """The advisory lock key of a table: the first 8 bytes of the MD5 of
    ``namespace:table_id`` as a signed 64-bit integer (the same as :data:`KEY_SQL`).

    The namespace is the database schema, so two sites in two schemas of one database
    never share a lock."""
    digest = hashlib.md5(f"{namespace}:{table_id}".encode(), usedforsecurity=False).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def default_node() -> str:
    """This process's name in the cluster when ``--node`` is not given: ``host:pid``."""
    return f"{socket.gethostname()}:{os.getpid()}"


class LocksLost(Exception):
    """The lock connection broke: every lock this process held is gone."""

    def __init__(self, tables: list[str]) -> None:
        super().__init__(f"lost the locks of {len(tables)} tables")
        self.tables = tables


Ordered = Callable[[str, str], Coroutine[Any, Any, None]]
"""The manager's handler of an operator's order: ``("drain", "")``, ``("rebalance",
"")`` or ``("take", TABLE)`` (another process handed TABLE to this one)."""
HandOver = Callable[[str], Coroutine[Any, Any, None]]
"""The manager's handler of a handover request: forget the table, then release it."""
Changed = Callable[[str], None]
"""The manager's handler of a lobby change of another process."""


class Ownership:
    """The single-process owner: this process owns every table, and nothing is shared.

    :class:`ClusterOwnership` is the PostgreSQL one; the manager calls the same methods."""

    clustered = False
    """Whether tables are shared with other processes."""

    def __init__(self, node: str | None = None) -> None:
        self.node = node or default_node()
        """This process's name (logs, ``pg_stat_activity.application_name``)."""
        self.scan_wanted = asyncio.Event()
        """Set when a scan should run now (a process stopped and freed its tables)."""
        self.ordered: Ordered | None = None
        """Called for an operator's order to this process (drain, rebalance) and for a
        table another process hands to it (set by the manager)."""
        self.noticed: Callable[[int], object] | None = None
        """Called with an account's id when another process stored a notice for it
        (set by the app: it wakes that account's open sockets here)."""
        self.counts: Counter[str] = Counter()
        """What happened so far, for the metrics: ``takeovers`` and ``handovers`` (tables
        taken and given), ``lock_losses`` (tables whose lock went with a broken
        connection), ``reconnects`` (a connection to the database made again)."""

    @property
    def owned(self) -> int:
        """How many live tables this process owns (for the metrics endpoint)."""
        return 0

    async def start(self, hand_over: HandOver, changed: Changed) -> None:
        """Connect (the cluster owner); ``hand_over`` and ``changed`` are called when
        another process asks for a table or changed the lobby."""

    async def stop(self) -> None:
        """Release every table at once (the cluster owner tells the others)."""

    def alive(self) -> bool:
        """Whether this process can own tables (the cluster owner: its lock connection
        is open), for the health check (``app.state.cluster``)."""
        return True

    def holds(self, table_id: str) -> bool:
        """Whether this process owns ``table_id`` now (its lock connection alive)."""
        return True

    async def acquire(self, table_id: str) -> bool:
        """Take a table nobody holds (a new table, or one whose owner died)."""
        return True

    async def take(self, table_id: str, wait: float = TAKE_WAIT) -> bool:
        """Take a table, asking its owner to hand it over; ``False`` if it did not
        within ``wait`` seconds."""
        return True

    async def release(self, table_id: str) -> None:
        """Give up a table (finished, expired, handed over)."""

    async def claim_orphans(self, exclude: Iterable[str]) -> list[str]:
        """Lock every live table nobody holds except ``exclude``; return their ids
        (:class:`LocksLost` when the lock connection broke)."""
        return []

    async def changed(self, table_id: str) -> None:
        """Tell the other processes that a table's lobby entry changed."""

    async def notice(self, account: int) -> None:
        """Tell the other processes that ``account`` has a new notice."""

    async def route(self, table_id: str) -> Hop | None:
        """Where another process that owns ``table_id`` takes its sockets (``None``:
        nobody else owns it, or its owner noted no address)."""
        return None

    def relayed(self, secret: str | None) -> bool:
        """Whether a socket came relayed from another process (it shows this process's
        secret)."""
        return False

    async def holdings(self) -> dict[str, list[str]]:
        """Each live process of the cluster and the live tables it holds (this process
        alone, holding nothing shared, without a cluster)."""
        return {}

    async def order(self, **payload: str) -> None:
        """Say something to every process of the cluster (``tikki_cluster``)."""


class ClusterOwnership(Ownership):
    """Ownership by PostgreSQL advisory locks, on one dedicated connection."""

    clustered = True

    def __init__(self, url: str, node: str | None = None) -> None:
        super().__init__(node)
        self.dsn = libpq_url(url)
        self.namespace = "public"
        self._conn: Any = None
        self._listen: Any = None
        self._listener: asyncio.Task[None] | None = None
        self._held: set[str] = set()
        self._mutex = asyncio.Lock()
        self._released: dict[str, asyncio.Event] = {}
        self._hand_over: HandOver | None = None
        self._changed: Changed | None = None
        self._handing: set[asyncio.Task[None]] = set()
        self._lost: set[str] = set()
        """Tables whose lock went with a broken lock connection, not yet forgotten by
        the manager (:meth:`claim_orphans` reports them)."""
        self.url: str | None = None
        """Where the other processes reach this one (``http://HOST:PORT``, set once the
        port is bound); ``None``: it relays to others but takes no relayed sockets."""
        self.secret = secrets.token_urlsafe(24)
        """What a socket relayed to this process shows (``tikki_nodes``)."""

    @property
    def owned(self) -> int:
        """How many live tables this process holds the lock of."""
        return len(self._held)

    async def start(self, hand_over: HandOver, changed: Changed) -> None:
        """Open the lock connection and the listening one; learn the schema."""
        self._hand_over, self._changed = hand_over, changed
        await self._connect()
        self._listen = await self._open()
        for channel in CHANNELS:
            await self._listen.execute(f"LISTEN {channel}")
        self._listener = asyncio.create_task(self._listen_loop(), name="cluster-listen")
        log.info("cluster node %s on schema %s", self.node, self.namespace)

    async def _open(self) -> Any:
        import psycopg

        return await psycopg.AsyncConnection.connect(
            self.dsn, autocommit=True, application_name=f"tikki {self.node}"[:63]
        )

    async def _connect(self) -> None:
        self._conn = await self._open()
        cursor = await self._conn.execute("SELECT current_schema()")
        row = await cursor.fetchone()
        self.namespace = str(row[0]) if row and row[0] else "public"
        if self.url is not None:
            await self._register()

    async def _register(self) -> None:
        """Note this process's address and secret under its lock connection's pid."""
        async with self._conn.transaction():
            await self._conn.execute("SELECT pg_advisory_xact_lock(%s)", [NODES_LOCK])
            await self._conn.execute(NODES)
            params = {"node": self.node, "url": self.url, "secret": self.secret}
            await self._conn.execute(UNREGISTER)
            await self._conn.execute(REGISTER, params)

    async def stop(self) -> None:
        """Close the lock connection (every lock goes with it), then tell the others."""
        if self._listener is not None:
            self._listener.cancel()
            await asyncio.gather(self._listener, return_exceptions=True)
        for task in list(self._handing):
            task.cancel()
        async with self._mutex:
            count = len(self._held)
            self._held.clear()
            if self._conn is not None:
                with contextlib.suppress(Exception):
                    await self._conn.close()
        if self._listen is not None:
            with contextlib.suppress(Exception):
                await self._notify_on(self._listen, CLUSTER, node=self.node)
                await self._listen.close()
        log.info("cluster node %s released %d tables", self.node, count)

    def alive(self) -> bool:
        """Whether the lock connection is open (a broken one has lost every lock)."""
        conn = self._conn
        return conn is not None and not conn.closed and not conn.broken

    def holds(self, table_id: str) -> bool:
        """Whether this process holds the table's lock on a live connection."""
        return table_id in self._held and self.alive()

    def key(self, table_id: str) -> int:
        """The table's advisory lock key in this schema."""
        return lock_key(self.namespace, table_id)

    async def acquire(self, table_id: str) -> bool:
        """``pg_try_advisory_lock`` once (never twice for a lock already held)."""
        async with self._mutex:
            if table_id in self._held and self.alive():
                return True
            cursor = await self._run("SELECT pg_try_advisory_lock(%s)", [self.key(table_id)])
            row = await cursor.fetchone()
            if row is not None and row[0]:
                self._held.add(table_id)
                self._lost.discard(table_id)  # taken again: the caller reads it back
                return True
            return False

    async def _run(self, query: str, params: Any) -> Any:
        """Execute on the lock connection (under :attr:`_mutex`). A broken connection is
        made again first, or when the statement finds it broken, and the statement runs
        on the new one: the old one's locks are gone (:meth:`_reconnect`)."""
        import psycopg

        if self.alive():
            try:
                return await self._conn.execute(query, params)
            except psycopg.OperationalError:
                if self.alive():
                    raise  # the statement failed, the connection (and its locks) did not
        await self._reconnect()
        return await self._conn.execute(query, params)

    def _lose_locks(self) -> None:
        """The lock connection broke: every table held is noted as lost."""
        if self._held:
            log.warning("the lock connection broke: %d tables lost their lock", len(self._held))
            self.counts["lock_losses"] += len(self._held)
            self._lost |= self._held
            self._held.clear()

    async def _reconnect(self) -> None:
        """Make the lock connection again (under :attr:`_mutex`). Every lock of the old
        one went with it: the tables are noted for the manager to forget (the next scan
        reports them, and claims them again if nobody else did)."""
        self._lose_locks()
        old, self._conn = self._conn, None
        if old is not None:
            with contextlib.suppress(Exception):
                await old.close()
        await self._connect()
        self.counts["reconnects"] += 1
        log.info("cluster node %s made its lock connection again", self.node)

    async def take(self, table_id: str, wait: float = TAKE_WAIT) -> bool:
        """Lock the table, asking its holder (again each :data:`ASK_AGAIN` s) to hand it
        over, for up to ``wait`` seconds."""
        if await self.acquire(table_id):
            return True
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        ask = 0.0
        released = self._released.setdefault(table_id, asyncio.Event())
        try:
            while loop.time() < deadline:
                if loop.time() >= ask:
                    await self._notify(HANDOVER, table=table_id, by=self.node)
                    ask = loop.time() + ASK_AGAIN
                released.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(released.wait(), 0.1)
                if await self.acquire(table_id):
                    return True
        finally:
            self._released.pop(table_id, None)
        return False

    async def release(self, table_id: str) -> None:
        """Unlock the table and say so on :data:`RELEASED`."""
        async with self._mutex:
            if table_id not in self._held:
                return
            self._held.discard(table_id)
            if self.alive():  # a broken connection's locks are gone already
                with contextlib.suppress(Exception):
                    await self._conn.execute("SELECT pg_advisory_unlock(%s)", [self.key(table_id)])
        with contextlib.suppress(Exception):
            await self._notify(RELEASED, table=table_id)

    async def claim_orphans(self, exclude: Iterable[str]) -> list[str]:
        """Lock the live tables nobody holds, in one statement; the statement is also the
        lock connection's heartbeat (a broken one raises :class:`LocksLost`)."""
        import psycopg

        async with self._mutex:
            try:
                if not self.alive():
                    await self._reconnect()
                if not self._lost:
                    mine = sorted(self._held | set(exclude))
                    params = {"ns": self.namespace, "mine": mine}
                    cursor = await self._conn.execute(ORPHANS, params)
                    claimed = [str(row[0]) for row in await cursor.fetchall()]
                    self._held.update(claimed)
                    return claimed
            except psycopg.Error:
                if self.alive():
                    raise  # the statement failed (e.g. the lock table is full): locks kept
                self._lose_locks()  # made again at the next scan
            lost = sorted(self._lost)
            self._lost.clear()
            if self.alive():
                self.scan_wanted.set()  # claim again at once, on the new connection
            raise LocksLost(lost)

    async def changed(self, table_id: str) -> None:
        """NOTIFY :data:`LOBBY` (a failure only means the others' lobbies lag a little);
        this process's own lobby hears of it at once, not when its notification comes
        back."""
        if self._changed is not None:
            self._changed(table_id)
        try:
            await self._notify(LOBBY, table=table_id)
        except Exception as err:
            log.warning("telling the cluster that table %s changed failed: %s", table_id, err)

    async def notice(self, account: int) -> None:
        """NOTIFY :data:`NOTICES` (a failure only means the others' sockets read it at
        their next safety read)."""
        try:
            await self._notify(NOTICES, account=str(account))
        except Exception as err:
            log.warning("telling the cluster of account %d's notice failed: %s", account, err)

    async def route(self, table_id: str) -> Hop | None:
        """The address of the process that holds the table's lock now, if another one
        does and noted where it is (read on the lock connection: one small query)."""
        import psycopg

        unsigned = self.key(table_id) & 0xFFFF_FFFF_FFFF_FFFF
        params = [unsigned >> 32, unsigned & 0xFFFF_FFFF]
        async with self._mutex:
            try:
                cursor = await self._run(OWNER, params)
            except psycopg.errors.UndefinedTable:
                return None  # no process of this version has started yet
            row = await cursor.fetchone()
        return None if row is None else Hop(str(row[0]), str(row[1]), str(row[2]))

    def relayed(self, secret: str | None) -> bool:
        """Whether ``secret`` is this process's own (a socket relayed by another)."""
        return secret is not None and secrets.compare_digest(secret, self.secret)

    async def holdings(self) -> dict[str, list[str]]:
        """Each live process of the cluster and the live tables whose lock it holds
        (read on the lock connection: :data:`HOLDINGS`)."""
        import psycopg

        async with self._mutex:
            try:
                cursor = await self._run(HOLDINGS, {"ns": self.namespace})
            except psycopg.errors.UndefinedTable:
                return {}
            return holdings(await cursor.fetchall())

    async def order(self, **payload: str) -> None:
        """NOTIFY :data:`CLUSTER` (a handed table named to its new owner)."""
        await self._notify(CLUSTER, **payload)

    async def _notify(self, channel: str, **payload: str) -> None:
        text = json.dumps({"ns": self.namespace, **payload})
        async with self._mutex:
            await self._run("SELECT pg_notify(%s, %s)", [channel, text])

    async def _notify_on(self, conn: Any, channel: str, **payload: str) -> None:
        text = json.dumps({"ns": self.namespace, **payload})
        await conn.execute("SELECT pg_notify(%s, %s)", [channel, text])

    async def _listen_loop(self) -> None:
        """Read notifications until stopped; reconnect after a broken connection."""
        while True:
            try:
                async for note in self._listen.notifies():
                    self._received(note.channel, note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as err:
                said = str(err).strip().splitlines()
                log.warning("the cluster's LISTEN connection broke (%s); reconnecting",
                            said[0] if said else type(err).__name__)  # fmt: skip
                await asyncio.sleep(1.0)
                with contextlib.suppress(Exception):
                    await self._listen.close()
                try:
                    self._listen = await self._open()
                    for channel in CHANNELS:
                        await self._listen.execute(f"LISTEN {channel}")
                except Exception as again:
                    log.warning("the cluster's LISTEN connection: %s", again)
                else:
                    self.counts["reconnects"] += 1
                    log.info("cluster node %s made its LISTEN connection again", self.node)
                self.scan_wanted.set()  # a release may have been missed meanwhile

    def _received(self, channel: str, payload: str) -> None:
        """Act on one notification of this schema."""
        try:
            data = json.loads(payload)
        except ValueError:
            return
        if not isinstance(data, dict) or data.get("ns") != self.namespace:
            return
        table = str(data.get("table", ""))
        if channel == HANDOVER and table in self._held and data.get("by") != self.node:
            if self._hand_over is not None:
                task = asyncio.create_task(self._hand_over(table), name=f"hand-over-{table}")
                self._handing.add(task)
                task.add_done_callback(self._handing.discard)
        elif channel == RELEASED:
            event = self._released.get(table)
            if event is not None:
                event.set()
        elif channel == LOBBY and self._changed is not None:
            self._changed(table)
        elif channel == CLUSTER:
            self._cluster_note(data)
        elif channel == NOTICES and self.noticed is not None:
            with contextlib.suppress(TypeError, ValueError):
                self.noticed(int(data.get("account", "")))

    def _cluster_note(self, data: dict[str, Any]) -> None:
        """A process stopped (claim its tables), or an order: drain this process,
        rebalance, or take a table handed to this one."""
        order: tuple[str, str] | None = None
        if "drain" in data:
            order = ("drain", "") if data["drain"] == self.node else None
        elif "rebalance" in data:
            order = ("rebalance", "")
        elif "take" in data:
            order = ("take", str(data["take"])) if data.get("node") == self.node else None
        elif data.get("node") != self.node:
            self.scan_wanted.set()
        if order is not None and self.ordered is not None:
            task = asyncio.create_task(self.ordered(*order), name=f"cluster-{order[0]}")
            self._handing.add(task)
            task.add_done_callback(self._handing.discard)


def libpq_url(url: str) -> str:
    """A ``postgresql://`` URL for psycopg from a SQLAlchemy one (``+psycopg`` dropped,
    the password and the query, such as ``options``, kept)."""
    parsed = make_url(url)
    return parsed.set(drivername="postgresql").render_as_string(hide_password=False)


def is_postgres(url: str) -> bool:
    """Whether a database URL is PostgreSQL's."""
    return url.startswith(("postgresql:", "postgresql+", "postgres:"))


__all__ = [
    "CHANNELS",
    "CLUSTER",
    "HANDOVER",
    "HOLDINGS",
    "LOBBY",
    "NOTICES",
    "RELEASED",
    "ClusterOwnership",
    "Hop",
    "LocksLost",
    "Ownership",
    "default_node",
    "holdings",
    "is_postgres",
    "libpq_url",
    "lock_key",
]
