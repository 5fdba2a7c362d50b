"""Bots at the web table: which specs the server runs, their names and their seeds.

The server offers its named levels (:data:`LEVELS`: Easy, Medium, Hard, Expert, and
Learned where the game has a shipped model for its player count and NumPy imports,
:func:`offered`) only; other specs of ``random``, ``heuristic``, ``ismcts`` (at most
:data:`MAX_ITERATIONS` iterations, no time budgets) and ``learned`` (``learned:sample=1``;
the shipped models only) need ``tikki serve --allow-bot-specs``; ``expert`` runs with a
work budget (``expert:iterations=3000``, about a second a move on one core) so that its
moves do not depend on the machine's speed; external ``cmd:`` bots never run on the
server.  A bot's randomness comes from (table seed, seat, seq), so a table rebuilt after a
restart plays on exactly as it would have.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping
from typing import Any

from tikki import bots as botlib
from tikki import extras
from tikki.bots.heuristic import plain, policy_for
from tikki.core import Game, RulesError, game_class, load
from tikki.i18n import N_, _, current, tr, use

MAX_ITERATIONS = 5000
"""The largest ``ismcts`` iteration budget a table may ask for."""

LEVELS: tuple[tuple[str, str], ...] = (
    ("random", N_("Easy")),
    ("heuristic", N_("Medium")),
    ("ismcts:iterations=1000", N_("Hard")),
    ("expert:iterations=3000", N_("Expert")),
    ("learned", N_("Learned")),
)
"""The bot levels the lobby offers: (spec, label); the labels in English (see :func:`levels`).
A game may run another spec for a level (:func:`level_spec`); Learned plays only the games
and player counts of the shipped models (:func:`learned_games`, :func:`offered`)."""

LEARNED = "learned"
"""The Learned level's spec: the game's shipped policy alone (instant, about Medium)."""

MEDIUM_SEARCH = "ismcts:iterations=200"
"""What the Medium level runs for a game without a heuristic of its own (whose
``heuristic`` would be Easy's legal move at random): a modest search, a fifth of Hard's."""

ALIASES: Mapping[str, tuple[str, ...]] = {"heuristic": (MEDIUM_SEARCH,)}
"""The specs a table runs for a level in some games (:func:`level_spec`), by the level's
spec: a table stores them, and a rematch asks for them again."""

ALLOWED: Mapping[str, frozenset[str]] = {
    "random": frozenset(),
    "heuristic": frozenset(),
    "ismcts": frozenset({"iterations", "c", "rollout", "greedy", "stop", "horizon", "prior"}),
    "expert": frozenset({"iterations"}),
    "learned": frozenset({"sample"}),
}
"""Bot names the server runs, with the parameters each may take."""

FAST_ROLLOUTS = ("greedy", "random")


def check_spec(spec: str, game: Game, any_spec: bool = False) -> str:
    """Return ``spec`` stripped if the server may run it for ``game``; else :class:`RulesError`.

    Without ``any_spec`` only the named levels are accepted.
    """
    allowed = ", ".join(spec for spec, _label in LEVELS)
    try:
        name, params = botlib.parse_spec(spec)
    except RulesError as err:
        raise RulesError(
            _("{err}; the server runs random, heuristic, ismcts and expert", err=err)
        ) from None
    if name not in ALLOWED:
        raise RulesError(
            _(
                "the server does not run {name!r} bots: use random, heuristic,"
                " ismcts or expert (for example {allowed})",
                name=name,
                allowed=allowed,
            )
        )
    extra = sorted(set(params) - ALLOWED[name])
    if extra:
        takes = ", ".join(sorted(ALLOWED[name])) or "no parameters"
        raise RulesError(
            _(
                "bot {name!r} here takes {takes}, not {extra!r}",
                name=name,
                takes=takes,
                extra=extra[0],
            )
        )
    _check_ismcts(params)
    if name == LEARNED and not learned_plays(game):
        raise _learned_refused(game)
    if name == "expert" and "iterations" not in params:
        raise RulesError(
            _(
                "the server runs expert with a work budget, e.g. expert:iterations=3000"
                " (a time budget would make a table play differently after a restart)"
            )
        )
    named = {*dict(LEVELS), *(alias for specs in ALIASES.values() for alias in specs)}
    if not any_spec and spec.strip() not in named:
        levels = ", ".join(f"{level} ({text})" for level, text in LEVELS)
        raise RulesError(
            _(
                "this server offers the bot levels {levels}, not {spec!r}; "
                "other bot specs need a server started with --allow-bot-specs",
                levels=levels,
                spec=spec.strip(),
            )
        )
    try:
        made = botlib.make(spec, seed=0)  # construction validates the values
        if name == "heuristic":
            policy_for(game)
        if name == "learned":  # the game's model must be there (and NumPy)
            made.policy(game)  # type: ignore[attr-defined]
    except (RulesError, ValueError, TypeError, ImportError) as err:
        raise RulesError(_("bot spec {spec!r}: {err}", spec=spec, err=err)) from None
    return level_spec(spec.strip(), game)


def learned_games() -> dict[str, dict[str, list[Any]]]:
    """Where the Learned level plays: each game with a shipped model (``tikki/models``),
    its ``players`` and the ``variants`` its model plays; none where NumPy (the ``models``
    extra) does not import."""
    if extras.missing("models"):
        return {}
    return _learned_games()


@functools.cache
def _learned_games() -> dict[str, dict[str, list[Any]]]:
    from tikki.inference import shipped_players

    where: dict[str, dict[str, list[Any]]] = {}
    for name, counts in shipped_players().items():
        for players in counts:
            names = ("standard", *game_class(name).variants)
            variants = [v for v in names if _fits(name, players, v)]
            if variants:
                where[name] = {"players": [players], "variants": variants}
    return where


def _fits(name: str, players: int, variant: str) -> bool:
    try:
        game = load(name, players, variant=variant)
    except RulesError:  # a variant's deck too small for this many players
        return False
    return learned_plays(game)


def learned_plays(game: Game) -> bool:
    """Whether the Learned level plays ``game``: NumPy imports and the game's shipped model
    is for its player count and sees what its seats see (its variant and options)."""
    if extras.missing("models"):
        return False
    from tikki.inference import shipped_players

    return game.players in shipped_players().get(game.name, ()) and _model_fits(game)


@functools.lru_cache(maxsize=64)
def _model_fits(game: Game) -> bool:
    from tikki.inference import load_for
    from tikki.interop.observations import encoder_for

    try:
        load_for(game).check(game, encoder_for(game).size)
    except RulesError:
        return False
    return True


def offered(game: Game) -> list[str]:
    """The specs of the levels a table of ``game`` (its players, variant, options) may
    seat."""
    return [spec for spec, _label in LEVELS if spec != LEARNED or learned_plays(game)]


def _learned_refused(game: Game) -> RulesError:
    """The Learned level refused for ``game``: why, and the levels that play it."""
    labels = [tr(text) for spec, text in LEVELS if spec in offered(game)]
    choose = _("{items} or {last}", items=", ".join(labels[:-1]), last=labels[-1])
    where = learned_games()
    if not where:
        return RulesError(
            _(
                "the Learned level needs NumPy on this server (pip install"
                " 'tikki[models]'); choose {levels}",
                levels=choose,
            )
        )
    if game.name in where and game.players in where[game.name]["players"]:
        return RulesError(
            _(
                "the Learned level's model for {game} was trained on other rules than this"
                " table's (a variant or options that change what a seat sees); choose"
                " {levels}",
                game=game.title,
                levels=choose,
            )
        )
    shipped = ", ".join(
        _("{game} with {players} players", game=game_class(name).title, players=n)
        for name, info in where.items()
        for n in info["players"]
    )
    return RulesError(
        _(
            "the Learned level plays only where a trained model is shipped ({shipped}), not"
            " {game} with {players} players; choose {levels}",
            shipped=shipped,
            game=game.title,
            players=game.players,
            levels=choose,
        )
    )


def level_spec(spec: str, game: Game) -> str:
    """The spec a table of ``game`` runs for ``spec``: :data:`MEDIUM_SEARCH` for
    ``heuristic`` when the game has no heuristic of its own (so that its four levels
    differ), else ``spec`` itself."""
    if spec == "heuristic" and policy_for(game) is plain:
        return MEDIUM_SEARCH
    return spec


def _check_ismcts(params: Mapping[str, str]) -> None:
    iterations = params.get("iterations")
    if iterations is not None and not (
        iterations.isdigit() and 1 <= int(iterations) <= MAX_ITERATIONS
    ):
        raise RulesError(
            _(
                "ismcts iterations must be a whole number 1–{most}, not {iterations!r}",
                most=MAX_ITERATIONS,
                iterations=iterations,
            )
        )
    rollout = params.get("rollout")
    if rollout is not None and rollout not in FAST_ROLLOUTS:
        raise RulesError(
            _("ismcts rollout here is greedy or random, not {rollout!r}", rollout=rollout)
        )


BOT_NAMES: tuple[str, ...] = ("Aino", "Eero", "Helmi", "Onni", "Saga", "Veikko", "Kerttu")
"""Short names for a table's bots, given in seat order: each bot at a table has its own."""


def levels() -> list[dict[str, Any]]:
    """The lobby's bot levels with their labels in the current language, the specs that
    run for a level in some games (``aliases``, :func:`level_spec`) and, for a level that
    plays only some games, each game's ``players`` and ``variants`` (``games``; ``None``:
    every game, :func:`learned_games`).  Learned is left out where it plays no game (no
    NumPy)."""
    learned = learned_games()
    return [
        {
            "spec": spec,
            "label": tr(text),
            "aliases": list(ALIASES.get(spec, ())),
            "games": learned if spec == LEARNED else None,
        }
        for spec, text in LEVELS
        if spec != LEARNED or learned
    ]


def level(spec: str) -> str:
    """The level's name, as the lobby, the hint and the log say it, in the current
    language: ``Medium`` for ``heuristic`` (and its :data:`ALIASES`); an ``ismcts``
    budget other than the lobby's is added.  Worked out once per spec and language
    (every state message names every bot seat); a spec the bots refuse raises
    :class:`RulesError` each time."""
    return _level_in(spec, current())


@functools.lru_cache(maxsize=1024)
def _level_in(spec: str, lang: str) -> str:
    """:func:`level` in ``lang``."""
    with use(lang):
        return _level(spec)


def forget_levels() -> None:
    """Forget the level names worked out so far (tests)."""
    _level_in.cache_clear()


def _level(spec: str) -> str:
    """:func:`level`, worked out."""
    name, params = botlib.parse_spec(spec)
    for level_of, specs in ALIASES.items():
        if spec in specs:
            return tr(dict(LEVELS)[level_of])
    for lobby_spec, text in LEVELS:
        if lobby_spec == spec or (name != "ismcts" and lobby_spec == name):
            return tr(text)
    if name == "ismcts":
        return _("Hard, {n} iterations", n=params.get("iterations", "1000"))
    return name


def label(spec: str, index: int = 0) -> str:
    """A seat name for the ``index``-th bot of a table: ``Aino (Medium)`` for a first
    ``heuristic`` bot (stored so, in English; :func:`shown_name` translates it)."""
    with use("en"):
        return f"{BOT_NAMES[index % len(BOT_NAMES)]} ({level(spec)})"


def shown_name(stored: str, spec: str | None) -> str:
    """A bot seat's stored name with its level in the current language: ``Aino (Medium)``
    reads ``Aino (Keskitaso)`` in Finnish."""
    first, paren, _rest = stored.partition(" (")
    if spec is None or not paren:
        return stored
    try:
        return f"{first} ({level(spec)})"
    except RulesError:
        return stored


CHEAP = frozenset({"random", "heuristic"})
"""Bots that decide in well under a millisecond: the server runs them on its event loop
(a worker thread would cost more than the decision); others run in worker threads.
``learned`` is not one: its NumPy forward pass and determinization take about 1 ms a
decision (``benchmarks/learned_decision.py``)."""


@functools.lru_cache(maxsize=256)
def is_cheap(spec: str) -> bool:
    """True for a bot cheap enough to decide on the server's event loop (asked twice a
    bot move: the answer is kept per spec)."""
    return botlib.parse_spec(spec)[0] in CHEAP


def bot_seed(seed: int, seat: int, seq: int, purpose: str = "move") -> int:
    """A bot's seed for one decision, from the table seed, the seat and the seq."""
    digest = hashlib.sha256(f"tikki:{purpose}:{seed}:{seat}:{seq}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def choose(spec: str, game: Game, view: Mapping[str, Any], seed: int) -> str:
    """The move the bot ``spec`` makes from ``view``."""
    return botlib.make(spec, seed=seed).choose(game, view)


__all__ = [
    "ALIASES",
    "ALLOWED",
    "CHEAP",
    "LEARNED",
    "LEVELS",
    "MAX_ITERATIONS",
    "MEDIUM_SEARCH",
    "bot_seed",
    "check_spec",
    "choose",
    "forget_levels",
    "is_cheap",
    "label",
    "learned_games",
    "learned_plays",
    "level",
    "level_spec",
    "levels",
    "offered",
    "shown_name",
]
