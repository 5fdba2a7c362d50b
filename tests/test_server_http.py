"""The web table's HTTP API (docs/protocol.md): lobby, seats, moves, hints, records, errors.

Every refused request gets its documented status, code and a message saying what would be
right, and leaves the table exactly as it was (same seq, same views).
"""

from __future__ import annotations

import hashlib
import re
import time
from pathlib import Path
from typing import Any

import pytest

import tikki
from tests._server import INVITES, TestClient, auth, client, create, error_of, join, pick, state
from tikki import analysis
from tikki.server.quota import Policy


def snapshot(c: TestClient, duel: dict[str, Any]) -> list[dict[str, Any]]:
    """Every seat's and the spectators' state (to check that nothing changed)."""
    tid = duel["id"]
    return [state(c, tid, t) for t in duel["tokens"]] + [state(c, tid)]


def test_games_lists_the_games_and_bot_levels(c: TestClient) -> None:
    body = c.get("/api/games").json()
    assert set(body["games"]) == set(tikki.games())  # a plug-in installed beside is listed
    assert {"myllymatti", "mattis", "mueckenstich"} <= set(body["games"])
    assert body["games"]["myllymatti"]["players"]["min"] == 2
    assert [b["spec"] for b in body["bots"]] == [
        "random",
        "heuristic",
        "ismcts:iterations=1000",
        "expert:iterations=3000",
        "learned",
    ]


def test_create_gives_invites_and_hides_the_seed(c: TestClient) -> None:
    seats: list[dict[str, Any]] = [
        {"kind": "open"},
        {"kind": "bot", "bot": "heuristic"},
        {"kind": "open", "anyone": True},
    ]
    answer = create(c, "mattis", seats, seed=123456789, options={"max_sequence": 2})
    table = answer["table"]
    first, second = answer["invites"]
    assert first["seat"] == 0 and first["anyone"] is False
    assert re.fullmatch(rf"/t/{table['id']}\?seat=0#invite=[\w-]{{20,}}", first["url"])
    assert second == {"seat": 2, "url": f"/t/{table['id']}?seat=2", "anyone": True}
    assert [s["anyone"] for s in table["seats"]] == [False, False, True]
    assert table["status"] == "waiting" and table["seq"] == 0 and table["to_act"] is None
    assert table["seed"] is None and "123456789" not in c.get(f"/api/tables/{table['id']}").text
    assert table["options"]["max_sequence"] == 2 and table["players"] == 3
    assert table["seats"][1] == {
        "seat": 1,
        "kind": "bot",
        "name": "Aino (Medium)",
        "bot": "heuristic",
        "anyone": False,
        "connected": True,
        "away_since": None,
        "may_hand_over": False,
        "stand_in": None,
        "resigned": False,
        "holder": "bot",
    }
    lobby = c.get("/api/tables").json()["tables"]
    assert [t["id"] for t in lobby] == [table["id"]]


@pytest.mark.parametrize(
    ("game", "options", "phases"),
    [
        ("mattis", {}, ["shed"]),
        ("myllymatti", {}, []),
        ("myllymatti", {"runs": True}, ["shed"]),
        ("mueckenstich", {}, []),
    ],
)
def test_a_table_names_the_phases_where_a_click_selects_a_card(
    c: TestClient, game: str, options: dict[str, Any], phases: list[str]
) -> None:
    """Where plays may be several cards (sequences, runs) the page selects on a click: the
    table says so from the game's declaration and its options, naming no game."""
    seats = [{"kind": "open"}, {"kind": "open"}, {"kind": "open"}]
    table = create(c, game, seats, options=options)["table"]
    assert table["selecting_phases"] == phases


def test_join_starts_the_game_and_the_token_is_not_public(c: TestClient) -> None:
    tid = create(c)["table"]["id"]
    body = {"name": "  Ben ", "invite": INVITES[tid, 1]}
    first = c.post(f"/api/tables/{tid}/seats/1", json=body).json()
    assert first["table"]["status"] == "waiting" and first["table"]["seats"][1]["name"] == "Ben"
    token = join(c, tid, 0)
    table = c.get(f"/api/tables/{tid}").json()
    assert table["status"] == "playing" and table["to_act"] == 0
    assert token not in c.get(f"/api/tables/{tid}").text
    assert token not in c.get("/api/tables?status=all").text
    assert c.get("/api/tables").json()["tables"] == []
    assert [t["id"] for t in c.get("/api/tables?status=playing").json()["tables"]] == [tid]


def test_play_over_http(c: TestClient, duel: dict[str, Any]) -> None:
    tid, (t0, t1) = duel["id"], duel["tokens"]
    mine = state(c, tid, t0)
    assert mine["seat"] == 0 and mine["view"]["legal_moves"] and mine["last"] is None
    move = mine["view"]["legal_moves"][0]
    r = c.post(f"/api/tables/{tid}/moves", json={"move": move, "seq": 0}, headers=auth(t0))
    assert r.status_code == 200, r.text
    after = r.json()
    assert after["seq"] == 1 and after["last"]["seat"] == 0 and after["table"]["seq"] == 1
    other = state(c, tid, t1)
    assert other["seq"] == 1 and other["view"]["seat"] == 1
    assert state(c, tid)["seat"] is None


def test_bots_play_their_seats(c: TestClient) -> None:
    seats = [{"kind": "open"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    tid = create(c, seats=seats, players=3, seed=5)["table"]["id"]
    token = join(c, tid, 0)
    for _ in range(30):
        mine = wait_for_turn(c, tid, token)
        if mine["status"] == "finished":
            break
        move = pick(mine["view"], mine["seq"])
        body = {"move": move, "seq": mine["seq"]}
        r = c.post(f"/api/tables/{tid}/moves", json=body, headers=auth(token))
        assert r.status_code == 200, r.text
    history = state(c, tid, token)["view"]["history"]
    assert {h["seat"] for h in history} == {0, 1, 2}


def wait_for_turn(c: TestClient, tid: str, token: str) -> dict[str, Any]:
    """Poll until it is the seat's turn or the game is over (bots play without delay)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        mine = state(c, tid, token)
        if mine["status"] == "finished" or mine["view"]["legal_moves"]:
            return mine
        time.sleep(0.002)
    raise AssertionError("the bots did not move within 30 s")


def test_hint_is_a_legal_move_on_your_turn_only(c: TestClient, duel: dict[str, Any]) -> None:
    tid, (t0, t1) = duel["id"], duel["tokens"]
    before = snapshot(c, duel)
    r = c.post(f"/api/tables/{tid}/hint", headers=auth(t0))
    assert r.status_code == 200
    assert r.json()["move"] in before[0]["view"]["legal_moves"] and r.json()["bot"] == "judge"
    # the hint is the move "Analyse my game" will rate best here (the same judge and seed)
    game = tikki.load("myllymatti", 2)
    judged = analysis.hint(game, before[0]["view"], 1, Policy().analysis_iterations)
    assert r.json()["move"] == judged
    status, code, message = error_of(c.post(f"/api/tables/{tid}/hint", headers=auth(t1)))
    assert (status, code) == (409, "not_your_turn") and "seat 0's turn" in message
    assert error_of(c.post(f"/api/tables/{tid}/hint"))[:2] == (403, "spectator")
    assert snapshot(c, duel) == before


def test_record_before_and_after_the_end(c: TestClient) -> None:
    seats = [{"kind": "bot", "bot": "random"}, {"kind": "open"}]
    tid = create(c, seats=seats, seed=3)["table"]["id"]
    assert error_of(c.get(f"/api/tables/{tid}/record"))[:2] == (409, "not_finished")
    token = join(c, tid, 1)
    own = c.get(f"/api/tables/{tid}/record", headers=auth(token)).json()
    assert own["seat"] == 1 and "seed" not in own and "moves" not in own
    while (mine := wait_for_turn(c, tid, token))["status"] != "finished":
        body = {"move": pick(mine["view"], mine["seq"]), "seq": mine["seq"]}
        c.post(f"/api/tables/{tid}/moves", json=body, headers=auth(token))
    table = c.get(f"/api/tables/{tid}").json()
    assert table["seed"] == "3" and table["outcome"] is not None and table["finished"]
    record = c.get(f"/api/tables/{tid}/record").json()
    replayed = tikki.replay(record)
    assert replayed.is_over and replayed.outcome == table["outcome"]
    assert len(record["moves"]) == table["seq"]
    assert error_of(c.post(f"/api/tables/{tid}/hint", headers=auth(token)))[:2] == (409, "finished")


# --- refusals: documented code and message, nothing changed -------------------------------


def move_as(
    c: TestClient, duel: dict[str, Any], token: str | None, body: Any, raw: bytes | None = None
) -> Any:
    headers = auth(token) if token else {}
    url = f"/api/tables/{duel['id']}/moves"
    if raw is not None:
        return c.post(url, content=raw, headers={**headers, "content-type": "application/json"})
    return c.post(url, json=body, headers=headers)


@pytest.mark.parametrize(
    ("who", "body", "status", "code", "words"),
    [
        ("wrong", {"move": "stock", "seq": 0}, 403, "bad_token", "holds no seat"),
        ("none", {"move": "stock", "seq": 0}, 403, "spectator", "join an open seat"),
        (1, {"move": "stock", "seq": 0}, 409, "not_your_turn", "seat 0's turn"),
        (0, {"move": "ZZ", "seq": 0}, 400, "illegal_move", "Legal moves:"),
        (0, {"move": "stock", "seq": 3}, 409, "stale", "table is at state 0"),
        (0, {"move": "stock", "seq": -1}, 422, "bad_request", "seq"),
        (0, {"move": "stock"}, 422, "bad_request", "seq: Field required"),
        (0, {"move": "stock", "seq": "0"}, 422, "bad_request", "seq"),
        (0, {"move": "", "seq": 0}, 422, "bad_request", "move"),
        (0, [1, 2], 422, "bad_request", "malformed"),
    ],
)
def test_refused_moves_change_nothing(
    c: TestClient,
    duel: dict[str, Any],
    who: Any,
    body: Any,
    status: int,
    code: str,
    words: str,
) -> None:
    token = {"wrong": "not-a-token", "none": None}.get(who) if isinstance(who, str) else None
    if isinstance(who, int):
        token = duel["tokens"][who]
    before = snapshot(c, duel)
    r = move_as(c, duel, token, body)
    got_status, got_code, message = error_of(r)
    assert (got_status, got_code) == (status, code), r.text
    assert words in message
    assert snapshot(c, duel) == before


def test_illegal_move_message_is_the_engines(c: TestClient, duel: dict[str, Any]) -> None:
    mine = state(c, duel["id"], duel["tokens"][0])
    hand = set(mine["view"]["hand"])
    card = next(x for x in tikki.load("myllymatti", players=2).deck() if x not in hand)
    r = move_as(c, duel, duel["tokens"][0], {"move": card, "seq": 0})
    assert error_of(r)[:2] == (400, "illegal_move")
    assert r.json()["detail"]["seq"] == 0
    assert card in r.json()["detail"]["message"]


def test_stale_error_carries_the_current_seq(c: TestClient, duel: dict[str, Any]) -> None:
    t0 = duel["tokens"][0]
    move = state(c, duel["id"], t0)["view"]["legal_moves"][0]
    assert move_as(c, duel, t0, {"move": move, "seq": 0}).status_code == 200
    before = snapshot(c, duel)
    r = move_as(c, duel, t0, {"move": move, "seq": 0})
    assert error_of(r)[:2] == (409, "stale") and r.json()["detail"]["seq"] == 1
    assert snapshot(c, duel) == before


@pytest.mark.parametrize(
    ("raw", "status", "code"),
    [
        (b"{not json", 422, "bad_request"),
        (b'{"move": "stock", "seq": 0, "extra": 1}', 422, "bad_request"),
        (b'{"move": "' + b"x" * 5000 + b'", "seq": 0}', 413, "too_large"),
    ],
)
def test_malformed_and_oversized_bodies(
    c: TestClient, duel: dict[str, Any], raw: bytes, status: int, code: str
) -> None:
    before = snapshot(c, duel)
    r = move_as(c, duel, duel["tokens"][0], None, raw=raw)
    assert error_of(r)[:2] == (status, code)
    assert snapshot(c, duel) == before


def test_move_before_the_start_and_after_a_bad_header(c: TestClient) -> None:
    tid = create(c)["table"]["id"]
    token = join(c, tid, 0)
    url = f"/api/tables/{tid}/moves"
    r = c.post(url, json={"move": "stock", "seq": 0}, headers=auth(token))
    status, code, message = error_of(r)
    assert (status, code) == (409, "not_started") and "seats 1 are still open" in message
    r = c.post(url, json={"move": "stock", "seq": 0}, headers={"Authorization": token})
    assert error_of(r)[:2] == (403, "bad_token") and "Bearer" in error_of(r)[2]
    assert state(c, tid, token)["seq"] == 0


def test_taken_and_unknown_seats(c: TestClient, duel: dict[str, Any]) -> None:
    tid = duel["id"]
    before = snapshot(c, duel)
    status, code, message = error_of(c.post(f"/api/tables/{tid}/seats/0", json={"name": "Eve"}))
    assert (status, code) == (409, "seat_taken") and "Anna" in message and "open seats" in message
    status, code, message = error_of(c.post(f"/api/tables/{tid}/seats/7", json={"name": "Eve"}))
    assert (status, code) == (404, "unknown_seat") and "seats are 0–1" in message
    assert snapshot(c, duel) == before


@pytest.mark.parametrize("name", ["", "   ", "x" * 41, "tab\there"])
def test_bad_names(c: TestClient, name: str) -> None:
    tid = create(c)["table"]["id"]
    r = c.post(f"/api/tables/{tid}/seats/0", json={"name": name})
    assert error_of(r)[:2] == (422, "bad_request")
    assert c.get(f"/api/tables/{tid}").json()["seats"][0]["kind"] == "open"


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/tables/nosuch"),
        ("get", "/api/tables/nosuch/state"),
        ("get", "/api/tables/nosuch/record"),
        ("post", "/api/tables/nosuch/hint"),
        ("post", "/api/tables/nosuch/seats/0"),
        ("post", "/api/tables/nosuch/moves"),
    ],
)
def test_unknown_table(c: TestClient, method: str, path: str) -> None:
    body = {"name": "Anna"} if path.endswith("/0") else {"move": "stock", "seq": 0}
    r = c.get(path) if method == "get" else c.post(path, json=body)
    status, code, message = error_of(r)
    assert (status, code) == (404, "unknown_table") and "GET /api/tables" in message


@pytest.mark.parametrize(
    ("body", "code", "words"),
    [
        ({"game": "chess", "seats": [{"kind": "open"}]}, "bad_options", "the games are"),
        ({"game": "myllymatti", "seats": [{"kind": "open"}] * 7}, "bad_options", "2–4"),
        (
            {"game": "myllymatti", "players": 3, "seats": [{"kind": "open"}] * 2},
            "bad_options",
            "needs 3 seats",
        ),
        (
            {"game": "myllymatti", "options": {"take": "some"}, "seats": [{"kind": "open"}] * 2},
            "bad_options",
            "take",
        ),
        (
            {"game": "myllymatti", "options": {"colour": 1}, "seats": [{"kind": "open"}] * 2},
            "bad_options",
            "valid options are",
        ),
        (
            {"game": "myllymatti", "variant": "nope", "seats": [{"kind": "open"}] * 2},
            "bad_options",
            "valid variants are",
        ),
        (
            {"game": "myllymatti", "seats": [{"kind": "open"}, {"kind": "bot", "bot": "cmd:ls"}]},
            "bad_bot",
            "does not run 'cmd' bots",
        ),
        (
            {"game": "myllymatti", "seats": [{"kind": "open"}, {"kind": "bot", "bot": "alpha"}]},
            "bad_bot",
            "random, heuristic, ismcts or expert",
        ),
        (
            {
                "game": "myllymatti",
                "seats": [{"kind": "open"}, {"kind": "bot", "bot": "ismcts:iterations=5001"}],
            },
            "bad_bot",
            "1–5000",
        ),
        (
            {
                "game": "myllymatti",
                "seats": [{"kind": "open"}, {"kind": "bot", "bot": "ismcts:seconds=9"}],
            },
            "bad_bot",
            "not 'seconds'",
        ),
        (
            {"game": "myllymatti", "seats": [{"kind": "open"}, {"kind": "bot"}]},
            "bad_bot",
            "give its spec",
        ),
    ],
)
def test_bad_tables_are_refused(c: TestClient, body: dict[str, Any], code: str, words: str) -> None:
    status, got, message = error_of(c.post("/api/tables", json=body))
    assert (status, got) == (400, code)
    assert words in message
    assert c.get("/api/tables?status=all").json()["tables"] == []


def test_malformed_create_requests(c: TestClient) -> None:
    bodies: list[dict[str, Any]] = [
        {"game": "myllymatti"},
        {"seats": []},
        {"game": "x", "seats": [{"kind": "me"}]},
    ]
    for body in bodies:
        assert error_of(c.post("/api/tables", json=body))[:2] == (422, "bad_request")
    body = {"game": "myllymatti", "seats": [{"kind": "open"}] * 2, "seed": True}
    r = c.post("/api/tables", json=body)
    assert error_of(r)[:2] == (422, "bad_request")
    assert error_of(c.get("/api/tables?status=closed"))[:2] == (422, "bad_request")


def test_ismcts_bots_within_the_budget_are_accepted(tmp_path: Path) -> None:
    spec = "ismcts:iterations=5000:rollout=random:prior=1"
    seats = [{"kind": "open"}, {"kind": "bot", "bot": spec}]
    with client(tmp_path, policy=Policy(allow_bot_specs=True)) as c:
        table = create(c, seats=seats)["table"]
    assert table["seats"][1]["name"] == "Aino (Hard, 5000 iterations)"


def test_each_bot_at_a_table_has_its_own_name(c: TestClient) -> None:
    """Two bots of one level are told apart by name, and the name says the level."""
    seats = [
        {"kind": "open"},
        {"kind": "bot", "bot": "heuristic"},
        {"kind": "bot", "bot": "heuristic"},
    ]
    table = create(c, seats=seats)["table"]
    names = [s["name"] for s in table["seats"][1:]]
    assert names == ["Aino (Medium)", "Eero (Medium)"]


def test_front_end_routes(c: TestClient) -> None:
    for path in ("/", "/t/abc123"):
        r = c.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert c.get("/static/../server/app.py").status_code == 404
    assert c.get("/static/no/such/file.js").status_code == 404
    paths = c.get("/openapi.json").json()["paths"]
    assert "/api/tables/{table_id}/moves" in paths and "/" not in paths


def test_finished_tables_are_read_back_from_the_database(tmp_path: Path) -> None:
    seats = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "heuristic"}]
    with client(tmp_path) as c:
        tid = create(c, seats=seats, seed=8)["table"]["id"]
        waiting = create(c, seed=9)["table"]["id"]
        deadline = time.monotonic() + 30
        while c.get(f"/api/tables/{tid}").json()["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.01)
        record = c.get(f"/api/tables/{tid}/record").json()
        table = c.get(f"/api/tables/{tid}").json()
    with client(tmp_path) as c:
        assert c.get(f"/api/tables/{tid}").json() == table
        assert c.get(f"/api/tables/{tid}/record").json() == record
        assert [t["id"] for t in c.get("/api/tables?status=finished").json()["tables"]] == [tid]
        assert [t["id"] for t in c.get("/api/tables").json()["tables"]] == [waiting]
        assert len(c.get("/api/tables?status=all&limit=1").json()["tables"]) == 1


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--db", "foo://x"], "cannot open the database"),
        (["--hint-bot", "cmd:ls"], "the hint bot is judge, random, heuristic or ismcts"),
        (["--bot-delay", "-1"], "--bot-delay is a number of seconds >= 0"),
    ],
)
def test_serve_refuses_bad_settings(tmp_path: Path, args: list[str], words: str) -> None:
    from typer.testing import CliRunner

    from tikki.cli import app

    db = ["--db", f"sqlite:///{tmp_path / 'x.sqlite'}"] if "--db" not in args else []
    result = CliRunner().invoke(app, ["serve", "--port", "0", *db, *args])
    assert result.exit_code == 2
    assert words in " ".join(result.output.split())


def test_storage_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3

    from tikki.server.db import default_db_url, normalize_url

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_db_url() == f"sqlite:///{tmp_path / 'data' / 'tikki' / 'web.sqlite'}"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_db_url().endswith("/.local/share/tikki/web.sqlite")
    assert normalize_url("postgresql://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    with client(tmp_path, "nested/dir/web.sqlite") as c:
        tid = create(c)["table"]["id"]
        token = join(c, tid, 0)
    db = sqlite3.connect(tmp_path / "nested" / "dir" / "web.sqlite")
    assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert db.execute("SELECT id, status FROM tikki_tables").fetchall() == [(tid, "waiting")]
    stored = db.execute("SELECT token_hash FROM tikki_seats WHERE seat = 0").fetchone()[0]
    assert stored == hashlib.sha256(token.encode()).hexdigest() and token not in stored
    db.close()
