"""Rated tables, ratings on the bots' scale, the leaderboard and profiles.

A rated Myllymatti game between two accounts and an Easy bot changes both people's
ratings by exactly the OpenSkill (Plackett–Luce) update in which the bot takes part with
its anchored rating; the leaderboard lists the people (not private ones) with the bots as
reference lines; a profile lists the game with its result, rating change and replay and
analysis links; all records download at once; a private profile shows to its owner only.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce

from tests._server import INVITES, TestClient, app_state, auth, client, error_of
from tests.test_server_accounts import csrf, register
from tikki.server import ratings

ANCHOR = {"label": "Easy", "mu": 20.0, "sigma": 2.0}


@pytest.fixture
def anchors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "bot_ratings.json"
    path.write_text(json.dumps({"ratings": {"myllymatti": {"random": ANCHOR}}}))
    monkeypatch.setattr(ratings, "ANCHORS", path)


def two_people(c: TestClient) -> tuple[TestClient, TestClient]:
    """Two browsers at two client addresses (people at one address are not rated)."""
    return TestClient(c.app, client=("10.0.0.1", 1)), TestClient(c.app, client=("10.0.0.2", 1))


def play_out(c: TestClient, table_id: str, tokens: dict[int, str]) -> None:
    table = app_state(c).manager.tables[table_id]
    for _turn in range(20000):
        if table.status == "finished":
            return
        seat = table.state.current_player
        if seat not in tokens:  # the bot's turn: it plays by itself in the server's thread
            time.sleep(0.005)
            continue
        view = c.get(f"/api/tables/{table_id}/state", headers=auth(tokens[seat])).json()
        if view["table"]["to_act"] != seat:
            continue
        body = {"move": view["view"]["legal_moves"][0], "seq": view["seq"]}
        c.post(f"/api/tables/{table_id}/moves", json=body, headers=auth(tokens[seat]))
    raise AssertionError("the game did not end")


def rated_game(c: TestClient, anna: TestClient, ben: TestClient) -> dict[str, Any]:
    seats = [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "bot": "random"}]
    body = {"game": "myllymatti", "players": 3, "seats": seats, "rated": True}
    assert error_of(c.post("/api/tables", json=body))[:2] == (403, "rated_needs_account")
    r = anna.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    answer = r.json()
    table_id = answer["table"]["id"]
    invites = {i["seat"]: i["url"].split("#invite=")[1] for i in answer["invites"]}
    guest = c.post(f"/api/tables/{table_id}/seats/1", json={"name": "G", "invite": invites[1]})
    assert error_of(guest)[:2] == (403, "rated_needs_account")
    tokens = {}
    for seat, who in ((0, anna), (1, ben)):
        r = who.post(
            f"/api/tables/{table_id}/seats/{seat}", json={"name": "x", "invite": invites[seat]}
        )
        assert r.status_code == 200, r.text
        tokens[seat] = r.json()["token"]
    play_out(c, table_id, tokens)
    INVITES.clear()
    outcome = app_state(c).manager.tables[table_id].state.outcome
    return {"id": table_id, "outcome": outcome, "tokens": tokens}


def profile_ratings(c: TestClient, name: str) -> dict[str, Any]:
    """The ratings a player's profile shows, by game."""
    shown: dict[str, Any] = c.get(f"/api/players/{name}").json()["ratings"]
    return shown


def test_rated_game_leaderboard_and_profile(tmp_path: Path, anchors: None) -> None:
    with client(tmp_path) as c:
        anna, ben = two_people(c)
        assert register(anna, "Anna").status_code == 201
        assert register(ben, "Ben").status_code == 201
        game = rated_game(c, anna, ben)
        # the expected update: both people new (25, 25/3), the bot fixed at its anchor;
        # each takes the share of it that its opponents weigh: the other, provisional,
        # PROVISIONAL_WEIGHT, the bot 1
        model = PlackettLuce()
        ranks = ratings.places(game["outcome"], 3)
        assert ranks is not None
        teams = [[model.rating()], [model.rating()], [model.rating(mu=20.0, sigma=2.0)]]
        expected = model.rate(teams, ranks=ranks)
        weight = (ratings.PROVISIONAL_WEIGHT + 1.0) / 2
        board = c.get("/api/ratings/myllymatti").json()
        assert board["people"] == []  # provisional: off the leaderboard
        shown = {name: profile_ratings(c, name) for name in ("Anna", "Ben")}
        for seat, name in enumerate(("Anna", "Ben")):
            mine = shown[name]["myllymatti"]
            mu = 25.0 + weight * (expected[seat][0].mu - 25.0)
            sigma = 25 / 3 + weight * (expected[seat][0].sigma - 25 / 3)
            assert mine["mu"] == pytest.approx(mu, abs=1e-3)
            assert mine["sigma"] == pytest.approx(sigma, abs=1e-3)
            assert mine["games"] == 1 and mine["provisional"] is True
        assert [b["label"] for b in board["bots"]] == ["Easy"]
        assert board["bots"][0]["rating"] == pytest.approx(20.0 - 6.0)
        # settling twice changes nothing
        assert {name: profile_ratings(c, name) for name in ("Anna", "Ben")} == shown

        profile = c.get("/api/players/anna").json()
        assert profile["name"] == "Anna" and profile["ratings"]["myllymatti"]["games"] == 1
        (played,) = profile["games"]
        assert played["table"] == game["id"] and played["place"] == int(ranks[0])
        assert played["replay"] == f"/replay/{game['id']}"
        assert played["analysis"].startswith(f"/t/{game['id']}?seat=0")
        assert (played["opponents"][0]["name"], played["opponents"][0]["kind"]) == ("Ben", "human")
        assert played["opponents"][1]["bot"] == "random"
        change = played["rating_change"]
        mine = shown["Anna"]["myllymatti"]
        assert change["after"] == pytest.approx(
            ratings.ordinal(mine["mu"], mine["sigma"]), abs=0.01
        )
        assert profile["statistics"]["myllymatti"]["games"] == 1
        assert c.get("/api/players/anna?game=mattis").json()["games"] == []
        r = c.get("/api/players/Anna/records")
        assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
        (record,) = r.json()["records"]
        assert record["seats"][1]["name"] == "Ben" and record["moves"]

        # a private profile: its owner only, and off the leaderboard
        r = anna.post("/api/account/settings", json={"private": True}, headers=csrf(anna))
        assert r.status_code == 200, r.text
        assert error_of(c.get("/api/players/Anna"))[:2] == (403, "private")
        assert error_of(c.get("/api/players/Anna/records"))[:2] == (403, "private")
        assert anna.get("/api/players/Anna").status_code == 200
        names = [p["name"] for p in c.get("/api/ratings/myllymatti").json()["people"]]
        assert names == []
        with app_state(c).manager.store.engine.begin() as connection:  # as after more games
            connection.exec_driver_sql("UPDATE tikki_ratings SET sigma = 2.0, games = 10")
        names = [p["name"] for p in c.get("/api/ratings/myllymatti").json()["people"]]
        assert names == ["Ben"]  # established now; Anna's profile is private
        assert error_of(c.get("/api/players/Nobody"))[:2] == (404, "unknown_player")
        assert error_of(c.get("/api/ratings/chess"))[:2] == (404, "unknown_game")
        # "Play again" after a rated game: rated too, each person's seat linked again
        for seat, who in enumerate((anna, ben)):
            token = game["tokens"][seat]
            r = who.post(f"/api/tables/{game['id']}/rematch", headers=auth(token))
            assert r.status_code == 200, r.text
        again = r.json()["table"]["id"]
        assert app_state(c).ratings.rated[again] is True
        assert len(c.get("/api/players/Ben").json()["games"]) == 2
        assert c.get("/players/Ben").status_code == 200
        assert c.get("/account").status_code == 200


def test_postgres_rated_game_and_chat(postgres_url: str, anchors: None) -> None:
    """The same flow on PostgreSQL: a rated game, the leaderboard, a profile, the chat."""
    from tikki.server import create_app

    with TestClient(create_app(postgres_url, bot_delay=0)) as c:
        anna, ben = two_people(c)
        assert register(anna, "Anna").status_code == 201
        assert register(ben, "Ben").status_code == 201
        game = rated_game(c, anna, ben)
        assert profile_ratings(c, "Anna")["myllymatti"]["games"] == 1
        assert c.get("/api/players/Ben").json()["games"][0]["rating_change"] is not None
        r = c.post(f"/api/tables/{game['id']}/chat", json={"phrase": "gg"})
        assert r.status_code == 201, r.text
        assert c.get(f"/api/tables/{game['id']}/chat").json()["messages"][0]["phrase"] == "gg"
        r = ben.post(
            "/api/account/delete", json={"password": "correct horse battery"}, headers=csrf(ben)
        )
        assert r.status_code == 200, r.text
        record = c.get(f"/api/tables/{game['id']}/record").json()
        assert record["seats"][1]["name"] == "anonymous"


def rating_rows(c: TestClient) -> dict[int, int]:
    """Each account's rated Myllymatti games, read straight from the database."""
    from sqlalchemy import select

    from tikki.server.db import RatingRow

    with app_state(c).manager.store.engine.connect() as connection:
        rows = connection.execute(select(RatingRow.account_id, RatingRow.games)).all()
    return {int(r.account_id): int(r.games) for r in rows}


def test_rated_mark_settled_at_the_end_and_once_only(tmp_path: Path, anchors: None) -> None:
    """A rated table says so (create, lobby, table, state message, after a restart); its
    ratings are applied when the game ends, before anyone reads them; a second server
    process on the same database that saw the table unsettled does not apply it again."""
    with client(tmp_path) as c:
        anna, ben = two_people(c)
        assert register(anna, "Anna").status_code == 201
        assert register(ben, "Ben").status_code == 201
        seats = [{"kind": "open"}, {"kind": "bot", "bot": "random"}]
        plain = c.post("/api/tables", json={"game": "myllymatti", "players": 2, "seats": seats})
        assert plain.status_code == 201 and plain.json()["table"]["rated"] is False
        game = rated_game(c, anna, ben)
        table_id = game["id"]
        assert c.get(f"/api/tables/{table_id}").json()["rated"] is True
        finished = c.get("/api/tables?status=finished").json()["tables"]
        assert {t["id"]: t["rated"] for t in finished}[table_id] is True
        state = c.get(f"/api/tables/{table_id}/state", headers=auth(game["tokens"][0])).json()
        assert state["table"]["rated"] is True
        # applied when the game ended: in the database before any leaderboard or profile
        for _wait in range(500):
            if len(rating_rows(c)) == 2:
                break
            time.sleep(0.01)
        assert sorted(rating_rows(c).values()) == [1, 1]
        # another process saw a second rated table unsettled, then this one applied it
        app_state(c).manager.on_finished = None  # as if this process stopped at the end
        rated_game(c, anna, ben)
        other = ratings.Ratings(app_state(c).manager.store.engine)
        (stale,) = other._pending()
        assert app_state(c).ratings._settle() == 1
        assert other._settle_one(stale) is False
        assert sorted(rating_rows(c).values()) == [2, 2]
        assert other._settle() == 0
    with client(tmp_path) as c:  # a restart: the mark comes back from the database
        assert c.get(f"/api/tables/{table_id}").json()["rated"] is True
        assert c.get(f"/api/tables/{plain.json()['table']['id']}").json()["rated"] is False


def test_profile_keeps_each_analysis_accuracy(tmp_path: Path) -> None:
    """A finished analysis of a person's seat is kept: the profile lists its accuracy with
    the game (for the chart of accuracy over time), also after a restart, and a seat not
    analysed has none."""
    from tests.test_server_analysis import wait_done

    with client(tmp_path) as c:
        app_state(c).analyses.iterations = 20
        anna = TestClient(c.app)
        assert register(anna, "Anna").status_code == 201
        seats = [{"kind": "open"}, {"kind": "bot", "bot": "random"}]
        body = {"game": "myllymatti", "players": 2, "seats": seats}
        answer = anna.post("/api/tables", json=body).json()
        table_id = answer["table"]["id"]
        invite = answer["invites"][0]["url"].split("#invite=")[1]
        r = anna.post(f"/api/tables/{table_id}/seats/0", json={"name": "x", "invite": invite})
        assert r.status_code == 200, r.text
        play_out(c, table_id, {0: r.json()["token"]})
        INVITES.clear()
        assert c.get("/api/players/Anna").json()["games"][0]["accuracy"] is None
        url = f"/api/tables/{table_id}/analysis/0"
        assert c.post(url).status_code == 202
        job = wait_done(c, url)
        assert job["status"] == "done", job
        for _wait in range(500):  # kept right after the result (a database write)
            (game,) = c.get("/api/players/Anna").json()["games"]
            if game["accuracy"] is not None:
                break
            time.sleep(0.01)
        assert game["accuracy"] == pytest.approx(job["analysis"]["accuracy"])
    with client(tmp_path) as c:
        (game,) = c.get("/api/players/Anna").json()["games"]
        assert game["accuracy"] == pytest.approx(job["analysis"]["accuracy"])


def test_postgres_two_processes_settle_each_game_once(postgres_url: str, anchors: None) -> None:
    """Two server processes on one PostgreSQL database (two ``Ratings``) settling the same
    finished rated games at once: each game is applied once, and no update of a person's
    rating is lost (the claim and the row locks)."""
    import threading

    from tikki.server import create_app

    with TestClient(create_app(postgres_url, bot_delay=0)) as c:
        anna, ben = two_people(c)
        assert register(anna, "Anna").status_code == 201
        assert register(ben, "Ben").status_code == 201
        rated_game(c, anna, ben)  # settled as it ends: both people have a rating row
        for _wait in range(500):
            if sorted(rating_rows(c).values()) == [1, 1]:
                break
            time.sleep(0.01)
        app_state(c).manager.on_finished = None  # two more games left for the processes
        rated_game(c, anna, ben)
        rated_game(c, anna, ben)
        engine = app_state(c).manager.store.engine
        processes = [ratings.Ratings(engine), ratings.Ratings(engine)]
        stale = processes[0]._pending()
        assert len(stale) == 2
        applied: list[bool] = []
        start = threading.Barrier(2)

        def settle(process: ratings.Ratings, rows: list[Any]) -> None:
            start.wait()
            applied.extend(process._settle_one(row) for row in rows)

        # opposite orders: each applies one game while the other applies the other
        orders = [stale, stale[::-1]]
        threads = [
            threading.Thread(target=settle, args=a) for a in zip(processes, orders, strict=True)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(applied) == [False, False, True, True], applied
        assert sorted(rating_rows(c).values()) == [3, 3]


def test_no_hint_at_a_rated_table_while_it_plays(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        anna = TestClient(c.app)
        assert register(anna, "Anna").status_code == 201
        seats = [{"kind": "open"}, {"kind": "bot", "bot": "random"}]
        body = {"game": "myllymatti", "players": 2, "seats": seats, "rated": True}
        r = anna.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        table_id = r.json()["table"]["id"]
        invite = r.json()["invites"][0]["url"].split("#invite=")[1]
        joined = anna.post(f"/api/tables/{table_id}/seats/0", json={"name": "x", "invite": invite})
        token = joined.json()["token"]
        table = app_state(c).manager.tables[table_id]
        for _wait in range(2000):  # the bot may lead: wait for Anna's turn
            if table.state.current_player == 0:
                break
            time.sleep(0.005)
        status, code, message = error_of(
            c.post(f"/api/tables/{table_id}/hint", headers=auth(token))
        )
        assert (status, code) == (403, "no_help_rated")
        assert "rated" in message and "after the end" in message
