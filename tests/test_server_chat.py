"""Table chat: quick phrases by id, free text switched off by the
creator, length and rate limits, the spectators' channel kept apart during the game,
stored with the table (after a restart too) and kept out of the game record."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tests._server import TestClient, app_state, auth, client, create, error_of, join
from tikki.server.chat import KEEP, SPECTATORS_PER_MINUTE, ChatMessage
from tikki.server.errors import ApiError

XSS = '<img src=x onerror="alert(1)">'


def chat(c: TestClient, table_id: str, token: str | None = None, **body: Any) -> Any:
    return c.post(f"/api/tables/{table_id}/chat", json=body, headers=auth(token) if token else {})


def read(c: TestClient, table_id: str, token: str | None = None, after: int = 0) -> Any:
    r = c.get(f"/api/tables/{table_id}/chat?after={after}", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    return r.json()


def test_phrases_text_channels_and_record(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        table_id = create(c, seed=3)["table"]["id"]
        anna, ben = join(c, table_id, 0, "Anna"), join(c, table_id, 1, "Ben")
        r = chat(c, table_id, anna, phrase="gg")
        assert r.status_code == 201, r.text
        assert r.json()["phrase"] == "gg" and r.json()["name"] == "Anna"
        assert chat(c, table_id, ben, text=f"  {XSS}\u0007 ").json()["text"] == XSS
        assert chat(c, table_id, None, text="psst, spectators here").status_code == 201
        players = read(c, table_id, ben)
        assert [m["phrase"] or m["text"] for m in players["messages"]] == ["gg", XSS]
        assert players["host"] is False and read(c, table_id, anna)["host"] is True
        watcher = read(c, table_id)
        assert [m["channel"] for m in watcher["messages"]] == ["players"] * 2 + ["spectators"]
        assert read(c, table_id, anna, after=1)["messages"][0]["seq"] == 2
        # wrong input: one clear line, nothing stored
        for body, code in (
            ({"phrase": "insult"}, "bad_chat"),
            ({}, "bad_chat"),
            ({"phrase": "gg", "text": "hi"}, "bad_chat"),
            ({"text": "x" * 201}, "bad_chat"),
            ({"text": " \u200e "}, "bad_chat"),
        ):
            assert error_of(chat(c, table_id, anna, **body))[:2] == (400, code), body
        # the creator switches free text off; others may not
        off = {"free_text": False}
        r = c.post(f"/api/tables/{table_id}/chat/settings", json=off, headers=auth(ben))
        assert error_of(r)[1] == "spectator"
        r = c.post(f"/api/tables/{table_id}/chat/settings", json=off, headers=auth(anna))
        assert r.json() == {"free_text": False}
        status, code, message = error_of(chat(c, table_id, ben, text="hello"))
        assert (status, code) == (409, "chat_off") and "quick phrase" in message
        assert chat(c, table_id, ben, phrase="wp").status_code == 201
        # finish the game: the chat never enters the record; now players see both
        table = app_state(c).manager.tables[table_id]
        tokens = [anna, ben]
        while table.status != "finished":
            seat = table.state.current_player
            view = c.get(f"/api/tables/{table_id}/state", headers=auth(tokens[seat])).json()
            body = {"move": view["view"]["legal_moves"][0], "seq": view["seq"]}
            r = c.post(f"/api/tables/{table_id}/moves", json=body, headers=auth(tokens[seat]))
            assert r.status_code == 200, r.text
        record = c.get(f"/api/tables/{table_id}/record").text
        assert "spectators here" not in record and "onerror" not in record
        assert len(read(c, table_id, anna)["messages"]) == 4
    with client(tmp_path) as c:  # restarted: the chat and its settings are kept
        again = read(c, table_id, anna)
        assert [m["seq"] for m in again["messages"]] == [1, 2, 3, 4]
        assert again["free_text"] is False and again["host"] is True


def test_chat_rate_limited(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        app_state(c).chat.limits.clock = lambda: 0.0
        table_id = create(c)["table"]["id"]
        anna = join(c, table_id, 0, "Anna")
        codes = [chat(c, table_id, anna, phrase="oops").status_code for _ in range(6)]
        assert codes == [201] * 5 + [429]
        assert chat(c, table_id, None, phrase="oops").status_code == 201  # another sender
        assert error_of(chat(c, table_id, "nope", phrase="gg"))[1] == "bad_token"
        assert error_of(c.get("/api/tables/nosuch/chat"))[1] == "unknown_table"


def spectators_post(c: TestClient, table_id: str, count: int) -> list[int]:
    """``count`` spectators' messages, each from another sender (as many addresses would)."""
    chat_of, table = app_state(c).chat, app_state(c).manager.tables[table_id]
    assert c.portal is not None
    codes = []
    for i in range(count):
        body = ChatMessage(phrase="hurry")
        try:
            c.portal.call(chat_of.post, table, None, f"guest:{i}", "Spectator", body)
            codes.append(201)
        except ApiError as err:
            codes.append(429 if err.code == "rate_limited" else 400)
    return codes


def test_spectators_cannot_push_the_players_messages_out(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        table_id = create(c, seed=3)["table"]["id"]
        anna, _ben = join(c, table_id, 0, "Anna"), join(c, table_id, 1, "Ben")
        assert chat(c, table_id, anna, phrase="gg").status_code == 201
        app_state(c).chat.spectators.rate = 1e9  # no cap here: the window is what is tested
        app_state(c).chat.spectators.burst = 1e9
        assert spectators_post(c, table_id, KEEP + 50) == [201] * (KEEP + 50)
        seen = read(c, table_id, None)["messages"]  # the spectators read both channels
        assert [m["phrase"] for m in seen if m["channel"] == "players"] == ["gg"]
        assert len(seen) == KEEP + 1
        players = read(c, table_id, anna)["messages"]
        assert [(m["name"], m["phrase"]) for m in players] == [("Anna", "gg")]


def test_a_crowd_of_spectators_is_capped_per_table(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        app_state(c).chat.spectators.clock = lambda: 0.0
        table_id = create(c, seed=3)["table"]["id"]
        anna = join(c, table_id, 0, "Anna")
        codes = spectators_post(c, table_id, 200)  # 40 addresses x 5 messages
        assert codes.count(201) == SPECTATORS_PER_MINUTE and 429 in codes
        assert chat(c, table_id, anna, phrase="gg").status_code == 201  # players are not capped


def test_the_chat_says_whether_people_sit_at_the_table(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        with_people = create(c, seed=3)["table"]["id"]
        assert read(c, with_people)["people"] is True
        bots = create(c, seats=[{"kind": "bot", "bot": "random"}] * 2)["table"]["id"]
        assert read(c, bots)["people"] is False  # the page shows no chat there
        lone = [{"kind": "open"}, {"kind": "bot", "bot": "random"}]
        alone = create(c, seats=lone)["table"]["id"]
        assert read(c, alone)["people"] is False  # one person and bots: nobody to talk to


def test_messages_sent_at_once_all_get_their_own_number(tmp_path: Path) -> None:
    """Many posts at the same moment (a crowd of spectators): each is stored under its own
    number, none fails (two once took the same number and the second's insert was a 500)."""
    with client(tmp_path) as c:
        table_id = create(c, seed=3)["table"]["id"]
        chat_of, table = app_state(c).chat, app_state(c).manager.tables[table_id]
        assert c.portal is not None

        async def crowd() -> list[Any]:
            posts = [
                chat_of.post(table, None, f"guest:{i}", "Spectator", ChatMessage(phrase="hurry"))
                for i in range(12)
            ]
            return await asyncio.gather(*posts, return_exceptions=True)

        results = c.portal.call(crowd)
        assert [r for r in results if isinstance(r, BaseException)] == []
        assert sorted(m["seq"] for m in results) == list(range(1, 13))
        assert [m["seq"] for m in read(c, table_id)["messages"]] == list(range(1, 13))
