"""The Game/State contract: an immutable :class:`Game` makes :class:`State` objects.

A game module subclasses both (most states through :class:`TableState`), declares its
facts as class attributes, and registers the class (:mod:`tikki.core.registry`).  The
helpers at the end are shared by tikki's own games (a shedding game's outcome, a refused
move's message).
"""

from __future__ import annotations

import random
import re
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from tikki.core.options import OptionSpec
from tikki.errors import IllegalMove, RulesError
from tikki.events import Event
from tikki.i18n import _ as _t
from tikki.i18n import own as translate_own
from tikki.views import JSON, BaseView, LazyView

RULES_REVISION = "r2"
"""The RULINGS.md revision new games play; stored in every record."""
RULES_REVISIONS = ("r1", "r2")
"""Every revision this engine can play: a game (and a record) names one of them.

Records of an older revision replay under that revision's readings, so a stored game
never changes its rules (``r1``: AM-5 "losing" and who may slough, MS-8's 3-player trump
as read before ``r2``)."""
RECORD_FORMAT = 1
"""Version of the record layout; bumped whenever the layout changes."""

VALUE_KINDS = ("not_loser", "points")
"""What a game's values (analysis, hints) measure: the chance of not being the loser, or
the expected points (:attr:`Game.value_kind`)."""


def check_revision(rules: Any) -> str:
    """``rules`` as a supported revision (``None``: the current one); else :class:`RulesError`."""
    if rules is None:
        return RULES_REVISION
    if rules not in RULES_REVISIONS:
        raise RulesError(
            _t(
                "rules revision {rules!r} is not supported: this tikki plays {revisions}",
                rules=rules,
                revisions=", ".join(RULES_REVISIONS),
            )
        )
    return str(rules)


@dataclass(frozen=True)
class MoveGrammar:
    """Which move forms a game has besides playing one card (docs/design.md: move texts).

    Runs of 2..``max_run`` consecutive cards of a suit (``5H+6H``), plain ``words``
    (``stock``, ``take``, ``pass``), ``<word> <card>`` for each of ``card_words``
    (``slough 7H``), ``<word> <suit>`` for each of ``suit_words`` (``trump G``) and
    ``<word> <number>`` for each of ``number_words`` and each whole number of ``numbers``
    (``bid 3``).  The adapters build their fixed action spaces from it
    (``tikki.interop.encoding``).
    """

    max_run: int = 0
    words: tuple[str, ...] = ()
    card_words: tuple[str, ...] = ()
    suit_words: tuple[str, ...] = ()
    number_words: tuple[str, ...] = ()
    numbers: tuple[int, int] = (0, 0)
    """The lowest and the highest number of a ``number_words`` move, both included."""

    def number_moves(self) -> list[str]:
        """Every ``<word> <number>`` move text, word by word, numbers upwards."""
        low, high = self.numbers
        return [f"{w} {n}" for w in self.number_words for n in range(low, high + 1)]


DEFAULT_MAX_LENGTH = 100_000
"""The longest game :attr:`Game.max_length` assumes of a game that declares nothing."""


# --- what a game declares for the other parts of tikki -------------------------------------
# Each record groups what one part of tikki reads of a game besides its rules; a game sets
# only the records (and fields) it needs, the rest keep their defaults.


@dataclass(frozen=True)
class BotParts:
    """What the bots and the search read of a game (:attr:`Game.bots`)."""

    heuristic: str = ""
    """The module of the game's ``heuristic`` policy, ``choose(game, view, rng)``; empty:
    ``tikki.bots.heuristic.<name>`` if there is one, else a legal move at random."""
    tactics: str = ""
    """The module of the game's rollout tactics on ints (:func:`tikki.core.tactics`), if
    it has any: its greedy ``random_playout`` plays its cheap moves by them, and a
    ``belief(game, view)`` there draws the search's states.  They live with the game
    (tikki's own: ``tikki/games/<name>_tactics.py``), below the bots."""
    rule_phases: frozenset[str] = frozenset()
    """The phases whose moves the ``expert`` bot plays by the heuristic's rules, not by
    search."""
    endgame_phase: str = ""
    """The phase in which the ``expert`` bot may solve the game exactly (its endgame
    solver), once few cards are left; empty: never."""
    endgame_hidden: bool = False
    """Whether states that a view allows still differ in that phase (a pile dealt unseen),
    so that the solver trusts only what holds over several drawn states."""


@dataclass(frozen=True)
class TerminalParts:
    """How the terminal draws a game (:attr:`Game.terminal`)."""

    presenter: str = ""
    """The module of the game's terminal presenter (its ``PRESENTER``); empty:
    ``tikki.tui.<name>`` if there is one, else the generic presenter."""


@dataclass(frozen=True)
class WebParts:
    """How the web table draws a game (:attr:`Game.web`)."""

    renderer: str = ""
    """The game's web renderer, an ES module in its package as ``package:file``
    (``mygame:render.js``), served as ``/static/render/<name>.js``; empty: tikki's own
    ``render/<name>.js`` if there is one, else ``render/generic.js``."""
    selecting_phases: frozenset[str] = frozenset()
    """Phases whose plays may be several cards (runs, sequences) where the game's move
    grammar has them (``max_run`` over 1): there every click on a card selects it and
    *Play* plays the selection, one behaviour all phase long."""


@dataclass(frozen=True)
class InteropParts:
    """What the adapters for learning read of a game (:attr:`Game.interop`)."""

    encoder: str = ""
    """``"module:Class"`` of the game's fast observation encoder (NumPy, the ``gym`` extra;
    :func:`tikki.interop.observations.encoder_for`), or empty for the generic one."""


@dataclass(frozen=True)
class HarnessParts:
    """What the conformance harness plays of a game (:attr:`Game.harness`)."""

    conformance: tuple[tuple[int, Mapping[str, Any]], ...] = ()
    """The configurations, ``(players, options)``, it plays; empty: each player count
    with the defaults, and each variant at the default count."""
    leaderless_phases: frozenset[str] = frozenset()
    """Phases whose ``phase`` event need not name the next seat to act as ``leader``
    (every seat acts at once, or nobody leads): the kit's rule ``phase-event``."""
    free_hand_phases: frozenset[str] = frozenset()
    """Phases where hands change otherwise than by the cards a move names and ``draw``
    events (a take, a hand picked up): the kit's rule ``hand-size`` skips them."""


class Game(ABC):
    """An immutable game definition: name, number of players and resolved options.

    Subclasses set the class attributes and implement :meth:`deck`, :meth:`_new_state`
    and :meth:`sample_state`.  Make games with :func:`load`.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int]
    option_specs: ClassVar[tuple[OptionSpec, ...]]
    variants: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    variant_titles: ClassVar[Mapping[str, str]] = {}
    """The variants' names as players read them, by key (untranslated; the catalogs
    translate them); a variant without one shows its key."""
    rules_text: ClassVar[str] = ""
    rules_package: ClassVar[str] = ""
    """The package holding the game's rules texts, ``<name>.<lang>.md`` per language (a
    plug-in ships its own; empty: :mod:`tikki.rules`, tikki's own games)."""
    summary: ClassVar[str] = ""
    """One or two lines for a lobby: players, length, what kind of game it is."""
    featured: ClassVar[bool] = False
    """Whether the lobby offers the game first (preselected, first in its header)."""
    memory_aids: ClassVar[bool] = False
    """Whether the game hides won cards during a round, so that tables may offer the
    *memory aids* option to show them anyway."""
    value_kind: ClassVar[str] = "not_loser"
    """What its values measure, one of :data:`VALUE_KINDS`: ``not_loser`` for a game with a
    loser, ``points`` for one scored in points."""
    view_type: ClassVar[type[Mapping[str, Any]]] = BaseView
    """The ``TypedDict`` of a seat's view (:mod:`tikki.views` holds the shared keys);
    ``tests/test_views_types.py`` checks it against real views."""
    bots: ClassVar[BotParts] = BotParts()
    """What the bots and the search read of the game (:class:`BotParts`)."""
    terminal: ClassVar[TerminalParts] = TerminalParts()
    """How the terminal draws the game (:class:`TerminalParts`)."""
    web: ClassVar[WebParts] = WebParts()
    """How the web table draws the game (:class:`WebParts`)."""
    interop: ClassVar[InteropParts] = InteropParts()
    """What the adapters for learning read of the game (:class:`InteropParts`)."""
    harness: ClassVar[HarnessParts] = HarnessParts()
    """What the conformance harness plays (:class:`HarnessParts`)."""
    tie_word: ClassVar[str] = ""
    """The game's own word for a ``tie`` event (untranslated; the catalogs translate it),
    or empty for the plain word."""
    phase_goals: ClassVar[Mapping[str, str]] = {}
    """What a player wants in each phase, one short line per phase name (untranslated;
    the catalogs translate it): shown when the phase begins."""
    phase_titles: ClassVar[Mapping[str, str]] = {}
    """The phases' names as players read them, by phase name (untranslated; the catalogs
    translate them), for the generic table; a phase without one shows its name."""
    move_titles: ClassVar[Mapping[str, str]] = {}
    """The game's moves that are no cards (``knock``) as players read them, by move text
    (untranslated), for the generic table's buttons, move lists and logs; a move without
    one shows its text.  A key ``<word> {n}`` titles every ``<word> <number>`` move
    (``{"bid {n}": "a bid of {n}"}``, :func:`move_title`)."""
    seat_facts: ClassVar[Mapping[str, str]] = {}
    """Public facts about each seat that the generic table shows beside its name: view key
    → its title (untranslated, like :attr:`phase_titles`); the view's value under that key
    is a list with one entry per seat (a number, a text, or ``None`` for nothing yet), e.g.
    ``{"bids": "Bid", "tricks": "Tricks"}``."""
    translations: ClassVar[Mapping[str, Mapping[str, str]]] = {}
    """A plug-in's own texts in other languages: language → {English text → its
    translation}, for its summary, option texts, phase, move and variant titles, goals,
    tie word and whatever it passes to :meth:`translate`.  A text it lacks goes to tikki's
    catalogs (which hold tikki's own games' texts), else stays English."""

    @classmethod
    def translate(cls, message: str, /, **params: Any) -> str:
        """``message``, one of the game's own texts, in the current language (from
        :attr:`translations`, else tikki's catalogs), its ``{placeholders}`` filled in."""
        return translate_own(cls.translations, message, **params)

    def __init__(self, players: Any = None, *, rules: Any = None, **options: Any) -> None:
        # any values: what is not a valid count, revision or option gets a RulesError
        self._players = self._check_players(players)
        self._options = self._resolve(options)
        self._rules = check_revision(rules)

    def _check_players(self, players: Any) -> int:
        if players is None:
            return self.default_players
        if isinstance(players, str) and players.strip().isdigit():
            players = int(players)
        span = f"{self.min_players}–{self.max_players}"
        if isinstance(players, bool) or not isinstance(players, int):
            raise RulesError(
                _t(
                    "players must be a whole number ({span}), got {players!r}",
                    span=span,
                    players=players,
                )
            )
        if not self.min_players <= players <= self.max_players:
            raise RulesError(
                _t(
                    "{name} is played by {span} players, not {players}",
                    name=self.name,
                    span=span,
                    players=players,
                )
            )
        return players

    def _resolve(self, given: Mapping[str, Any]) -> dict[str, Any]:
        specs = {s.name: s for s in self.option_specs}
        unknown = [k for k in given if k not in specs and k != "variant"]
        if unknown:
            valid = ", ".join(["variant", *specs])
            raise RulesError(
                _t(
                    "{name} has no option {unknown!r}: valid options are {valid}",
                    name=self.name,
                    unknown=unknown[0],
                    valid=valid,
                )
            )
        variant = given.get("variant", "standard")
        if variant is None:
            variant = "standard"
        names = ("standard", *self.variants)
        if variant not in names:
            raise RulesError(
                _t(
                    "{name} has no variant {variant!r}: valid variants are {variants}",
                    name=self.name,
                    variant=variant,
                    variants=", ".join(names),
                )
            )
        resolved: dict[str, Any] = {"variant": variant}
        preset = self.variants.get(variant, {})
        for name, spec in specs.items():
            value = given.get(name, preset.get(name, spec.default))
            resolved[name] = spec.validate(value, self._players)
        return resolved

    @property
    def players(self) -> int:
        """Number of players (seats ``0..players-1``)."""
        return self._players

    @property
    def options(self) -> dict[str, Any]:
        """Every option with its value, defaults and the variant included (a copy)."""
        return dict(self._options)

    def option(self, name: str) -> Any:
        """The value of one option."""
        return self._options[name]

    @property
    def rules(self) -> str:
        """The rulings revision this game plays (``RULES_REVISION`` unless asked for)."""
        return self._rules

    @abstractmethod
    def deck(self) -> list[str]:
        """The complete deck of this game, as card texts."""

    def normalize_card(self, text: str) -> str | None:
        """Canonical text of a forgiving card text, or ``None`` if it is not a card."""
        return None

    def new_state(self, seed: Any = None, deck: Any = None) -> State:
        """Start a game.

        ``seed`` drives every random event (the same seed gives the same game); ``deck``
        fixes the first deal (a complete deck in dealing order, RULINGS C-2) and the seed,
        0 if not given, drives the rest.  With neither, a fresh random seed is drawn and
        kept in the record.
        """
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise RulesError(_t("seed must be a whole number, got {seed!r}", seed=seed))
        if deck is not None:
            deck = self.check_deck(deck)
            if seed is None:
                seed = 0
        elif seed is None:
            seed = random.SystemRandom().randrange(2**32)
        return self._new_state(seed, deck)

    def check_deck(self, deck: Any) -> list[str]:
        """Return ``deck`` in canonical texts; raise :class:`RulesError` unless complete."""
        if isinstance(deck, str) or not isinstance(deck, Sequence):
            raise RulesError(_t("a deck is a list of card texts"))
        canon: list[str] = []
        for i, text in enumerate(deck):
            card = self.normalize_card(text) if isinstance(text, str) else None
            if card is None:
                raise RulesError(
                    _t(
                        "deck card {number} ({text!r}) is not a card of {name}",
                        number=i + 1,
                        text=text,
                        name=self.name,
                    )
                )
            canon.append(card)
        want, got = Counter(self.deck()), Counter(canon)
        if got != want:
            missing = sorted((want - got).elements())
            extra = sorted((got - want).elements())
            raise RulesError(
                _t(
                    "a deck must be the complete {size}-card deck of {name} (got "
                    "{got} cards; missing {missing}; extra {extra})",
                    size=sum(want.values()),
                    name=self.name,
                    got=len(canon),
                    missing=missing or _t("none"),
                    extra=extra or _t("none"),
                )
            )
        return canon

    @abstractmethod
    def _new_state(self, seed: int, deck: list[str] | None) -> State:
        """Make the initial state (``deck`` already checked and canonical)."""

    @abstractmethod
    def sample_state(self, view: Mapping[str, Any], rng: random.Random) -> State:
        """A full state consistent with everything the seat of ``view`` knows.

        It uses only ``view`` and ``rng``; the hidden cards are dealt at random among the
        places the seat cannot see, respecting every public fact (RULINGS C-4).
        """

    def sampler(self, view: Mapping[str, Any]) -> Callable[[random.Random], State]:
        """A function ``rng -> State`` drawing states as :meth:`sample_state` does.

        Search bots draw thousands of states from one view: games may override this to
        do the view's work once.  The default calls :meth:`sample_state` each time.
        """
        self.check_view(view)
        return lambda rng: self.sample_state(view, rng)

    def check_view(self, view: Mapping[str, Any]) -> int:
        """Check that ``view`` is a seat's view of this game; return the seat."""
        if not isinstance(view, Mapping) or view.get("game") != self.name:
            raise RulesError(f"not a view of {self.name}")
        if view.get("players") != self.players or view.get("options") != self._options:
            raise RulesError("the view belongs to a game with other players or options")
        seat = view.get("seat")
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise RulesError("sample_state needs a seat's view, not the public view")
        return seat

    def describe(self) -> JSON:
        """JSON-ready description: name, title, players and option specs."""
        return describe_game(type(self))

    # --- what adapters need (OpenSpiel's game info) -------------------------------------

    def chance_only_at_deal(self) -> bool:
        """Whether the first deal is the only random event of a game (the OpenSpiel
        adapter can then make a small deck's deal an explicit chance node)."""
        return False

    def move_grammar(self) -> MoveGrammar:
        """The forms this game's moves take (with these options).  By default every form of
        the grammar of docs/design.md, runs up to a whole suit: a large action space, right for
        any game whose moves follow the grammar; games declare their own."""
        suits = Counter(card[-1] for card in dict.fromkeys(self.deck()))
        return MoveGrammar(
            max_run=max(suits.values()),
            words=("stock", "take", "pass"),
            card_words=("slough", "discard"),
            suit_words=("trump", "double", "drop"),
        )

    @property
    def utility_bounds(self) -> tuple[float, float]:
        """The lowest and the highest return of a seat (by default far out of reach)."""
        return (-1e9, 1e9)

    @property
    def max_length(self) -> int:
        """The most moves a game can last: its ``max_moves`` option where it has one."""
        if "max_moves" in self._options:
            return int(self._options["max_moves"])
        return DEFAULT_MAX_LENGTH

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self._options.items())
        rules = "" if self._rules == RULES_REVISION else f", rules={self._rules!r}"
        return f"tikki.load({self.name!r}, players={self.players}{rules}, {opts})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Game)
            and other.name == self.name
            and other.players == self.players
            and other._options == self._options
            and other._rules == self._rules
        )

    def __hash__(self) -> int:
        return hash((self.name, self.players, self._rules, tuple(self._options.items())))


# --- states -------------------------------------------------------------------------------


class State(ABC):
    """The whole truth of one game in progress: cards, turn, history, randomness.

    Game modules implement the abstract members; ``play`` raises :class:`IllegalMove` and
    leaves the state unchanged when the move is not legal.
    """

    game: Game
    seed: int | None
    deck: list[str] | None

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """The seat to act, or ``None`` when the game is over."""

    @property
    @abstractmethod
    def phase(self) -> str:
        """Short name of the phase (``"collect"``, ``"shed"``, …, ``"over"``)."""

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """Whether the game has ended (naturally or abandoned)."""

    @property
    @abstractmethod
    def outcome(self) -> JSON | None:
        """``None`` until the game is over; then the result dict of docs/design.md."""

    @abstractmethod
    def legal_moves(self) -> list[str]:
        """The legal moves of the seat to act, canonical texts in a deterministic order."""

    @abstractmethod
    def play(self, move: str) -> None:
        """Apply one move (forgiving text); raise :class:`IllegalMove` if not legal."""

    @abstractmethod
    def view(self, seat: int | None) -> JSON:
        """What ``seat`` may know (``None``: what every seat knows), JSON-ready."""

    @abstractmethod
    def reveal(self) -> JSON:
        """Everything, JSON-ready; never sent to a client.

        Holds at least ``zones`` (every card in exactly one named place), ``hidden`` (per
        seat as text, the cards hidden from it now) and ``deal_order`` (the first deal's
        deck in dealing order, empty for a sampled state).
        """

    @abstractmethod
    def clone(self) -> State:
        """An independent copy."""

    def take_history(self, parent: State) -> None:
        """Take over the history ``parent`` built for its views, where this state is a
        copy of ``parent`` played on (the web server plays each move on a copy and swaps
        it in): this state's views then extend it by the moves since instead of building
        it again, and ``parent`` builds its own again if asked.  The views are the same
        either way; a game that keeps no built history ignores it."""
        return

    @abstractmethod
    def history(self, seat: int | None) -> list[JSON]:
        """The move history as ``seat`` sees it (docs/design.md: view ``history``)."""

    @property
    @abstractmethod
    def moves(self) -> list[str]:
        """Every move played so far, canonical texts (the full record's move list)."""

    # --- the search contract (bots/ismcts.py, analysis.py) -------------------------------

    @property
    def round(self) -> int:
        """The round in progress, from 0; a game of one round stays at 0."""
        return 0

    def returns_so_far(self) -> list[float]:
        """Each seat's running total: the outcome's ``returns`` once the game is over,
        zeros before (a game of one round scores only at its end)."""
        outcome = self.outcome
        if outcome is not None:
            return [float(r) for r in outcome["returns"]]
        return [0.0] * self.game.players

    def random_playout(self, rng: random.Random, greedy: float = 0.0, rounds: int = 0) -> None:
        """Play on to the end quickly (the rollouts of search bots).

        Uniformly random legal moves, ``play(rng.choice(legal_moves()))``.  A game may play
        with probability ``greedy`` a *cheap* move instead (its rollout tactics, the quick
        rules of its bots: :attr:`BotParts.tactics`), and stop once ``rounds`` more rounds
        are scored (``0``: at the end of the game; a game of one round ignores it).
        """
        while not self.is_over:
            self.play(rng.choice(self.legal_moves()))

    def record(self, seat: Any = None) -> JSON:
        """The game as a JSON-ready record.

        Without a seat: the full record (seed, deck if given, moves), replayable by
        :func:`replay`.  With a seat: that seat's record, its view of the history only.
        """
        out: JSON = {
            "format": RECORD_FORMAT,
            "rules": self.game.rules,
            "game": self.game.name,
            "players": self.game.players,
            "options": self.game.options,
        }
        if seat is not None:
            if isinstance(seat, bool) or not isinstance(seat, int):
                raise RulesError(_t("a seat is a whole number, got {seat!r}", seat=seat))
            if not 0 <= seat < self.game.players:
                raise RulesError(
                    _t("no seat {seat}: seats are 0–{last}", seat=seat, last=self.game.players - 1)
                )
            out["seat"] = seat
            out["history"] = self.history(seat)
        else:
            if self.seed is None:
                raise RulesError("a sampled state has no record: it was not dealt from a seed")
            out["seed"] = self.seed
            if self.deck is not None:
                out["deck"] = list(self.deck)
            out["moves"] = list(self.moves)
        if self.is_over:
            out["outcome"] = self.outcome
        return out

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.game.name} phase={self.phase} "
            f"to_act={self.current_player} moves={len(self.moves)}>"
        )


class TableState(State):
    """The plumbing every game state shares: phase and turn as ints, cached legal moves.

    A subclass sets ``PHASE_NAMES`` (its last name is ``"over"``) and keeps ``_phase``,
    ``_to_act`` and ``_legal`` (``None`` when stale).  It implements ``_generate`` (the
    legal move texts of the seat to act: the one source of legality), ``_canonical``
    (forgiving input to a legal text, or :class:`IllegalMove` saying why not) and
    ``_apply`` (play a legal canonical move).
    """

    PHASE_NAMES: ClassVar[tuple[str, ...]]
    _phase: int
    _to_act: int
    _legal: list[str] | None
    _event_log: list[Event]
    _view_cache: tuple[int, JSON] | None
    LAZY_VIEW_KEYS: ClassVar[frozenset[str]] = frozenset()
    """The view's keys that a game computes when they are first read (:meth:`_view_part`)."""
    _view_split: tuple[int, JSON, JSON | None] | None = None

    def _known_parts(self) -> JSON:
        """The view's keys that are not lazy, as they stand after the events so far (those
        that change with any move hold ``None``), built once per event (read it, never
        change it)."""
        split = self._view_split
        events = len(self._event_log)
        if split is None or split[0] != events:
            split = self._view_split = self._split_view(events, split)
        return split[1]

    def _split_view(
        self, events: int, last: tuple[int, JSON, JSON | None] | None
    ) -> tuple[int, JSON, JSON | None]:
        """``(events, the known parts, the shared parts they came from)``: by default
        :meth:`_shared_parts` without the lazy keys (taken again only where the parts are
        new; ``last``: the split before)."""
        parts = self._shared_parts()
        if last is not None and last[2] is parts:
            return (events, last[1], parts)
        lazy = self.LAZY_VIEW_KEYS
        return (events, {k: v for k, v in parts.items() if k not in lazy}, parts)

    def _lazy_view(self, eager: JSON, seat: int | None, moves: int) -> LazyView:
        """The view of ``eager`` (the known parts and this move's keys, ``moves`` moves
        played) whose other keys come from :meth:`_view_part` when read, for the position
        it was taken at.  A state that cannot be dealt again from its seed (a sampled one)
        completes its views at once."""
        order = _VIEW_ORDERS.get(type(self)) or self._view_order()
        view = _NEW_VIEW(LazyView)  # lazy_view(), written out: once a view is asked
        _FILL_VIEW(view, eager)
        view._lazy = (self._view_value, seat, moves, order)
        if self.seed is None or getattr(self, "_sampled_past", None) is not None:
            view.complete()
        return view

    def _view_order(self) -> tuple[str, ...]:
        """Every key of this class's views in their order (its :meth:`_shared_parts`' keys),
        worked out once a class (``_VIEW_ORDERS``)."""
        order = _VIEW_ORDERS.get(type(self))
        if order is None:
            order = _VIEW_ORDERS[type(self)] = tuple(self._shared_parts())
        return order

    def _view_value(self, seat: int | None, keys: tuple[str, ...] | None, moves: int) -> Any:
        """The lazy view keys ``keys`` for ``seat`` as they stood after ``moves`` moves (a
        list; ``None``: the whole view, :meth:`_view_whole`): read from this state where
        nothing was played since, else from the game dealt again and played to then (a
        view read after its state moved on: rare, and slow)."""
        state = self
        if moves != self._moves_played():
            then = self._then
            if then is None or then._moves_played() != moves:
                then = self._then = self._replayed(moves)
            state = then
        if keys is None:
            return state._view_whole(seat)
        part = state._view_part
        return [part(seat, key) for key in keys]

    def _view_whole(self, seat: int | None) -> JSON:
        """Every key of the view of ``seat`` in its order, the lazy ones built (the keys
        that change with any move and are not lazy may hold anything: the view's own
        replace them)."""
        whole = self._shared_parts().copy()
        part = self._view_part
        for key in self.LAZY_VIEW_KEYS:
            whole[key] = part(seat, key)
        return whole

    _then: TableState | None = None

    def _replayed(self, moves: int) -> TableState:
        """This game dealt again from its seed (and deck) and played to ``moves`` moves."""
        state = self.game.new_state(seed=self.seed, deck=self.deck)
        assert isinstance(state, TableState)
        for move in self.moves[:moves]:
            state.play(move)
        return state

    def _moves_played(self) -> int:
        """How many moves were played (``len(moves)`` without building the list)."""
        return len(self.moves)

    def _view_part(self, seat: int | None, key: str) -> Any:
        """The value of the lazy view key ``key`` (one of :attr:`LAZY_VIEW_KEYS`) for
        ``seat``, the state as it stands: here, a key of :meth:`_shared_parts`."""
        return self._shared_parts()[key]

    def _shared_parts(self) -> JSON:
        """The view's parts that change only when an event is emitted, built once per
        event (:meth:`_parts`) and shared between successive views: read, never change.

        A game that uses it keeps ``_event_log`` (its events) and ``_view_cache`` (``None`` at
        first, and in a clone)."""
        cached = self._view_cache
        if cached is None or cached[0] != len(self._event_log):
            cached = self._view_cache = (len(self._event_log), self._parts())
        return cached[1]

    def _parts(self) -> JSON:
        """The event-driven parts of the view (see :meth:`_shared_parts`)."""
        raise NotImplementedError(f"{type(self).__name__} builds its views itself")

    @property
    def current_player(self) -> int | None:
        """The seat to act, or ``None`` when the game is over."""
        return None if self._phase == len(self.PHASE_NAMES) - 1 else self._to_act

    @property
    def phase(self) -> str:
        """The name of the current phase (see the game's ``PHASE_NAMES``)."""
        return self.PHASE_NAMES[self._phase]

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._phase == len(self.PHASE_NAMES) - 1

    def legal_moves(self) -> list[str]:
        """Legal moves of the seat to act, canonical texts in the game's fixed order."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return legal.copy()

    def play(self, move: Any) -> None:
        """Apply one move (forgiving text); raise :class:`IllegalMove`, state unchanged."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        if move not in legal:
            move = self._canonical(move, legal)
        self._apply(move)
        self._legal = None

    def random_playout(self, rng: random.Random, greedy: float = 0.0, rounds: int = 0) -> None:
        """Play uniformly random legal moves to the end (a fast path for search rollouts).

        The same moves and distribution as ``play(rng.choice(legal_moves()))`` without
        copying or re-checking the legal moves; games override it with a faster one that
        honours ``greedy`` and ``rounds`` (see :meth:`State.random_playout`).
        """
        last = len(self.PHASE_NAMES) - 1
        while self._phase != last:
            legal = self._generate()
            self._apply(legal[int(rng.random() * len(legal))])
            self._legal = None

    def _check_seat(self, seat: Any) -> None:
        """Raise :class:`RulesError` unless ``seat`` is a seat of this game or ``None``
        (the public view)."""
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.game.players
        ):
            raise RulesError(
                _t(
                    "no seat {seat!r}: seats are 0–{last} (or None)",
                    seat=seat,
                    last=self.game.players - 1,
                )
            )

    @abstractmethod
    def _generate(self) -> list[str]:
        """The legal move texts of the seat to act (empty when the game is over)."""

    @abstractmethod
    def _canonical(self, move: Any, legal: list[str]) -> str:
        """The legal move meant by ``move``, or raise :class:`IllegalMove` explaining why."""

    @abstractmethod
    def _apply(self, move: str) -> None:
        """Play the legal canonical ``move``."""


_NEW_VIEW = LazyView.__new__
_FILL_VIEW = dict.update

_VIEW_ORDERS: dict[type, tuple[str, ...]] = {}
"""The keys of each state class's views in their order (its ``_parts`` dict's: the same
for every state of a class)."""


def shedding_bounds(players: int) -> tuple[float, float]:
    """The lowest and highest return in a shedding game: the loser's -1, the others' share."""
    return (-1.0, 1.0 / (players - 1))


def shedding_outcome(
    players: int, loser: int | None, out_order: Sequence[int], abandoned: bool
) -> JSON:
    """The outcome dict of a shedding game (docs/design.md: ``outcome``)."""
    if abandoned:
        returns = [-1.0] * players
    else:
        share = 1.0 / (players - 1)
        returns = [-1.0 if s == loser else share for s in range(players)]
    return {
        "loser": None if abandoned else loser,
        "out_order": list(out_order),
        "abandoned": abandoned,
        "returns": returns,
    }


def illegal(move: Any, reason: str, legal: Sequence[str]) -> IllegalMove:
    """An :class:`IllegalMove` saying what was wrong and listing what would be legal."""
    return IllegalMove(
        _t("{reason}. Legal moves: {moves}", reason=reason, moves=", ".join(legal) or _t("none"))
    )


def describe_game(cls: type[Game]) -> JSON:
    """JSON-ready description of a game class: players, variants, option specs, whether
    its tables may offer memory aids (:attr:`Game.memory_aids`), its phase goals
    (:attr:`Game.phase_goals`) and titles (:attr:`Game.phase_titles`) and its word for a
    tie (:attr:`Game.tie_word`), all untranslated (:func:`tikki.core.localized_games`)."""
    players = range(cls.min_players, cls.max_players + 1)
    return {
        "title": cls.title,
        "summary": cls.summary,
        "memory_aids": cls.memory_aids,
        "featured": cls.featured,
        "variant_titles": dict(cls.variant_titles),
        "goals": dict(cls.phase_goals),
        "phase_titles": dict(cls.phase_titles),
        "move_titles": dict(cls.move_titles),
        "seat_facts": dict(cls.seat_facts),
        "tie_word": cls.tie_word,
        "players": {
            "min": cls.min_players,
            "max": cls.max_players,
            "default": cls.default_players,
        },
        "variants": {"standard": {}, **{k: dict(v) for k, v in cls.variants.items()}},
        "options": [spec.describe(players) for spec in cls.option_specs],
    }


_NUMBER_MOVE = re.compile(r"(\S+) (-?\d+)")


def move_title(cls: type[Game], move: str) -> str | None:
    """The declared title of ``move`` (:attr:`Game.move_titles`) in the current language,
    its ``{n}`` filled in for a ``<word> <number>`` move; ``None`` where it has none."""
    title = cls.move_titles.get(move)
    if title:
        return cls.translate(title)
    found = _NUMBER_MOVE.fullmatch(move)
    if found is None:
        return None
    title = cls.move_titles.get(found.group(1) + " {n}")
    return cls.translate(title, n=int(found.group(2))) if title else None
