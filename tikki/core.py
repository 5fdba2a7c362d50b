"""The engine core: errors, option specs, the Game/State contract, the registry, records.

Every part of tikki (bots, terminal, server, adapters) reaches the games only through the
names defined here (see ``docs/design.md``):

* :func:`load` makes an immutable :class:`Game` (name, players, options);
* :meth:`Game.new_state` makes a :class:`State`, the whole truth of one game;
* :meth:`State.view` projects what one seat may know; :meth:`Game.sample_state` goes back
  from such a view to a full state consistent with it (for search bots);
* :meth:`State.record` and :func:`replay` store and verify whole games.

Game modules register their Game subclass with :func:`register`.  A game module does no
I/O and uses no global randomness: a state owns a seeded ``random.Random``.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import random
import re
import warnings
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from tikki.i18n import _ as _t
from tikki.i18n import ngettext
from tikki.i18n import own as translate_own
from tikki.views import BaseView

if TYPE_CHECKING:  # tikki.events imports this module
    from tikki.events import Event

RULES_REVISION = "r2"
"""The RULINGS.md revision new games play; stored in every record."""
RULES_REVISIONS = ("r1", "r2")
"""Every revision this engine can play: a game (and a record) names one of them.

Records of an older revision replay under that revision's readings, so a stored game
never changes its rules (``r1``: AM-5 "losing" and who may slough, MS-8's 3-player trump
as read before ``r2``)."""
RECORD_FORMAT = 1
"""Version of the record layout; bumped whenever the layout changes."""

JSON = dict[str, Any]
"""A JSON-ready dictionary."""

GAMES_GROUP = "tikki.games"
"""The entry-point group through which games are found, tikki's own three included: a
package adds a game with ``[project.entry-points."tikki.games"] NAME = "module:GameClass"``."""
VALUE_KINDS = ("not_loser", "points")
"""What a game's values (analysis, hints) measure: the chance of not being the loser, or
the expected points (:attr:`Game.value_kind`)."""


class RulesError(ValueError):
    """A game, option, value, deck or record that the rules do not allow."""


class IllegalMove(ValueError):
    """A move that is malformed or not legal now; the state is left unchanged."""


# --- options ------------------------------------------------------------------------------


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game: its name, type, default, allowed values and help text."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    research: bool = False
    """An option for research set-ups (a short deck, short hands): at its default the game
    is the one of the rules, and a player's options line leaves it out."""

    @property
    def kind(self) -> type:
        """The Python type of the option's values (``bool``, ``int`` or ``str``)."""
        return type(self.default)

    def validate(self, value: Any) -> Any:
        """Return ``value`` converted to this option's type; raise :class:`RulesError`.

        Text from a command line (``"true"``, ``"3"``) is accepted for every type.
        """
        kind = self.kind
        if kind is bool:
            value = self._to_bool(value)
        elif kind is int:
            value = self._to_int(value)
        elif not isinstance(value, str):
            raise RulesError(
                _t(
                    "option {name} takes text, got {value!r}{expected}",
                    name=self.name,
                    value=value,
                    expected=self._expected(),
                )
            )
        if self.choices is not None and value not in self.choices:
            raise RulesError(
                _t(
                    "option {name} cannot be {value!r}{expected}",
                    name=self.name,
                    value=value,
                    expected=self._expected(),
                )
            )
        if self.minimum is not None and value < self.minimum:
            raise RulesError(
                _t(
                    "option {name} must be at least {minimum}, got {value}",
                    name=self.name,
                    minimum=self.minimum,
                    value=value,
                )
            )
        return value

    def _expected(self) -> str:
        if self.choices is not None:
            return _t(
                ": valid values are {values}", values=", ".join(_show(c) for c in self.choices)
            )
        return ""

    def _to_bool(self, value: Any) -> bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in _BOOL_TEXT:
            return _BOOL_TEXT[value.strip().lower()]
        raise RulesError(
            _t("option {name} is true or false, got {value!r}", name=self.name, value=value)
        )

    def _to_int(self, value: Any) -> int:
        if isinstance(value, bool):
            raise RulesError(
                _t("option {name} takes a whole number, got {value!r}", name=self.name, value=value)
            )
        if isinstance(value, int):
            return value
        if isinstance(value, str):
            try:
                return int(value.strip())
            except ValueError:
                pass
        raise RulesError(
            _t("option {name} takes a whole number, got {value!r}", name=self.name, value=value)
        )

    def describe(self) -> JSON:
        """A JSON-ready description of this option (for help texts and ``tikki.games()``)."""
        out: JSON = {"name": self.name, "type": self.kind.__name__, "default": self.default}
        out["help"] = self.help
        out["text"], out["rulings"] = split_rulings(self.help)
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        return out


RULING_ID = re.compile(r"\b[A-Z]{1,3}-\d+\b")
"""A ruling id of RULINGS.md cited in a help text, e.g. ``MM-14``."""


def split_rulings(text: str) -> tuple[str, list[str]]:
    """A help text in words (its cited ruling ids taken out) and those ids, in order:
    ``"bottom (a variant, MM-18)"`` gives ``("bottom (a variant)", ["MM-18"])``."""
    ids = RULING_ID.findall(text)
    words = RULING_ID.sub("", text)
    words = re.sub(r",\s*\)", ")", words)
    words = re.sub(r"\(\s*\)", "", words)
    return re.sub(r"\s+", " ", words).strip().rstrip(","), ids


_BOOL_TEXT = {"true": True, "on": True, "yes": True, "1": True}
_BOOL_TEXT.update({"false": False, "off": False, "no": False, "0": False})


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def max_moves_option(default: int = 2000) -> OptionSpec:
    """The end guarantee of the shedding games (RULINGS C-5)."""
    return OptionSpec(
        "max_moves",
        default,
        "moves after which an unfinished game is abandoned, with no loser (C-5)",
        minimum=1,
    )


# --- games --------------------------------------------------------------------------------


@dataclass(frozen=True)
class MoveGrammar:
    """Which move forms a game has besides playing one card (docs/design.md: move texts).

    Runs of 2..``max_run`` consecutive cards of a suit (``5H+6H``), plain ``words``
    (``stock``, ``take``, ``pass``), ``<word> <card>`` for each of ``card_words``
    (``slough 7H``) and ``<word> <suit>`` for each of ``suit_words`` (``trump G``).  The
    adapters build their fixed action spaces from it (``tikki.interop.encoding``).
    """

    max_run: int = 0
    words: tuple[str, ...] = ()
    card_words: tuple[str, ...] = ()
    suit_words: tuple[str, ...] = ()


DEFAULT_MAX_LENGTH = 100_000
"""The longest game :attr:`Game.max_length` assumes of a game that declares nothing."""


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
    rule_phases: ClassVar[frozenset[str]] = frozenset()
    """The phases whose moves the ``expert`` bot plays by the heuristic's rules, not by
    search."""
    heuristic_module: ClassVar[str] = ""
    """The module of the game's ``heuristic`` policy, ``choose(game, view, rng)``; empty:
    ``tikki.bots.heuristic.<name>`` if there is one, else a legal move at random."""
    presenter_module: ClassVar[str] = ""
    """The module of the game's terminal presenter (its ``PRESENTER``); empty:
    ``tikki.tui.<name>`` if there is one, else the generic presenter."""
    web_renderer: ClassVar[str] = ""
    """The game's web renderer, an ES module in its package as ``package:file``
    (``mygame:render.js``), served as ``/static/render/<name>.js``; empty: tikki's own
    ``render/<name>.js`` if there is one, else ``render/generic.js``."""
    tactics_module: ClassVar[str] = ""
    """The module of the game's rollout tactics on ints (:func:`tactics`), if it has any."""
    endgame_phase: ClassVar[str] = ""
    """The phase in which the ``expert`` bot may solve the game exactly (its endgame
    solver), once few cards are left; empty: never."""
    endgame_hidden: ClassVar[bool] = False
    """Whether states that a view allows still differ in that phase (a pile dealt unseen),
    so that the solver trusts only what holds over several drawn states."""
    conformance: ClassVar[tuple[tuple[int, Mapping[str, Any]], ...]] = ()
    """The configurations, ``(players, options)``, the conformance harness plays; empty:
    each player count with the defaults, and each variant at the default count."""
    view_type: ClassVar[type[Mapping[str, Any]]] = BaseView
    """The ``TypedDict`` of a seat's view (:mod:`tikki.views` holds the shared keys);
    ``tests/test_views_types.py`` checks it against real views."""
    observation_encoder: ClassVar[str] = ""
    """``"module:Class"`` of the game's fast observation encoder (NumPy, the ``gym`` extra;
    :func:`tikki.interop.observations.encoder_for`), or empty for the generic one."""
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
    (untranslated), for the generic table's buttons and move lists; a move without one
    shows its text."""
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
            resolved[name] = spec.validate(value)
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
        with probability ``greedy`` a *cheap* move instead (its bots' quick rules: see
        ``tikki.bots.heuristic``), and stop once ``rounds`` more rounds are scored (``0``:
        at the end of the game; a game of one round ignores it).
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
        return list(legal)

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


@functools.cache
def tactics(game_name: str) -> Any:
    """The rules of thumb on ints for ``game_name``, the module its class declares
    (:attr:`Game.tactics_module`): a game's greedy ``random_playout`` plays its cheap moves
    by them, and so does the ``heuristic`` bot, so that rollout policy has one home
    (imported on first use: the bots import the games)."""
    module = game_class(game_name).tactics_module
    if not module:
        raise RulesError(f"the game {game_name!r} declares no rollout tactics")
    return importlib.import_module(module)


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


# --- registry -----------------------------------------------------------------------------

_REGISTRY: dict[str, type[Game]] = {}
G = TypeVar("G", bound=type[Game])


def register(cls: G) -> G:
    """Make a Game subclass loadable by its ``name``; a game module calls it after the
    class (not as a decorator, which would keep a compiled class from being native)."""
    _REGISTRY[cls.name] = cls
    return cls


@functools.cache
def _load_modules() -> None:
    """Register every game of the entry-point group :data:`GAMES_GROUP` once.

    A game that fails to load is left out with a warning naming it.  A source tree that
    was never installed has no entry points of its own; then the modules of
    :mod:`tikki.games` are imported, and each registers itself.
    """
    own = False
    for point in entry_points(group=GAMES_GROUP):
        own = own or (point.dist is not None and point.dist.name == "tikki")
        try:
            cls = point.load()
        except Exception as err:  # a broken plug-in must not take the other games down
            warnings.warn(f"game {point.name!r} ({point.value}) did not load: {err}", stacklevel=2)
            continue
        if not (isinstance(cls, type) and issubclass(cls, Game)):
            warnings.warn(f"game {point.name!r} ({point.value}) is not a Game class", stacklevel=2)
            continue
        register(cls)
    if not own:
        package = importlib.import_module("tikki.games")
        for info in pkgutil.iter_modules(package.__path__, "tikki.games."):
            importlib.import_module(info.name)


def _registry() -> dict[str, type[Game]]:
    _load_modules()  # even if a game module was imported (and registered) directly
    return _REGISTRY


def load(name: Any, players: Any = None, *, rules: Any = None, **options: Any) -> Game:
    """Make a game by name: ``load(name, players=3, variant=...)`` (:func:`games` names them).

    ``rules`` picks an older rulings revision (``"r1"``), as a stored game needs; new
    games leave it out and play :data:`RULES_REVISION`.  Unknown games, options, values
    and revisions raise :class:`RulesError` naming the valid ones.
    """
    key = name.strip().lower() if isinstance(name, str) else name
    return game_class(key, shown=name)(players, rules=rules, **options)


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


def describe_game(cls: type[Game]) -> JSON:
    """JSON-ready description of a game class: players, variants, option specs, whether
    its tables may offer memory aids (:attr:`Game.memory_aids`), its phase goals
    (:attr:`Game.phase_goals`) and titles (:attr:`Game.phase_titles`) and its word for a
    tie (:attr:`Game.tie_word`), all untranslated (:func:`tikki.i18n.localized_games`)."""
    return {
        "title": cls.title,
        "summary": cls.summary,
        "memory_aids": cls.memory_aids,
        "featured": cls.featured,
        "variant_titles": dict(cls.variant_titles),
        "goals": dict(cls.phase_goals),
        "phase_titles": dict(cls.phase_titles),
        "move_titles": dict(cls.move_titles),
        "tie_word": cls.tie_word,
        "players": {
            "min": cls.min_players,
            "max": cls.max_players,
            "default": cls.default_players,
        },
        "variants": {"standard": {}, **{k: dict(v) for k, v in cls.variants.items()}},
        "options": [spec.describe() for spec in cls.option_specs],
    }


def games() -> dict[str, JSON]:
    """The registered games, by name, with their players, variants and option specs."""
    return {name: describe_game(cls) for name, cls in sorted(_registry().items())}


def lobby_order() -> list[str]:
    """The registered games' names as the lobby lists them: the featured ones
    (:attr:`Game.featured`) first, then by name."""
    registry = sorted(_registry().items())
    return [n for n, c in registry if c.featured] + [n for n, c in registry if not c.featured]


def memory_aid_titles() -> str:
    """The titles of the games whose tables may offer memory aids (:attr:`Game.memory_aids`),
    for messages: ``A, B``."""
    return ", ".join(cls.title for _, cls in sorted(_registry().items()) if cls.memory_aids)


def game_class(name: Any, shown: Any = None) -> type[Game]:
    """The Game subclass registered under ``name``; raise :class:`RulesError` if none,
    naming ``shown`` (what was asked for; default ``name``) and the games there are."""
    registry = _registry()
    cls = registry.get(name) if isinstance(name, str) else None
    if cls is None:
        raise RulesError(
            _t(
                "no game {name!r}: the games are {games}",
                name=name if shown is None else shown,
                games=", ".join(sorted(registry)),
            )
        )
    return cls


# --- records ------------------------------------------------------------------------------


def replay(
    record: Mapping[str, Any], on_move: Callable[[int, str, State], None] | None = None
) -> State:
    """Rebuild a game from its record, verifying every move; return the final state.

    A malformed or tampered record raises :class:`RulesError` naming the first bad field
    or move.  ``on_move(index, move, state)`` is called after each verified move.
    """
    if not isinstance(record, Mapping):
        raise RulesError(_t("a record is a JSON object"))
    if "history" in record and "moves" not in record:
        raise RulesError(_t("this is one seat's record (no seed, no deck): it cannot be replayed"))
    fmt = record.get("format")
    if fmt != RECORD_FORMAT:
        raise RulesError(
            _t(
                "record format {fmt!r} is not supported (this tikki reads {supported})",
                fmt=fmt,
                supported=RECORD_FORMAT,
            )
        )
    if "rules" not in record:
        raise RulesError(_t("record has no 'rules' (the rulings revision it was played under)"))
    if record["rules"] not in RULES_REVISIONS:
        raise RulesError(
            _t(
                "record was played under rules {rules!r}; this tikki replays {revisions}",
                rules=record["rules"],
                revisions=", ".join(repr(r) for r in RULES_REVISIONS),
            )
        )
    for key in ("game", "players", "options", "seed", "moves"):
        if key not in record:
            raise RulesError(_t("record has no {key!r}", key=key))
    options = record["options"]
    if not isinstance(options, Mapping):
        raise RulesError(_t("record 'options' must be an object"))
    if "rules" in options:
        raise RulesError(_t("record 'options' holds 'rules': the revision is the record's own key"))
    game = load(record["game"], record["players"], rules=record["rules"], **options)
    state = game.new_state(seed=record["seed"], deck=record.get("deck"))
    moves = record["moves"]
    if not isinstance(moves, list):
        raise RulesError(_t("record 'moves' must be a list of move texts"))
    for i, move in enumerate(moves):
        seat = state.current_player
        if not isinstance(move, str):
            raise RulesError(
                _t(
                    "record move {number} is {what}, not a move text",
                    number=i + 1,
                    what=_json_kind(move),
                )
            )
        if state.is_over:
            raise RulesError(
                ngettext(
                    "record move {number} ({move}) comes after the end of the game: the "
                    "record has {n} move too many",
                    "record move {number} ({move}) comes after the end of the game: the "
                    "record has {n} moves too many",
                    len(moves) - i,
                    number=i + 1,
                    move=move,
                )
            )
        try:
            state.play(move)
        except IllegalMove as err:
            raise RulesError(
                _t(
                    "record move {number}, {move} by seat {seat}, is illegal: {err}",
                    number=i + 1,
                    move=move,
                    seat=seat,
                    err=err,
                )
            ) from None
        if on_move is not None:
            on_move(i, move, state)
    expected = record.get("outcome")
    if expected is not None and expected != state.outcome:
        claimed, actual = outcome_words(expected), outcome_words(state.outcome)
        if claimed == actual:
            raise RulesError(
                _t(
                    "the record's outcome is not the replayed game's ({outcome}): its "
                    "figures were changed",
                    outcome=actual,
                )
            )
        raise RulesError(
            _t(
                "the record's outcome ({expected}) is not the replayed game's ({outcome})",
                expected=claimed,
                outcome=actual,
            )
        )
    return state


def _json_kind(value: Any) -> str:
    """What a JSON value is, in words: ``null``, ``a number``, ``a list``, ``an object``."""
    if value is None:
        return _t("null (empty)")
    if isinstance(value, bool):
        return _t("true or false")
    if isinstance(value, int | float):
        return _t("a number ({value})", value=value)
    if isinstance(value, list):
        return _t("a list")
    return _t("an object")


def outcome_words(outcome: Any) -> str:
    """A game's outcome in words: ``seat 2 loses``, ``scores 9, 6, 5``, ``abandoned``."""
    if not isinstance(outcome, Mapping):
        return _t("no outcome") if outcome is None else _t("not an outcome")
    if outcome.get("abandoned"):
        return _t("abandoned")
    if isinstance(outcome.get("scores"), list):
        return _t("scores {scores}", scores=", ".join(str(s) for s in outcome["scores"]))
    if isinstance(outcome.get("loser"), int):
        return _t("seat {seat} loses", seat=outcome["loser"])
    return _t("not an outcome")
