"""The whole game tree of a small configuration, for exact methods at C++ speed.

A configuration whose deal is an explicit chance node (the research rungs ``mini`` and
``medium``: :mod:`tikki.interop.openspiel`) is walked once with tikki's engine, from
every distinct deal, and written in Gambit's extensive-form format (EFG), which
OpenSpiel loads as a C++ game (``pyspiel.load_efg_game``); its C++ CFR, CFR+ and NashConv
then run on it without a call back into Python::

    import pyspiel
    import tikki
    from tikki.interop import tree

    game_name = "..."  # a game with a medium rung (benchmarks/ladder.py lists them)
    walked = tree.walk(tikki.load(game_name, 2, variant="medium"))
    game = pyspiel.load_efg_game(walked.efg)
    solver = pyspiel.CFRSolver(game)
    solver.evaluate_and_update_policy()
    pyspiel.nash_conv(game, solver.average_policy())

An information set is the acting seat's whole view (``view(seat)`` with its history, as
the adapter's ``information_state_string``), so the EFG game has the same information
sets as ``python_tikki_<name>`` and the same NashConv for the same policy.
"""

# ruff: noqa: E402  (the extra is checked before its imports)
from __future__ import annotations

from tikki.extras import require

require("openspiel", "the game tree export")

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import tikki
from tikki.interop.encoding import canonical_json
from tikki.interop.openspiel import EXPLICIT_DEALS, EXPLICIT_DECK, distinct_deals, explicit_deal


@dataclass
class Tree:
    """A walked tree: its size and its EFG text."""

    deals: int = 0
    """The chance outcomes of the deal."""
    histories: int = 1
    """Every node, the chance node included (as OpenSpiel's ``get_all_states`` counts)."""
    terminals: int = 0
    decisions: int = 0
    """Decision nodes (a seat to act), forced moves included."""
    infosets: int = 0
    choices: int = 0
    """Information sets with two legal moves or more."""
    efg: str = ""
    lines: list[str] = field(default_factory=list, repr=False)

    @property
    def per_infoset(self) -> float:
        """Decision nodes per information set (Kuhn poker: 2, Leduc: 4.04)."""
        return self.decisions / self.infosets if self.infosets else 0.0

    def summary(self) -> dict[str, float]:
        """The figures as a plain dict (for a saved run)."""
        return {
            "deals": self.deals,
            "histories": self.histories,
            "terminals": self.terminals,
            "decisions": self.decisions,
            "infosets": self.infosets,
            "per_infoset": round(self.per_infoset, 3),
            "choice_share": round(self.choices / self.infosets, 3) if self.infosets else 0.0,
        }


Leaf = Callable[[tikki.State], Sequence[float] | None]
"""A walk's cut: the returns a state is worth as a terminal of the tree, or ``None`` to
walk on below it (:func:`walk`)."""


def walk(game: tikki.Game, leaf: Leaf | None = None) -> Tree:
    """Walk ``game``'s whole tree from every distinct deal; raise ``ValueError`` where its
    deal is not an explicit chance node (a full game: too large).  ``leaf``, where given,
    cuts the tree: a state it gives returns for is a terminal worth them (e.g. a
    perfect-information endgame replaced by its exact value, ``benchmarks/ladder_cut.py``);
    ``tree.terminals`` then counts the cut states too."""
    if not explicit_deal(game):
        raise ValueError(
            f"{game.name}: only a configuration whose deal is an explicit chance node "
            f"(a deck of at most {EXPLICIT_DECK} cards dealt once, at most "
            f"{EXPLICIT_DEALS:,} distinct deals) can be walked whole"
        )
    deals, odds = distinct_deals(game)
    tree = Tree(deals=len(deals))
    names = " ".join(f'"seat {s}"' for s in range(game.players))
    tree.lines.append(f'EFG 2 R "tikki {game.name}" {{ {names} }}')
    tree.lines.append('""')
    outcomes = " ".join(f'"d{i}" {p!r}' for i, p in enumerate(odds))
    tree.lines.append(f'c "deal" 1 "deal" {{ {outcomes} }} 0')
    infosets: dict[tuple[int, str], int] = {}
    numbered = [0] * game.players
    for deal in deals:
        _node(game.new_state(seed=0, deck=list(deal)), tree, infosets, numbered, leaf)
    tree.infosets = len(infosets)
    tree.efg = "\n".join(tree.lines) + "\n"
    tree.lines = []
    return tree


def _node(
    state: tikki.State,
    tree: Tree,
    infosets: dict[tuple[int, str], int],
    numbered: list[int],
    leaf: Leaf | None = None,
) -> None:
    """Write ``state``'s subtree in preorder (EFG's order); ``numbered`` counts each
    seat's information sets so far (EFG numbers them per player from 1)."""
    tree.histories += 1
    outcome = state.outcome
    returns = outcome["returns"] if outcome is not None else None
    if returns is None and leaf is not None:
        returns = leaf(state)
    if returns is not None:
        tree.terminals += 1
        payoffs = ", ".join(repr(float(r)) for r in returns)
        tree.lines.append(f't "" {tree.terminals} "" {{ {payoffs} }}')
        return
    seat = state.current_player
    assert seat is not None
    moves = state.legal_moves()
    key = (seat, canonical_json(state.view(seat)))
    number = infosets.get(key)
    if number is None:
        numbered[seat] += 1
        number = infosets[key] = numbered[seat]
        tree.choices += len(moves) > 1
    tree.decisions += 1
    labels = " ".join(f'"{m}"' for m in moves)
    tree.lines.append(f'p "" {seat + 1} {number} "" {{ {labels} }} 0')
    for move in moves:
        child = state.clone()
        child.play(move)
        _node(child, tree, infosets, numbered, leaf)
