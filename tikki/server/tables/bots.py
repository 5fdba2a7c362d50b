"""Bots at the tables: the bot seats and stand-ins play from a task per table; their turns
take fair slots (round-robin over creators' addresses, then tables) and searching bots
think in worker processes (:mod:`tikki.server.pool`); forced moves play by themselves;
hints.  A bot's move is checked and applied like a person's (:mod:`.moves`)."""

from __future__ import annotations

import asyncio
import logging
import math
from collections import OrderedDict
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any, TypeVar

from tikki import analysis
from tikki.core import JSON
from tikki.i18n import _
from tikki.serve_settings import Policy
from tikki.server import botplay
from tikki.server.errors import ApiError
from tikki.server.pool import CROWD_NICE, BotPool, FairSlots, SearchPool
from tikki.server.tables import turns
from tikki.server.tables.moves import Moves
from tikki.server.tables.registry import Registry
from tikki.server.tables.table import Table
from tikki.server.tables.turns import FORCED

log = logging.getLogger("tikki.server")
T = TypeVar("T")

BOT_TURNS = 16
"""Bot turns being decided and applied at once (on the event loop); the others wait
their turn, so people's moves never queue behind a flood of bot moves.  A turn gives its
slot back at the event loop's next pass once its move waits for its group commit
(:meth:`Storage.add_move`'s ``queued``): the slots bound the bots' work in one pass of
the loop (a request waits behind at most this many bot moves), not the moves being
written, so the time a commit takes never caps how many moves a process makes."""
HINTS_KEPT = 1024
"""Positions whose hint is kept for later asks."""
JUDGE = "judge"
"""The default hint bot: the analysis's judge (the expert's search at its budget)."""


BEAT = 0.02
"""Seconds of the grid that bot delays end on: the bots due within one beat wake at one
pass of the event loop (and their moves go in one group commit) instead of one each."""


def beat(delay: float, now: float | None = None) -> float:
    """``delay`` lengthened to end on the next :data:`BEAT` of the loop's clock (``now``:
    the running loop's time) by less than a beat; no delay stays none."""
    if delay <= 0:
        return delay
    if now is None:
        now = asyncio.get_running_loop().time()
    return math.ceil((now + delay) / BEAT) * BEAT - now


def at_next_pass(fn: Callable[[], None]) -> Callable[[], None]:
    """``fn`` to be called at the running event loop's next pass (not at once)."""
    loop = asyncio.get_running_loop()

    def later() -> None:
        loop.call_soon(fn)

    return later


class Bots:
    """Bot turns, the search pools' fair slots and the hint bot."""

    def __init__(
        self,
        moves: Moves,
        registry: Registry,
        policy: Policy,
        bot_delay: float = 0.6,
        hint_bot: str = JUDGE,
    ) -> None:
        self.moves = moves
        self.registry = registry
        self.policy = policy
        self.bot_delay = bot_delay
        self.hint_bot = hint_bot
        self.running = False
        """Whether bots play (the manager has started)."""
        self.search_slots = BotPool(policy.workers)
        self.searches = SearchPool(self.search_slots.size)
        self.crowd_searches = SearchPool(self.search_slots.crowd_size, nice=CROWD_NICE)
        """The crowd's own workers (bot-only tables, analyses), at the lowest priority."""
        self._turn_slots = FairSlots(BOT_TURNS)
        self._hints: dict[tuple[str, int, int], asyncio.Task[str]] = {}
        """The hint searches running, by position (table, seq, seat)."""
        self._hinted: OrderedDict[tuple[str, int, int], str] = OrderedDict()
        """The latest positions hinted and their moves (at most :data:`HINTS_KEPT`)."""

    def wake(self, table: Table) -> None:
        """Start the table's bot turns if a bot is to act (and none is playing yet)."""
        if table.status != "playing" or not self.running:
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        if turns.bot_to_act(table) is None:
            return
        table.bot_task = asyncio.create_task(self._turns(table), name=f"bots-{table.id}")

    async def stop(self) -> None:
        """Stop the search workers."""
        self.running = False
        await asyncio.to_thread(self.searches.stop)
        await asyncio.to_thread(self.crowd_searches.stop)

    async def _turns(self, table: Table) -> None:
        """Play the bot seats for as long as a bot is to act."""
        while (bot := turns.bot_to_act(table)) is not None:
            await asyncio.sleep(beat(self.bot_delay))
            if turns.bot_to_act(table) != bot:
                continue  # a person came back meanwhile
            seat, spec = bot
            seq = table.seq
            move = None
            if spec == FORCED:
                move = table.state.legal_moves()[0]
            elif not botplay.is_cheap(spec):
                view = table.state.view(seat)
                seed = botplay.bot_seed(table.seed, seat, seq)
                move = await self.think(spec, table, view, seed)
            async with self._turn_slots.slot(table.lane, table.id) as give_back:
                queued = at_next_pass(give_back)
                if not await self.play(table, seat, spec, seq, move, queued=queued):
                    return

    async def play(
        self,
        table: Table,
        seat: int,
        spec: str,
        seq: int,
        move: str | None = None,
        queued: Callable[[], None] | None = None,
    ) -> bool:
        """Play one bot move (a cheap bot decides here, on the event loop); ``False`` when
        the move was refused for good (the bots of this table stop).  ``queued``: called
        once the move waits for its group commit (the turn's slot is given back then)."""
        if move is None:
            seed = botplay.bot_seed(table.seed, seat, seq)
            move = await self.think(spec, table, table.state.view(seat), seed)
        try:
            await self.moves.move(table, seat, move, seq, by_bot=True, queued=queued)
        except ApiError as err:
            if err.code in ("stale", "not_your_turn") and turns.bot_to_act(table) is None:
                return False  # the person took the seat back before the bot moved
            if err.code in ("stale", "not_your_turn") and spec == FORCED:
                return True  # the person played their forced move first: play on
            log.error("bot move %r at table %s refused: %s", move, table.id, err.message)
            if err.code != "unavailable":
                return False
            await asyncio.sleep(1.0)
        return True

    def search_slot(
        self, lane: str, key: str, people: bool = False
    ) -> AbstractAsyncContextManager[None]:
        """A fair turn in the search pool for other heavy work (analyses: the crowd's
        share, behind people's tables), by ``lane``."""
        return self.search_slots.slot(lane, key, people)

    async def crowd_run(
        self, lane: str, key: str, fn: Callable[..., T], args: tuple[Any, ...]
    ) -> T:
        """``fn(*args)`` in a crowd worker process (lowest priority), in ``lane``'s fair
        turn among the crowd's work (a replay's build: ``lane`` is the asking address)."""
        async with self.search_slots.slot(lane, key, people=False):
            return await self.crowd_searches.run(fn, *args)

    def queue(self) -> int:
        """The tables where a bot is due to move (waiting its delay, its turn or its
        search)."""
        tables = self.registry.tables.values()
        return sum(1 for t in tables if t.bot_task and not t.bot_task.done())

    def search_place(self, lane: str, key: str) -> int | None:
        """The place of a crowd search in the queue (1: next; ``None``: not waiting)."""
        return self.search_slots.place(lane, key)

    async def think(self, spec: str, table: Table, view: JSON, seed: int) -> str:
        """The bot's move: cheap bots (well under a millisecond) decide on the event loop,
        searching ones in a worker process, in their fair turn (never on the loop)."""
        game = table.game
        try:
            if botplay.is_cheap(spec):
                return botplay.choose(spec, game, view, seed)
            people = any(s.kind == "human" for s in table.seats)
            pool = self.searches if people else self.crowd_searches
            async with self.search_slots.slot(table.lane, table.id, people):
                return await pool.choose(spec, game, view, seed)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot %s failed; playing a random move instead", spec)
            return botplay.choose("random", game, view, seed)

    async def hint(self, table: Table, seat: int | None, address: str | None = None) -> str:
        """What the hint bot would play from this seat's view (only on the seat's turn).

        The default hint bot, ``judge``, is the analysis's judge (:func:`tikki.analysis.hint`:
        the expert's search at the analysis's budget and seed for this move), so the hint
        is the move "Analyse my game" will rate best here.  A rated table gives no hints
        while it is played (``no_help_rated``): its ratings measure the people.

        One search per position (table, seq, seat): every ask for it waits on the same
        job, and a position already hinted answers at once (:data:`HINTS_KEPT`).  The
        search is the crowd's work (a crowd worker, behind people's bots), in the fair
        turn of the ``address`` that asked first (else the table's creator's)."""
        if table.rated and table.status == "playing":
            raise ApiError(
                "no_help_rated",
                _(
                    "this table is rated: no hints while it is played (the analysis is there "
                    "after the end)"
                ),
                table.seq,
            )
        seat = turns.check_turn(table, seat, None, moving=False)
        key = (table.id, table.seq, seat)
        known = self._hinted.get(key)
        if known is not None:
            return known
        job = self._hints.get(key)
        if job is None:
            lane = address if address is not None else table.lane
            job = asyncio.create_task(self._hint_job(table, seat, lane), name=f"hint-{table.id}")
            self._hints[key] = job
            job.add_done_callback(lambda done: self._hint_done(key, done))
        return await asyncio.shield(job)

    def _hint_done(self, key: tuple[str, int, int], job: asyncio.Task[str]) -> None:
        """Forget a finished hint job; keep its move for later asks (bounded)."""
        self._hints.pop(key, None)
        if job.cancelled() or job.exception() is not None:
            return
        self._hinted[key] = job.result()
        while len(self._hinted) > HINTS_KEPT:
            self._hinted.popitem(last=False)

    async def _hint_job(self, table: Table, seat: int, lane: str) -> str:
        """The hint bot's move for ``seat``'s view now, as the crowd's work in ``lane``."""
        view = table.state.view(seat)
        game = table.game
        if self.hint_bot != JUDGE:
            seed = botplay.bot_seed(table.seed, seat, table.seq, "hint")
            if botplay.is_cheap(self.hint_bot):
                return botplay.choose(self.hint_bot, game, view, seed)
            async with self.search_slots.slot(lane, table.id, people=False):
                return await self.crowd_searches.choose(self.hint_bot, game, view, seed)
        number = len(table.state.moves) + 1
        task: analysis.Task = (
            game.name, game.players, game.rules, tuple(sorted(game.options.items())), view,
            number, "", "", analysis.decision_seed(0, number),
        )  # fmt: skip
        iterations = self.policy.analysis_iterations
        async with self.search_slots.slot(lane, table.id, people=False):
            return await self.crowd_searches.run(analysis.best_task, task, iterations)
