"""A bot seat's shown name: its level in the reader's language, worked out once per
level and language (every state message names every bot seat)."""

from __future__ import annotations

from typing import Any

import pytest

from tikki import bots
from tikki.i18n import use
from tikki.server import botplay


def test_a_level_is_worked_out_once_per_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """Names read in English, Finnish, then English again: one parse of the spec per
    language, and each language's own words."""
    parsed: list[str] = []
    real = bots.parse_spec

    def counting(spec: str) -> Any:
        parsed.append(spec)
        return real(spec)

    botplay.forget_levels()
    monkeypatch.setattr(bots, "parse_spec", counting)
    names = []
    for lang in ("en", "fi", "en", "fi"):
        with use(lang):
            names.append(botplay.shown_name("Aino (Medium)", "heuristic"))
    assert names[0] == names[2] == "Aino (Medium)"
    assert names[1] == names[3] != names[0]
    assert len(parsed) == 2


def test_an_unknown_spec_keeps_its_stored_name() -> None:
    """A spec the bots do not know reads as stored, every time."""
    for _ in range(2):
        assert botplay.shown_name("Aino (Medium)", "nosuchbot:x") == "Aino (Medium)"
