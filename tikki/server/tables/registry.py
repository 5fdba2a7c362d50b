"""The live tables in memory, :class:`Registry`: rebuilding a table from its stored row,
keeping finished ones for a while, forgetting one another process took, and refusing to
change a table this process no longer owns."""

from __future__ import annotations

import asyncio
from collections import deque

from tikki.core import IllegalMove, RulesError, load
from tikki.i18n import _
from tikki.serve_settings import Policy
from tikki.server.cluster import Ownership
from tikki.server.db import StoredTable
from tikki.server.errors import ApiError
from tikki.server.tables.correspondence import is_correspondence
from tikki.server.tables.storage import Clock
from tikki.server.tables.table import MOVED, Table, Takeover

FINISHED_KEPT = 1000
"""Finished tables kept in memory (older ones are read back from the database on demand)."""
STORED_BEFORE_REVISIONS = "r1"
"""The rulings revision of a table stored without one: tables store the revision they
were created under (``"rules"`` beside the options) since revision r2; an older row was
created under r1, and finishes under r1 after a restart."""


class Registry:
    """Every table this process has in memory, by id."""

    def __init__(self, ownership: Ownership, policy: Policy, clock: Clock) -> None:
        self.ownership = ownership
        self.policy = policy
        self.clock = clock
        self.tables: dict[str, Table] = {}
        self._finished: deque[str] = deque()

    def reset(self) -> None:
        """Forget every table (the manager stops, or starts again)."""
        self.tables = {}
        self._finished.clear()

    def rebuild(self, row: StoredTable) -> Table:
        """A live table rebuilt from its stored row (its moves replayed)."""
        options = dict(row.options)
        rules = options.pop("rules", STORED_BEFORE_REVISIONS)
        memory_aids = bool(options.pop("memory_aids", False))
        forced_moves = bool(options.pop("forced_moves", False))
        rated = bool(options.pop("rated", False))
        turn_timer = options.pop("turn_timer", None)
        on_timeout = options.pop("on_timeout", "wait")
        game = load(row.game, row.players, rules=rules, **options)
        state = game.new_state(seed=row.seed)
        people = {s.seat for s in row.seats if s.kind == "human"}
        played = False
        for move in row.moves:
            played = played or state.current_player in people
            state.play(move)
        status = "finished" if state.is_over else row.status
        policy = self.policy
        last_move = row.last_move or row.created
        since = last_move if is_correspondence(turn_timer) else self.clock()
        return Table(
            id=row.id, game=game, state=state, seed=row.seed, seats=row.seats,
            status=status, created=row.created, finished=row.finished, seq=len(row.moves),
            memory_aids=memory_aids, forced_moves=forced_moves, rated=rated,
            turn_timer=turn_timer, on_timeout=on_timeout,
            takeovers=[Takeover.from_json(t) for t in row.takeovers],
            account_seats=set(row.accounts),
            turn_since=since, last_move=last_move,
            away_after=policy.away_after, clock=self.clock, expiry=policy.waiting_expiry,
            joined_expiry=policy.joined_expiry, played=played,
        )  # fmt: skip

    def rebuild_or_refuse(self, row: StoredTable) -> Table:
        """:meth:`rebuild`, or ``unknown_table`` if the stored moves do not replay."""
        try:
            return self.rebuild(row)
        except (RulesError, IllegalMove) as err:
            raise ApiError(
                "unknown_table",
                _("table {table_id!r} cannot be rebuilt: {err}", table_id=row.id, err=err),
            ) from None

    def held(self, table_id: str) -> Table | None:
        """The table if this process may serve it from memory: a finished one, or one it
        owns."""
        table = self.tables.get(table_id)
        if table is not None and (table.status == "finished" or self.ownership.holds(table_id)):
            return table
        return None

    def retire(self, table: Table) -> None:
        """Note a finished table; forget the oldest beyond :data:`FINISHED_KEPT`."""
        self._finished.append(table.id)
        while len(self._finished) > FINISHED_KEPT:
            self.tables.pop(self._finished.popleft(), None)

    def forget(self, table_id: str) -> None:
        """Drop a table from memory: stop its bots, close its connections (:data:`MOVED`)."""
        table = self.tables.pop(table_id, None)
        if table is None:
            return
        task = table.bot_task
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        for conn in list(table.connections):
            conn.close(MOVED)

    def check_owned(self, table: Table) -> None:
        """Refuse (``moved``) to change a table this process of a cluster no longer owns
        (handed over while the request waited, or its lock connection broke)."""
        if not self.ownership.clustered:
            return
        if self.tables.get(table.id) is table and self.ownership.holds(table.id):
            return
        raise table_moved(table.id, table.seq)

    @property
    def live(self) -> list[Table]:
        """The tables in memory that are not finished."""
        return [t for t in self.tables.values() if t.status != "finished"]


def table_moved(table_id: str, seq: int | None = None) -> ApiError:
    """The ``moved`` refusal: the table is another process's now."""
    return ApiError(
        "moved",
        _(
            "table {id} moved to another server while your request waited: "
            "connect again and send it again",
            id=table_id,
        ),
        seq,
    )


def table_moving(table_id: str) -> ApiError:
    """The refusal while a table moves between the processes of a cluster."""
    return ApiError(
        "unavailable",
        _("table {id} is moving to another server: try again in a moment", id=table_id),
    )


def unknown_table(table_id: str) -> ApiError:
    """The ``unknown_table`` refusal."""
    return ApiError(
        "unknown_table",
        _(
            "there is no table {table_id!r}: GET /api/tables lists the open ones",
            table_id=table_id,
        ),
    )
