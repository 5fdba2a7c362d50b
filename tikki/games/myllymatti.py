"""Myllymatti, with its Koira and runs variants (RULINGS C-1..C-6, MM-1..MM-18).

Design notes
------------
* Cards are ints (:mod:`tikki.cards`); move texts are built from the lookup tables and
  parsed back through them, so the text API costs little over the int core.
* Phase 1 (``collect``) is a sequence of *tricks*: a duel of two players (MM-2) or, with
  ``duel=False``, every player with cards (MM-18).  A trick is a list of ``(seat, card,
  from_stock)`` entries; the current *round* (the first play-through or a kina round) is
  ``_round`` (its players, in play order) and ``_round_played`` (how many have played in it).
* Phase 2 (``shed``) keeps the trick as a list of plays ``[seat, cards]`` (a run is one
  play, MM-17) and the number of plays at which it falls (MM-15).
* ``legal_moves`` is the one source of legality: it is computed once per position and
  cached; ``play`` accepts exactly its texts (after normalising forgiving input) and
  explains a refusal from the same position.
* Hidden information: in phase 1 the other hands, the stock and the set-aside card are
  hidden; everything played is public (C-4), so piles are public.  From phase 2 on every
  card is public (MM-10).
"""

from __future__ import annotations

import functools
import random
from bisect import insort
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Final

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
from tikki.core.game import _FILL_VIEW, _NEW_VIEW
from tikki.events import (
    NO_CARD,
    Book,
    Event,
    Past,
    draw_event,
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
from tikki.games.shedding import (
    FrenchGame,
    SheddingState,
    holders,
    is_run,
    next_with_cards,
    research_options,
)
from tikki.i18n import _ as _t
from tikki.rules import rules_text
from tikki.views import LazyView, SheddingView

COLLECT: Final = 0
SHED: Final = 1
OVER: Final = 2
PHASE_NAMES: Final = ("collect", "shed", "over")
TAKE_MODES: Final = ("top", "bottom", "all")
MINI: Mapping[str, Any] = {"ranks": 2, "suits": 2, "hand": 1, "max_moves": 30}
"""The ``mini`` preset: two suits of two ranks, one card each (for exact methods, CFR)."""
MEDIUM: Mapping[str, Any] = {"ranks": 5, "suits": 1, "hand": 2, "max_moves": 40}
"""The ``medium`` research rung: one suit of five ranks (ten to ace), two cards each,
a stock of one; tens of thousands of histories, several deals per information set."""

RULES_TEXT = rules_text("myllymatti", "en")
"""The English rules, ``tikki/rules/myllymatti.en.md`` (all languages: ``tikki.rules``)."""


def _beats(card: int, top: int, trump: int) -> bool:
    """Whether ``card`` beats ``top`` with ``trump`` the trump suit (-1: trumps do not)."""
    if SUIT_OF[card] == SUIT_OF[top]:
        return RANK_OF[card] > RANK_OF[top]
    return SUIT_OF[card] == trump


_BEATS: Final[tuple[tuple[tuple[bool, ...], ...], ...]] = tuple(
    tuple(tuple(_beats(c, top, trump) for c in range(52)) for top in range(52))
    for trump in (0, 1, 2, 3, -1)
)
"""``_BEATS[trump][top][card]``: the beating rule of MM-13 as a table (index -1: no trump);
tuples, which both builds index fast (bytes are indexed by a generic call when compiled)."""

_PHASE1_ORDER: Final = sorted(range(52), key=lambda c: (RANK_OF[c], SUIT_OF[c]))
_PHASE1_POS: Final = {c: i for i, c in enumerate(_PHASE1_ORDER)}
_P1_KEY: Final[tuple[int, ...]] = tuple(_PHASE1_POS[c] for c in range(52))
"""Each card's place in phase 1's order (rank, then suit)."""
_P1_TEXT: Final[tuple[str, ...]] = tuple(CARD_TEXT[c] for c in _PHASE1_ORDER)
"""The card texts in phase 1's order: ``_P1_TEXT[_P1_KEY[c]]`` is ``c``'s text."""


class MyllymattiView(SheddingView):
    """A seat's view of Myllymatti (MM-1..MM-18)."""

    aside_card: str | None
    """The set-aside last stock card, once it is shown (MM-6, MM-10)."""
    aside_owner: int | None


class Myllymatti(FrenchGame):
    """Myllymatti for 2–4 players; ``variant="koira"`` is the Koira preset (MM-18)."""

    name = "myllymatti"
    title = "Myllymatti"
    min_players = 2
    max_players = 4
    default_players = 3
    option_specs = (
        OptionSpec(
            "take",
            "top",
            "what a player who does not beat picks up: the last card played (top), the "
            "bottom card (bottom, koira) or the whole trick (all) (MM-14)",
            choices=TAKE_MODES,
        ),
        OptionSpec("runs", False, "phase-2 runs of consecutive cards of one suit (MM-17)"),
        OptionSpec(
            "duel",
            True,
            "phase-1 tricks are duels of two players; off: everyone plays (koira, MM-18)",
        ),
        OptionSpec(
            "trump_requires_void",
            False,
            "a trump beats a non-trump only when holding none of its suit (MM-13)",
        ),
        max_moves_option(),
        *research_options("MM-1"),
    )
    variants: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "koira": {"duel": False, "take": "bottom", "runs": True},
        "mini": MINI,
        "medium": MEDIUM,
    }
    rules_text = RULES_TEXT
    summary = (
        "2–4 players, about 10 minutes. A shedding game in two phases: collect cards in "
        "duels, then get rid of them; the last player holding cards loses."
    )
    view_type = MyllymattiView
    bots = BotParts(
        tactics="tikki.games.myllymatti_tactics",
        endgame_phase="shed",  # every hand is public there (MM-10): solved exactly when short
    )
    featured = True  # the lobby preselects it
    variant_titles: ClassVar[Mapping[str, str]] = {"koira": "Koira"}
    interop = InteropParts(encoder="tikki.interop.encoders.myllymatti:MyllymattiEncoder")
    web = WebParts(selecting_phases=frozenset({"shed"}))  # sequences, runs: selected
    tie_word = "Kina"  # N_("Kina")
    phase_goals: ClassVar[Mapping[str, str]] = {
        "collect": "Win few duels and good cards: your pile is your phase-2 hand.",
        "shed": "Get rid of your cards: beat the top card or pick up. The last player "
        "holding cards loses.",
    }

    def chance_only_at_deal(self) -> bool:
        """Always: the stock is part of the first deal."""
        return True

    harness = HarnessParts(
        conformance=(
            (2, {}),
            (3, {}),
            (4, {}),
            (2, {"variant": "koira"}),
            (3, {"variant": "koira"}),
            (4, {"variant": "koira"}),
            (3, {"runs": True}),
            (3, {"take": "bottom"}),
            (3, {"take": "all"}),
            (4, {"take": "all", "runs": True}),
            (3, {"trump_requires_void": True, "runs": True}),
            (4, {"duel": False}),
            (3, {"max_moves": 60}),
        ),
        free_hand_phases=frozenset({"shed"}),  # a taken trick joins the taker's hand
    )

    def move_grammar(self) -> MoveGrammar:
        """Cards, runs with option ``runs`` (MM-17), ``stock`` and ``take``."""
        return MoveGrammar(max_run=13 if self.option("runs") else 0, words=("stock", "take"))

    def _new_state(self, seed: int, deck: list[str] | None) -> MyllymattiState:
        if deck is None:
            order = list(self.cards)
            shuffle(random.Random(seed), order)
        else:
            order = [TEXT_CARD[t] for t in deck]
        state = MyllymattiState()
        state._setup(self, seed, deck)
        state._deal(order)
        return state

    def sample_state(self, view: Mapping[str, Any], rng: random.Random) -> MyllymattiState:
        """A full state consistent with ``view``: unseen cards dealt at random (phase 1)."""
        seat = self.check_view(view)
        return _from_view(self, view, seat, rng)

    def sampler(self, view: Mapping[str, Any]) -> Callable[[random.Random], MyllymattiState]:
        """Draw states like :meth:`sample_state`, reading the view only once."""
        seat = self.check_view(view)
        template = _from_view(self, view, seat, random.Random(0))
        if view["hands"] is not None:
            return lambda rng: template.clone()
        others = [s for s in range(self.players) if s != seat]
        unseen = sorted(
            [c for s in others for c in template._hands[s]]
            + template._stock
            + ([template._aside] if template._aside >= 0 else [])
        )
        sizes = [(s, len(template._hands[s])) for s in others]
        has_aside = template._aside >= 0

        def sample(rng: random.Random) -> MyllymattiState:
            state = template.clone()
            cards = unseen[:]
            rng.shuffle(cards)
            hands = state._hands
            for s, size in sizes:
                hands[s] = cards[-size:] if size else []
                del cards[len(cards) - size :]
            if has_aside:
                state._aside = cards.pop()
            state._stock = cards
            return state

        return sample


class MyllymattiState(SheddingState):
    """One game of Myllymatti; see the module notes for the representation.

    Legal moves: phase 1 cards by rank then suit, then ``stock``; phase 2 cards by suit
    then rank, then runs, then ``take``.
    """

    PHASE_NAMES = PHASE_NAMES

    __slots__ = (
        "_aside",
        "_aside_owner",
        "_duel",
        "_event_log",
        "_fallen",
        "_hand_text_cache",
        "_hands",
        "_hist",
        "_history_book",
        "_last_winner",
        "_legal",
        "_loser",
        "_max_moves",
        "_n",
        "_order",
        "_out",
        "_phase",
        "_piles",
        "_plays",
        "_round",
        "_round_played",
        "_runs",
        "_sampled_past",
        "_stock",
        "_take",
        "_to_act",
        "_trick",
        "_trick_leader",
        "_trick_size",
        "_trump",
        "_trump_requires_void",
        "_view_cache",
        "abandoned",
        "deck",
        "game",
        "seed",
    )

    def __init__(self) -> None:
        """An empty state: :meth:`_setup` (a new game) or :meth:`clone` sets every slot."""

    def _setup(self, game: Myllymatti, seed: int | None, deck: list[str] | None) -> None:
        self.game = game
        self.seed = seed
        self.deck = deck
        n = game.players
        self._n = n
        opts = game.options
        self._take = TAKE_MODES.index(opts["take"])
        self._runs: bool = opts["runs"]
        self._duel: bool = opts["duel"]
        self._trump_requires_void: bool = opts["trump_requires_void"]
        self._max_moves: int = opts["max_moves"]
        self._hands: list[list[int]] = [[] for _ in range(n)]
        self._piles: list[list[int]] = [[] for _ in range(n)]
        self._stock: list[int] = []  # reversed: the next card is the last item
        self._aside = -1
        self._aside_owner = -1
        self._phase = COLLECT
        self._to_act = -1
        self._trick: list[tuple[int, int, bool]] = []
        self._trick_leader = -1
        self._round: list[int] = []
        self._round_played = 0
        self._last_winner = -1
        self._plays: list[list[Any]] = []
        self._trick_size = 0
        self._trump = -1
        self._fallen: list[int] = []
        self._out: list[int] = []
        self._loser = -1
        self.abandoned = False
        self._hist: list[tuple[int, str, int, tuple[int, ...]]] = []
        self._event_log: list[Event] = []
        self._sampled_past: Past | None = None
        self._history_book: Book | None = None
        self._view_cache: tuple[int, JSON] | None = None
        self._hand_text_cache: list[list[Any]] | None = None
        self._legal: list[str] | None = None
        self._order: tuple[int, ...] = ()

    # --- set-up -------------------------------------------------------------------------

    def _deal(self, order: list[int]) -> None:
        n = self._n
        self._order = tuple(order)
        dealt = self.game.option("hand") * n
        for i in range(dealt):
            self._hands[i % n].append(order[i])
        self._stock = order[dealt:][::-1]
        self._start_trick(0)

    # --- the contract -------------------------------------------------------------------

    def _collect_trick_cards(self) -> list[int]:
        """The cards of phase 1's trick on the table, in play order."""
        return [c for _, c, _ in self._trick]

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
        :meth:`TableState.play` with :meth:`_apply` written in (every move of a playout
        through the text API)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        text: str = move if move in legal else self._canonical(move, legal)
        self._legal = None
        if self._phase == COLLECT:
            self._collect(-1 if text == "stock" else TEXT_CARD[text])
        elif text == "take":
            self._take_move()
        elif len(text) == 2:
            self._shed([TEXT_CARD[text]], text)
        else:
            self._shed(list(_RUN_CARDS[text]), text)
        if self._phase != OVER and len(self._hist) >= self._max_moves:
            self._abandon()

    def _apply(self, move: str) -> None:
        """Play the legal canonical ``move``: :meth:`play` with ``move`` its only legal
        move (``play`` applies moves itself)."""
        self._legal = [move]
        self.play(move)

    def clone(self) -> MyllymattiState:
        """An independent copy: lists copied, caches of views left behind, the rest
        shared (every slot is set: ``tests/test_clone.py`` checks that none is missed)."""
        new = MyllymattiState()
        new._aside = self._aside
        new._aside_owner = self._aside_owner
        new._history_book = None
        new._duel = self._duel
        new._event_log = self._event_log[:]
        new._fallen = self._fallen[:]
        new._hands = [h[:] for h in self._hands]
        new._hand_text_cache = None
        new._hist = self._hist[:]
        new._last_winner = self._last_winner
        new._legal = self._legal
        new._loser = self._loser
        new._max_moves = self._max_moves
        new._n = self._n
        new._order = self._order
        new._out = self._out[:]
        new._sampled_past = self._sampled_past
        new._phase = self._phase
        new._piles = [p[:] for p in self._piles]
        new._plays = [[s, cs[:]] for s, cs in self._plays]
        new._round = self._round[:]
        new._round_played = self._round_played
        new._runs = self._runs
        new._stock = self._stock[:]
        new._take = self._take
        new._to_act = self._to_act
        new._trick = self._trick[:]
        new._trick_leader = self._trick_leader
        new._trick_size = self._trick_size
        new._trump = self._trump
        new._trump_requires_void = self._trump_requires_void
        new._view_cache = None
        new.abandoned = self.abandoned
        new.deck = self.deck
        new.game = self.game
        new.seed = self.seed
        return new

    def random_playout(self, rng: random.Random, greedy: float = 0.0, rounds: int = 0) -> None:
        """Play the game to its end quickly (the fast path of search rollouts).

        With ``greedy=0`` every move is uniform over the legal moves, the distribution of
        ``rng.choice(legal_moves())``; only the move texts are skipped while choosing.
        With probability ``greedy`` a move is instead the *cheap* one of the heuristic
        bot's rules (:mod:`tikki.games.myllymatti_tactics`), a crude but fast policy that
        makes rollouts far more realistic: in phase 1 the lowest card that loses the round
        (else uniform); in phase 2 the lowest beater, a suit card before a trump (else
        take), and the lowest non-trump card to lead.  One round: ``rounds`` changes nothing.
        """
        rules = tactics("myllymatti")
        lowest_loser, cheapest_card = rules.lowest_loser, rules.cheapest_card
        while self._phase != OVER:
            hand = self._hands[self._to_act]
            cheap = greedy > 0.0 and rng.random() < greedy
            if self._phase == COLLECT:
                loser = None
                if cheap and self._round_played:
                    loser = lowest_loser(hand, self._round_best())
                if loser is None:
                    k = len(hand) + self._may_turn_stock()
                    i = int(rng.random() * k)
                    self._collect(hand[i] if i < len(hand) else -1)
                else:
                    self._collect(loser)
            elif cheap:
                trump = self._trump
                options = self._beaters(hand) if self._plays else hand
                if options:
                    card = cheapest_card(options, trump)
                    self._shed([card], CARD_TEXT[card])
                else:
                    self._take_move()
            else:
                self._random_shed(hand, rng)
            if len(self._hist) >= self._max_moves and self._phase != OVER:
                self._abandon()
        self._legal = None

    def _random_shed(self, hand: list[int], rng: random.Random) -> None:
        leading = not self._plays
        singles = hand if leading else self._beaters(hand)
        runs = _runs(hand, singles) if self._runs and singles else []
        k = len(singles) + len(runs) + (not leading)
        i = int(rng.random() * k)
        if i < len(singles):
            card = singles[i]
            self._shed([card], CARD_TEXT[card])
        elif i < len(singles) + len(runs):
            run = runs[i - len(singles)]
            self._shed(run, "+".join([CARD_TEXT[c] for c in run]))
        else:
            self._take_move()

    # --- legality -----------------------------------------------------------------------

    def _generate(self) -> list[str]:
        if self._phase == OVER:
            return []
        hand = self._hands[self._to_act]
        if self._phase == COLLECT:
            keys = [_P1_KEY[c] for c in hand]  # sorted by a key of a tuple: no call a card
            keys.sort()
            moves = [_P1_TEXT[k] for k in keys]
            if self._may_turn_stock():
                moves.append("stock")
            return moves
        # phase 2, written in (a call a move less): a lead, or the beaters and take
        if not self._plays:
            moves = [CARD_TEXT[c] for c in hand]
            if self._runs:
                moves.extend(_run_texts(hand, hand))
            return moves
        beaters = self._beaters(hand)
        moves = [CARD_TEXT[c] for c in beaters]
        if self._runs and beaters:
            moves.extend(_run_texts(hand, beaters))
        moves.append("take")
        return moves

    def _beaters(self, hand: list[int]) -> list[int]:
        """Hand cards that beat the highest card of the top play (MM-13, MM-17)."""
        cards: list[int] = self._plays[-1][1]
        top = cards[0] if len(cards) == 1 else max(cards)  # one card: no call
        table = _BEATS[self._trump][top]
        if self._trump_requires_void and SUIT_OF[top] != self._trump:
            suit = SUIT_OF[top]
            if any(SUIT_OF[c] == suit for c in hand):
                table = _BEATS[-1][top]
        return [c for c in hand if table[c]]

    def _canonical(self, move: Any, legal: list[str]) -> str:
        """The legal move meant by forgiving input ``move``, or raise an explanation."""
        if not isinstance(move, str):
            raise illegal(move, _t("a move is a text, not {kind}", kind=type(move).__name__), legal)
        if self._phase == OVER:
            raise IllegalMove(_t("the game is over: no more moves"))
        text = "".join(move.split())
        if text.lower() in ("stock", "take") and text.isascii():
            canon = text.lower()
        else:
            parts = [normalize_french(p) for p in text.lower().split("+")] if text.isascii() else []
            if not parts or any(p is None for p in parts):
                raise illegal(
                    move,
                    _t(
                        "{move!r} is not a move: {move_forms}",
                        move=move,
                        move_forms=_move_forms(self._phase),
                    ),
                    legal,
                )
            canon = "+".join(p for p in parts if p is not None)
        if canon in legal:
            return canon
        raise illegal(move, self._why_not(canon), legal)

    def _why_not(self, move: str) -> str:
        """Why the well-formed ``move`` is not legal now."""
        seat, hand = self._to_act, self._hands[self._to_act]
        if move == "stock":
            return _t(
                "the stock has {n_stock} card(s): stock needs at least two (MM-3)",
                n_stock=len(self._stock),
            )
        if move == "take":
            if self._phase == COLLECT:
                return _t("take is a phase-2 move")
            return _t("there is nothing to take: you lead this trick")
        cards = [TEXT_CARD[t] for t in move.split("+")]
        missing = [CARD_TEXT[c] for c in cards if c not in hand]
        if missing:
            return _t("{cards} is not in seat {seat}'s hand", cards=", ".join(missing), seat=seat)
        if len(cards) > 1:
            if self._phase == COLLECT or not self._runs:
                return _t("runs are not played here (only with option runs, in phase 2)")
            if not is_run(cards):
                return _t(
                    "{move} is not a run: cards of one suit in consecutive ranks, low to high",
                    move=move,
                )
        top = max(self._plays[-1][1])
        trump = SUITS[self._trump]
        if (
            self._trump_requires_void
            and SUIT_OF[top] != self._trump
            and SUIT_OF[cards[0]] == self._trump
        ):
            return _t(
                "must beat {card} with a higher {suit}: a trump beats it only"
                " when you hold none of its suit, or take",
                card=CARD_TEXT[top],
                suit=suit_one(SUITS[SUIT_OF[top]]),
            )
        if SUIT_OF[top] == self._trump:
            return _t(
                "must beat {card}: play a higher trump ({trump}), or take",
                card=CARD_TEXT[top],
                trump=trump,
            )
        suit = suit_one(SUITS[SUIT_OF[top]])
        return _t(
            "must beat {card}: play a higher {suit} or a trump ({trump}), or take",
            card=CARD_TEXT[top],
            suit=suit,
            trump=trump,
        )

    # --- phase 1 ------------------------------------------------------------------------

    def _may_turn_stock(self) -> bool:
        """MM-3: ``stock`` turns the top card of the stock while it has at least two."""
        return len(self._stock) >= 2

    def _can_play(self, seat: int) -> bool:
        return bool(self._hands[seat]) or self._may_turn_stock()

    def _next_with_cards(self, seat: int) -> int:
        """The first seat clockwise from ``seat`` (itself included) that holds cards."""
        return next_with_cards(self._hands, seat)

    def _holders(self) -> int:
        return holders(self._hands)

    def _start_trick(self, candidate: int) -> None:
        leader = self._next_with_cards(candidate)
        self._trick_leader = leader
        self._trick = []
        if self._duel:
            self._round = [leader, self._next_with_cards((leader + 1) % self._n)]
        else:
            n = self._n
            self._round = [s for s in ((leader + k) % n for k in range(n)) if self._hands[s]]
        self._round_played = 0
        self._to_act = leader

    def _collect(self, card: int) -> None:
        """Phase-1 play of the seat to act: a hand card, or ``-1`` for `stock`."""
        seat = self._to_act
        stock = self._stock
        if card < 0:
            card = stock.pop()
            self._trick.append((seat, card, True))
            self._hist.append((seat, "stock", card, ()))
        else:
            hand = self._hands[seat]
            hand.remove(card)
            drawn: tuple[int, ...] = ()
            if len(stock) == 1:
                self._aside = stock.pop()
                self._aside_owner = seat
                self._event_log.append(last_card_event(len(self._hist) + 1, seat, NO_CARD))
            elif stock:
                drawn = (stock.pop(),)
                hand.append(drawn[0])
            self._trick.append((seat, card, False))
            self._hist.append((seat, CARD_TEXT[card], -1, drawn))  # the draw event (history)
        self._round_played += 1
        if self._round_played < len(self._round):
            self._to_act = self._round[self._round_played]
        else:
            self._end_round()

    def _round_best(self) -> int:
        """The best rank played so far in the round in progress (loops: a hot path)."""
        trick = self._trick
        best = -1
        for i in range(len(trick) - self._round_played, len(trick)):
            r = RANK_OF[trick[i][1]]
            if r > best:
                best = r
        return best

    def _end_round(self) -> None:
        trick = self._trick
        best = self._round_best()
        tied = [
            trick[i][0]
            for i in range(len(trick) - self._round_played, len(trick))
            if RANK_OF[trick[i][1]] == best
        ]
        t = len(self._hist)
        if len(tied) == 1:
            winner = tied[0]
            pile = self._piles[winner]
            for play in trick:
                pile.append(play[1])
            self._last_winner = winner
            self._event_log.append(trick_event(t, winner, self._trick))
            self._end_trick(winner)
        elif all(self._can_play(s) for s in tied):
            self._event_log.append(tie_event(t, tied))
            self._round = tied
            self._round_played = 0
            self._to_act = tied[0]
        else:
            for s, c, _ in self._trick:
                self._piles[s].append(c)
            self._event_log.append(void_tie_event(t, self._trick, "kina", tied))
            self._end_trick(self._trick_leader)

    def _end_trick(self, candidate: int) -> None:
        self._trick = []
        if self._holders() < 2:
            self._start_shedding()
        else:
            self._start_trick(candidate)

    # --- phase 2 ------------------------------------------------------------------------

    def _start_shedding(self) -> None:
        for seat in range(self._n):
            self._piles[seat].extend(self._hands[seat])
            self._hands[seat] = sorted(self._piles[seat])
            self._piles[seat] = []
        t = len(self._hist)
        if self._aside >= 0:
            insort(self._hands[self._aside_owner], self._aside)
            self._trump = SUIT_OF[self._aside]
        self._phase = SHED
        self._round = []
        self._out = [s for s in range(self._n) if not self._hands[s]]
        over = self._holders() <= 1
        start = self._last_winner if self._last_winner >= 0 else 0
        leader = -1 if over else self._next_with_cards(start)
        log = self._event_log
        log.append(phase_event(t, "shed", leader))
        if self._aside >= 0:
            log.append(trump_event(t, SUITS[self._trump], self._aside, self._aside_owner))
        log.extend(out_event(t, s, i + 1) for i, s in enumerate(self._out))
        if over:
            self._finish()
            return
        self._to_act = leader

    def _take_move(self) -> None:
        """Phase 2: the seat to act takes (MM-14)."""
        seat = self._to_act
        self._hist.append((seat, "take", -1, self._take_cards(seat)))  # the take event
        self._to_act = self._next_with_cards((seat + 1) % self._n)

    def _note_shed(self, seat: int, move: str, cards: list[int]) -> None:
        self._hist.append((seat, move, -1, ()))

    def _take_cards(self, seat: int) -> tuple[int, ...]:
        """``seat`` takes by the option (MM-14); return the cards taken."""
        plays, hand = self._plays, self._hands[seat]
        if self._take == 2:
            taken = tuple(c for _, cs in plays for c in cs)
            hand.extend(taken)  # the hand is in order: one sort (no call a card, compiled)
            hand.sort()
            plays.clear()
            return taken
        index = -1 if self._take == 0 else 0
        cards: list[int] = plays[index][1]  # typed: pop() is no generic call, compiled
        card = cards.pop() if self._take == 0 else cards.pop(0)
        hand.append(card)  # the hand is in order: a sort of one step (no call, compiled)
        hand.sort()
        if not cards:
            plays.pop(index)
        return (card,)

    # --- views --------------------------------------------------------------------------

    def _owner(self, i: int) -> int:
        """The seat for which move ``i`` reads otherwise: its mover's own phase-1 draw."""
        s, move, _, got = self._hist[i]
        return s if got and move != "take" else -1

    def _entry(self, i: int, seat: int | None) -> JSON:
        """The history entry of move ``i`` as ``seat`` sees it, before ``_event_log``'s events."""
        s, move, card, got = self._hist[i]
        entry: JSON = {"seat": s, "move": move}
        if card >= 0:
            entry["card"] = CARD_TEXT[card]
        if got:
            entry["events"] = [
                _take_event(s, got) if move == "take" else _draw_event(s, got[0], s == seat)
            ]
        return entry

    LAZY_VIEW_KEYS: ClassVar[frozenset[str]] = frozenset(
        ("hand_sizes", "piles", "hands", "trick", "last_trick", "fallen", "out_order", "history")
    )

    def view(self, seat: Any) -> JSON:
        """What ``seat`` may know (``None``: the public view).

        The parts that change only when an event is emitted (piles, fallen cards, the
        last trick, the out order, …) are built once per event (:meth:`_parts`) and
        shared between successive views, as the history's entries are: read a view,
        never change it.  The hand sizes, the piles, the hands, the tricks, the fallen
        cards, the out order and the history are built when first read
        (:class:`tikki.views.LazyView`).
        """
        if seat is not None and (type(seat) is not int or not 0 <= seat < self._n):
            self._check_seat(seat)
        split = self._view_split  # _known_parts(), its common case written out
        known = split[1] if split and split[0] == len(self._event_log) else self._known_parts()
        view = known.copy()  # filled in place: one copy, no keywords
        to_act = None if self._phase == OVER else self._to_act
        view["seat"] = seat
        view["to_act"] = to_act
        if seat is not None and seat == to_act:
            legal = self._legal  # legal_moves(), written out
            if legal is None:
                legal = self._legal = self._generate()
            view["legal_moves"] = legal[:]
            if self._phase == COLLECT or (self._trump >= 0 and not self._plays):
                # the legal moves begin with the hand's texts in the view's order (phase 1's,
                # or a lead's, in the order phase 2 keeps): their slice, no conversion
                view["hand"] = legal[: len(self._hands[seat])]
            elif self._trump >= 0:  # phase 2 keeps every hand in order (_hand_view, written out)
                view["hand"] = [CARD_TEXT[c] for c in self._hands[seat]]
            else:
                view["hand"] = self._hand_view(seat)
        else:
            view["legal_moves"] = []
            view["hand"] = [] if seat is None else self._hand_view(seat)
        view["stock_size"] = len(self._stock)
        moves = view["move_count"] = len(self._hist)
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

    def _hand_view(self, seat: int) -> list[str]:
        """The texts of ``seat``'s hand as its view lists them: by phase 1's order (rank,
        then suit) until a trump is turned, then in the order phase 2 keeps (suit, rank)."""
        if self._trump >= 0:  # phase 2 keeps every hand in order: no sort (a comprehension:
            return [CARD_TEXT[c] for c in self._hands[seat]]  # faster than map here)
        # phase 1's order: each card's place, sorted as ints, read back as text
        return [_P1_TEXT[k] for k in sorted([_P1_KEY[c] for c in self._hands[seat]])]

    def _view_part(self, seat: int | None, key: str) -> Any:
        """A lazy key of :meth:`view` (:attr:`LAZY_VIEW_KEYS`), the state as it stands."""
        if key == "history":
            return self.history(seat)
        if key == "trick":
            return self._trick_view()
        if key == "hand_sizes":
            return list(map(len, self._hands))
        if key == "hands":
            public = self._trump >= 0
            return [self._hand_texts(s, public) for s in range(self._n)] if public else None
        return super()._view_part(seat, key)

    def _view_whole(self, seat: int | None) -> JSON:
        """The whole view of ``seat``, its lazy parts built (for a view read whole)."""
        whole = self._shared_parts().copy()
        public = self._trump >= 0
        whole["hand_sizes"] = list(map(len, self._hands))
        whole["hands"] = [self._hand_texts(s, public) for s in range(self._n)] if public else None
        whole["trick"] = self._trick_view()
        whole["history"] = self.history(seat)
        return whole

    def _split_view(
        self, events: int, last: tuple[int, JSON, JSON | None] | None
    ) -> tuple[int, JSON, JSON | None]:
        """The view's known parts after ``events`` events (:meth:`_parts`' keys that are
        not lazy, in their order), built without the lazy ones: ``last``'s own where they
        did not change (most events change none: a trick falls, a seat goes out)."""
        phase = PHASE_NAMES[self._phase]
        last_winner = None if self._last_winner < 0 else self._last_winner
        if last is not None:
            was = last[1]
            if (  # the trump and the aside card are set, and shown, as phase 2 begins
                was["phase"] == phase
                and was["last_winner"] == last_winner
                and was["aside_owner"] == (None if self._aside_owner < 0 else self._aside_owner)
                and was["loser"] == (None if self._loser < 0 else self._loser)
                and was["abandoned"] == self.abandoned
            ):
                return (events, was, None)
        public = self._trump >= 0
        known: JSON = {
            "game": self.game.name,
            "players": self._n,
            "options": self.game.options if last is None else last[1]["options"],
            "seat": None,
            "phase": phase,
            "to_act": None,
            "hand": None,
            "legal_moves": None,
            "stock_size": None,
            "aside_owner": None if self._aside_owner < 0 else self._aside_owner,
            "aside_card": CARD_TEXT[self._aside] if public and self._aside >= 0 else None,
            "trump": SUITS[self._trump] if public else None,
            "last_winner": last_winner,
            "loser": None if self._loser < 0 else self._loser,
            "abandoned": self.abandoned,
            "move_count": None,
            "max_moves": self._max_moves,
        }
        return (events, known, None)

    def _hand_texts(self, seat: int, public: bool) -> list[str]:
        """The texts of ``seat``'s hand in view order, converted again only when it
        changed (``_hand_text_cache[seat]``: the cards and order they were converted for, the texts;
        shared between views: read them, never change them)."""
        cache = self._hand_text_cache
        if cache is None:
            cache = self._hand_text_cache = [[None, public, []] for _ in range(self._n)]
        kept = cache[seat]
        hand = self._hands[seat]
        if kept[0] != hand or kept[1] != public:
            kept[0], kept[1], kept[2] = hand[:], public, _sorted_texts(hand, public)
        return kept[2]  # type: ignore[no-any-return]

    def _parts(self) -> JSON:
        """The view as it stands after ``len(_event_log)`` events, every key in its place.

        What changes only with an event is built here once: piles grow when a phase-1
        trick is won or void and empty when phase 2 begins (its trump set); the last
        trick, the aside card's owner, fallen cards, the out order, the loser and the end
        come with their events.  :meth:`view` sets the keys that change with any move.
        """
        public = self._trump >= 0
        return {
            "game": self.game.name,
            "players": self._n,
            "options": self.game.options,
            "seat": None,
            "phase": PHASE_NAMES[self._phase],
            "to_act": None,
            "hand": None,
            "legal_moves": None,
            "hand_sizes": None,
            "stock_size": None,
            "aside_owner": None if self._aside_owner < 0 else self._aside_owner,
            "aside_card": CARD_TEXT[self._aside] if public and self._aside >= 0 else None,
            "trump": SUITS[self._trump] if public else None,
            "piles": [list(map(CARD_TEXT.__getitem__, p)) for p in self._piles],
            "hands": None,
            "trick": None,
            "last_trick": last_trick(self._event_log, self._sampled_past, CARD_TEXT),
            "last_winner": None if self._last_winner < 0 else self._last_winner,
            "fallen": list(map(CARD_TEXT.__getitem__, self._fallen)),
            "out_order": list(self._out),
            "loser": None if self._loser < 0 else self._loser,
            "abandoned": self.abandoned,
            "move_count": None,
            "max_moves": self._max_moves,
            "history": None,
        }

    def _trick_view(self) -> JSON:
        if self._trump < 0:
            return {
                "kind": "duel" if self._duel else "all",
                "leader": self._trick_leader,
                "cards": [
                    {"seat": s, "card": CARD_TEXT[c], "stock": st} for s, c, st in self._trick
                ],
                "round": list(self._round),
                "round_played": self._round_played,
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
        zones["aside"] = [CARD_TEXT[self._aside]] if self._aside >= 0 and self._trump < 0 else []
        zones["trick"] = [CARD_TEXT[c] for _, c, _ in self._trick] + [
            CARD_TEXT[c] for _, cs in self._plays for c in cs
        ]
        zones["fallen"] = [CARD_TEXT[c] for c in self._fallen]
        hidden: dict[str, list[str]] = {}
        for s in range(self._n):
            if self._trump < 0:
                cards = zones["stock"] + zones["aside"]
                for o in range(self._n):
                    if o != s:
                        cards = cards + zones[f"hand {o}"]
            else:
                cards = []
            hidden[str(s)] = sorted(cards)
        return {
            "phase": self.phase,
            "to_act": self.current_player,
            "zones": zones,
            "hidden": hidden,
            **self._reveal_end(),
        }


@functools.cache
def _draw_event(seat: int, card: int, own: bool) -> JSON:
    """The JSON of a phase-1 draw (shared between views: read it, never change it)."""
    draw = draw_event(0, seat, (card,))
    return to_json(draw, seat if own else None, CARD_TEXT, _no_outcome)


@functools.cache
def _take_event(seat: int, cards: tuple[int, ...]) -> JSON:
    """The JSON of a phase-2 take (shared between views: read it, never change it)."""
    return to_json(take_event(0, seat, cards), None, CARD_TEXT, _no_outcome)


def _no_outcome() -> None:
    """The outcome a draw or take event carries: none."""
    return None


_ORDER: tuple[str, ...] = ()
"""Every key of a Myllymatti view in its order (:meth:`TableState._view_order`), once known."""


def _view_order(state: MyllymattiState) -> tuple[str, ...]:
    """:data:`_ORDER`, worked out from ``state`` the first time."""
    global _ORDER
    _ORDER = state._view_order()
    return _ORDER


def _sorted_texts(hand: list[int], public: bool) -> list[str]:
    cards = sorted(hand) if public else sorted(hand, key=_PHASE1_POS.__getitem__)
    return list(map(CARD_TEXT.__getitem__, cards))


def _runs(hand: list[int], starts: list[int]) -> list[list[int]]:
    """Every run of 2+ cards in ``hand`` whose lowest card is in ``starts`` (MM-17)."""
    held = set(hand)
    out: list[list[int]] = []
    for c in starts:
        nxt = c + 1
        while nxt in held and SUIT_OF[nxt] == SUIT_OF[c]:
            out.append(list(range(c, nxt + 1)))
            nxt += 1
    return out


def _next_in_suit(card: int) -> int:
    """The card one rank above ``card`` in its suit (-1: none)."""
    above = card + 1
    return above if above < len(SUIT_OF) and SUIT_OF[above] == SUIT_OF[card] else -1


_COMPILED: Final = not __file__.endswith(".py")
"""Whether this module runs compiled by mypyc (a few hot loops are written for each build)."""
_NEXT_IN_SUIT: Final = tuple(_next_in_suit(c) for c in range(len(SUIT_OF)))
""":func:`_next_in_suit` of every card."""


def _texts_from(card: int) -> tuple[str, ...]:
    """The texts of the runs that start at ``card``, two cards long, three, … to its
    suit's top."""
    texts, top = [], _NEXT_IN_SUIT[card]
    while top != -1:
        texts.append("+".join([CARD_TEXT[c] for c in range(card, top + 1)]))
        top = _NEXT_IN_SUIT[top]
    return tuple(texts)


_RUN_TEXTS: Final = tuple(_texts_from(c) for c in range(len(SUIT_OF)))
"""Each card's :func:`_texts_from`: a run's text is looked up, not joined."""
_RUN_CARDS: Final = {
    text: tuple(range(low, low + 2 + k))
    for low, texts in enumerate(_RUN_TEXTS)
    for k, text in enumerate(texts)
}
"""The cards of each run's text, low to high (a played run's cards: a fresh list of them)."""


def _run_texts(hand: list[int], starts: list[int]) -> list[str]:
    """Texts of :func:`_runs`, in the same order (by table: no run listed or joined).

    ``hand`` is a phase-2 hand (every one is kept in order) and ``starts`` a part of it in
    the same order.  Compiled, the runs are read by one walk along the hand (a set of the
    hand would box every card to look it up: 11 % of a Koira game's instructions);
    interpreted, from a set of the hand (``set()`` and ``in`` are C, a walk is bytecodes)."""
    out: list[str] = []
    if _COMPILED:
        n = len(hand)
        i = 0
        for c in starts:
            while i < n and hand[i] != c:
                i += 1
            j = i + 1
            above = _NEXT_IN_SUIT[c]
            if j < n and hand[j] == above:
                texts = _RUN_TEXTS[c]
                k = 0
                while j < n and hand[j] == above:
                    out.append(texts[k])
                    k += 1
                    j += 1
                    above = _NEXT_IN_SUIT[above]
        return out
    held = set(hand)
    for c in starts:
        above = _NEXT_IN_SUIT[c]
        if above in held:
            texts = _RUN_TEXTS[c]
            k = 0
            while above in held:
                out.append(texts[k])
                k += 1
                above = _NEXT_IN_SUIT[above]
    return out


def _move_forms(phase: int) -> str:
    if phase == COLLECT:
        return _t(
            "play a card (rank {ranks} then suit {suits}, e.g. 7H) or stock",
            ranks=RANKS,
            suits=SUITS,
        )
    return _t("play a card (e.g. 7H), a run (e.g. 5H+6H+7H, with option runs) or take")


# --- determinizer -------------------------------------------------------------------------


def _from_view(
    game: Myllymatti, view: Mapping[str, Any], seat: int, rng: random.Random
) -> MyllymattiState:
    """Build a full state from a seat's view, dealing the unseen cards at random."""
    state = MyllymattiState()
    state._setup(game, None, None)
    ints = ints_of
    n = game.players
    phase = PHASE_NAMES.index(view["phase"])
    state._phase = phase
    state._to_act = -1 if view["to_act"] is None else view["to_act"]
    state._piles = [ints(p) for p in view["piles"]]
    state._last_winner = -1 if view["last_winner"] is None else view["last_winner"]
    state._aside_owner = -1 if view["aside_owner"] is None else view["aside_owner"]
    state._trump = -1 if view["trump"] is None else SUITS.index(view["trump"])
    state._fallen = ints(view["fallen"])
    state._out = list(view["out_order"])
    state._loser = -1 if view["loser"] is None else view["loser"]
    state.abandoned = bool(view["abandoned"])
    state._hist = [
        (h["seat"], h["move"], TEXT_CARD[h["card"]] if "card" in h else -1, ())
        for h in view["history"]
    ]
    state._sampled_past = past_of(view)
    trick = view["trick"]
    if view["hands"] is None:
        state._trick = [(t["seat"], TEXT_CARD[t["card"]], t["stock"]) for t in trick["cards"]]
        state._trick_leader = trick["leader"]
        state._round = list(trick["round"])
        state._round_played = trick["round_played"]
        _deal_unseen(state, view, seat, rng)
    else:
        state._plays = [[p["seat"], ints(p["cards"])] for p in trick["plays"]]
        state._trick_size = trick["size"] or 0
        state._hands = [sorted(ints(h)) for h in view["hands"]]
        state._aside = -1 if view["aside_card"] is None else TEXT_CARD[view["aside_card"]]
    if len(state._hands) != n:
        raise RulesError("the view does not match the game's number of players")
    return state


def _deal_unseen(
    state: MyllymattiState, view: Mapping[str, Any], seat: int, rng: random.Random
) -> None:
    """Phase 1: deal every card the seat has not seen to the places it cannot see."""
    own = ints_of(view["hand"])
    seen = set(own)
    for pile in state._piles:
        seen.update(pile)
    seen.update(c for _, c, _ in state._trick)
    unseen = [c for c in state.game.cards if c not in seen]  # type: ignore[attr-defined]
    rng.shuffle(unseen)
    sizes = view["hand_sizes"]
    hands: list[list[int]] = []
    for s, size in enumerate(sizes):
        if s == seat:
            hands.append(own)
        else:
            hands.append(unseen[:size])
            del unseen[:size]
    if state._aside_owner >= 0:
        state._aside = unseen.pop()
    if len(unseen) != view["stock_size"]:
        raise RulesError("the view's card counts do not add up to the deck")
    state._hands = hands
    state._stock = unseen


register(Myllymatti)
