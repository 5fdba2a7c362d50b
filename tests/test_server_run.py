"""The serving process keeps the garbage collector out of the move latency."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from tikki.server.run import GC_THRESHOLDS, ServeError, hold_database, tune_gc


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


def test_a_second_server_on_the_same_sqlite_file_is_refused_in_words(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'web.sqlite'}"
    with hold_database(url):
        with pytest.raises(ServeError) as caught, hold_database(url):
            pass
        message = str(caught.value)
        assert "another tikki serve" in message and "web.sqlite" in message and "--db" in message
        with hold_database(f"sqlite:///{tmp_path / 'other.sqlite'}"):
            pass  # another file is another database
    with hold_database(url):
        pass  # free again once the first server stopped


def test_servers_on_postgresql_share_its_database() -> None:
    url = "postgresql://tikki@127.0.0.1/tikki"
    with hold_database(url), hold_database(url):
        pass  # a cluster's processes share one database on purpose
