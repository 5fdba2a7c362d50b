"""The serving process keeps the garbage collector out of the move latency."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from tikki.server.run import GC_THRESHOLDS, tune_gc


@pytest.fixture
def restore_gc() -> Iterator[None]:
    before = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*before)


def test_tune_gc_collects_less_often_and_freezes_startup_objects(restore_gc: None) -> None:
    gc.unfreeze()
    tune_gc()
    assert gc.get_threshold() == GC_THRESHOLDS
    assert gc.get_freeze_count() > 0
