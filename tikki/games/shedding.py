"""Pieces shared by the shedding games (collect, then shed): seats with cards, runs, and
:class:`SheddingState`, the state parts both games play alike (phase 2's falling trick,
the end, the outcome, the history).

French cards are ints (:mod:`tikki.cards`), ``suit * 13 + rank``, so the cards of one
suit in consecutive ranks are consecutive ints: a run or sequence
is ``low, low + 1, …`` within one suit, written low to high, ``5H+6H+7H``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from itertools import pairwise
from typing import Any, TypeVar

from tikki.cards import CARD_TEXT, RANK_OF, SUIT_OF, SUITS, normalize_french
from tikki.core import (
    JSON,
    Game,
    OptionSpec,
    RulesError,
    State,
    TableState,
    shedding_bounds,
    shedding_outcome,
)
from tikki.events import (
    Book,
    Event,
    Past,
    falls_event,
    hand_on,
    history_of,
    out_event,
    over_event,
)
from tikki.i18n import _ as _t

T = TypeVar("T")
U = TypeVar("U")


HAND_SIZE = 3
"""The cards dealt to each player (MM-1, AM-1); option ``hand`` changes it for research."""


def short_deck(ranks: int, suits: int, hand: int, players: int) -> tuple[int, ...]:
    """The cards of the top ``ranks`` ranks of the first ``suits`` suits; a
    :class:`RulesError` when they cannot deal ``hand`` to each player and keep a stock."""
    if ranks * suits < hand * players + 1:
        raise RulesError(
            _t(
                "a deck of {cards} cards ({ranks} ranks × {suits} suits) is too small for "
                "{players} players: deal {hand} each and keep a stock of at least one card",
                cards=ranks * suits,
                ranks=ranks,
                suits=suits,
                players=players,
                hand=hand,
            )
        )
    return tuple(c for c in range(52) if RANK_OF[c] >= 13 - ranks and SUIT_OF[c] < suits)


def grown(kept: list[Any], items: list[T], convert: Callable[[T], U]) -> list[U]:
    """A new list of ``convert`` over ``items``, a list that only ever grows, converting
    only the items added since the last call (views kept up to date).

    ``kept`` is ``[items, converted]`` from the last call (``[None, []]`` at first); for
    another list (or a shorter one) everything is converted again.  The converted items
    are shared between the lists returned: read them, never change them.
    """
    done: list[U] = kept[1]
    if kept[0] is not items or len(done) > len(items):
        kept[0] = items
        done = kept[1] = []
    if len(done) < len(items):
        done.extend(map(convert, items[len(done) :]))
    return done[:]


def next_with_cards(hands: Sequence[Sequence[int]], seat: int) -> int:
    """The first seat clockwise from ``seat`` (itself included) holding cards, or ``-1``."""
    n = len(hands)
    for k in range(n):
        s = (seat + k) % n
        if hands[s]:
            return s
    return -1


def holders(hands: list[list[int]]) -> int:
    """How many hands hold at least one card."""
    return len(hands) - hands.count([])


def is_run(cards: Sequence[int]) -> bool:
    """Whether ``cards`` (low to high) are of one suit in consecutive ranks."""
    return all(SUIT_OF[b] == SUIT_OF[a] and b == a + 1 for a, b in pairwise(cards))


def run_text(low: int, length: int) -> str:
    """The canonical text of the run of ``length`` cards starting at ``low``."""
    return "+".join(CARD_TEXT[low + i] for i in range(length))


def runs_in(hand: Iterable[int], max_len: int | None = None) -> list[tuple[int, int]]:
    """Every run of 2 or more (at most ``max_len``) cards in ``hand``: ``(low, length)``.

    Ordered by lowest card, then length.  Worked on a bitmask of the hand: bit ``c`` of
    ``links`` says that ``c`` and ``c + 1`` are held and of one suit.
    """
    held = 0
    for c in hand:  # a loop, not reduce(): a hot path of playouts
        held |= 1 << c
    links = held & (held >> 1) & _NOT_ACES
    limit = held.bit_count() if max_len is None else max_len
    if not links or limit < 2:
        return []
    out: list[tuple[int, int]] = []
    rest = links
    while rest:
        bit = rest & -rest
        rest ^= bit
        c = bit.bit_length() - 1
        length = 2
        out.append((c, 2))
        while length < limit and links >> (c + length - 1) & 1:
            length += 1
            out.append((c, length))
    return out


_BIT: tuple[int, ...] = tuple(1 << c for c in range(52))
_NOT_ACES = sum(1 << c for c in range(52) if c % 13 != 12)
"""The cards that may link to the next int: all but the aces (the next int is a new suit)."""


def research_options(rule: str) -> tuple[OptionSpec, ...]:
    """The research options of a shedding game's short deck (``ranks``, ``suits``) and
    short hands (``hand``; ``rule`` is the ruling that deals three, MM-1 or AM-1)."""
    return (
        OptionSpec(
            "ranks",
            13,
            "research: a short deck of the top RANKS ranks of each suit (13: all 52 cards)",
            choices=tuple(range(2, 14)),
            research=True,
        ),
        OptionSpec(
            "suits",
            4,
            "research: a short deck of the first SUITS suits (spades, hearts, diamonds, clubs)",
            choices=(1, 2, 3, 4),
            research=True,
        ),
        OptionSpec(
            "hand",
            HAND_SIZE,
            f"research: cards dealt to each player; the rules deal 3 ({rule})",
            choices=(1, 2, 3),
            research=True,
        ),
    )


class FrenchGame(Game):
    """A game of the 52 French cards whose loser loses 1 and the others share 1, or of
    the short deck of its research options ``ranks`` and ``suits``
    (:func:`research_options`)."""

    def __init__(self, players: Any = None, *, rules: Any = None, **options: Any) -> None:
        super().__init__(players, rules=rules, **options)
        self.cards: tuple[int, ...] = short_deck(
            self.option("ranks"), self.option("suits"), self.option("hand"), self.players
        )

    def deck(self) -> list[str]:
        """The 52 French cards, or the short deck of options ``ranks`` and ``suits``."""
        return [CARD_TEXT[c] for c in self.cards]

    def normalize_card(self, text: str) -> str | None:
        """Canonical French card text, or ``None``."""
        return normalize_french(text)

    @property
    def utility_bounds(self) -> tuple[float, float]:
        """The loser's -1 and the others' share 1/(n-1)."""
        return shedding_bounds(self.players)


class SheddingState(TableState):
    """The state of a shedding game, what the shedding games share.

    A subclass keeps ``_n``, ``_hands``, ``_plays`` (phase 2's trick: its plays, each
    ``[seat, cards]`` or ``(seat, cards)``), ``_trick_size``, ``_fallen``, ``_out``,
    ``_loser``, ``abandoned``, ``_hist`` (one entry a move, the move text second),
    ``_event_log``, ``_sampled_past`` and ``_history_book``, and implements ``_entry``,
    ``_owner`` (the history's entries, :func:`tikki.events.history_of`) and ``_note_shed``
    (a phase-2 play's history entry and any
    bookkeeping of its own).
    """

    __slots__ = ()
    OVER: int = 2
    _n: int
    _hands: list[list[int]]
    _plays: list[Any]
    _trick_size: int
    _fallen: list[int]
    _out: list[int]
    _loser: int
    abandoned: bool
    _hist: list[Any]
    _event_log: list[Event]
    _sampled_past: Past | None
    _history_book: Book | None
    _order: tuple[int, ...]
    _trump: int

    @property
    def outcome(self) -> JSON | None:
        """The loser, the out order, whether abandoned, and the returns (docs/design.md)."""
        if self._phase != self.OVER:
            return None
        loser = None if self._loser < 0 else self._loser
        return shedding_outcome(self._n, loser, self._out, self.abandoned)

    @property
    def moves(self) -> list[str]:
        """Every move played so far."""
        return [h[1] for h in self._hist]

    def search_key(self) -> Hashable:
        """The exact endgame solver's position (:func:`tikki.bots.endgame.position_key`):
        the seat to act, every hand and the cards on the table's trick, as card numbers;
        the same positions as read from :meth:`reveal`'s zones, without building them."""
        trick = self._collect_trick_cards() + [c for _, cs in self._plays for c in cs]
        return (self.current_player, tuple(map(tuple, self._hands)), tuple(trick))

    def _collect_trick_cards(self) -> list[int]:
        """The cards of phase 1's trick on the table, in play order (each game keeps its
        own ``_trick``: an attribute of one type in a compiled base and its subclasses)."""
        raise NotImplementedError

    def _moves_played(self) -> int:
        """How many moves were played."""
        return len(self._hist)

    def history(self, seat: Any) -> list[JSON]:
        """Every move with its seat and events (:meth:`_entry`, then the events of
        ``_event_log``)."""
        return history_of(self, seat, len(self._hist), CARD_TEXT)

    def take_history(self, parent: State) -> None:
        """Take over ``parent``'s built history (:func:`tikki.events.hand_on`)."""
        if type(parent) is type(self):
            assert isinstance(parent, SheddingState)
            hand_on(parent, self, len(parent._hist), len(self._hist))

    def _reveal_end(self) -> JSON:
        """The keys that end ``reveal()``: the seed and deal, trump, the end, the moves."""
        return {
            "seed": self.seed,
            "deal_order": [CARD_TEXT[c] for c in self._order],
            "trump": SUITS[self._trump] if self._trump >= 0 else None,
            "out_order": list(self._out),
            "loser": None if self._loser < 0 else self._loser,
            "abandoned": self.abandoned,
            "moves": self.moves,
        }

    def _entry(self, i: int, seat: int | None) -> JSON:
        """The history entry of move ``i`` as ``seat`` sees it, before ``_event_log``'s events."""
        raise NotImplementedError

    def _owner(self, i: int) -> int:
        """The seat for which move ``i`` reads otherwise than for the others, or ``-1``."""
        raise NotImplementedError

    def _note_shed(self, seat: int, move: str, cards: list[int]) -> None:
        """Record a phase-2 play of ``cards`` (text ``move``) by ``seat`` in the history,
        with whatever else the game keeps of it."""
        raise NotImplementedError

    def _shed(self, cards: list[int], move: str) -> None:
        """Phase 2: the seat to act plays ``cards`` (one card or a run, low to high), text
        ``move``.  The trick falls when it has as many plays as seats held cards when it
        was led (MM-15, AM-13); a seat that goes out is out, and the last holder loses."""
        seat = self._to_act
        hands = self._hands
        hand = hands[seat]
        self._note_shed(seat, move, cards)
        for c in cards:
            hand.remove(c)
        plays = self._plays
        if not plays:  # holders(hands), written out: a hot path of playouts
            self._trick_size = len(hands) - hands.count([]) + (0 if hand else 1)
        plays.append([seat, cards])
        if not hand:
            self._out.append(seat)
            self._event_log.append(out_event(len(self._hist), seat, len(self._out)))
            if holders(hands) <= 1:
                self._finish()
                return
        if len(plays) >= self._trick_size:
            for _, cs in plays:
                self._fallen.extend(cs)
            self._event_log.append(falls_event(len(self._hist), plays))
            self._plays = []
            self._to_act = seat if hand else next_with_cards(hands, seat)
        else:  # the next seat, if it holds cards, without a call: a hot path of playouts
            s = seat + 1
            if s == self._n:
                s = 0
            self._to_act = s if hands[s] else next_with_cards(hands, s)

    def _finish(self) -> None:
        """The game ends: the seat still holding cards (if any) loses."""
        self._phase = self.OVER
        self._to_act = -1
        left = [s for s in range(self._n) if self._hands[s]]
        self._loser = left[0] if left else -1
        self._event_log.append(over_event(len(self._hist)))

    def _abandon(self) -> None:
        """The game is abandoned at ``max_moves`` (C-5): no loser."""
        self.abandoned = True
        self._phase = self.OVER
        self._to_act = -1
        self._event_log.append(over_event(len(self._hist)))
