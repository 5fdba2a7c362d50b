"""Helpers for the web table tests (tests/test_server_*.py)."""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
from fastapi import FastAPI  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from tikki.server import create_app  # noqa: E402

__all__ = [
    "TestClient",
    "app_state",
    "auth",
    "client",
    "create",
    "error_of",
    "join",
    "pick",
    "socket",
    "state",
]

Seats = list[dict[str, Any]]
INVITES: dict[tuple[str, int], str] = {}
"""The invite secrets of the tables :func:`create` made: (table id, seat) -> secret."""


def app_state(c: TestClient) -> Any:
    """The server's ``app.state`` (its table manager, its analyses) for tests that look in."""
    app = c.app
    assert isinstance(app, FastAPI)
    return app.state


@contextmanager
def client(tmp_path: Path, name: str = "web.sqlite", **kwargs: Any) -> Iterator[TestClient]:
    """A test client of a fresh app (bots without delay) on an SQLite file in ``tmp_path``."""
    kwargs.setdefault("bot_delay", 0)
    app = create_app(f"sqlite:///{tmp_path / name}", **kwargs)
    with TestClient(app) as c:
        yield c


def create(
    c: TestClient, game: str = "myllymatti", seats: Seats | None = None, **body: Any
) -> dict[str, Any]:
    """Create a table (default: Myllymatti, two open seats) and return the answer.

    A ``seed`` for a table with open seats is accepted for this one request, as by a
    server started with ``--allow-client-seeds`` (tests replay known deals).
    """
    seats = seats if seats is not None else [{"kind": "open"}, {"kind": "open"}]
    manager = app_state(c).manager
    manager.client_seeds = "seed" in body
    try:
        r = c.post("/api/tables", json={"game": game, "seats": seats, **body})
    finally:
        manager.client_seeds = False
    assert r.status_code == 201, r.text
    answer: dict[str, Any] = r.json()
    for invite in answer["invites"]:
        if "#invite=" in invite["url"]:
            INVITES[answer["table"]["id"], invite["seat"]] = invite["url"].split("#invite=")[1]
    return answer


def join(c: TestClient, table_id: str, seat: int, name: str = "Anna") -> str:
    """Join a seat with its invite (when :func:`create` made the table); return its token."""
    body = {"name": name, "invite": INVITES.get((table_id, seat))}
    r = c.post(f"/api/tables/{table_id}/seats/{seat}", json=body)
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


@contextmanager
def socket(c: TestClient, table_id: str, token: str | None = None) -> Iterator[Any]:
    """A WebSocket to a table that has said its ``hello`` (with ``token``: a seat)."""
    with c.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": token} if token else {"type": "hello"})
        yield ws


def auth(token: str) -> dict[str, str]:
    """The Authorization header of a seat token."""
    return {"Authorization": f"Bearer {token}"}


def state(c: TestClient, table_id: str, token: str | None = None) -> dict[str, Any]:
    """A seat's (or the spectators') state message over HTTP."""
    r = c.get(f"/api/tables/{table_id}/state", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    message: dict[str, Any] = r.json()
    return message


def pick(view: dict[str, Any], seq: int, salt: int = 0) -> str:
    """A simulated person's move: a legal move chosen by an RNG seeded from the seq."""
    legal: list[str] = view["legal_moves"]
    return random.Random(seq * 7919 + salt).choice(legal)


def error_of(response: Any) -> tuple[int, str, str]:
    """(status, code, message) of an HTTP error answer."""
    detail = response.json()["detail"]
    return response.status_code, detail["code"], detail["message"]
