"""``/healthz`` and ``/metrics`` (tikki/server/metrics.py): health for the proxy and
systemd, Prometheus's text format with counts only (no table id, no player, no card)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests._server import TestClient, app_state, auth, create, error_of, join, pick, state
from tikki.server import create_app, metrics


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a metrics page: (name, sorted labels) -> value."""
    out = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[sample.name, tuple(sorted(sample.labels.items()))] = sample.value
    return out


@pytest.fixture
def local(tmp_path: Path) -> Iterator[TestClient]:
    """A test client whose requests come from 127.0.0.1 (the machine itself)."""
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite'}", bot_delay=0)
    with TestClient(app, client=("127.0.0.1", 50000)) as c:
        yield c


def play_some(c: TestClient) -> tuple[str, list[str]]:
    """A two-person Myllymatti table with four person moves played; (id, tokens)."""
    table = create(c, seed=5)["table"]["id"]
    tokens = [join(c, table, 0, "Anna"), join(c, table, 1, "Ben")]
    for _ in range(4):
        for token in tokens:
            mine = state(c, table, token)
            if mine["view"]["legal_moves"]:
                body = {"move": pick(mine["view"], mine["seq"]), "seq": mine["seq"]}
                r = c.post(f"/api/tables/{table}/moves", json=body, headers=auth(token))
                assert r.status_code == 200, r.text
                break
    return table, tokens


def test_health_is_ok_then_503_while_stopping(local: TestClient) -> None:
    r = local.get("/healthz")
    assert (r.status_code, r.text) == (200, "ok\n")
    assert r.headers["cache-control"] == "no-store"
    metrics.stopping(local.app)
    r = local.get("/healthz")
    assert (r.status_code, r.text) == (503, "stopping\n")


def test_health_is_503_when_the_database_does_not_answer(
    local: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(_manager: object) -> None:
        raise OSError("connection refused")

    monkeypatch.setattr(metrics, "_ping", broken)
    r = local.get("/healthz")
    assert (r.status_code, r.text) == (503, "database unavailable\n")


def test_health_is_503_when_the_cluster_lock_connection_is_lost(local: TestClient) -> None:
    class Lost:
        def alive(self) -> bool:
            return False

    class Alive:
        alive = True

    app_state(local).cluster = Alive()
    assert local.get("/healthz").status_code == 200
    app_state(local).cluster = Lost()
    r = local.get("/healthz")
    assert (r.status_code, r.text) == (503, "cluster lock connection lost\n")


def test_metrics_count_moves_tables_and_connections_without_ids(local: TestClient) -> None:
    before = samples(local.get("/metrics").text)
    assert before["tikki_moves_total", (("by", "person"),)] == 0
    table, tokens = play_some(local)
    with local.websocket_connect(f"/ws/tables/{table}") as ws:
        ws.send_json({"type": "hello", "token": tokens[0]})
        ws.receive_json()
        r = local.get("/metrics")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain; version=")
    got = samples(r.text)
    assert got["tikki_moves_total", (("by", "person"),)] == 4
    assert got["tikki_move_seconds_count", ()] == 4
    assert got["tikki_move_seconds_bucket", (("le", "+Inf"),)] == 4
    assert got["tikki_tables", (("status", "playing"),)] == 1
    assert got["tikki_tables", (("status", "waiting"),)] == 0
    assert got["tikki_connections", (("kind", "websocket"),)] == 1
    assert got["tikki_bot_queue", ()] == 0
    # counts only: no table id, token, name or card anywhere on the page
    hand = state(local, table, tokens[0])["view"]["legal_moves"]
    for secret in [table, *tokens, "Anna", "Ben", *hand]:
        assert secret not in r.text


def test_metrics_count_bot_moves_and_the_bot_queue(local: TestClient) -> None:
    create(local, seats=[{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}])
    manager = app_state(local).manager
    for _ in range(200):
        got = samples(local.get("/metrics").text)
        if got["tikki_moves_total", (("by", "bot"),)] >= 3:
            break
    assert got["tikki_moves_total", (("by", "bot"),)] >= 3
    manager.bot_delay = 60  # the next bots wait: their table is in the queue
    create(local, seats=[{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}])
    got = samples(local.get("/metrics").text)
    assert got["tikki_bot_queue", ()] == manager.bot_queue() >= 1


def test_metrics_refuse_other_addresses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite'}", bot_delay=0)
    with TestClient(app, client=("203.0.113.7", 40000)) as c:
        status, code, message = error_of(c.get("/metrics"))
        assert (status, code) == (404, "not_found")
        assert "TIKKI_METRICS_FROM" in message
        assert c.get("/healthz").status_code == 200  # health is no secret
        monkeypatch.setenv("TIKKI_METRICS_FROM", "203.0.113.0/24")
        assert c.get("/metrics").status_code == 200
