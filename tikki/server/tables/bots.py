"""Bots at the tables: the bot seats and stand-ins play from a task per table; their turns
take fair slots (round-robin over creators' addresses, then tables) and searching bots
think in worker processes (:mod:`tikki.server.pool`); forced moves play by themselves;
hints.  :class:`BotsMixin` builds on :class:`~tikki.server.tables.moves.MovesMixin`: a
bot's move is checked and applied like a person's."""

from __future__ import annotations

import asyncio
import logging
from contextlib import AbstractAsyncContextManager

from tikki.core import JSON
from tikki.server import botplay
from tikki.server.errors import ApiError
from tikki.server.tables.moves import MovesMixin
from tikki.server.tables.table import Table, active

log = logging.getLogger("tikki.server")

JUDGE = "judge"
"""The default hint bot: the analysis's judge (the expert's search at its budget)."""
FORCED = "forced"
"""What plays a person's forced move (their only legal move) by itself, as the terminal
does: the table option ``forced_moves`` (the lobby's default; off for an API client that
does not ask, which sends every move itself)."""


class BotsMixin(MovesMixin):
    """Bot turns, the search pools' fair slots and the hint bot."""

    def _wake_bots(self, table: Table) -> None:
        if table.status != "playing" or not self._started:
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        if self._bot_to_act(table) is None:
            return
        table.bot_task = asyncio.create_task(self._bot_turns(table), name=f"bots-{table.id}")

    @staticmethod
    def _bot_spec(table: Table, seat: int) -> str | None:
        """The bot that plays ``seat``: its own, or the stand-in for its person."""
        held = table.seats[seat]
        if held.kind == "bot":
            return held.bot
        stand_in = active(table.takeovers, seat) if held.kind == "human" else None
        return None if stand_in is None else stand_in.bot

    @classmethod
    def _bot_to_act(cls, table: Table) -> tuple[int, str] | None:
        """The seat to act and its bot, when a bot (or a stand-in) is to act."""
        if table.status != "playing":
            return None
        seat = table.state.current_player
        if seat is None:
            return None
        spec = cls._bot_spec(table, seat)
        if spec is None and cls._forced(table, seat):
            return seat, FORCED
        return None if spec is None else (seat, spec)

    @staticmethod
    def _forced(table: Table, seat: int) -> bool:
        """Whether ``seat`` is a person (no bot playing for them) to act with a single
        legal move at a table that plays forced moves by themselves."""
        return (
            table.forced_moves
            and table.seats[seat].kind == "human"
            and active(table.takeovers, seat) is None
            and table.state.current_player == seat
            and len(table.state.legal_moves()) == 1
        )

    async def _bot_turns(self, table: Table) -> None:
        """Play the bot seats for as long as a bot is to act."""
        while (bot := self._bot_to_act(table)) is not None:
            await asyncio.sleep(self.bot_delay)
            if self._bot_to_act(table) != bot:
                continue  # a person came back meanwhile
            seat, spec = bot
            seq = table.seq
            move = None
            if spec == FORCED:
                move = table.state.legal_moves()[0]
            elif not botplay.is_cheap(spec):
                view = table.state.view(seat)
                seed = botplay.bot_seed(table.seed, seat, seq)
                move = await self._think(spec, table, view, seed)
            async with self._turn_slots.slot(table.lane, table.id):
                if not await self._bot_move(table, seat, spec, seq, move):
                    return

    async def _bot_move(
        self, table: Table, seat: int, spec: str, seq: int, move: str | None = None
    ) -> bool:
        """Play one bot move (a cheap bot decides here, on the event loop); ``False`` when
        the move was refused for good (the bots of this table stop)."""
        if move is None:
            seed = botplay.bot_seed(table.seed, seat, seq)
            move = await self._think(spec, table, table.state.view(seat), seed)
        try:
            await self.move(table, seat, move, seq, by_bot=True)
        except ApiError as err:
            if err.code in ("stale", "not_your_turn") and self._bot_to_act(table) is None:
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
        return self._search_slots.slot(lane, key, people)

    def bot_queue(self) -> int:
        """The tables where a bot is due to move (waiting its delay, its turn or its
        search)."""
        return sum(1 for t in self.tables.values() if t.bot_task and not t.bot_task.done())

    def search_place(self, lane: str, key: str) -> int | None:
        """The place of a crowd search in the queue (1: next; ``None``: not waiting)."""
        return self._search_slots.place(lane, key)

    async def _think(self, spec: str, table: Table, view: JSON, seed: int) -> str:
        """The bot's move: cheap bots (well under a millisecond) decide on the event loop,
        searching ones in a worker process, in their fair turn (never on the loop)."""
        game = table.game
        try:
            if botplay.is_cheap(spec):
                return botplay.choose(spec, game, view, seed)
            people = any(s.kind == "human" for s in table.seats)
            pool = self.searches if people else self.crowd_searches
            async with self._search_slots.slot(table.lane, table.id, people):
                return await pool.choose(spec, game, view, seed)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot %s failed; playing a random move instead", spec)
            return botplay.choose("random", game, view, seed)

    async def hint(self, table: Table, seat: int | None) -> str:
        """What the hint bot would play from this seat's view (only on the seat's turn).

        The default hint bot, ``judge``, is the analysis's judge (:func:`tikki.analysis.hint`:
        the expert's search at the analysis's budget and seed for this move), so the hint
        is the move "Analyse my game" will rate best here."""
        self._check_turn(table, seat, None, moving=False)
        assert seat is not None
        view = table.state.view(seat)
        if self.hint_bot == JUDGE:
            return await self._judge_hint(table, view)
        seed = botplay.bot_seed(table.seed, seat, table.seq, "hint")
        return await self._think(self.hint_bot, table, view, seed)

    async def _judge_hint(self, table: Table, view: JSON) -> str:
        """The judge's move for ``view``, in a worker process in the table's fair turn."""
        from tikki import analysis

        game = table.game
        number = len(table.state.moves) + 1
        task: analysis.Task = (
            game.name, game.players, game.rules, tuple(sorted(game.options.items())), view,
            number, "", "", analysis.decision_seed(0, number),
        )  # fmt: skip
        iterations = self.policy.analysis_iterations
        async with self._search_slots.slot(table.lane, table.id):
            return await self.searches.run(analysis.best_task, task, iterations)
