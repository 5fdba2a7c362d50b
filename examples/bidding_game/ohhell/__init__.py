"""Oh Hell: tricks you bid for, a trump turned up each round, hands that shrink.

tikki's example of a game plug-in with several rounds.  Twenty-four cards (nine to ace in
four suits) for 3–5 players.  Each round the dealer deals every seat the round's number of
cards (``hand`` in the first round, one fewer each round, down to one) and turns the next
card up: its suit is trump.  Starting left of the dealer, each seat bids how many tricks
it will take (``bid 2``); the dealer bids last and, with the ``hook`` option, may not make
the bids add up to the cards in hand.  Then the tricks: follow suit if you can; the
highest trump wins, else the highest card of the suit led.  A seat that took exactly its
bid scores 10 and a point a trick; the others score nothing.  Most points after the last
round wins.

The whole game is this module, its texts in Finnish and German (``translations.py``) and
its rules texts (``rules/ohhell.<lang>.md``), found through the ``tikki.games`` entry
point of ``ohhell-0.1.dist-info`` beside it.  ``docs/writing-a-game.md`` walks through
it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from importlib import resources
from typing import Any, ClassVar

from tikki.cards import normalize_french
from tikki.core import (
    JSON,
    Game,
    HarnessParts,
    IllegalMove,
    MoveGrammar,
    OptionSpec,
    RulesError,
    TableState,
    illegal,
)
from tikki.views import BaseView, CardPlay

from . import translations as t

RANKS = "9TJQKA"
"""The ranks from low to high."""
SUITS = "SHDC"
"""The suits in the deck's order."""
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)
"""Every card, by suit then rank."""
ORDER = {card: i for i, card in enumerate(DECK)}
"""A card's place in :data:`DECK` (hands are kept in this order)."""
PHASE_NAMES = ("bid", "play", "over")
"""The phases by number (``TableState._phase``); the last one is always ``over``."""
BID, PLAY, OVER = range(3)
_BID_TEXT = re.compile(r"\s*bid\s*(\d+)\s*", re.IGNORECASE)


def most_cards(players: int) -> int:
    """The largest first hand for ``players``: a card must be left to turn up as trump."""
    return (len(DECK) - 1) // players


class OhHellView(BaseView):
    """A seat's view of Oh Hell: the keys every view has and these."""

    trick: list[CardPlay]
    """The trick in progress, in play order."""
    leader: int
    """Who led (or leads) the trick in progress."""
    dealer: int
    """Who dealt this round (and bids last)."""
    round: int
    """The round in progress, from 0."""
    rounds: int
    """How many rounds the game has."""
    cards: int
    """How many cards each seat was dealt this round."""
    trump_card: str
    """The card turned up this round (its suit is ``trump``)."""
    trump_cards: list[str]
    """The card turned up in each round so far, this one last."""
    bids: list[int | None]
    """Each seat's bid this round (``None``: not yet)."""
    tricks: list[int]
    """The tricks each seat took this round."""
    scores: list[int]
    """Each seat's total so far."""


def _rules(lang: str) -> str:
    return resources.files(f"{__name__}.rules").joinpath(f"ohhell.{lang}.md").read_text("utf-8")


class OhHell(Game):
    """Oh Hell for 3–5 players."""

    name = "ohhell"
    title = "Oh Hell"
    min_players = 3
    max_players = 5
    default_players = 4
    option_specs = (
        OptionSpec("hand", 4, t.HAND, minimum=1, maximum=most_cards),
        OptionSpec("hook", True, t.HOOK),
    )
    rules_text = _rules("en")
    rules_package = f"{__name__}.rules"
    summary = t.SUMMARY
    value_kind = "points"
    view_type = OhHellView
    harness = HarnessParts(
        conformance=((3, {}), (4, {}), (5, {}), (3, {"hand": 7, "hook": False}), (4, {"hand": 1}))
    )
    phase_titles: ClassVar[Mapping[str, str]] = {"bid": t.BIDDING, "play": t.PLAYING}
    phase_goals: ClassVar[Mapping[str, str]] = {"bid": t.BID_GOAL, "play": t.PLAY_GOAL}
    move_titles: ClassVar[Mapping[str, str]] = {"bid {n}": t.BID_TITLE}
    seat_facts: ClassVar[Mapping[str, str]] = {"bids": t.BIDS, "tricks": t.TRICKS}
    translations = t.TRANSLATIONS

    def deck(self) -> list[str]:
        """The twenty-four cards, nine to ace in each suit."""
        return list(DECK)

    def normalize_card(self, text: str) -> str | None:
        """Canonical card text (``10h`` → ``TH``), or ``None`` if not a card of the deck."""
        card = normalize_french(text)
        return card if card in ORDER else None

    def move_grammar(self) -> MoveGrammar:
        """A card, or a bid from 0 to the first round's hand (``bid 3``)."""
        return MoveGrammar(number_words=("bid",), numbers=(0, self.option("hand")))

    @property
    def sizes(self) -> list[int]:
        """The cards dealt to each seat in each round: ``hand`` down to one."""
        return list(range(self.option("hand"), 0, -1))

    @property
    def utility_bounds(self) -> tuple[float, float]:
        """From no point to every bid made exactly with every trick taken."""
        return (0.0, float(sum(10 + size for size in self.sizes)))

    @property
    def max_length(self) -> int:
        """A bid and the cards of every hand, each round."""
        return sum(self.players * (1 + size) for size in self.sizes)

    def _new_state(self, seed: int, deck: list[str] | None) -> OhHellState:
        order = list(DECK)
        random.Random(seed).shuffle(order)  # drawn even when the deck is given
        if deck is not None:
            order = list(deck)
        state = OhHellState(self, seed, deck)
        state.deal_seed = seed
        state.deal_order = list(order)
        state._deal(order)
        return state

    def sample_state(self, view: Mapping[str, Any], rng: random.Random) -> OhHellState:
        """A state consistent with ``view``: the cards it cannot see dealt at random to the
        other hands and the undealt rest, none to a seat that did not follow a suit this
        round; later rounds are dealt from a seed drawn from ``rng``."""
        seat = self.check_view(view)
        state = OhHellState(self, None, None)
        state.deal_seed = rng.getrandbits(32)
        state._from_view(view)
        seen = set(view["hand"]) | {c for p in view["piles"] for c in p}
        seen |= {p["card"] for p in view["trick"]} | {view["trump_card"]}
        unseen = [c for c in DECK if c not in seen]
        rng.shuffle(unseen)
        places = [s for s in range(self.players) if s != seat]
        sizes = {s: view["hand_sizes"][s] for s in places}
        dealt = _deal(unseen, sizes, _voids(view["history"], self.players), view["stock_size"])
        if dealt is None:  # the view cannot come from a game: no deal agrees with it
            raise RulesError("no deal of the unseen cards agrees with this view")
        state.hands[seat] = list(view["hand"])
        for s in places:
            state.hands[s] = _sorted(dealt[s])
        state.stock = dealt[-1]
        return state


def _sorted(cards: list[str]) -> list[str]:
    return sorted(cards, key=ORDER.__getitem__)


def _voids(history: list[Mapping[str, Any]], players: int) -> list[set[str]]:
    """The suits each seat has shown it holds none of this round (it did not follow)."""
    voids: list[set[str]] = [set() for _ in range(players)]
    led: str | None = None
    for entry in history:
        move = str(entry["move"])
        if not move.startswith("bid"):
            if led is None:
                led = move[-1]
            elif move[-1] != led:
                voids[entry["seat"]].add(led)
        kinds = {e["type"] for e in entry.get("events", ())}
        if "trick" in kinds:
            led = None
        if "round" in kinds:
            voids = [set() for _ in range(players)]
    return voids


def _deal(
    cards: list[str], sizes: Mapping[int, int], voids: list[set[str]], rest: int
) -> dict[int, list[str]] | None:
    """``cards`` into hands of ``sizes`` (none of a seat's void suits) and ``rest`` undealt
    ones (key ``-1``), in the given order where it can; ``None`` if no deal fits."""
    room = {**sizes, -1: rest}
    out: dict[int, list[str]] = {s: [] for s in room}

    def place(i: int) -> bool:
        if i == len(cards):
            return True
        card = cards[i]
        for s in room:
            if room[s] and (s < 0 or card[-1] not in voids[s]):
                room[s] -= 1
                out[s].append(card)
                if place(i + 1):
                    return True
                room[s] += 1
                out[s].pop()
        return False

    return out if place(0) else None


class OhHellState(TableState):
    """A game of Oh Hell in progress."""

    PHASE_NAMES: ClassVar[tuple[str, ...]] = PHASE_NAMES

    def __init__(self, game: Game, seed: int | None, deck: list[str] | None) -> None:
        self.game = game
        self.seed = seed
        self.deck = deck
        n = game.players
        self.deal_seed = 0
        """Later rounds are dealt from it (the seed; a sampled state's own)."""
        self.deal_order: list[str] = []
        self._round = 0
        self.dealer = 0
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.stock: list[str] = []
        self.trump_cards: list[str] = []
        self.bids: list[int | None] = [None] * n
        self.tricks = [0] * n
        self.piles: list[list[str]] = [[] for _ in range(n)]
        self.trick: list[tuple[int, str]] = []
        self.leader = 0
        self.totals = [0] * n
        self.sheet: list[list[int]] = []
        self.hist: list[dict[str, Any]] = []
        self.moves_played: list[str] = []
        self.played: set[str] = set()
        """Every card played in any round (what every seat has seen)."""
        self.last: dict[str, Any] | None = None
        self._phase = BID
        self._to_act = 0
        self._legal = None
        self._event_log = []
        self._view_cache = None

    # --- dealing -------------------------------------------------------------------------

    @property
    def cards(self) -> int:
        """The cards each seat was dealt this round."""
        return int(self.game.option("hand")) - self._round

    def _deal(self, order: list[str]) -> None:
        """Deal this round from ``order``, turn up the trump, open the bidding."""
        n, size = self.game.players, self.cards
        self.dealer = self._round % n
        for i in range(n):
            seat = (self.dealer + 1 + i) % n
            self.hands[seat] = _sorted(order[i * size : (i + 1) * size])
        self.trump_cards.append(order[n * size])
        self.stock = order[n * size + 1 :]
        self.bids = [None] * n
        self.tricks = [0] * n
        self.piles = [[] for _ in range(n)]
        self.trick = []
        self.leader = self._to_act = (self.dealer + 1) % n
        self._phase = BID

    def _next_order(self) -> list[str]:
        """The dealing order of the next round: the deck shuffled from ``deal_seed``."""
        order = list(DECK)
        random.Random(f"ohhell/{self.deal_seed}/{self._round}").shuffle(order)
        return order

    @property
    def trump(self) -> str:
        """This round's trump suit."""
        return self.trump_cards[-1][-1]

    # --- rules ---------------------------------------------------------------------------

    def _hooked(self) -> int | None:
        """The bid the dealer may not make (the ``hook`` option), else ``None``."""
        if not self.game.option("hook") or self._to_act != self.dealer:
            return None
        rest = self.cards - sum(b for b in self.bids if b is not None)
        return rest if 0 <= rest <= self.cards else None

    def _generate(self) -> list[str]:
        if self._phase == OVER:
            return []
        if self._phase == BID:
            hooked = self._hooked()
            return [f"bid {k}" for k in range(self.cards + 1) if k != hooked]
        hand = self.hands[self._to_act]
        if self.trick:
            led = self.trick[0][1][-1]
            following = [c for c in hand if c[-1] == led]
            if following:
                return following
        return list(hand)

    def _canonical(self, move: Any, legal: list[str]) -> str:
        if self._phase == OVER:
            raise IllegalMove(self.game.translate(t.OVER))
        text = move if isinstance(move, str) else ""
        bid = _BID_TEXT.fullmatch(text)
        if self._phase == BID:
            return self._canonical_bid(move, bid, legal)
        if bid is not None:
            raise illegal(move, self.game.translate(t.BIDDING_OVER), legal)
        card = self.game.normalize_card(text)
        if card is None:
            raise illegal(move, self.game.translate(t.NOT_A_CARD, move=move), legal)
        if card not in self.hands[self._to_act]:
            raise illegal(move, self.game.translate(t.NOT_HELD, card=card), legal)
        if card not in legal:
            raise illegal(move, self.game.translate(t.FOLLOW, suit=self.trick[0][1][-1]), legal)
        return card

    def _canonical_bid(self, move: Any, bid: re.Match[str] | None, legal: list[str]) -> str:
        if bid is None:
            raise illegal(move, self.game.translate(t.NOT_A_BID, move=move), legal)
        number = int(bid.group(1))
        if number > self.cards:
            raise illegal(move, self.game.translate(t.BID_RANGE, most=self.cards), legal)
        if f"bid {number}" not in legal:
            hooked = self.game.translate(t.HOOKED, cards=self.cards, bid=number)
            raise illegal(move, hooked, legal)
        return f"bid {number}"

    def _apply(self, move: str) -> None:
        seat = self._to_act
        entry: dict[str, Any] = {"seat": seat, "move": move}
        self.hist.append(entry)
        self.moves_played.append(move)
        n = self.game.players
        if self._phase == BID:
            self.bids[seat] = int(move.split()[1])
            self._to_act = (seat + 1) % n
            if seat == self.dealer:
                self._phase = PLAY
                entry["events"] = [{"type": "phase", "phase": "play", "leader": self._to_act}]
            return
        self.hands[seat].remove(move)
        self.played.add(move)
        self.trick.append((seat, move))
        if len(self.trick) < n:
            self._to_act = (seat + 1) % n
            return
        entry["events"] = self._end_trick()

    def _end_trick(self) -> list[JSON]:
        """The trick to its winner; the round's end where the hands are empty."""
        led, trump = self.trick[0][1][-1], self.trump
        best = max(self.trick, key=lambda p: (p[1][-1] == trump, p[1][-1] == led, ORDER[p[1]]))
        winner = best[0]
        cards = [{"seat": s, "card": c} for s, c in self.trick]
        self.tricks[winner] += 1
        self.piles[winner] += [c for _, c in self.trick]
        self.trick = []
        self.last = {"winner": winner, "cards": cards}
        self.leader = self._to_act = winner
        events: list[JSON] = [{"type": "trick", "winner": winner, "cards": cards}]
        if self.hands[winner]:
            return events
        return events + self._end_round()

    def _end_round(self) -> list[JSON]:
        """Score the round; deal the next one, or end the game."""
        scores = [10 + t if t == b else 0 for t, b in zip(self.tricks, self.bids, strict=True)]
        self.sheet.append(scores)
        self.totals = [a + b for a, b in zip(self.totals, scores, strict=True)]
        events: list[JSON] = [
            {"type": "round", "round": self._round, "scores": scores, "totals": list(self.totals)}
        ]
        if self._round + 1 == self.game.option("hand"):
            self._phase = OVER
            outcome = self.outcome
            assert outcome is not None
            return [*events, {"type": "over", "outcome": outcome}]
        self._round += 1
        self._deal(self._next_order())
        card = self.trump_cards[-1]
        events.append({"type": "phase", "phase": "bid", "leader": self._to_act})
        events.append({"type": "trump", "suit": card[-1], "card": card})
        return events

    # --- the search contract -------------------------------------------------------------

    @property
    def round(self) -> int:
        """The round in progress, from 0 (the last one once the game is over)."""
        return self._round

    def returns_so_far(self) -> list[float]:
        """Each seat's total so far (the outcome's returns once the game is over)."""
        return [float(v) for v in self.totals]

    def random_playout(self, rng: random.Random, greedy: float = 0.0, rounds: int = 0) -> None:
        """Uniformly random legal moves until ``rounds`` more rounds are scored (``0``:
        the end of the game); ``greedy`` is ignored (the game has no rollout tactics)."""
        stop = self._round + rounds if rounds > 0 else self.game.option("hand")
        while self._phase != OVER and self._round < stop:
            legal = self._generate()
            self._apply(legal[int(rng.random() * len(legal))])
            self._legal = None

    # --- what seats see ------------------------------------------------------------------

    @property
    def outcome(self) -> JSON | None:
        """``None`` until the last round is scored; then the totals, each round's scores,
        the winners and the returns (the totals)."""
        if self._phase != OVER:
            return None
        best = max(self.totals)
        return {
            "scores": list(self.totals),
            "rounds": [list(s) for s in self.sheet],
            "winners": [s for s, v in enumerate(self.totals) if v == best],
            "abandoned": False,
            "returns": [float(v) for v in self.totals],
        }

    def view(self, seat: int | None) -> JSON:
        """Own hand, hand sizes, the trump, the bids and tricks, the trick, the totals."""
        self._check_seat(seat)
        to_act = self.current_player
        return {
            "game": self.game.name,
            "players": self.game.players,
            "seat": seat,
            "phase": self.phase,
            "to_act": to_act,
            "legal_moves": self.legal_moves() if seat is not None and seat == to_act else [],
            "hand": list(self.hands[seat]) if seat is not None else [],
            "hand_sizes": [len(h) for h in self.hands],
            "history": self.history(seat),
            "options": self.game.options,
            "piles": [list(p) for p in self.piles],
            "stock_size": len(self.stock),
            "trump": self.trump,
            "last_trick": None if self.last is None else dict(self.last),
            "trick": [{"seat": s, "card": c} for s, c in self.trick],
            "leader": self.leader,
            "dealer": self.dealer,
            "round": self._round,
            "rounds": self.game.option("hand"),
            "cards": self.cards,
            "trump_card": self.trump_cards[-1],
            "trump_cards": list(self.trump_cards),
            "bids": list(self.bids),
            "tricks": list(self.tricks),
            "scores": list(self.totals),
        }

    def _from_view(self, view: Mapping[str, Any]) -> None:
        """Everything public of ``view`` (a sampled state's start; hands dealt after)."""
        self._round = view["round"]
        self.dealer = view["dealer"]
        self.trump_cards = list(view["trump_cards"])
        self.bids = list(view["bids"])
        self.tricks = list(view["tricks"])
        self.piles = [list(p) for p in view["piles"]]
        self.trick = [(p["seat"], p["card"]) for p in view["trick"]]
        self.leader = view["leader"]
        self.totals = list(view["scores"])
        self.hist = [dict(h) for h in view["history"]]
        self.moves_played = [h["move"] for h in view["history"]]
        self.played = {m for m in self.moves_played if not m.startswith("bid")}
        events = [e for h in self.hist for e in h.get("events", ())]
        self.sheet = [list(e["scores"]) for e in events if e["type"] == "round"]
        self.last = view["last_trick"]
        self._phase = PHASE_NAMES.index(view["phase"])
        self._to_act = view["to_act"] if view["to_act"] is not None else 0

    def reveal(self) -> JSON:
        """Every card's place, what each seat cannot see, the first deal.

        A seat's hidden cards leave out every card it has seen: its own, the trump cards
        turned up and every card played in any round (re-dealt, it may now be in another
        hand, and the seat could name it anyway)."""
        zones: dict[str, list[str]] = {f"hand{s}": list(h) for s, h in enumerate(self.hands)}
        zones |= {f"pile{s}": list(p) for s, p in enumerate(self.piles)}
        zones["trick"] = [c for _, c in self.trick]
        zones["trump"] = [self.trump_cards[-1]]
        zones["stock"] = list(self.stock)
        seen = self.played | set(self.trump_cards)
        hidden = {}
        for seat in range(self.game.players):
            others = [c for o, h in enumerate(self.hands) if o != seat for c in h]
            hidden[str(seat)] = _sorted([c for c in [*self.stock, *others] if c not in seen])
        return {
            "zones": zones,
            "hidden": hidden,
            "deal_order": list(self.deal_order),
            "to_act": self.current_player,
            "round": self._round,
            "scores": list(self.totals),
            "moves": list(self.moves_played),
        }

    def history(self, seat: int | None) -> list[JSON]:
        """Every move is public: the same history for every seat."""
        return [
            {**h, "events": [dict(e) for e in h["events"]]} if "events" in h else dict(h)
            for h in self.hist
        ]

    @property
    def moves(self) -> list[str]:
        """The bids and cards played, in order."""
        return list(self.moves_played)

    def clone(self) -> OhHellState:
        """An independent copy."""
        other = OhHellState(self.game, self.seed, self.deck)
        other.deal_seed, other.deal_order = self.deal_seed, list(self.deal_order)
        other._round, other.dealer = self._round, self.dealer
        other.hands = [list(h) for h in self.hands]
        other.stock = list(self.stock)
        other.trump_cards = list(self.trump_cards)
        other.bids, other.tricks = list(self.bids), list(self.tricks)
        other.piles = [list(p) for p in self.piles]
        other.trick, other.leader = list(self.trick), self.leader
        other.totals, other.sheet = list(self.totals), [list(s) for s in self.sheet]
        other.hist = self.history(None)
        other.moves_played, other.played = list(self.moves_played), set(self.played)
        other.last = None if self.last is None else dict(self.last)
        other._phase, other._to_act = self._phase, self._to_act
        return other


__all__ = ["OhHell", "OhHellState", "OhHellView", "most_cards"]
