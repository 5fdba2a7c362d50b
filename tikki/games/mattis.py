"""Mattis, the game of the "Atlanta Mattis" text (RULINGS C-1..C-6, AM-1..AM-14).

Design notes
------------
* Cards are ints (:mod:`tikki.cards`); move texts are built from lookup tables and parsed
  back through them.  ``legal_moves`` is the one source of legality: computed once per
  position and cached; ``play`` accepts exactly its texts (after normalising forgiving
  input) and explains a refusal from the same position.
* Phase 1 (``collect``): a trick is a list of ``(seat, card, how)`` entries (``how``: from
  hand, turned from the stock, sloughed).  The current *round* (the first play-through
  or a war) is ``_round`` (its seats in play order), ``_round_played`` (how many have played) and
  ``_round_best`` (its highest rank, for must-match, AM-3).  ``_top`` is the highest rank of
  the whole trick and ``_present`` a bitmask of the ranks in it: the losing ranks
  (AM-5) are ``_present`` below ``_top``, less the war round's best rank during a war
  (``_war``; not so under the r1 readings, ``_r1_readings``).  A slough lap is ``_lap_seat``
  (the seat considered now) and ``_lap_left`` (seats still to consider; 0: no lap); it
  asks only seats in ``_played`` (a bitmask of those who played to the trick; r1: all).
  With ``war_match=trick`` must-match binds to ``_top`` instead of ``_round_best``.
* Public facts (C-4) are kept as they arise, in ``_facts``: ``(t, seat, rank mask,
  holds)`` says that after ``t`` moves the seat held a card of one of those ranks
  (``holds``: it was asked to slough) or none (it did not match under AM-3, or was not
  asked to slough).  ``_draws`` says who drew how many hidden cards after ``t`` moves
  (the deal is ``t = 0``; the shown last stock card is counted like any other).  Both
  are in the view, so the determinizer deals unseen cards consistent with them.  A "none"
  fact implied by an earlier one (same seat, no draw since) is not repeated: ``_known_lacking[s]``
  holds the ranks seat ``s`` is known to lack since its last draw.
* Phase 2 (``shed``): a trick is a list of plays ``[seat, cards]`` (a sequence is one
  play, AM-10) and the number of plays at which it is finished (AM-13).  Every card is
  public except the dreck split (AM-9): ``_secret[s]`` holds the dreck cards seat ``s``
  received and has not played.  A seat sees its own; the others' only as counts, unless
  at most one other seat still holds secret cards (then the split follows).  A take's
  event (its cards, ``_taken``) is kept with the move, not in ``_event_log``: the
  commonest event, built into JSON only when a history asks (:meth:`MattisState._entry`).
* The dreck is shuffled with ``random.Random(_dreck_seed)``, an int drawn from the game's
  seeded randomness at the start, so clones stay cheap and the seed drives everything.
* Search support: the options of each kind of move (``_collect_options``,
  ``_slough_options``, ``_shed_options``) are computed on ints and turned into texts by
  ``legal_moves``; ``random_playout`` chooses among the same options and applies them
  with the same code as ``play`` (``_phase1``; ``_shed`` and ``_take`` go through ``play``), so a
  rollout has no copy of the rules.  Its *cheap* moves are the heuristic bot's rules
  (:mod:`tikki.games.mattis_tactics`), read from the state.  The determinizer
  (``Mattis.sampler``) reads the view into a template state here and deals the hidden
  cards with :mod:`tikki.games.mattis_sampler`.
* ``max_moves`` (C-5) is checked after a move only while ``_far_from_end`` is false: the
  deal and each take set it when the game cannot reach ``max_moves`` before the next take
  (:data:`_TAKE_SPAN`), so most moves skip the count.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Final, TypeVar

from tikki.cards import (
    CARD_TEXT,
    RANK_OF,
    RANKS,
    SUIT_OF,
    SUITS,
    TEXT_CARD,
    ints_of,
    normalize_french,
    suit_one,
)
from tikki.core import (
    JSON,
    BotParts,
    HarnessParts,
    IllegalMove,
    InteropParts,
    MoveGrammar,
    OptionSpec,
    RulesError,
    WebParts,
    illegal,
    max_moves_option,
    register,
    tactics,
)
from tikki.events import (
    Book,
    Draw,
    Event,
    Past,
    Tie,
    draw_event,
    dreck_event,
    falls_event,
    history_of,
    last_card_event,
    last_trick,
    out_event,
    past_of,
    phase_event,
    take_event,
    tie_event,
    to_json,
    trick_event,
    trump_event,
    void_tie_event,
)
from tikki.games.dealing import shuffle
from tikki.games.mattis_sampler import (
    FACT_KINDS,
    HOLDS,
    HOLDS_NONE,
    NO_MATCH,
    Known,
    collect_dealer,
    shed_dealer,
)
from tikki.games.shedding import (
    FrenchGame,
    SheddingState,
    grown,
    holders,
    is_run,
    next_with_cards,
    research_options,
    run_text,
)
from tikki.i18n import _ as _t
from tikki.rules import rules_text
from tikki.views import SheddingView

T = TypeVar("T")
U = TypeVar("U")

COLLECT: Final = 0
SHED: Final = 1
OVER: Final = 2
PHASE_NAMES: Final = ("collect", "shed", "over")
MINI: Mapping[str, Any] = {"ranks": 2, "suits": 2, "hand": 1, "max_moves": 30}
"""The ``mini`` preset: two suits of two ranks (no dreck), one card each (for CFR)."""
MEDIUM: Mapping[str, Any] = {"ranks": 5, "suits": 1, "hand": 2, "max_moves": 40}
"""The ``medium`` research rung: one suit of five ranks (ten to ace), two cards each,
a stock of one; tens of thousands of histories, several deals per information set."""
DRECK_LIMIT: Final = 6
FROM_HAND: Final = 0
FROM_STOCK: Final = 1
SLOUGHED: Final = 2
HOW: Final = ("hand", "stock", "slough")
NO_RANK: Final = -1

RULES_TEXT = rules_text("mattis", "en")
"""The English rules, ``tikki/rules/mattis.en.md`` (all languages: ``tikki.rules``)."""

_PHASE1_ORDER: Final = sorted(range(52), key=lambda c: (RANK_OF[c], SUIT_OF[c]))
_PHASE1_POS: Final = {c: i for i, c in enumerate(_PHASE1_ORDER)}
_SLOUGH_TEXT: Final = tuple("slough " + t for t in CARD_TEXT)
_RUN_TEXT: Final[dict[tuple[int, int], str]] = {}


def _seq_text(low: int, length: int) -> str:
    text = _RUN_TEXT.get((low, length))
    if text is None:
        text = _RUN_TEXT[(low, length)] = run_text(low, length)
    return text


_P1_KEY: Final[tuple[int, ...]] = tuple(_PHASE1_POS[c] for c in range(52))
"""Each card's place in phase 1's order (rank, then suit)."""
_P1_TEXT: Final[tuple[str, ...]] = tuple(CARD_TEXT[c] for c in _PHASE1_ORDER)
"""The card texts in phase 1's order: ``_P1_TEXT[_P1_KEY[c]]`` is ``c``'s text."""
_P1_SLOUGH_TEXT: Final[tuple[str, ...]] = tuple(_SLOUGH_TEXT[c] for c in _PHASE1_ORDER)
"""The slough moves in phase 1's order, as :data:`_P1_TEXT`."""
_BIT: Final[tuple[int, ...]] = tuple(1 << c for c in range(52))
_BELOW: Final[tuple[int, ...]] = tuple((1 << r) - 1 for r in range(14))
"""``_BELOW[r]``: the bits below bit ``r`` (the ranks below rank ``r``)."""
_RANK_BIT: Final[tuple[int, ...]] = tuple(1 << RANK_OF[c] for c in range(52))
"""Each card's rank as a bit of a mask of ranks (``_losing``)."""

_COMPILED: Final = not __file__.endswith(".py")
"""Whether this module is compiled (mypyc): :meth:`MattisState.play` then looks for the move
by identity before ``in``, and finds a played card in the hand by a loop of native
compares, not ``list.remove`` (interpreted, each loop would cost more than it
saves)."""
_NOT_ACES: Final = sum(1 << c for c in range(52) if RANK_OF[c] != 12)
"""The cards that may link to the next int: all but the aces (the next int is a new suit)."""
_SUIT_MASK: Final[tuple[int, ...]] = tuple(
    sum(1 << (s * 13 + r) for r in range(13)) for s in range(4)
)


def _mask(cards: list[int]) -> int:
    """The bit mask of ``cards``."""
    held = 0
    for c in cards:
        held |= _BIT[c]
    return held


def _beat_mask(trump: int, hi: int) -> int:
    """The cards that beat a top play whose highest card is ``hi`` (AM-11): higher cards
    of its suit, and any trump when it is not of trumps (``trump`` -1: none yet)."""
    suit = SUIT_OF[hi]
    beat = _SUIT_MASK[suit] & ~((2 << hi) - 1)
    if suit != trump and trump >= 0:
        beat |= _SUIT_MASK[trump]
    return beat


_BEAT: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(_beat_mask(trump, hi) for hi in range(52)) for trump in (0, 1, 2, 3, -1)
)
"""``_BEAT[trump][hi]``: :func:`_beat_mask` as a table (``trump`` -1 is the last row)."""
_TWO_TEXT: Final[tuple[str, ...]] = tuple(
    run_text(c, 2) if RANK_OF[c] <= 11 else "" for c in range(52)
)
_THREE_TEXT: Final[tuple[str, ...]] = tuple(
    run_text(c, 3) if RANK_OF[c] <= 10 else "" for c in range(52)
)


_REPLY_MEMO_SIZE: Final = 1 << 16
"""At most this many lists in :data:`_REPLY_MEMO`, and in :data:`_REPLY_OWN` (then it
starts again, empty)."""


def _run_texts(out: list[str], twos: int, threes: int) -> None:
    """Append the texts of the sequences whose lowest cards are the bits of ``twos`` (of
    two cards) and ``threes`` (of three), ordered by lowest card, then length."""
    rest = twos | threes
    if not rest & (rest - 1):  # one lowest card, the common case
        c = rest.bit_length() - 1
        if twos:
            out.append(_TWO_TEXT[c])
        if threes:
            out.append(_THREE_TEXT[c])
        return
    _append_runs(out, twos, threes)


_REPLY_MEMO: Final[dict[int, list[str]]] = {}
"""Phase 2's legal moves against a top play, by ``threes << 53 | singles``
(:func:`_new_reply`): shared between states, read-only (``legal_moves`` copies)."""
_REPLY_OWN: Final[dict[int, list[str]]] = {}
""":data:`_REPLY_MEMO`'s lists by ``singles`` alone where the sequences of three that beat
the top play are those of ``singles``, most replies (interpreted, no 53-bit key is made:
each operation on such an int makes a new int; compiled, the key is a native int)."""


_TAKE_ONLY: Final[list[str]] = ["take"]
"""The legal moves of a reply that nothing in the hand beats (shared, read-only)."""
_CARDS: Final = (1 << 52) - 1


def _new_reply(key: int, own: bool) -> list[str]:
    """The legal moves of :data:`_REPLY_MEMO`'s ``key``, or of :data:`_REPLY_OWN`'s if
    ``own``, worked out and memoised.

    ``key`` is ``threes << 53 | singles`` (the held cards that beat the top play, and the
    lowest cards of the sequences of three that beat it), or, ``own``, ``singles`` alone,
    every sequence of three of ``singles`` beating it and no other: a sequence beats when
    its lowest card does, and the cards above a card that beats, of its suit, beat too
    (AM-11)."""
    singles = key if own else key & _CARDS
    twos = singles & (singles >> 1) & _NOT_ACES
    threes = twos & (twos >> 1) if own else key >> 53
    # the held cards that beat it, low to high; the sequences of two whose lowest card
    # beats it (a beating card's next card of its suit beats too); those of three; take.
    # Interpreted, each operation on a 52-bit int makes a new int: the loops take the
    # highest bit (one such operation a bit, not three) and reverse what they found.
    moves: list[str] = []
    rest = singles
    while rest:
        c = rest.bit_length() - 1
        rest ^= _BIT[c]
        moves.append(CARD_TEXT[c])
    moves.reverse()
    rest = twos | threes
    if rest:
        runs: list[str] = []
        while rest:
            c = rest.bit_length() - 1
            bit = _BIT[c]
            rest ^= bit
            if threes & bit:
                runs.append(_THREE_TEXT[c])
            if twos & bit:
                runs.append(_TWO_TEXT[c])
        runs.reverse()
        moves += runs
    moves.append("take")
    memo = _REPLY_OWN if own else _REPLY_MEMO
    if len(memo) >= _REPLY_MEMO_SIZE:
        memo.clear()
    memo[key] = moves
    return moves


_RUNS_MEMO: Final[tuple[dict[int, tuple[str, ...]], dict[int, tuple[str, ...]]]] = ({}, {})
"""The texts of a leading hand's sequences of one suit, by its links of that suit (bit
``c``: ``c`` and ``c + 1`` held; :func:`_suit_runs`); ``[0]``: of two cards at most,
``[1]``: of three too.  At most 4,096 entries a suit, shared between states, read-only."""
_SUIT0: Final = _SUIT_MASK[0]
_SUIT1: Final = _SUIT_MASK[1]
_SUIT2: Final = _SUIT_MASK[2]
_SUIT3: Final = _SUIT_MASK[3]


def _suit_runs(links: int, threes: bool) -> tuple[str, ...]:
    """The texts of the sequences of one suit whose links (bit ``c``: ``c`` and ``c + 1``
    held) are ``links`` (not 0), ordered as :func:`_run_texts` orders them (of three too
    if ``threes``); memoised in :data:`_RUNS_MEMO`."""
    out: list[str] = []
    _append_runs(out, links, links & (links >> 1) if threes else 0)
    texts = _RUNS_MEMO[threes][links] = tuple(out)
    return texts


def _append_runs(out: list[str], twos: int, threes: int) -> None:
    """:func:`_run_texts` worked out bit by bit."""
    rest = twos | threes
    while rest:
        bit = rest & -rest
        rest ^= bit
        c = bit.bit_length() - 1
        if twos & bit:
            out.append(_TWO_TEXT[c])
        if threes & bit:
            out.append(_THREE_TEXT[c])


def _run_pairs(twos: int, threes: int) -> list[tuple[int, int]]:
    """The sequences of :func:`_run_texts` as ``(low, length)``, in the same order."""
    out: list[tuple[int, int]] = []
    rest = twos | threes
    while rest:
        bit = rest & -rest
        rest ^= bit
        c = bit.bit_length() - 1
        if twos & bit:
            out.append((c, 2))
        if threes & bit:
            out.append((c, 3))
    return out


_ROUNDS: Final[tuple[tuple[list[int], ...], ...]] = tuple(
    tuple([(leader + k) % n for k in range(n)] for leader in range(n)) for n in range(6)
)
"""``_ROUNDS[n][leader]``: the seats of ``n`` in play order from ``leader`` (shared: never
change it; ``_round`` is replaced, not changed)."""
_NEXT: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple((s + 1) % n for s in range(n)) for n in range(6)
)
"""``_NEXT[n][seat]``: the seat after ``seat`` of ``n`` (a state keeps its row, ``_next``)."""

_RUN_CARDS: Final[dict[str, tuple[int, ...]]] = {
    run_text(c, k): tuple(range(c, c + k))
    for k in (2, 3)
    for c in range(52)
    if RANK_OF[c] <= 12 - k + 1
}
"""The cards of each sequence's text (AM-10), low to high."""
_SHED_CARDS: Final[dict[str, tuple[int, ...]]] = {
    **{CARD_TEXT[c]: (c,) for c in range(52)},
    **_RUN_CARDS,
}
"""The cards of each phase-2 play's text (one card or a sequence), low to high: the
``cards`` of :meth:`MattisState._shed` and of the trick's plays, shared (tuples)."""

_TAKE_SPAN: Final = 53
"""The most moves from a take to the next take, that one included: a shed lays down at
least one held card (the hands hold at most 52), so :meth:`MattisState.play` need not
count moves towards ``max_moves`` (C-5) while ``_far_from_end`` says that the game is
more than this many moves (and phase 1's most) from it."""

_MASK_TEXT: Final[dict[int, str]] = {}


def _ranks_text(mask: int) -> str:
    text = _MASK_TEXT.get(mask)
    if text is None:
        text = _MASK_TEXT[mask] = "".join(RANKS[r] for r in range(13) if mask >> r & 1)
    return text


_PARTS_KEEP = (Draw, Tie)
"""The events after which a view's event-driven parts stay as they were
(:meth:`MattisState._parts`)."""


def _take_json(seat: int, cards: Sequence[int]) -> JSON:
    """The JSON of a phase-2 take, the event a take keeps with its move (not in
    ``_event_log``: the commonest event, a record a take would cost a playout)."""
    return to_json(take_event(0, seat, cards), None, CARD_TEXT, _no_outcome)


def _no_outcome() -> None:
    """The outcome a take event carries: none."""
    return None


def _kept(last: list[Any], kept: list[Any], items: list[T], convert: Callable[[T], U]) -> list[U]:
    """:func:`grown`'s list of ``items``, the same list as the last call's (``last``:
    ``[len(items), that list]``) while ``items`` did not grow: views share it."""
    if last[0] != len(items) or kept[0] is not items:
        last[0], last[1] = len(items), grown(kept, items, convert)
    return last[1]  # type: ignore[no-any-return]


def _fact_json(fact: tuple[int, int, int, int]) -> list[Any]:
    """A public fact as the view's ``facts`` lists it: ``[t, seat, ranks, kind]``."""
    t, s, mask, k = fact
    return [t, s, _ranks_text(mask), FACT_KINDS[k]]


_text = CARD_TEXT.__getitem__


def ranks_mask(text: str) -> int:
    """The bit mask of the ranks in ``text`` (rank letters, as the view's facts list them)."""
    mask = 0
    for ch in text:
        mask |= 1 << RANKS.index(ch)
    return mask


class MattisView(SheddingView):
    """A seat's view of Mattis (AM-1..AM-14)."""

    draws: list[Any]
    dreck: dict[str, Any] | None
    """The dreck of phase 2 as this seat may see it (AM-9)."""
    facts: list[Any]
    """What the rules force to be public (C-4): voids, ranks not held."""
    shown_card: str | None
    shown_in_hand: bool
    shown_owner: int | None


class Mattis(FrenchGame):
    """Mattis for 2–5 players (3 by default): collect in phase 1, shed in phase 2."""

    name = "mattis"
    title = "Mattis"
    min_players = 2
    max_players = 5
    default_players = 3
    option_specs = (
        OptionSpec(
            "max_sequence",
            3,
            "the longest sequence of one suit in consecutive ranks played in phase 2 (AM-10)",
            choices=(2, 3),
        ),
        OptionSpec(
            "war_match",
            "round",
            "in a war, must-match binds to the highest card of the war round (round) or "
            "of the whole trick (trick) (AM-4)",
            choices=("round", "trick"),
        ),
        max_moves_option(),
        *research_options("AM-1"),
    )
    variants: ClassVar[Mapping[str, Mapping[str, Any]]] = {"mini": MINI, "medium": MEDIUM}
    rules_text = RULES_TEXT
    summary = (
        "3 players (2–5 work), about 10 minutes. A shedding game in two phases: collect cards"
        " in tricks, then follow suit to get rid of them; the last player holding cards "
        "loses."
    )
    view_type = MattisView
    bots = BotParts(
        tactics="tikki.games.mattis_tactics",
        endgame_phase="shed",
        endgame_hidden=True,  # who got which dreck card stays secret (AM-9)
    )
    interop = InteropParts(encoder="tikki.interop.encoders.mattis:MattisEncoder")
    web = WebParts(selecting_phases=frozenset({"shed"}))  # sequences, runs: selected
    harness = HarnessParts(
        conformance=((2, {}), (3, {}), (4, {}), (5, {}), (3, {"max_sequence": 2})),
        free_hand_phases=frozenset({"shed"}),  # a taken trick joins the taker's hand
    )
    tie_word = "War"  # N_("War")
    phase_goals: ClassVar[Mapping[str, str]] = {
        "collect": "Take few tricks, and good cards: your won cards are your phase-2 hand.",
        "shed": "Shed your cards: follow suit and beat the trick, or take it. The last player "
        "holding cards loses.",
    }

    def chance_only_at_deal(self) -> bool:
        """Whether there is no dreck to shuffle mid-game (AM-9: its 2s to 5s and the 6 of
        trumps): a short deck without the ranks 2–6."""
        return not any(card[0] in "23456" for card in self.deck())

    def move_grammar(self) -> MoveGrammar:
        """Cards, sequences up to ``max_sequence`` (AM-10), ``stock``, ``take``, ``pass``
        and ``slough <card>``."""
        return MoveGrammar(
            max_run=int(self.option("max_sequence")),
            words=("stock", "take", "pass"),
            card_words=("slough",),
        )

    def _new_state(self, seed: int, deck: list[str] | None) -> MattisState:
        rng = random.Random(seed)
        order = list(self.cards)
        shuffle(rng, order)  # also with a deck given: the seed then draws as without one
        if deck is not None:
            order = [TEXT_CARD[t] for t in deck]
        state = MattisState()
        state._setup(self, seed, deck)
        state._dreck_seed = rng.getrandbits(63)
        state._deal(order)
        return state

    def sample_state(self, view: Mapping[str, Any], rng: random.Random) -> MattisState:
        """A full state consistent with ``view`` and every public fact in it (C-4).

        Phase 1: the unseen cards are dealt to the other hands and the stock so that every
        must-match and slough fact of the history holds.  Phase 2: the dreck cards whose
        place the seat does not know are dealt at random among the seats holding them.
        """
        return self.sampler(view)(rng)

    def sampler(self, view: Mapping[str, Any]) -> Callable[[random.Random], MattisState]:
        """Draw states like :meth:`sample_state`, reading the view and its facts once: a
        template state without the hidden cards, and its dealer."""
        template, deal = _template(self, view, self.check_view(view))

        def sample(rng: random.Random) -> MattisState:
            state = template.clone()
            state._dreck_seed = rng.getrandbits(63)
            deal(state, rng)
            return state

        return sample


class MattisState(SheddingState):
    """One game of Mattis; see the module notes for the representation.

    Legal moves: phase 1 cards by rank then suit, then ``stock``; in a slough lap ``pass``
    then the sloughs; phase 2 cards by suit then rank, then sequences, then ``take``.
    """

    PHASE_NAMES = PHASE_NAMES

    __slots__ = (
        "_draws",
        "_dreck",
        "_dreck_seed",
        "_event_log",
        "_facts",
        "_fallen",
        "_far_from_end",
        "_given",
        "_hand_size",
        "_hands",
        "_held",
        "_hist",
        "_history_book",
        "_known_lacking",
        "_lap_left",
        "_lap_seat",
        "_last_winner",
        "_leader",
        "_legal",
        "_loser",
        "_losing",
        "_max_moves",
        "_max_seq",
        "_n",
        "_next",
        "_order",
        "_out",
        "_phase",
        "_piles",
        "_played",
        "_plays",
        "_present",
        "_r1_readings",
        "_rcards",
        "_received",
        "_round",
        "_round_best",
        "_round_played",
        "_sampled_past",
        "_secret",
        "_shown",
        "_shown_owner",
        "_stock",
        "_taken",
        "_to_act",
        "_top",
        "_trick",
        "_trick_size",
        "_trump",
        "_view_cache",
        "_view_text_cache",
        "_war",
        "_war_trick",
        "abandoned",
        "deck",
        "game",
        "is_over",
        "seed",
    )

    is_over: bool
    """Whether the game has ended (read before every move of a playout): an attribute,
    not a property (a property's getter is a Python call from C), set wherever the phase
    becomes ``over`` (:meth:`_finish`, :meth:`_abandon`, a sampled view's)."""

    def __init__(self) -> None:
        """An empty state: :meth:`_setup` (a new game) or :meth:`clone` sets every slot."""

    def _setup(self, game: Mattis, seed: int | None, deck: list[str] | None) -> None:
        self.game = game
        self.seed = seed
        self.deck = deck
        n = game.players
        self._n = n
        self._next = _NEXT[n]
        self._hand_size: int = game.option("hand")
        opts = game.options
        self._max_seq: int = opts["max_sequence"]
        self._max_moves: int = opts["max_moves"]
        self._far_from_end = False  # _deal and _take set it: a sampled state checks
        self._war_trick: bool = opts["war_match"] == "trick"
        self._r1_readings: bool = game.rules == "r1"
        self._war = False
        self._played = 0
        self._hands: list[list[int]] = [[] for _ in range(n)]
        self._piles: list[list[int]] = [[] for _ in range(n)]
        self._stock: list[int] = []  # reversed: the next card is the last item
        self._shown = -1
        self._shown_owner = -1
        self._trump = -1
        self._phase = COLLECT
        self.is_over = False
        self._to_act = -1
        self._trick: list[tuple[int, int, int]] = []
        self._leader = -1
        self._round: list[int] = []
        self._round_played = 0
        self._round_best = NO_RANK
        self._rcards: list[tuple[int, int]] = []
        self._top = NO_RANK
        self._present = 0
        self._losing = 0
        self._lap_seat = -1
        self._lap_left = 0
        self._last_winner = -1
        self._plays: list[tuple[int, tuple[int, ...]]] = []
        self._trick_size = 0
        self._fallen: list[int] = []
        self._out: list[int] = []
        self._loser = -1
        self.abandoned = False
        self._hist: list[tuple[int, str, int]] = []  # (seat, move, card or a take's place)
        self._taken: list[tuple[int, ...]] = []  # each take's cards, its event (in order)
        self._event_log: list[Event] = []
        self._sampled_past: Past | None = None
        self._history_book: Book | None = None
        self._view_cache: tuple[int, JSON] | None = None
        self._view_text_cache: list[list[Any]] | None = None
        self._facts: list[tuple[int, int, int, int]] = []
        self._draws: list[tuple[int, int, int]] = []
        self._known_lacking: list[int] = [0] * n
        self._dreck: list[int] = []
        self._given: list[int] = [0] * n
        self._received: list[int] = [0] * n
        self._secret: list[list[int]] = [[] for _ in range(n)]
        self._held: list[int] = [0] * n  # phase 2: each hand as a bit mask
        self._dreck_seed = 0
        self._legal: list[str] | None = None
        self._order: tuple[int, ...] = ()

    # --- set-up -------------------------------------------------------------------------

    def _deal(self, order: list[int]) -> None:
        n = self._n
        self._order = tuple(order)
        hand: int = self.game.option("hand")
        dealt = hand * n
        self._hands = [order[s:dealt:n] for s in range(n)]  # card i to seat i % n
        self._stock = order[hand * n :][::-1]
        self._draws = [(0, s, hand) for s in range(n)]
        # phase 1 has at most a move a card and a lap of n a card, then phase 2 to its
        # first take (:data:`_TAKE_SPAN`)
        self._far_from_end = len(order) * (n + 1) + _TAKE_SPAN < self._max_moves
        self._start_trick(0)

    # --- the contract -------------------------------------------------------------------

    def _collect_trick_cards(self) -> list[int]:
        """The cards of phase 1's trick on the table, in play order."""
        return [c for _, c, _ in self._trick]

    @property
    def current_player(self) -> int | None:
        """The seat to act, or ``None`` when the game is over (asked before every view)."""
        return None if self._phase == OVER else self._to_act

    @property
    def in_slough_lap(self) -> bool:
        """Whether the seat to act is answering a slough lap (AM-5)."""
        return self._phase == COLLECT and self._lap_left > 0

    def play(self, move: Any) -> None:
        """Apply one move (forgiving text); raise :class:`IllegalMove`, state unchanged:
        :meth:`TableState.play` with :meth:`_apply` written in (every move of a playout
        through the text API)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        if _COMPILED:  # ``in`` compares text by text by generic calls: one of the list's
            text = ""  # own texts (a playout's move) is found by identity first
            for m in legal:
                if m is move:
                    text = m
                    break
            if not text:
                text = move if move in legal else self._canonical(move, legal)
        else:
            text = move if move in legal else self._canonical(move, legal)
        self._legal = None
        if self._phase != SHED:  # phase 1: a play or the stock, or a lap's slough or pass
            if self._lap_left:
                self._phase1(-1 if text == "pass" else TEXT_CARD[text[7:]], text)
            else:
                self._phase1(-1 if text == "stock" else TEXT_CARD[text], text)
        else:
            # Phase 2 (most moves), written here and nowhere else (a Python call a move
            # less; :meth:`_shed` and :meth:`_take` come here).
            seat = self._to_act
            hands = self._hands
            hand = hands[seat]
            held_list = self._held
            held = held_list[seat]
            plays = self._plays
            cards = _SHED_CARDS.get(text)
            if cards is None:  # take the whole trick into the hand (AM-12); the next seat leads
                taken_list = self._taken
                self._hist.append((seat, "take", len(taken_list)))
                taken: tuple[int, ...] = plays[0][1]  # one play (the common case): its own cards
                if len(plays) > 1:
                    for k in range(1, len(plays)):
                        taken += plays[k][1]
                for c in taken:
                    held |= _BIT[c]
                held_list[seat] = held
                hand.extend(taken)
                hand.sort()
                taken_list.append(taken)  # its event, kept with the move (:meth:`_entry`)
                self._far_from_end = len(self._hist) + _TAKE_SPAN < self._max_moves
                self._plays = []
                s = self._next[seat]
                self._to_act = s if hands[s] else next_with_cards(hands, s)
            else:  # play ``cards`` (one card or a sequence, low to high; AM-10, AM-13)
                self._hist.append((seat, text, -1))
                if _COMPILED:  # ``remove`` compares card by card by generic calls
                    for c in cards:
                        i = 0
                        while hand[i] != c:
                            i += 1
                        hand.pop(i)
                        held ^= _BIT[c]  # a held card: its bit is set
                else:
                    for c in cards:
                        hand.remove(c)
                        held ^= _BIT[c]
                held_list[seat] = held
                secret = self._secret[seat]
                if secret:  # a dreck card played is no longer secret (AM-9)
                    for c in cards:
                        if c in secret:
                            secret.remove(c)
                if not plays:  # holders(hands) before this play: the seats not out (none is empty)
                    self._trick_size = self._n - len(self._out)
                plays.append((seat, cards))
                if not hand:
                    self._out.append(seat)
                    self._event_log.append(out_event(len(self._hist), seat, len(self._out)))
                    if holders(hands) <= 1:
                        self._finish()
                        return
                if len(plays) >= self._trick_size:  # everyone still in has played: it falls
                    fallen = self._fallen
                    for play in plays:
                        fallen.extend(play[1])
                    self._event_log.append(falls_event(len(self._hist), plays))
                    self._plays = []
                    self._to_act = seat if hand else next_with_cards(hands, seat)
                else:  # the next seat, if it holds cards, without a call
                    s = self._next[seat]
                    self._to_act = s if hands[s] else next_with_cards(hands, s)
        if not self._far_from_end and len(self._hist) >= self._max_moves and self._phase != OVER:
            self._abandon()

    def _apply(self, move: str) -> None:
        """Play the legal canonical ``move``: :meth:`play` with ``move`` its only legal
        move (``play`` applies moves itself)."""
        self._legal = [move]
        self.play(move)

    def clone(self) -> MattisState:
        """An independent copy: lists copied, caches of views left behind, the rest
        shared (every slot is set: ``tests/test_clone.py`` checks that none is missed)."""
        new = MattisState()
        new._history_book = None
        new._draws = self._draws[:]
        new._dreck = self._dreck
        new._dreck_seed = self._dreck_seed
        new._event_log = self._event_log[:]
        new._facts = self._facts[:]
        new._fallen = self._fallen[:]
        new._given = self._given[:]
        new._hands = [h[:] for h in self._hands]
        new._held = self._held[:]
        new._hist = self._hist[:]
        new._known_lacking = self._known_lacking[:]
        new._lap_left = self._lap_left
        new._lap_seat = self._lap_seat
        new._last_winner = self._last_winner
        new._leader = self._leader
        new._legal = self._legal
        new._loser = self._loser
        new._losing = self._losing
        new._max_moves = self._max_moves
        new._far_from_end = self._far_from_end
        new._max_seq = self._max_seq
        new._n = self._n
        new._hand_size = self._hand_size
        new._next = self._next
        new._order = self._order
        new._out = self._out[:]
        new._sampled_past = self._sampled_past
        new._phase = self._phase
        new._piles = [p[:] for p in self._piles]
        new._played = self._played
        new._plays = self._plays[:]  # (seat, cards) pairs, never changed
        new._present = self._present
        new._r1_readings = self._r1_readings
        new._rcards = self._rcards[:]
        new._received = self._received[:]
        new._round = self._round  # replaced, never changed
        new._round_best = self._round_best
        new._round_played = self._round_played
        new._secret = [s[:] for s in self._secret]
        new._shown = self._shown
        new._shown_owner = self._shown_owner
        new._stock = self._stock[:]
        new._taken = self._taken[:]
        new._to_act = self._to_act
        new._top = self._top
        new._trick = self._trick[:]
        new._trick_size = self._trick_size
        new._trump = self._trump
        new._view_cache = None
        new._view_text_cache = None
        new._war = self._war
        new._war_trick = self._war_trick
        new.abandoned = self.abandoned
        new.deck = self.deck
        new.game = self.game
        new.is_over = self.is_over
        new.seed = self.seed
        return new

    def random_playout(self, rng: random.Random, greedy: float = 0.0, rounds: int = 0) -> None:
        """Play the game to its end quickly (the fast path of search rollouts).

        Moves are chosen among the same options as ``legal_moves`` (``_collect_options``,
        ``_slough_options``, ``_shed_options``) and applied by the same code as
        ``play``, without building the texts to choose from.  With ``greedy=0`` every
        move is uniform over the legal moves, the distribution of
        ``rng.choice(legal_moves())``.  With probability ``greedy`` a move is instead the
        *cheap* one, the heuristic bot's rules (:mod:`tikki.games.mattis_tactics`) read
        from the state rather than a view.  A game of one round: ``rounds`` changes nothing.
        """
        rules = tactics("mattis")
        while self._phase != OVER:
            hand = self._hands[self._to_act]
            cheap = greedy > 0.0 and rng.random() < greedy
            if self._phase == SHED:
                self._playout_shed(hand, rng, cheap)
            elif self._lap_left:
                options = self._slough_options(hand)
                if cheap:
                    card = rules.slough(self._to_act, self._round, self._rcards, options)
                    card = -1 if card is None else card
                else:
                    i = int(rng.random() * (len(options) + 1))
                    card = options[i] if i < len(options) else -1
                self._phase1(card, "pass" if card < 0 else _SLOUGH_TEXT[card])
            else:
                cards, stock = self._collect_options(hand)
                if cheap:
                    best = self._round_best if self._rcards else None
                    card = rules.cheap_collect(cards, stock, best)
                    card = -1 if card is None else card
                else:
                    i = int(rng.random() * (len(cards) + stock))
                    card = cards[i] if i < len(cards) else -1
                self._phase1(card, "stock" if card < 0 else CARD_TEXT[card])
            far = self._far_from_end
            if not far and len(self._hist) >= self._max_moves and self._phase != OVER:
                self._abandon()
        self._legal = None

    def _playout_shed(self, hand: list[int], rng: random.Random, cheap: bool) -> None:
        """A phase-2 move of a playout: the cheap one, or uniform."""
        singles, runs = self._shed_options(hand)
        if cheap:
            choice = self._cheap_shed(singles, runs, len(hand))
        else:
            k = len(singles)
            i = int(rng.random() * (k + len(runs) + bool(self._plays)))
            choice = (singles[i], 1) if i < k else runs[i - k] if i < k + len(runs) else None
        if choice is None:
            self._take()
            return
        low, length = choice
        if length == 1:
            self._shed((low,), CARD_TEXT[low])
        else:
            self._shed(tuple(range(low, low + length)), _seq_text(low, length))

    def _cheap_shed(
        self, singles: list[int], runs: list[tuple[int, int]], held: int
    ) -> tuple[int, int] | None:
        """Phase 2, cheaply: the heuristic bot's shedding rules (``None``: take), read
        from the state (:func:`tikki.games.mattis_tactics.shed`)."""
        top = self._plays
        lone = len(top) == 1 and len(top[0][1]) == 1
        play: tuple[int, int] | None = tactics("mattis").shed(
            singles, runs, held, self._trump, lone
        )
        return play

    # --- legality -----------------------------------------------------------------------

    def legal_moves(self) -> list[str]:
        """Legal moves of the seat to act, canonical texts in the game's fixed order:
        worked out once a position (kept in ``_legal``, which :meth:`play` checks a move
        against) and copied.  Phase 2's (most moves, the hottest path of playouts through
        the text API) are written out here, :meth:`_shed_masks` straight into texts (a
        reply from :data:`_REPLY_MEMO`); phase 1's come from :meth:`_generate_collect`."""
        legal = self._legal
        if legal is not None:
            return legal.copy()
        if self._phase != SHED:
            legal = self._generate_collect() if self._phase == COLLECT else []
        elif not self._plays:  # a lead: the hand's cards, then its sequences
            hand = self._hands[self._to_act]
            if _COMPILED:  # a comprehension fills a list of the hand's length
                legal = [CARD_TEXT[c] for c in hand]
            else:  # a loop: no function's frame, as a comprehension's is (interpreted)
                legal = []
                texts = CARD_TEXT  # a local: no global's lookup a card
                for c in hand:
                    legal.append(texts[c])
            held = self._held[self._to_act]  # the hand as a bit mask
            links = held & (held >> 1) & _NOT_ACES
            if links:  # two links or more: interpreted, a popcount makes no 52-bit int
                if links & (links - 1) if _COMPILED else links.bit_count() > 1:
                    self._lead_runs(legal, links)
                else:  # one sequence, of two: no call
                    legal.append(_TWO_TEXT[links.bit_length() - 1])
        else:
            held = self._held[self._to_act]
            top: tuple[int, ...] = self._plays[-1][1]
            beat = _BEAT[self._trump][top[-1]]
            singles = held & beat
            if not singles and (len(top) != 2 or self._max_seq < 3):
                legal = _TAKE_ONLY  # no card beats it, nor a longer sequence (a third of replies)
            else:
                if self._max_seq < 3:  # (a memo's list is never empty: it ends in take)
                    legal = _REPLY_MEMO.get(singles) or _new_reply(singles, False)
                elif len(top) != 2:  # the sequences of three follow from ``singles``
                    legal = _REPLY_OWN.get(singles) or _new_reply(singles, True)
                else:  # of the top's suit, lower than the top's cards too (longer, AM-11)
                    links = held & (held >> 1) & _NOT_ACES
                    suited = beat | _SUIT_MASK[SUIT_OF[top[0]]]
                    key = (links & (links >> 1) & suited) << 53 | singles
                    legal = _REPLY_MEMO.get(key) or _new_reply(key, False)
        self._legal = legal
        return legal.copy()

    def _generate(self) -> list[str]:
        """The legal moves, the list itself (:meth:`legal_moves` works them out)."""
        self.legal_moves()
        legal = self._legal
        assert legal is not None
        return legal

    def _lead_runs(self, moves: list[str], links: int) -> None:
        """Append a leading hand's sequences, whose links (bit ``c``: ``c`` and ``c + 1``
        held, of one suit) are ``links`` (two bits at least: :meth:`legal_moves` appends
        one sequence of two itself)."""
        three = self._max_seq >= 3
        if _COMPILED:  # native loops over the bits
            _run_texts(moves, links, links & (links >> 1) if three else 0)
            return
        memo = _RUNS_MEMO[three]  # suit by suit, memoised: no loop over the bits
        part = links & _SUIT0  # (each suit's part made once: interpreted, an int a time)
        if part:
            moves += memo.get(part) or _suit_runs(part, three)
        part = links & _SUIT1
        if part:
            moves += memo.get(part) or _suit_runs(part, three)
        part = links & _SUIT2
        if part:
            moves += memo.get(part) or _suit_runs(part, three)
        part = links & _SUIT3
        if part:
            moves += memo.get(part) or _suit_runs(part, three)

    def _generate_collect(self) -> list[str]:
        """Phase 1's legal moves (:meth:`_collect_options`, :meth:`_slough_options`)."""
        hand = self._hands[self._to_act]
        keys: list[int] = []  # loops, not comprehensions: a hot path of playouts
        if self._lap_left:  # _slough_options(), written out
            losing = self._losing
            for c in hand:
                if losing & _RANK_BIT[c]:
                    keys.append(_P1_KEY[c])
            keys.sort()
            moves = ["pass"]
            for k in keys:
                moves.append(_P1_SLOUGH_TEXT[k])
            return moves
        best = self._top if self._war_trick else self._round_best  # _collect_options()
        if best >= 0:
            for c in hand:
                if RANK_OF[c] == best:
                    keys.append(_P1_KEY[c])
        stock = not keys and len(self._stock) > 1
        if not keys:
            if len(hand) == 3:  # a full hand (the common case): three compares, no loops
                a, b, c = _P1_KEY[hand[0]], _P1_KEY[hand[1]], _P1_KEY[hand[2]]
                if a > b:
                    a, b = b, a
                if b > c:
                    b, c = c, b
                    if a > b:
                        a, b = b, a
                if stock:
                    return [_P1_TEXT[a], _P1_TEXT[b], _P1_TEXT[c], "stock"]
                return [_P1_TEXT[a], _P1_TEXT[b], _P1_TEXT[c]]
            for c in hand:
                keys.append(_P1_KEY[c])
        keys.sort()
        moves = []
        for k in keys:
            moves.append(_P1_TEXT[k])
        if stock:
            moves.append("stock")
        return moves

    def _collect_options(self, hand: list[int]) -> tuple[list[int], bool]:
        """Phase 1 outside a lap: the cards that may be played, and whether ``stock`` may.

        Must match (AM-3): holding the rank to match (:meth:`_match_rank`), play one of
        those; otherwise any card, or the stock while it has more than one card (AM-2).
        """
        best = self._match_rank()
        if best >= 0:
            match = [c for c in hand if RANK_OF[c] == best]
            if match:
                return match, False
        return hand, len(self._stock) > 1

    def _match_rank(self) -> int:
        """The rank must-match binds to now (AM-3, AM-4), ``NO_RANK`` if none.

        The highest rank of the current round; with ``war_match=trick`` the highest rank
        of the whole trick, so that it binds in war rounds too.
        """
        return self._top if self._war_trick else self._round_best

    def _losing_ranks(self) -> int:
        """The ranks losing the trick now, as a mask (AM-5).

        A rank in the trick below its highest rank; from ``r2`` on, during a war, the
        highest rank of the current war round is winning that round, so it is not losing.
        """
        losing = self._present & ((1 << self._top) - 1)
        if self._war and not self._r1_readings:
            losing &= ~(1 << self._round_best)
        return losing

    def _may_slough(self, seat: int) -> bool:
        """Whether ``seat`` may be asked in the slough lap (AM-5): from ``r2`` on, only a
        seat that has already played a card to this trick."""
        return self._r1_readings or bool(self._played >> seat & 1)

    def _slough_options(self, hand: list[int]) -> list[int]:
        """In a slough lap: the cards of a losing rank (AM-5); ``pass`` is always legal."""
        losing = self._losing
        return [c for c in hand if losing & _RANK_BIT[c]]

    def _shed_options(self, hand: list[int]) -> tuple[list[int], list[tuple[int, int]]]:
        """Phase 2: the single cards and sequences ``(low, length)`` that may be played,
        the sequences ordered by lowest card, then length.

        Leading, any card or sequence (AM-10); else those that beat the top play (AM-11),
        and ``take`` is legal too (AM-12).
        """
        singles, twos, threes = self._shed_masks(hand)
        return singles, _run_pairs(twos, threes) if twos | threes else []

    def _shed_masks(self, hand: list[int]) -> tuple[list[int], int, int]:
        """Phase 2's legal plays as :meth:`_shed_options` lists them: the single cards,
        and the lowest cards of the sequences of two and of three as bitmasks.

        Bit ``c`` of ``links`` says that ``c`` and ``c + 1`` are held and of one suit
        (:func:`tikki.games.shedding.runs_in`); a sequence beats the top play when its
        lowest card would beat it alone, or, of the top's suit, when it is longer.
        """
        held = self._held[self._to_act]  # ``hand`` as a bit mask
        links = held & (held >> 1) & _NOT_ACES
        threes = links & (links >> 1) if self._max_seq >= 3 else 0
        if not self._plays:
            return hand, links, threes
        top: tuple[int, ...] = self._plays[-1][1]
        suit = SUIT_OF[top[0]]
        beat = _BEAT[self._trump][top[-1]]
        singles = [c for c in hand if beat >> c & 1]
        if not links:
            return singles, 0, 0
        tlen = len(top)
        twos = links & beat
        if tlen == 2:
            threes &= beat | _SUIT_MASK[suit]
        else:
            threes &= beat
        return singles, twos, threes

    def _canonical(self, move: Any, legal: list[str]) -> str:
        """The legal move meant by forgiving input ``move``, or raise an explanation."""
        if not isinstance(move, str):
            raise illegal(move, _t("a move is a text, not {kind}", kind=type(move).__name__), legal)
        if self._phase == OVER:
            raise IllegalMove(_t("the game is over: no more moves"))
        words = move.split()
        text = "".join(words).lower()
        if text in ("stock", "take", "pass"):
            canon = text
        elif text.startswith("slough"):
            card = normalize_french(text[6:]) if text[6:] else None
            if card is None:
                raise illegal(
                    move,
                    _t("{move!r} is not a move: slough one card, e.g. slough 7H", move=move),
                    legal,
                )
            canon = "slough " + card
        else:
            parts = [normalize_french(p) for p in text.split("+")]
            if any(p is None for p in parts):
                raise illegal(
                    move,
                    _t(
                        "{move!r} is not a move: {move_forms}",
                        move=move,
                        move_forms=self._move_forms(),
                    ),
                    legal,
                )
            canon = "+".join(p for p in parts if p is not None)
        if canon in legal:
            return canon
        raise illegal(move, self._why_not(canon), legal)

    def _move_forms(self) -> str:
        if self._phase == COLLECT and self._lap_left:
            return _t("slough a card of a losing rank (e.g. slough 7H) or pass")
        if self._phase == COLLECT:
            return _t(
                "play a card (rank {ranks} then suit {suits}, e.g. 7H) or stock",
                ranks=RANKS,
                suits=SUITS,
            )
        return _t("play a card (e.g. 7H), a sequence (e.g. 5H+6H+7H) or take")

    def _why_not(self, move: str) -> str:
        """Why the well-formed ``move`` is not legal now."""
        seat, hand = self._to_act, self._hands[self._to_act]
        if self._phase == COLLECT and self._lap_left:
            return self._why_not_lap(move, seat, hand)
        if move in ("pass",) or move.startswith("slough"):
            if self._phase == SHED:
                return _t(
                    "{move} is a phase-1 move: beat the top play or take (AM-11, AM-12)", move=move
                )
            return _t(
                "{move}: there is no slough lap now; slough and pass answer one (AM-5)", move=move
            )
        if move == "take":
            if self._phase == COLLECT:
                return _t("take is a phase-2 move (AM-12)")
            return _t("there is nothing to take: you lead this trick")
        if move == "stock":
            if self._phase == SHED:
                return _t("stock is a phase-1 move")
            must = self._must_match(hand)
            if must:
                return must
            return _t(
                "the stock has {n_stock} card(s): stock needs more than one (AM-2)",
                n_stock=len(self._stock),
            )
        cards = [TEXT_CARD[t] for t in move.split("+")]
        missing = [CARD_TEXT[c] for c in cards if c not in hand]
        if missing:
            return _t("{cards} is not in seat {seat}'s hand", cards=", ".join(missing), seat=seat)
        if self._phase == COLLECT:
            if len(cards) > 1:
                return _t("sequences are played in phase 2 only; play one card (AM-2)")
            return self._must_match(hand) or _t("{move} cannot be played now", move=move)
        if len(cards) > 1 and (len(cards) > self._max_seq or not is_run(cards)):
            return _t(
                "{move} is not a sequence: 2–{max_seq} cards of one suit in "
                "consecutive ranks, written low to high (AM-10)",
                move=move,
                max_seq=self._max_seq,
            )
        top = self._plays[-1][1]
        top_text = "+".join(CARD_TEXT[c] for c in top)
        trump = SUITS[self._trump]
        suit = suit_one(SUITS[SUIT_OF[top[0]]])
        longer = _t(", a longer sequence of its suit") if len(top) > 1 else ""
        if SUIT_OF[top[0]] == self._trump:
            return _t(
                "must beat {top_text}: play higher trumps ({trump}){longer}, or take (AM-11)",
                top_text=top_text,
                trump=trump,
                longer=longer,
            )
        return _t(
            "must beat {top_text}: play a higher {suit}{longer} or a "
            "trump ({trump}), or take (AM-11)",
            top_text=top_text,
            suit=suit,
            longer=longer,
            trump=trump,
        )

    def _must_match(self, hand: list[int]) -> str:
        best = self._match_rank()
        if best < 0:
            return ""
        match = [CARD_TEXT[c] for c in hand if RANK_OF[c] == best]
        if not match:
            return ""
        return _t(
            "must match the highest card's rank {rank}: play {cards} (AM-3)",
            rank=RANKS[best],
            cards=_t(" or ").join(sorted(match, key=lambda t: _PHASE1_POS[TEXT_CARD[t]])),
        )

    def _why_not_lap(self, move: str, seat: int, hand: list[int]) -> str:
        ranks = ", ".join(RANKS[r] for r in range(13) if self._losing >> r & 1)
        if move.startswith("slough "):
            card = TEXT_CARD[move[7:]]
            if card not in hand:
                return _t("{move} is not in seat {seat}'s hand", move=move[7:], seat=seat)
            return _t(
                "{move} cannot be sloughed: only cards of a rank losing the "
                "trick ({ranks}) can (AM-5)",
                move=move[7:],
                ranks=ranks,
            )
        if move in ("stock", "take") or "+" in move:
            return _t(
                "seat {seat} may slough cards of a losing rank ({ranks}) or pass (AM-5)",
                seat=seat,
                ranks=ranks,
            )
        return _t(
            "it is seat {seat}'s slough turn: write 'slough {move}' to "
            "slough a card of a losing rank ({ranks}), or 'pass' (AM-5)",
            seat=seat,
            move=move,
            ranks=ranks,
        )

    # --- phase 1 ------------------------------------------------------------------------

    def _start_trick(self, leader: int) -> None:
        n = self._n
        self._leader = leader
        self._trick = []
        self._round = _ROUNDS[n][leader]  # shared: a round is replaced, never changed
        self._round_played = 0
        self._round_best = NO_RANK
        self._rcards = []
        self._top = NO_RANK
        self._present = 0
        self._lap_left = 0
        self._war = False
        self._played = 0
        if self._hands[leader]:  # _make_due(leader), its common case written out
            self._to_act = leader
        else:
            self._make_due(leader)

    def _make_due(self, seat: int) -> None:
        """``seat`` is due to play: draw one if empty-handed (AM-8), or end phase 1."""
        if not self._hands[seat]:
            if not self._stock:
                self._end_collect()
                return
            self._draw(seat, 1)
        self._to_act = seat

    def _draw(self, seat: int, count: int) -> None:
        """``seat`` draws ``count`` cards from the stock (fewer if it runs out); the last
        card is shown and names trumps.  :meth:`_after_lap` has the common case (one card, more
        left) written in: a change here is a change there."""
        hand, stock = self._hands[seat], self._stock
        t = len(self._hist)
        if count == 1 and stock:  # the common case (back to a full hand after a trick)
            card = stock.pop()
            hand.append(card)
            drawn = [card]
        else:
            drawn = []
            for _ in range(count):
                if not stock:
                    break
                card = stock.pop()
                hand.append(card)
                drawn.append(card)
        if drawn:
            self._draws.append((t, seat, len(drawn)))
            self._known_lacking[seat] = 0
            self._event_log.append(draw_event(t, seat, drawn))
            if not stock:
                card = drawn[-1]
                self._shown = card
                self._shown_owner = seat
                self._trump = SUIT_OF[card]
                self._event_log.append(last_card_event(t, seat, card))
                self._event_log.append(trump_event(t, SUITS[self._trump], card, seat))

    def _phase1(self, card: int, move: str) -> None:
        """A phase-1 move, text ``move``: outside a slough lap, play ``card`` from hand or
        turn the stock (``card`` -1); in one (AM-5), slough ``card`` or pass (-1).  Then
        the lap goes on: each seat that may slough a card of a rank losing the trick is
        asked in turn, and the round goes on when none is left to ask.  One method for
        both moves: the lap is written once, and a move makes no second call for it."""
        seat = self._to_act
        hands = self._hands
        if self._lap_left:  # a slough or a pass
            self._hist.append((seat, move, -1))
            losing = self._losing
            if card >= 0:
                hand = hands[seat]
                hand.remove(card)
                self._trick.append((seat, card, SLOUGHED))
                for c in hand:
                    if losing & _RANK_BIT[c]:  # it may slough again
                        self._facts.append((len(self._hist), seat, losing, HOLDS))
                        return
                known = self._known_lacking[seat]
                new = losing & ~known
                if hand and new:
                    self._known_lacking[seat] = known | new
                    self._facts.append((len(self._hist), seat, new, HOLDS_NONE))
            s, left = self._next[seat], self._lap_left - 1
        else:  # a card played or the stock turned
            t = len(self._hist)
            if card < 0:
                card = self._stock.pop()
                self._trick.append((seat, card, FROM_STOCK))
                self._hist.append((seat, move, card))
            else:
                hands[seat].remove(card)
                self._trick.append((seat, card, FROM_HAND))
                self._hist.append((seat, move, -1))
            self._played |= _BIT[seat]  # (bits from tables: a shift is a generic operation)
            rank = RANK_OF[card]
            best = self._top if self._war_trick else self._round_best  # _match_rank()
            if best >= 0 and rank != best:
                bit = _BIT[best]
                known = self._known_lacking[seat]  # no |= on an item: a generic call, compiled
                if not known & bit:
                    self._known_lacking[seat] = known | bit
                    self._facts.append((t, seat, bit, NO_MATCH))
            if rank > self._round_best:
                self._round_best = rank
            self._rcards.append((seat, rank))
            if rank > self._top:
                self._top = rank
            self._present |= _BIT[rank]
            self._round_played += 1
            losing = self._present & _BELOW[self._top]  # _losing_ranks(), written out
            if losing and self._war and not self._r1_readings:
                losing &= ~(1 << self._round_best)
            if not losing:
                self._after_lap()
                return
            self._losing = losing
            s, left = seat, self._n
        # the lap (AM-5): the next seat from ``s`` that may slough, ``left`` seats to ask
        t = len(self._hist)
        after = self._next
        played = -1 if self._r1_readings else self._played  # _may_slough(s): bit s
        lacking = self._known_lacking
        while left:
            hand = hands[s]
            if hand and played & _BIT[s]:
                known = lacking[s]
                new = losing & ~known  # a rank it is known to lack (no draw since) it lacks:
                if new:  # when all are, it holds none and nothing new is learnt
                    for c in hand:
                        if new & _RANK_BIT[c]:
                            self._lap_seat, self._lap_left = s, left
                            self._to_act = s
                            self._facts.append((t, s, losing, HOLDS))
                            return
                    lacking[s] = known | new
                    self._facts.append((t, s, new, HOLDS_NONE))
            s = after[s]
            left -= 1
        self._lap_seat, self._lap_left = s, 0
        k = self._round_played  # _after_lap(), its common case written out
        if k < len(self._round):
            seat = self._round[k]
            if hands[seat]:
                self._to_act = seat
                return
        self._after_lap()

    def _after_lap(self) -> None:
        """The lap is over: the round's next seat plays, or the trick is won or tied."""
        self._lap_left = 0
        if self._round_played < len(self._round):
            seat = self._round[self._round_played]
            if self._hands[seat]:  # _make_due(seat), its common case written out
                self._to_act = seat
            else:
                self._make_due(seat)
            return
        best = self._round_best
        tied: list[int] = []
        for s, r in self._rcards:  # a loop, not a comprehension: a hot path of playouts
            if r == best:
                tied.append(s)
        if len(tied) == 1:  # he takes the trick; all draw back to three (AM-6); he leads
            winner = tied[0]
            pile = self._piles[winner]
            for play in self._trick:  # a loop, not a generator: a hot path of playouts
                pile.append(play[1])
            self._last_winner = winner
            self._event_log.append(trick_event(len(self._hist), winner, self._trick))
            self._trick = []
            hands, stock, size = self._hands, self._stock, self._hand_size
            t = len(self._hist)
            for s in _ROUNDS[self._n][winner]:  # the winner first, then in turn
                if not stock:
                    break
                need = size - len(hands[s])
                if need == 1 and len(stock) > 1:  # :meth:`_draw`'s common case, written in
                    card = stock.pop()
                    hands[s].append(card)
                    self._draws.append((t, s, 1))
                    self._known_lacking[s] = 0
                    self._event_log.append(draw_event(t, s, [card]))
                elif need > 0:
                    self._draw(s, need)
            self._start_trick(winner)
            return
        self._event_log.append(tie_event(len(self._hist), tied))
        self._round = tied
        self._round_played = 0
        self._round_best = NO_RANK
        self._rcards = []
        self._war = True
        self._make_due(tied[0])

    def _end_collect(self) -> None:
        """Phase 1 ends (AM-8): the unfinished trick goes back; hands join piles; dreck."""
        n = self._n
        t = len(self._hist)
        for s, c, _ in self._trick:
            self._hands[s].append(c)
        if self._trick:
            self._event_log.append(void_tie_event(t, self._trick, "phase_end", None))
        self._trick = []
        self._round = []
        self._rcards = []
        self._round_played = 0
        self._round_best = self._top = NO_RANK
        self._present = self._losing = 0
        self._lap_left = 0
        hands = self._hands
        for s in range(n):
            hands[s] = sorted(self._piles[s] + hands[s])
            self._piles[s] = []
        mark = len(self._event_log)
        self._deal_dreck()
        self._held = [_mask(h) for h in hands]
        self._phase = SHED
        self._out = [s for s in range(n) if not hands[s]]
        over = holders(hands) <= 1
        start = self._last_winner if self._last_winner >= 0 else 0
        leader = -1 if over else next_with_cards(hands, start)
        self._event_log.insert(mark, phase_event(t, "shed", leader))
        self._event_log.extend(out_event(t, s, i + 1) for i, s in enumerate(self._out))
        if over:
            self._finish()
            return
        self._to_act = leader

    def _deal_dreck(self) -> None:
        """AM-9: players with 6+ cards give their 2–5s and the 6 of trumps to the others."""
        hands = self._hands
        counts = [len(h) for h in hands]
        if not (any(c < DRECK_LIMIT for c in counts) and any(c >= DRECK_LIMIT for c in counts)):
            return
        six = self._trump * 13 + 4 if self._trump >= 0 else -1
        dreck: list[int] = []
        receivers: list[int] = []
        for s, hand in enumerate(hands):
            if counts[s] < DRECK_LIMIT:
                receivers.append(s)
                continue
            gone = [c for c in hand if RANK_OF[c] <= 3 or c == six]
            if gone:
                hands[s] = [c for c in hand if not (RANK_OF[c] <= 3 or c == six)]
                self._given[s] = len(gone)
                dreck.extend(gone)
        dreck.sort()
        self._dreck = dreck
        shuffled = dreck[:]
        shuffle(random.Random(self._dreck_seed), shuffled)
        for i, card in enumerate(shuffled):
            s = receivers[i % len(receivers)]
            insort(hands[s], card)
            self._secret[s].append(card)
            self._received[s] += 1
        for s in receivers:
            self._secret[s].sort()
        secret = [sec[:] for sec in self._secret]
        self._event_log.append(dreck_event(len(self._hist), list(self._given), secret))

    # --- phase 2 ------------------------------------------------------------------------

    def _take(self) -> None:
        """Phase 2: take the whole trick into the hand (AM-12), by :meth:`play`, which
        holds phase 2's moves (``random_playout`` and tests come here)."""
        self._legal = _TAKE_ONLY
        self.play("take")

    def _shed(self, cards: Sequence[int], move: str) -> None:
        """Phase 2: the seat to act plays ``cards``, text ``move`` (AM-10, AM-13), by
        :meth:`play`, which holds phase 2's moves (``move`` names ``cards``)."""
        self._apply(move)

    def _finish(self) -> None:
        """:meth:`SheddingState._finish`, and the game is over (:attr:`is_over`)."""
        super()._finish()
        self.is_over = True

    def _abandon(self) -> None:
        """:meth:`SheddingState._abandon`, and the game is over (:attr:`is_over`)."""
        super()._abandon()
        self.is_over = True

    # --- views --------------------------------------------------------------------------

    def _owner(self, i: int) -> int:
        """The seat for which move ``i`` reads otherwise: none (its draws are events)."""
        return -1

    def _entry(self, i: int, seat: int | None) -> JSON:
        """The history entry of move ``i`` (the same for every seat), before
        ``_event_log``'s events: a take's own event is kept with the move (its cards in
        ``_taken``, their place in the move's ``card`` slot; none in a sampled state's
        past, whose view gives the events)."""
        s, move, card = self._hist[i]
        if card < 0:
            return {"seat": s, "move": move}
        if move == "take":
            return {"seat": s, "move": move, "events": [_take_json(s, self._taken[card])]}
        return {"seat": s, "move": move, "card": CARD_TEXT[card]}

    def known_cards(self, seat: int | None) -> list[list[int]]:
        """Phase 2: the cards (ints) of each hand that ``seat`` knows (its own: all).

        Every phase-2 card is public (C-4) except who received which dreck card: while
        two or more *other* seats hold dreck cards, theirs stay unknown to ``seat``.
        """
        secret_holders = [s for s in range(self._n) if s != seat and self._secret[s]]
        hidden = len(secret_holders) > 1
        out: list[list[int]] = []
        for s, hand in enumerate(self._hands):
            if hidden and s in secret_holders:
                secret = self._secret[s]
                out.append([c for c in hand if c not in secret])
            else:
                out.append(list(hand))
        return out

    def _known_hands(self, seat: int | None) -> list[list[str]] | None:
        """Phase 2: the cards of each hand that ``seat`` knows, as texts (``None`` in
        phase 1); a whole hand's texts are converted again only when it changed, and
        shared between views (read them, never change them)."""
        if self._phase == COLLECT:
            return None
        n = self._n
        cache = self._texts_cache()
        secret_holders = [s for s in range(n) if s != seat and self._secret[s]]
        hidden = len(secret_holders) > 1
        out: list[list[str]] = []
        for s, hand in enumerate(self._hands):
            if hidden and s in secret_holders:
                secret = self._secret[s]
                out.append([CARD_TEXT[c] for c in hand if c not in secret])
                continue
            kept = cache[n + 5 + s]
            if kept[0] != hand:
                kept[0], kept[1] = hand[:], list(map(_text, hand))
            out.append(kept[1])
        return out

    LAZY_VIEW_KEYS: ClassVar[frozenset[str]] = frozenset(
        (
            "hand_sizes",
            "shown_in_hand",
            "piles",
            "hands",
            "trick",
            "last_trick",
            "dreck",
            "fallen",
            "out_order",
            "history",
            "facts",
            "draws",
        )
    )

    def view(self, seat: Any) -> JSON:
        """What ``seat`` may know (``None``: the public view).

        The parts that change only when an event is emitted (the phase, the shown card
        and trump, piles, fallen cards, the last trick, the out order, the dreck's
        public part, …) are built once per event (:meth:`_parts`) and shared between
        successive views, as are the history's entries and the facts and draws while
        they did not grow: read a view, never change it.  The hand sizes, the piles, the
        hands, the tricks, the dreck, the fallen cards, the out order, the history, the
        facts and the draws are built when first read (:class:`tikki.views.LazyView`).
        """
        if seat is not None and (type(seat) is not int or not 0 <= seat < self._n):
            self._check_seat(seat)
        split = self._view_split  # _known_parts(), its common case written out
        known = split[1] if split and split[0] == len(self._event_log) else self._known_parts()
        view = known.copy()  # filled in place: one copy, no keywords
        to_act = None if self._phase == OVER else self._to_act
        view["seat"] = seat
        view["to_act"] = to_act
        if seat is not None:
            h = self._hands[seat]
            phase = self._phase
            if phase == SHED:  # a hand of phase 2 is kept sorted (a lead's moves read it)
                view["hand"] = list(map(_text, h))
            else:  # phase 1's order, or an abandoned phase 1's hand sorted
                cards = sorted(h, key=_PHASE1_POS.__getitem__) if phase == COLLECT else sorted(h)
                view["hand"] = list(map(_text, cards))
            if seat == to_act:  # a copy of its own, worked out once a position
                view["legal_moves"] = self.legal_moves()
            else:
                view["legal_moves"] = []
        else:
            view["hand"], view["legal_moves"] = [], []
        view["stock_size"] = len(self._stock)
        moves = view["move_count"] = len(self._hist)
        return self._lazy_view(view, seat, moves)

    def _view_part(self, seat: int | None, key: str) -> Any:
        """A lazy key of :meth:`view` (:attr:`LAZY_VIEW_KEYS`), the state as it stands."""
        n, collect = self._n, self._phase == COLLECT
        if key == "history":
            return history_of(self, seat, len(self._hist), CARD_TEXT)
        if key == "trick":
            return self._trick_view()
        if key == "hand_sizes":
            return list(map(len, self._hands))
        if key == "hands":
            return None if collect else self._known_hands(seat)
        if key == "shown_in_hand":
            return collect and self._shown >= 0 and self._shown in self._hands[self._shown_owner]
        if key == "dreck":
            dreck = self._shared_parts()["dreck"]
            if dreck is None:
                return None
            return {
                "cards": dreck["cards"],
                "given": dreck["given"],
                "received": dreck["received"],
                "mine": list(map(_text, self._secret[seat])) if seat is not None else [],
            }
        if key == "facts":
            cache = self._texts_cache()
            return _kept(cache[n + 3], cache[n + 1], self._facts, _fact_json)
        if key == "draws":
            cache = self._texts_cache()
            return _kept(cache[n + 4], cache[n + 2], self._draws, list)
        return super()._view_part(seat, key)

    def _view_whole(self, seat: int | None) -> JSON:
        """The whole view of ``seat``, its lazy parts built (for a view read whole)."""
        whole = self._shared_parts().copy()
        part = self._view_part
        whole["hand_sizes"] = list(map(len, self._hands))
        whole["shown_in_hand"] = part(seat, "shown_in_hand")
        whole["hands"] = None if self._phase == COLLECT else self._known_hands(seat)
        whole["trick"] = self._trick_view()
        if whole["dreck"] is not None:
            whole["dreck"] = part(seat, "dreck")
        whole["history"] = history_of(self, seat, len(self._hist), CARD_TEXT)
        whole["facts"] = part(seat, "facts")
        whole["draws"] = part(seat, "draws")
        return whole

    def _split_view(
        self, events: int, last: tuple[int, JSON, JSON | None] | None
    ) -> tuple[int, JSON, JSON | None]:
        """The view's known parts after ``events`` events (:meth:`_parts`' keys that are
        not lazy, in their order), built without the lazy ones."""
        known: JSON = {
            "game": self.game.name,
            "players": self._n,
            "options": self.game.options,
            "seat": None,
            "phase": PHASE_NAMES[self._phase],
            "to_act": None,
            "hand": None,
            "legal_moves": None,
            "stock_size": None,
            "shown_card": CARD_TEXT[self._shown] if self._shown >= 0 else None,
            "shown_owner": None if self._shown_owner < 0 else self._shown_owner,
            "trump": SUITS[self._trump] if self._trump >= 0 else None,
            "last_winner": None if self._last_winner < 0 else self._last_winner,
            "loser": None if self._loser < 0 else self._loser,
            "abandoned": self.abandoned,
            "move_count": None,
            "max_moves": self._max_moves,
        }
        return (events, known, None)

    def _texts_cache(self) -> list[list[Any]]:
        """The texts built for earlier views: per pile, then the fallen cards, the facts
        and the draws (:func:`grown`), then the facts' and the draws' last lists
        (:func:`_kept`), then per seat its hand and the hand's texts (phase 2)."""
        cache = self._view_text_cache
        if cache is None:
            n = self._n
            cache = self._view_text_cache = [[None, []] for _ in range(n + 3)]
            cache.extend([[-1, []], [-1, []]])
            cache.extend([[None, []] for _ in range(n)])
        return cache

    def _parts(self) -> JSON:
        """The view as it stands after ``len(_event_log)`` events, every key in its place.

        What changes only with an event is built here once: the phase (its event), the
        shown card and trump (``last_card``, ``trump``), piles (a won trick, a new phase),
        fallen cards, the out order, the loser and the end (``falls``, ``out``, ``over``),
        the last trick, the dreck's public part.  :meth:`view` sets the keys that change
        with any move.  Draws, takes and ties change none of them: after those alone the
        last parts are these.
        """
        cached = self._view_cache
        if cached is not None:
            log = self._event_log
            if all(isinstance(log[k], _PARTS_KEEP) for k in range(cached[0], len(log))):
                return cached[1]
        n = self._n
        cache = self._texts_cache()
        dreck: JSON | None = None
        if self._dreck:
            dreck = {
                "cards": list(map(_text, self._dreck)),
                "given": list(self._given),
                "received": list(self._received),
                "mine": None,
            }
        return {
            "game": self.game.name,
            "players": n,
            "options": self.game.options,
            "seat": None,
            "phase": PHASE_NAMES[self._phase],
            "to_act": None,
            "hand": None,
            "legal_moves": None,
            "hand_sizes": None,
            "stock_size": None,
            "shown_card": CARD_TEXT[self._shown] if self._shown >= 0 else None,
            "shown_owner": None if self._shown_owner < 0 else self._shown_owner,
            "shown_in_hand": None,
            "trump": SUITS[self._trump] if self._trump >= 0 else None,
            "piles": [grown(cache[s], p, _text) for s, p in enumerate(self._piles)],
            "hands": None,
            "trick": None,
            "last_trick": last_trick(self._event_log, self._sampled_past, CARD_TEXT),
            "last_winner": None if self._last_winner < 0 else self._last_winner,
            "dreck": dreck,
            "fallen": grown(cache[n], self._fallen, _text),
            "out_order": list(self._out),
            "loser": None if self._loser < 0 else self._loser,
            "abandoned": self.abandoned,
            "move_count": None,
            "max_moves": self._max_moves,
            "history": None,
            "facts": None,
            "draws": None,
        }

    def _trick_view(self) -> JSON:
        if self._phase == COLLECT:
            lap = self._lap_left > 0
            return {
                "kind": "collect",
                "leader": self._leader,
                "cards": [
                    {"seat": s, "card": CARD_TEXT[c], "how": HOW[how]} for s, c, how in self._trick
                ],
                "round": list(self._round),
                "round_played": self._round_played,
                "match_rank": RANKS[match] if (match := self._match_rank()) >= 0 else None,
                "losing_ranks": _ranks_text(self._losing) if lap else None,
                "slough_lap": [self._lap_seat, self._lap_left] if lap else None,
            }
        return {
            "kind": "shed",
            "plays": [{"seat": s, "cards": [CARD_TEXT[c] for c in cs]} for s, cs in self._plays],
            "size": self._trick_size if self._plays else None,
        }

    def reveal(self) -> JSON:
        """Everything: every card's place (``zones``) and what each seat cannot see."""
        zones: dict[str, list[str]] = {}
        for s in range(self._n):
            zones[f"hand {s}"] = [CARD_TEXT[c] for c in self._hands[s]]
            zones[f"pile {s}"] = [CARD_TEXT[c] for c in self._piles[s]]
        zones["stock"] = [CARD_TEXT[c] for c in reversed(self._stock)]
        zones["trick"] = [CARD_TEXT[c] for _, c, _ in self._trick] + [
            CARD_TEXT[c] for _, cs in self._plays for c in cs
        ]
        zones["fallen"] = [CARD_TEXT[c] for c in self._fallen]
        hidden: dict[str, list[str]] = {}
        for s in range(self._n):
            cards: list[str] = []
            if self._phase == COLLECT:
                cards = list(zones["stock"])
                for o in range(self._n):
                    if o != s:
                        cards.extend(CARD_TEXT[c] for c in self._hands[o] if c != self._shown)
            hidden[str(s)] = sorted(cards)
        return {
            "phase": self.phase,
            "to_act": self.current_player,
            "zones": zones,
            "hidden": hidden,
            "secret": [[CARD_TEXT[c] for c in sec] for sec in self._secret],
            **self._reveal_end(),
        }


Dealer = Callable[[MattisState, random.Random], None]
"""Deals the hidden cards into a clone of a view's template state."""


def _template(game: Mattis, view: Mapping[str, Any], seat: int) -> tuple[MattisState, Dealer]:
    """The state of a seat's view with empty hands (and stock), and how to deal them
    (the determinizer, C-4: its dealing is :mod:`tikki.games.mattis_sampler`)."""
    state = MattisState()
    state._setup(game, None, None)
    n = game.players
    if len(view["hand_sizes"]) != n:
        raise RulesError("the view does not match the game's number of players")
    state._phase = PHASE_NAMES.index(view["phase"])
    state.is_over = state._phase == OVER
    state._to_act = -1 if view["to_act"] is None else view["to_act"]
    state._piles = [ints_of(p) for p in view["piles"]]
    state._shown = -1 if view["shown_card"] is None else TEXT_CARD[view["shown_card"]]
    state._shown_owner = -1 if view["shown_owner"] is None else view["shown_owner"]
    state._trump = -1 if view["trump"] is None else SUITS.index(view["trump"])
    state._last_winner = -1 if view["last_winner"] is None else view["last_winner"]
    state._fallen = ints_of(view["fallen"])
    state._out = list(view["out_order"])
    state._loser = -1 if view["loser"] is None else view["loser"]
    state.abandoned = bool(view["abandoned"])
    state._hist = [
        (h["seat"], h["move"], TEXT_CARD[h["card"]] if "card" in h else -1) for h in view["history"]
    ]
    state._sampled_past = past_of(view)
    state._facts = [(t, s, ranks_mask(r), FACT_KINDS.index(k)) for t, s, r, k in view["facts"]]
    state._draws = [(t, s, k) for t, s, k in view["draws"]]
    last_draw = [-1] * n
    for t, s, _ in state._draws:
        last_draw[s] = max(last_draw[s], 3 * t + 1)
    for t, s, mask, kind in state._facts:
        when = 3 * t + 2 if kind == NO_MATCH else 3 * t
        if kind != HOLDS and when > last_draw[s]:
            state._known_lacking[s] |= mask
    dreck = view["dreck"]
    if dreck is not None:
        state._dreck = ints_of(dreck["cards"])
        state._given = list(dreck["given"])
        state._received = list(dreck["received"])
    trick = view["trick"]
    if trick["kind"] != "collect":
        state._plays = [(p["seat"], tuple(ints_of(p["cards"]))) for p in trick["plays"]]
        state._trick_size = trick["size"] or 0
        return state, _shed_deal(state, view, seat)
    state._trick = [(t["seat"], TEXT_CARD[t["card"]], HOW.index(t["how"])) for t in trick["cards"]]
    state._leader = trick["leader"]
    state._round = list(trick["round"])
    state._round_played = trick["round_played"]
    rplays = [(s, RANK_OF[c]) for s, c, how in state._trick if how != SLOUGHED]
    state._rcards = rplays[len(rplays) - state._round_played :] if state._round_played else []
    state._round_best = max((r for _, r in state._rcards), default=NO_RANK)
    state._war = len(rplays) > state._round_played
    for s, _ in rplays:
        state._played |= 1 << s
    ranks = [RANK_OF[c] for _, c, _ in state._trick]
    state._top = max(ranks, default=NO_RANK)
    for r in ranks:
        state._present |= 1 << r
    if trick["slough_lap"] is not None:
        state._lap_seat, state._lap_left = trick["slough_lap"]
        state._losing = ranks_mask(trick["losing_ranks"])
    return state, _collect_deal(game, state, view, seat)


def _shed_deal(template: MattisState, view: Mapping[str, Any], seat: int) -> Dealer:
    """Phase 2: the dreck cards whose place is unknown, dealt into each clone."""
    dealer = shed_dealer(view, seat, template._fallen, template._plays, template._received)

    def deal(state: MattisState, rng: random.Random) -> None:
        hands, secret = dealer(rng)
        for s, cards in secret.items():
            state._secret[s] = cards
        state._hands = hands
        state._held = [_mask(h) for h in hands]

    return deal


def _collect_deal(
    game: Mattis, template: MattisState, view: Mapping[str, Any], seat: int
) -> Dealer:
    """Phase 1: the unseen cards, dealt into each clone's hands and stock."""
    seen = set(ints_of(view["hand"]))
    for pile in template._piles:
        seen.update(pile)
    seen.update(c for _, c, _ in template._trick)
    if template._shown >= 0:
        seen.add(template._shown)
    unseen = [c for c in game.cards if c not in seen]
    known = Known(
        template._shown, template._shown_owner, template._hist, template._draws, template._facts
    )
    dealer = collect_dealer(view, seat, unseen, known)

    def deal(state: MattisState, rng: random.Random) -> None:
        state._hands, state._stock = dealer(rng)

    return deal


register(Mattis)
