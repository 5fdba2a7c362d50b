"""Requests that were 500s: each gets its ``{code, message}`` and
changes nothing.  A fuzz of WebSocket messages (as schemathesis fuzzes HTTP): every frame
is answered, the socket stays open, and a refused message leaves the table as it was."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.exc import OperationalError

from tests._server import (
    INVITES,
    TestClient,
    app_state,
    client,
    create,
    error_of,
    join,
    socket,
    state,
)
from tikki.core import load
from tikki.server import create_app
from tikki.server.db import Store
from tikki.server.quota import Policy

BROKEN = OperationalError("INSERT ...", {}, Exception("disk I/O error"))


def broken(*_args: Any) -> None:
    """A storage call that fails as a full or lost database does."""
    raise BROKEN


def test_storage_failing_during_create_is_503(
    c: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Store, "add_table", broken)
    r = c.post("/api/tables", json={"game": "myllymatti", "seats": [{"kind": "open"}] * 2})
    status, code, message = error_of(r)
    assert (status, code) == (503, "unavailable") and "try again" in message
    monkeypatch.undo()
    assert c.get("/api/tables?status=all").json()["tables"] == []
    assert app_state(c).manager.tables == {}


def test_storage_failing_during_join_is_503(c: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    tid = create(c)["table"]["id"]
    monkeypatch.setattr(Store, "take_seat", broken)
    r = c.post(f"/api/tables/{tid}/seats/0", json={"name": "Anna", "invite": INVITES[tid, 0]})
    status, code, message = error_of(r)
    assert (status, code) == (503, "unavailable") and "try again" in message
    monkeypatch.undo()
    table = c.get(f"/api/tables/{tid}").json()
    assert table["status"] == "waiting" and table["seats"][0]["kind"] == "open"
    assert join(c, tid, 0)


@pytest.mark.parametrize("value", ["²", "1²", "١٠٠", "٣"])
def test_bot_spec_with_non_ascii_digits_is_a_clear_400(c: TestClient, value: str) -> None:
    seats = [{"kind": "open"}, {"kind": "bot", "bot": f"ismcts:iterations={value}"}]
    r = c.post("/api/tables", json={"game": "myllymatti", "seats": seats})
    status, code, message = error_of(r)
    assert (status, code) == (400, "bad_bot") and "0-9" in message, message
    assert c.get("/api/tables?status=all").json()["tables"] == []


@pytest.mark.parametrize("path", ["/static/" + "a" * 300, "/static/" + "a/" * 3000])
def test_odd_static_paths_are_404_json(c: TestClient, path: str) -> None:
    r = c.get(path)
    status, code, _ = error_of(r)
    assert (status, code) == (404, "not_found")


def test_a_nul_in_a_static_path_is_refused_at_the_door(c: TestClient) -> None:
    status, code, message = error_of(c.get("/static/api.js%00.png"))
    assert (status, code) == (422, "bad_request") and "NUL" in message


def test_long_bot_spec_is_stored_on_postgresql(postgres_url: str) -> None:
    spec = "ismcts:iterations=10:c=1." + "0" * 170
    assert 120 < len(spec) <= 200
    app = create_app(postgres_url, bot_delay=0, policy=Policy(allow_bot_specs=True))
    with TestClient(app) as c:
        seats = [{"kind": "open"}, {"kind": "bot", "bot": spec}]
        table = create(c, seats=seats)["table"]
        assert table["seats"][1]["bot"] == spec


def test_deeply_nested_frame_is_bad_message_and_the_socket_stays_open(
    c: TestClient, duel: dict[str, Any]
) -> None:
    with socket(c, duel["id"]) as ws:
        ws.receive_json()
        ws.send_text("[" * 1900 + "]" * 1900)
        error = ws.receive_json()
        assert error["type"] == "error" and error["code"] == "bad_message"
        assert "nests too deeply" in error["message"]
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


# ---------------------------------------------------------------- fuzzing the messages

TYPES = ["move", "hint", "sync", "ping"]
SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
MOVES = st.sampled_from(["7H", "stock", "take", "pass", "trump G", "5H+6H", "", " "]) | VALUES
MESSAGES = st.fixed_dictionaries(
    {"type": st.sampled_from(TYPES) | VALUES},
    optional={"move": MOVES, "seq": VALUES | st.integers(-2, 3), "extra": VALUES},
)
FRAMES = (
    MESSAGES.map(json.dumps)
    | VALUES.map(json.dumps)
    | st.text(max_size=200)
    | st.binary(max_size=200)
    | st.integers(1, 2040).map(lambda n: "[" * n + "]" * n)  # nested, under 4096 bytes
    | st.integers(1, 2040).map(lambda n: '{"type":"sync","move":' + "[" * n + "]" * n + "}")
    | st.integers(4090, 4200).map(lambda n: json.dumps({"type": "ping", "x": "x" * n}))
)


def exchange(ws: Any, frame: str | bytes) -> list[dict[str, Any]]:
    """Send one frame, then a ping; the messages answered up to its pong."""
    if isinstance(frame, bytes):
        ws.send_bytes(frame)
    else:
        ws.send_text(frame)
    ws.send_json({"type": "ping"})
    answers = []
    while (message := ws.receive_json())["type"] != "pong":
        answers.append(message)
    return answers


def test_fuzzed_messages_never_break_the_socket_nor_change_the_table(tmp_path: Path) -> None:
    # The fuzz is about parsing: a sync rate the fuzz cannot reach (the limit has its own
    # tests in test_server_load.py).
    with client(tmp_path, policy=Policy(sync_per_minute=10**9)) as c:
        table = create(c, seed=11)["table"]
        duel = {"id": table["id"], "tokens": [join(c, table["id"], s, "Anna") for s in (0, 1)]}
        _fuzz_socket(c, duel)


def _fuzz_socket(c: TestClient, duel: dict[str, Any]) -> None:
    tid, token = duel["id"], duel["tokens"][1]  # seat 1: not to act
    before = state(c, tid, duel["tokens"][0])
    with socket(c, tid, token) as ws:
        ws.receive_json()

        @settings(
            max_examples=300,
            derandomize=True,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(FRAMES)
        def check(frame: str | bytes) -> None:
            for answer in exchange(ws, frame):
                assert answer["type"] in ("state", "error", "hint"), answer
                if answer["type"] == "error" and answer["code"] == "rate_limited":
                    assert "hint" in answer["message"], answer  # hints are limited
                elif answer["type"] == "error":
                    assert answer["code"] in {
                        "bad_message", "too_large", "not_your_turn", "stale", "illegal_move",
                    }, answer  # fmt: skip
                    assert answer["seq"] == before["seq"]

        check()
    assert settled(state(c, tid, duel["tokens"][0])) == settled(before)


def settled(message: dict[str, Any]) -> dict[str, Any]:
    """A state message without the time a seat's connection last closed (the fuzzing
    socket's own comings and goings change nothing else)."""
    seats = [{k: v for k, v in s.items() if k != "away_since"} for s in message["table"]["seats"]]
    return {**message, "table": {**message["table"], "seats": seats}}


ODD_SEATS = ["²", "٣", "9" * 5000, "+1", " 1"]
"""Seat parameters that are not a plain seat number: a superscript and an Arabic-Indic
digit (``str.isdigit`` says yes, ``int`` may not), a number past ``int``'s digit limit."""


@pytest.mark.parametrize("seat", ODD_SEATS)
def test_an_odd_replay_seat_is_refused_in_words(c: TestClient, seat: str) -> None:
    tid = create(c)["table"]["id"]
    r = c.get(f"/api/tables/{tid}/replay", params={"seat": seat})
    status, code, message = error_of(r)
    assert (status, code) == (404, "unknown_seat") and "give a seat 0–1" in message
    game = load("myllymatti", 2)
    played = game.new_state(seed=3)
    while not played.is_over:
        played.play(played.legal_moves()[0])
    r = c.post("/api/replay", params={"seat": seat}, json=played.record())
    assert error_of(r)[:2] == (404, "unknown_seat")


def test_a_non_ascii_csrf_token_is_refused_as_any_wrong_token(c: TestClient) -> None:
    c.get("/api/account")  # the CSRF cookie
    r = c.post("/api/account/logout", headers={"X-CSRF-Token": "ä€".encode()})
    assert error_of(r)[:2] == (403, "csrf")


def test_joins_of_unknown_tables_leave_no_trace_in_memory(c: TestClient) -> None:
    ratings = app_state(c).ratings
    before = len(ratings.rated)
    for i in range(50):
        r = c.post(f"/api/tables/{'x' * 4000}{i}/seats/0", json={"name": "Anna"})
        assert error_of(r)[1] == "unknown_table"
    assert len(ratings.rated) == before
