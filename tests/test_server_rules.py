"""Rules at hand and rematches at the web table (docs/protocol.md).

``GET /api/games/{game}/rules`` and the page ``/rules/{game}``; the lobby's game summaries
and option help in words; ``POST /api/tables/{id}/rematch`` seats the same people and bots
at a new table with every seat moved one on.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

import tikki
from tests._server import TestClient, auth, create, error_of, join, pick, state
from tikki.core import game_class

GAMES = ("myllymatti", "mattis", "mueckenstich")


@pytest.mark.parametrize("game", GAMES)
def test_rules_api_gives_the_games_markdown(c: TestClient, game: str) -> None:
    r = c.get(f"/api/games/{game}/rules")
    assert r.status_code == 200
    assert r.json() == {"game": game, "lang": "en", "markdown": game_class(game).rules_text}
    assert r.json()["markdown"].startswith(f"# {game_class(game).title}\n")


def test_rules_api_unknown_game_is_404(c: TestClient) -> None:
    status, code, message = error_of(c.get("/api/games/poker/rules"))
    assert (status, code) == (404, "unknown_game")
    assert "poker" in message and "myllymatti" in message


def test_rules_page_renders_markdown_with_the_sites_css(c: TestClient) -> None:
    r = c.get("/rules/myllymatti")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    page = r.text
    assert "<h1>Myllymatti</h1>" in page and "<h2>Phase 1 — collecting</h2>" in page
    assert "<li>" in page and "<strong>duel</strong>" in page
    # players' words: the buttons' names, no terminal spelling
    assert "<strong>Turn the top stock card</strong>" in page and "<code>" not in page
    assert '<link rel="stylesheet" href="/static/style.css">' in page
    assert "<script" not in page and "script-src 'self'" in r.headers["content-security-policy"]
    assert error_of(c.get("/rules/poker"))[:2] == (404, "unknown_game")


def test_rules_markdown_cannot_inject_html(monkeypatch: pytest.MonkeyPatch, c: TestClient) -> None:
    evil = "# T\n<script>alert(1)</script>\n[x](javascript:alert(1))"
    monkeypatch.setattr("tikki.server.web.players_text", lambda game, lang: evil)
    page = c.get("/rules/mattis").text
    assert "<script>alert" not in page and "&lt;script&gt;" in page
    assert 'href="javascript:' not in page


def test_games_api_has_summaries_and_help_in_words(c: TestClient) -> None:
    games = c.get("/api/games").json()["games"]
    for name in GAMES:
        assert "players" in games[name]["summary"] and "minutes" in games[name]["summary"]
    take = next(o for o in games["myllymatti"]["options"] if o["name"] == "take")
    assert take["rulings"] == ["MM-14"] and "MM-14" not in take["text"]
    assert take["text"].endswith("or the whole trick (all)")
    duel = next(o for o in games["myllymatti"]["options"] if o["name"] == "duel")
    assert duel["text"].endswith("everyone plays (koira)") and duel["rulings"] == ["MM-18"]


# --- rematch ------------------------------------------------------------------------------


def play_out(c: TestClient, tid: str, tokens: list[str]) -> None:
    """Play the people's seats (bots play themselves) until the game is over."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for token in tokens:
            mine = state(c, tid, token)
            if mine["status"] == "finished":
                return
            if mine["view"]["legal_moves"]:
                body = {"move": pick(mine["view"], mine["seq"]), "seq": mine["seq"]}
                c.post(f"/api/tables/{tid}/moves", json=body, headers=auth(token))
        time.sleep(0.001)
    raise AssertionError("the game did not end within 60 s")


@pytest.fixture
def finished(c: TestClient) -> dict[str, Any]:
    """A finished Myllymatti table: Anna (seat 0), Bert (seat 1) and a bot (seat 2)."""
    seats = [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "bot": "random"}]
    answer = create(c, seats=seats, options={"runs": True}, seed=5)
    tid = answer["table"]["id"]
    tokens = [join(c, tid, 0, "Anna"), join(c, tid, 1, "Bert")]
    play_out(c, tid, tokens)
    return {"id": tid, "tokens": tokens}


def test_rematch_seats_the_same_people_moved_on(c: TestClient, finished: dict[str, Any]) -> None:
    tid, (anna, bert) = finished["id"], finished["tokens"]
    r = c.post(f"/api/tables/{tid}/rematch", headers=auth(anna))
    assert r.status_code == 200, r.text
    first = r.json()
    new = first["table"]
    assert new["id"] != tid and new["game"] == "myllymatti" and new["options"]["runs"] is True
    # every seat moves one on: Bert leads (seat 0), the bot is seat 1, Anna deals (seat 2)
    assert first["seat"] == 2
    assert [s["kind"] for s in new["seats"]] == ["open", "bot", "human"]
    assert new["seats"][1]["bot"] == "random" and new["seats"][2]["name"] == "Anna"
    assert new["status"] == "waiting" and all(not s["anyone"] for s in new["seats"])
    assert c.get(f"/api/tables/{tid}").json()["rematch"] == new["id"]
    # the new seat is kept for Bert: nobody else may take it
    status, code, _ = error_of(c.post(f"/api/tables/{new['id']}/seats/0", json={"name": "Eve"}))
    assert (status, code) == (403, "bad_invite")
    second = c.post(f"/api/tables/{tid}/rematch", headers=auth(bert)).json()
    assert second["seat"] == 0 and second["table"]["id"] == new["id"]
    playing = state(c, new["id"], second["token"])
    assert playing["status"] == "playing" and playing["seat"] == 0
    assert state(c, new["id"], first["token"])["seat"] == 2
    # asking twice gives no second token
    status, code, message = error_of(c.post(f"/api/tables/{tid}/rematch", headers=auth(anna)))
    assert (status, code) == (409, "seat_taken") and "first request" in message


def test_rematch_refusals(c: TestClient, finished: dict[str, Any], duel: dict[str, Any]) -> None:
    tid = finished["id"]
    assert error_of(c.post(f"/api/tables/{tid}/rematch"))[:2] == (403, "spectator")
    bad = auth("not-a-token")
    assert error_of(c.post(f"/api/tables/{tid}/rematch", headers=bad))[:2] == (403, "bad_token")
    status, code, _ = error_of(
        c.post(f"/api/tables/{duel['id']}/rematch", headers=auth(duel["tokens"][0]))
    )
    assert (status, code) == (409, "not_finished")
    assert c.get(f"/api/tables/{duel['id']}").json()["rematch"] is None
    assert error_of(c.post("/api/tables/nope/rematch", headers=bad))[:2] == (404, "unknown_table")


def test_rematch_request_rotates_bots_and_keeps_memory_aids() -> None:
    from tikki.server.db import StoredSeat
    from tikki.server.tables import Table, rematch_request

    game = tikki.load("mueckenstich", 3)
    seats = [
        StoredSeat(0, "bot", "Medium bot", "heuristic"),
        StoredSeat(1, "human", "Anna", None, "x"),
        StoredSeat(2, "bot", "Easy bot", "random"),
    ]
    table = Table("t1", game, game.new_state(seed=1), 1, seats, "finished", None, memory_aids=True)  # type: ignore[arg-type]
    wanted = rematch_request(table)
    assert wanted.seats == [("open", None), ("bot", "random"), ("bot", "heuristic")]
    assert wanted.memory_aids and wanted.seed is None and wanted.game == "mueckenstich"
