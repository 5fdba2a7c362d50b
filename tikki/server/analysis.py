"""Game analysis at the web table ("Analyse my game"): jobs on the bots' bounded pool.

A finished table's record is public, so anyone may ask for the analysis of any seat of it
(:mod:`tikki.analysis`: every legal move's value from that seat's view only, by the
``expert`` bot's search, at the same budget and seed as ``tikki analyse``'s defaults).  A job is
one per (table, seat): asking again returns the same job.  Its decisions are judged one
by one in the search worker processes, in the crowd's share of the pool (behind people's
tables, round-robin with bot-only tables by the lane ``analysis:ADDRESS``), so an analysis
never holds the event loop and never delays a bot at a table where people sit; while a
decision waits, the job shows its place in the queue (``queue``).  A finished job's result
is kept in the database (:meth:`~tikki.server.db.Store.keep_analysis`), so that a seat's game
is analysed once: asking again, after a restart too, answers the kept result at once.  Only
a finished table's seats are analysed and answered, so nothing hidden is ever shown.  Jobs
stay in memory too (the newest :data:`KEEP`).  Each address may run :data:`PER_ADDRESS` jobs
at once, the server ``--max-analyses`` in all; more answer ``429 rate_limited``.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tikki import analysis
from tikki.i18n import _, ngettext
from tikki.server.errors import ApiError

if TYPE_CHECKING:
    from tikki.server.tables import Table, TableManager

ITERATIONS = analysis.ITERATIONS
"""The judge's budget (the expert's iterations per decision) at the web table by default
(``--analysis-iterations``; the terminal's default is the same, so that both show the same
verdicts for the same record)."""
KEEP = 200
"""Finished and running jobs kept in memory, newest last."""
PER_ADDRESS = 2
"""Jobs one address may have running at once."""

log = logging.getLogger(__name__)


@dataclass
class Job:
    """One analysis: its progress, then its result (or its error)."""

    table: str
    seat: int
    owner: str
    total: int = 0
    done: int = 0
    result: analysis.Analysis | None = None
    kept: dict[str, Any] | None = None
    """The result as the API answers it, once done (read back from the database, or
    :attr:`result`'s)."""
    error: str | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)
    where: Callable[[], int | None] | None = field(default=None, repr=False)
    """The job's place in the search queue, asked when it is shown."""

    @property
    def status(self) -> str:
        """``running``, ``done`` or ``failed``."""
        if self.error is not None:
            return "failed"
        return "done" if self.kept is not None else "running"

    def public(self) -> dict[str, Any]:
        """The job as the API answers it."""
        out: dict[str, Any] = {
            "table": self.table,
            "seat": self.seat,
            "status": self.status,
            "done": self.done,
            "total": self.total,
        }
        if self.kept is not None:
            out["analysis"] = self.kept
        if self.error is not None:
            out["message"] = self.error
        if self.status == "running" and self.where is not None:
            out["queue"] = self.where()
        return out


class Analyses:
    """The analysis jobs of one server."""

    def __init__(self, manager: TableManager, iterations: int = ITERATIONS, most: int = 16) -> None:
        self.manager = manager
        self.iterations = iterations
        self.most = most
        """Jobs running (or queued) at once on the whole server."""
        self.jobs: OrderedDict[tuple[str, int], Job] = OrderedDict()
        self.on_done: Callable[[Job], Awaitable[None]] | None = None
        """Called with each job that has its result, once it is kept."""

    async def seats(self, table: Table) -> list[int]:
        """The seats of a finished ``table`` whose analysis is running, done or kept."""
        self._check(table, 0)
        kept = await self.manager.storage.run(self.manager.store.analysed_seats, table.id)
        here = {
            seat for (t, seat), job in self.jobs.items() if t == table.id and job.status != "failed"
        }
        return sorted(here.union(kept))

    async def get(self, table: Table, seat: int) -> Job:
        """The job of ``table``'s ``seat`` (in memory, else kept); ``not_found`` when none
        was asked for."""
        self._check(table, seat)
        job = self.jobs.get((table.id, seat)) or await self._kept(table, seat)
        if job is None:
            raise ApiError(
                "not_found",
                _(
                    "no analysis of seat {seat} at table {table} was asked for: "
                    "POST /api/tables/{table}/analysis/{seat} starts one",
                    seat=seat,
                    table=table.id,
                ),
            )
        return job

    async def start(self, table: Table, seat: int, address: str) -> Job:
        """Start (or return the running, finished or kept) analysis of ``table``'s ``seat``."""
        self._check(table, seat)
        key = (table.id, seat)
        job = self.jobs.get(key)
        if job is not None and job.status != "failed":
            self.jobs.move_to_end(key)
            return job
        kept = await self._kept(table, seat)
        if kept is not None:
            return kept
        running = sum(1 for j in self.jobs.values() if j.owner == address and j.status == "running")
        if running >= PER_ADDRESS:
            raise ApiError(
                "rate_limited",
                ngettext(
                    "{n} analysis from this address is still running; wait for it to finish",
                    "{n} analyses from this address are still running; wait for one to finish",
                    running,
                ),
                retry_after=10,
            )
        everyone = sum(1 for j in self.jobs.values() if j.status == "running")
        if everyone >= self.most:
            raise ApiError(
                "rate_limited",
                _(
                    "the server is analysing {n} games, its limit: try again in a minute",
                    n=everyone,
                ),
                retry_after=60,
            )
        job = Job(table.id, seat, address)
        lane = f"analysis:{address}"
        job.where = lambda: self.manager.search_place(lane, job.table)
        self.jobs[key] = job
        self._trim()
        job.task = asyncio.create_task(self._run(job, table.state.record()))
        return job

    async def _kept(self, table: Table, seat: int) -> Job | None:
        """A done job of the result kept in the database, remembered (``None``: none)."""
        store = self.manager.store
        result = await self.manager.storage.run(store.kept_analysis, table.id, seat)
        if result is None:
            return None
        n = len(result["decisions"])
        job = Job(table.id, seat, "", total=n, done=n, kept=result)
        self.jobs[(table.id, seat)] = job
        self._trim()
        return job

    @staticmethod
    def _check(table: Table, seat: int) -> None:
        if table.status != "finished":
            raise ApiError(
                "not_finished",
                _(
                    "table {table} is not finished: a game is analysed once it is over",
                    table=table.id,
                ),
            )
        if not 0 <= seat < len(table.seats):
            last = len(table.seats) - 1
            raise ApiError(
                "unknown_seat", _("no seat {seat}: seats are 0–{last}", seat=seat, last=last)
            )

    def _trim(self) -> None:
        while len(self.jobs) > KEEP:
            _, old = self.jobs.popitem(last=False)
            if old.task is not None:
                old.task.cancel()

    async def _run(self, job: Job, record: dict[str, Any]) -> None:
        try:
            game, tasks = analysis.tasks_of(record, job.seat)
            job.total = len(tasks)
            decisions = []
            for task in tasks:
                decisions.append(await self._judge(job, task))
                job.done += 1
            result = analysis.result_of(game, job.seat, self.iterations, 0, decisions)
        except asyncio.CancelledError:
            raise
        except Exception as err:
            job.error = _("the analysis failed: {error}", error=err)
            return
        kept = result.to_json()
        try:
            store = self.manager.store
            await self.manager.storage.run(store.keep_analysis, job.table, job.seat, kept)
        except Exception:  # the result stands in memory; a restart will compute it again
            log.exception("keeping the analysis of %s seat %d failed", job.table, job.seat)
        job.result, job.kept = result, kept  # done only once kept (or its keeping failed)
        if self.on_done is not None:
            try:
                await self.on_done(job)
            except Exception:  # the result stands
                log.exception("after the analysis of %s seat %d", job.table, job.seat)

    async def _judge(self, job: Job, task: analysis.Task) -> analysis.Decision:
        manager = self.manager
        async with manager.search_slot(f"analysis:{job.owner}", job.table):
            return await manager.crowd_searches.run(analysis.judge_task, task, self.iterations)

    def stop(self) -> None:
        """Cancel every running job (the server is stopping)."""
        for job in self.jobs.values():
            if job.task is not None and not job.task.done():
                job.task.cancel()


__all__ = ["ITERATIONS", "KEEP", "PER_ADDRESS", "Analyses", "Job"]
