""" "Analyse my game" at the web table: jobs on the bots' pool."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests._server import TestClient, app_state, client, create, error_of, join
from tikki import analysis
from tikki.server import analysis as server_analysis
from tikki.server.app import create_app


def finished_table(c: TestClient) -> tuple[str, dict[str, Any]]:
    """A finished two-seat Myllymatti table of random bots; its id and record."""
    bots = [{"kind": "bot", "bot": "random"}] * 2
    table_id = create(c, seats=bots, seed=11)["table"]["id"]
    deadline = time.monotonic() + 60
    while c.get(f"/api/tables/{table_id}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.05)
    record = c.get(f"/api/tables/{table_id}/record").json()
    return table_id, record


def wait_done(c: TestClient, url: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while True:
        job: dict[str, Any] = c.get(url).json()
        if job["status"] != "running":
            return job
        assert 0 <= job["done"] <= job["total"] or job["total"] == 0
        assert time.monotonic() < deadline, f"the analysis did not finish: {job}"
        time.sleep(0.1)


def test_analysis_of_a_finished_game_matches_tikki_analyse(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        app_state(c).analyses.iterations = 20
        table_id, record = finished_table(c)
        url = f"/api/tables/{table_id}/analysis/1"
        started = c.post(url)
        assert started.status_code == 202, started.text
        assert started.json()["status"] in ("running", "done")
        again = c.post(url)  # the same job, not a second one
        assert again.status_code == 202
        assert app_state(c).analyses.jobs.keys() == {(table_id, 1)}
        job = wait_done(c, url)
    assert job["status"] == "done", job
    assert job["done"] == job["total"] > 0
    local = analysis.analyse(record, 1, iterations=20, seed=0)
    assert job["analysis"] == local.to_json()


def test_analysis_is_refused_clearly_before_the_end_and_for_unknown_seats(
    tmp_path: Path,
) -> None:
    with client(tmp_path) as c:
        table_id = create(c)["table"]["id"]
        join(c, table_id, 0)
        status, code, message = error_of(c.post(f"/api/tables/{table_id}/analysis/0"))
        assert (status, code) == (409, "not_finished")
        assert "once it is over" in message
        done_id, _ = finished_table(c)
        status, code, message = error_of(c.post(f"/api/tables/{done_id}/analysis/5"))
        assert (status, code) == (404, "unknown_seat") and "seats are 0–1" in message
        status, code, message = error_of(c.get(f"/api/tables/{done_id}/analysis/0"))
        assert (status, code) == (404, "not_found") and "POST" in message
        status, code, _ = error_of(c.post("/api/tables/nosuch/analysis/0"))
        assert (status, code) == (404, "unknown_table")


def test_one_address_runs_a_bounded_number_of_analyses(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        analyses = app_state(c).analyses
        analyses.iterations = 20_000  # long enough to still be running
        table_id, _ = finished_table(c)
        for seat in range(server_analysis.PER_ADDRESS):
            assert c.post(f"/api/tables/{table_id}/analysis/{seat}").status_code == 202
        other_id, _ = finished_table(c)
        r = c.post(f"/api/tables/{other_id}/analysis/0")
        status, code, message = error_of(r)
        assert (status, code) == (429, "rate_limited")
        assert "still running" in message and r.headers["retry-after"] == "10"


def check_kept(url: str) -> None:
    """A finished analysis is kept in the database: after a restart it is answered at
    once (GET and POST), with no search run; another seat's is still not there."""
    with TestClient(create_app(url, bot_delay=0)) as c:
        app_state(c).analyses.iterations = 20
        table_id, _ = finished_table(c)
        assert c.get(f"/api/tables/{table_id}/analyses").json()["seats"] == []
        url1 = f"/api/tables/{table_id}/analysis/1"
        assert c.post(url1).status_code == 202
        first = wait_done(c, url1)
        assert first["status"] == "done", first
    with (
        TestClient(create_app(url, bot_delay=0)) as c,
        pytest.MonkeyPatch.context() as patch,
    ):

        def no_search(*args: Any) -> Any:
            raise AssertionError("the kept analysis was searched again")

        patch.setattr(analysis, "tasks_of", no_search)
        patch.setattr(analysis, "judge_task", no_search)
        assert app_state(c).analyses.jobs == {}
        assert c.get(f"/api/tables/{table_id}/analyses").json() == {
            "table": table_id,
            "seats": [1],
        }
        kept = c.get(url1)
        assert kept.status_code == 200, kept.text
        assert kept.json() == first
        again = c.post(url1)
        assert again.status_code == 202 and again.json() == first
        status, code, _ = error_of(c.get(f"/api/tables/{table_id}/analysis/0"))
        assert (status, code) == (404, "not_found")


def test_an_analysis_is_done_only_once_it_is_kept(tmp_path: Path) -> None:
    """The job says ``done`` only after its result is in the database: a server stopped
    (or a client gone to another process) right after reading ``done`` finds it kept.
    The store is held back here; until it returns, the job is still ``running``."""
    import threading

    with client(tmp_path) as c:
        state = app_state(c)
        state.analyses.iterations = 20
        table_id, _ = finished_table(c)
        store = state.manager.store
        real = store.keep_analysis
        release, entered = threading.Event(), threading.Event()

        def held(*args: Any) -> None:
            entered.set()
            assert release.wait(60), "the test never released the store"
            real(*args)

        url = f"/api/tables/{table_id}/analysis/1"
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(store, "keep_analysis", held)
            try:
                assert c.post(url).status_code == 202
                assert entered.wait(120), "the analysis never reached its store"
                job = c.get(url).json()
                assert job["status"] == "running" and job["done"] == job["total"], job
            finally:
                release.set()
            done = wait_done(c, url)
        assert done["status"] == "done", done
        assert c.get(f"/api/tables/{table_id}/analyses").json()["seats"] == [1]
        assert state.manager.store.kept_analysis(table_id, 1) == done["analysis"]


def test_a_finished_analysis_is_kept_and_answered_from_sqlite(tmp_path: Path) -> None:
    check_kept(f"sqlite:///{tmp_path / 'web.sqlite'}")


def test_a_finished_analysis_is_kept_and_answered_from_postgresql(postgres_url: str) -> None:
    check_kept(postgres_url)


def test_no_list_of_analyses_before_the_end(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        table_id = create(c)["table"]["id"]
        status, code, _ = error_of(c.get(f"/api/tables/{table_id}/analyses"))
        assert (status, code) == (409, "not_finished")
