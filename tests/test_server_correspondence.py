"""A correspondence game played over simulated days with reconnects: the manager's
clock is moved on by hours between moves, each person connects, plays and goes; the
other learns by a ``your_turn`` notice; a seat that runs past its allowance gets the
turn timers' stand-in, and its person takes the seat back by coming again; the server
restarts half-way; the table is never expired nor handed to a bot for being away; the
game finishes with every move stored.  Also: the allowances a table accepts, and the
"your turn" list."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from tests._server import TestClient, app_state, auth, client, create, error_of, join, state
from tests.test_server_friends import call, csrf, person
from tikki.server import create_app
from tikki.server.db import now
from tikki.server.quota import Policy

HOUR = timedelta(hours=1)


class Days:
    """An injectable clock that the test moves on."""

    def __init__(self) -> None:
        self.at: datetime = now()

    def __call__(self) -> datetime:
        return self.at

    def pass_(self, delta: timedelta) -> None:
        self.at += delta


@contextmanager
def server(where: Path | str, days: Days) -> Iterator[TestClient]:
    """A server on the same database (an SQLite file in the folder ``where``, or a
    database URL), its tables' clock the test's."""
    policy = Policy(connects_per_minute=10_000)  # a socket a move, all from one address
    url = where if isinstance(where, str) else f"sqlite:///{where / 'corr.sqlite'}"
    app = create_app(url, bot_delay=0, policy=policy)
    app.state.manager.clock = days  # before it starts: its tables are rebuilt on it
    with TestClient(app) as guest:
        yield guest


def on_loop(guest: TestClient, work: Any) -> Any:
    assert guest.portal is not None
    return guest.portal.call(work)


def seated(guest: TestClient, days: Days) -> tuple[str, dict[int, tuple[TestClient, str]]]:
    """Anna challenges Ben to a Myllymatti game of 24 hours a move; both seated."""
    anna = same_loop(guest, person(guest.app, "Anna"))
    ben = same_loop(guest, person(guest.app, "Ben"))
    r = call(
        anna,
        "/challenges",
        {"name": "Ben", "game": "myllymatti", "turn_timer": "24h", "forced_moves": False},
    )
    assert r.status_code == 201, r.text
    accepted = call(ben, f"/challenges/{r.json()['id']}/accept")
    assert accepted.status_code == 200, accepted.text
    table = accepted.json()["table"]
    assert table["turn_timer"] == 24 * 3600 and table["correspondence"] is True
    mine = call(anna, f"/challenges/{r.json()['id']}/seat").json()
    # the one to move first learns it, unless it is Ben, who is on his way to the table
    assert turn_notices(anna, table["id"]) == (table["to_act"] == 0)
    assert turn_notices(ben, table["id"]) == 0
    return table["id"], {0: (anna, mine["token"]), 1: (ben, accepted.json()["token"])}


def same_loop(guest: TestClient, browser: TestClient) -> TestClient:
    """``browser``'s requests served on the server's one event loop (``guest``'s), as a
    real server serves every browser (else each request has a loop of its own, and what
    a request leaves running there, such as a notice being sent, ends with it)."""
    browser.portal = guest.portal
    return browser


def again(guest: TestClient, browser: TestClient) -> TestClient:
    """The same browser (its cookies) on the restarted server."""
    c = TestClient(guest.app)
    c.cookies.update(browser.cookies)
    return same_loop(guest, c)


def turn_notices(c: TestClient, table_id: str) -> int:
    found = c.get("/api/notices").json()["notices"]
    return sum(n["kind"] == "your_turn" and n["data"]["table"] == table_id for n in found)


def play_once(guest: TestClient, table_id: str, people: dict[int, Any], seq: int) -> int:
    """The person to move comes (a socket, the state), moves and goes; the new seq."""
    view = state(guest, table_id)
    seat = view["table"]["to_act"]
    browser, token = people[seat]
    with browser.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": token})
        mine = ws.receive_json()
        assert mine["type"] == "state" and mine["seat"] == seat
        move = mine["view"]["legal_moves"][seq % len(mine["view"]["legal_moves"])]
        r = browser.post(f"/api/tables/{table_id}/moves", json={"move": move, "seq": mine["seq"]},
                         headers=auth(token))  # fmt: skip
        assert r.status_code == 200, r.text
    return int(r.json()["seq"])


def test_a_correspondence_game_over_days_with_reconnects_and_a_restart(tmp_path: Path) -> None:
    play_over_days(tmp_path)


def test_postgres_correspondence(postgres_url: str) -> None:
    play_over_days(postgres_url)


def play_over_days(where: Path | str) -> None:
    """The game of the module's docstring, on the database ``where``."""
    days = Days()
    stand_ins: list[dict[str, Any]] = []
    with server(where, days) as guest:
        table_id, people = seated(guest, days)
        seq, moves = 0, 0
        while moves < 6:
            days.pass_(20 * HOUR)  # most of a day between moves
            assert on_loop(guest, app_state(guest).manager.tick) == []
            assert on_loop(guest, app_state(guest).manager.expire) == []
            seq = play_once(guest, table_id, people, seq)
            moves += 1
        mover = state(guest, table_id)["table"]["to_act"]
        on_loop(guest, app_state(guest).manager.moves.ledger.on_turn.settle)
        # the one to move got a notice (once, though several of its turns came)
        assert turn_notices(people[mover][0], table_id) == 1
        listed = people[mover][0].get("/api/notices/turns").json()["tables"]
        assert [t["id"] for t in listed] == [table_id]
        other = people[1 - mover][0].get("/api/notices/turns").json()["tables"]
        assert other == []
    days.pass_(30 * HOUR)  # the server was down past the allowance
    with server(where, days) as guest:
        people = {seat: (again(guest, c), token) for seat, (c, token) in people.items()}
        table = state(guest, table_id)["table"]
        assert table["status"] == "playing" and table["seq"] == seq
        assert table["timer"]["left"] == 0  # the allowance counts from the last move
        acted = on_loop(guest, app_state(guest).manager.tick)
        # this tick acts, or the server's own tick loop (every second) did just before
        assert acted in ([table_id], [])
        after = state(guest, table_id)["table"]
        stand_ins = after["takeovers"]
        assert stand_ins and stand_ins[0]["seat"] == mover and stand_ins[0]["why"] == "away"
        # its person comes back (connects with the seat's token): the stand-in ends
        browser, token = people[mover]
        with browser.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "hello", "token": token})
            assert ws.receive_json()["type"] == "state"
        back = state(guest, table_id)["table"]["takeovers"]
        assert len(back) == 1 and back[0]["to"] is not None, back
        while state(guest, table_id)["table"]["status"] == "playing":
            days.pass_(9 * HOUR)
            assert on_loop(guest, app_state(guest).manager.expire) == []
            view = state(guest, table_id)
            if view["table"]["to_act"] is None:
                break
            seq = play_once(guest, table_id, people, view["table"]["seq"])
        final = state(guest, table_id)["table"]
        assert final["status"] == "finished"
        record = guest.get(f"/api/tables/{table_id}/record").json()
        assert len(record["moves"]) == final["seq"]
        assert final["takeovers"] == back  # no other stand-in: away is normal here


def test_away_is_normal_at_a_correspondence_table(tmp_path: Path) -> None:
    days = Days()
    with server(tmp_path, days) as guest:
        table_id, people = seated(guest, days)
        play_once(guest, table_id, people, 0)  # played: it lives days (unplayed, one allowance)
        waiting = made(people[0][0], turn_timer="24h")["table"]["id"]  # nobody came: no hoard
        live = create(guest, turn_timer=60)["table"]["id"]
        join(guest, live, 0, "A")
        token = join(guest, live, 1, "B")
        guest.post(f"/api/tables/{live}/moves", headers=auth(token), json={"move": "x", "seq": 0})
        days.pass_(3 * 24 * HOUR)
        gone = on_loop(guest, app_state(guest).manager.expire)
        assert table_id not in gone and waiting in gone and live in gone
        table = state(guest, table_id)["table"]
        assert not any(s["may_hand_over"] for s in table["seats"])
        assert table["expires"] is not None


def made(c: TestClient, **body: Any) -> dict[str, Any]:
    """Create a two-seat Myllymatti table as the account signed in at ``c``."""
    seats = [{"kind": "open"}, {"kind": "open"}]
    r = c.post("/api/tables", json={"game": "myllymatti", "seats": seats, **body},
               headers=csrf(c))  # fmt: skip
    assert r.status_code == 201, r.text
    answer: dict[str, Any] = r.json()
    return answer


def test_the_allowances(tmp_path: Path) -> None:
    with client(tmp_path) as guest:
        anna = person(guest.app, "Anna")
        for value, seconds in (("12h", 43200), ("72h", 259200), ("correspondence", 86400)):
            table = made(anna, turn_timer=value)["table"]
            assert table["turn_timer"] == seconds and table["correspondence"] is True
        assert create(guest, turn_timer=60)["table"]["correspondence"] is False
        seats = [{"kind": "open"}, {"kind": "open"}]
        r = guest.post(
            "/api/tables", json={"game": "myllymatti", "turn_timer": "36h", "seats": seats}
        )
        status, code, message = error_of(r)
        assert (status, code) == (400, "bad_timer") and "24h" in message
