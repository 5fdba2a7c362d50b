"""Replays at the web table: a game's positions move by move, as one
seat saw them, every hand after the end, and nothing hidden before it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests._server import TestClient, auth, client, create, error_of, join, pick, state
from tests.test_server_analysis import finished_table
from tikki.core import State
from tikki.core import replay as core_replay


def views_of(record: dict[str, Any], seat: int | None) -> list[dict[str, Any]]:
    """The views of ``seat`` after 0, 1, … moves of a full record, computed here."""
    from tikki.core import load

    game = load(record["game"], record["players"], rules=record["rules"], **record["options"])
    views = [game.new_state(seed=record["seed"]).view(seat)]
    core_replay(record, lambda _i, _m, s: views.append(s.view(seat)))
    return views


def without_history(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "history"}


def test_a_finished_game_replays_from_any_seat_and_with_every_hand(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        table_id, record = finished_table(c)
        moves = len(record["moves"])
        for seat in (None, 0, 1):
            query = {} if seat is None else {"seat": str(seat)}
            r = c.get(f"/api/tables/{table_id}/replay", params=query)
            assert r.status_code == 200, r.text
            got = r.json()
            expected = views_of(record, seat)
            assert len(got["frames"]) == moves + 1
            assert got["frames"] == [without_history(v) for v in expected]
            assert got["history"] == expected[-1]["history"]
            assert got["over"] and got["table"]["id"] == table_id
        every = c.get(f"/api/tables/{table_id}/replay", params={"seat": "all"}).json()
        first = every["frames"][0]
        assert [len(h) for h in first["hands"]] == first["hand_sizes"]
        assert all("?" not in e["move"] for e in every["history"])  # every move face up
        # an uploaded record replays the same (any reader of the record sees it all anyway)
        r = c.post("/api/replay", params={"seat": "1"}, json=record)
        assert r.status_code == 200, r.text
        assert (
            r.json()["frames"]
            == c.get(f"/api/tables/{table_id}/replay", params={"seat": "1"}).json()["frames"]
        )


def test_an_unfinished_game_replays_nothing_hidden(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        table_id = create(c, seed=5)["table"]["id"]
        tokens = [join(c, table_id, 0, "Anna"), join(c, table_id, 1, "Bert")]
        for _ in range(12):  # a few moves of each person
            s = state(c, table_id, tokens[0])
            seat = s["view"]["to_act"]
            move = pick(state(c, table_id, tokens[seat])["view"], s["seq"])
            body = {"move": move, "seq": s["seq"]}
            assert c.post(f"/api/tables/{table_id}/moves", json=body, headers=auth(tokens[seat]))
        manager_record = _full_record(c, table_id)
        spectators = c.get(f"/api/tables/{table_id}/replay").json()
        assert spectators["over"] is False
        assert spectators["frames"] == [without_history(v) for v in views_of(manager_record, None)]
        assert spectators["history"] == state(c, table_id)["view"]["history"]
        assert not {"seed", "moves", "deck"} & set(spectators)
        assert spectators["table"]["seed"] is None
        assert '"moves"' not in json.dumps(spectators["frames"])
        for frame in spectators["frames"]:
            assert frame["hand"] == [] and frame["legal_moves"] == []
        # a seated person may replay their own seat, with its token, and nobody else's
        own = c.get(f"/api/tables/{table_id}/replay?seat=0", headers=auth(tokens[0]))
        assert own.status_code == 200
        assert own.json()["frames"][-1]["hand"] == state(c, table_id, tokens[0])["view"]["hand"]
        for seat, headers in (("1", auth(tokens[0])), ("0", {}), ("all", auth(tokens[0]))):
            r = c.get(f"/api/tables/{table_id}/replay?seat={seat}", headers=headers)
            status, code, message = error_of(r)
            assert (status, code) == (409, "not_finished"), r.text
            assert "spectators' view" in message
        # an unfinished record uploaded: the spectators' view only
        cut = {**manager_record, "moves": manager_record["moves"][:5]}
        r = c.post("/api/replay?seat=0", json=cut)
        assert error_of(r)[:2] == (409, "not_finished")
        assert c.post("/api/replay", json=cut).status_code == 200


def _full_record(c: TestClient, table_id: str) -> dict[str, Any]:
    from tests._server import app_state

    record: dict[str, Any] = app_state(c).manager.tables[table_id].state.record()
    return record


def test_bad_records_and_seats_get_one_clear_line(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        table_id, record = finished_table(c)
        cases: list[tuple[Any, str, int, str, str]] = [
            ({"x": 1}, "", 400, "bad_record", "not a tikki game record"),
            ({**record, "moves": [*record["moves"][:3], "bogus"]}, "", 400, "bad_record", "move 4"),
            ({**record, "players": "three"}, "", 400, "bad_record", "cannot be replayed"),
            (record, "9", 404, "unknown_seat", "give a seat 0–1"),
            (record, "x", 404, "unknown_seat", "'all'"),
        ]
        for body, seat, status, code, words in cases:
            r = c.post("/api/replay", params={"seat": seat} if seat else {}, json=body)
            got = error_of(r)
            assert got[:2] == (status, code), r.text
            assert words in got[2] and "\n" not in got[2]
        big = {**record, "padding": "x" * 70_000}
        assert error_of(c.post("/api/replay", json=big))[:2] == (413, "too_large")
        padded = {**record, "padding": "x" * 20_000}  # over the 4096 of other requests
        assert c.post("/api/replay", json=padded).status_code == 200
        assert error_of(c.get("/api/tables/nope/replay"))[:2] == (404, "unknown_table")
        assert c.get(f"/replay/{table_id}").status_code == 200
        # a whole game's positions go gzipped to a client that accepts it
        url = f"/api/tables/{table_id}/replay?seat=all"
        zipped = c.get(url, headers={"Accept-Encoding": "gzip"})
        plain = c.get(url, headers={"Accept-Encoding": "identity"})
        assert zipped.headers["content-encoding"] == "gzip" and zipped.json() == plain.json()
        assert "content-encoding" not in plain.headers
        assert int(zipped.headers["content-length"]) * 5 < len(plain.content)
        assert c.get("/replay").status_code == 200


TOKEN = re.compile(r"[A-Za-z0-9]+")


def _hidden(state: State) -> dict[int | None, set[str]]:
    """The cards hidden from each seat (``None``: from any seat) in ``state``."""
    per_seat: dict[int | None, set[str]] = {
        int(seat): set(cards) for seat, cards in state.reveal()["hidden"].items()
    }
    per_seat[None] = set().union(*per_seat.values())
    return per_seat


@pytest.mark.parametrize("game", ["myllymatti", "mattis", "mueckenstich"])
def test_no_hidden_card_reaches_a_replay_before_the_end(tmp_path: Path, game: str) -> None:
    """Mid-game, every frame of the spectators' replay holds no card hidden from any seat
    at that move, and every frame of a seat's own replay none hidden from that seat."""
    with client(tmp_path) as c:
        players = 4 if game == "mueckenstich" else 3
        seats = [{"kind": "open"}] + [{"kind": "bot", "bot": "random"}] * (players - 1)
        table_id = create(c, game, seats=seats, seed=77)["table"]["id"]
        token = join(c, table_id, 0)
        for _ in range(25):  # seat 0's moves, the bots' in between
            s = state(c, table_id, token)
            while s["view"]["to_act"] != 0 and s["status"] == "playing":
                s = state(c, table_id, token)
            if s["status"] != "playing":
                break
            body = {"move": pick(s["view"], s["seq"]), "seq": s["seq"]}
            c.post(f"/api/tables/{table_id}/moves", json=body, headers=auth(token))
        replays = {}
        for key, headers in ((None, {}), (0, auth(token))):
            query = "" if key is None else "?seat=0"
            replays[key] = c.get(f"/api/tables/{table_id}/replay{query}", headers=headers).json()
        record = _full_record(c, table_id)  # the bots may have moved on since: a longer one
        assert "outcome" not in record, "the game ended before the check"
        from tikki.core import load

        g = load(record["game"], record["players"], rules=record["rules"], **record["options"])
        hidden = [_hidden(g.new_state(seed=record["seed"]))]
        core_replay(record, lambda _i, _m, st: hidden.append(_hidden(st)))
        for key, got in replays.items():
            assert len(got["frames"]) > 30
            for k, frame in enumerate(got["frames"]):
                leaked = set(TOKEN.findall(json.dumps(frame))) & hidden[k][key]
                assert not leaked, f"{game}: seat {key} sees hidden {sorted(leaked)} at {k}"
            words = set(TOKEN.findall(json.dumps(got["history"])))
            now = len(got["frames"]) - 1
            assert not words & hidden[now][key], f"{game}: the log shows a hidden card"
