"""The ``expert`` bot: ISMCTS under a time budget, exact search where it can.

``expert`` (default one second a move, ``expert:seconds=0.5``) sees only its view, like
every bot.  Each move:

1. **One legal move:** played at once, no search.
2. **Moves by rule:** in the phases of :func:`rule_phases` (a game's discards, say) the
   game's heuristic rules choose, where a measurement favoured them over the search
   (``expert:rules=0`` searches there too).
3. **Exact endgames** (:mod:`tikki.bots.endgame`, paranoid alpha-beta):

   * In a game's endgame phase (its ``bots.endgame_phase``) where every hand is public (a
     perfect-information phase), the state drawn from the view by the game's determinizer
     is the true position.  Once at most ``endgame`` cards are in the hands, the solver
     gets a ``solve`` share of the move's time; its table of proven positions is kept from
     move to move, so a solved endgame is then played without search.
   * Where the game declares ``bots.endgame_hidden`` the phase is nearly perfect: only where a
     few cards went is hidden (a pile dealt unseen).  The bot solves ``samples``
     determinizations the same way and trusts only what holds in every one of them (a
     move that escapes in each, or a move lost in each).

   A proven escape (:data:`~tikki.bots.endgame.WIN`) is played; moves proven lost are left
   out of the choice unless every move is.
4. **ISMCTS** (:class:`~tikki.bots.ismcts.ISMCTSBot`, its defaults) spends the rest of the
   time, and the most visited move not proven lost is played.

**Time management:** a move's budget grows with the number of legal moves, by the
weights of :data:`WEIGHTS` (0.75 for two, 1.0 for three, 1.25 for four, 1.5 for five or
more): a choice between many moves gets more thought than one between two.  ``seconds``
is the most a move takes (:func:`time_share`: the whole of it for five or more moves,
half of it for two), so the median move never takes longer, in any game; when the
weights multiplied ``seconds`` itself (up to 1.5 times it) the median Myllymatti move,
most of which have five or more legal moves, took 1.23 s at ``seconds=1``.  The
search stops :data:`SLACK` short of it, so that the move, clock reads and bookkeeping
included, takes no longer.  The clock is
``bot.clock`` (``time.perf_counter``; tests put a fake clock there), and ``bot.halt`` (as
for ``ismcts``) ends a search early.  ``bot.last`` says what the last move cost: how it was
chosen, the ISMCTS iterations and the solver's positions.

**Learned guidance (off by default):** ``expert:priors=W`` lets the game's
learned policy (:mod:`tikki.inference`, ``tikki/models/<game>.npz``) guide the top two levels
of the tree by PUCT with weight ``W`` (e.g. ``priors=1``); ``expert:value=L`` mixes the
learned value of the leaf into each rollout's result with weight ``L`` (``value=1``: the
value alone, no rollout); ``model=FILE.npz`` uses a retrained model.  Both need NumPy
(``pip install 'tikki[models]'``); the plain search is unchanged when both are 0.

**Belief:** the search draws its states from the game's belief where it has one
(:func:`~tikki.bots.ismcts.belief_sampler`: a ``belief`` function in the game's tactics
module, e.g. which cards the other seats set aside), not from the uniform determinizer;
``expert:belief=0`` turns it off.  A game without one searches as before.

**Inference (off by default):** ``expert:inference=policy`` weights the worlds the search
draws by how likely the other seats' observed moves were in each under the game's opponent
model (:mod:`tikki.bots.worlds`; the game's ``likelihood`` in its tactics module, read from
the view alone); ``inference=off`` draws them as before.  A game without a model searches
as before either way.  ``bot.last`` then holds the worlds weighed, the seconds spent
weighing them and their mean effective share (``worlds``, ``weighing``, ``ess``).

**A budget in work instead of time:** ``expert:iterations=3000`` gives each move that many
ISMCTS iterations times its weight (a choice among three moves gets exactly that many)
and the solver :data:`NODES_PER_ITERATION` positions per iteration of its ``solve``
share, whatever the machine's speed: the same seed and views then give the same moves
(the web table uses it, so a table restarted from its records plays on exactly as
before).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tikki.bots.base import legal_of
from tikki.bots.endgame import DRAW, LOSS, WIN, Clock, Solver, cards_in_hands
from tikki.bots.heuristic import policy_for
from tikki.bots.ismcts import Guide, ISMCTSBot, Node
from tikki.bots.worlds import MODES
from tikki.core import VALUE_KINDS, Game, RulesError, State
from tikki.extras import require
from tikki.i18n import _ as _t

WEIGHTS = (0.75, 1.0, 1.25, 1.5)
"""Budget weights for 2, 3, 4 and 5+ legal moves (time management)."""
NODES_PER_ITERATION = 2.0
"""Solver positions per ISMCTS iteration of budget (about their speeds' ratio)."""
SLACK = 0.02
"""The share of a move's time kept back: the search reads the clock only every
``CHECK_EVERY`` iterations and the move's bookkeeping follows it, so a search run to the
whole budget ended just past it (1.003 s a move for ``seconds=1``)."""
FOCUS = 0.5
"""In an appraisal with a focus (the analysis's move played), the least share of the
search's iterations the focused moves and the best move get (:meth:`ExpertBot.appraise`)."""
TABLE_LIMIT = 2_000_000
"""A solver's table is emptied when it holds more proven positions than this."""


def rule_phases(game: Game) -> frozenset[str]:
    """The phases whose moves ``expert`` plays by the heuristic's rules, as ``game``
    declares them (:attr:`~tikki.core.BotParts.rule_phases` of its ``bots``).

    A game lists such phases where a measurement favoured its heuristic's rules over the
    search; the game's module says why (the figures are in docs/bots.md, "How strong expert
    is").
    """
    return game.bots.rule_phases


KINDS = VALUE_KINDS
"""What a move's value is: the chance of not being the loser (a game with a loser) or the
points the round in progress will score for the seat (a game scored in points)."""


def value_kind(game: Game) -> str:
    """What ``game``'s values measure, as it declares (:attr:`~tikki.core.Game.value_kind`):
    ``points`` for a game scored in points by round, else ``not_loser``."""
    return game.value_kind


@dataclass(frozen=True)
class Appraisal:
    """Every legal move of a seat as the expert's search values it (:meth:`ExpertBot.appraise`).

    The *best* move is the one :meth:`ExpertBot.choose` plays with the same seed and
    budget; a move's *value* is the mean, over the search's iterations through it, of the
    seat's own result (:data:`KINDS`); a proven move's value is exact."""

    kind: str
    values: dict[str, float]
    """Each legal move's value, the best move first, then highest first."""
    errors: dict[str, float]
    """The standard error of each value (0 for a proven one)."""
    visits: dict[str, int]
    """The search's iterations through each move."""
    proven: dict[str, int]
    """The moves the exact endgame solver proved: ``WIN`` (1) or ``LOSS`` (-1)."""
    best: str
    how: str
    """How the best move was chosen: ``only``, ``rule``, ``proof`` or ``search``."""


def _row_value(row: list[float], kind: str) -> tuple[float, float]:
    """A move's value and its standard error from its :data:`~tikki.bots.ismcts.RootStats`."""
    n = row[0]
    if kind == "not_loser" and n <= 1:  # one sample or none says nothing: the widest error
        return (row[3] / n if n > 0 else 0.0), 0.5
    if n <= 0:
        return 0.0, 0.0
    if kind == "not_loser":
        mean = row[3] / n
        var = mean * (1 - mean) * n / (n - 1)
    else:
        mean = row[1] / n
        var = max(0.0, (row[2] - n * mean * mean) / (n - 1)) if n > 1 else 0.0
    return mean, math.sqrt(var / n)


def weight(legal: int) -> float:
    """The weight of a move with ``legal`` legal moves: its share of ``iterations``."""
    return WEIGHTS[min(max(legal, 2), 5) - 2]


def time_share(legal: int) -> float:
    """The share of ``seconds`` a move with ``legal`` legal moves gets: its weight over the
    largest, so that no move takes longer than ``seconds``."""
    return weight(legal) / WEIGHTS[-1]


class ExpertBot:
    """ISMCTS with exact shedding endgames and time management (see the module notes)."""

    name = "expert"

    def __init__(
        self,
        seed: int | None = None,
        seconds: float | str = 1.0,
        solve: float | str = 0.4,
        endgame: int | str = 10,
        samples: int | str = 4,
        iterations: int | str | None = None,
        rules: int | str = 1,
        priors: float | str = 0.0,
        value: float | str = 0.0,
        model: str | None = None,
        belief: int | str = 1,
        inference: str = "off",
    ) -> None:
        self.rng = random.Random(seed)
        self.priors = float(priors)
        self.value = float(value)
        self.model = model
        if self.priors < 0 or not 0 <= self.value <= 1:
            raise RulesError(
                _t("expert needs priors >= 0 (0: off) and value between 0 and 1 (0: off)")
            )
        if self.priors > 0 or self.value > 0:
            require("models", "expert with learned priors or values", ("numpy",))
        self.seconds = float(seconds)
        self.iterations = None if iterations is None else int(iterations)
        self.solve = float(solve)
        self.endgame = int(endgame)
        self.samples = int(samples)
        self.rules = int(rules)
        if (
            self.seconds <= 0
            or not 0 <= self.solve <= 1
            or self.samples < 1
            or self.rules not in (0, 1)
            or int(belief) not in (0, 1)
            or (self.iterations is not None and self.iterations < 1)
        ):
            raise RulesError(
                _t(
                    "expert needs seconds > 0, solve between 0 and 1, samples >= 1,"
                    " iterations >= 1, rules 0 or 1 and belief 0 or 1"
                )
            )
        self.search = ISMCTSBot(seed=self.rng.randrange(2**32), iterations=10**9, stop=0)
        self.search.prior_weight, self.search.value_mix = self.priors, self.value
        self.search.belief = bool(int(belief))
        if inference not in MODES:
            raise RulesError(
                _t(
                    "expert inference is {allowed}, not {inference!r}",
                    allowed=", ".join(MODES),
                    inference=inference,
                )
            )
        self.search.inference = inference == "policy"
        self._guides: dict[Game, Guide] = {}
        self.clock: Clock = time.perf_counter
        self.halt: Callable[[], bool] | None = None
        self.last: dict[str, Any] = {}
        self._solvers: dict[tuple[Game, int], Solver] = {}
        self._root = Node(None, -1)
        self._best = ""
        self._proofs: dict[str, int] = {}
        self._allowed: list[str] = []

    def choose(self, game: Game, view: Mapping[str, Any]) -> str:
        """The move: forced, proven, or the most visited of the search."""
        return self._decide(game, view, appraise=False)[0]

    def appraise(self, game: Game, view: Mapping[str, Any], focus: Sequence[str] = ()) -> Appraisal:
        """Every legal move's value, by the very search :meth:`choose` runs (the analysis
        and the hints are this): its best move is the move :meth:`choose` would play from
        the same state of the bot (seed) and budget.  Unlike :meth:`choose`, the search also
        runs where the move is forced, ruled or proven, to value the other moves.

        ``focus`` (the analysis: the move played) and, with it, the best move then get
        :data:`FOCUS` times the search's iterations at least, by more iterations through
        them (:meth:`~tikki.bots.ismcts.ISMCTSBot.extend`), so that the two values a
        verdict compares are sure ones; the best move is chosen before.  Only ``view`` is
        read."""
        best, _values = self._decide(game, view, appraise=True)
        if focus:
            floor = round(self.search.last_iterations * FOCUS)
            for move in dict.fromkeys([best, *focus]):
                seen = self.search.root_stats.get(move, [0.0])[0]
                self.search.extend(game, view, self._root, move, floor - int(seen))
        return self.current(game, view)

    def deepen(self, game: Game, view: Mapping[str, Any], n: int) -> Appraisal:
        """Run ``n`` more iterations of the last search (of :meth:`choose` or
        :meth:`appraise` on the same ``view``), the search choosing the moves as before: its
        tree grows, and the best move is again the most visited of the moves not proven
        lost.  Only where that search decided the move (``how`` ``search``); elsewhere the
        move was decided without it and stays."""
        if n > 0 and self.last.get("how") == "search":
            self.search.extend_search(game, view, self._root, n)
            children = self._root.children
            self._best = max(
                self._allowed, key=lambda m: children[m].visits if m in children else -1
            )
        return self.current(game, view)

    def extend(
        self, game: Game, view: Mapping[str, Any], moves: Sequence[str], n: int
    ) -> Appraisal:
        """``n`` more iterations of the last search through each of ``moves`` (their
        values get surer; the best move stays)."""
        for move in dict.fromkeys(moves):
            self.search.extend(game, view, self._root, move, n)
        return self.current(game, view)

    def current(self, game: Game, view: Mapping[str, Any]) -> Appraisal:
        """The :class:`Appraisal` of the last search as it stands now."""
        best, values = self._best, self._proofs
        kind = value_kind(game)
        legal: list[str] = [str(m) for m in view["legal_moves"]]
        stats = self.search.root_stats
        worth: dict[str, float] = {}
        errors: dict[str, float] = {}
        for move in legal:
            worth[move], errors[move] = _row_value(stats.get(move, [0.0] * 4), kind)
            if values.get(move) == WIN or (values.get(move) == LOSS and game.players == 2):
                worth[move], errors[move] = (1.0 if values[move] == WIN else 0.0), 0.0
        order = sorted(legal, key=lambda m: (m != best, -worth[m], m))
        proven = {m: v for m, v in values.items() if v in (WIN, LOSS)}
        return Appraisal(
            kind=kind,
            values={m: worth[m] for m in order},
            errors={m: errors[m] for m in order},
            visits={m: int(stats[m][0]) if m in stats else 0 for m in order},
            proven=proven,
            best=best,
            how=str(self.last["how"]),
        )

    def _decide(
        self, game: Game, view: Mapping[str, Any], appraise: bool
    ) -> tuple[str, dict[str, int]]:
        """The move and the solver's values of the moves; with ``appraise``
        the search runs whatever decided the move (its statistics value every move)."""
        legal = legal_of(view)
        self.last = {"how": "only", "iterations": 0, "nodes": 0}
        self.search.root_stats = {}
        decided: str | None = None
        self._proofs, self._allowed = {}, legal
        if len(legal) == 1:
            decided = self._best = legal[0]
            if not appraise:
                return decided, {}
        elif self.rules and view.get("phase") in rule_phases(game):
            self.last["how"] = "rule"
            decided = self._best = policy_for(game)(game, view, self.rng)
            if not appraise:
                return decided, {}
        if self.iterations is None:
            share = time_share(len(legal))
            start, seconds = self.clock(), self.seconds * share * (1 - SLACK)
            deadline: float | None = start + seconds
            solve_by, nodes = start + seconds * self.solve, 10**9
            self.search.iterations = 10**9
        else:
            deadline = solve_by = None
            budget = max(1, round(self.iterations * weight(len(legal))))
            nodes = max(1, round(budget * self.solve * NODES_PER_ITERATION))
            self.search.iterations = budget
        values = {} if decided is not None else self._exact(game, view, solve_by, nodes)
        winners = [m for m in legal if values.get(m) == WIN]
        allowed = [m for m in legal if values.get(m, DRAW) != LOSS] or legal
        if decided is None and (winners or len(allowed) == 1):
            self.last["how"] = "proof"
            decided = winners[0] if winners else allowed[0]
        self._proofs, self._allowed = values, allowed
        if decided is not None and not appraise:
            self._best = decided
            return decided, values
        how = self.last["how"]
        searched = self._ismcts(game, view, deadline, allowed)
        if decided is None:
            self._best = searched
            return searched, values
        self.last["how"] = how
        self._best = decided
        return decided, values

    def _ismcts(
        self, game: Game, view: Mapping[str, Any], deadline: float | None, allowed: list[str]
    ) -> str:
        clock, outer = self.clock, self.halt

        def halt() -> bool:
            return (deadline is not None and clock() >= deadline) or (outer is not None and outer())

        self.search.halt = halt
        if self.priors > 0 or self.value > 0:
            self.search.guide = self._guide(game)
        root = self._root = self.search.search(game, view)
        self.last["how"] = "search"
        self.last["iterations"] = self.search.last_iterations
        tally = self.search.tally
        if tally.worlds:
            self.last.update(worlds=tally.worlds, weighing=tally.seconds, ess=tally.ess)
        children = root.children
        return max(allowed, key=lambda m: children[m].visits if m in children else -1)

    def _guide(self, game: Game) -> Guide:
        """The learned model that guides the search in ``game`` (loaded once)."""
        guide = self._guides.get(game)
        if guide is None:
            from tikki.inference import StatePolicy

            path = self.model if self.model is not None and self.model.endswith(".npz") else None
            guide = self._guides[game] = StatePolicy(game, path)
        return guide

    def _exact(
        self, game: Game, view: Mapping[str, Any], deadline: float | None, nodes: int
    ) -> dict[str, int]:
        """Proven values of the legal moves, where an endgame can be solved; else none."""
        phase = game.bots.endgame_phase
        if not phase or view.get("phase") != phase:
            return {}
        seat = int(view["seat"])
        solver = self._solver(game, seat)
        before = solver.nodes
        sample = game.sampler(view)
        worlds = [sample(self.rng)]  # every hand public: the only state the view allows
        if cards_in_hands(worlds[0]) > self.endgame:
            return {}
        if game.bots.endgame_hidden:  # a pile dealt unseen: several deals of it
            worlds += [sample(self.rng) for _ in range(self.samples - 1)]
        values = self._solve(solver, worlds, deadline, nodes)
        self.last["nodes"] = solver.nodes - before
        return values

    def _solve(
        self, solver: Solver, worlds: list[State], deadline: float | None, nodes: int
    ) -> dict[str, int]:
        """Values every world agrees on (a move that wins in each, or loses in each)."""
        agreed: dict[str, int] | None = None
        clock = self.clock
        for i, world in enumerate(worlds):
            left = len(worlds) - i
            share = None if deadline is None else clock() + (deadline - clock()) / left
            values = solver.move_values(
                world, max_nodes=max(1, nodes // len(worlds)), deadline=share
            )
            if agreed is None:
                agreed = values
            else:
                agreed = {m: v for m, v in agreed.items() if values.get(m) == v}
            if self.halt is not None and self.halt():
                return {}
        return {m: v for m, v in (agreed or {}).items() if v != DRAW}

    def _solver(self, game: Game, seat: int) -> Solver:
        solver = self._solvers.get((game, seat))
        if solver is None or len(solver.table) > TABLE_LIMIT:
            solver = self._solvers[(game, seat)] = Solver(seat, self.clock)
        solver.clock = self.clock
        return solver
