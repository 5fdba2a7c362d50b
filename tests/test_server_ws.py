"""The web table's WebSocket (docs/protocol.md): play, sync, hints and every refusal.

After each refusal the connection stays open and a ``sync`` shows the same state.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from tests._server import TestClient, create, join, pick, socket, state


def ws_to(c: TestClient, duel: dict[str, Any], seat: int | None) -> Any:
    """A socket to the duel: seat 0, seat 1 or (``None``) a spectator."""
    return socket(c, duel["id"], None if seat is None else duel["tokens"][seat])


def sync(ws: Any) -> dict[str, Any]:
    ws.send_json({"type": "sync"})
    message: dict[str, Any] = ws.receive_json()
    assert message["type"] == "state"
    return message


def test_connect_play_and_see_the_other_seat(c: TestClient, duel: dict[str, Any]) -> None:
    with ws_to(c, duel, 0) as ws0:
        first = ws0.receive_json()
        assert first["type"] == "state" and first["seat"] == 0 and first["seq"] == 0
        assert first["table"]["seats"][0]["connected"] is True
        assert first["table"]["seats"][1]["connected"] is False
        with ws_to(c, duel, 1) as ws1:
            joined = ws1.receive_json()
            assert joined["seat"] == 1 and joined["table"]["seats"][1]["connected"] is True
            assert ws0.receive_json()["table"]["seats"][1]["connected"] is True
            move = first["view"]["legal_moves"][0]
            ws0.send_json({"type": "move", "move": move, "seq": 0})
            mine, theirs = ws0.receive_json(), ws1.receive_json()
            assert mine["seq"] == theirs["seq"] == 1
            assert mine["last"]["seat"] == 0 and theirs["last"]["seat"] == 0
            assert theirs["view"]["seat"] == 1 and theirs["view"]["legal_moves"]
        assert ws0.receive_json()["table"]["seats"][1]["connected"] is False


def test_spectator_gets_the_public_view(c: TestClient, duel: dict[str, Any]) -> None:
    with ws_to(c, duel, None) as ws:
        first = ws.receive_json()
        assert first["seat"] is None and first["view"]["legal_moves"] == []
        assert first["view"]["hand"] == [] or first["view"]["hand"] is None
        ws.send_json({"type": "move", "move": "stock", "seq": 0})
        error = ws.receive_json()
        assert error["type"] == "error" and error["code"] == "spectator"
        assert "join an open seat" in error["message"]
        ws.send_json({"type": "hint"})
        assert ws.receive_json()["code"] == "spectator"
        assert sync(ws) == first


def test_ping_and_hint(c: TestClient, duel: dict[str, Any]) -> None:
    with ws_to(c, duel, 0) as ws:
        first = ws.receive_json()
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
        ws.send_json({"type": "hint"})
        hint = ws.receive_json()
        assert hint["type"] == "hint" and hint["move"] in first["view"]["legal_moves"]
        assert hint["bot"] == "judge"  # the hint is the analysis's best move
        assert sync(ws) == first


@pytest.mark.parametrize(
    ("seat", "message", "code", "words"),
    [
        (1, {"type": "move", "move": "stock", "seq": 0}, "not_your_turn", "seat 0's turn"),
        (1, {"type": "hint"}, "not_your_turn", "seat 0's turn"),
        (0, {"type": "move", "move": "ZZ", "seq": 0}, "illegal_move", "Legal moves:"),
        (0, {"type": "move", "move": "stock", "seq": 4}, "stale", "the table is at state 0"),
        (0, {"type": "move", "move": "stock"}, "bad_message", '"seq"'),
        (0, {"type": "move", "move": "stock", "seq": True}, "bad_message", '"seq"'),
        (0, {"type": "move", "move": 7, "seq": 0}, "bad_message", '"move"'),
        (0, {"type": "dance"}, "bad_message", "unknown message type 'dance'"),
        (0, {"move": "stock", "seq": 0}, "bad_message", "unknown message type None"),
        (0, "{not json", "bad_message", "not JSON"),
        (0, "[1, 2]", "bad_message", "not a JSON object"),
        (0, json.dumps({"type": "move", "move": "x" * 5000, "seq": 0}), "too_large", "4096"),
        (0, b"\x00\x01", "bad_message", "text frames"),
    ],
)
def test_refusals_change_nothing(
    c: TestClient, duel: dict[str, Any], seat: int, message: Any, code: str, words: str
) -> None:
    with ws_to(c, duel, seat) as ws:
        before = ws.receive_json()
        if isinstance(message, bytes):
            ws.send_bytes(message)
        elif isinstance(message, str):
            ws.send_text(message)
        else:
            ws.send_json(message)
        error = ws.receive_json()
        assert error["type"] == "error" and error["code"] == code, error
        assert words in error["message"] and error["seq"] == 0
        if code == "stale":
            assert ws.receive_json() == before
        assert sync(ws) == before
    assert state(c, duel["id"], duel["tokens"][0])["seq"] == 0


def test_stale_move_after_the_table_moved_on(c: TestClient, duel: dict[str, Any]) -> None:
    with ws_to(c, duel, 0) as ws:
        first = ws.receive_json()
        move = first["view"]["legal_moves"][0]
        ws.send_json({"type": "move", "move": move, "seq": 0})
        played = ws.receive_json()
        assert played["seq"] == 1
        ws.send_json({"type": "move", "move": move, "seq": 0})
        error = ws.receive_json()
        assert error["code"] == "stale" and error["seq"] == 1
        assert "move made against state 0, the table is at state 1" in error["message"]
        assert ws.receive_json() == played
        assert sync(ws)["seq"] == 1


def test_not_started_and_finished(c: TestClient) -> None:
    tid = create(c)["table"]["id"]
    token = join(c, tid, 0)
    with socket(c, tid, token) as ws:
        first = ws.receive_json()
        assert first["status"] == "waiting" and first["view"]["legal_moves"]
        ws.send_json({"type": "move", "move": first["view"]["legal_moves"][0], "seq": 0})
        error = ws.receive_json()
        assert error["code"] == "not_started" and "seats 1 are still open" in error["message"]
        join(c, tid, 1, "Ben")
        assert ws.receive_json()["status"] == "playing"


def test_bad_token_and_unknown_table_close_the_socket(c: TestClient, duel: dict[str, Any]) -> None:
    with socket(c, duel["id"], "guess") as ws:
        error = ws.receive_json()
        assert error["code"] == "bad_token" and "holds no seat" in error["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    with c.websocket_connect("/ws/tables/nosuch") as ws:
        error = ws.receive_json()
        assert error["code"] == "unknown_table" and "GET /api/tables" in error["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404
    assert state(c, duel["id"], duel["tokens"][0])["seq"] == 0


def test_finished_table_refuses_moves(c: TestClient) -> None:
    tid = create(c, seats=[{"kind": "bot", "bot": "random"}, {"kind": "open"}], seed=1)["table"]
    token = join(c, tid["id"], 1)
    with socket(c, tid["id"], token) as ws:
        last = ws.receive_json()
        while last["status"] != "finished":
            if last["type"] == "state" and last["view"]["legal_moves"]:
                move = pick(last["view"], last["seq"])
                ws.send_json({"type": "move", "move": move, "seq": last["seq"]})
            last = ws.receive_json()
        assert last["table"]["seed"] == "1" and last["table"]["outcome"] is not None
        ws.send_json({"type": "move", "move": "stock", "seq": last["seq"]})
        error = ws.receive_json()
        assert error["code"] == "finished" and "record" in error["message"]
        ws.send_json({"type": "hint"})
        assert ws.receive_json()["code"] == "finished"
        assert sync(ws) == last


def test_a_connection_that_falls_behind_is_dropped() -> None:
    from tikki.server.outbox import OUTBOX_BYTES
    from tikki.server.tables import Connection

    async def drain() -> tuple[int | None, str | None]:
        conn = Connection(0)
        message = "x" * 1000
        for _ in range(OUTBOX_BYTES // 1000 + 1):
            conn.push(message)
        return conn.close_code, await conn.outbox.next()

    # closed with 1008, and the close does not wait behind the unsent messages
    assert asyncio.run(drain()) == (1008, None)
