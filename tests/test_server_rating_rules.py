"""Ratings that mean something, and names people can trust.

- A seat its person resigned (or left to a bot) places last, whatever the bot made of it:
  resigning at move 0 in 12 rated games against two Hard bots gains nothing.
- Only the game as its rules have it is rated (a Mattis ``mini`` table is refused).
- A guest holds no rated seat, a rematch's either.
- New accounts are provisional (off the leaderboard) and weigh little as opponents: one
  account beating 12 fresh throwaway accounts gains less than beating an Easy bot.
- Two accounts at one table from one client address are not rated by it.
- Names: confusable skeletons against every account and the bots, reserved words, and
  guests under the same rules; every seat says who holds it (account, guest, bot).
"""

from __future__ import annotations

import itertools
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, insert, select

from tests._server import INVITES, TestClient, app_state, auth, client, create, error_of, join
from tests.test_server_accounts import register
from tikki.server import ratings
from tikki.server.db import (
    AccountRow,
    AccountSeatRow,
    MoveRow,
    RatingRow,
    SeatRow,
    TableExtraRow,
    TableRow,
)
from tikki.server.names import likeness, reserved

HARD = "ismcts:iterations=1000"
FARM_GAMES = 12
IDS = itertools.count()


def accounts(engine: Engine, *names: str) -> list[int]:
    """Make accounts straight in the database; their ids."""
    ids = []
    with engine.begin() as connection:
        for name in names:
            row = {"name": name, "skeleton": f"{name}-{next(IDS)}", "password_hash": "x",
                   "created": datetime(2025, 1, 1), "private": False}  # fmt: skip
            ids.append(int(connection.execute(insert(AccountRow).returning(AccountRow.id), row)
                           .scalar_one()))  # fmt: skip
    return ids


def finished(
    engine: Engine,
    seats: list[tuple[str, Any]],
    order: list[int],
    takeovers: list[dict[str, Any]] | None = None,
    addresses: dict[int, str] | None = None,
    game: str = "myllymatti",
) -> str:
    """A finished rated table stored as the server stores one: ``seats`` are
    ``("human", account id)`` or ``("bot", spec)``; ``order`` the seats as they went
    out (the last one is the loser); one move per seat."""
    table_id = f"t{next(IDS)}"
    n = len(seats)
    outcome = {"loser": order[-1], "out_order": order[:-1], "abandoned": False,
               "returns": [0.0] * n}  # fmt: skip
    with engine.begin() as connection:
        connection.execute(insert(TableRow), {
            "id": table_id, "game": game, "players": n, "variant": "standard",
            "options": {"variant": "standard", "rated": True}, "seed": 1,
            "status": "finished", "created": datetime(2025, 1, 1),
            "finished": datetime(2025, 1, 1, 0, 0, next(IDS) % 60), "outcome": outcome,
            "takeovers": takeovers or [],
        })  # fmt: skip
        for seat, (kind, who) in enumerate(seats):
            bot = who if kind == "bot" else None
            connection.execute(
                insert(SeatRow),
                {"table_id": table_id, "seat": seat, "kind": kind, "name": f"s{seat}", "bot": bot},
            )
            if kind == "human":
                connection.execute(
                    insert(AccountSeatRow), {"table_id": table_id, "seat": seat, "account_id": who}
                )
            connection.execute(
                insert(MoveRow),
                {
                    "table_id": table_id,
                    "seq": seat,
                    "seat": seat,
                    "move": "x",
                    "time": datetime(2025, 1, 1),
                },
            )
        connection.execute(insert(TableExtraRow), {"table_id": table_id, "rated": True})
        for seat, address in (addresses or {}).items():
            connection.execute(insert(ratings.RatedAddressRow), {
                "table_id": table_id, "seat": seat,
                "key": ratings.address_key(table_id, address)})  # fmt: skip
    return table_id


def rating_of(engine: Engine, account_id: int, game: str = "myllymatti") -> dict[str, Any]:
    """An account's rating as the API shows it (``None`` fields: never rated)."""
    with engine.connect() as connection:
        row = connection.execute(
            select(RatingRow.mu, RatingRow.sigma, RatingRow.games).where(
                RatingRow.account_id == account_id, RatingRow.game == game
            )
        ).first()
    if row is None:
        return {"rating": None, "games": 0, "provisional": True}
    return ratings.rating_json(row.mu, row.sigma, row.games)


@pytest.fixture
def store(tmp_path: Path) -> Any:
    """A fresh database and its :class:`~tikki.server.ratings.Ratings`."""
    from tikki.server.db import Store

    made = Store(f"sqlite:///{tmp_path / 'r.sqlite'}")
    made.create_schema()
    yield ratings.Ratings(made.engine)
    made.close()


def resign_farm(store: Any, resigned: bool) -> float:
    """One account's rating after 12 rated games against two Hard bots, placing as a
    Medium player might (1st, 2nd or 3rd in turn); ``resigned``: it resigned at move 0
    of each, its Medium stand-in placing so."""
    engine = store.engine
    (farmer,) = accounts(engine, f"farmer{next(IDS)}")
    for game in range(FARM_GAMES):
        order = [[0, 1, 2], [1, 0, 2], [1, 2, 0]][game % 3]
        left = [{"seat": 0, "from": 0, "to": None, "bot": "heuristic", "why": "resigned"}]
        finished(engine, [("human", farmer), ("bot", HARD), ("bot", HARD)], order,
                 takeovers=left if resigned else None, addresses={0: "10.0.0.1"})  # fmt: skip
        store._settle()
    return float(rating_of(engine, farmer)["rating"])


def test_a_resigned_seat_places_last(store: Any) -> None:
    """Resigning at move 0 against two Hard bots, 12 times: the account's rating is that of
    one who came last every time, below the Medium anchor (before: the stand-in's places
    counted, 17.82 in the report)."""
    engine = store.engine
    farmed = resign_farm(store, resigned=True)
    (last,) = accounts(engine, "alwayslast")
    for _game in range(FARM_GAMES):
        finished(engine, [("human", last), ("bot", HARD), ("bot", HARD)], [1, 2, 0])
        store._settle()
    always_last = float(rating_of(engine, last)["rating"])
    honest = resign_farm(store, resigned=False)
    medium = ratings.anchors()["myllymatti"]["heuristic"]
    assert farmed == pytest.approx(always_last, abs=1e-6)
    assert farmed < honest and farmed < medium["mu"] - 3 * medium["sigma"]


def test_forfeits_of_the_stand_ins() -> None:
    """Away stand-ins forfeit at once; turn-timer ones past a quarter of the seat's moves."""
    moves = [(q, q % 2) for q in range(20)]  # seats 0 and 1 in turn, 10 moves each
    away = [{"seat": 1, "from": 18, "to": 19, "why": "away"}]
    assert ratings.forfeits(away, moves) == {1}
    timer = [{"seat": 0, "from": q, "to": q + 1, "why": "timer"} for q in (0, 2)]
    assert ratings.forfeits(timer, moves) == set()
    timer += [{"seat": 0, "from": q, "to": q + 1, "why": "timeout"} for q in (4, 6)]
    assert ratings.forfeits(timer, moves) == {0}
    assert ratings.last_for([1.0, 2.0, 3.0], {0}) == [4.0, 2.0, 3.0]


def throwaway_farm(store: Any) -> dict[str, Any]:
    """One account beats 12 fresh throwaway accounts (two-seat tables, each throwaway
    from its own address): its rating then."""
    engine = store.engine
    (farmer,) = accounts(engine, f"farmer{next(IDS)}")
    for game in range(FARM_GAMES):
        (throwaway,) = accounts(engine, f"throwaway{next(IDS)}")
        order = [1, 0] if game == 5 else [0, 1]  # it loses one of the 12
        finished(engine, [("human", farmer), ("human", throwaway)], order,
                 addresses={0: "10.0.0.1", 1: f"10.1.0.{game}"})  # fmt: skip
        store._settle()
    return rating_of(engine, farmer)


def test_throwaway_accounts_gain_nothing(store: Any) -> None:
    """Beating 12 fresh throwaway accounts (11 of 12) leaves the account provisional and
    below one that beat the Easy bot 11 times in 12 (before: 21.51 in the report, above
    the Hard anchor)."""
    engine = store.engine
    farmed = throwaway_farm(store)
    (honest,) = accounts(engine, "honest")
    for game in range(FARM_GAMES):
        order = [1, 0] if game == 5 else [0, 1]
        finished(engine, [("human", honest), ("bot", "random")], order)
        store._settle()
    against_easy = rating_of(engine, honest)
    assert farmed["provisional"] is True and farmed["games"] == FARM_GAMES
    assert farmed["rating"] < against_easy["rating"]
    hard = ratings.anchors()["myllymatti"][HARD]
    assert farmed["rating"] < hard["mu"] - 3 * hard["sigma"]


def test_one_address_rates_neither(store: Any) -> None:
    """Two accounts that joined from one address: the game rates neither; from two, both."""
    engine = store.engine
    anna, ben = accounts(engine, "anna", "ben")
    finished(engine, [("human", anna), ("human", ben), ("bot", "random")], [0, 2, 1],
             addresses={0: "10.0.0.7", 1: "10.0.0.7"})  # fmt: skip
    store._settle()
    assert rating_of(engine, anna)["games"] == rating_of(engine, ben)["games"] == 0
    finished(engine, [("human", anna), ("human", ben), ("bot", "random")], [0, 2, 1],
             addresses={0: "10.0.0.7", 1: "10.0.0.8"})  # fmt: skip
    store._settle()
    assert rating_of(engine, anna)["games"] == rating_of(engine, ben)["games"] == 1


def test_research_options_not_rated(tmp_path: Path) -> None:
    """A rated table with an option off the rules (Mattis mini) is refused in words."""
    with client(tmp_path) as c:
        anna = TestClient(c.app)
        assert register(anna, "Anna").status_code == 201
        seats = [
            {"kind": "open"},
            {"kind": "bot", "bot": "random"},
            {"kind": "bot", "bot": "random"},
        ]
        for extra in ({"variant": "mini"}, {"options": {"hand": 2}}):
            body = {"game": "mattis", "players": 3, "seats": seats, "rated": True, **extra}
            status, code, message = error_of(anna.post("/api/tables", json=body))
            assert (status, code) == (400, "rated_options") and "rated" in message
        r = anna.post("/api/tables", json={"game": "mattis", "seats": seats, "rated": True})
        assert r.status_code == 201, r.text
        r = anna.post("/api/tables", json={"game": "mattis", "seats": seats, "variant": "mini"})
        assert r.status_code == 201 and r.json()["table"]["rated"] is False
    assert ratings.nonstandard("mattis", {"variant": "mini", "hand": 1}) == [
        "variant=mini", "hand=1"
    ]  # fmt: skip


def test_a_guest_holds_no_rated_seat_at_a_rematch(tmp_path: Path) -> None:
    """The seat's token without the account's cookie (a guest) asks for the rematch of a
    rated table: refused in words, and no rematch is made."""
    with client(tmp_path) as c:
        anna = c  # signed in (its requests share the app's event loop, where bots play)
        assert register(anna, "Anna").status_code == 201
        body = {"game": "myllymatti", "players": 2, "rated": True,
                "seats": [{"kind": "open"}, {"kind": "bot", "bot": "random"}]}  # fmt: skip
        answer = anna.post("/api/tables", json=body).json()
        table_id = answer["table"]["id"]
        invite = answer["invites"][0]["url"].split("#invite=")[1]
        r = anna.post(f"/api/tables/{table_id}/seats/0", json={"name": "x", "invite": invite})
        token = r.json()["token"]
        table = app_state(c).manager.tables[table_id]
        for _turn in range(5000):
            if table.status == "finished":
                break
            view = anna.get(f"/api/tables/{table_id}/state", headers=auth(token)).json()
            if view["table"]["to_act"] == 0:
                move = {"move": view["view"]["legal_moves"][0], "seq": view["seq"]}
                anna.post(f"/api/tables/{table_id}/moves", json=move, headers=auth(token))
            else:
                time.sleep(0.002)
        assert table.status == "finished"
        guest = TestClient(c.app, client=("10.0.0.9", 1))
        r = guest.post(f"/api/tables/{table_id}/rematch", headers=auth(token))
        assert error_of(r)[:2] == (403, "rated_needs_account")
        assert table.rematch is None
        r = anna.post(f"/api/tables/{table_id}/rematch", headers=auth(token))
        assert r.status_code == 200 and r.json()["table"]["rated"] is True
        INVITES.clear()


def test_join_keeps_only_a_short_address_key(tmp_path: Path) -> None:
    """A rated seat's address is kept as a 6-digit salted hash, never the address."""
    with client(tmp_path) as c:
        anna = TestClient(c.app, client=("10.0.0.1", 1))
        assert register(anna, "Anna").status_code == 201
        body = {"game": "myllymatti", "players": 2, "rated": True,
                "seats": [{"kind": "open"}, {"kind": "open"}]}  # fmt: skip
        answer = anna.post("/api/tables", json=body).json()
        table_id = answer["table"]["id"]
        invite = answer["invites"][0]["url"].split("#invite=")[1]
        anna.post(f"/api/tables/{table_id}/seats/0", json={"name": "x", "invite": invite})
        with app_state(c).manager.store.engine.connect() as connection:
            rows = connection.execute(select(ratings.RatedAddressRow)).all()
        assert [(r.seat, r.key) for r in rows] == [(0, ratings.address_key(table_id, "10.0.0.1"))]
        assert len(rows[0].key) == ratings.KEY_CHARS and "10.0" not in rows[0].key


# ---------------------------------------------------------------------------- names


def test_likeness_and_reserved_words() -> None:
    assert likeness("rnike") == likeness("mike")
    assert likeness("Anna.") == likeness("Anna") == likeness("\u0410nna") == likeness("A n-na")
    assert likeness("Anna") != likeness("Anni")
    for name in ("anonymous", "Player", "Player 2", "Spectator", "admin", "Aino", "Expert",
                 "Aino (Hard)", "Veikko (Keskitaso)", "Katsoja", "Zuschauer"):  # fmt: skip
        assert reserved(name), name
    for name in ("Anna", "Sagan", "Playful", "Mike"):
        assert not reserved(name), name


def fresh(c: TestClient) -> TestClient:
    """A new browser at an address of its own (registrations are limited per address)."""
    return TestClient(c.app, client=(f"10.3.{next(IDS) % 250}.{next(IDS) % 250}", 1))


def test_account_names_that_look_taken_or_reserved(tmp_path: Path) -> None:
    """ "rnike" beside "mike" and "Anna." beside "Anna" are refused in words; so are the
    reserved words, the bots' names and levels."""
    with client(tmp_path) as c:
        assert register(fresh(c), "mike").status_code == 201
        assert register(fresh(c), "Anna").status_code == 201
        for name, other in (("rnike", "mike"), ("Anna.", "Anna"), ("ANNA", "Anna")):
            status, code, message = error_of(register(fresh(c), name))
            assert (status, code) == (409, "name_taken"), name
            assert other in message
        assert register(fresh(c), "Annika").status_code == 201
    with client(tmp_path, "other.sqlite") as c:  # a server of its own: its own login rate
        for name in ("anonymous", "Player", "Spectator", "admin", "Aino", "Hard", "Saga 2"):
            status, code, message = error_of(register(fresh(c), name))
            assert (status, code) == (400, "reserved_name") and "bots" in message, name


def test_guest_names_and_seat_holders(tmp_path: Path) -> None:
    """A guest cannot sit as an account ("Anna") or a bot ("Aino (Hard)"); every seat says
    who holds it (account, guest, bot), after a restart too."""
    with client(tmp_path) as c:
        anna = TestClient(c.app)
        assert register(anna, "Anna").status_code == 201
        seats = [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "bot": "heuristic"}]
        table_id = create(c, seats=seats, players=3)["table"]["id"]
        refused = (("Anna", "name_taken"), ("anna.", "name_taken"),
                   ("Aino (Hard)", "reserved_name"), ("Player", "reserved_name"))  # fmt: skip
        for name, code in refused:
            body = {"name": name, "invite": INVITES[table_id, 1]}
            r = c.post(f"/api/tables/{table_id}/seats/1", json=body)
            assert error_of(r)[1] == code, name
        assert app_state(c).manager.tables[table_id].seats[1].kind == "open"
        join(anna, table_id, 0, "whatever")
        join(c, table_id, 1, "Beata")
        shown = c.get(f"/api/tables/{table_id}").json()["seats"]
        assert [(s["name"], s["holder"]) for s in shown] == [
            ("Anna", "account"), ("Beata", "guest"), ("Aino (Medium)", "bot")
        ]  # fmt: skip
    with client(tmp_path) as c:
        shown = c.get(f"/api/tables/{table_id}").json()["seats"]
        assert [s["holder"] for s in shown] == ["account", "guest", "bot"]
    INVITES.clear()
