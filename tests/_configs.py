"""Test helper: the game configurations the adapter tests run over."""

from __future__ import annotations

from collections.abc import Iterator

import tikki
from tikki.core import RulesError, game_class
from tikki.testing.checks import players_for


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


def configurations() -> Iterator[tuple[str, int, str]]:
    """Every game, variant (the standard game too) and player count tikki accepts."""
    for name in tikki.games():
        cls = game_class(name)
        for variant in ("standard", *cls.variants):
            for players in range(cls.min_players, cls.max_players + 1):
                try:
                    tikki.load(name, players, variant=variant)
                except RulesError:
                    continue
                yield name, players, variant
