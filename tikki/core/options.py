"""Options: what a game is made with besides its players (:class:`OptionSpec`), and the
help texts that cite the rulings (:func:`split_rulings`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from tikki.errors import RulesError
from tikki.i18n import _ as _t
from tikki.views import JSON


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game: its name, type, default, allowed values and help text."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | Callable[[int], int] | None = None
    """The largest value of a whole-number option: a number, or a function of the player
    count (``lambda players: 23 // players``: the cards a hand may have); ``None``: none."""
    research: bool = False
    """An option for research set-ups (a short deck, short hands): at its default the game
    is the one of the rules, and a player's options line leaves it out."""

    @property
    def kind(self) -> type:
        """The Python type of the option's values (``bool``, ``int`` or ``str``)."""
        return type(self.default)

    def limit(self, players: int) -> int | None:
        """The :attr:`maximum` for a game of ``players`` (``None``: no maximum)."""
        if self.maximum is None or isinstance(self.maximum, int):
            return self.maximum
        return int(self.maximum(players))

    def validate(self, value: Any, players: int | None = None) -> Any:
        """Return ``value`` converted to this option's type; raise :class:`RulesError`.

        Text from a command line (``"true"``, ``"3"``) is accepted for every type.  The
        :attr:`maximum` is checked where it is a number, or where ``players`` is given.
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
        self._check_maximum(value, players)
        return value

    def _check_maximum(self, value: Any, players: int | None) -> None:
        top = self.maximum if isinstance(self.maximum, int) else None
        if players is not None:
            top = self.limit(players)
        if top is None or value <= top:
            return
        if players is None or isinstance(self.maximum, int):
            raise RulesError(
                _t(
                    "option {name} must be at most {maximum}, got {value}",
                    name=self.name,
                    maximum=top,
                    value=value,
                )
            )
        raise RulesError(
            _t(
                "option {name} must be at most {maximum} with {players} players, got {value}",
                name=self.name,
                maximum=top,
                players=players,
                value=value,
            )
        )

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

    def describe(self, players: Iterable[int] = ()) -> JSON:
        """A JSON-ready description of this option (for help texts and ``tikki.games()``).

        A :attr:`maximum` that depends on the player count is given for each of
        ``players`` as ``maximum_by_players`` (``{"3": 7, "4": 5}``)."""
        out: JSON = {"name": self.name, "type": self.kind.__name__, "default": self.default}
        out["help"] = self.help
        out["text"], out["rulings"] = split_rulings(self.help)
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if isinstance(self.maximum, int):
            out["maximum"] = self.maximum
        elif self.maximum is not None:
            out["maximum_by_players"] = {str(n): self.limit(n) for n in players}
        if self.research:
            out["research"] = True
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
