"""The web table's texts in the request's language: ``?lang=``, then
``Accept-Language``; WebSockets by their ``hello`` or their upgrade request.  The error
``code`` never changes; the pseudo-locale shows that every text is translated."""

from __future__ import annotations

from typing import Any

import pytest

from tests._server import TestClient, auth, create, error_of, join

MARKED = ("⟦", "⟧")


def _games(c: TestClient, **kwargs: Any) -> tuple[dict[str, Any], str]:
    r = c.get("/api/games", **kwargs)
    assert r.status_code == 200, r.text
    return r.json(), r.headers["content-language"]


def test_the_lobby_follows_accept_language(c: TestClient) -> None:
    info, lang = _games(c, headers={"Accept-Language": "fi-FI,fi;q=0.9,en;q=0.5"})
    assert lang == "fi"
    myllymatti = info["games"]["myllymatti"]
    assert myllymatti["summary"].startswith("2–4 pelaajaa, noin 10 minuuttia.")
    take = next(o for o in myllymatti["options"] if o["name"] == "take")
    assert take["text"].startswith("mitä kaatamatta jättävä pelaaja nostaa")
    assert take["help"].endswith("(MM-14)") and take["rulings"] == ["MM-14"]
    labels = ["Helppo", "Keskitaso", "Vaikea", "Mestari", "Opittu"]
    assert [b["label"] for b in info["bots"]] == labels
    assert [b["spec"] for b in info["bots"]] == [
        "random",
        "heuristic",
        "ismcts:iterations=1000",
        "expert:iterations=3000",
        "learned",
    ]


def test_the_query_wins_over_the_header(c: TestClient) -> None:
    info, lang = _games(c, params={"lang": "de"}, headers={"Accept-Language": "fi"})
    assert lang == "de"
    assert info["games"]["mueckenstich"]["summary"].startswith("3–6 Spieler")
    labels = ["Leicht", "Mittel", "Schwer", "Experte", "Gelernt"]
    assert [b["label"] for b in info["bots"]] == labels
    info, lang = _games(c, headers={"Accept-Language": "sv, nb"})
    assert lang == "en" and info["bots"][0]["label"] == "Easy"


@pytest.mark.parametrize(
    ("header", "lang"),
    [("de;q=1.0.0, fi;q=0.5", "de"), ("fi;q=0.5, de;q=0.9", "de"), ("sv, fi;q=0.1", "fi")],
)
def test_pages_api_and_rules_choose_the_same_language(
    c: TestClient, header: str, lang: str
) -> None:
    """One negotiation serves the API's texts, the rules API and the rules page."""
    headers = {"Accept-Language": header}
    assert _games(c, headers=headers)[1] == lang
    assert c.get("/api/games/mattis/rules", headers=headers).json()["lang"] == lang
    assert f'<html lang="{lang}"' in c.get("/rules/mattis", headers=headers).text


def test_pseudo_marks_every_text_of_the_lobby(c: TestClient) -> None:
    info, _lang = _games(c, params={"lang": "pseudo"})
    texts = [b["label"] for b in info["bots"]]
    for game in info["games"].values():
        texts.append(game["summary"])
        for option in game["options"]:
            texts += [option["text"], option["help"].split(" (")[0] + "⟧"]
    unmarked = [t for t in texts if not (t.startswith(MARKED[0]) and t.endswith(MARKED[1]))]
    assert not unmarked


def test_errors_speak_the_language_and_keep_their_code(c: TestClient) -> None:
    r = c.get("/api/tables/nosuch", headers={"Accept-Language": "de"})
    assert error_of(r) == (
        404,
        "unknown_table",
        "es gibt keinen Tisch 'nosuch': GET /api/tables listet die offenen auf",
    )
    assert r.headers["content-language"] == "de"
    table = create(c)["table"]
    join(c, table["id"], 0)
    body = {"name": "Ben"}
    r = c.post(f"/api/tables/{table['id']}/seats/0", json=body, params={"lang": "fi"})
    status, code, message = error_of(r)
    assert (status, code) == (409, "seat_taken")
    assert message.startswith(f"pöydän {table['id']} paikka 0 on varattu (Anna)")
    seats = [{"kind": "bot", "bot": "minimax"}, {"kind": "open"}]
    r = c.post("/api/tables", json={"game": "myllymatti", "seats": seats}, params={"lang": "de"})
    status, code, message = error_of(r)
    assert (status, code) == (400, "bad_bot")
    assert "der Server betreibt keine 'minimax'-Bots" in message


def test_an_illegal_move_is_explained_in_the_language(c: TestClient) -> None:
    table = create(c)["table"]
    token = join(c, table["id"], 0)
    join(c, table["id"], 1, "Ben")
    move = {"move": "quux", "seq": 0}
    headers = {**auth(token), "Accept-Language": "de"}
    r = c.post(f"/api/tables/{table['id']}/moves", json=move, headers=headers)
    status, code, message = error_of(r)
    assert (status, code) == (400, "illegal_move")
    assert message.startswith("'quux' ist kein Zug: spiele eine Karte (Rang 23456789TJQKA")
    assert "Erlaubte Züge: " in message


def test_pseudo_marks_every_error_message(c: TestClient) -> None:
    table = create(c)["table"]
    token = join(c, table["id"], 0)
    q = {"lang": "pseudo"}
    answers = [
        c.get("/api/tables/nosuch", params=q),
        c.get("/api/nosuch", params=q),
        c.post("/api/tables", json={"game": "myllymatti", "seats": 3}, params=q),
        c.post(
            "/api/tables",
            json={"game": "myllymatti", "seats": [{"kind": "bot"}, {"kind": "open"}]},
            params=q,
        ),
        c.post("/api/tables", json={"game": "myllymatti", "seats": [{"kind": "bot"}]}, params=q),
        c.post("/api/tables", json={"game": "nosuch", "seats": [{"kind": "open"}]}, params=q),
        c.post(f"/api/tables/{table['id']}/seats/7", json={"name": "X"}, params=q),
        c.post(f"/api/tables/{table['id']}/seats/0", json={"name": "X"}, params=q),
        c.post(f"/api/tables/{table['id']}/seats/1", json={"name": "  "}, params=q),
        c.post(
            f"/api/tables/{table['id']}/moves",
            json={"move": "7H", "seq": 0},
            headers=auth(token),
            params=q,
        ),
        c.get(f"/api/tables/{table['id']}/state", headers={"Authorization": "Basic x"}, params=q),
        c.get(f"/api/tables/{table['id']}/record", params=q),
    ]
    for r in answers:
        status, code, message = error_of(r)
        assert status >= 400 and code
        assert message.startswith(MARKED[0]), (code, message)


def test_bot_names_read_in_each_language(c: TestClient) -> None:
    seats = [{"kind": "open"}, {"kind": "bot", "bot": "heuristic"}]
    table = create(c, seats=seats)["table"]
    assert table["seats"][1]["name"] == "Aino (Medium)"
    r = c.get(f"/api/tables/{table['id']}", headers={"Accept-Language": "fi"})
    assert r.json()["seats"][1]["name"] == "Aino (Keskitaso)"
    r = c.get(f"/api/tables/{table['id']}", params={"lang": "de"})
    assert r.json()["seats"][1]["name"] == "Aino (Mittel)"
    with (
        c.websocket_connect(f"/ws/tables/{table['id']}?lang=fi") as fi,
        c.websocket_connect(f"/ws/tables/{table['id']}") as de,
    ):
        fi.send_json({"type": "hello"})
        de.send_json({"type": "hello", "lang": "de"})
        assert fi.receive_json()["table"]["seats"][1]["name"] == "Aino (Keskitaso)"
        assert de.receive_json()["table"]["seats"][1]["name"] == "Aino (Mittel)"
        join(c, table["id"], 0)  # a broadcast: each connection in its own language
        assert fi.receive_json()["table"]["seats"][1]["name"] == "Aino (Keskitaso)"
        assert de.receive_json()["table"]["seats"][1]["name"] == "Aino (Mittel)"


@pytest.mark.parametrize(
    ("path", "hello", "expected"),
    [
        ("?lang=de", {"type": "hello"}, "eine Zugnachricht braucht"),
        ("", {"type": "hello", "lang": "fi"}, "siirtoviesti tarvitsee"),
        ("?lang=de", {"type": "hello", "lang": "fi"}, "siirtoviesti tarvitsee"),
        ("", {"type": "hello"}, "a move message needs"),
    ],
)
def test_websocket_errors_in_the_sockets_language(
    c: TestClient, path: str, hello: dict[str, Any], expected: str
) -> None:
    table = create(c)["table"]
    token = join(c, table["id"], 0)
    join(c, table["id"], 1, "Ben")
    with c.websocket_connect(f"/ws/tables/{table['id']}{path}") as ws:
        ws.send_json({**hello, "token": token})
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "move", "seq": 0})
        error = ws.receive_json()
        assert error["type"] == "error" and error["code"] == "bad_message"
        assert error["message"].startswith(expected), error["message"]


def test_a_hello_with_an_unknown_language_is_refused(c: TestClient) -> None:
    table = create(c)["table"]
    with c.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_json({"type": "hello", "lang": "sv"})
        error = ws.receive_json()
        assert error["code"] == "bad_message"
        assert error["message"] == "a hello's lang is one of en, fi, de"


@pytest.mark.parametrize(
    ("lang", "expected"), [("en", "cannot listen on"), ("de", "kann nicht auf")]
)
def test_a_start_up_error_is_reported_in_the_language(lang: str, expected: str) -> None:
    """``tikki serve --host`` with an address that cannot be bound: a clear message (the
    address tuple once shadowed the translation function here)."""
    from tikki import i18n
    from tikki.server.run import ServeError, bind

    with i18n.use(lang), pytest.raises(ServeError, match=expected):
        bind("256.0.0.1", 0)


def test_pseudo_marks_the_timer_resign_hand_over_and_analysis_refusals(c: TestClient) -> None:
    """The texts of people who leave and of "Analyse my game" go through the catalogs."""
    q = {"lang": "pseudo"}
    two = [{"kind": "open"}, {"kind": "open"}]
    waiting = create(c)["table"]["id"]
    token = join(c, waiting, 0)
    tid = create(c)["table"]["id"]
    tokens = [join(c, tid, 0), join(c, tid, 1, "Ben")]
    answers = [
        c.post("/api/tables", json={"game": "myllymatti", "seats": two, "turn_timer": 7}, params=q),
        c.post(
            "/api/tables",
            json={"game": "myllymatti", "seats": two, "on_timeout": "later"},
            params=q,
        ),
        c.post(f"/api/tables/{waiting}/resign", headers=auth(token), params=q),
        c.post(f"/api/tables/{waiting}/seats/1/bot", headers=auth(token), params=q),
        c.post(f"/api/tables/{tid}/resign", params=q),
        c.post(f"/api/tables/{tid}/seats/1/bot", params=q),
        c.post(f"/api/tables/{tid}/seats/0/bot", headers=auth(tokens[0]), params=q),
        c.post(f"/api/tables/{tid}/seats/5/bot", headers=auth(tokens[0]), params=q),
        c.post(f"/api/tables/{tid}/seats/1/bot", headers=auth(tokens[0]), params=q),
        c.post(f"/api/tables/{tid}/back", params=q),
        c.post(f"/api/tables/{tid}/analysis/0", params=q),
    ]
    assert c.post(f"/api/tables/{tid}/resign", headers=auth(tokens[1])).is_success
    answers.append(c.post(f"/api/tables/{tid}/resign", headers=auth(tokens[1]), params=q))
    for r in answers:
        status, code, message = error_of(r)
        assert status >= 400 and code
        assert message.startswith(MARKED[0]) and message.endswith(MARKED[1]), (code, message)


def test_resign_and_timer_refusals_speak_the_language_and_keep_their_code(c: TestClient) -> None:
    waiting = create(c)["table"]["id"]
    token = join(c, waiting, 0)
    headers = {**auth(token), "Accept-Language": "de"}
    r = c.post(f"/api/tables/{waiting}/resign", headers=headers)
    assert error_of(r) == (
        409,
        "not_started",
        f"Tisch {waiting} wartet noch: aufgeben kannst du nur in einer laufenden Partie",
    )
    seats = [{"kind": "open"}, {"kind": "open"}]
    body = {"game": "myllymatti", "seats": seats, "turn_timer": 7}
    r = c.post("/api/tables", json=body, params={"lang": "fi"})
    assert error_of(r) == (
        400,
        "bad_timer",
        "turn_timer on pois (null) tai 30, 60, 120 sekuntia tai tunteja siirtoa kohden: "
        "'12h', '24h', '48h', '72h', ei 7",
    )
