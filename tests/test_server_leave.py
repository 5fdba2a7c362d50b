"""People who leave a table: turn timers, resign, away seats handed to
a bot and taken back, stalled tables leaving the lobby.  Times come from the manager's
injected clock, never from sleeping."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

import tikki
from tests._server import (
    TestClient,
    app_state,
    auth,
    client,
    create,
    error_of,
    join,
    pick,
    socket,
    state,
)
from tikki.server import create_app
from tikki.server.quota import Policy
from tikki.server.tables import rematch_request

TWO_OPEN = [{"kind": "open"}, {"kind": "open"}]


def manager_of(c: TestClient) -> Any:
    """The app's table manager."""
    return app_state(c).manager


def later(c: TestClient, seconds: float) -> None:
    """Move the manager's clock ``seconds`` on (on top of any earlier move)."""
    manager = manager_of(c)
    real = manager.clock
    manager.clock = lambda: real() + timedelta(seconds=seconds)


def tick(c: TestClient) -> None:
    """Act on the turn timers now (as the server's ticker does every second)."""
    assert c.portal is not None
    c.portal.call(manager_of(c).tick)


def two_people(c: TestClient, **body: Any) -> tuple[str, dict[int, str]]:
    """A started Myllymatti table of two people: its id and their tokens."""
    tid = create(c, seats=TWO_OPEN, seed=5, **body)["table"]["id"]
    return tid, {0: join(c, tid, 0, "Anna"), 1: join(c, tid, 1, "Ben")}


def wait_until(c: TestClient, tid: str, ready: Any, tries: int = 200) -> dict[str, Any]:
    """Poll the spectators' state until ``ready(message)`` (bots move on the server)."""
    for _ in range(tries):
        message = state(c, tid)
        if ready(message):
            return message
        c.get("/api/games")  # yield to the server's loop
    raise AssertionError(f"table {tid} never got there: {state(c, tid)['table']}")


@pytest.fixture
def c(tmp_path: Path) -> Iterator[TestClient]:
    with client(tmp_path, client_seeds=True) as test_client:
        yield test_client


# --- turn timer -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "names"),
    [
        ({"turn_timer": 45}, "30, 60, 120"),
        ({"turn_timer": "soon"}, "30, 60, 120"),
        ({"turn_timer": True}, "30, 60, 120"),
        ({"turn_timer": 30, "on_timeout": "later"}, "'wait'"),
    ],
)
def test_bad_timer_options_are_refused_with_the_allowed_values(
    c: TestClient, body: dict[str, Any], names: str
) -> None:
    before = c.get("/api/tables?status=all").json()
    r = c.post("/api/tables", json={"game": "myllymatti", "seats": TWO_OPEN, **body})
    status, code, message = error_of(r)
    assert (status, code) == (400, "bad_timer") and names in message, message
    assert c.get("/api/tables?status=all").json() == before


def test_timer_options_are_kept_over_a_restart(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        table = create(c, seats=TWO_OPEN, turn_timer=60, on_timeout="bot")["table"]
        assert (table["turn_timer"], table["on_timeout"]) == (60, "bot")
        plain = create(c, seats=TWO_OPEN)["table"]
        assert (plain["turn_timer"], plain["on_timeout"], plain["timer"]) == (None, "wait", None)
    with client(tmp_path) as c:
        again = c.get(f"/api/tables/{table['id']}").json()
        assert (again["turn_timer"], again["on_timeout"]) == (60, "bot")


def test_short_timers_only_on_a_server_that_allows_them(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        r = c.post("/api/tables", json={"game": "myllymatti", "seats": TWO_OPEN, "turn_timer": 2})
        assert error_of(r)[:2] == (400, "bad_timer")
    with client(tmp_path, "short.sqlite", policy=Policy(min_turn_timer=1)) as c:
        assert create(c, seats=TWO_OPEN, turn_timer=2)["table"]["turn_timer"] == 2
    with pytest.raises(ValueError, match="--min-turn-timer"):
        Policy(min_turn_timer=0)


def test_the_state_carries_the_time_left(c: TestClient) -> None:
    tid, _tokens = two_people(c, turn_timer=30)
    timer = state(c, tid)["table"]["timer"]
    to_act = state(c, tid)["view"]["to_act"]
    assert timer["seat"] == to_act and timer["seconds"] == 30 and 29 <= timer["left"] <= 30
    later(c, 20)
    assert 9 <= state(c, tid)["table"]["timer"]["left"] <= 10


def test_a_timer_hands_the_turn_to_a_bot(c: TestClient) -> None:
    tid, tokens = two_people(c, turn_timer=30, on_timeout="bot")
    first = state(c, tid)
    seat = first["view"]["to_act"]
    tick(c)
    assert state(c, tid)["seq"] == 0  # not yet
    later(c, 31)
    tick(c)
    after = wait_until(c, tid, lambda m: m["seq"] == 1)
    table = after["table"]
    assert table["takeovers"] == [
        {"seat": seat, "from": 0, "to": 1, "bot": "heuristic", "why": "timer"}
    ]
    assert table["seats"][seat]["stand_in"] is None  # that one turn only
    mine = state(c, tid, tokens[seat])
    assert mine["view"]["history"][0]["seat"] == seat
    record = c.get(f"/api/tables/{tid}/record", headers=auth(tokens[seat])).json()
    assert record["seats"][seat]["stand_ins"] == [
        {"from": 0, "to": 1, "bot": "heuristic", "why": "timer"}
    ]


def test_a_timer_that_waits_lets_the_others_hand_the_seat_over(c: TestClient) -> None:
    """The timer ran out while its person is here: the others may let a bot play that
    one turn (a timer running out is not being away)."""
    tid, tokens = two_people(c, turn_timer=30)
    seat = state(c, tid)["view"]["to_act"]
    other = 1 - seat
    with socket(c, tid, tokens[seat]) as mine, socket(c, tid, tokens[other]) as theirs:
        mine.receive_json()
        theirs.receive_json()
        r = c.post(f"/api/tables/{tid}/seats/{seat}/bot", headers=auth(tokens[other]))
        assert error_of(r)[:2] == (409, "not_away")
        later(c, 31)
        tick(c)
        table = state(c, tid)["table"]
        assert table["timer"]["timed_out"] and table["seats"][seat]["may_hand_over"]
        assert state(c, tid)["seq"] == 0  # nobody played for the seat
        r = c.post(f"/api/tables/{tid}/seats/{seat}/bot", headers=auth(tokens[other]))
        assert r.status_code == 200, r.text
        moved = wait_until(c, tid, lambda m: m["seq"] >= 1 and _closed(m["table"]))
        takeover = moved["table"]["takeovers"][0]
        assert takeover["why"] == "timeout" and takeover["to"] == takeover["from"] + 1
        assert moved["table"]["seats"][seat]["stand_in"] is None  # that turn only


def test_a_timer_running_out_for_a_person_who_left_hands_the_seat_over(c: TestClient) -> None:
    """The timer ran out and its person has no connection: the bot plays on until they
    come back."""
    tid, tokens = two_people(c, turn_timer=30)
    seat = state(c, tid)["view"]["to_act"]
    other = 1 - seat
    with socket(c, tid, tokens[other]) as ws:
        ws.receive_json()
        later(c, 31)
        tick(c)
        r = c.post(f"/api/tables/{tid}/seats/{seat}/bot", headers=auth(tokens[other]))
        assert r.status_code == 200, r.text
        table = r.json()["table"]
        assert table["takeovers"][0]["why"] == "away"
        assert table["seats"][seat]["stand_in"] == "heuristic"


def test_a_table_whose_people_resigned_or_left_finishes(c: TestClient) -> None:
    """Anna resigned and still watches, Ben left: Anna may hand Ben's
    seat to a bot; had she left too, the server does it by itself."""
    manager = manager_of(c)
    assert c.portal is not None
    timers = manager.background["turn-timers"]
    c.portal.call(timers.cancel)  # only this test's tick() acts: no race with it
    tid, tokens = two_people(c, turn_timer=30)
    with socket(c, tid, tokens[0]) as ws:
        ws.receive_json()
        assert c.post(f"/api/tables/{tid}/resign", headers=auth(tokens[0])).is_success
        later(c, 121)  # Ben has been away long enough
        r = c.post(f"/api/tables/{tid}/seats/1/bot", headers=auth(tokens[0]))
        assert r.status_code == 200, r.text  # a resigned person still watching may
        assert r.json()["table"]["takeovers"][-1]["why"] == "away"
    finished = wait_until(c, tid, lambda m: m["status"] == "finished", tries=2000)
    assert tikki.replay(c.get(f"/api/tables/{tid}/record").json()).is_over
    assert [t["seat"] for t in finished["table"]["takeovers"]] == [0, 1]
    # nobody at all: the server hands the away seats over itself
    tid, tokens = two_people(c, turn_timer=30)
    assert c.post(f"/api/tables/{tid}/resign", headers=auth(tokens[0])).is_success
    tick(c)
    assert state(c, tid)["table"]["takeovers"][-1]["seat"] == 0  # Ben: not away long enough
    later(c, 121)
    tick(c)
    last = state(c, tid)["table"]["takeovers"][-1]
    assert (last["seat"], last["why"]) == (1, "away")
    wait_until(c, tid, lambda m: m["status"] == "finished", tries=2000)


def test_the_server_leaves_a_seat_alone_while_someone_plays(c: TestClient) -> None:
    """Someone who still plays is here: handing an away seat over is theirs to decide."""
    tid, tokens = two_people(c, turn_timer=30)
    with socket(c, tid, tokens[0]) as ws:
        ws.receive_json()
        later(c, 121)
        tick(c)
        table = state(c, tid)["table"]
        assert table["takeovers"] == [] and table["seats"][1]["may_hand_over"]


# --- resign ---------------------------------------------------------------------------------


def test_resign_hands_the_seat_to_a_bot_and_the_record_says_so(c: TestClient) -> None:
    tid, tokens = two_people(c)
    with socket(c, tid, tokens[0]) as ws:
        ws.receive_json()
        ws.send_json({"type": "resign"})
        message = ws.receive_json()
        while message["type"] != "state" or not message["table"]["seats"][0]["resigned"]:
            message = ws.receive_json()
    seat0 = message["table"]["seats"][0]
    assert seat0["stand_in"] == "heuristic" and seat0["kind"] == "human"
    again = c.post(f"/api/tables/{tid}/resign", headers=auth(tokens[0]))
    assert error_of(again)[:2] == (409, "resigned")
    while (mine := state(c, tid, tokens[1]))["status"] != "finished":
        if mine["view"]["to_act"] == 0:  # the bot plays for Anna
            wait_until(c, tid, lambda m, s=mine["seq"]: m["seq"] > s)
            continue
        body = {"move": pick(mine["view"], mine["seq"]), "seq": mine["seq"]}
        assert c.post(f"/api/tables/{tid}/moves", json=body, headers=auth(tokens[1])).is_success
    watching = state(c, tid, tokens[0])  # a resigned person still watches with the token
    assert watching["seat"] == 0 and watching["status"] == "finished"
    record = c.get(f"/api/tables/{tid}/record").json()
    assert record["seats"][0]["name"] == "Anna"
    assert record["seats"][0]["stand_ins"] == [
        {"from": 0, "to": None, "bot": "heuristic", "why": "resigned"}
    ]
    assert record["seats"][1]["stand_ins"] == []
    assert tikki.replay(record).is_over


def test_a_resigned_person_cannot_play(tmp_path: Path) -> None:
    with client(tmp_path, client_seeds=True, bot_delay=30) as c:  # the bot waits 30 s
        tid, tokens = two_people(c)
        seat = state(c, tid)["view"]["to_act"]
        assert c.post(f"/api/tables/{tid}/resign", headers=auth(tokens[seat])).is_success
        mine = state(c, tid, tokens[seat])
        assert mine["seat"] == seat and mine["view"]["legal_moves"]  # still watching the seat
        body = {"move": pick(mine["view"], 0), "seq": 0}
        r = c.post(f"/api/tables/{tid}/moves", json=body, headers=auth(tokens[seat]))
        status, code, message = error_of(r)
        assert (status, code) == (409, "resigned") and "you can still watch" in message
        assert state(c, tid)["seq"] == 0


def test_resign_refusals_change_nothing(c: TestClient) -> None:
    waiting = create(c, seats=TWO_OPEN)["table"]["id"]
    token = join(c, waiting, 0)
    r = c.post(f"/api/tables/{waiting}/resign", headers=auth(token))
    assert error_of(r)[:2] == (409, "not_started")
    tid, _tokens = two_people(c)
    assert error_of(c.post(f"/api/tables/{tid}/resign"))[:2] == (403, "spectator")
    assert state(c, tid)["table"]["takeovers"] == []


def check_kept_over_a_restart(url: str) -> None:
    """A resignation and the timer options survive a restart on the database ``url``."""
    with TestClient(create_app(url, bot_delay=30, client_seeds=True)) as c:
        tid, tokens = two_people(c, turn_timer=120, on_timeout="bot")
        assert c.post(f"/api/tables/{tid}/resign", headers=auth(tokens[1])).is_success
        before = state(c, tid)["table"]["takeovers"]
    with TestClient(create_app(url)) as c:
        table = c.get(f"/api/tables/{tid}").json()
        assert table["takeovers"] == before and table["seats"][1]["resigned"]
        assert before[0]["why"] == "resigned" and before[0]["to"] is None
        assert (table["turn_timer"], table["on_timeout"]) == (120, "bot")


def test_a_resignation_is_kept_over_a_restart(tmp_path: Path) -> None:
    check_kept_over_a_restart(f"sqlite:///{tmp_path / 'web.sqlite'}")


def test_a_resignation_is_kept_over_a_restart_on_postgresql(postgres_url: str) -> None:
    check_kept_over_a_restart(postgres_url)


# --- away players ---------------------------------------------------------------------------


def test_an_away_seat_is_handed_to_a_bot_and_taken_back(tmp_path: Path) -> None:
    with client(tmp_path, client_seeds=True, policy=Policy(away_after=120)) as c:
        tid, tokens = two_people(c)
        to_act = state(c, tid)["view"]["to_act"]
        away, here = to_act, 1 - to_act
        stack = ExitStack()  # the other person stays: the server leaves the choice to them
        stack.enter_context(socket(c, tid, tokens[here])).receive_json()
        with socket(c, tid, tokens[away]) as ws:
            ws.receive_json()
            assert state(c, tid)["table"]["seats"][away]["away_since"] is None
        seat = state(c, tid)["table"]["seats"][away]
        assert seat["away_since"] and not seat["may_hand_over"]
        path = f"/api/tables/{tid}/seats/{away}/bot"
        status, code, message = error_of(c.post(path, headers=auth(tokens[here])))
        assert (status, code) == (409, "not_away") and "away a short while" in message
        assert error_of(c.post(path))[:2] == (403, "spectator")
        own = c.post(f"/api/tables/{tid}/seats/{here}/bot", headers=auth(tokens[here]))
        assert error_of(own)[:2] == (409, "not_away")
        assert error_of(c.post(f"/api/tables/{tid}/seats/7/bot", headers=auth(tokens[here])))[
            :2
        ] == (404, "unknown_seat")
        later(c, 121)
        tick(c)  # the others are told
        assert state(c, tid)["table"]["seats"][away]["may_hand_over"]
        assert c.post(path, headers=auth(tokens[here])).is_success
        moved = wait_until(c, tid, lambda m: m["seq"] >= 1)
        assert moved["table"]["seats"][away]["stand_in"] == "heuristic"
        assert moved["table"]["takeovers"][0]["why"] == "away"
        with socket(c, tid, tokens[away]) as ws:  # back: the bot stops at once
            message = ws.receive_json()
            while message["table"]["seats"][away]["stand_in"] is not None:
                message = ws.receive_json()
        takeover = message["table"]["takeovers"][0]
        assert takeover["to"] is not None and takeover["to"] >= 1
        stack.close()


def test_away_time_is_configurable() -> None:
    assert Policy().away_after == 120 and Policy().stalled_expiry == 3600
    with pytest.raises(ValueError, match="--away-after"):
        Policy(away_after=0)


def test_hand_over_by_websocket_needs_a_seat_number(c: TestClient) -> None:
    tid, tokens = two_people(c)
    with socket(c, tid, tokens[0]) as ws:
        ws.receive_json()
        ws.send_json({"type": "hand_over"})
        message = ws.receive_json()
        while message["type"] == "state":
            message = ws.receive_json()
        assert message["code"] == "bad_message" and '"seat"' in message["message"]
        ws.send_json({"type": "hand_over", "seat": 1})
        message = ws.receive_json()
        while message["type"] == "state":
            message = ws.receive_json()
        assert message["code"] == "not_away"


# --- stalled tables -------------------------------------------------------------------------


def test_stalled_tables_leave_the_lobby_but_keep_their_link(tmp_path: Path) -> None:
    """A table people played at (a person's move: the long expiry, 24 h from the last
    move) leaves the lobby's list after the stalled expiry without a move, and still
    answers by its link."""
    with client(tmp_path, client_seeds=True, policy=Policy(stalled_expiry=3600)) as c:
        tid, tokens = two_people(c)
        first = state(c, tid)["view"]["to_act"]
        body = {"move": pick(state(c, tid, tokens[first])["view"], 0), "seq": 0}
        r = c.post(f"/api/tables/{tid}/moves", json=body, headers=auth(tokens[first]))
        assert r.status_code == 200, r.text
        playing = c.get("/api/tables?status=playing").json()["tables"]
        assert [t["id"] for t in playing] == [tid]
        later(c, 3599)
        assert [t["id"] for t in c.get("/api/tables?status=playing").json()["tables"]] == [tid]
        later(c, 2)
        assert c.get("/api/tables?status=playing").json()["tables"] == []
        assert c.get(f"/api/tables/{tid}").json()["status"] == "playing"


def test_a_move_of_the_away_person_takes_the_seat_back(tmp_path: Path) -> None:
    policy = Policy(away_after=120)
    with client(tmp_path, client_seeds=True, bot_delay=30, policy=policy) as c:
        tid, tokens = two_people(c)
        away = state(c, tid)["view"]["to_act"]
        later(c, 121)
        r = c.post(f"/api/tables/{tid}/seats/{away}/bot", headers=auth(tokens[1 - away]))
        assert r.json()["table"]["seats"][away]["stand_in"] == "heuristic"
        bad = {"move": "stock+stock", "seq": 0}
        r = c.post(f"/api/tables/{tid}/moves", json=bad, headers=auth(tokens[away]))
        assert error_of(r)[:2] == (400, "illegal_move")
        assert state(c, tid)["table"]["seats"][away]["stand_in"] == "heuristic"  # unchanged
        mine = state(c, tid, tokens[away])  # the bot waits 30 s: the person is quicker
        body = {"move": pick(mine["view"], 0), "seq": 0}
        r = c.post(f"/api/tables/{tid}/moves", json=body, headers=auth(tokens[away]))
        assert r.status_code == 200, r.text
        table = r.json()["table"]
        assert table["seq"] == 1 and table["seats"][away]["stand_in"] is None
        assert table["takeovers"] == [
            {"seat": away, "from": 0, "to": 0, "bot": "heuristic", "why": "away"}
        ]


def test_a_rematch_keeps_the_timer(c: TestClient) -> None:
    tid, _tokens = two_people(c, turn_timer=120, on_timeout="bot")
    request = rematch_request(manager_of(c).tables[tid])
    assert (request.turn_timer, request.on_timeout) == (120, "bot")


def _closed(table: dict[str, Any]) -> bool:
    """Whether the table's first stand-in spell has ended (the bot's move is applied a
    moment before the spell is closed, and a state read may fall between the two)."""
    return bool(table["takeovers"]) and table["takeovers"][0]["to"] is not None
