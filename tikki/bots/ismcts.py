"""Information-Set Monte Carlo Tree Search (single observer), generic over tikki's games.

After Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search" (IEEE TCIAIG
2012), SO-ISMCTS: one tree over move texts, rooted at the bot's information set.  Every
iteration

1. draws a *determinization*: a full state consistent with the bot's view, from
   ``game.sampler(view)`` (the game's determinizer; it never reads hidden state);
2. descends the tree, choosing among the children whose moves are legal in this
   determinization by UCB1 with *availability* counts (a child's exploration term uses how
   often it was available, not its parent's visits);
3. expands one untried legal move, then plays the rest of the game out with the rollout
   policy: ``greedy`` (default: the game's fast playout, mostly cheapest moves, where the
   state offers ``random_playout(rng, greedy=p)``; uniform otherwise), ``random``
   (uniform), or ``heuristic`` (the game's heuristic bot on views: faithful but slow);
4. backs the result up: each node scores the reward of the player who made its move.

Rewards are the game's ``returns`` made relative and scale-free: a player's return minus
the mean of all returns, over the spread of the returns, so shedding games (−1 / +1/(n−1))
and Mückenstich scores (points) search alike.  The move played is the root child with the
most visits.  Budgets: ``iterations`` (deterministic for a seed) or ``seconds``.
"""

from __future__ import annotations

import inspect
import math
import random
import time
from collections.abc import Callable, Mapping
from typing import Any

from tikki.core import Game, RulesError, State

ROLLOUTS = ("greedy", "random", "heuristic")
"""Rollout policies: the game's fast cheapest-move playout where it has one (``greedy``,
else uniform), uniform random moves, or the game's heuristic bot (faithful but slow)."""


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


def _rewards(returns: list[float]) -> list[float]:
    mean = sum(returns) / len(returns)
    spread = max(returns) - min(returns)
    if spread <= 0:
        return [0.0] * len(returns)
    return [(r - mean) / spread for r in returns]


class ISMCTSBot:
    """SO-ISMCTS with an iteration or time budget and a random or heuristic rollout."""

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | str = 1000,
        seconds: float | str | None = None,
        c: float | str = 0.7,
        rollout: str = "greedy",
        greedy: float | str = 0.9,
    ) -> None:
        self.rng = random.Random(seed)
        self.iterations = int(iterations)
        self.seconds = None if seconds is None else float(seconds)
        self.c = float(c)
        if self.iterations < 1 or (self.seconds is not None and self.seconds <= 0):
            raise RulesError("ismcts needs iterations >= 1 and seconds > 0")
        if rollout not in ROLLOUTS:
            raise RulesError(f"ismcts rollout is {', '.join(ROLLOUTS)}, not {rollout!r}")
        self.rollout = rollout
        self.greedy = float(greedy) if rollout == "greedy" else 0.0
        self.last_iterations = 0

    def choose(self, game: Game, view: Mapping[str, Any]) -> str:
        """The most visited root move after the search."""
        legal: list[str] = [str(m) for m in view.get("legal_moves") or []]
        if not legal:
            raise RulesError("the view has no legal moves: it is not this seat's turn")
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        root = self.search(game, view)
        best = max(legal, key=lambda m: root.children[m].visits if m in root.children else -1)
        return best

    def search(self, game: Game, view: Mapping[str, Any]) -> Node:
        """Run the search from ``view``; return the root node (for analysis and hints)."""
        sample = game.sampler(view)
        playout = self._playout(game)
        rng, c = self.rng, self.c
        root = Node(None, -1)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        count = 0
        while True:
            if deadline is None:
                if count >= self.iterations:
                    break
            elif time.perf_counter() >= deadline and count > 0:
                break
            state = sample(rng)
            path = self._descend(root, state, rng, c)
            playout(state, rng)
            outcome = state.outcome
            assert outcome is not None
            rewards = _rewards(outcome["returns"])
            for node in path:
                node.visits += 1
                node.total += rewards[node.player]
            count += 1
        self.last_iterations = count
        return root

    @staticmethod
    def _descend(root: Node, state: State, rng: random.Random, c: float) -> list[Node]:
        node, path = root, []
        while not state.is_over:
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
                score = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if score > best_score:
                    best, best_score = ch, score
            assert best is not None and best.move is not None
            state.play(best.move)
            path.append(best)
            node = best
        return path

    def _playout(self, game: Game) -> Callable[[State, random.Random], None]:
        if self.rollout == "heuristic":
            from tikki.bots.heuristic import policy_for

            policy = policy_for(game)

            def heuristic_playout(state: State, rng: random.Random) -> None:
                while not state.is_over:
                    seat = state.current_player
                    state.play(policy(game, state.view(seat), rng))

            return heuristic_playout

        greedy = self.greedy
        takes_greedy: dict[type, bool] = {}

        def random_playout(state: State, rng: random.Random) -> None:
            fast = getattr(state, "random_playout", None)
            if fast is not None:
                kind = type(state)
                if kind not in takes_greedy:
                    takes_greedy[kind] = "greedy" in inspect.signature(fast).parameters
                if greedy and takes_greedy[kind]:
                    fast(rng, greedy=greedy)
                else:
                    fast(rng)
                return
            choice = rng.choice
            while not state.is_over:
                state.play(choice(state.legal_moves()))

        return random_playout
