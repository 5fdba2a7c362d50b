"""What an operator watches beside the moves (tikki/server/metrics.py): takeovers,
handovers, lock losses, database errors and reconnects as counters (at 0 from the start,
without ``--cluster`` too), the event loop's lag, and the process's own memory and open
files (prometheus-client's process collector)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from tests._server import TestClient, app_state, create
from tests.test_metrics import local, samples
from tikki.server.tables import storage as storage_module

__all__ = ["local"]

COUNTERS = (
    "tikki_takeovers_total",
    "tikki_handovers_total",
    "tikki_lock_losses_total",
    "tikki_database_errors_total",
    "tikki_reconnects_total",
)


def scrape(c: TestClient) -> dict[str, float]:
    """The metrics page's samples by name (labels dropped: these have none)."""
    r = c.get("/metrics")
    assert r.status_code == 200, r.text
    return {name: value for (name, _labels), value in samples(r.text).items()}


def test_the_operators_series_are_there_from_the_start(local: TestClient) -> None:
    found = scrape(local)
    for name in COUNTERS:
        assert found[name] == 0, name
    assert found["tikki_event_loop_lag_seconds"] >= 0
    assert found["process_resident_memory_bytes"] > 10_000_000
    assert found["process_open_fds"] > 3
    # the six series of before keep their names
    for name in ("tikki_tables", "tikki_moves_total", "tikki_move_seconds_count",
                 "tikki_bot_queue", "tikki_connections"):  # fmt: skip
        assert name in found, name


def test_database_errors_are_counted(local: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    create(local)
    monkeypatch.setattr(storage_module, "OUTAGE_WAIT", 0.2)

    def broken(*_args: Any) -> Any:
        raise OperationalError("SELECT 1", {}, Exception("server closed the connection"))

    monkeypatch.setattr(app_state(local).manager.store, "table_ids", broken)
    assert local.get("/api/tables").status_code == 503
    assert scrape(local)["tikki_database_errors_total"] >= 1


def test_the_lag_is_a_time_the_loop_waited(tmp_path: Path, local: TestClient) -> None:
    """Two scrapes: the second reports the longest lag the sampler saw since the first."""
    scrape(local)
    assert 0 <= scrape(local)["tikki_event_loop_lag_seconds"] < 60
