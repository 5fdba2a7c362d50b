"""The tables' storage thread: every database call of the table manager runs on one
dedicated thread, so the event loop never waits on the database and SQLite sees one
writer at a time.  Moves are stored by group commit (:meth:`Storage.add_move`): the
moves that arrive while a transaction is written go together into the next one, and each
is acknowledged only once its transaction is committed.

Where a group is written:

* On a SQLite file, on the event loop itself, at the loop's next step after its first
  move (:meth:`Storage._write_here`), on a connection that never waits: no lock wait (a
  group that finds another connection writing goes to the storage thread at once) and no
  checkpoint (those run on the storage thread every :data:`CHECKPOINT_GROUPS` groups).
  A commit in WAL mode appends to the log without an fsync: tens of microseconds, less
  than handing the group to a thread and being woken by it (issue 54: the storage
  thread's share of a move's CPU, its hand-overs and the GIL going back and forth).
* Otherwise (an in-memory database, a group that finishes a game, one the loop could not
  write) on the storage thread: a lone move is handed to it at once and the next group
  follows its commit directly, neither waits for a pass of the event loop.
* On PostgreSQL from the event loop, by one statement on an async connection
  (:mod:`tikki.server.pg_groups`): the loop goes on with its moves while PostgreSQL
  commits, and no thread waits for the GIL between a commit and the next group."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import queue
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy.exc import IntegrityError

from tikki.i18n import _
from tikki.server.db import MoveWrite, Store, is_outage, now
from tikki.server.errors import ApiError

log = logging.getLogger("tikki.server")
T = TypeVar("T")

OUTAGE_WAIT = 5.0
"""Seconds a storage call waits for the database to come back (a restart, a broken
connection) before the request is refused ``503 unavailable`` with ``Retry-After``."""
OUTAGE_RETRY = 2
"""The ``Retry-After`` (s) of a request refused because the database was away."""
GROUP_PACE = 0.002
"""Seconds at least from the start of one group commit on PostgreSQL to the start of
the next while moves keep coming (a lone move is written at once): under load a group
takes the moves of this long, and PostgreSQL's CPU a move falls with the group's size
(about 32 µs a move in groups of 5, 7 in groups of 54: ``unnest`` and one commit a
group), for at most this much more wait a move."""
CHECKPOINT_GROUPS = 200
"""Group commits written on the event loop (a SQLite file) between two passive WAL
checkpoints on the storage thread (:meth:`~tikki.server.db.Store.checkpoint`): the loop's
own connection runs none, so that no commit there waits for an fsync; about SQLite's own
default of 1,000 pages of log."""
FIRST_PAUSE = 0.05
"""Seconds before the first retry; each next pause doubles, up to 1 s."""
Waiting = list[tuple[MoveWrite, "asyncio.Future[None]", bool]]
"""Moves with their acknowledgements and whether a person waits for each (a group
commit's moves)."""


def outage() -> ApiError:
    """The refusal while the database is out of reach."""
    return ApiError(
        "unavailable",
        _("the database is not answering: try again in a moment"),
        retry_after=OUTAGE_RETRY,
    )


class Clock:
    """The wall clock of table ages, shared by every part of the manager; tests replace
    :attr:`now` to move time on."""

    def __init__(self, now: Callable[[], datetime] = now) -> None:
        self.now = now

    def __call__(self) -> datetime:
        """The time as the clock tells it when called."""
        return self.now()


class StorageThread(Executor):
    """The storage thread: one thread that runs the calls handed to it in order.  As a
    one-thread ``ThreadPoolExecutor`` (``asyncio``'s ``run_in_executor`` takes it), but a
    hand-over is one queue put: no idle semaphore, and :meth:`call` (a group commit, which
    tells its moves itself) no future at all."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._queue: queue.SimpleQueue[tuple[Future[Any] | None, Callable[[], Any]] | None] = (
            queue.SimpleQueue()
        )
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._shut = False

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        """Run ``fn(*args, **kwargs)`` on the thread, after the calls handed over before;
        ``RuntimeError`` after :meth:`shutdown`."""
        future: Future[T] = Future()
        self._put(future, functools.partial(fn, *args, **kwargs) if args or kwargs else fn)
        return future

    def call(self, fn: Callable[[], object]) -> None:
        """:meth:`submit` for a call whose outcome nobody awaits (an error is logged)."""
        self._put(None, fn)

    def _put(self, future: Future[Any] | None, fn: Callable[[], Any]) -> None:
        with self._lock:
            if self._shut:
                raise RuntimeError("cannot schedule new futures after shutdown")
            if self._thread is None:
                self._thread = threading.Thread(target=_work, args=(self._queue,),
                                                name=self._name, daemon=True)  # fmt: skip
                self._thread.start()
                weakref.finalize(self, self._queue.put, None)  # forgotten: the thread ends
            self._queue.put((future, fn))

    @property
    def shut(self) -> bool:
        """Whether :meth:`shutdown` was called (no call is taken any more)."""
        return self._shut

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Refuse new calls; the calls handed over run first (``wait``: until they did)."""
        with self._lock:
            thread, self._shut = self._thread, True
            if thread is not None:
                self._queue.put(None)
        if wait and thread is not None:
            thread.join()


class Storage:
    """The database of the tables (:class:`~tikki.server.db.Store`) behind its thread."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._thread = StorageThread("tikki-db_0")
        self._reader = ThreadPoolExecutor(1, thread_name_prefix="tikki-db-read")
        """The lobby's reads, which never wait behind the moves being written."""
        self.errors = 0
        """Database errors of storage calls so far (each failed try; the metrics' count)."""
        self._waiting: Waiting = []
        """Moves waiting for the next group commit, each with its acknowledgement."""
        self._guard = threading.Lock()
        """Guards :attr:`_waiting` and :attr:`_writing` between the loop and the thread."""
        self._writing = False
        """Whether a group commit is handed to the storage thread (queued or running)."""
        self._retries: set[asyncio.Task[None]] = set()
        self.groups = 0
        """Group commits so far (moves stored / groups: the moves per transaction)."""
        self.groups_here = 0
        """Of them, those written on the event loop (a SQLite file: :meth:`_write_here`)."""
        self._on_loop = store.loop_groups()
        """PostgreSQL's group commits, written from the event loop (:meth:`_pump`)."""
        self._pump_task: asyncio.Task[None] | None = None

    def restart(self) -> None:
        """A fresh storage thread (the manager starts again after :meth:`shutdown`)."""
        self._thread = StorageThread("tikki-db_0")
        self._reader = ThreadPoolExecutor(1, thread_name_prefix="tikki-db-read")
        self._waiting, self._writing, self._pump_task = [], False, None

    async def add_move(
        self, write: MoveWrite, queued: Callable[[], None] | None = None, first: bool = False
    ) -> None:
        """Store one move by group commit; return once it is committed.

        With no other move waiting it is handed to the storage thread at once; moves that
        arrive meanwhile go together into the next transaction.
        :class:`~tikki.server.db.MoveConflict` when the table already has the move's
        number; :func:`outage` when the database stays out of reach (a group whose commit
        broke is checked move by move, as a retry).  ``queued`` is called once the move
        waits in its group, before its commit (a bot turn gives its slot back then);
        ``first``: a person waits for this move, acknowledged before the bots' moves of
        its group (their tables' broadcasts come after it)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        with self._guard:
            self._waiting.append((write, future, first))
            start, self._writing = not self._writing, True
        if start:
            self._hand_over()
        if queued is not None:
            queued()
        await future

    def _hand_over(self) -> None:
        """On the event loop: have the waiting moves written.  On PostgreSQL start writing
        groups from the event loop (:meth:`_pump`); on a SQLite file write them at the
        loop's next step (:meth:`_write_here`: the moves made meanwhile join the group);
        otherwise queue the group commit on the storage thread (:meth:`_to_thread`)."""
        if self._on_loop is not None:
            self._pump_task = asyncio.get_running_loop().create_task(self._pump())
            return
        if self.store.writes_here and not self._thread.shut:
            asyncio.get_running_loop().call_soon(self._write_here)
            return
        self._to_thread()

    def _to_thread(self) -> None:
        """Queue the next group commit on the storage thread (behind the calls already
        there); after :meth:`shutdown` the waiting moves are refused."""
        try:
            self._thread.call(self._write_group)
        except RuntimeError as err:  # the thread is shut down
            with self._guard:
                group, self._waiting, self._writing = self._waiting, [], False
            _tell(group, [err] * len(group), self._settle_group)

    def _write_group(self) -> None:
        """On the storage thread: commit the moves waiting now as one group, tell their
        event loops, and queue the next group if more moves arrived meanwhile."""
        with self._guard:
            group, self._waiting = self._waiting, []
        results: list[Exception | None]
        try:
            results = self.store.add_moves([entry[0] for entry in group])
            self.groups += 1
        except Exception as err:
            results = [err] * len(group)
        _tell(group, results, self._settle_group)
        with self._guard:
            more = self._writing = bool(self._waiting)
        if more:
            self._to_thread()

    def _write_here(self) -> None:
        """On the event loop (a SQLite file): write the waiting moves as one group on the
        loop's own connection (:meth:`~tikki.server.db.Store.add_moves_here`, which never
        waits for a lock or an fsync) and acknowledge them at once: no hand-over to a
        thread, no wake-up of the loop from it.  A group that finishes a game, or one the
        loop could not write (another connection writing, any error), goes to the storage
        thread whole, and so do the groups after it until that thread has none left: one
        group is written at a time, so a table's moves and lobby lines stay in order."""
        with self._guard:
            group = self._waiting
            if not group:
                self._writing = False
                return
            writes = [entry[0] for entry in group]
            here = all(w.outcome is None for w in writes) and not self._thread.shut
            if here:
                self._waiting = []
        if here:
            try:
                self.store.add_moves_here(writes)
            except Exception as err:
                log.debug("a group commit goes to the storage thread: %s", _first_line(err))
                with self._guard:
                    self._waiting[:0] = group
                here = False
        if not here:
            self._to_thread()
            return
        self.groups += 1
        self.groups_here += 1
        if self.groups_here % CHECKPOINT_GROUPS == 0:
            with contextlib.suppress(RuntimeError):  # shut down: the next start checkpoints
                self._thread.call(self.store.checkpoint)
        self._settle_group(group, [None] * len(group))
        with self._guard:
            more = self._writing = bool(self._waiting)
        if more:
            asyncio.get_running_loop().call_soon(self._write_here)

    async def _pump(self) -> None:
        """On the event loop (PostgreSQL): write the waiting moves as a group, then the
        moves that arrived meanwhile, until none wait.  The loop goes on with its work
        while PostgreSQL commits; a group that a key refused is stored move by move on the
        storage thread (a conflict refuses that move only)."""
        assert self._on_loop is not None
        loop = asyncio.get_running_loop()
        while True:
            began = loop.time()
            with self._guard:
                group, self._waiting = self._waiting, []
                if not group:
                    self._writing = False
                    return
            writes = [entry[0] for entry in group]
            results: list[Exception | None]
            try:
                await self._on_loop.write(writes, now())
                results = [None] * len(writes)
                self.groups += 1
            except IntegrityError:
                results = await self._one_by_one(writes)
            except Exception as err:
                results = [err] * len(writes)
            self._settle_group(group, results)
            rest = began + GROUP_PACE - loop.time()
            if rest > 0 and self._waiting:
                await asyncio.sleep(rest)

    async def _one_by_one(self, writes: list[MoveWrite]) -> list[Exception | None]:
        """What became of each move of a group a key refused, stored on its own."""
        try:
            return await self.run(self.store.add_moves, writes)
        except Exception as err:
            return [err] * len(writes)

    async def aclose(self) -> None:
        """Let the group being written from the event loop end, and close its connection
        (before :meth:`shutdown`)."""
        task = self._pump_task
        if task is not None and not task.done():
            await asyncio.wait([task])
        if self._on_loop is not None:
            await self._on_loop.close()

    def _settle_group(self, group: Waiting, results: list[Exception | None]) -> None:
        """On the event loop: acknowledge or refuse each move of a written group, people's
        first; a move whose group's commit broke (the database out of reach) is retried
        on its own."""
        loop = asyncio.get_running_loop()
        told = sorted(zip(group, results, strict=True), key=lambda told: not told[0][2])
        for (write, future, _first), result in told:
            if result is not None and is_outage(result):
                self.errors += 1
                retry = loop.create_task(self._again(write, future))
                self._retries.add(retry)
                retry.add_done_callback(self._retries.discard)
            elif not future.done():
                _settle(future, result)

    async def _again(self, write: MoveWrite, future: asyncio.Future[None]) -> None:
        """Store a move on its own after its group's commit broke at an unknown point: a
        move found stored with its seat and text is this one."""
        await asyncio.sleep(FIRST_PAUSE)
        again = functools.partial(self.store.add_move, again=True, to_act=write.to_act,
                                  played=write.played)  # fmt: skip
        args = (write.table_id, write.seq, write.seat, write.move, write.outcome)
        try:
            await self.run(again, *args)
        except Exception as err:
            if not future.done():
                future.set_exception(err)
        else:
            if not future.done():
                future.set_result(None)

    def shutdown(self) -> None:
        """Wait for the calls in flight and stop the threads."""
        self._thread.shutdown(wait=True)
        self._reader.shutdown(wait=True)

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        """:meth:`run` for a read that need not wait behind the writes (the lobby's): on
        PostgreSQL on a reading thread of its own, on its own connection (SQLite keeps
        one thread: an in-memory database has a single connection)."""
        return await self.run(fn, *args, reader=self.store.engine.dialect.name != "sqlite")

    async def run(
        self,
        fn: Callable[..., T],
        *args: Any,
        again: Callable[..., T] | None = None,
        reader: bool = False,
    ) -> T:
        """Run a storage call on the storage thread (never on the event loop).

        While the database is out of reach the call is made again, after pauses that
        double, for up to :data:`OUTAGE_WAIT` seconds, then refused: :func:`outage`.
        ``again`` is the call for those retries where ``fn`` is not safe to repeat (a
        write whose commit may have happened before the connection broke); ``reader``:
        on the reading thread (:meth:`read`)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + OUTAGE_WAIT
        pause, call = FIRST_PAUSE, fn
        while True:
            try:
                thread = self._reader if reader else self._thread
                return await loop.run_in_executor(thread, call, *args)
            except Exception as err:
                if not is_outage(err):
                    raise
                self.errors += 1
                if loop.time() + pause > deadline:
                    log.error("the database is not answering: %s", _first_line(err))
                    raise outage() from None
                log.warning("the database is not answering (%s); trying again in %.2f s",
                            _first_line(err), pause)  # fmt: skip
            await asyncio.sleep(pause)
            pause, call = min(2 * pause, 1.0), again or fn

    async def write(
        self, what: str, fn: Callable[..., T], *args: Any, again: Callable[..., T] | None = None
    ) -> T:
        """A storage write that changes nothing when it fails: ``503 unavailable``."""
        try:
            return await self.run(fn, *args, again=again)
        except ApiError:
            raise
        except Exception:
            log.exception("storing %s failed", what)
            raise ApiError(
                "unavailable", _("{what} could not be stored: try again", what=what)
            ) from None


def _work(calls: queue.SimpleQueue[tuple[Future[Any] | None, Callable[[], Any]] | None]) -> None:
    """The storage thread: run the calls in order until the end mark (``None``)."""
    while (item := calls.get()) is not None:
        future, fn = item
        if future is None:
            try:
                fn()
            except BaseException:
                log.exception("a storage call failed")
        elif future.set_running_or_notify_cancel():
            try:
                result = fn()
            except BaseException as err:
                future.set_exception(err)
            else:
                future.set_result(result)
        del item, future, fn


def _tell(
    group: Waiting,
    results: list[Exception | None],
    settle: Callable[[Waiting, list[Exception | None]], None],
) -> None:
    """From any thread: have each move's event loop ``settle`` its moves of the group
    (one wake-up per loop; a loop already closed has nobody left to tell)."""
    by_loop: dict[asyncio.AbstractEventLoop, tuple[Waiting, list[Exception | None]]] = {}
    for entry, result in zip(group, results, strict=True):
        moves, outcomes = by_loop.setdefault(entry[1].get_loop(), ([], []))
        moves.append(entry)
        outcomes.append(result)
    for loop, (moves, outcomes) in by_loop.items():
        with contextlib.suppress(RuntimeError):  # the loop is closed
            loop.call_soon_threadsafe(settle, moves, outcomes)


def _settle(future: asyncio.Future[None], result: Exception | None) -> None:
    """Acknowledge a stored move, or refuse it with what stopped it."""
    if result is None:
        future.set_result(None)
    else:
        future.set_exception(result)


def report(what: str, err: BaseException, table: str | None = None) -> None:
    """Log a failure of ``what``: one line when the database was out of reach (an
    outage is the operator's news, not a bug), the traceback otherwise."""
    extra = {"table": table} if table is not None else None
    if is_outage(err) or (isinstance(err, ApiError) and err.code == "unavailable"):
        log.error("%s failed: the database is not answering (%s)", what, _first_line(err),
                  extra=extra)  # fmt: skip
    else:
        log.error("%s failed", what, exc_info=err, extra=extra)


def _first_line(err: BaseException) -> str:
    """An error's first line (a database error's text runs over several)."""
    lines = str(err).strip().splitlines()
    return lines[0] if lines else type(err).__name__
