"""Information-Set Monte Carlo Tree Search (single observer), generic over tikki's games.

After Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search" (IEEE TCIAIG
2012), SO-ISMCTS: one tree over move texts, rooted at the bot's information set.  Every
iteration

1. draws a *determinization*: a full state consistent with the bot's view, from
   ``game.sampler(view)`` (the game's determinizer; it never reads hidden state);
2. descends the tree, choosing among the children whose moves are legal in this
   determinization by UCB1 with *availability* counts (a child's exploration term uses how
   often it was available, not its parent's visits);
3. expands one untried legal move, then plays on with the rollout policy: ``greedy``
   (default: the game's fast playout, mostly *cheap* moves that follow the main rules of
   its heuristic bot: ``State.random_playout(rng, greedy=p)``), ``random`` (uniform), or
   ``heuristic`` (the game's heuristic bot on views: faithful but slow);
4. backs the result up: each node scores the reward of the player who made its move.

Rewards are the returns gained since the root (the running totals at the root, the same in
every determinization, are subtracted), relative to their mean over the seats (a player's
gain minus the mean), and are divided, when a node is compared, by the mean spread
(highest minus lowest gain) of all iterations so far.  For shedding games (−1 / +1/(n−1))
this is the same as dividing each iteration by its own spread; for a game scored in points
it keeps points linear (a 10 point lead counts ten times a 1 point lead, which a
per-iteration spread would not).

Horizon: in a game of several independent rounds (every round is dealt
afresh, whatever was played before) ``State.random_playout(rng, greedy=p, rounds=k)`` stops
after ``k`` rounds and ``State.returns_so_far()`` gives the running totals.  With
``horizon="round"`` (default) a rollout stops once the round in progress is scored, and the
running totals are its returns: the later rounds add only noise and time to the choice at
hand.  ``horizon="game"`` plays every rollout to the end of the game.  (A game of one round
declares none of this: ``State``'s defaults play to the end.)

Decision-preserving stop: with an iteration budget, ``choose`` ends the search early once
the most visited root move leads the runner-up by more than the iterations left (checked
every ``CHECK_EVERY`` iterations), since no later iteration could change the move played;
the move is the one the full budget would pick on the same random stream.  ``stop=0``
turns it off; ``search`` (analysis, hints) always spends the whole budget.

Heuristic prior: with ``prior=k`` the move of the game's heuristic bot counts ``k`` visits
more when the move is chosen, so the search overrules the heuristic only by a clear
margin (the stop then waits until no move can make up ``k`` more).

Depth limit: with ``depth=k`` the tree grows at most ``k`` moves below the root and the
rollout plays every later move (``depth=1``: UCB over the root moves alone, each iteration a
fresh determinization played out); ``0`` (default) sets no limit.  A deep SO-ISMCTS tree
holds the other seats' moves as they would be made seeing the sampled cards, which a
shallow tree leaves to the rollout policy.

Belief: the states are drawn by the game's determinizer (uniform over the deals the view
allows), unless ``bot.belief`` is set (the ``expert`` bot sets it): then by the game's
*belief* where its tactics module offers one (:func:`belief_sampler`), which weights the
deals by how players really play (e.g. which cards the other seats set aside).  It too
reads only the view.  With ``bot.inference`` (``expert:inference=policy``) the drawn
states are reweighted by how likely the other seats' observed moves were in each
(:mod:`tikki.bots.worlds`).

Root statistics: every search also keeps, per root move, the root seat's own gain over
the iterations through it (:data:`RootStats` in ``bot.root_stats``): its mean is the
move's value as the analysis and the hints show it (:meth:`tikki.bots.expert.ExpertBot.appraise`).

The move played is the root child with the most visits.  Budgets: ``iterations``
(deterministic for a seed) or ``seconds``.  A caller may set ``bot.halt`` to a callable
that returns True to end the search early (checked every ``CHECK_EVERY`` iterations; the
server uses it to stop searches on shutdown and to cap their time).
"""

from __future__ import annotations

import functools
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from tikki.bots.heuristic import policy_for
from tikki.bots.worlds import Tally, likelihood_for, weighted
from tikki.core import Game, RulesError, State, tactics
from tikki.i18n import _ as _t

ROLLOUTS = ("greedy", "random", "heuristic")
"""Rollout policies: the game's fast cheap-move playout where it has one (``greedy``,
else uniform), uniform random moves, or the game's heuristic bot (faithful but slow)."""
HORIZONS = ("round", "game")
"""Where rollouts stop: the end of the round in progress (games that offer it) or game."""
CHECK_EVERY = 25
"""How often (iterations) the decision-preserving stop compares the two leading moves."""

RootStats = dict[str, list[float]]
"""Per root move, over the iterations that went through it: ``[n, sum, sum of squares,
count >= 0]`` of the root seat's *gain* (its return at the rollout's end minus its running
total at the root: the round's points in a game scored in points; in a shedding game -1
for the loser, so ``count >= 0`` counts the iterations in which the seat did not lose)."""

Playout = Callable[[State, random.Random], Sequence[float]]
"""Plays a determinization on from the tree's leaf; returns the seats' returns."""
PRIOR_DEPTH = 2
"""How many levels of the tree (the root's and its children's) a learned policy's priors
guide (:meth:`ISMCTSBot._descend_guided`); below them selection is plain UCB1: every prior
costs an observation and a pass through the model."""


class Guide(Protocol):
    """What the search asks a learned model (:class:`tikki.inference.StatePolicy`)."""

    def priors(self, state: State, legal: list[str]) -> dict[str, float]:
        """The policy's probability of each legal move of the player to move."""
        ...

    def values(self, state: State) -> list[float]:
        """Every seat's expected gain from ``state``."""
        ...


class Node:
    """A tree node: the move that led here, who made it, and its statistics."""

    __slots__ = ("avail", "children", "move", "player", "total", "visits")

    def __init__(self, move: str | None, player: int) -> None:
        self.move = move
        self.player = player
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0


def _decided(root: Node, left: int) -> bool:
    """Whether ``left`` more iterations cannot change the most visited root move."""
    first = second = 0
    for child in root.children.values():
        v = child.visits
        if v > first:
            first, second = v, first
        elif v > second:
            second = v
    return first - second > left


def _tally(stats: dict[str, list[float]], child: Node, gain: float) -> None:
    """Add one iteration's gain of the root seat to its root move's :data:`RootStats`."""
    move = child.move
    assert move is not None
    row = stats.get(move)
    if row is None:
        row = stats[move] = [0.0, 0.0, 0.0, 0.0]
    row[0] += 1.0
    row[1] += gain
    row[2] += gain * gain
    if gain >= 0:
        row[3] += 1.0


def _returns(state: State) -> Sequence[float]:
    """The returns where a rollout stopped: the outcome's, else the running totals."""
    outcome = state.outcome
    if outcome is not None:
        returns: Sequence[float] = outcome["returns"]
        return returns
    return state.returns_so_far()


def _baseline(state: State) -> Sequence[float]:
    """The running totals at the root (what was scored before it), else zeros."""
    if state.is_over:
        return [0.0] * state.game.players
    return state.returns_so_far()


def belief_sampler(game: Game, view: Mapping[str, Any]) -> Callable[[random.Random], State]:
    """Draws states from ``view`` as the game's *belief* does, where its tactics module
    (:func:`~tikki.core.tactics`) offers one (a function ``belief(game, view)``), else as its
    determinizer does (:meth:`~tikki.core.Game.sampler`)."""
    if type(game).bots.tactics:
        belief = getattr(tactics(game.name), "belief", None)
        if belief is not None:
            drawn: Callable[[random.Random], State] = belief(game, view)
            return drawn
    return game.sampler(view)


class ISMCTSBot:
    """SO-ISMCTS with an iteration or time budget and a greedy, random or heuristic rollout."""

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | str = 1000,
        seconds: float | str | None = None,
        c: float | str = 0.7,
        rollout: str = "greedy",
        greedy: float | str = 0.9,
        stop: int | str = 1,
        horizon: str = "round",
        prior: int | str = 0,
        depth: int | str = 0,
    ) -> None:
        self.rng = random.Random(seed)
        self.iterations = int(iterations)
        self.seconds = None if seconds is None else float(seconds)
        self.c = float(c)
        if self.iterations < 1 or (self.seconds is not None and self.seconds <= 0):
            raise RulesError(_t("ismcts needs iterations >= 1 and seconds > 0"))
        if rollout not in ROLLOUTS:
            raise RulesError(
                _t(
                    "ismcts rollout is {allowed}, not {rollout!r}",
                    allowed=", ".join(ROLLOUTS),
                    rollout=rollout,
                )
            )
        if horizon not in HORIZONS:
            raise RulesError(
                _t(
                    "ismcts horizon is {allowed}, not {horizon!r}",
                    allowed=", ".join(HORIZONS),
                    horizon=horizon,
                )
            )
        self.rollout = rollout
        self.greedy = float(greedy) if rollout == "greedy" else 0.0
        self.stop = bool(int(stop))
        self.horizon = horizon
        self.prior = int(prior)
        self.depth = int(depth)
        if self.depth < 0:
            raise RulesError(_t("ismcts needs depth >= 0 (0: no limit)"))
        self.last_iterations = 0
        self.halt: Callable[[], bool] | None = None
        self.root_stats: dict[str, list[float]] = {}
        self._spreads = 0.0
        self._spread_count = 0
        self.guide: Guide | None = None
        """A learned model (:class:`tikki.inference.StatePolicy`) that guides the search
        where :attr:`prior_weight` or :attr:`value_mix` is above 0 (``expert:priors=``,
        ``expert:value=``); without one the search is exactly the plain one."""
        self.prior_weight = 0.0
        self.prior_depth = PRIOR_DEPTH
        self.value_mix = 0.0
        self.belief = False
        """Whether the states come from the game's belief (:func:`belief_sampler`) instead
        of its uniform determinizer (``expert`` sets it; the plain ``ismcts`` does not)."""
        self.inference = False
        """Whether the drawn states are reweighted by how likely the other seats' observed
        moves were in each (:mod:`tikki.bots.worlds`; ``expert:inference=policy``)."""
        self.tally = Tally()
        """The weighing's cost and effective sample size in the last search."""

    def choose(self, game: Game, view: Mapping[str, Any]) -> str:
        """The most visited root move after the search."""
        legal: list[str] = [str(m) for m in view.get("legal_moves") or []]
        if not legal:
            raise RulesError("the view has no legal moves: it is not this seat's turn")
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        bonus: dict[str, int] = {}
        if self.prior > 0:
            bonus[policy_for(game)(game, view, random.Random(self.rng.random()))] = self.prior
        root = self._search(game, view, self.stop, self.prior)
        children = root.children

        def visits(m: str) -> int:
            return (children[m].visits if m in children else -1) + bonus.get(m, 0)

        return max(legal, key=visits)

    def search(self, game: Game, view: Mapping[str, Any]) -> Node:
        """Run the whole search from ``view``; return the root (for analysis and hints).

        :attr:`root_stats` then holds every root move's :data:`RootStats`."""
        return self._search(game, view, False, 0)

    def extend(self, game: Game, view: Mapping[str, Any], root: Node, move: str, n: int) -> None:
        """Run ``n`` more iterations of the search that returned ``root`` (the last one),
        each through the root move ``move``: its value gets surer, the tree deeper below it
        (:attr:`root_stats` keeps counting).  The analysis uses it on the move played."""
        if n > 0:
            self._search(game, view, False, 0, root, move, n)

    def extend_search(self, game: Game, view: Mapping[str, Any], root: Node, n: int) -> None:
        """Run ``n`` more iterations of the search that returned ``root`` (the last one),
        choosing the moves as the search does (:attr:`root_stats` keeps counting; the
        analysis deepens a search whose best move is not yet settled)."""
        if n > 0:
            before = self.last_iterations
            self._search(game, view, False, 0, root, None, n)
            self.last_iterations += before

    def _search(
        self,
        game: Game,
        view: Mapping[str, Any],
        stop: bool,
        margin: int,
        root: Node | None = None,
        force: str | None = None,
        budget: int | None = None,
    ) -> Node:
        sample = belief_sampler(game, view) if self.belief else game.sampler(view)
        if root is None:
            self.tally = Tally()
        if self.inference:
            likelihood = likelihood_for(game, view)
            if likelihood is not None:
                sample = weighted(sample, likelihood, self.tally)
        playout = self._playout(game)
        guided: Callable[..., list[Node]] | None = None
        if self.guide is not None and (self.prior_weight > 0 or self.value_mix > 0):
            guided, playout = self._guided(playout)
        rng, c = self.rng, self.c
        deadline = None
        if budget is None:
            budget = self.iterations
            deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        count = 0
        if root is None:
            root = Node(None, -1)
            self.root_stats = {}
            self._spreads, self._spread_count = 0.0, 0
        stats = self.root_stats
        spreads, done = self._spreads, self._spread_count
        base: Sequence[float] | None = None
        halt = self.halt
        while True:
            if halt is not None and count % CHECK_EVERY == 0 and count > 0 and halt():
                break
            if deadline is None:
                left = budget - count
                if left <= 0 or (
                    stop and count % CHECK_EVERY == 0 and _decided(root, left + margin)
                ):
                    break
            elif time.perf_counter() >= deadline and count > 0:
                break
            state = sample(rng)
            if base is None:
                base = _baseline(state)
            scale = spreads / done if spreads > 0 else 1.0
            if guided is None:  # the plain search, as fast as before
                path = self._descend(root, state, rng, c, scale, self.depth, force)
            else:
                path = guided(root, state, rng, c, scale, self.depth, force)
            returns = [r - b for r, b in zip(playout(state, rng), base, strict=True)]
            mean = sum(returns) / len(returns)
            spreads += max(returns) - min(returns)
            if path:
                _tally(stats, path[0], returns[path[0].player])
            for node in path:
                node.visits += 1
                node.total += returns[node.player] - mean
            count += 1
            done += 1
        self._spreads, self._spread_count = spreads, done
        if force is None:
            self.last_iterations = count
        return root

    @staticmethod
    def _descend(
        root: Node,
        state: State,
        rng: random.Random,
        c: float,
        scale: float,
        depth: int,
        force: str | None = None,
    ) -> list[Node]:
        node: Node = root
        path: list[Node] = []
        if force is not None:  # the first move is given (extend); the root's player moves
            player = state.current_player
            assert player is not None
            for m in state.legal_moves():
                child = root.children.get(m)
                if child is not None:
                    child.avail += 1
            forced = root.children.get(force)
            if forced is None:
                forced = root.children[force] = Node(force, player)
            state.play(force)
            path.append(forced)
            node = forced
        while not state.is_over and (depth == 0 or len(path) < depth):
            legal = state.legal_moves()
            player = state.current_player
            assert player is not None
            children = node.children
            untried = [m for m in legal if m not in children]
            for m in legal:
                child = children.get(m)
                if child is not None:
                    child.avail += 1
            if untried:
                move = rng.choice(untried)
                child = Node(move, player)
                children[move] = child
                state.play(move)
                path.append(child)
                return path
            best, best_score = None, -math.inf
            for m in legal:
                ch = children[m]
                score = ch.total / (ch.visits * scale) + c * math.sqrt(
                    math.log(ch.avail) / ch.visits
                )
                if score > best_score:
                    best, best_score = ch, score
            assert best is not None and best.move is not None
            state.play(best.move)
            path.append(best)
            node = best
        return path

    def _guided(self, playout: Playout) -> tuple[Callable[..., list[Node]], Playout]:
        """The descent and playout of a search guided by :attr:`guide`: PUCT priors in the
        top :attr:`prior_depth` levels (``prior_weight``) and the leaf's value mixed into
        (``value_mix`` 1: in place of) the rollout's returns."""
        guide = self.guide
        assert guide is not None
        priors: dict[Node, dict[str, float]] = {}
        weight, depth_limit, mix = self.prior_weight, self.prior_depth, self.value_mix

        descend = functools.partial(self._descend_guided, priors, weight, depth_limit, guide)
        if mix <= 0:
            return descend, playout

        def valued(state: State, rng: random.Random) -> Sequence[float]:
            if state.is_over:
                return _returns(state)
            base = state.returns_so_far()
            guess = [b + v for b, v in zip(base, guide.values(state), strict=True)]
            if mix >= 1:
                return guess
            rolled = playout(state, rng)
            return [mix * g + (1 - mix) * r for g, r in zip(guess, rolled, strict=True)]

        return descend, valued

    def _descend_guided(
        self,
        priors: dict[Node, dict[str, float]],
        weight: float,
        depth_limit: int,
        guide: Guide,
        root: Node,
        state: State,
        rng: random.Random,
        c: float,
        scale: float,
        depth: int,
        force: str | None = None,
    ) -> list[Node]:
        """:meth:`_descend` with PUCT in the top ``depth_limit`` levels: a move's score is
        its mean plus ``weight · P(move) · sqrt(availability) / (1 + visits)``, untried
        moves included (mean 0, the seats' average), so the policy's favourites are tried
        first and most; deeper, plain UCB1. With no prior weight, or a forced first move,
        it is :meth:`_descend` itself."""
        if weight <= 0 or force is not None:
            return self._descend(root, state, rng, c, scale, depth, force)
        node: Node = root
        path: list[Node] = []
        while not state.is_over and (depth == 0 or len(path) < depth):
            if len(path) >= depth_limit:
                return path + self._descend(node, state, rng, c, scale, depth and depth - len(path))
            legal = state.legal_moves()
            player = state.current_player
            assert player is not None
            children = node.children
            for m in legal:
                child = children.get(m)
                if child is not None:
                    child.avail += 1
            known = priors.get(node)
            if known is None or any(m not in known for m in legal):
                known = priors[node] = {**guide.priors(state, legal), **(known or {})}
            best_move, best_score = legal[0], -math.inf
            for m in legal:
                ch = children.get(m)
                if ch is None:
                    score = weight * known[m]
                else:
                    score = ch.total / (ch.visits * scale) + weight * known[m] * math.sqrt(
                        ch.avail
                    ) / (1 + ch.visits)
                if score > best_score:
                    best_move, best_score = m, score
            child = children.get(best_move)
            state.play(best_move)
            if child is None:
                child = children[best_move] = Node(best_move, player)
                path.append(child)
                return path
            path.append(child)
            node = child
        return path

    def _playout(self, game: Game) -> Playout:
        if self.rollout == "heuristic":
            return self._heuristic_playout(game)
        greedy, rounds = self.greedy, 1 if self.horizon == "round" else 0

        def random_playout(state: State, rng: random.Random) -> Sequence[float]:
            state.random_playout(rng, greedy, rounds)
            return _returns(state)

        return random_playout

    def _heuristic_playout(self, game: Game) -> Playout:
        policy = policy_for(game)
        by_round = self.horizon == "round"

        def heuristic_playout(state: State, rng: random.Random) -> Sequence[float]:
            start = state.round
            while not state.is_over and not (by_round and state.round != start):
                seat = state.current_player
                state.play(policy(game, state.view(seat), rng))
            return _returns(state)

        return heuristic_playout
