"""Mückenstich, a whole match of 3–6 players (RULINGS C-1..C-6, MS-1..MS-11).

Design notes
------------
* A :class:`MueckenstichState` is a whole **match**: as many rounds as players (MS-2), the
  dealer moving left each round.  Each round is dealt from a deck: the given one(s), else
  a shuffle by a ``random.Random`` seeded with the state's seed and the round number, so
  a seed and a first deck give the same later rounds as the seed alone (docs/design.md: "a deck
  fixes the first deal, the seed drives the rest"), and ``clone`` copies no generator.
* Cards are ints ``colour * 16 + value`` (value ``1``–``12``, ``13`` the mosquito);
  identical cards (the two 12s, the three mosquitoes of a colour) are the same int, as
  the rules make them interchangeable (C-4).  In a trick the later of two identical
  cards is higher (MS-7), so a card beats the best so far when its value is ``>=``.
* Phases: ``discard`` (each player sets two cards aside, MS-4), ``play`` (tricks; right
  after a mosquito its player names the trump, ``trump X``, MS-8), ``score`` (``double X``
  then ``drop X``, MS-10) and ``over``.  A new round is dealt as soon as the previous one
  is scored, so the next phase after ``score`` is the next round's ``discard``.
* ``legal_moves`` is the one source of legality: computed once per position and cached;
  ``play`` accepts exactly its texts (after normalising forgiving input) and explains a
  refusal from the same position.
* Hidden information: the other hands, the other seats' discards (their history entries
  read ``discard ?``) and the undealt cards.  Everything played is public (C-4), and so
  is every **void**: a seat that did not follow a colour holds none of it for the rest
  of that deal.  :meth:`Mueckenstich.sample_state` deals the hidden cards uniformly among
  all deals consistent with the sizes and the voids (:mod:`tikki.games.dealing`).
* :func:`score_round` is the scoring of MS-10 on its own: piles, doubled and dropped
  colour in, scores out.
* Search support: ``random_playout(rng, greedy, rounds)`` plays on with the same move
  code as ``play``; ``rounds=1`` stops once the round in progress is scored (the later
  rounds are dealt independently of it), and ``returns_so_far`` gives the running totals.
  Its cheap moves are the bots' (:mod:`tikki.games.mueckenstich_tactics`), which use
  the public helpers :func:`trick_winner` and :func:`score_pile` as the rules do.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from functools import partial
from typing import Any, ClassVar, Final, cast

from tikki.cards import (
    COLOUR_NAMES,
    COLOURS,
    MOSQUITO,
    colour_word,
    ints_of,
    mueckenstich_deck,
    normalize_mueckenstich,
)
from tikki.core import (
    JSON,
    BotParts,
    Game,
    HarnessParts,
    IllegalMove,
    InteropParts,
    MoveGrammar,
    OptionSpec,
    RulesError,
    State,
    TableState,
    illegal,
    register,
    tactics,
)
from tikki.core.game import _FILL_VIEW, _NEW_VIEW
from tikki.events import (
    NO_CARD,
    Book,
    Event,
    Past,
    deal_event,
    hand_on,
    history_of,
    over_event,
    past_of,
    phase_event,
    round_event,
    trick_event,
    trump_event,
)
from tikki.games.dealing import Dealer, shuffle
from tikki.i18n import _ as _t
from tikki.rules import rules_text
from tikki.views import BaseView, CardPlay, LazyView

DISCARD: Final = 0
PLAY: Final = 1
SCORE: Final = 2
OVER: Final = 3
PHASE_NAMES: Final = ("discard", "play", "score", "over")
HAND_SIZES: Final = {3: 10, 4: 15, 5: 12, 6: 10}
"""Cards dealt to each player per deal (MS-3)."""
MOSQUITO_PENALTY: Final = 5
"""Points lost for the first mosquito of each colour in a player's tricks (MS-10)."""
ALL_COLOURS: Final = 0b1111
MINI: Mapping[str, Any] = {
    "colours": 2,
    "values": 1,
    "mosquitoes": 1,
    "hand": 2,
    "discards": False,
    "rounds": 1,
}
"""The ``mini`` preset (three players): two colours, each ``12 12 M``, two cards each, one
deal and one round without discards: six cards, two tricks (for exact methods, CFR)."""
MEDIUM: Mapping[str, Any] = {**MINI, "colours": 3, "hand": 3, "discards": True}
"""The ``medium`` research rung (three players): three colours of ``12 12 M``, three cards
each, everyone sets two aside face down (MS-4), then one trick: the discards stay hidden to
the end, so an information set holds about 20 histories (Kuhn poker: 2)."""
RESEARCH_OPTIONS = (
    OptionSpec(
        "colours",
        4,
        "research: a short deck of the first COLOURS colours (red, blue, green, black); "
        "only these can be named",
        choices=(1, 2, 3, 4),
        research=True,
    ),
    OptionSpec(
        "values",
        12,
        "research: the highest VALUES number values of each colour (12: 1–12, the 12 twice)",
        choices=tuple(range(1, 13)),
        research=True,
    ),
    OptionSpec(
        "mosquitoes",
        3,
        "research: mosquitoes of each colour (the rules: 3)",
        choices=(1, 2, 3),
        research=True,
    ),
    OptionSpec(
        "hand",
        0,
        "research: cards dealt to each player (0: as the rules deal, MS-3)",
        choices=(0, 1, 2, 3, 4, 5),
        research=True,
    ),
    OptionSpec(
        "discards",
        True,
        "research: off, nobody sets two cards aside after a deal (MS-4)",
        research=True,
    ),
    OptionSpec(
        "rounds",
        0,
        "research: rounds in a match (0: one per player, MS-2)",
        choices=(0, 1),
        research=True,
    ),
)
"""Mückenstich's research options: a short deck, short hands, no discards, one round.
With the defaults the game is the one of the rules, deals included."""


def research_deck(colours: int, values: int, mosquitoes: int) -> tuple[int, ...]:
    """The cards of a research deck in the canonical order of :data:`DECK` (the whole
    deck with ``4, 12, 3``): per colour its highest ``values`` number values, the 12 twice,
    then ``mosquitoes`` mosquitoes."""
    out: list[int] = []
    for colour in range(colours):
        base = colour * 16
        out += [base + v for v in range(13 - values, 12)]
        out += [base + 12, base + 12] + [base + MOSQUITO] * mosquitoes
    return tuple(out)


def _card_text(card: int) -> str:
    value = card & 15
    if not 1 <= value <= MOSQUITO:
        return ""
    return ("M" if value == MOSQUITO else str(value)) + COLOURS[card >> 4]


CARD_TEXT: Final[tuple[str, ...]] = tuple(_card_text(c) for c in range(64))
"""Canonical text of each card int (``""`` for ints that are no card)."""
TEXT_CARD: Final[dict[str, int]] = {t: c for c, t in enumerate(CARD_TEXT) if t}
"""Canonical text to card int."""
DECK: Final[tuple[int, ...]] = tuple(TEXT_CARD[t] for t in mueckenstich_deck())
"""The 64 cards in canonical order (MS-1)."""

NO_COLOUR: Final = -1
"""An empty colour slot: no suit led yet, no trump, nothing doubled or dropped."""
NO_SEAT: Final = -1
"""No seat: nobody to act (the match is over), or no strict doubler or dropper (MS-10)."""

_TRUMP_MOVES: Final = tuple(f"trump {c}" for c in COLOURS)
_DOUBLE_MOVES: Final = tuple(f"double {c}" for c in COLOURS)
_DROP_MOVES: Final = tuple(f"drop {c}" for c in COLOURS)
_COLOUR_WORDS = {**{c.lower(): c for c in COLOURS}, **{v: k for k, v in COLOUR_NAMES.items()}}
_COLOUR_WORDS.update({"black": "K", "schwarz": "K", "rot": "R", "blau": "B", "grün": "G"})

RULES_TEXT = rules_text("mueckenstich", "en")
"""The English rules, ``tikki/rules/mueckenstich.en.md`` (all languages: ``tikki.rules``)."""


def _texts(cards: Sequence[int]) -> list[str]:
    return list(map(CARD_TEXT.__getitem__, cards))


def _colour_word(word: str) -> str | None:
    return _COLOUR_WORDS.get(word.lower())


def score_round(
    piles: Sequence[Sequence[str]], doubled: str | None = None, dropped: str | None = None
) -> list[int]:
    """Score one round (MS-10): each seat's won cards, the doubled and the dropped colour.

    Every number card scores +1, twice in the ``doubled`` colour and nothing in the
    ``dropped`` one; the first mosquito of each colour in a pile scores −5, further ones
    0.  Colours are ``R B G K`` (or ``None``); cards are texts like ``7R`` or ``MK``.

    >>> score_round([["2R", "MR", "MR"], ["5G", "12G"]], doubled="G", dropped="R")
    [-5, 4]
    """
    double = _scoring_colour(doubled, "doubled")
    drop = _scoring_colour(dropped, "dropped")
    if double >= 0 and double == drop:
        raise RulesError(_t("the dropped colour must differ from the doubled one (MS-10)"))
    out = []
    for pile in piles:
        cards = []
        for text in pile:
            canon = normalize_mueckenstich(text) if isinstance(text, str) else None
            if canon is None:
                raise RulesError(_t("{text!r} is not a Mückenstich card", text=text))
            cards.append(TEXT_CARD[canon])
        out.append(score_pile(cards, double, drop))
    return out


def _scoring_colour(colour: str | None, what: str) -> int:
    if colour is None:
        return NO_COLOUR
    letter = _colour_word(colour.strip()) if isinstance(colour, str) else None
    if letter is None:
        raise RulesError(
            _t(
                "the {what} colour is one of {colours} or None, not {colour!r}",
                what=what,
                colours=", ".join(COLOURS),
                colour=colour,
            )
        )
    return COLOURS.index(letter)


def score_pile(cards: Sequence[int], double: int, drop: int) -> int:
    """The score of one seat's won cards (card ints) with the ``double`` and the ``drop``
    colour (colour indexes, ``NO_COLOUR``: none), as :func:`score_round` scores them (MS-10)."""
    score = 0
    bitten = 0
    for c in cards:
        colour = c >> 4
        if c & 15 == MOSQUITO:
            bitten |= 1 << colour
        elif colour == double:
            score += 2
        elif colour != drop:
            score += 1
    return score - MOSQUITO_PENALTY * bitten.bit_count()


class MueckenstichView(BaseView):
    """A seat's view of a Mückenstich match (MS-1..MS-12)."""

    deal: int
    dealer: int
    deals: int
    discard_counts: list[int]
    discards: list[str]
    doubled: str | None
    dropped: str | None
    forehand: int
    leader: int
    led: str | None
    mosquitoes: list[int]
    naming_trump: bool
    round: int
    round_scores: list[list[int]]
    """Each scored round's scores so far."""
    rounds: int
    scores: list[int]
    scoring_choice: dict[str, Any] | None
    sheet: list[dict[str, Any]]
    trick: list[CardPlay]
    tricks: list[int]
    voids: list[Any]


class Mueckenstich(Game):
    """Mückenstich for 3–6 players; one state is a whole match (MS-2)."""

    name = "mueckenstich"
    title = "Mückenstich"
    min_players = 3
    max_players = 6
    default_players = 4
    option_specs = RESEARCH_OPTIONS
    variants: ClassVar[Mapping[str, Mapping[str, Any]]] = {"mini": MINI, "medium": MEDIUM}
    harness = HarnessParts(
        conformance=(
            (3, {}),
            (4, {}),
            (5, {}),
            (6, {}),
            (3, {"colours": 3, "values": 6, "hand": 5}),  # research: a short deck, two deals
        ),
        leaderless_phases=frozenset({"discard", "score"}),  # everyone sets aside at once
        free_hand_phases=frozenset({"score"}),
    )
    rules_text = RULES_TEXT
    summary = (
        "3–6 players, one round per player (about 20 minutes). A trick-taking game: collect "
        "number cards, avoid the mosquitoes; the best total over the match wins."
    )
    memory_aids = True  # won tricks stay hidden during a round (MS-12); tables may show them
    value_kind = "points"
    bots = BotParts(
        tactics="tikki.games.mueckenstich_tactics",
        rule_phases=frozenset({"discard"}),
    )
    """Its rollout tactics, and one rule phase: the expert sets its discards aside by the
    heuristic's rules: the two discards (MS-4) are a choice among 15 and 14 cards whose
    worth shows only at the round's end, and the search hardly tells them apart: over 60
    deals ``ismcts:iterations=500`` and ``expert:rules=0`` set aside no more mosquitoes
    than they hold (15% and 19% of their discards; 19% of the cards held), the heuristic
    84% (its rule 1, "set aside mosquitoes that would bite you"); over one round of each
    of those deals in every seat against three ``ismcts:iterations=500``, discarding by
    rule scored more (``benchmarks/discards.py``), though a whole-match run did not
    confirm the gain (the figures are in docs/bots.md, "How strong expert is")."""
    view_type = MueckenstichView
    interop = InteropParts(encoder="tikki.interop.encoders.mueckenstich:MueckenstichEncoder")
    phase_goals: ClassVar[Mapping[str, str]] = {
        "discard": "Set aside two cards you do not want: keep a hand that wins number cards.",
        "play": "Win tricks with number cards; avoid tricks with mosquitoes (the first of a "
        "colour costs 5).",
        "score": "The fewest tricks doubles a colour, the most mosquitoes drops one: pick "
        "what pays most.",
    }

    def __init__(self, players: Any = None, *, rules: Any = None, **options: Any) -> None:
        super().__init__(players, rules=rules, **options)
        n = self.players
        self.colours = self.option("colours")
        """The colours in the deck (R, B, G, K, the first of them): the ones that can be named."""
        self.cards = research_deck(self.colours, self.option("values"), self.option("mosquitoes"))
        self.hand_size: int = self.option("hand") or HAND_SIZES[n]
        self.rounds: int = self.option("rounds") or n
        self.discarding = bool(self.option("discards")) and n != 6
        """Whether every player sets two cards aside after each deal (MS-4)."""
        self.deals = 2 if n == 3 and len(self.cards) >= 2 * self.hand_size * n else 1
        """Deals a round: with 3 players a second one (MS-3), when the deck holds it."""
        if len(self.cards) < self.hand_size * n:
            raise RulesError(
                _t(
                    "a deck of {cards} cards is too small for {players} players: deal "
                    "{hand} each (research options colours, values, mosquitoes, hand)",
                    cards=len(self.cards),
                    players=n,
                    hand=self.hand_size,
                )
            )
        if self.discarding and self.hand_size < 3:
            raise RulesError(
                _t(
                    "a hand of {hand} cards cannot set two aside (MS-4): deal 3 or more, "
                    "or switch discards off",
                    hand=self.hand_size,
                )
            )

    def deck(self) -> list[str]:
        """The 64 Mückenstich cards (MS-1), or the research options' short deck."""
        if len(self.cards) == len(DECK):
            return mueckenstich_deck()
        return [CARD_TEXT[c] for c in self.cards]

    def chance_only_at_deal(self) -> bool:
        """With one round (research option ``rounds``): every later deal of the round
        comes from the same deck (MS-3)."""
        return self.rounds == 1

    def move_grammar(self) -> MoveGrammar:
        """Cards, ``discard <card>``, and ``trump``, ``double``, ``drop <colour>``."""
        return MoveGrammar(card_words=("discard",), suit_words=("trump", "double", "drop"))

    @property
    def utility_bounds(self) -> tuple[float, float]:
        """A round scores from -20 (four first mosquitoes) to 65 (every number card, one
        colour doubled, none dropped), MS-10; a match has as many rounds as players."""
        n = self.players
        return (-20.0 * n, 65.0 * n)

    @property
    def max_length(self) -> int:
        """At most 86 moves a round: 100 a round is safe."""
        return 100 * self.players

    def normalize_card(self, text: str) -> str | None:
        """Canonical Mückenstich card text, or ``None``."""
        return normalize_mueckenstich(text)

    def new_state(
        self,
        seed: int | None = None,
        deck: Sequence[str] | Sequence[Sequence[str]] | None = None,
    ) -> MueckenstichState:
        """Start a match.

        ``deck`` is one complete 64-card deck in dealing order (the first round; the seed
        deals the later ones) or a list of such decks, one per round (at most one per
        round; rounds beyond the list are dealt from the seed).  ``seed`` is 0 when a
        deck is given without one.
        """
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise RulesError(_t("seed must be a whole number, got {seed!r}", seed=seed))
        decks: list[list[str]] | None = None
        given: list[str] | list[list[str]] | None = None
        if deck is not None:
            if isinstance(deck, str) or not isinstance(deck, Sequence) or not deck:
                raise RulesError(_t("a deck is a list of card texts, or a list of such decks"))
            if all(isinstance(d, str) for d in deck):
                one = self.check_deck(deck)
                decks, given = [one], one
            else:
                if len(deck) > self.players:
                    raise RulesError(
                        _t(
                            "{decks} decks given: a match of {players} players has "
                            "{players} rounds",
                            decks=len(deck),
                            players=self.players,
                        )
                    )
                decks = []
                for i, d in enumerate(deck):
                    try:
                        decks.append(self.check_deck(d))
                    except RulesError as err:
                        raise RulesError(
                            _t("deck of round {round}: {err}", round=i + 1, err=err)
                        ) from None
                given = [list(d) for d in decks]
            if seed is None:
                seed = 0
        elif seed is None:
            seed = random.SystemRandom().randrange(2**32)
        state = MueckenstichState()
        state._setup(self, seed, given)
        state._base = seed
        state._decks = [[TEXT_CARD[t] for t in d] for d in decks] if decks else []
        state._start_round()
        return state

    def _new_state(self, seed: int, deck: list[str] | None) -> MueckenstichState:
        return self.new_state(seed=seed, deck=deck)

    def sample_state(self, view: Mapping[str, Any], rng: random.Random) -> MueckenstichState:
        """A full state consistent with ``view``: hidden cards dealt uniformly among the
        deals that respect every size and every void colour (RULINGS C-4)."""
        return self.sampler(view)(rng)

    def sampler(self, view: Mapping[str, Any]) -> Callable[[random.Random], MueckenstichState]:
        """Draw states like :meth:`sample_state`, reading the view and counting the
        consistent deals only once (for search bots)."""
        seat = self.check_view(view)
        return _sampler(self, view, seat)


class MueckenstichState(TableState):
    """One match of Mückenstich; see the module notes for the representation.

    Legal moves come in a fixed order: cards by colour, then value.
    """

    PHASE_NAMES = PHASE_NAMES

    __slots__ = (
        "_base",
        "_deal",
        "_decks",
        "_discards",
        "_doubled",
        "_dropped",
        "_event_log",
        "_hands",
        "_history_book",
        "_last_trick",
        "_leader",
        "_led",
        "_legal",
        "_mosq",
        "_moves",
        "_n",
        "_order",
        "_own_seen",
        "_pending",
        "_phase",
        "_piles",
        "_r1_readings",
        "_round",
        "_sampled_past",
        "_seats",
        "_seen",
        "_sheet",
        "_stock",
        "_to_act",
        "_totals",
        "_trick",
        "_tricks",
        "_trump",
        "_view_cache",
        "_view_memo",
        "_voids",
        "deck",
        "game",
        "seed",
    )

    @property
    def _this_game(self) -> Mueckenstich:
        """This match's game, with its deck and research options (``game`` is typed as
        any :class:`Game`, and the compiled build keeps an attribute's declared type)."""
        return cast(Mueckenstich, self.game)

    def __init__(self) -> None:
        """An empty state: :meth:`_setup` (a new game) or :meth:`clone` sets every slot."""

    def _setup(
        self, game: Mueckenstich, seed: int | None, deck: list[str] | list[list[str]] | None
    ) -> None:
        self.game = game
        self.seed = seed
        self.deck = deck  # type: ignore[assignment]
        n = game.players
        self._n = n
        self._r1_readings = game.rules == "r1"
        self._base = 0
        self._decks: list[list[int]] = []
        self._order: list[int] = []
        self._round = 0
        self._deal = 0
        self._phase = DISCARD
        self._to_act = 0
        self._hands: list[list[int]] = [[] for _ in range(n)]
        self._discards: list[list[int]] = [[] for _ in range(n)]
        self._piles: list[list[int]] = [[] for _ in range(n)]
        self._tricks = [0] * n
        self._mosq = [0] * n
        self._voids = [0] * n
        self._stock: list[int] = []
        self._trick: list[tuple[int, int]] = []
        self._leader = 0
        self._led = NO_COLOUR
        self._trump = NO_COLOUR
        self._pending = False
        self._last_trick: tuple[int, list[tuple[int, int]]] | None = None
        self._doubled = NO_COLOUR
        self._dropped = NO_COLOUR
        self._sheet: list[JSON] = []
        self._totals = [0] * n
        self._moves: list[str] = []
        self._seats: list[int] = []
        self._seen = 0
        self._own_seen = [0] * n
        self._event_log: list[Event] = []
        self._sampled_past: Past | None = None
        self._history_book: Book | None = None
        self._view_cache: tuple[int, JSON] | None = None
        self._view_memo: list[Any] | None = None
        self._legal: list[str] | None = None

    # --- dealing ------------------------------------------------------------------------

    @property
    def dealer(self) -> int:
        """The dealer of the current round (seat ``n-1`` first, then moving left, C-1)."""
        return (self._n - 1 + self._round) % self._n

    @property
    def forehand(self) -> int:
        """The seat left of the dealer, who leads the round's first trick (MS-5)."""
        return self._round % self._n

    def _start_round(self) -> None:
        order = list(self._this_game.cards)
        shuffle(random.Random(f"mueckenstich:{self._base}:{self._round}"), order)
        if self._round < len(self._decks):
            order = list(self._decks[self._round])
        if self._round == 0:
            self._order = order
        n = self._n
        self._piles = [[] for _ in range(n)]
        self._discards = [[] for _ in range(n)]
        self._tricks = [0] * n
        self._mosq = [0] * n
        self._doubled = self._dropped = NO_COLOUR
        self._last_trick = None
        self._deal = 0
        self._stock = order
        self._deal_cards(self.forehand)

    def _deal_cards(self, leader: int) -> None:
        n, size = self._n, self._this_game.hand_size
        first = self.forehand
        hands: list[list[int]] = [[] for _ in range(n)]
        stock = self._stock
        for i in range(size * n):
            hands[(first + i) % n].append(stock[i])
        for h in hands:
            h.sort()
        self._hands = hands
        self._stock = stock[size * n :]
        self._trick = []
        self._led = NO_COLOUR
        if self._deal == 0 or self._r1_readings:
            self._trump = NO_COLOUR  # MS-8: a round starts without trump (r1: every deal)
        self._pending = False
        self._voids = [0] * n
        self._leader = leader
        if not self._this_game.discarding:
            self._phase = PLAY
            self._to_act = leader
        else:
            self._phase = DISCARD
            self._to_act = first
        t = len(self._moves)
        if t:
            log = self._event_log
            log.extend(deal_event(t, s, hands[s][:]) for s in range(n))
            log.append(phase_event(t, PHASE_NAMES[self._phase], self._to_act))

    # --- the contract -------------------------------------------------------------------

    @property
    def round(self) -> int:
        """The current round, from 0 (the last round once the match is over)."""
        return self._round

    @property
    def outcome(self) -> JSON | None:
        """Totals, per-round scores, winners, ``abandoned`` and returns (docs/design.md)."""
        if self._phase != OVER:
            return None
        totals = list(self._totals)
        best = max(totals)
        return {
            "scores": totals,
            "rounds": [list(e["scores"]) for e in self._sheet],
            "winners": [s for s in range(self._n) if totals[s] == best],
            "abandoned": False,
            "returns": [float(t) for t in totals],
        }

    @property
    def moves(self) -> list[str]:
        """Every move played so far."""
        return self._moves[:]

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (asked before every move of a playout)."""
        return self._phase == OVER

    @property
    def current_player(self) -> int | None:
        """The seat to act, or ``None`` when the game is over (asked before every view)."""
        return None if self._phase == OVER else self._to_act

    def play(self, move: Any) -> None:
        """Apply one move (forgiving text); raise :class:`IllegalMove`, state unchanged:
        :meth:`TableState.play` with the move's dispatch written in (every move of a
        playout through the text API: one Python call a move less)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        text: str = move if move in legal else self._canonical(move, legal)
        self._legal = None
        phase = self._phase
        if phase == PLAY:
            if self._pending:
                self._name_trump(COLOURS.index(text[-1]))
            else:
                self._play_card(TEXT_CARD[text])
        elif phase == DISCARD:
            self._discard(_DISCARD_CARD[text])
        else:
            self._choose(text[1] == "o", COLOURS.index(text[-1]))

    def _apply(self, move: str) -> None:
        """Play the legal canonical ``move``: :meth:`play` with ``move`` its only legal
        move (``play`` applies moves itself)."""
        self._legal = [move]
        self.play(move)

    def record(self, seat: Any = None) -> JSON:
        """The match as a JSON-ready record (the ``deck`` as given: one deck or a list)."""
        out = super().record(seat)
        if seat is None and self.deck is not None:
            given: list[Any] = self.deck  # one deck, or a deck for each round
            out["deck"] = [list(d) if isinstance(d, list) else d for d in given]
        return out

    def clone(self) -> MueckenstichState:
        """An independent copy: lists copied, caches of views left behind, the rest
        shared (every slot is set: ``tests/test_clone.py`` checks that none is missed)."""
        new = MueckenstichState()
        new._base = self._base
        new._history_book = None
        new._deal = self._deal
        new._decks = self._decks
        new._discards = [d[:] for d in self._discards]
        new._doubled = self._doubled
        new._dropped = self._dropped
        new._event_log = self._event_log[:]
        new._hands = [h[:] for h in self._hands]
        new._last_trick = self._last_trick
        new._leader = self._leader
        new._led = self._led
        new._legal = self._legal
        new._mosq = self._mosq[:]
        new._moves = self._moves[:]
        new._n = self._n
        new._order = self._order
        new._own_seen = self._own_seen[:]
        new._sampled_past = self._sampled_past
        new._pending = self._pending
        new._phase = self._phase
        new._piles = [p[:] for p in self._piles]
        new._r1_readings = self._r1_readings
        new._round = self._round
        new._seats = self._seats[:]
        new._seen = self._seen
        new._sheet = self._sheet[:]
        new._stock = self._stock[:]
        new._to_act = self._to_act
        new._totals = self._totals[:]
        new._trick = self._trick[:]
        new._tricks = self._tricks[:]
        new._trump = self._trump
        new._view_cache = None
        new._view_memo = None
        new._voids = self._voids[:]
        new.deck = self.deck
        new.game = self.game
        new.seed = self.seed
        return new

    def random_playout(self, rng: random.Random, greedy: float = 0.0, rounds: int = 0) -> None:
        """Play the match on quickly (the fast path of search rollouts).

        With ``greedy=0`` every move is uniform over the legal moves, the distribution of
        ``rng.choice(legal_moves())``, without building move texts to choose from.  With
        probability ``greedy`` a move is instead the *cheap* one, by the bots' quick rules
        (:mod:`tikki.games.mueckenstich_tactics`: ``cheap_card``, ``cheap_trump``,
        ``cheap_discard``, and at the scoring ``cheap_double`` and ``cheap_drop``).
        ``rounds``: stop once that many more rounds are scored (``0``: play to the end
        of the match); :meth:`returns_so_far` then gives the running totals.
        """
        stop = self._round + rounds if rounds > 0 else self._this_game.rounds
        named = self._this_game.colours
        rules = tactics("mueckenstich")
        while self._phase != OVER and self._round < stop:
            phase = self._phase
            cheap = greedy > 0.0 and rng.random() < greedy
            if phase == PLAY:
                if self._pending:
                    colour = (
                        rules.cheap_trump(self._trick, self._to_act, self._led, self._trump)
                        if cheap
                        else int(rng.random() * named)
                    )
                    self._name_trump(colour if colour < named else 0)
                    continue
                options = self._playable(self._hands[self._to_act])
                if cheap:
                    card = rules.cheap_card(
                        options, self._trick, self._to_act, self._led, self._trump, self._n
                    )
                else:
                    distinct = sorted(set(options))
                    card = distinct[int(rng.random() * len(distinct))]
                self._play_card(card)
            elif phase == DISCARD:
                hand = self._hands[self._to_act]
                card = rules.cheap_discard(hand) if cheap else None
                if card is None:
                    distinct = sorted(set(hand))
                    card = distinct[int(rng.random() * len(distinct))]
                self._discard(card)
            elif self._doubled < 0 and self._to_act == self._doubler():
                seat = self._to_act
                colour = (
                    rules.cheap_double(self._piles, seat) if cheap else int(rng.random() * named)
                )
                self._choose(True, colour if colour < named else 0)
            elif cheap and named == 4:
                self._choose(False, rules.cheap_drop(self._piles, self._to_act, self._doubled))
            else:
                colours = [c for c in range(named) if c != self._doubled]
                self._choose(False, colours[int(rng.random() * len(colours))])
        self._legal = None

    def returns_so_far(self) -> list[float]:
        """Each seat's total so far (the match's ``returns`` once it is over)."""
        return [float(t) for t in self._totals]

    def search_key(self) -> Hashable:
        """An exact search's position within a round (:func:`tikki.bots.endgame.position_key`):
        phase, seat to act, trump, the trick, every hand, and what scores the round (each
        pile as a set, tricks and mosquitoes taken, the doubled and dropped colours)."""
        return (
            self._round,
            self._deal,
            self._phase,
            self._to_act,
            self._pending,
            self._trump,
            self._led,
            tuple(self._trick),
            tuple(map(tuple, self._hands)),
            tuple(tuple(sorted(p)) for p in self._piles),
            tuple(self._tricks),
            tuple(self._mosq),
            self._doubled,
            self._dropped,
        )

    # --- legality -----------------------------------------------------------------------

    def _playable(self, hand: list[int]) -> list[int]:
        """The cards of ``hand`` that may be played now: the led colour if held (MS-6)."""
        led = self._led
        if led >= 0:
            follow = [c for c in hand if c >> 4 == led]
            if follow:
                return follow
        return hand

    def _generate(self) -> list[str]:
        phase = self._phase
        if phase == PLAY:
            if self._pending:
                return list(_TRUMP_MOVES[: self._this_game.colours])
            out = []
            last = -1
            hand = self._hands[self._to_act]
            led = self._led
            if led >= 0:  # _playable written in: the led colour if held (MS-6)
                for c in hand:
                    if c >> 4 == led and c != last:
                        out.append(CARD_TEXT[c])
                        last = c
                if out:
                    return out
            for c in hand:
                if c != last:
                    out.append(CARD_TEXT[c])
                    last = c
            return out
        if phase == DISCARD:
            out = []
            last = -1
            for c in self._hands[self._to_act]:
                if c != last:
                    out.append(_DISCARD_TEXT[c])
                    last = c
            return out
        if phase == SCORE:
            named = self._this_game.colours
            if self._doubled < 0 and self._to_act == self._doubler():
                return list(_DOUBLE_MOVES[:named])
            return [m for i, m in enumerate(_DROP_MOVES[:named]) if i != self._doubled]
        return []

    def _canonical(self, move: Any, legal: list[str]) -> str:
        """The legal move meant by forgiving input ``move``, or raise an explanation."""
        if not isinstance(move, str):
            raise illegal(move, _t("a move is a text, not {kind}", kind=type(move).__name__), legal)
        if self._phase == OVER:
            raise IllegalMove(_t("the match is over: no more moves"))
        words = move.split()
        canon: str | None = None
        if len(words) >= 2 and words[0].lower() in ("discard", "trump", "double", "drop"):
            verb, arg = words[0].lower(), "".join(words[1:])
            if verb == "discard":
                card = normalize_mueckenstich(arg)
                canon = None if card is None else f"discard {card}"
            else:
                colour = _colour_word(arg)
                canon = None if colour is None else f"{verb} {colour}"
        elif words:
            card = normalize_mueckenstich("".join(words))
            canon = card
        if canon is None:
            raise illegal(
                move, _t("{move!r} is not a move: {forms}", move=move, forms=self._forms()), legal
            )
        if canon in legal:
            return canon
        raise illegal(move, self._why_not(canon), legal)

    def _forms(self) -> str:
        if self._phase == DISCARD:
            return _t("set a card aside with discard and the card, e.g. discard 7R")
        if self._phase == PLAY and self._pending:
            return _t("name the trump colour, e.g. trump G (colours R B G K)")
        if self._phase == PLAY:
            return _t("play a card: number 1–12 or M, then colour R B G K, e.g. 7R, 12B, MK")
        return _t("choose a colour: double R, or drop G (colours R B G K)")

    def _why_not(self, move: str) -> str:
        """Why the well-formed ``move`` is not legal now."""
        seat, phase = self._to_act, self._phase
        verb, _, arg = move.rpartition(" ")
        if phase == DISCARD:
            if verb == "discard":
                return _t("{arg} is not in seat {seat}'s hand", arg=arg, seat=seat)
            return _t(
                "seat {seat} must first set two cards aside (MS-4): write discard and a card",
                seat=seat,
            )
        if phase == SCORE:
            if verb in ("double", "drop"):
                doubler = self._doubled < 0 and seat == self._doubler()
                if verb == "drop" and doubler:
                    return _t(
                        "seat {seat} has the fewest tricks and names the doubled "
                        "colour first (MS-10)",
                        seat=seat,
                    )
                if verb == "double":
                    return _t(
                        "seat {seat} names the dropped colour, not a doubled one (MS-10)", seat=seat
                    )
                return _t("{arg} is doubled: the dropped colour must be another (MS-10)", arg=arg)
            return _t("the round is being scored: name a colour (MS-10)")
        if self._pending:
            return _t(
                "seat {seat} played a mosquito and must name the trump first (MS-8)", seat=seat
            )
        if verb:
            if verb == "discard":
                return _t("discards are made before the first trick (MS-4)")
            if verb == "trump":
                return _t("the trump is named only right after playing a mosquito (MS-8)")
            return _t("colours are doubled and dropped only when the round is scored (MS-10)")
        card = TEXT_CARD[move]
        if card not in self._hands[seat]:
            return _t("{move} is not in seat {seat}'s hand", move=move, seat=seat)
        name = colour_word(COLOURS[self._led])
        return _t("must follow {colour}: play a {colour} card (MS-6)", colour=name)

    # --- discards -----------------------------------------------------------------------

    def _discard(self, card: int) -> None:
        seat = self._to_act
        self._hands[seat].remove(card)
        pile = self._discards[seat]
        pile.append(card)
        self._moves.append(_DISCARD_TEXT[card])
        self._seats.append(seat)
        self._own_seen[seat] |= 1 << card
        if len(pile) % 2 == 0:
            nxt = (seat + 1) % self._n
            if nxt == self.forehand:
                self._phase = PLAY
                self._to_act = self._leader
                self._event_log.append(phase_event(len(self._moves), "play", self._leader))
            else:
                self._to_act = nxt

    # --- tricks -------------------------------------------------------------------------

    def _play_card(self, card: int) -> None:
        seat = self._to_act
        self._hands[seat].remove(card)
        trick = self._trick
        colour = card >> 4
        if trick:
            if colour != self._led:
                self._voids[seat] |= 1 << self._led
        else:
            self._led = colour
            self._leader = seat
        trick.append((seat, card))
        self._moves.append(CARD_TEXT[card])
        self._seats.append(seat)
        self._seen |= 1 << card
        if card & 15 == MOSQUITO:
            self._pending = True
        elif len(trick) < self._n:  # _advance's common case written in: the next seat
            self._to_act = (seat + 1) % self._n
        else:
            self._advance(seat)

    def _name_trump(self, colour: int) -> None:
        seat = self._to_act
        self._trump = colour
        self._pending = False
        self._moves.append(_TRUMP_MOVES[colour])
        self._seats.append(seat)
        self._event_log.append(trump_event(len(self._moves), COLOURS[colour], NO_CARD, seat))
        self._advance(seat)

    def _advance(self, seat: int) -> None:
        n = self._n
        if len(self._trick) < n:
            self._to_act = (seat + 1) % n
            return
        trick = self._trick
        winner = trick_winner(trick, self._led, self._trump)[0]
        self._tricks[winner] += 1
        pile = self._piles[winner]
        for _, c in trick:
            pile.append(c)
            if c & 15 == MOSQUITO:
                self._mosq[winner] += 1
        self._last_trick = (winner, trick)
        self._event_log.append(trick_event(len(self._moves), winner, trick))
        self._trick = []
        self._led = NO_COLOUR
        self._leader = winner
        self._to_act = winner
        if self._hands[winner]:
            return
        if self._deal + 1 < self._this_game.deals:
            self._deal = 1
            self._deal_cards(winner)
            return
        self._start_scoring()

    # --- scoring ------------------------------------------------------------------------

    def _doubler(self) -> int:
        """The seat with strictly the fewest tricks, or ``NO_SEAT`` (MS-10)."""
        return _strict(self._tricks, min(self._tricks))

    def _dropper(self) -> int:
        """The seat with strictly the most mosquitoes (at least one), or ``NO_SEAT`` (MS-10)."""
        most = max(self._mosq)
        return _strict(self._mosq, most) if most > 0 else NO_SEAT

    def _start_scoring(self) -> None:
        self._phase = SCORE
        doubler = self._doubler()
        first = doubler if doubler >= 0 else self._dropper()
        self._event_log.append(phase_event(len(self._moves), "score", first))
        if doubler >= 0:
            self._to_act = doubler
            return
        dropper = self._dropper()
        if dropper >= 0:
            self._to_act = dropper
            return
        self._finish_round()

    def _choose(self, double: bool, colour: int) -> None:
        seat = self._to_act
        self._moves.append((_DOUBLE_MOVES if double else _DROP_MOVES)[colour])
        self._seats.append(seat)
        if double:
            self._doubled = colour
            dropper = self._dropper()
            if dropper >= 0 and self._this_game.colours > 1:  # another colour to drop
                self._to_act = dropper
                return
        else:
            self._dropped = colour
        self._finish_round()

    def _finish_round(self) -> None:
        scores = [score_pile(p, self._doubled, self._dropped) for p in self._piles]
        for s in range(self._n):
            self._totals[s] += scores[s]
        self._sheet.append(
            {
                "round": self._round,
                "dealer": self.dealer,
                "tricks": list(self._tricks),
                "mosquitoes": list(self._mosq),
                "doubled": _colour_or_none(self._doubled),
                "dropped": _colour_or_none(self._dropped),
                "scores": scores,
            }
        )
        t = len(self._moves)
        self._event_log.append(round_event(t, self._round, scores, self._totals[:]))
        if self._round + 1 >= self._this_game.rounds:
            self._phase = OVER
            self._to_act = NO_SEAT
            self._event_log.append(over_event(t))
            return
        self._round += 1
        self._start_round()

    # --- views --------------------------------------------------------------------------

    def take_history(self, parent: State) -> None:
        """Take over ``parent``'s built history (:func:`tikki.events.hand_on`)."""
        if isinstance(parent, MueckenstichState):
            hand_on(parent, self, len(parent._moves), len(self._moves))

    def history(self, seat: Any) -> list[JSON]:
        """Every move with its seat and events; another seat's discard reads ``discard ?``."""
        return history_of(self, seat, len(self._moves), CARD_TEXT)

    def _owner(self, i: int) -> int:
        """The seat for which move ``i`` reads otherwise: its mover's own discard."""
        return self._seats[i] if self._moves[i][:2] == "di" else -1

    def _entry(self, i: int, seat: int | None) -> JSON:
        """The history entry of move ``i`` as ``seat`` sees it, before its events."""
        s, move = self._seats[i], self._moves[i]
        return {"seat": s, "move": "discard ?" if s != seat and move[:2] == "di" else move}

    LAZY_VIEW_KEYS: ClassVar[frozenset[str]] = frozenset(
        (
            "leader",
            "hand_sizes",
            "discards",
            "discard_counts",
            "trick",
            "led",
            "trump",
            "naming_trump",
            "voids",
            "tricks",
            "mosquitoes",
            "piles",
            "last_trick",
            "doubled",
            "dropped",
            "scoring_choice",
            "sheet",
            "round_scores",
            "scores",
            "history",
        )
    )

    def view(self, seat: Any) -> JSON:
        """What ``seat`` may know (``None``: the public view).

        The parts that change only when an event is emitted (tricks, mosquitoes, piles,
        the last trick, the score sheet) are built once per event (:meth:`_parts`), the
        trick's cards once per card and the voids once per change (:meth:`_memo`), and
        shared between successive views, as the history's entries are: read a view,
        never change it.  All but the game, the round, the seat, its hand and legal moves
        are built when first read (:class:`tikki.views.LazyView`).
        """
        if seat is not None and (type(seat) is not int or not 0 <= seat < self._n):
            self._check_seat(seat)
        split = self._view_split  # _known_parts(), its common case written out
        known = split[1] if split and split[0] == len(self._event_log) else self._known_parts()
        view = known.copy()  # filled in place: one copy, no keywords
        to_act = None if self._phase == OVER else self._to_act
        view["seat"] = seat
        view["to_act"] = to_act
        # a comprehension (a tuple indexed by an int) is faster than map over its __getitem__
        view["hand"] = [CARD_TEXT[c] for c in self._hands[seat]] if seat is not None else []
        if seat is not None and seat == to_act:
            legal = self._legal  # legal_moves(), written out
            if legal is None:
                legal = self._legal = self._generate()
            view["legal_moves"] = legal[:]
        else:
            view["legal_moves"] = []
        moves = len(self._moves)
        lazy = _NEW_VIEW(LazyView)  # _lazy_view(), written out: a view before every move
        _FILL_VIEW(lazy, view)
        lazy._lazy = (
            self._view_value,
            seat,
            moves,
            _ORDER or _view_order(self),
        )
        if self.seed is None or self._sampled_past is not None:
            lazy.complete()
        return lazy

    def _view_part(self, seat: int | None, key: str) -> Any:
        """A lazy key of :meth:`view` (:attr:`LAZY_VIEW_KEYS`), the state as it stands."""
        if key == "history":
            return history_of(self, seat, len(self._moves), CARD_TEXT)
        if key == "trick":
            memo = self._memo()
            trick, made = self._trick, memo[1]
            if memo[0] is not trick or len(made) > len(trick):
                memo[0] = trick
                made = memo[1] = []
            for k in range(len(made), len(trick)):
                s, c = trick[k]
                made.append({"seat": s, "card": CARD_TEXT[c]})
            return made[:]
        if key == "hand_sizes":
            return list(map(len, self._hands))
        if key == "discards":
            if seat is None:
                return []
            discards = self._discards[seat]
            return list(map(_TEXT_OF, sorted(discards))) if discards else []
        if key == "discard_counts":
            return list(map(len, self._discards))
        if key == "voids":
            memo = self._memo()
            if memo[2] != self._voids:
                memo[2] = self._voids[:]
                memo[3] = [list(_VOID_TEXTS[v]) for v in self._voids]
            return memo[3][:]
        if key == "scoring_choice":
            return None if self._phase != SCORE else self._scoring_choice(seat)
        if key == "leader":
            return self._leader
        if key == "led":
            return _COLOUR_OR_NONE[self._led]
        if key == "trump":
            return _COLOUR_OR_NONE[self._trump]
        if key == "naming_trump":
            return self._pending
        if key == "doubled":
            return _COLOUR_OR_NONE[self._doubled]
        if key == "dropped":
            return _COLOUR_OR_NONE[self._dropped]
        return super()._view_part(seat, key)

    def _moves_played(self) -> int:
        """How many moves were played."""
        return len(self._moves)

    def _view_whole(self, seat: int | None) -> JSON:
        """The whole view of ``seat``, its lazy parts built (for a view read whole)."""
        whole = self._shared_parts().copy()
        part = self._view_part
        whole["leader"] = self._leader
        whole["hand_sizes"] = list(map(len, self._hands))
        whole["discards"] = part(seat, "discards")
        whole["discard_counts"] = list(map(len, self._discards))
        whole["trick"] = part(seat, "trick")
        whole["led"] = _COLOUR_OR_NONE[self._led]
        whole["trump"] = _COLOUR_OR_NONE[self._trump]
        whole["naming_trump"] = self._pending
        whole["voids"] = part(seat, "voids")
        whole["doubled"] = _COLOUR_OR_NONE[self._doubled]
        whole["dropped"] = _COLOUR_OR_NONE[self._dropped]
        whole["scoring_choice"] = None if self._phase != SCORE else self._scoring_choice(seat)
        whole["history"] = history_of(self, seat, len(self._moves), CARD_TEXT)
        return whole

    def _split_view(
        self, events: int, last: tuple[int, JSON, JSON | None] | None
    ) -> tuple[int, JSON, JSON | None]:
        """The view's known parts after ``events`` events (:meth:`_parts`' keys that are
        not lazy, in their order), built without the lazy ones: ``last``'s own where they
        did not change (most events change none: a card played, a trick won)."""
        phase, stock_size = PHASE_NAMES[self._phase], len(self._stock)
        if last is not None:
            was = last[1]
            if (
                was["stock_size"] == stock_size
                and was["deal"] == self._deal
                and was["round"] == self._round
                and was["phase"] == phase
            ):
                return (events, was, None)
        n, rounds = self._n, self._this_game
        known: JSON = {
            "game": self.game.name,
            "players": n,
            "options": self.game.options if last is None else last[1]["options"],
            "seat": None,
            "phase": phase,
            "to_act": None,
            "hand": None,
            "legal_moves": None,
            "round": self._round,
            "rounds": rounds.rounds,
            "deal": self._deal,
            "deals": rounds.deals,
            "dealer": (n - 1 + self._round) % n,
            "forehand": self._round % n,
            "stock_size": stock_size,
        }
        return (events, known, None)

    def _memo(self) -> list[Any]:
        """What successive views share besides :meth:`_parts`: the trick it was built
        for and its cards' JSON, the voids and their JSON (read them, never change them)."""
        memo = self._view_memo
        if memo is None:
            memo = self._view_memo = [None, [], None, []]
        return memo

    def _parts(self) -> JSON:
        """The view as it stands after ``len(_event_log)`` events, every key in its place.

        What changes only with an event is built here once: a deal (its draws), the
        phase, tricks and mosquitoes won, piles and the last trick (a ``trick`` event),
        the score sheet and totals (a ``round`` event).  :meth:`view` sets the keys that
        change with any move.  What the last parts built and still holds is shared with
        them: the options, a pile that did not grow in the same round (a pile only grows
        in a round), the sheet and the scores while the sheet did not grow.
        """
        n = self._n
        last = self._last_trick
        cached = self._view_cache
        prev = None if cached is None else cached[1]
        if prev is not None and len(prev["sheet"]) == len(self._sheet):
            sheet, round_scores, scores = prev["sheet"], prev["round_scores"], prev["scores"]
        else:
            sheet = [
                dict(
                    e,
                    tricks=list(e["tricks"]),
                    mosquitoes=list(e["mosquitoes"]),
                    scores=list(e["scores"]),
                )
                for e in self._sheet
            ]
            round_scores = [list(e["scores"]) for e in sheet]
            scores = list(self._totals)
        if prev is None or prev["round"] != self._round:
            piles = [_texts(sorted(p)) for p in self._piles]
        else:
            before = prev["piles"]
            piles = [
                before[s] if len(p) == len(before[s]) else _texts(sorted(p))
                for s, p in enumerate(self._piles)
            ]
        return {
            "game": self.game.name,
            "players": n,
            "options": self.game.options if prev is None else prev["options"],
            "seat": None,
            "phase": PHASE_NAMES[self._phase],
            "to_act": None,
            "hand": None,
            "legal_moves": None,
            "round": self._round,
            "rounds": self._this_game.rounds,
            "deal": self._deal,
            "deals": self._this_game.deals,
            "dealer": (n - 1 + self._round) % n,
            "forehand": self._round % n,
            "leader": None,
            "hand_sizes": None,
            "discards": None,
            "discard_counts": None,
            "stock_size": len(self._stock),
            "trick": None,
            "led": None,
            "trump": None,
            "naming_trump": None,
            "voids": None,
            "tricks": list(self._tricks),
            "mosquitoes": list(self._mosq),
            "piles": piles,
            "last_trick": None
            if last is None
            else {
                "winner": last[0],
                "cards": [{"seat": s, "card": CARD_TEXT[c]} for s, c in last[1]],
            },
            "doubled": None,
            "dropped": None,
            "scoring_choice": None,
            "sheet": sheet,
            "round_scores": round_scores,
            "scores": scores,
            "history": None,
        }

    def _scoring_choice(self, seat: int | None) -> JSON | None:
        """The double or drop being chosen (MS-10), or ``None``: its ``verb``, the choosing
        ``seat``, and for a seat's own view its ``scores``: what each colour still open would
        make ``seat``'s won cards score this round (``score_pile``, the round's scoring;
        while the double is chosen, without a drop)."""
        if self._phase != SCORE or self._to_act < 0:
            return None
        double = self._doubled < 0 and self._to_act == self._doubler()
        scores = None
        if seat is not None:
            pile = self._piles[seat]
            scores = {
                COLOURS[c]: score_pile(pile, c, NO_COLOUR)
                if double
                else score_pile(pile, self._doubled, c)
                for c in range(self._this_game.colours)
                if c != self._doubled
            }
        return {"verb": "double" if double else "drop", "seat": self._to_act, "scores": scores}

    def reveal(self) -> JSON:
        """Everything: every card's place this round (``zones``; the stock in sorted order
        once no later deal of the round uses it) and what each seat cannot see.

        ``hidden[s]`` lists the texts of the cards hidden from seat ``s`` that it has no
        other way of naming: identical cards are interchangeable (C-4), so a text with a
        copy in the seat's hand or anywhere in its history is not a secret.
        """
        n = self._n
        zones: dict[str, list[str]] = {}
        for s in range(n):
            zones[f"hand {s}"] = _texts(self._hands[s])
            zones[f"discards {s}"] = _texts(self._discards[s])
            zones[f"pile {s}"] = _texts(self._piles[s])
        zones["trick"] = [CARD_TEXT[c] for _, c in self._trick]
        stock = _texts(self._stock)  # no later deal: the unused cards are a set
        zones["stock"] = stock if self._deal + 1 < self._this_game.deals else sorted(stock)
        hidden: dict[str, list[str]] = {}
        for s in range(n):
            secret = set(self._stock)
            for o in range(n):
                if o != s:
                    secret.update(self._hands[o])
                    secret.update(self._discards[o])
            mine = set(self._hands[s])
            seen = self._seen | self._own_seen[s]
            hidden[str(s)] = sorted(
                [CARD_TEXT[c] for c in secret if c not in mine and not seen >> c & 1]
            )
        return {
            "phase": self.phase,
            "to_act": self.current_player,
            "round": self._round,
            "deal": self._deal,
            "zones": zones,
            "hidden": hidden,
            "seed": self.seed,
            "deal_order": _texts(self._order),
            "trump": _colour_or_none(self._trump),
            "scores": list(self._totals),
            "sheet": self._sheet,
            "moves": self.moves,
        }


_ORDER: tuple[str, ...] = ()
"""Every key of a Mückenstich view in its order (:meth:`TableState._view_order`), once known."""


def _view_order(state: MueckenstichState) -> tuple[str, ...]:
    """:data:`_ORDER`, worked out from ``state`` the first time."""
    global _ORDER
    _ORDER = state._view_order()
    return _ORDER


_VOID_TEXTS: Final[tuple[tuple[str, ...], ...]] = tuple(
    tuple(COLOURS[k] for k in range(4) if v >> k & 1) for v in range(16)
)
"""The colours of each 4-bit void mask, as the view's ``voids`` lists them."""
_COLOUR_OR_NONE: Final[tuple[str | None, ...]] = (*COLOURS, None)
"""A colour's letter by its number, ``None`` for ``NO_COLOUR`` (``-1``, the last)."""
_TEXT_OF = CARD_TEXT.__getitem__
"""A card's text by its int (``map`` over a hand)."""
_DISCARD_TEXT: Final[tuple[str, ...]] = tuple(f"discard {t}" if t else "" for t in CARD_TEXT)
_DISCARD_CARD: Final[dict[str, int]] = {f"discard {t}": c for t, c in TEXT_CARD.items()}


def trick_winner(trick: Sequence[tuple[int, int]], led: int, trump: int) -> tuple[int, int]:
    """The winning ``(seat, card)`` of ``trick``, ``(seat, card)`` pairs in play order
    (MS-7, MS-9): the highest trump present, else the highest card of the colour led; of
    identical cards the later one.  ``led`` and ``trump`` are colour indexes (-1: none)."""
    colour = led
    if trump >= 0 and trump != led:
        for _, c in trick:
            if c >> 4 == trump:
                colour = trump
                break
    best_seat, best = NO_SEAT, -1
    for s, c in trick:
        if c >> 4 == colour and c >= best:
            best_seat, best = s, c
    return best_seat, best


def _strict(values: Sequence[int], target: int) -> int:
    found = NO_SEAT
    for s, v in enumerate(values):
        if v == target:
            if found >= 0:
                return NO_SEAT
            found = s
    return found


def _colour_or_none(colour: int) -> str | None:
    return COLOURS[colour] if colour >= 0 else None


# --- determinizer -------------------------------------------------------------------------


def _template(
    game: Mueckenstich, view: Mapping[str, Any], seat: int
) -> tuple[MueckenstichState, Dealer]:
    """A state with everything public from ``view`` and the seat's own cards, and the
    dealer of the hidden cards (other hands, other discards, the undealt cards)."""
    state, pool, places = hidden_places(game, view, seat)
    return state, Dealer(pool, places)


def hidden_places(
    game: Mueckenstich, view: Mapping[str, Any], seat: int
) -> tuple[MueckenstichState, list[int], list[tuple[int, int]]]:
    """The determinizer's parts: a state with everything public from ``view`` and the
    seat's own cards, the pool of cards hidden from the seat, and the places they go, as
    ``(size, allowed colour mask)``: each other seat's hand, then its discards, in seat
    order, and last the undealt cards (:func:`with_hidden` lays a deal of them in)."""
    n = game.players
    if len(view["hand_sizes"]) != n:
        raise RulesError("the view does not match the game's number of players")
    state = MueckenstichState()
    state._setup(game, None, None)
    ints = partial(ints_of, table=TEXT_CARD)
    state._round = view["round"]
    state._deal = view["deal"]
    state._phase = PHASE_NAMES.index(view["phase"])
    state._to_act = NO_SEAT if view["to_act"] is None else view["to_act"]
    state._leader = view["leader"]
    state._trick = [(t["seat"], TEXT_CARD[t["card"]]) for t in view["trick"]]
    state._led = NO_COLOUR if view["led"] is None else COLOURS.index(view["led"])
    state._trump = NO_COLOUR if view["trump"] is None else COLOURS.index(view["trump"])
    state._pending = bool(view["naming_trump"])
    state._voids = [sum(1 << COLOURS.index(k) for k in v) for v in view["voids"]]
    state._tricks = list(view["tricks"])
    state._mosq = list(view["mosquitoes"])
    state._piles = [ints(p) for p in view["piles"]]
    last = view["last_trick"]
    if last is not None:
        state._last_trick = (
            last["winner"],
            [(t["seat"], TEXT_CARD[t["card"]]) for t in last["cards"]],
        )
    state._doubled = NO_COLOUR if view["doubled"] is None else COLOURS.index(view["doubled"])
    state._dropped = NO_COLOUR if view["dropped"] is None else COLOURS.index(view["dropped"])
    state._sheet = [
        dict(
            e, tricks=list(e["tricks"]), mosquitoes=list(e["mosquitoes"]), scores=list(e["scores"])
        )
        for e in view["sheet"]
    ]
    state._totals = list(view["scores"])
    state._sampled_past = past_of(view)
    state._seats = [h["seat"] for h in view["history"]]
    state._moves = [h["move"] for h in view["history"]]
    for s, move in zip(state._seats, state._moves, strict=True):
        card = TEXT_CARD.get(move.rpartition(" ")[2], -1)
        if card >= 0:
            if move[:2] == "di":
                state._own_seen[s] |= 1 << card
            else:
                state._seen |= 1 << card
    own_hand = ints(view["hand"])
    own_discards = ints(view["discards"])
    state._hands[seat] = sorted(own_hand)
    state._discards[seat] = own_discards
    pool = list(game.cards)
    for known in (own_hand, own_discards, *state._piles, [c for _, c in state._trick]):
        for c in known:
            try:
                pool.remove(c)
            except ValueError:
                raise RulesError(f"the view holds {CARD_TEXT[c]} too often") from None
    places: list[tuple[int, int]] = []
    for o in range(n):
        if o != seat:
            places.append((view["hand_sizes"][o], ALL_COLOURS & ~state._voids[o]))
            places.append((view["discard_counts"][o], ALL_COLOURS))
    places.append((view["stock_size"], ALL_COLOURS))
    if sum(size for size, _ in places) != len(pool):
        raise RulesError("the view's card counts do not add up to the deck")
    return state, pool, places


def with_hidden(
    template: MueckenstichState, seat: int, dealt: Sequence[Sequence[int]]
) -> MueckenstichState:
    """A copy of ``template`` (from :func:`hidden_places`) with ``dealt``, the hidden pool
    laid into its places in their order: the other seats' hands and discards, the undealt
    cards (the determinizer's ``sample`` does the same with a random deal)."""
    state = template.clone()
    hands, discards = state._hands, state._discards
    k = 0
    for o in range(state._n):
        if o != seat:
            hands[o] = sorted(dealt[k])
            discards[o] = list(dealt[k + 1])
            k += 2
    state._stock = list(dealt[k])
    return state


def _sampler(
    game: Mueckenstich, view: Mapping[str, Any], seat: int
) -> Callable[[random.Random], MueckenstichState]:
    template, dealer = _template(game, view, seat)
    others = [o for o in range(game.players) if o != seat]

    def sample(rng: random.Random) -> MueckenstichState:
        state = template.clone()
        state._base = rng.getrandbits(64)
        dealt = dealer.deal(rng)
        hands, discards = state._hands, state._discards
        k = 0
        for o in others:
            cards = dealt[k]
            cards.sort()
            hands[o] = cards
            discards[o] = dealt[k + 1]
            k += 2
        state._stock = dealt[k]
        return state

    return sample


register(Mueckenstich)
