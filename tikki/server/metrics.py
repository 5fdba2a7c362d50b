"""Health and metrics of one ``tikki serve`` process.

``GET /healthz``: ``200 ok`` when the database answers (and, with ``--cluster``, the
connection that holds the table locks is alive); ``503`` with the reason while the process
stops or when either fails. For the proxy, systemd and monitors; it says nothing else.

``GET /metrics``: Prometheus's text format, served only to this machine's own addresses
and those named in ``TIKKI_METRICS_FROM`` (comma-separated addresses or networks): scrape
each process on its own port, not through the proxy (``deploy/nginx.conf`` answers 404
there). Every figure is a count or a time over the whole process: no table id, no seat,
no player, no card.

- ``tikki_tables{status}``: the live tables this process holds (owns), by status;
  with ``--cluster`` also ``tikki_tables_locked``, those whose PostgreSQL lock it holds
- ``tikki_moves_total{by}``: moves applied here, by ``person`` or ``bot``; moves/s is
  ``rate(tikki_moves_total[1m])``
- ``tikki_move_seconds``: a histogram of the time from a move's arrival to its broadcast
  (waiting for the table, checking, storing); the p99 is
  ``histogram_quantile(0.99, rate(tikki_move_seconds_bucket[5m]))``
- ``tikki_bot_queue``: the tables where a bot is due to move (waiting for its delay, its
  turn or its search)
- ``tikki_connections{kind}``: open connections (``all``: HTTP and WebSocket, as the
  connection caps count them; ``websocket``: table sockets)
- ``tikki_takeovers_total``, ``tikki_handovers_total``: tables this process took over
  (a dead or stopped process's, or one a request asked for) and handed to another;
  ``tikki_lock_losses_total``: tables whose lock went with a broken lock connection;
  ``tikki_reconnects_total``: connections to PostgreSQL (locks, LISTEN) made again
  (``--cluster``; 0 otherwise)
- ``tikki_database_errors_total``: storage calls that found the database out of reach
  (each try: one call retried during a blip counts each time)
- ``tikki_event_loop_lag_seconds``: the longest time the event loop was late to a timer
  since the previous scrape (a blocked loop delays every table of the process)
- ``process_resident_memory_bytes``, ``process_open_fds``, ``process_cpu_seconds_total``
  and the rest of prometheus-client's process collector (Linux)
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterator
from typing import Any

from fastapi import APIRouter, Request, Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    ProcessCollector,
    disable_created_metrics,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import generate_latest
from prometheus_client.registry import Collector
from sqlalchemy import text

from tikki.i18n import _
from tikki.server.errors import ApiError
from tikki.server.guard import Guard, trusted
from tikki.server.tables import TableManager

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Upper bounds (s) of the move-latency histogram's buckets."""
LOCAL = ("127.0.0.0/8", "::1")
"""The addresses ``/metrics`` always answers."""
PING_TIMEOUT = 2.0
"""Seconds the health check waits for the database."""
LAG_EVERY = 0.25
"""Seconds between two samples of the event loop's lag."""
COUNTED = {
    "takeovers": "Tables this process took over (a stopped process's, or one asked for)",
    "handovers": "Tables this process handed over to another process",
    "lock_losses": "Tables whose PostgreSQL lock went with a broken lock connection",
    "reconnects": "Connections to PostgreSQL (locks, LISTEN) made again after a break",
}
"""The cluster's counts (:attr:`tikki.server.cluster.Ownership.counts`) and their help."""

disable_created_metrics()  # type: ignore[no-untyped-call]  # no ``*_created`` series


class Metrics:
    """One process's counters (its own registry: several apps may share a process)."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        self.guard: Guard | None = None
        """The connection caps of the running server (``None`` under a test client)."""
        self.registry = CollectorRegistry()
        self.moves = Counter(
            "tikki_moves", "Moves applied at this process's tables", ["by"], registry=self.registry
        )
        self._moves_by = {by_bot: self.moves.labels(by="bot" if by_bot else "person")
                          for by_bot in (False, True)}  # fmt: skip
        """Each series of :attr:`moves` (both from the start, at 0), looked up once."""
        self.latency = Histogram(
            "tikki_move_seconds",
            "Time from a move's arrival to its broadcast",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.registry.register(_Live(self))
        ProcessCollector(registry=self.registry)
        self.lag = 0.0
        """The longest lag seen since the previous scrape (s)."""
        self._sampler: asyncio.Task[None] | None = None

    def sample_lag(self) -> None:
        """Start sampling the event loop's lag (once, on the running loop)."""
        if self._sampler is None or self._sampler.done():
            self._sampler = asyncio.create_task(self._sample(), name="event-loop-lag")

    async def _sample(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            due = loop.time() + LAG_EVERY
            await asyncio.sleep(LAG_EVERY)
            self.lag = max(self.lag, loop.time() - due)

    def take_lag(self) -> float:
        """The longest lag since the previous call (the scrape's gauge), then 0 again."""
        lag, self.lag = self.lag, 0.0
        return lag

    def observe(self, by_bot: bool, seconds: float) -> None:
        """Count one applied move and its time (the move path's hook)."""
        self._moves_by[by_bot].inc()
        self.latency.observe(seconds)


class _Live(Collector):
    """The gauges, read from the live tables at each scrape."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        manager = self.metrics.manager
        tables = GaugeMetricFamily(
            "tikki_tables", "Live tables this process holds", labels=["status"]
        )
        counts = {"waiting": 0, "playing": 0}
        sockets = 0
        for table in list(manager.tables.values()):
            if table.status in counts:
                counts[table.status] += 1
            sockets += len(table.connections)
        for status, count in counts.items():
            tables.add_metric([status], count)
        yield tables
        ownership = getattr(manager, "ownership", None)
        if getattr(ownership, "clustered", False):
            yield GaugeMetricFamily(
                "tikki_tables_locked",
                "Live tables whose PostgreSQL advisory lock this process holds (--cluster)",
                value=int(getattr(ownership, "owned", 0)),
            )
        yield GaugeMetricFamily(
            "tikki_bot_queue", "Tables where a bot is due to move", value=manager.bot_queue()
        )
        connections = GaugeMetricFamily("tikki_connections", "Open connections", labels=["kind"])
        connections.add_metric(["websocket"], sockets)
        guard = self.metrics.guard
        if guard is not None:
            connections.add_metric(["all"], len(guard.open))
        yield connections
        counts = getattr(ownership, "counts", {})
        for key, said in COUNTED.items():
            yield CounterMetricFamily(f"tikki_{key}", said, value=counts.get(key, 0))
        storage = getattr(manager, "storage", None)
        yield CounterMetricFamily(
            "tikki_database_errors",
            "Storage calls that found the database out of reach (each try)",
            value=getattr(storage, "errors", 0),
        )
        yield GaugeMetricFamily(
            "tikki_event_loop_lag_seconds",
            "The longest time the event loop was late to a timer since the previous scrape",
            value=self.metrics.take_lag(),
        )


def install(app: Any) -> APIRouter:
    """Give ``app`` its metrics (hooked into its table manager's move path); return the
    router of ``/healthz`` and ``/metrics``."""
    manager: TableManager = app.state.manager
    metrics = Metrics(manager)
    app.state.metrics = metrics
    manager.on_move = metrics.observe
    return router()


def watch_connections(app: Any, guard: Guard) -> None:
    """Count the open connections of ``guard`` (the running server's) in ``app``'s metrics."""
    metrics = getattr(getattr(app, "state", None), "metrics", None)
    if isinstance(metrics, Metrics):
        metrics.guard = guard


def stopping(app: Any) -> None:
    """Mark ``app`` as stopping: ``/healthz`` answers 503 from now on."""
    state = getattr(app, "state", None)
    if state is not None:
        state.stopping = True


def _ping(manager: TableManager) -> None:
    with manager.store.engine.connect() as conn:
        conn.execute(text("SELECT 1"))


async def health(app: Any) -> str | None:
    """Why the process is not healthy (``None``: it is)."""
    if getattr(app.state, "stopping", False):
        return "stopping"
    manager: TableManager = app.state.manager
    try:
        await asyncio.wait_for(asyncio.to_thread(_ping, manager), PING_TIMEOUT)
    except Exception:
        return "database unavailable"
    alive = getattr(getattr(app.state, "cluster", None), "alive", None)  # --cluster only
    if (alive() if callable(alive) else alive) is False:
        return "cluster lock connection lost"
    return None


def allowed(request: Request) -> bool:
    """Whether the request may read ``/metrics`` (this machine, ``TIKKI_METRICS_FROM``)."""
    more = [a.strip() for a in os.environ.get("TIKKI_METRICS_FROM", "").split(",") if a.strip()]
    host = request.client.host if request.client is not None else None
    return trusted([*LOCAL, *more])(host)


def router() -> APIRouter:
    """``/healthz`` and ``/metrics``."""
    routes = APIRouter(tags=["operations"])

    @routes.get("/healthz", include_in_schema=False)
    async def healthz(request: Request) -> Response:
        started = time.perf_counter()
        problem = await health(request.app)
        headers = {"Cache-Control": "no-store"}
        if problem is not None:
            return Response(f"{problem}\n", 503, headers, media_type="text/plain")
        took = f"{(time.perf_counter() - started) * 1000:.1f}"
        return Response("ok\n", 200, {**headers, "X-Check-Ms": took}, media_type="text/plain")

    @routes.get("/metrics", include_in_schema=False)
    async def metrics(request: Request) -> Response:
        if not allowed(request):
            raise ApiError(
                "not_found",
                _(
                    "/metrics answers only this machine and the addresses in "
                    "TIKKI_METRICS_FROM: scrape each process on its own port"
                ),
            )
        data: Metrics = request.app.state.metrics
        data.sample_lag()  # from the first scrape on
        body = generate_latest(data.registry)
        return Response(body, 200, {"Cache-Control": "no-store"}, media_type=CONTENT_TYPE_LATEST)

    return routes


__all__ = [
    "LATENCY_BUCKETS",
    "Metrics",
    "allowed",
    "health",
    "install",
    "router",
    "stopping",
    "watch_connections",
]
