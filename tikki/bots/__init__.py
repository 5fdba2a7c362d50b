"""Bots: players that see only a seat's view and answer a legal move text.

A bot is made from a *spec*, ``NAME`` or ``NAME:key=value:key=value`` (docs/design.md: bot specs)::

    bot = tikki.bots.make("random", seed=1)
    move = bot.choose(game, state.view(seat))

Bots never receive the State.  Every bot owns a seeded ``random.Random``, so the same seed
and the same views give the same moves.
"""

from __future__ import annotations

import copy
import functools
import importlib
import inspect
import re
from collections.abc import Collection, Mapping
from typing import Any

from tikki.bots import expert, external, heuristic, ismcts, learned, random_bot
from tikki.bots.base import Bot, BotFactory, legal_of
from tikki.core import Game, RulesError
from tikki.i18n import N_, tr
from tikki.i18n import _ as _t

_FACTORIES: dict[str, BotFactory] = {}


def register_bot(name: str, factory: BotFactory | str) -> None:
    """Make ``factory(seed=..., **params)`` available under ``name`` for :func:`make`.

    ``factory`` may be an import path, ``"package.module:Class"``, imported when the bot is
    first made (the form every worker process can resolve on its own)."""
    if isinstance(factory, str):
        factory = _ImportPath(factory)
    _FACTORIES[name] = factory


class _ImportPath:
    """A factory named by ``"module:attribute"``, imported on first use."""

    def __init__(self, path: str) -> None:
        module, colon, attr = path.partition(":")
        if not colon or not module or not attr:
            raise RulesError(
                _t(
                    "a bot import path is 'module:Class', e.g. 'mybots:FirstMove'; got {path!r}",
                    path=path,
                )
            )
        self.path = path

    def resolve(self) -> BotFactory:
        """The factory itself (imported)."""
        module, _, attr = self.path.partition(":")
        try:
            found: Any = importlib.import_module(module)
            for part in attr.split("."):
                found = getattr(found, part)
        except (ImportError, AttributeError) as err:
            raise RulesError(
                _t("cannot import the bot {path!r}: {err}", path=self.path, err=err)
            ) from None
        return found  # type: ignore[no-any-return]

    def __call__(self, **params: Any) -> Bot:
        return self.resolve()(**params)


def registered(names: Collection[str]) -> dict[str, BotFactory]:
    """The factories registered under ``names`` that are not built in (what worker
    processes must be given to make the same bots)."""
    return {n: f for n, f in _FACTORIES.items() if n in names and _BUILTIN.get(n) is not f}


def bot_names() -> list[str]:
    """Names of the available bots."""
    return sorted(_FACTORIES)


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``NAME:key=value:...`` into the name and its parameters (as texts).

    ``cmd:`` specs keep everything after the first colon as the command line.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise RulesError(
            _t(
                "a bot spec is a name such as {names}; got {spec!r}",
                names=", ".join(bot_names()),
                spec=spec,
            )
        )
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    if name == "cmd":
        return name, {"command": rest}
    params: dict[str, str] = {}
    for part in filter(None, rest.split(":")):
        if name == "learned" and "=" not in part:  # learned:GAME names the game's model
            part = f"model={part}"
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise RulesError(
                _t("bot parameter {part!r} in {spec!r} is not key=value", part=part, spec=spec)
            )
        value = value.strip()
        if any(ch.isdigit() and not ch.isascii() for ch in value):
            raise RulesError(
                _t(
                    "bot parameter {part!r} in {spec!r}: write numbers with the "
                    "digits 0-9, a whole number such as 1000 or a decimal such as"
                    " 0.7",
                    part=part,
                    spec=spec,
                )
            )
        params[key.strip()] = value
    return name, params


def make(spec: str, seed: int | None = None, **params: Any) -> Bot:
    """Make a bot from a spec; keyword parameters add to (and override) the spec's."""
    name, spec_params = parse_spec(spec)
    factory = _FACTORIES.get(name)
    if factory is None:
        raise RulesError(
            _t(
                "no bot {name!r}: the bots are {names}",
                name=name,
                names=", ".join(sorted(_FACTORIES)),
            )
        )
    if isinstance(factory, _ImportPath):
        factory = factory.resolve()
    merged: dict[str, Any] = {**spec_params, **params}
    _check_params(name, factory, merged)
    try:
        bot = factory(seed=seed, **merged)
    except (TypeError, ValueError) as err:
        if isinstance(err, RulesError):
            raise
        raise RulesError(
            _t("bot {name!r} cannot use these parameters ({err})", name=name, err=err)
        ) from None
    return bot if _BUILTIN.get(name) is factory else Sealed(bot)


class Sealed:
    """A bot registered from outside tikki, handed only a copy of each view: a plain
    ``dict`` built whole and deep (a view the engine hands out may compute its parts
    from the game when read, and shares lists with the views before it), so the bot can
    neither reach the game's state nor change what another reader sees.  Every other
    attribute is the bot's own."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name: str = bot.name

    def choose(self, game: Game, view: Mapping[str, Any]) -> str:
        """The bot's move for a sealed copy of ``view``."""
        return self.bot.choose(game, copy.deepcopy(dict(view)))

    def __getattr__(self, attr: str) -> Any:
        if attr == "bot":  # not set yet (a copy being made)
            raise AttributeError(attr)
        return getattr(self.bot, attr)


_WHOLE = re.compile(r"[0-9]+")
_NUMBER = re.compile(r"[0-9]+(\.[0-9]*)?|\.[0-9]+")


@functools.lru_cache(maxsize=256)
def _cached_signature(factory: BotFactory) -> inspect.Signature:
    """``inspect.signature`` kept per factory (see :func:`_signature`)."""
    return inspect.signature(factory)


def _signature(factory: BotFactory) -> inspect.Signature:
    """``inspect.signature(factory)``, read once per factory (the server makes a bot for
    each bot move: reading it every time cost more than a Medium bot's decision)."""
    try:
        hash(factory)
    except TypeError:  # a factory that is no dictionary key is read every time
        return inspect.signature(factory)
    return _cached_signature(factory)


def _check_params(name: str, factory: BotFactory, params: Mapping[str, Any]) -> None:
    """Refuse unknown parameter names and values of the wrong kind, naming what is valid.

    A parameter's kind follows its annotation: ``int`` takes a whole number (ASCII digits),
    ``float`` a decimal number such as ``0.7``; other texts are checked by the bot itself.
    """
    try:
        signature = _signature(factory)
    except (TypeError, ValueError):  # pragma: no cover - builtins without a signature
        return
    known = {k: p for k, p in signature.parameters.items() if k != "seed"}
    for key, value in params.items():
        if key not in known:
            valid = f"its parameters are {', '.join(known)}" if known else "it takes none"
            raise RulesError(
                _t(
                    "bot {name!r} has no parameter {key!r}: {valid}",
                    name=name,
                    key=key,
                    valid=valid,
                )
            )
        if not isinstance(value, str):
            continue
        annotation = str(known[key].annotation)
        default = known[key].default
        _check_range(name, key, value)
        if "int" in annotation and not _WHOLE.fullmatch(value):
            raise RulesError(
                _t(
                    "bot {name!r}: {key}={value!r} is not a whole number; write "
                    "digits, e.g. {name}:{key}={default}",
                    name=name,
                    key=key,
                    value=value,
                    default=default,
                )
            )
        if "float" in annotation and not _NUMBER.fullmatch(value):
            example = default if default is not None else 1
            raise RulesError(
                _t(
                    "bot {name!r}: {key}={value!r} is not a number; write a "
                    "decimal number, e.g. {name}:{key}={example}",
                    name=name,
                    key=key,
                    value=value,
                    example=example,
                )
            )


RANGES: dict[tuple[str, str], tuple[str, float, float | None, bool, str]] = {
    ("ismcts", "iterations"): (N_("a whole number, 1 or more"), 1, None, True, "1000"),
    ("ismcts", "seconds"): (N_("a number of seconds above 0"), 0, None, False, "1.0"),
    ("expert", "iterations"): (N_("a whole number, 1 or more"), 1, None, True, "1000"),
    ("expert", "seconds"): (N_("a number of seconds above 0"), 0, None, False, "1.0"),
    ("expert", "samples"): (N_("a whole number, 1 or more"), 1, None, True, "4"),
    ("expert", "solve"): (N_("a number from 0 to 1"), 0, 1, True, "0.4"),
    ("expert", "rules"): (N_("0 or 1"), 0, 1, True, "1"),
    ("expert", "priors"): (N_("a number, 0 or more"), 0, None, True, "1"),
    ("expert", "value"): (N_("a number from 0 to 1"), 0, 1, True, "0.5"),
    ("learned", "sample"): (N_("0 or 1"), 0, 1, True, "1"),
    ("learned", "temperature"): (N_("a number above 0"), 0, None, False, "1.0"),
}
"""The built-in bots' numeric parameters: what each is in words, its least and greatest
value, whether the least is allowed (``seconds`` must be above 0), and an example."""


def _check_range(name: str, key: str, value: str) -> None:
    """Refuse a number outside its parameter's range, saying what the parameter takes."""
    limits = RANGES.get((name, key))
    if limits is None or not _NUMBER.fullmatch(value.removeprefix("-")):
        return
    words, low, high, low_allowed, example = limits
    number = float(value)
    below = number < low or (number == low and not low_allowed)
    if below or (high is not None and number > high):
        raise RulesError(
            _t(
                "bot {name!r}: {key}={value} is out of range: {key} is {words}, "
                "e.g. {name}:{key}={example}",
                name=name,
                key=key,
                value=value,
                words=tr(words),
                example=example,
            )
        )


_BUILTIN: dict[str, BotFactory] = {
    "random": random_bot.RandomBot,
    "heuristic": heuristic.HeuristicBot,
    "ismcts": ismcts.ISMCTSBot,
    "expert": expert.ExpertBot,
    "learned": learned.LearnedBot,
    "cmd": external.ExternalBot,
}
"""The bots tikki ships, by name (a user's bot registered under one of these names
replaces it)."""
_FACTORIES.update(_BUILTIN)


__all__ = [
    "Bot",
    "BotFactory",
    "Sealed",
    "bot_names",
    "legal_of",
    "make",
    "parse_spec",
    "register_bot",
    "registered",
]
