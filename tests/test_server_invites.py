"""Invites: an invite link carries a per-seat secret, so only its
holder can take that seat; seats the creator marks "open to anyone" are joined by name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests._server import INVITES, TestClient, auth, client, create, error_of, join

INVITED: list[dict[str, Any]] = [
    {"kind": "open"},
    {"kind": "open", "anyone": True},
    {"kind": "bot", "bot": "random"},
]


def take(c: TestClient, tid: str, seat: int, invite: str | None = None) -> Any:
    """POST a join of ``seat`` as Eve (with ``invite``, if given)."""
    body = {"name": "Eve"} if invite is None else {"name": "Eve", "invite": invite}
    return c.post(f"/api/tables/{tid}/seats/{seat}", json=body)


def test_an_invited_seat_needs_its_secret(c: TestClient) -> None:
    made = create(c, seats=INVITED)
    tid = made["table"]["id"]
    secret = INVITES[tid, 0]
    before = c.get(f"/api/tables/{tid}").json()
    for invite in (None, "", "guess", secret[:-1], secret + "x"):
        status, code, message = error_of(take(c, tid, 0, invite))
        assert (status, code) == (403, "bad_invite"), (invite, message)
        assert "invite link" in message and "open to anyone: 1" in message
    assert c.get(f"/api/tables/{tid}").json() == before
    r = take(c, tid, 0, secret)
    assert r.status_code == 200, r.text
    status, code, _ = error_of(take(c, tid, 0, secret))  # a link works once
    assert (status, code) == (409, "seat_taken")


def test_a_seat_open_to_anyone_is_joined_by_name(c: TestClient) -> None:
    made = create(c, seats=INVITED)
    tid = made["table"]["id"]
    assert [i["anyone"] for i in made["invites"]] == [False, True]
    assert made["invites"][1]["url"] == f"/t/{tid}?seat=1"
    lobby = c.get("/api/tables").json()["tables"][0]
    assert [s["anyone"] for s in lobby["seats"]] == [False, True, False]
    assert take(c, tid, 1).status_code == 200


def test_the_secret_is_never_shown_nor_stored(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        tid = create(c, seats=INVITED)["table"]["id"]
        secret = INVITES[tid, 0]
        for path in (f"/api/tables/{tid}", "/api/tables?status=all", f"/api/tables/{tid}/state"):
            assert secret not in c.get(path).text
        token = join(c, tid, 0)
        join(c, tid, 1, "Ben")
        for path in (f"/api/tables/{tid}/state", f"/api/tables/{tid}/record"):
            assert secret not in c.get(path, headers=auth(token)).text
    stored = (tmp_path / "web.sqlite").read_bytes()
    assert secret.encode() not in stored


def test_an_invite_still_works_after_a_restart(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        tid = create(c, seats=INVITED)["table"]["id"]
    with client(tmp_path) as c:
        assert error_of(take(c, tid, 0))[:2] == (403, "bad_invite")
        assert take(c, tid, 0, INVITES[tid, 0]).status_code == 200
