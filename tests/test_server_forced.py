"""Forced moves at the web table: a person's only legal move (a lone
card, a forced take) plays by itself, as in the terminal; a table option, on in the lobby
(off for an API client that does not ask); only the person learns which of their moves
played by themselves."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests._server import app_state, auth, client, create, join, pick, state
from tikki.core import load
from tikki.server.tables import FORCED, turns


def play_until_the_end(c: Any, table_id: str, token: str) -> int:
    """Play seat 0's moves that are choices (two or more legal moves); wait out the
    forced ones, which the server must play.  Return how many forced turns were seen
    (the server may play them before a poll sees them)."""
    forced_turns = 0
    deadline = time.monotonic() + 60
    waiting_at = None
    while True:
        assert time.monotonic() < deadline, "the game stalled: a forced move was not played"
        s = state(c, table_id, token)
        if s["status"] == "finished":
            return forced_turns
        view = s["view"]
        if view["to_act"] != 0:
            time.sleep(0.005)
            continue
        if len(view["legal_moves"]) == 1:
            if waiting_at != s["seq"]:
                forced_turns += 1
                waiting_at = s["seq"]
            time.sleep(0.005)
            continue
        body = {"move": pick(view, s["seq"]), "seq": s["seq"]}
        r = c.post(f"/api/tables/{table_id}/moves", json=body, headers=auth(token))
        assert r.status_code in (200, 409), r.text


def single_move_indices(record: dict[str, Any], seat: int) -> set[int]:
    """The history indices at which ``seat`` was to act with a single legal move."""
    game = load(record["game"], record["players"], rules=record["rules"], **record["options"])
    s = game.new_state(seed=record["seed"])
    found = set()
    for i, move in enumerate(record["moves"]):
        if s.current_player == seat and len(s.legal_moves()) == 1:
            found.add(i)
        s.play(move)
    return found


def test_forced_moves_play_themselves_and_only_their_player_is_told(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        seats = [{"kind": "open"}, {"kind": "bot", "bot": "random"}]
        table = create(c, "myllymatti", seats=seats, seed=3, forced_moves=True)["table"]
        assert table["forced_moves"] is True
        table_id = table["id"]
        token = join(c, table_id, 0)
        play_until_the_end(c, table_id, token)  # stalls unless the server plays them
        record = c.get(f"/api/tables/{table_id}/record").json()
        expected = single_move_indices(record, 0)
        assert len(expected) >= 3, "the deal gave seat 0 too few forced moves"
        mine = state(c, table_id, token)
        assert set(mine["forced"]) == expected
        history = mine["view"]["history"]
        assert all(history[i]["seat"] == 0 for i in mine["forced"])
        # nobody else learns that seat 0 had a single legal move
        assert state(c, table_id)["forced"] == []


def test_forced_moves_wait_for_the_click_when_the_option_is_off(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        seats = [{"kind": "open"}, {"kind": "bot", "bot": "random"}]
        table = create(c, "myllymatti", seats=seats, seed=3)["table"]
        assert table["forced_moves"] is False  # an API client sends every move itself
        table_id = table["id"]
        token = join(c, table_id, 0)
        manager = app_state(c).manager
        deadline = time.monotonic() + 60
        while True:
            assert time.monotonic() < deadline
            s = state(c, table_id, token)
            assert s["status"] == "playing", "no forced move came up"
            view = s["view"]
            if view["to_act"] != 0:
                time.sleep(0.005)
                continue
            if len(view["legal_moves"]) == 1:
                break
            body = {"move": pick(view, s["seq"]), "seq": s["seq"]}
            c.post(f"/api/tables/{table_id}/moves", json=body, headers=auth(token))
        live = manager.tables[table_id]
        assert turns.bot_to_act(live) is None  # nothing will play it but the person
        assert turns.forced(live, 0) is False
        body = {"move": view["legal_moves"][0], "seq": s["seq"]}
        r = c.post(f"/api/tables/{table_id}/moves", json=body, headers=auth(token))
        assert r.status_code == 200, r.text
        assert state(c, table_id, token)["forced"] == []


def test_a_forced_move_the_person_made_first_leaves_the_bots_playing(tmp_path: Path) -> None:
    """The person sends their forced move before the server plays it: the server's
    attempt is stale, and its bot loop goes on (it stopped, and the table with it)."""
    with client(tmp_path, bot_delay=30) as c:  # the bots wait: a bot is to act meanwhile
        seats = [{"kind": "bot", "bot": "random"}, {"kind": "open"}]
        table = create(c, "myllymatti", seats=seats, seed=3, forced_moves=True)["table"]
        join(c, table["id"], 1)
        manager = app_state(c).manager
        live = manager.tables[table["id"]]
        assert turns.bot_to_act(live) == (0, "random")
        portal = c.portal
        assert portal is not None
        played_on = portal.call(manager.bots.play, live, 1, FORCED, live.seq - 1, "take")
        assert played_on is True
