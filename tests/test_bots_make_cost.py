"""Making a bot reads its factory's signature once (the server makes a bot for every bot
move: reading the signature each time cost more than the Medium bot's decision), and a
bad parameter is still refused in words."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from tikki import bots
from tikki.core import RulesError


def test_the_signature_is_read_once_per_factory(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three bots of one kind, one reading of the signature."""
    calls: list[Any] = []
    real = inspect.signature

    def counting(obj: Any, *args: Any, **kwargs: Any) -> inspect.Signature:
        calls.append(obj)
        return real(obj, *args, **kwargs)

    bots._cached_signature.cache_clear()
    monkeypatch.setattr(inspect, "signature", counting)
    for seed in range(3):
        bots.make("ismcts:iterations=5", seed=seed)
    assert len(calls) == 1


def test_bad_parameters_are_still_refused() -> None:
    """The cached signature refuses what the fresh one did, each time."""
    for _ in range(2):
        with pytest.raises(RulesError, match="no parameter 'depth'"):
            bots.make("heuristic:depth=3")
        with pytest.raises(RulesError, match="not a whole number"):
            bots.make("ismcts:iterations=lots")
