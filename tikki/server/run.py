"""``tikki serve``: run the web table under uvicorn until Ctrl-C."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import gc
import importlib.util
import os
import socket
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from types import FrameType
from typing import Any

import uvicorn
from starlette.types import ASGIApp

from tikki.i18n import _
from tikki.server import logs, metrics
from tikki.server.app import create_app
from tikki.server.cluster import ClusterOwnership, default_node
from tikki.server.db import default_db_url
from tikki.server.guard import (
    ACCEPT_BATCH,
    LISTEN_BACKLOG,
    MAX_HEAD,
    AcceptErrors,
    Guard,
    Limits,
    protocols,
    raise_file_limit,
)
from tikki.server.quota import Policy
from tikki.server.schema import SchemaBehind

GRACE = 2
"""Seconds a stopping server waits for its connections to close before it ends them."""
WS_MAX_SIZE = 65536
"""Frames over this size close the connection; those over 4096 bytes get ``too_large``."""


class _Server(uvicorn.Server):
    """uvicorn's server, ending quietly on Ctrl-C or SIGTERM (no re-raised signal), with
    one log line a second when ``accept()`` runs out of file descriptors."""

    loop: asyncio.AbstractEventLoop | None = None

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        self._captured_signals.clear()
        metrics.stopping(self.config.app)  # /healthz: 503 from now on
        chat = getattr(getattr(self.config.app, "state", None), "chat", None)
        if chat is not None and self.loop is not None:  # waiting chat readers answer now
            self.loop.call_soon_threadsafe(chat.close)

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        self.loop = asyncio.get_running_loop()
        self.loop.set_exception_handler(AcceptErrors())
        if is_uvloop(self.loop):  # it listens again with the backlog: keep the long queue
            self.config.backlog = LISTEN_BACKLOG
        await super().startup(sockets)


def event_loop() -> str:
    """uvicorn's event loop for the server: ``uvloop`` where it is installed (the ``web``
    extra pins it on CPython on Linux and macOS: its loop, transports and hand-overs from
    the storage thread are C code, less CPU a move), else asyncio's own."""
    return "uvloop" if importlib.util.find_spec("uvloop") is not None else "asyncio"


def is_uvloop(loop: asyncio.AbstractEventLoop) -> bool:
    """Whether ``loop`` is uvloop's.  It accepts every queued connection at a wake-up of
    the listening socket (libuv: no batch, so :data:`~tikki.server.guard.ACCEPT_BATCH`
    does not apply) and calls ``listen()`` itself with uvicorn's ``backlog``, which
    must then be the kernel's long queue, :data:`~tikki.server.guard.LISTEN_BACKLOG`.
    Out of file descriptors, libuv accepts and closes the connections it has no room
    for (they fail at once, not a second later) and tells the loop nothing, so
    :class:`~tikki.server.guard.AcceptErrors` logs no line there."""
    return type(loop).__module__.split(".", 1)[0] == "uvloop"


def config(
    app: ASGIApp,
    limits: Limits | None = None,
    forwarded_allow_ips: str | None = None,
    log_config: dict[str, Any] | None = None,
) -> uvicorn.Config:
    """uvicorn's settings for ``app``: its own bounds (``limit_concurrency``,
    ``timeout_keep_alive``, h11's head size) and :class:`~tikki.server.guard.Guard`'s;
    the forwarded client address (``X-Forwarded-For``) counts only from the proxies named
    in ``forwarded_allow_ips`` (default: none); ``log_config``: JSON lines at INFO with
    an access log (:mod:`tikki.server.logs`), else uvicorn's own at WARNING."""
    limits = limits or Limits()
    trusted = [ip.strip() for ip in (forwarded_allow_ips or "").split(",") if ip.strip()]
    guard = Guard(limits, proxies=trusted)
    metrics.watch_connections(app, guard)
    throttles = getattr(getattr(app, "state", None), "throttles", None)
    if throttles is not None:  # watchers get their share, seated players the rest
        throttles.most_watchers = limits.most_watchers
    http, ws = protocols(guard)
    return uvicorn.Config(
        app,
        loop=event_loop(),
        log_level="info" if log_config else "warning",
        access_log=bool(log_config),
        log_config=log_config or uvicorn.config.LOGGING_CONFIG,
        http=http,
        ws=ws,
        ws_max_size=WS_MAX_SIZE,
        ws_per_message_deflate=False,
        lifespan="on",
        timeout_graceful_shutdown=GRACE,
        backlog=ACCEPT_BATCH,  # asyncio's accept batch; the kernel's queue stays long (bind)
        limit_concurrency=limits.max_connections + 1,  # uvicorn counts this one too
        timeout_keep_alive=limits.keep_alive,
        h11_max_incomplete_event_size=MAX_HEAD,
        proxy_headers=bool(trusted),
        forwarded_allow_ips=trusted,
    )


GC_THRESHOLDS = (20_000, 20, 1000)
"""Collector thresholds for a serving process (Python's defaults are 2000, 10, 10)."""


def tune_gc() -> None:
    """Keep the cyclic garbage collector out of the move latency.

    With hundreds of live tables, a full collection walks every state and view and stalls
    the event loop for 50–100 ms; with Python's default thresholds that happened often
    enough to push the 99th-percentile move latency of ``benchmarks/load.py`` (200 Mattis
    tables) to 92–115 ms. Freezing what exists at start-up and collecting less often
    brought it to 10–13 ms. Reference counting still frees everything without cycles at
    once; cycles are collected, just in larger batches.
    """
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


NODE_URL = "TIKKI_NODE_URL"
"""The environment variable naming where the other processes of a cluster reach this one
(``http://HOST:PORT``), when the address it listens on is not it (``0.0.0.0``, NAT)."""


def node_url(host: str, port: int) -> str:
    """Where the other processes of a cluster reach this one: :data:`NODE_URL` if set,
    else the address it listens on (the machine's name for a wildcard one)."""
    given = os.environ.get(NODE_URL, "").strip()
    if given:
        return given
    if host in ("", "0.0.0.0", "::"):
        host = socket.gethostname()
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


class ServeError(Exception):
    """The server cannot start (port in use, bad database URL, …)."""


class Listener(socket.socket):
    """A listening socket whose kernel queue stays :data:`LISTEN_BACKLOG` long whatever
    asyncio asks: asyncio listens with uvicorn's ``backlog``, which is also how many
    connections it accepts at one wake-up (:data:`~tikki.server.guard.ACCEPT_BATCH`)."""

    def listen(self, backlog: int = LISTEN_BACKLOG, /) -> None:
        """Listen with a queue of at least :data:`LISTEN_BACKLOG` connections."""
        super().listen(max(backlog, LISTEN_BACKLOG))


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0 picks a free one), a :class:`Listener`."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        family, kind, proto, _canonname, address = infos[0]
        sock = Listener(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as err:
        raise ServeError(
            _("cannot listen on {host}:{port}: {err}", host=host, port=port, err=err)
        ) from None
    sock.listen()
    sock.set_inheritable(True)
    return sock


@contextlib.contextmanager
def hold_database(url: str) -> Iterator[None]:
    """Hold a SQLite database file for this server while it runs (a lock file beside it):
    a second ``tikki serve`` on the same file is refused in words instead of sharing it
    silently.  Other databases (PostgreSQL) are shared by a cluster's processes on purpose."""
    prefix = "sqlite:///"
    if not url.startswith(prefix) or url[len(prefix) :] in ("", ":memory:"):
        yield
        return
    path = Path(url[len(prefix) :])
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(f"{path}.lock", "a+", encoding="utf-8") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.seek(0)
            holder = lock.read().strip() or "?"
            raise ServeError(
                _(
                    "another tikki serve (process {pid}) uses the database {path}: stop it, "
                    "or give this server a file of its own with --db sqlite:///OTHER.sqlite",
                    pid=holder,
                    path=str(path),
                )
            ) from None
        lock.truncate(0)
        lock.write(str(os.getpid()))
        lock.flush()
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def serve(
    host: str,
    port: int,
    db: str | None,
    bot_delay: float,
    hint_bot: str = "judge",
    announce: Callable[[str], None] = print,
    client_seeds: bool = False,
    policy: Policy | None = None,
    limits: Limits | None = None,
    forwarded_allow_ips: str | None = None,
    cluster: bool = False,
    node: str | None = None,
) -> None:
    """Serve until interrupted (Ctrl-C or SIGTERM); ``announce`` prints the URL (with the
    real port); ``policy`` holds the limits on clients, ``limits`` those on connections;
    ``client_seeds`` accepts a creator's seed at tables with open seats too;
    ``forwarded_allow_ips`` names the proxies whose ``X-Forwarded-For`` counts;
    ``cluster`` shares a PostgreSQL database's tables with other processes (``node``:
    this one's name, default ``host:pid``)."""
    limits = limits or Limits()
    if bot_delay < 0:
        raise ServeError(
            _("--bot-delay is a number of seconds >= 0, not {bot_delay}", bot_delay=bot_delay)
        )
    url = db or default_db_url()
    with hold_database(url):
        _serve(url, host, port, bot_delay, hint_bot, announce, client_seeds, policy, limits,
               forwarded_allow_ips, cluster, node)  # fmt: skip


def _serve(
    url: str,
    host: str,
    port: int,
    bot_delay: float,
    hint_bot: str,
    announce: Callable[[str], None],
    client_seeds: bool,
    policy: Policy | None,
    limits: Limits,
    forwarded_allow_ips: str | None,
    cluster: bool,
    node: str | None,
) -> None:
    """:func:`serve` on its database ``url`` (held)."""
    try:
        app = create_app(
            url,
            bot_delay=bot_delay,
            hint_bot=hint_bot,
            client_seeds=client_seeds,
            policy=policy,
            body_timeout=limits.body_timeout,
            cluster=cluster,
            node=node,
        )
        app.state.manager.store.create_schema(cluster=cluster)
    except (ValueError, SchemaBehind) as err:
        raise ServeError(str(err)) from None
    except Exception as err:
        raise ServeError(_("cannot open the database {url!r}: {err}", url=url, err=err)) from None
    sock = bind(host, port)
    real_port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    ownership = app.state.manager.ownership
    if isinstance(ownership, ClusterOwnership):  # where the others relay sockets to
        ownership.url = node_url(host, real_port)
    room = raise_file_limit(limits.max_connections)
    if room < limits.max_connections:
        announce(
            _(
                "the file limit leaves room for {room} connections: --max-connections is "
                "{room} (raise ulimit -n for more)",
                room=room,
            )
        )
        limits = replace(limits, max_connections=room)
    log_config = logs.config(node or default_node()) if logs.wanted(cluster) else None
    server = _Server(config(app, limits, forwarded_allow_ips, log_config))
    tune_gc()
    announce(_("tikki web table: {url}", url=f"http://{shown}:{real_port}/"))
    announce(_("database: {url}", url=app.state.manager.store.engine.url.render_as_string()))
    with contextlib.suppress(KeyboardInterrupt):
        server.run(sockets=[sock])
    sock.close()
    if not server.started:
        raise ServeError(_("the server did not start (see the messages above)"))


__all__ = [
    "GC_THRESHOLDS",
    "Listener",
    "ServeError",
    "bind",
    "config",
    "event_loop",
    "hold_database",
    "is_uvloop",
    "node_url",
    "serve",
    "tune_gc",
]
