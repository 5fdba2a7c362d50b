"""Where bots think: fair slots on the event loop and a bounded pool of search processes.

:class:`FairSlots` is an async semaphore whose waiters are served round-robin, first across
*groups* (the address that created a table), then across *keys* (tables) within a group,
so a client with twenty busy tables gets no more turns than a client with one.

:class:`BotPool` puts people first: searches for tables where people sit may use every
slot, and a reserved share of them (half, at least one) is theirs alone; searches of
bot-only tables and analysis jobs (the *crowd*) share the rest, round-robin by address,
and wait behind people's searches for a free slot.  No number of crowd searches can make
a person's bot wait for a slot; a queued crowd search knows its place (:meth:`BotPool.place`).

:class:`SearchPool` runs searching bots (``ismcts``) in worker processes, as many as the
machine has cores: a search never holds the server's event loop nor its interpreter lock.
Each search runs under a time cap (:data:`MAX_SECONDS`) and stops at once when the pool
stops (a shared event the bot checks every few iterations), so shutting the server down
never waits for a search to finish.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from contextlib import asynccontextmanager
from functools import lru_cache
from multiprocessing.synchronize import Event
from typing import Any, TypeVar

from tikki import bots as botlib
from tikki.bots.expert import ExpertBot
from tikki.bots.ismcts import ISMCTSBot
from tikki.core import Game, load
from tikki.serve_settings import cores

T = TypeVar("T")

MAX_SECONDS = 10.0
"""The longest one search may think (it then plays its best move so far)."""
STOP_GRACE = 1.0
"""Seconds a stopping pool gives its workers to end before it kills them."""


class FairSlots:
    """``size`` slots, granted round-robin across groups, then across keys in a group.

    No group holds more than ``per_group`` slots at once (by default all but one, when
    there are two or more): a client that keeps every slot busy still leaves one free, so
    another client's bot starts at once instead of waiting for a long search to end.

    Turns follow search *time*, not only turns: each group's use of the slots (seconds
    held, halved every :data:`USAGE_HALF_LIFE` seconds) is counted, and a free slot goes
    to the next group round-robin among those within :data:`QUANTUM` seconds of the
    least use.  A person whose Hard bot searches a third of a second between their moves
    goes ahead of addresses whose Expert bots search without pause: each group gets an
    equal share of the search time, and one that used less gets its share first.
    """

    def __init__(
        self,
        size: int,
        per_group: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if size < 1:
            raise ValueError(f"a pool needs at least one slot, not {size}")
        self.size = size
        self.per_group = per_group if per_group is not None else max(1, size - 1)
        if not 1 <= self.per_group <= size:
            raise ValueError(f"per_group is 1 to {size}, not {self.per_group}")
        self.busy = 0
        self._held: dict[str, int] = {}
        self._groups: deque[str] = deque()
        self._keys: dict[str, deque[str]] = {}
        self._waiters: dict[tuple[str, str], deque[asyncio.Future[None]]] = {}
        self._background: set[str] = set()
        """Groups served only when no other group's waiter can be."""
        self.clock = clock
        self._usage: dict[str, tuple[float, float]] = {}
        """Each group's decayed seconds of slots held, and when it was last brought up
        to date."""

    @property
    def waiting(self) -> int:
        """Waiters not yet granted a slot."""
        return sum(1 for q in self._waiters.values() for f in q if not f.done())

    def slot(self, group: str, key: str, background: bool = False) -> _Slot:
        """Hold one slot for the body (``async with``); waits its fair turn when all are
        busy.  The body gets a function that gives the slot back early (the rest of the
        body then waits on something that needs no slot); the slot is given back once
        either way.

        A ``background`` group's waiters are granted a slot only when no other group's
        waiter can take it."""
        return _Slot(self, group, key, background)

    def usage(self, group: str) -> float:
        """``group``'s use of the slots: seconds held, halved every
        :data:`USAGE_HALF_LIFE` seconds since."""
        value, at = self._usage.get(group, (0.0, 0.0))
        if not value:
            return 0.0
        return float(value * 0.5 ** (max(0.0, self.clock() - at) / USAGE_HALF_LIFE))

    def _use(self, group: str, seconds: float) -> None:
        self._usage[group] = (self.usage(group) + max(0.0, seconds), self.clock())
        if len(self._usage) > USAGE_KEPT:  # forget the groups whose use has faded
            for name in [g for g in self._usage if self.usage(g) < 0.01]:
                del self._usage[name]

    def place(self, group: str, key: str) -> int | None:
        """The place (1: next) of ``key``'s first waiter in the order waiters would be
        granted slots if all were free to take one (caps aside); ``None`` if it waits
        for none."""
        groups = list(self._groups)
        keys = {g: list(self._keys[g]) for g in groups}
        left = {k: sum(1 for f in q if not f.done()) for k, q in self._waiters.items()}
        order = [g for g in groups if g not in self._background]
        order += [g for g in groups if g in self._background]
        number = 0
        while order:
            name = order.pop(0)
            queue = keys[name]
            current = queue.pop(0)
            if left.get((name, current), 0) > 0:
                number += 1
                if (name, current) == (group, key):
                    return number
                left[name, current] -= 1
            if left.get((name, current), 0) > 0:
                queue.append(current)
            if queue:
                order.append(name)
        return None

    def _free_for(self, group: str) -> bool:
        return self.busy < self.size and self._held.get(group, 0) < self.per_group

    def _grant(self, group: str) -> None:
        self.busy += 1
        self._held[group] = self._held.get(group, 0) + 1

    async def _acquire(self, group: str, key: str) -> None:
        if self._free_for(group) and not self._waiters:
            self._grant(group)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if group not in self._keys:
            self._keys[group] = deque()
            self._groups.append(group)
        if (group, key) not in self._waiters:
            self._waiters[group, key] = deque()
            self._keys[group].append(key)
        self._waiters[group, key].append(future)
        self._dispatch()
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self._release(group)  # granted, but the waiter went away: pass the slot on
            raise

    def _release(self, group: str) -> None:
        self.busy -= 1
        self._held[group] -= 1
        if not self._held[group]:
            del self._held[group]
        self._dispatch()

    def _dispatch(self) -> None:
        """Grant free slots to waiters, round-robin, skipping groups at their cap."""
        while self.busy < self.size:
            future = self._next()
            if future is None:
                return
            if not future.done():
                future.set_result(None)

    def _next(self) -> asyncio.Future[None] | None:
        """The next waiter of a group under its cap, round-robin, other groups before
        background ones (granted on return; cancelled ones are dropped without a grant)."""
        return self._next_of(False) or self._next_of(True)

    def _next_of(self, background: bool) -> asyncio.Future[None] | None:
        eligible = [
            g for g in self._groups if (g in self._background) == background and self._free_for(g)
        ]
        if not eligible:
            return None
        used = {g: self.usage(g) for g in eligible}
        least = min(used.values())
        group = next(g for g in eligible if used[g] <= least + QUANTUM)
        future = self._pop(group)
        if group in self._keys:  # it waits for more: to the back of the round
            self._groups.remove(group)
            self._groups.append(group)
        if future is None:
            return None
        if not future.done():
            self._grant(group)
            return future
        return self._next_of(background)  # a cancelled waiter: look again

    def place_count(self, group: str) -> int:
        """How many of ``group``'s waiters wait."""
        return sum(
            1 for (g, _k), q in self._waiters.items() if g == group for f in q if not f.done()
        )

    def _pop(self, group: str) -> asyncio.Future[None] | None:
        """The first waiter of ``group``'s next key; the group and key go to the back."""
        keys = self._keys[group]
        key = keys.popleft()
        queue = self._waiters[group, key]
        future = queue.popleft()
        if queue:
            keys.append(key)
        else:
            del self._waiters[group, key]
        if not keys:
            del self._keys[group]
            self._groups.remove(group)
        return future


class _Slot:
    """One hold of a :class:`FairSlots` slot (:meth:`FairSlots.slot`): an async context
    manager written out (a bot turn takes one a move; a generator-based one cost a
    generator, its wrapper and two more steps)."""

    __slots__ = ("_background", "_began", "_group", "_held", "_key", "_slots")

    def __init__(self, slots: FairSlots, group: str, key: str, background: bool) -> None:
        self._slots = slots
        self._group = group
        self._key = key
        self._background = background
        self._held = False
        self._began = 0.0

    async def __aenter__(self) -> Callable[[], None]:
        slots = self._slots
        if self._background:
            slots._background.add(self._group)
        await slots._acquire(self._group, self._key)
        self._began = slots.clock()
        self._held = True
        return self.give_back

    async def __aexit__(self, *exc: object) -> None:
        self.give_back()

    def give_back(self) -> None:
        """Give the slot back (once: later calls do nothing)."""
        if self._held:
            self._held = False
            slots = self._slots
            slots._use(self._group, slots.clock() - self._began)
            slots._release(self._group)


USAGE_HALF_LIFE = 60.0
"""Seconds after which a group's past use of the search slots counts half."""
QUANTUM = 1.0
"""Groups within this many seconds of use of the least-served one take turns in order."""
USAGE_KEPT = 1000
"""Groups whose use is remembered before faded ones are forgotten."""

CROWD = "~crowd"
"""The group under which crowd searches wait for a slot of the whole pool."""


class BotPool:
    """Search slots, people first: ``workers`` slots, of which ``reserved`` (by default
    half, at least one) only searches for tables where people sit may take.

    Crowd searches (bot-only tables, analysis jobs) take at most :attr:`crowd_size`
    slots, granted round-robin by address among themselves, and only when no waiting
    people's search wants the slot.  With one worker the pool has two slots (one for
    people, one for the crowd): :attr:`size` is how many search processes it needs.
    """

    def __init__(self, workers: int, reserved: int | None = None) -> None:
        if workers < 1:
            raise ValueError(f"a pool needs at least one worker, not {workers}")
        self.reserved = reserved if reserved is not None else max(1, workers // 2)
        if not 1 <= self.reserved <= workers:
            raise ValueError(f"reserved is 1 to {workers}, not {self.reserved}")
        self.crowd_size = max(1, workers - self.reserved)
        self.size = max(workers, self.crowd_size + self.reserved)
        self.all = FairSlots(self.size)
        self.crowd = FairSlots(self.crowd_size, per_group=max(1, self.crowd_size - 1))

    @asynccontextmanager
    async def slot(self, group: str, key: str, people: bool = True) -> AsyncIterator[None]:
        """Hold one search slot: a people's search in its fair turn among people's, a
        crowd search (``people=False``) in its turn among the crowd's, behind people's."""
        if people:
            async with self.all.slot(group, key):
                yield
            return
        async with self.crowd.slot(group, key), self.all.slot(CROWD, key, background=True):
            yield

    def place(self, group: str, key: str) -> int | None:
        """A waiting crowd search's place in the crowd's queue (1: next); ``None`` when
        it waits for nothing."""
        place = self.crowd.place(group, key)
        if place is not None:
            return place
        return 1 if self.all.place(CROWD, key) is not None else None

    @property
    def crowd_waiting(self) -> int:
        """Crowd searches waiting for a slot."""
        return self.crowd.waiting + self.all.place_count(CROWD)


# --- worker processes -------------------------------------------------------------------

_STOP: Event | None = None


WORKER_NICE = 10
"""How much lower the search workers' CPU priority is: people's moves on the event loop
come first when the cores are busy."""


CROWD_NICE = 19
"""The crowd's search workers (bot-only tables, analyses) run at the lowest CPU priority:
when the machine is busy, people's searches get the cores first."""


def _init_worker(stop: Event, nice: int = WORKER_NICE, parent: int | None = None) -> None:
    global _STOP
    _STOP = stop
    with contextlib.suppress(OSError, AttributeError):
        os.nice(nice)
    if parent is not None:
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


PARENT_CHECK = 1.0
"""Seconds between two checks of a worker that the server process that started it lives."""


def _watch_parent(parent: int) -> None:
    """End this worker once the server process that started it is gone (killed with
    ``kill -9``, it cannot stop its workers itself; they would go on, reparented)."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK)
    os._exit(0)


@lru_cache(maxsize=64)
def _game(name: str, players: int, rules: str, options: tuple[tuple[str, Any], ...]) -> Game:
    return load(name, players, rules=rules, **dict(options))


def _halt(deadline: float) -> Callable[[], bool]:
    stop = _STOP

    def halt() -> bool:
        return (stop is not None and stop.is_set()) or time.perf_counter() > deadline

    return halt


def search_move(
    spec: str,
    game: GameKey,
    view: Mapping[str, Any],
    seed: int,
    seconds: float = MAX_SECONDS,
) -> str:
    """A search bot's move (runs in a worker process; stops early when the pool stops)."""
    if _STOP is not None and _STOP.is_set():  # the pool is stopping: any legal move
        return str(view["legal_moves"][0])
    bot = botlib.make(spec, seed=seed)
    if isinstance(bot, ISMCTSBot | ExpertBot):
        bot.halt = _halt(time.perf_counter() + seconds)
    return bot.choose(_game(*game), view)


GameKey = tuple[str, int, str, tuple[tuple[str, Any], ...]]
"""A game as a worker rebuilds it: name, players, rules revision and options."""


def game_key(game: Game) -> GameKey:
    """What a worker needs to rebuild ``game``: its name, players, rules and options (a
    table stored under ``r1`` keeps its bots searching under ``r1``)."""
    return game.name, game.players, game.rules, tuple(sorted(game.options.items()))


class SearchPool:
    """Searching bots in ``size`` worker processes, started on first use."""

    def __init__(
        self, size: int | None = None, seconds: float = MAX_SECONDS, nice: int = WORKER_NICE
    ) -> None:
        self.size = size or cores()
        self.seconds = seconds
        self.nice = nice
        """How much lower than the server's the workers' CPU priority is."""
        self._context = multiprocessing.get_context("spawn")
        self._stop = self._context.Event()
        self._executor: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                self.size,
                mp_context=self._context,
                initializer=_init_worker,
                initargs=(self._stop, self.nice, os.getpid()),
            )
        return self._executor

    async def choose(self, spec: str, game: Game, view: Mapping[str, Any], seed: int) -> str:
        """The move of bot ``spec`` from ``view``, computed in a worker process."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._pool(), search_move, spec, game_key(game), dict(view), seed, self.seconds
        )

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker process (``fn`` and its arguments must pickle)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool(), fn, *args)

    def stop(self, grace: float = STOP_GRACE) -> None:
        """Stop every search now and end the workers (queued searches are dropped); a
        worker still busy after ``grace`` seconds (say, one still starting) is killed."""
        self._stop.set()
        executor, self._executor = self._executor, None
        if executor is not None:
            processes = list(getattr(executor, "_processes", {}).values())
            executor.shutdown(wait=False, cancel_futures=True)
            deadline = time.monotonic() + grace
            for process in processes:
                process.join(max(0.0, deadline - time.monotonic()))
                if process.is_alive():
                    process.kill()
                    process.join(1.0)
        self._stop = self._context.Event()  # a later search starts a fresh pool


__all__ = [
    "CROWD",
    "CROWD_NICE",
    "MAX_SECONDS",
    "QUANTUM",
    "STOP_GRACE",
    "USAGE_HALF_LIFE",
    "BotPool",
    "FairSlots",
    "SearchPool",
    "cores",
    "game_key",
    "search_move",
]
