"""Tricklet: a tiny trick-taking game, tikki's example of a game plug-in.

Twenty cards (ten to ace in four suits), four to each of 2–4 players; the rest stay
unseen.  Follow suit if you can; the highest card of the suit led wins the trick and
leads the next.  A trick scores one point, the last one two (option ``last_bonus``).

The whole game is this module, its texts in Finnish and German (``translations.py``) and
its rules texts (``rules/tricklet.<lang>.md``): it is found through the ``tikki.games``
entry point of ``tricklet-0.1.dist-info`` beside it, and tikki's terminal, web table,
bots, arena and adapters play it from what it declares.
"""

from __future__ import annotations

import random
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

from .translations import (
    FOLLOW,
    GOAL,
    LAST_BONUS,
    NOT_A_CARD,
    NOT_HELD,
    OVER,
    PLAYING,
    SUMMARY,
    TRANSLATIONS,
)

RANKS = "TJQKA"
"""The ranks from low to high."""
SUITS = "SHDC"
"""The suits in the deck's order."""
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)
"""Every card, by suit then rank."""
ORDER = {card: i for i, card in enumerate(DECK)}
"""A card's place in :data:`DECK` (hands are kept in this order)."""
HAND = 4
"""Cards dealt to each player."""
PHASE_NAMES = ("play", "over")


class TrickletView(BaseView):
    """A seat's view of Tricklet: the keys every view has and these."""

    trick: list[CardPlay]
    """The trick in progress, in play order."""
    leader: int
    """Who led (or leads) the trick in progress."""
    scores: list[int]
    """Each seat's points so far."""


def _rules(lang: str) -> str:
    return resources.files(f"{__name__}.rules").joinpath(f"tricklet.{lang}.md").read_text("utf-8")


class Tricklet(Game):
    """Tricklet for 2–4 players."""

    name = "tricklet"
    title = "Tricklet"
    min_players = 2
    max_players = 4
    default_players = 3
    option_specs = (OptionSpec("last_bonus", True, LAST_BONUS),)
    rules_text = _rules("en")
    rules_package = f"{__name__}.rules"
    summary = SUMMARY
    value_kind = "points"
    harness = HarnessParts(conformance=((2, {}), (3, {}), (4, {}), (3, {"last_bonus": False})))
    view_type = TrickletView
    phase_goals: ClassVar[Mapping[str, str]] = {"play": GOAL}
    phase_titles: ClassVar[Mapping[str, str]] = {"play": PLAYING}
    translations = TRANSLATIONS

    def deck(self) -> list[str]:
        """The twenty cards, ten to ace in each suit."""
        return list(DECK)

    def normalize_card(self, text: str) -> str | None:
        """Canonical card text (``10h`` → ``TH``), or ``None`` if not a card of the deck."""
        card = normalize_french(text)
        return card if card in ORDER else None

    def move_grammar(self) -> MoveGrammar:
        """Every move is one card."""
        return MoveGrammar()

    @property
    def utility_bounds(self) -> tuple[float, float]:
        """From no point to every point of the game."""
        return (0.0, float(HAND + self.option("last_bonus")))

    @property
    def max_length(self) -> int:
        """Every card dealt is played once."""
        return HAND * self.players

    def _new_state(self, seed: int, deck: list[str] | None) -> TrickletState:
        order = list(deck) if deck is not None else list(DECK)
        if deck is None:
            random.Random(seed).shuffle(order)
        state = TrickletState(self, seed, deck)
        for seat in range(self.players):
            state.hands[seat] = _sorted(order[seat * HAND : (seat + 1) * HAND])
        state.stock = order[self.players * HAND :]
        state.deal_order = order
        return state

    def sample_state(self, view: Mapping[str, Any], rng: random.Random) -> TrickletState:
        """A state consistent with ``view``: the unseen cards dealt at random to the other
        hands and the unseen rest, no card to a seat that showed itself void of its suit."""
        seat = self.check_view(view)
        state = TrickletState(self, None, None)
        state.hands[seat] = list(view["hand"])
        state.trick = [(p["seat"], p["card"]) for p in view["trick"]]
        state.piles = [list(p) for p in view["piles"]]
        state.scores = list(view["scores"])
        state.leader = view["leader"]
        state.hist = [dict(h) for h in view["history"]]
        state.moves_played = [h["move"] for h in view["history"]]
        state.last = view["last_trick"]
        state._phase = PHASE_NAMES.index(view["phase"])
        state._to_act = view["to_act"] if view["to_act"] is not None else 0
        seen = set(view["hand"]) | {c for p in view["piles"] for c in p}
        seen |= {p["card"] for p in view["trick"]}
        unseen = [c for c in DECK if c not in seen]
        rng.shuffle(unseen)
        voids = _voids(view["history"], self.players)
        places = [s for s in range(self.players) if s != seat]
        sizes = {s: view["hand_sizes"][s] for s in places}
        dealt = _deal(unseen, sizes, voids, view["stock_size"])
        if dealt is None:  # the view cannot come from a game: no deal agrees with it
            raise RulesError("no deal of the unseen cards agrees with this view")
        for s in places:
            state.hands[s] = _sorted(dealt[s])
        state.stock = dealt[-1]
        return state


def _sorted(cards: list[str]) -> list[str]:
    return sorted(cards, key=ORDER.__getitem__)


def _voids(history: list[Mapping[str, Any]], players: int) -> list[set[str]]:
    """The suits each seat has shown it holds none of (it did not follow)."""
    voids: list[set[str]] = [set() for _ in range(players)]
    led: str | None = None
    for count, entry in enumerate(history):
        card = entry["move"]
        if count % players == 0:
            led = card[-1]
        elif card[-1] != led:
            voids[entry["seat"]].add(str(led))
    return voids


def _deal(
    cards: list[str], sizes: Mapping[int, int], voids: list[set[str]], rest: int
) -> dict[int, list[str]] | None:
    """``cards`` into hands of ``sizes`` (none of a seat's void suits) and ``rest`` unseen
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


class TrickletState(TableState):
    """A game of Tricklet in progress."""

    PHASE_NAMES: ClassVar[tuple[str, ...]] = PHASE_NAMES

    def __init__(self, game: Game, seed: int | None, deck: list[str] | None) -> None:
        self.game = game
        self.seed = seed
        self.deck = deck
        n = game.players
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.stock: list[str] = []
        self.deal_order: list[str] = []
        self.trick: list[tuple[int, str]] = []
        self.piles: list[list[str]] = [[] for _ in range(n)]
        self.scores = [0] * n
        self.leader = 0
        self.hist: list[dict[str, Any]] = []
        self.moves_played: list[str] = []
        self.last: dict[str, Any] | None = None
        self._phase = 0
        self._to_act = 0
        self._legal = None
        self._event_log = []
        self._view_cache = None

    # --- rules ---------------------------------------------------------------------------

    def _generate(self) -> list[str]:
        if self._phase == 1:
            return []
        hand = self.hands[self._to_act]
        if self.trick:
            led = self.trick[0][1][-1]
            following = [c for c in hand if c[-1] == led]
            if following:
                return following
        return list(hand)

    def _canonical(self, move: Any, legal: list[str]) -> str:
        if self._phase == 1:
            raise IllegalMove(self.game.translate(OVER))
        card = self.game.normalize_card(move) if isinstance(move, str) else None
        if card is None:
            raise illegal(move, self.game.translate(NOT_A_CARD, move=move), legal)
        if card not in self.hands[self._to_act]:
            raise illegal(move, self.game.translate(NOT_HELD, card=card), legal)
        if card not in legal:
            raise illegal(move, self.game.translate(FOLLOW, suit=self.trick[0][1][-1]), legal)
        return card

    def _apply(self, move: str) -> None:
        seat = self._to_act
        self.hands[seat].remove(move)
        self.trick.append((seat, move))
        self.moves_played.append(move)
        entry: dict[str, Any] = {"seat": seat, "move": move}
        self.hist.append(entry)
        n = self.game.players
        if len(self.trick) < n:
            self._to_act = (seat + 1) % n
            return
        led = self.trick[0][1][-1]
        winner = max((p for p in self.trick if p[1][-1] == led), key=lambda p: ORDER[p[1]])[0]
        cards = [{"seat": s, "card": c} for s, c in self.trick]
        last = not self.hands[winner]
        self.scores[winner] += 2 if last and self.game.option("last_bonus") else 1
        self.piles[winner] += [c for _, c in self.trick]
        self.trick = []
        self.last = {"winner": winner, "cards": cards}
        events: list[JSON] = [{"type": "trick", "winner": winner, "cards": cards}]
        self.leader = self._to_act = winner
        if last:
            self._phase = 1
            outcome = self.outcome
            assert outcome is not None
            events.append({"type": "round", "round": 0, "scores": list(self.scores)})
            events[-1]["totals"] = list(self.scores)
            events.append({"type": "over", "outcome": outcome})
        entry["events"] = events

    # --- what seats see ------------------------------------------------------------------

    @property
    def outcome(self) -> JSON | None:
        """``None`` until the last trick; then the scores, the winners and the returns."""
        if self._phase != 1:
            return None
        best = max(self.scores)
        return {
            "scores": list(self.scores),
            "rounds": [list(self.scores)],
            "winners": [s for s, v in enumerate(self.scores) if v == best],
            "abandoned": False,
            "returns": [float(v) for v in self.scores],
        }

    def view(self, seat: int | None) -> JSON:
        """Own hand, hand sizes, the trick, the won cards and scores, the history."""
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
            "trump": None,
            "last_trick": None if self.last is None else dict(self.last),
            "trick": [{"seat": s, "card": c} for s, c in self.trick],
            "leader": self.leader,
            "scores": list(self.scores),
        }

    def reveal(self) -> JSON:
        """Every card's place, what each seat cannot see, the first deal."""
        zones: dict[str, list[str]] = {f"hand{s}": list(h) for s, h in enumerate(self.hands)}
        zones |= {f"pile{s}": list(p) for s, p in enumerate(self.piles)}
        zones["trick"] = [c for _, c in self.trick]
        zones["stock"] = list(self.stock)
        hidden = {
            str(s): sorted(
                [c for o, h in enumerate(self.hands) if o != s for c in h] + self.stock,
                key=ORDER.__getitem__,
            )
            for s in range(self.game.players)
        }
        return {
            "zones": zones,
            "hidden": hidden,
            "deal_order": list(self.deal_order),
            "to_act": self.current_player,
            "scores": list(self.scores),
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
        """The cards played, in order."""
        return list(self.moves_played)

    def clone(self) -> TrickletState:
        """An independent copy."""
        other = TrickletState(self.game, self.seed, self.deck)
        other.hands = [list(h) for h in self.hands]
        other.stock = list(self.stock)
        other.deal_order = list(self.deal_order)
        other.trick = list(self.trick)
        other.piles = [list(p) for p in self.piles]
        other.scores = list(self.scores)
        other.leader = self.leader
        other.hist = self.history(None)
        other.moves_played = list(self.moves_played)
        other.last = None if self.last is None else dict(self.last)
        other._phase, other._to_act = self._phase, self._to_act
        return other


__all__ = ["Tricklet", "TrickletState", "TrickletView"]
