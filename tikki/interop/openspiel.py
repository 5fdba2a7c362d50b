"""Every tikki game as an OpenSpiel Python game (``pip install tikki[openspiel]``).

:func:`register` registers each game of ``tikki.games()`` as ``python_tikki_<name>``, with
the game's options as OpenSpiel parameters (defaults from the option specs), plus
``players``, ``variant``, ``rng_seed`` and ``chance`` (``sampled`` or ``seed``, below)::

    import numpy as np
    import pyspiel
    from tikki.interop import openspiel

    openspiel.register()
    game = pyspiel.load_game("python_tikki_<name>(players=3)")   # <name>: tikki.games()
    state, rng = game.new_initial_state(), np.random.default_rng(7)
    while not state.is_terminal():
        print(state.current_player(), state.observation_string())   # the seat's view
        action = rng.choice(state.legal_actions())
        print("  plays", state.action_to_string(action))
        state.apply_action(action)
    print(state.returns())

What the adapter provides
-------------------------
* Sequential, imperfect information, terminal rewards: ``returns()`` is
  ``outcome["returns"]``.  General-sum, except a configuration with an explicit chance
  node (the mini games, below) whose every terminal history's returns have one sum: it
  is declared zero-sum (or constant-sum), found by walking its whole tree
  (:func:`constant_sum`), so OpenSpiel's zero-sum tools (``exploitability``) run on it.
  The two-player shedding minis are zero-sum (a loser's −1 against the winner's +1);
  elsewhere an abandoned game gives −1 to everyone (docs/design.md: ``outcome``), and a
  game scored in points has no constant sum.
* Integer actions with a fixed space per game and options, from
  :mod:`tikki.interop.encoding` (card ids first, then runs, words, ``slough X`` …);
  ``action_to_string`` gives the canonical move text, legal actions come sorted.
* Observations from ``state.view(player)`` only (an observer through
  ``make_py_observer``): the observation string is the canonical JSON of the view without
  its history, the information-state string is the canonical JSON of the whole view (the
  history included, so it has perfect recall); the observation tensor is the seat's
  vector from :func:`tikki.interop.observations.encoder_for`, written straight from the
  state (features in ``docs/observations.md``).  ``state.observation_tensor(p)`` and
  ``game.observation_tensor_shape()`` are answered in Python without OpenSpiel's sizing
  deal.  The information-state tensor (perfect recall) is the observation tensor followed
  by one slot per move of the seat's view's history, up to ``max_moves``: the acting seat
  (relative, one-hot), the action id (one-hot; one more column for a move hidden from the
  seat, ``discard ?``) and every card the entry shows the seat (the move's, a turned or
  drawn card).  That is the tensor where it holds at most :data:`INFO_TENSOR_MAX` floats
  (the research rungs, or a game with a lower ``max_moves``).  Past it (the full games at
  the default cap) the tensor is compact, a fixed-size summary instead of perfect recall:
  the observation, then per seat (relative) the cards its moves showed and the other
  cards its history entries showed (each card's share of its copies), its moves and its
  hidden moves over the move cap, then the last :data:`COMPACT_MOVES` moves, newest
  first, in the slots above (2,676 floats for a 52-card game of 3 players).  Either is made
  from ``view(seat)`` and the encoder's observation only, so equal views give equal
  tensors and no hidden card is in it.  A public observer (``private_info=NONE``) uses
  ``view(None)``.
* ``resample_from_infostate(player, sampler)`` returns ``game.sample_state(view, rng)``
  wrapped as a state of this game (its ``history()`` is empty: OpenSpiel's Python states
  cannot be given a history), with ``rng`` seeded from the sampler.  That is what
  OpenSpiel's ISMCTS bot uses.
* Serialization: ``pickle`` of a state or a game works in every configuration (a state
  pickles as its game, its history and its tikki state's record with its seed, replayed
  and verified on load, so ``history()`` and every later random event come back; a
  sampled state made from a view, which has no seed, pickles as the state itself and
  comes back with an empty history; a game pickles with the state of its sequence of
  seeds).  ``pyspiel.serialize_game_and_state`` and ``random_sim_test(serialize=True)``
  ask a sampled-stochastic game for ``GetRNGState``, a C++ method that OpenSpiel does not
  let Python games implement; with the parameter ``chance=seed`` a configuration is
  explicit-stochastic instead (below) and both pass.

Parameters: an option left at its spec default does not override the variant preset
(OpenSpiel fills every parameter with its default, so "not given" and "given the default"
cannot be told apart); to play a preset with one option back at its default, give
``variant=standard`` and every option.

The chance model: explicit for the mini games, sampled otherwise
----------------------------------------------------------------
A configuration whose only random event is the first deal (the game declares it:
:meth:`tikki.Game.chance_only_at_deal`, e.g. where the stock is part of the deal, or a short
deck leaves nothing to shuffle later) and whose deck holds at most :data:`EXPLICIT_DECK`
cards dealt at most :data:`EXPLICIT_DEALS` distinct ways (:func:`explicit_deal`: the
``mini`` and ``medium`` variants) is ``EXPLICIT_STOCHASTIC``: its initial state is a chance
node whose outcomes are the distinct deals, each with its probability (every distinct deck
order is equally likely; orders that deal the same game are one outcome,
:func:`distinct_deals`; ``chance_outcomes()``, ``game.max_chance_outcomes()``), so CFR,
exact best responses, ``TabularPolicy`` and ``policy_aggregator`` run on it
(``docs/research.md``: the mini games).

With ``chance=seed`` every other configuration is ``EXPLICIT_STOCHASTIC`` too: its
initial state is :data:`SEED_BYTES` chance nodes of 256 equally likely outcomes, the bytes
of the state's 32-bit seed (high byte first), and the game is dealt from that seed; the
same distribution as the sampled model below (whose seeds are 32-bit too), with every
random event in the history, so OpenSpiel's history-based serialisation holds, and
``rng_seed`` is not used (whoever samples the chance nodes chooses the deals).

By default (``chance=sampled``) every other configuration is ``SAMPLED_STOCHASTIC``:
there are no chance nodes; each state deals
itself from a seed it holds (docs/design.md: randomness).  Why not explicit chance nodes:
tikki's randomness is more than the first deal (a pile may be shuffled mid-game, each
round of a match is dealt anew), and the public contract can inject only the first
deal (``new_state(deck=…)``); every later random event follows from the state's seed.
Exposing the first deal as chance nodes while the rest stayed hidden in the seed would
claim an explicit model that the game does not have, so the honest choice is the one
docs/design.md names: sampled stochastic.

The seed of each game is chosen when its initial state is first used (a state OpenSpiel
makes only to copy into it, as ``clone()`` does, draws none): from ``SystemRandom`` when
``rng_seed`` is −1 (the default), else the next number of ``random.Random(rng_seed)``
owned by the game object, so a fixed ``rng_seed`` replays the same sequence of deals in
the same program (OpenSpiel itself makes and observes an initial state whenever it sizes an
observation tensor, and that state takes the next seed too).
That makes OpenSpiel's handling of sampled chance correct: every random event is drawn
from the true distribution (the seeded shuffle), independently of anything a player has
seen; it is hidden from every observation (views never hold the seed or the stock order);
``clone()`` copies the state and its seed, so a clone replays the same future, as
OpenSpiel documents for sampled stochastic games; and algorithms that must not know the
future (ISMCTS) draw their worlds with ``resample_from_infostate``, whose states carry no
seed and draw future random events from the sampler's rng.  Algorithms that enumerate
chance outcomes (CFR, exact best response) do not apply, as for any sampled-stochastic
game: there are none to enumerate.
"""

# ruff: noqa: E402  (the extra is checked before its imports)
from __future__ import annotations

from tikki.extras import require

require("openspiel", "the OpenSpiel adapter")

import itertools
import json
import math
import pickle
import random
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

import tikki
from tikki.core import game_class
from tikki.interop.encoding import canonical_json
from tikki.interop.observations import encoder_for

PREFIX = "python_tikki_"
"""OpenSpiel short names are ``PREFIX + tikki name``."""


class _Held:
    """A tikki state inside an OpenSpiel state: dealt lazily, copied by ``clone``, pickled
    as its record."""

    __slots__ = ("adapter", "seeds", "state")

    def __init__(
        self,
        adapter: _Adapter,
        state: tikki.State | None,
        seeds: Callable[[], int] | None = None,
    ) -> None:
        self.adapter = adapter
        self.state = state
        self.seeds = seeds  # None with no state: an explicit chance node, not dealt yet

    def get(self) -> tikki.State:
        if self.state is None:
            if self.seeds is None:
                raise ValueError("the deal is a chance node: apply a chance outcome first")
            self.state = self.adapter.game.new_state(seed=self.seeds())
        return self.state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        if self.state is None and self.seeds is None:
            return _Held(self.adapter, None, None)
        return _Held(self.adapter, self.get().clone())

    def __reduce__(self) -> tuple[Any, ...]:
        game = self.adapter.game
        if self.state is None and self.seeds is None:
            return (_restore, (game.name, game.players, canonical_json(game.options), None))
        state = self.get()
        if state.seed is not None:
            payload: Any = canonical_json(state.record())
        else:
            payload = pickle.dumps(state)
        return (_restore, (game.name, game.players, canonical_json(game.options), payload))


def _restore(name: str, players: int, options: str, payload: Any) -> _Held:
    adapter = _adapter(name, players, options)
    if payload is None:
        return _Held(adapter, None, None)
    if isinstance(payload, bytes):
        state = pickle.loads(payload)
    else:
        state = tikki.replay(_json_loads(payload))
    return _Held(adapter, state)


def _load_game(text: str, rng: Any) -> TikkiGame:
    """A pickled :class:`TikkiGame`: loaded from its game string, its seeds' state set."""
    register()
    game: TikkiGame = pyspiel.load_game(text)
    if rng is not None:
        game._rng.setstate(rng)
    return game


def _load_state(
    game: TikkiGame, history: list[int], held: _Held, seed_bytes: tuple[int, ...]
) -> TikkiState:
    """A pickled :class:`TikkiState`: its history replayed from where it began (a chance
    node, or the same seed's first position), so that ``history()`` is kept too; where
    that does not give the pickled tikki state (a sampled state, made from a view), that
    state alone, with an empty history."""
    try:
        state = _replayed(game, history, held)
    except (ValueError, pyspiel.SpielError):
        state = None
    if state is not None and (held.state is None or _same(state.tikki_state, held.state)):
        return state
    return TikkiState(game, held, seed_bytes)


def _replayed(game: TikkiGame, history: list[int], held: _Held) -> TikkiState | None:
    """``history`` applied to the state it began from (``None``: it cannot be known)."""
    if game.adapter.deals is not None or game.seed_nodes:
        state = game.new_initial_state()
    elif held.state is not None and held.state.seed is not None:
        first = held.state.record()
        state = TikkiState(game, _Held(game.adapter, tikki.replay({**first, "moves": []})))
    else:
        return None
    for action in history:
        state.apply_action(action)
    return state


def _same(a: tikki.State, b: tikki.State) -> bool:
    """Whether two tikki states are the same game at the same point."""
    return a.seed == b.seed and a.record() == b.record()


def _json_loads(text: str) -> Any:
    return json.loads(text)


def deal_only(game: tikki.Game) -> bool:
    """Whether ``game``'s only random event is its first deal (its declaration,
    :meth:`tikki.Game.chance_only_at_deal`)."""
    return game.chance_only_at_deal()


SAMPLED = "sampled"
"""The ``chance`` parameter's default: each state deals itself from a seed it holds."""
SEED = "seed"
"""The ``chance`` parameter's explicit model: chance nodes choose each state's seed."""
SEED_BYTES = 4
"""The chance nodes of ``chance=seed``: one byte of the 32-bit seed each."""


EXPLICIT_DECK = 10
"""The largest deck whose deals are explicit chance outcomes (10! = 3.6 million deck
orders; the deals are enumerated by the places' groups, not order by order)."""
EXPLICIT_DEALS = 20_000
"""The most distinct deals an explicit chance node holds (a 10-card deck whose stock's
order matters deals 100,000 ways or more: sampled instead)."""
INFO_TENSOR_MAX = 50_000
"""The largest perfect-recall information-state tensor (floats; its size grows with
max_moves); a configuration past it gets the compact tensor instead."""
COMPACT_MOVES = 16
"""The last moves the compact information-state tensor holds one slot each for."""


def _no_info_tensor(size: int) -> str:
    return (
        f"this configuration's information-state tensor would hold {size:,} floats (one "
        f"slot per move up to max_moves); tensors are provided up to {INFO_TENSOR_MAX:,}: "
        "lower max_moves, or use information_state_string() or observation_tensor()"
    )


class _Adapter:
    """What one tikki game (name, players, options) needs: actions, encoder, bounds, the
    deals of an explicit chance node, the information-state tensor's layout."""

    def __init__(self, game: tikki.Game) -> None:
        self.game = game
        self.encoder = encoder_for(game)
        self.actions = self.encoder.actions
        self.utility = game.utility_bounds
        self.length = game.max_length
        deck = game.deck()
        self.deals: list[tuple[str, ...]] | None = None
        self.odds: list[float] = []
        self.utility_sum: float | None = None
        if explicit_deal(game):
            self.deals, self.odds = distinct_deals(game)
            self.utility_sum = constant_sum(game, self.deals)
        self.cards = {c: i for i, c in enumerate(dict.fromkeys(deck))}
        n, a, d = game.players, len(self.actions), len(self.cards)
        self.slot = n + a + 1 + d
        self.info_size = self.encoder.size + self.length * self.slot
        self.compact = self.info_size > INFO_TENSOR_MAX
        if self.compact:  # a fixed-size summary of the history (see the module notes)
            self.copies = {c: deck.count(c) for c in self.cards}
            self.info_size = self.encoder.size + n * (2 * d + 2) + COMPACT_MOVES * self.slot
        self.info_tensor_ok = self.info_size <= INFO_TENSOR_MAX

    def check_info_tensor(self) -> None:
        """Raise ``NotImplementedError`` where the tensor would be too large."""
        if not self.info_tensor_ok:
            raise NotImplementedError(_no_info_tensor(self.info_size))

    def info_tensor(self, state: tikki.State, seat: int) -> npt.NDArray[np.float32]:
        """``seat``'s information-state tensor: its observation, then one slot per move
        of its view's history (see the module notes)."""
        out = np.zeros(self.info_size, np.float32)
        self.encoder.encode(state, seat, out[: self.encoder.size])
        history = state.view(seat)["history"]
        if self.compact:
            self._compact(history, seat, out[self.encoder.size :])
            return out
        n, a = self.game.players, len(self.actions)
        index, cards = self.actions.index, self.cards
        at = self.encoder.size
        for entry in history[: self.length]:
            out[at + (entry["seat"] - seat) % n] = 1.0
            move = index.get(entry["move"])
            out[at + n + (a if move is None else move)] = 1.0
            for card in _cards_in(entry, cards):
                out[at + n + a + 1 + cards[card]] = 1.0
            at += self.slot
        return out

    def _compact(self, history: list[Any], seat: int, out: npt.NDArray[np.float32]) -> None:
        """The compact summary of ``seat``'s view's history into ``out``: per seat (relative
        to ``seat``) the cards its moves showed and the other cards its entries showed
        (each card's share of its copies), its moves and its hidden moves (over the move
        cap); then the last :data:`COMPACT_MOVES` moves, newest first, one slot each."""
        n, a, d = self.game.players, len(self.actions), len(self.cards)
        index, cards, copies = self.actions.index, self.cards, self.copies
        block = 2 * d + 2
        for entry in history:
            base = (entry["seat"] - seat) % n * block
            shown = _cards_in(entry["move"], cards)
            for card in shown:
                out[base + cards[card]] += 1.0 / copies[card]
            rest = {k: v for k, v in entry.items() if k not in ("move", "seat")}
            for card in _cards_in(rest, cards) - shown:
                out[base + d + cards[card]] += 1.0 / copies[card]
            out[base + 2 * d] += 1.0 / self.length
            if entry["move"] not in index:
                out[base + 2 * d + 1] += 1.0 / self.length
        np.minimum(out[: n * block], 1.0, out=out[: n * block])
        at = n * block
        for entry in reversed(history[-COMPACT_MOVES:]):
            out[at + (entry["seat"] - seat) % n] = 1.0
            move = index.get(entry["move"])
            out[at + n + (a if move is None else move)] = 1.0
            for card in _cards_in(entry, cards):
                out[at + n + a + 1 + cards[card]] = 1.0
            at += self.slot


def explicit_deal(game: tikki.Game) -> bool:
    """Whether ``game``'s deal is an explicit chance node: its only random event, a deck
    of at most :data:`EXPLICIT_DECK` cards, at most :data:`EXPLICIT_DEALS` distinct deals."""
    deck = game.deck()
    if not deal_only(game) or len(deck) > EXPLICIT_DECK:
        return False
    deck = sorted(deck)
    return _deal_count(_swappable_places(game, deck), _counts(deck)) <= EXPLICIT_DEALS


def _deal_count(groups: list[list[int]], counts: Mapping[str, int]) -> int:
    """The ways of filling ``groups`` with the cards of ``counts`` (the deals, counted)."""
    return _fill_count(tuple(len(g) for g in groups), tuple(sorted(counts.items())))


@cache
def _fill_count(sizes: tuple[int, ...], counts: tuple[tuple[str, int], ...]) -> int:
    if not sizes:
        return 1
    left = dict(counts)
    total = 0
    for chosen in _submultisets(sorted(left), left, sizes[0]):
        rest = {c: k - chosen.get(c, 0) for c, k in left.items() if k > chosen.get(c, 0)}
        total += _fill_count(sizes[1:], tuple(sorted(rest.items())))
    return total


def distinct_deals(game: tikki.Game) -> tuple[list[tuple[str, ...]], list[float]]:
    """The deals of a small deck as chance outcomes: every distinct deck order (each as
    likely as any other), grouped by the deal it makes (every card's place, ``reveal()``'s
    ``zones``, a hand's cards in any order: orders that differ only within a hand deal the
    same game); one order per deal (its first in sorted order), and each deal's
    probability.

    The orders are not enumerated one by one (a deck of 10 has 3.6 million): the deck's
    places are grouped into those whose cards can be swapped without changing the deal
    (a hand's places), and each way of filling the groups with the deck's cards is one
    deal, as likely as the orders that make it."""
    deck = sorted(game.deck())
    groups = _swappable_places(game, deck)
    counts = _counts(deck)
    total = _orders(counts)
    found: dict[str, list[Any]] = {}
    for order, ways in _fillings(groups, counts, len(deck)):
        seen = found.setdefault(_zones(game, list(order)), [order, 0])
        seen[0] = min(seen[0], order)
        seen[1] += ways
    deals = sorted(found.values())
    return [d[0] for d in deals], [d[1] / total for d in deals]


def _counts(cards: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for card in cards:
        out[card] = out.get(card, 0) + 1
    return out


def _orders(counts: Mapping[str, int]) -> int:
    """The distinct orders of a multiset of cards."""
    out = math.factorial(sum(counts.values()))
    for k in counts.values():
        out //= math.factorial(k)
    return out


def _swappable_places(game: tikki.Game, deck: list[str]) -> list[list[int]]:
    """The deck's places grouped by whether swapping their cards deals the same game,
    tested on two different orders (a hand's places are one group; a stock's are one
    group each, its order matters)."""
    n = len(deck)
    probes = [deck, deck[::-1]]
    zones = [_zones(game, o) for o in probes]
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i, j in itertools.combinations(range(n), 2):
        if root(i) != root(j) and all(
            _same_after_swap(game, o, z, i, j) for o, z in zip(probes, zones, strict=True)
        ):
            parent[root(j)] = root(i)
    out: dict[int, list[int]] = {}
    for i in range(n):
        out.setdefault(root(i), []).append(i)
    return list(out.values())


def _zones(game: tikki.Game, order: list[str]) -> str:
    """The deal ``order`` makes: every card's place (``reveal()``'s zones), a hand's cards
    in sorted order (a hand is a set: the order it was dealt in is no part of the game)."""
    zones = game.new_state(seed=0, deck=list(order)).reveal()["zones"]
    return canonical_json({k: sorted(v) if k.startswith("hand ") else v for k, v in zones.items()})


def _same_after_swap(game: tikki.Game, order: list[str], zones: str, i: int, j: int) -> bool:
    """Whether swapping places ``i`` and ``j`` of ``order`` (made to hold two different
    cards there) deals the same game."""
    order = list(order)
    if order[i] == order[j]:
        other = next((k for k, c in enumerate(order) if c != order[i]), None)
        if other is None:
            return True
        order[j], order[other] = order[other], order[j]
        zones = _zones(game, order)
    swapped = list(order)
    swapped[i], swapped[j] = order[j], order[i]
    return _zones(game, swapped) == zones


def _fillings(
    groups: list[list[int]], counts: dict[str, int], size: int
) -> Iterator[tuple[tuple[str, ...], int]]:
    """Each way of filling ``groups`` with the cards of ``counts`` (its places in sorted
    order of the cards: the first such deck order), with the number of orders it stands
    for."""
    if not groups:
        yield (), 1
        return
    places, rest = groups[0], groups[1:]
    for chosen in _submultisets(sorted(counts), counts, len(places)):
        left = {c: counts[c] - chosen.get(c, 0) for c in counts if counts[c] > chosen.get(c, 0)}
        cards = sorted(c for c, k in chosen.items() for _ in range(k))
        for tail, ways in _fillings(rest, left, size):
            order = list(tail) if tail else [""] * size
            for place, card in zip(places, cards, strict=True):
                order[place] = card
            yield tuple(order), ways * _orders(chosen)


def _submultisets(
    kinds: list[str], counts: Mapping[str, int], size: int
) -> Iterator[dict[str, int]]:
    """Every sub-multiset of ``size`` cards of ``counts`` (cards of ``kinds``)."""
    if size == 0:
        yield {}
        return
    if not kinds:
        return
    first, rest = kinds[0], kinds[1:]
    for k in range(min(counts[first], size), -1, -1):
        for tail in _submultisets(rest, counts, size - k):
            yield {first: k, **tail} if k else tail


SUM_NODES = 500_000
"""The most histories :func:`constant_sum` walks before it gives up (general-sum)."""


def constant_sum(
    game: tikki.Game, deals: list[tuple[str, ...]], limit: int = SUM_NODES
) -> float | None:
    """The sum of the returns at every terminal history after ``deals``, where it is one
    number for all of them (``None`` where it is not, or the tree holds more than
    ``limit`` histories): every history is walked, so a game is declared zero- or
    constant-sum only where it is one."""
    sums: set[float] = set()
    stack = [game.new_state(seed=0, deck=list(deal)) for deal in deals]
    walked = 0
    while stack:
        state = stack.pop()
        walked += 1
        if walked > limit:
            return None
        outcome = state.outcome
        if outcome is not None:
            sums.add(round(sum(outcome["returns"]), 9))
            if len(sums) > 1:
                return None
            continue
        for move in state.legal_moves():
            child = state.clone()
            child.play(move)
            stack.append(child)
    return sums.pop() if len(sums) == 1 else None


def _cards_in(value: Any, cards: Mapping[str, int]) -> set[str]:
    """Every card text inside a history entry (moves, revealed and drawn cards, events)."""
    found: set[str] = set()
    if isinstance(value, str):
        found.update(w for part in value.split() for w in part.split("+") if w in cards)
    elif isinstance(value, Mapping):
        for item in value.values():
            found |= _cards_in(item, cards)
    elif isinstance(value, list):
        for item in value:
            found |= _cards_in(item, cards)
    return found


@cache
def _adapter(name: str, players: int, options: str) -> _Adapter:
    return _Adapter(tikki.load(name, players, **_json_loads(options)))


def game_type(
    name: str,
    explicit: bool = False,
    info_tensor: bool = False,
    utility_sum: float | None = None,
) -> Any:
    """The ``pyspiel.GameType`` of one tikki game (``explicit``: of a configuration whose
    deal is an explicit chance node; ``info_tensor``: that has an information-state
    tensor; ``utility_sum``: the sum of the returns where every terminal has the same one,
    zero-sum at 0 and constant-sum otherwise, else general-sum)."""
    cls = game_class(name)
    spec = tikki.games()[name]
    params: dict[str, Any] = {"players": cls.default_players, "variant": "standard"}
    for option in spec["options"]:
        params[option["name"]] = option["default"]
    params["rng_seed"] = -1
    params["chance"] = SAMPLED
    return pyspiel.GameType(
        short_name=PREFIX + name,
        long_name=f"tikki {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if explicit
            else pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
        ),
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=_utility(utility_sum),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=info_tensor,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def _utility(utility_sum: float | None) -> Any:
    """OpenSpiel's utility class for a configuration whose returns always sum to
    ``utility_sum`` (``None``: they do not)."""
    if utility_sum is None:
        return pyspiel.GameType.Utility.GENERAL_SUM
    if utility_sum == 0:
        return pyspiel.GameType.Utility.ZERO_SUM
    return pyspiel.GameType.Utility.CONSTANT_SUM


def _options_from(name: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """tikki options from OpenSpiel parameters; defaults leave the variant preset alone."""
    spec = tikki.games()[name]
    options: dict[str, Any] = {"variant": params.get("variant", "standard")}
    for option in spec["options"]:
        key = option["name"]
        if key in params and params[key] != option["default"]:
            options[key] = params[key]
    return options


class TikkiGame(pyspiel.Game):  # type: ignore[misc]
    """One tikki game as an OpenSpiel game; made by ``pyspiel.load_game``."""

    def __init__(self, name: str, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", game_class(name).default_players))
        tgame = tikki.load(name, players, **_options_from(name, params))
        self.adapter = _adapter(name, players, canonical_json(tgame.options))
        seed = int(params.get("rng_seed", -1))
        self._rng: random.Random = random.SystemRandom() if seed < 0 else random.Random(seed)
        chance = str(params.get("chance", SAMPLED))
        if chance not in (SAMPLED, SEED):
            raise ValueError(f"chance is {SAMPLED!r} or {SEED!r}, not {chance!r}")
        deals = self.adapter.deals
        self.seed_nodes = chance == SEED and deals is None
        low, high = self.adapter.utility
        outcomes = 256 if self.seed_nodes else 0 if deals is None else len(deals)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.adapter.actions),
            max_chance_outcomes=outcomes,
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=self.adapter.utility_sum,
            max_game_length=self.adapter.length,
        )
        gtype = game_type(
            name,
            deals is not None or self.seed_nodes,
            self.adapter.info_tensor_ok,
            self.adapter.utility_sum,
        )
        super().__init__(gtype, info, params)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its game string and the state of its sequence of seeds."""
        rng = None if isinstance(self._rng, random.SystemRandom) else self._rng.getstate()
        return (_load_game, (str(self), rng))

    def _next_seed(self) -> int:
        return self._rng.randrange(2**32)

    def new_initial_state(self) -> TikkiState:
        """A new game: a chance node for the deal (a small deck) or for the seed
        (``chance=seed``), or dealt from the next seed when first used."""
        if self.adapter.deals is not None or self.seed_nodes:
            return TikkiState(self, _Held(self.adapter, None, None))
        return TikkiState(self, _Held(self.adapter, None, self._next_seed))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> TikkiObserver:
        """An observer: strings and tensors from ``view`` (see the module notes)."""
        return TikkiObserver(self.adapter, iig_obs_type, params)

    def observation_tensor_shape(self) -> list[int]:
        """``[size]`` of the observation tensor (known without dealing a game)."""
        return [self.adapter.encoder.size]

    def observation_tensor_size(self) -> int:
        """Length of the observation tensor."""
        return self.adapter.encoder.size

    def information_state_tensor_shape(self) -> list[int]:
        """``[size]`` of the information-state tensor (see the module notes)."""
        self.adapter.check_info_tensor()
        return [self.adapter.info_size]

    def information_state_tensor_size(self) -> int:
        """Length of the information-state tensor."""
        self.adapter.check_info_tensor()
        return self.adapter.info_size

    @property
    def tikki_game(self) -> tikki.Game:
        """The tikki game this OpenSpiel game plays."""
        return self.adapter.game


class TikkiState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state around one tikki state (``tikki_state``)."""

    def __init__(self, game: TikkiGame, held: _Held, seed_bytes: tuple[int, ...] = ()) -> None:
        super().__init__(game)
        self._held = held
        self._seed_bytes = seed_bytes  # chance=seed: the seed's bytes chosen so far

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its game, its history and its tikki state (the record, replayed and
        verified on load: the seed, and so every later random event, comes with it)."""
        return (_load_state, (self.get_game(), self.history(), self._held, self._seed_bytes))

    @property
    def tikki_state(self) -> tikki.State:
        """The tikki state (the whole truth: do not show it to a player)."""
        return self._held.get()

    def _dealing(self) -> bool:
        """Whether this is the explicit chance node of the deal (not dealt yet)."""
        held = self._held
        return held.state is None and held.seeds is None

    def current_player(self) -> int:
        """The seat to act, ``pyspiel.PlayerId.CHANCE`` before an explicit deal, or
        ``pyspiel.PlayerId.TERMINAL``."""
        if self._dealing():
            return int(pyspiel.PlayerId.CHANCE)
        seat = self.tikki_state.current_player
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The distinct deals (C-2; :func:`distinct_deals`): ``[(deal id, probability)]``."""
        adapter = self._held.adapter
        if not self._dealing():
            return []
        if adapter.deals is None:
            return [(b, 1 / 256) for b in range(256)]
        return list(enumerate(adapter.odds))

    def _legal_actions(self, player: int) -> list[int]:
        if self._dealing():
            return [a for a, _ in self.chance_outcomes()]
        state = self.tikki_state
        if player != state.current_player:
            return []
        return self._held.adapter.actions.legal_ids(state.legal_moves())

    def _apply_action(self, action: int) -> None:
        held = self._held
        if self._dealing():
            if held.adapter.deals is None:  # chance=seed: one byte of the seed
                self._seed_bytes = (*self._seed_bytes, action)
                if len(self._seed_bytes) == SEED_BYTES:
                    seed = int.from_bytes(bytes(self._seed_bytes), "big")
                    held.state = held.adapter.game.new_state(seed=seed)
                return
            held.state = held.adapter.game.new_state(seed=0, deck=list(held.adapter.deals[action]))
            return
        self.tikki_state.play(held.adapter.actions.to_text(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            deals = self._held.adapter.deals
            return "deal " + " ".join(deals[action]) if deals else f"seed byte {action}"
        return self._held.adapter.actions.to_text(action)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return not self._dealing() and self.tikki_state.is_over

    def returns(self) -> list[float]:
        """``outcome["returns"]`` at the end, zeros before."""
        if self._dealing():
            return [0.0] * self._held.adapter.game.players
        outcome = self.tikki_state.outcome
        if outcome is None:
            return [0.0] * self._held.adapter.game.players
        return [float(r) for r in outcome["returns"]]

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """``player``'s observation (default: the player to act) as a list of floats,
        encoded straight from the state (:mod:`tikki.interop.observations`)."""
        seat = self.current_player() if player is None else player
        adapter = self._held.adapter
        if not 0 <= seat < adapter.game.players:
            raise ValueError(f"observation_tensor needs a seat 0..{adapter.game.players - 1}")
        if self._dealing():
            return [0.0] * adapter.encoder.size
        return adapter.encoder.encode(self.tikki_state, seat).tolist()  # type: ignore[no-any-return]

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """``player``'s information-state tensor (default: the player to act) as a list of
        floats: its observation, then one slot per move it has seen (module notes)."""
        seat = self.current_player() if player is None else player
        adapter = self._held.adapter
        adapter.check_info_tensor()
        if not 0 <= seat < adapter.game.players:
            raise ValueError(f"information_state_tensor needs a seat 0..{adapter.game.players - 1}")
        if self._dealing():
            return [0.0] * adapter.info_size
        return adapter.info_tensor(self.tikki_state, seat).tolist()  # type: ignore[no-any-return]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> TikkiState:
        """A state consistent with everything ``player_id`` knows (``game.sample_state``)."""
        adapter = self._held.adapter
        rng = random.Random(int(probability_sampler() * 2**53))
        sampled = adapter.game.sample_state(self.tikki_state.view(player_id), rng)
        return TikkiState(self.get_game(), _Held(adapter, sampled))

    def __str__(self) -> str:
        if self._dealing():
            return "(the deal)"
        return canonical_json(self.tikki_state.reveal())


class TikkiObserver:
    """OpenSpiel's PyObserver interface over ``view``: ``tensor``, ``dict``, strings."""

    def __init__(
        self, adapter: _Adapter, iig_obs_type: Any, params: Mapping[str, Any] | None
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {dict(params)}")
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER
        recall = False
        if iig_obs_type is not None:
            private = iig_obs_type.private_info
            recall = iig_obs_type.perfect_recall
            if not iig_obs_type.public_info:
                raise ValueError("a tikki observer always includes the public information")
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("tikki observers see one seat's private information, or none")
        self._adapter = adapter
        self._public = private == pyspiel.PrivateInfoType.NONE
        self._recall = recall
        self.tensor: npt.NDArray[np.float32] | None = None
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        if not recall:
            self.tensor = adapter.encoder.empty()
            self.dict = adapter.encoder.split(self.tensor)
        elif not self._public and adapter.info_tensor_ok:
            self.tensor = np.zeros(adapter.info_size, np.float32)
            self.dict = {"info_state": self.tensor}

    def _view(self, state: TikkiState, player: int) -> tuple[dict[str, Any], int | None]:
        seat = None if self._public else player
        return state.tikki_state.view(seat), seat

    def set_from(self, state: TikkiState, player: int) -> None:
        """Fill ``tensor`` with ``player``'s observation of ``state``."""
        if self.tensor is None:
            return
        if state._dealing():  # nothing is known before the deal
            self.tensor.fill(0.0)
            return
        if self._recall:
            self.tensor[:] = self._adapter.info_tensor(state.tikki_state, player)
            return
        seat = None if self._public else player
        self._adapter.encoder.encode(state.tikki_state, seat, self.tensor)

    def string_from(self, state: TikkiState, player: int) -> str:
        """The view as canonical JSON (without its history unless perfect recall)."""
        if state._dealing():
            return "(the deal)"
        view, _ = self._view(state, player)
        if not self._recall:
            view = {k: v for k, v in view.items() if k != "history"}
        return canonical_json(view)


def actions_of(game: TikkiGame) -> tuple[str, ...]:
    """The move text of every action id of ``game`` (its fixed action space)."""
    return game.adapter.actions.texts


def register() -> list[str]:
    """Register every tikki game with OpenSpiel (again: no-op); return the short names."""
    known = set(pyspiel.registered_names())
    names = []
    for name in tikki.games():
        short = PREFIX + name
        if short not in known:
            pyspiel.register_game(game_type(name), _creator(name))
        names.append(short)
    return names


def _creator(name: str) -> type[TikkiGame]:
    """A TikkiGame subclass for one game: OpenSpiel's registry holds it (a class, not a
    closure, so that the registry can let go of it safely when Python exits)."""

    def __init__(self: TikkiGame, params: Mapping[str, Any] | None = None) -> None:
        TikkiGame.__init__(self, name, params)

    cls = type(f"TikkiGame_{name}", (TikkiGame,), {"__init__": __init__, "__doc__": name})
    _CLASSES[name] = cls
    return cls


_CLASSES: dict[str, type[TikkiGame]] = {}

__all__ = [
    "TikkiGame",
    "TikkiObserver",
    "TikkiState",
    "actions_of",
    "game_type",
    "register",
]
