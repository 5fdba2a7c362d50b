"""Exact search of shedding endgames: paranoid alpha-beta with a position table.

A shedding game is a *loser* game: one player loses, every other
player gains the same.  For the seat that searches, ``seat``, every end is one of three
values: :data:`WIN` (``seat`` went out, someone else is left holding cards), :data:`LOSS`
(``seat`` is the loser) or :data:`DRAW` (abandoned under C-5: no loser).

**Paranoid, not max-n.**  The other players are taken as one coalition that minimises
``seat``'s value.  In a loser game every non-loser scores the same, so max-n leaves each
opponent indifferent between almost all outcomes (who of the others loses does not matter
to him) and its result hangs on an arbitrary tie-break; paranoid has no ties to break,
reduces to a two-valued alpha-beta search that prunes hard, and a :data:`WIN` it proves is
a guarantee whatever the others play.  Its weakness is pessimism: a position it calls
:data:`LOSS` may still be escaped against players who do not conspire, so the expert bot
uses the proof only to play a proven escape or to avoid proven losses (see
:mod:`tikki.bots.expert`).

**Cycles and depth.**  Taking cards back lets positions repeat, and lines without a
repeat can still run for hundreds of moves.  A position met again on the current line, or
one at the depth limit, is scored :data:`DRAW` ("not decided": the line would go round
until the game is abandoned, or was not followed further), and values that rest on such a
cut are not stored in the table (they depend on the path and the limit).  A :data:`WIN`
or :data:`LOSS` never rests on a cut (a maximum of :data:`WIN` has a child proven
:data:`WIN`; a maximum of :data:`LOSS` has every child proven :data:`LOSS`; the same for
minima), so they are exact; :data:`DRAW` means a true draw or not decided.
:meth:`Solver.move_values` deepens the limit step by step (iterative deepening) until
every move is decided or the budget is spent.

**Positions** are keyed by the seat to act, every hand and the cards on the trick, read
from :meth:`State.reveal` of the state searched — a state the bot built from its own view
(perfect information where every hand is public; else a sampled
state), so nothing hidden is read.  The key leaves out which seat played each trick card:
the hands, the trick and the seat to act imply it in every position met in practice.

The engine is used only through its public API (``legal_moves``, ``play``, ``clone``,
``current_player``, ``is_over``, ``outcome``, ``reveal``), so this module holds no rules.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable
from typing import Any

from tikki.core import Game, State

WIN, DRAW, LOSS = 1, 0, -1
"""The three values of an end for the searching seat."""
DEPTHS = (8, 16, 32, 64, 128, 256, 512)
"""The depth limits (moves from the root) of the iterative deepening."""
CLOCK_EVERY = 128
"""How often (nodes) the solver reads its clock."""

Clock = Callable[[], float]
Ending = Callable[[State, int], "int | None"]
"""Where a search ends and what it is worth to a seat: ``end(state, seat)`` is the value of
a state where the search stops (an integer), ``None`` where it goes on."""


class OutOfBudget(Exception):
    """The search ran out of nodes or time before it was decided."""


def position_key(state: State) -> Hashable:
    """The position of a shedding state: seat to act, every hand, the trick's cards (the
    state's own ``search_key()`` where it has one: the same positions, without building
    :meth:`State.reveal`)."""
    fast = getattr(state, "search_key", None)
    if fast is not None:
        return fast()  # type: ignore[no-any-return]
    zones = state.reveal()["zones"]
    hands = tuple(tuple(zones[f"hand {s}"]) for s in range(state.game.players))
    return (state.current_player, hands, tuple(zones.get("trick", ())))


def end_value(state: State, seat: int) -> int:
    """:data:`WIN`, :data:`DRAW` or :data:`LOSS` of a finished state for ``seat``."""
    outcome: dict[str, Any] = state.outcome or {}
    gain = outcome["returns"][seat]
    return WIN if gain > 0 else LOSS if gain < 0 else DRAW


def shedding_end(state: State, seat: int) -> int | None:
    """The shedding games' end: a finished game's :func:`end_value`, else ``None``."""
    return end_value(state, seat) if state.is_over else None


def cards_in_hands(state: State) -> int:
    """How many cards the hands hold (the size of the endgame)."""
    zones = state.reveal()["zones"]
    return sum(len(zones[f"hand {s}"]) for s in range(state.game.players))


def endgame_position(game: Game, seed: int, cards: int) -> State | None:
    """A shedding game's phase-2 state with at most ``cards`` cards in hands, reached from
    ``seed`` by mostly-shedding random play (a ``take`` one time in ten where a play is
    legal), or ``None`` if the game ended first: the positions of the solver's tests and
    of ``benchmarks/endgame.py``."""
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    while not state.is_over and (state.phase != "shed" or cards_in_hands(state) > cards):
        legal = state.legal_moves()
        plays = [m for m in legal if m != "take"]
        state.play(rng.choice(plays if plays and rng.random() < 0.9 else legal))
    return None if state.is_over else state


def _ordered(moves: list[str]) -> list[str]:
    """Search order: plays before ``take`` (taking rarely helps), the engine's order else."""
    return [m for m in moves if m != "take"] + [m for m in moves if m == "take"]


class Solver:
    """Paranoid alpha-beta for one seat, with a table of proven bounds kept across calls.

    ``max_nodes`` and ``deadline`` (on ``clock``) bound each call; a call that runs out
    raises :class:`OutOfBudget`, and what it proved on the way stays in the table for the
    next call.  ``nodes`` counts the positions expanded over the solver's life.

    **Points.**  By default the values are the shedding games' three (:func:`shedding_end`,
    between :data:`LOSS` and :data:`WIN`).  ``end`` and ``bounds`` make it search another
    integer value, e.g. the seat's points when a round is scored (a points game's endgame,
    :mod:`tikki.puzzles.points`): the seat maximises it, the others together minimise it;
    ``bounds`` holds every value ``end`` can give.  A repetition or a cut at the depth limit
    still scores :data:`DRAW` (0) and is not stored; a points search must reach its ends
    within the depth (tricks end, so they do).
    """

    def __init__(
        self,
        seat: int,
        clock: Clock = time.perf_counter,
        end: Ending = shedding_end,
        bounds: tuple[int, int] = (LOSS, WIN),
    ) -> None:
        self.seat = seat
        self.clock = clock
        self.end = end
        self.low, self.high = bounds
        self.table: dict[Hashable, tuple[int, int]] = {}
        self.nodes = 0
        self._limit = 0
        self._horizon = DEPTHS[-1]
        self._deadline: float | None = None

    def move_values(
        self, state: State, max_nodes: int = 10**9, deadline: float | None = None
    ) -> dict[str, int]:
        """The paranoid value of every legal move of ``seat`` in ``state``, as far as the
        budget allows: :data:`WIN` and :data:`LOSS` are proven, :data:`DRAW` is a draw or
        not decided.  Deepens until a move wins or every move is decided."""
        if state.current_player != self.seat:
            raise ValueError("move_values needs a state where the solver's seat is to act")
        self._limit, self._deadline = self.nodes + max_nodes, deadline
        root = position_key(state)
        moves = _ordered(state.legal_moves())
        values = dict.fromkeys(moves, DRAW)
        try:
            for depth in DEPTHS:
                self._horizon = depth
                for move in moves:
                    if values[move] == DRAW:
                        child = state.clone()
                        child.play(move)
                        wide = (self.low - 1, self.high + 1)
                        values[move] = self._search(child, *wide, {root}, 1)[0]
                    if values[move] == WIN:
                        return values
                if DRAW not in values.values():
                    break
        except OutOfBudget:
            pass
        return values

    def value(
        self,
        state: State,
        max_nodes: int = 10**9,
        deadline: float | None = None,
        depth: int = DEPTHS[-1],
    ) -> int:
        """The paranoid value of ``state`` for ``seat``, whoever is to act, searched to
        ``depth`` moves; raises :class:`OutOfBudget` past ``max_nodes`` or ``deadline``."""
        self._limit, self._deadline, self._horizon = self.nodes + max_nodes, deadline, depth
        return self._search(state, self.low - 1, self.high + 1, set(), 0)[0]

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > self._limit:
            raise OutOfBudget
        if (
            self._deadline is not None
            and self.nodes % CLOCK_EVERY == 0
            and self.clock() >= self._deadline
        ):
            raise OutOfBudget

    def _search(
        self, state: State, alpha: int, beta: int, path: set[Hashable], depth: int
    ) -> tuple[int, bool]:
        """Value within (alpha, beta) and whether it rests on a repetition of the path."""
        ended = self.end(state, self.seat)
        if ended is not None:
            return ended, False
        key = position_key(state)
        if key in path:
            return DRAW, True
        low, high = self.table.get(key, (self.low, self.high))
        if low == high or low >= beta:
            return low, False
        if high <= alpha:
            return high, False
        if depth >= self._horizon:
            return DRAW, True
        self._tick()
        alpha, beta = max(alpha, low), min(beta, high)
        first_alpha, first_beta = alpha, beta
        mine = state.current_player == self.seat
        best, cut, rests = (
            (self.low - 1, self.high, False) if mine else (self.high + 1, self.low, False)
        )
        path.add(key)
        try:
            for move in _ordered(state.legal_moves()):
                child = state.clone()
                child.play(move)
                v, rep = self._search(child, alpha, beta, path, depth + 1)
                rests = rests or rep
                if mine:
                    best, alpha = max(best, v), max(alpha, v)
                else:
                    best, beta = min(best, v), min(beta, v)
                if best == cut or alpha >= beta:
                    break
        finally:
            path.discard(key)
        if not rests:
            self._store(key, best, first_alpha, first_beta, low, high)
        return best, rests

    def _store(self, key: Hashable, best: int, alpha: int, beta: int, low: int, high: int) -> None:
        """Keep what ``best`` proves: an upper bound if it failed low, a lower if high."""
        if best <= alpha:
            high = min(high, best)
        elif best >= beta:
            low = max(low, best)
        else:
            low = high = best
        self.table[key] = (low, high)


def brute_force(
    state: State, seat: int, depth: int = 64, path: frozenset[Hashable] = frozenset()
) -> int:
    """The paranoid value of ``state`` for ``seat`` by plain minimax (tests: tiny positions).

    Same conventions as :class:`Solver` (a repeated position, or one ``depth`` moves on,
    is a :data:`DRAW`), no table, no pruning.
    """
    if state.is_over:
        return end_value(state, seat)
    key = position_key(state)
    if key in path or depth <= 0:
        return DRAW
    values = []
    for move in state.legal_moves():
        child = state.clone()
        child.play(move)
        values.append(brute_force(child, seat, depth - 1, path | {key}))
    return max(values) if state.current_player == seat else min(values)
