"""Test helper: the game configurations the adapter tests run over."""

from __future__ import annotations

from typing import Any

import tikki
from tikki.core import game_class


def players_for(name: str, variant: str) -> int:
    """The game's default player count, or else the fewest players ``variant`` takes (a
    research ``mini`` deck is too small for more: Mückenstich's mini is for three)."""
    cls = game_class(name)
    counts: list[int] = [cls.default_players, *range(cls.min_players, cls.max_players + 1)]
    for players in counts:
        try:
            tikki.load(name, players, variant=variant)
        except tikki.RulesError:
            continue
        return players
    raise AssertionError(f"{name} variant {variant} takes no player count")


def conformance_configs() -> list[tuple[str, int, dict[str, Any]]]:
    """What each game declares for the conformance harness (``Game.harness``), else
    each player count with the defaults and each variant at the default count."""
    out: list[tuple[str, int, dict[str, Any]]] = []
    for name, spec in tikki.games().items():
        cls = game_class(name)
        declared = [(p, dict(o)) for p, o in cls.harness.conformance]
        if not declared:
            declared = [(p, {}) for p in range(cls.min_players, cls.max_players + 1)]
            declared += [(players_for(name, v), {"variant": v}) for v in spec["variants"]]
            declared = [(p, o) for p, o in declared if o.get("variant") != "standard"]
        out += [(name, players, options) for players, options in declared]
    return out


def adapter_configs() -> list[tuple[str, int, str]]:
    """Each game at its default player count in every variant, at its fewest and most."""
    out: list[tuple[str, int, str]] = []
    for name, spec in tikki.games().items():
        cls = game_class(name)
        for variant in spec["variants"]:
            out.append((name, players_for(name, variant), variant))
        for players in (cls.min_players, cls.max_players):
            if players != cls.default_players:
                out.append((name, players, "standard"))
    return out
