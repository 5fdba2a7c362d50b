"""Tournaments on the server: a Swiss tournament of people and bots played to the end
through the site's own paths (the people are accounts that enter over HTTP, fetch their
seat and play their moves over HTTP; the bots are the tables' bots), its standings
checked against the tables' own outcomes; a timed arena on an injected clock with
nothing lost; a withdrawal that resigns the seat at once; a runner that dies while
making a table, the table made once and counted; and the API's refusals, each a 4xx in
words.  SQLite here."""

from __future__ import annotations

import json
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from itertools import combinations, pairwise
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import create_engine, text

from tests._server import TestClient, app_state, auth, client, error_of, pick
from tests.test_server_friends import csrf
from tests.test_server_friends import person as signed_up
from tikki.server import create_app, tournaments
from tikki.server.quota import client_key
from tikki.server.ratings import address_key, same_address

SLACK = 120.0
"""Seconds a test waits for something that takes a few here (a loaded CI machine)."""


def person(guest: TestClient, name: str) -> TestClient:
    """A browser signed in to a new account ``name``, its requests served on the
    server's own event loop (the tables' loop: a person plays moves)."""
    c = signed_up(guest.app, name)
    c.portal = guest.portal
    return c


def post(c: TestClient, path: str, body: dict[str, Any] | None = None, lang: str = "en") -> Any:
    """POST to the tournaments' API with the CSRF header."""
    headers = {**csrf(c), "Accept-Language": lang}
    return c.post(f"/api/tournaments{path}", json=body or {}, headers=headers)


def soon(seconds: float = 0.0) -> str:
    """A start time ``seconds`` from now, as ISO text."""
    return (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat()


def detail(c: TestClient, tid: str) -> dict[str, Any]:
    r = c.get(f"/api/tournaments/{tid}")
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


def play_people(
    people: list[TestClient], tid: str, done: Any, hints: list[Any], budget: int | None = None
) -> int:
    """Play every person's moves at their tournament tables until ``done()`` (or
    ``budget`` moves); the moves played (the first person to move asks for a hint
    first: ``hints``)."""
    moves = 0
    deadline = time.monotonic() + SLACK
    while not done() and (budget is None or moves < budget):
        assert time.monotonic() < deadline, "the tournament did not go on"
        idle = True
        for c in people:
            r = c.get(f"/api/tournaments/{tid}/seat")
            if r.status_code != 200:
                continue
            seat = r.json()
            table_id, token = seat["table"]["id"], seat["token"]
            state = c.get(f"/api/tables/{table_id}/state", headers=auth(token)).json()
            if state["status"] != "playing" or not state["view"]["legal_moves"]:
                continue
            if not hints:
                hints.append(c.post(f"/api/tables/{table_id}/hint", headers=auth(token)))
            body = {"move": pick(state["view"], state["seq"]), "seq": state["seq"]}
            r = c.post(f"/api/tables/{table_id}/moves", json=body, headers=auth(token))
            if r.status_code == 200:
                moves += 1
                idle = False
        if idle:
            time.sleep(0.01)
    return moves


def place_points(outcome: dict[str, Any], n: int) -> list[float]:
    """Points by place, worked out here from a table's outcome (the test's own sum)."""
    if "scores" in outcome:
        scores = outcome["scores"]
        return [float(sum(1 for o in scores if o <= s) - 1) for s in scores]
    order = [*outcome["out_order"], outcome["loser"]]
    return [float(n - 1 - order.index(s)) for s in range(n)]


def test_a_swiss_tournament_of_people_and_bots_played_to_the_end(tmp_path: Path) -> None:
    """Twelve entrants (four people, eight bots), tables of 3, four rounds: every round
    seats everyone once, nobody meets anyone twice in the first three rounds, the tables
    refuse hints, and each entrant's points are the sum of its places at the tables as
    their own records say; the standings are in order of points."""
    with client(tmp_path) as guest:
        app_state(guest).tournament_runner.every = 0.05
        people = [person(guest, name) for name in ("Anna", "Ben", "Cilla", "Dan")]
        body = {"name": "Friday cup", "game": "mueckenstich", "players": 3, "rounds": 4,
                "options": {"rounds": 1},
                "starts": soon(3600), "cap": 12}  # fmt: skip
        r = post(people[0], "", body)
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        for c in people:
            assert post(c, f"/{tid}/join").status_code == 200
        r = post(people[0], f"/{tid}/bots", {"bot": "random", "count": 8})
        assert r.status_code == 200, r.text
        assert len(r.json()["entrants"]) == 12
        assert error_of(post(people[1], f"/{tid}/bots", {"count": 1}))[:2] == (403, "not_yours")
        full = person(guest, "Eve")
        assert error_of(post(full, f"/{tid}/join"))[:2] == (409, "tournament_full")
        app_state(guest).tournament_runner.clock = lambda: (
            datetime.now(UTC).replace(tzinfo=None) + timedelta(hours=2)
        )
        hints: list[Any] = []
        moves = play_people(people, tid, lambda: detail(guest, tid)["status"] == "finished", hints)
        assert moves > 0
        found = detail(guest, tid)
        assert error_of(post(people[2], f"/{tid}/leave"))[:2] == (409, "tournament_started")
    assert [g["round"] for g in found["games"]] == [1, 2, 3, 4]
    expected: Counter[int] = Counter()
    met: Counter[frozenset[int]] = Counter()
    with client(tmp_path) as again:  # the same database, read back
        for game in found["games"]:
            seated = [e for t in game["tables"] for e in t["entrants"]]
            assert sorted(seated) == sorted(e["id"] for e in found["entrants"])
            for table in game["tables"]:
                record = again.get(f"/api/tables/{table['table']}/record").json()
                mine = place_points(record["outcome"], 3)
                assert table["points"] == mine
                expected.update(dict(zip(table["entrants"], mine, strict=True)))
                if game["round"] < 4:
                    met.update(frozenset(p) for p in combinations(table["entrants"], 2))
    assert max(met.values()) == 1
    standings = found["standings"]
    assert {line["entrant"]: line["points"] for line in standings} == {
        e["id"]: expected[e["id"]] for e in found["entrants"]
    }
    assert [line["points"] for line in standings] == sorted(
        (line["points"] for line in standings), reverse=True
    )
    assert all(line["games"] == 4 for line in standings)
    assert error_of(hints[0])[:2] == (403, "no_help_rated")


class Clock:
    """The tournaments' clock in a test: it moves only when the test moves it."""

    def __init__(self, moment: datetime) -> None:
        self.moment = moment

    def __call__(self) -> datetime:
        return self.moment


def wait_ticks(guest: TestClient, n: int = 2) -> None:
    """Wait until the runner has stepped every due tournament ``n`` more times."""
    runner = app_state(guest).tournament_runner
    target = runner.ticks + n
    deadline = time.monotonic() + SLACK
    while runner.ticks < target:
        assert time.monotonic() < deadline, "the runner did not step"
        time.sleep(0.01)


def stored_tables(tmp_path: Path) -> dict[str, tuple[dict[str, Any], datetime, datetime]]:
    """Every finished table in the test's database: its outcome, creation and end."""
    engine = create_engine(f"sqlite:///{tmp_path / 'web.sqlite'}")
    with engine.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT id, outcome, created, finished FROM tikki_tables WHERE finished IS NOT NULL"
            )
        ).all()
    engine.dispose()
    return {
        str(r[0]): (
            json.loads(r[1]),
            datetime.fromisoformat(str(r[2])),
            datetime.fromisoformat(str(r[3])),
        )
        for r in rows
    }


def test_an_arena_of_thirty_minutes_with_twenty_entrants_loses_nothing(tmp_path: Path) -> None:
    """An arena of 30 minutes, 20 entrants at tables of 3 (4 people, 16 bots): the
    runner's clock moves a minute each time the people have played 12 moves, so that
    the bots play many games and the people a few.  Every table seated before the end
    is played to its end and counted (those playing when the clock ends too), none is
    seated after; nobody sits at two tables at once; each table's points are its
    stored outcome's; the standings are the sums."""
    with client(tmp_path, bot_delay=0.02) as guest:  # the bots' tables a little slower
        runner = app_state(guest).tournament_runner
        runner.every = 0.1
        people = [person(guest, name) for name in ("Anna", "Ben", "Cilla", "Dan")]
        body = {"name": "Arena", "kind": "arena", "game": "mueckenstich", "players": 3,
                "options": {"rounds": 1}, "minutes": 30, "starts": soon(600),
                "cap": 20}  # fmt: skip
        r = post(people[0], "", body)
        assert r.status_code == 201, r.text
        tid, starts = r.json()["id"], r.json()["starts"]
        for c in people:
            assert post(c, f"/{tid}/join").status_code == 200
        assert post(people[0], f"/{tid}/bots", {"bot": "random", "count": 16}).status_code == 200
        clock = Clock(datetime.fromisoformat(starts.rstrip("Z")))
        runner.clock = clock
        hints: list[Any] = []
        for _minute in range(30):
            wait_ticks(guest)
            play_people(people, tid, lambda: False, hints, budget=12)
            clock.moment += timedelta(minutes=1)
        wait_ticks(guest)
        playing = {
            t["table"]
            for g in detail(guest, tid)["games"]
            for t in g["tables"]
            if t["points"] is None
        }
        assert playing  # the end came while tables were playing
        play_people(people, tid, lambda: detail(guest, tid)["status"] == "finished", hints)
        found = detail(guest, tid)
    stored = stored_tables(tmp_path)
    tables = found["games"][0]["tables"]
    assert playing <= {t["table"] for t in tables if t["points"] is not None}
    ends = datetime.fromisoformat(found["ends"].rstrip("Z"))
    assert all(datetime.fromisoformat(t["seated"].rstrip("Z")) < ends for t in tables)
    expected: Counter[int] = Counter()
    games: Counter[int] = Counter()
    sittings: dict[int, list[tuple[datetime, datetime]]] = {}
    for table in tables:
        outcome, began, over = stored[table["table"]]
        assert table["points"] == place_points(outcome, 3)
        expected.update(dict(zip(table["entrants"], table["points"], strict=True)))
        games.update(table["entrants"])
        for entrant in table["entrants"]:
            sittings.setdefault(entrant, []).append((began, over))
    for entrant, spans in sittings.items():
        spans.sort()
        assert all(a[1] <= b[0] for a, b in pairwise(spans)), entrant  # one at a time
    assert all(games[e["id"]] >= 2 for e in found["entrants"])
    assert {line["entrant"]: (line["points"], line["games"]) for line in found["standings"]} == {
        e["id"]: (expected[e["id"]], games[e["id"]]) for e in found["entrants"]
    }
    assert len(stored) == len(tables)  # no table made twice, none outside the arena


def test_the_limits_and_refusals_in_words(tmp_path: Path) -> None:
    """A guest cannot create; bad settings are 400s (a cap over 64 or under a table:
    422); an account has at most 3 tournaments open; entering twice, or an unknown
    tournament, is refused; each refusal is in the asker's language and changes
    nothing."""
    with client(tmp_path) as guest:
        anna = person(guest, "Anna")
        base = {"name": "Cup", "game": "mattis", "players": 3, "rounds": 3, "starts": soon(60)}
        r = guest.post("/api/tournaments", json=base, headers=csrf(guest))
        assert error_of(r)[:2] == (401, "not_signed_in")
        assert error_of(post(anna, "", {**base, "rounds": None}))[:2] == (400, "bad_tournament")
        english = error_of(post(anna, "", {**base, "kind": "arena"}))
        status, code, message = error_of(post(anna, "", {**base, "kind": "arena"}, "fi"))
        assert (status, code) == (400, "bad_tournament") and message != english[2]
        assert error_of(post(anna, "", {**base, "starts": soon(-3600)}))[:2] == (
            400,
            "bad_tournament",
        )
        assert error_of(post(anna, "", {**base, "game": "nosuchgame"}))[:2] == (400, "bad_options")
        assert post(anna, "", {**base, "cap": 65}).status_code == 422
        assert error_of(post(anna, "", {**base, "cap": 2}))[0] == 422
        ids = [post(anna, "", base).json()["id"] for _ in range(3)]
        status, code, message = error_of(post(anna, "", base, "de"))
        assert (status, code) == (409, "too_many_tournaments") and "3" in message
        assert len(guest.get("/api/tournaments").json()["tournaments"]) == 3
        ben = person(guest, "Ben")
        assert post(ben, f"/{ids[0]}/join").status_code == 200
        assert error_of(post(ben, f"/{ids[0]}/join"))[:2] == (409, "already_entered")
        assert post(ben, f"/{ids[0]}/leave").status_code == 200
        assert detail(guest, ids[0])["entrants"] == []
        assert error_of(post(ben, "/nosuch/join"))[:2] == (404, "unknown_tournament")


def test_creating_faster_than_the_rate_is_refused(tmp_path: Path) -> None:
    """Three at once, then 6 an hour: a fourth at once is refused even under the cap."""
    with client(tmp_path) as guest:
        anna = person(guest, "Anna")
        base = {"name": "Cup", "game": "mattis", "players": 3, "rounds": 3, "starts": soon(60)}
        first = post(anna, "", base).json()["id"]
        for _ in range(2):
            post(anna, "", base)
        store = app_state(guest).tournaments
        store.set_status(first, "open", "cancelled")  # under the open cap again
        status, code, message = error_of(post(anna, "", base, "fi"))
        assert (status, code) == (429, "rate_limited") and "6" in message


def test_byes_rotate_and_too_few_entrants_cancel(tmp_path: Path) -> None:
    """Seven bots at tables of 3 for 3 rounds: each round two tables and one bye, the
    bye never twice to one entrant, worth 1 point (the mean of a table's 2, 1, 0); a
    tournament that starts with fewer entrants than a table is cancelled."""
    with client(tmp_path) as guest:
        runner = app_state(guest).tournament_runner
        runner.every = 0.02
        anna = person(guest, "Anna")
        body = {"name": "Odd cup", "game": "mueckenstich", "players": 3, "rounds": 3,
                "options": {"rounds": 1}, "starts": soon(600), "cap": 7}  # fmt: skip
        odd = post(anna, "", body).json()["id"]
        assert post(anna, f"/{odd}/bots", {"bot": "random", "count": 7}).status_code == 200
        few = post(anna, "", {**body, "name": "Lonely cup"}).json()["id"]
        assert post(anna, f"/{few}/join").status_code == 200
        assert error_of(post(anna, f"/{few}/start"))[:2] == (409, "too_few_entrants")
        assert post(anna, f"/{odd}/start").status_code == 200
        runner.clock = lambda: datetime.now(UTC).replace(tzinfo=None) + timedelta(hours=1)
        deadline = time.monotonic() + SLACK
        while detail(guest, odd)["status"] != "finished":
            assert time.monotonic() < deadline, "the tournament did not finish"
            time.sleep(0.05)
        found = detail(guest, odd)
        assert detail(guest, few)["status"] == "cancelled"
    everyone = {e["id"] for e in found["entrants"]}
    sat_out = []
    for game in found["games"]:
        seated = [e for t in game["tables"] for e in t["entrants"]]
        assert len(game["tables"]) == 2 and len(seated) == len(set(seated)) == 6
        sat_out += list(everyone - set(seated))
    assert len(sat_out) == len(set(sat_out)) == 3
    played: Counter[int] = Counter()
    for game in found["games"]:
        for table in game["tables"]:
            played.update(dict(zip(table["entrants"], table["points"], strict=True)))
    for line in found["standings"]:
        bye = 1.0 if line["entrant"] in sat_out else 0.0
        assert line["byes"] == (1 if bye else 0)
        assert line["points"] == played[line["entrant"]] + bye


def wait_round(guest: TestClient, tid: str, n: int) -> dict[str, Any]:
    """The tournament once its round ``n`` is seated."""
    deadline = time.monotonic() + SLACK
    while (found := detail(guest, tid))["round"] < n:
        assert time.monotonic() < deadline, f"round {n} was not seated"
        time.sleep(0.02)
    return found


def test_the_first_round_seats_by_rating(tmp_path: Path) -> None:
    """Three Easy bots, three Medium bots, then Anna (rated 34 in the game: mu 40,
    sigma 2) and Ben (new: 0) entered in that order; tables of 3.  Round 1 seats by
    rating, not by entry: Anna with two Medium bots, the third Medium bot with Ben and
    an Easy bot, the two byes to Easy bots (the lowest rated)."""
    with client(tmp_path) as guest:
        app_state(guest).tournament_runner.every = 0.05
        anna, ben = person(guest, "Anna"), person(guest, "Ben")
        body = {"name": "Seeded cup", "game": "mueckenstich", "players": 3, "rounds": 2,
                "options": {"rounds": 1}, "starts": soon(600), "cap": 8}  # fmt: skip
        tid = post(anna, "", body).json()["id"]
        assert post(anna, f"/{tid}/bots", {"bot": "random", "count": 3}).status_code == 200
        assert post(anna, f"/{tid}/bots", {"bot": "heuristic", "count": 3}).status_code == 200
        assert post(anna, f"/{tid}/join").status_code == 200
        assert post(ben, f"/{tid}/join").status_code == 200
        with app_state(guest).ratings.engine.begin() as connection:
            me = connection.execute(text("SELECT id FROM tikki_accounts WHERE name = 'Anna'"))
            connection.execute(
                text("INSERT INTO tikki_ratings (account_id, game, mu, sigma, games) "
                     "VALUES (:id, 'mueckenstich', 40.0, 2.0, 30)"),
                {"id": me.scalar_one()},
            )  # fmt: skip
        assert post(anna, f"/{tid}/start").status_code == 200
        found = wait_round(guest, tid, 1)
        snapshot = app_state(guest).tournaments.load(tid)
    what = {e.id: e.bot or e.name for e in snapshot.entrants}  # a bot's level, or the name
    tables = [sorted(what[e] for e in t["entrants"]) for t in found["games"][0]["tables"]]
    assert sorted(tables) == [["Anna", "heuristic", "heuristic"], ["Ben", "heuristic", "random"]]
    seated = {e for t in found["games"][0]["tables"] for e in t["entrants"]}
    assert [what[e] for e in what if e not in seated] == ["random", "random"]


def test_withdrawing_from_a_running_tournament(tmp_path: Path) -> None:
    """Anna and seven Easy bots, tables of 3, three rounds.  She cannot withdraw before
    the start (leave instead), withdraws during round 1: her seat there is resigned at
    once (a bot plays it to the end, so the table does not wait for her clock) and the
    table counts, rounds 2 and 3 seat the seven others (two tables and one bye each) and
    never her, and her round-1 points stay in the standings, marked withdrawn.
    Withdrawing twice, without an entry, as a guest or after the end is refused in
    words."""
    with client(tmp_path) as guest:
        runner = app_state(guest).tournament_runner
        runner.every = 0.05
        anna, ben = person(guest, "Anna"), person(guest, "Ben")
        body = {"name": "Short cup", "game": "mueckenstich", "players": 3, "rounds": 3,
                "options": {"rounds": 1}, "starts": soon(600), "cap": 8}  # fmt: skip
        tid = post(anna, "", body).json()["id"]
        assert post(anna, f"/{tid}/join").status_code == 200
        assert post(anna, f"/{tid}/bots", {"bot": "random", "count": 7}).status_code == 200
        english = error_of(post(anna, f"/{tid}/withdraw"))
        assert english[:2] == (409, "tournament_not_started") and "leave" in english[2]
        assert error_of(post(anna, f"/{tid}/withdraw", lang="fi"))[2] != english[2]
        assert detail(guest, tid)["status"] == "open"
        assert post(anna, f"/{tid}/start").status_code == 200
        runner.clock = lambda: datetime.now(UTC).replace(tzinfo=None) + timedelta(hours=1)
        wait_round(guest, tid, 1)
        first = detail(anna, tid)
        mine = first["entered"]
        assert mine in [e for t in first["games"][0]["tables"] for e in t["entrants"]]
        seat = wait_seat(anna, tid)
        r = post(anna, f"/{tid}/withdraw")
        assert r.status_code == 200, r.text
        assert r.json()["withdrawn"] is True and r.json()["status"] == "running"
        state = anna.get(f"/api/tables/{seat['table']['id']}/state", headers=auth(seat["token"]))
        resigned = [t for t in state.json()["table"]["takeovers"] if t["why"] == "resigned"]
        assert [(t["seat"], t["to"]) for t in resigned] == [(seat["seat"], None)]
        assert error_of(post(anna, f"/{tid}/withdraw", lang="de"))[:2] == (
            409,
            "already_withdrawn",
        )
        assert error_of(post(ben, f"/{tid}/withdraw"))[:2] == (409, "not_entered")
        refused = guest.post(f"/api/tournaments/{tid}/withdraw", headers=csrf(guest))
        assert error_of(refused)[:2] == (401, "not_signed_in")
        deadline = time.monotonic() + SLACK  # nobody plays her seat's moves but its bot
        while detail(guest, tid)["status"] != "finished":
            assert time.monotonic() < deadline, "the tournament did not finish"
            time.sleep(0.05)
        found = detail(anna, tid)
        assert error_of(post(anna, f"/{tid}/withdraw"))[:2] == (409, "tournament_over")
    others = {e["id"] for e in found["entrants"]} - {mine}
    rounds = {g["round"]: g["tables"] for g in found["games"]}
    assert sorted(rounds) == [1, 2, 3]
    for n in (2, 3):
        seated = [e for t in rounds[n] for e in t["entrants"]]
        assert mine not in seated and len(rounds[n]) == 2
        assert len(others - set(seated)) == 1  # one bye, never hers
    table = next(t for t in rounds[1] if mine in t["entrants"])
    points = table["points"][table["entrants"].index(mine)]
    line = next(s for s in found["standings"] if s["entrant"] == mine)
    assert line["withdrawn"] is True and line["games"] == 1 and line["byes"] == 0
    assert line["points"] == points
    assert [e["withdrawn"] for e in found["entrants"] if e["id"] == mine] == [True]
    assert not any(s["withdrawn"] for s in found["standings"] if s["entrant"] != mine)


def wait_seat(c: TestClient, tid: str) -> dict[str, Any]:
    """The person's seat at their table of tournament ``tid`` once it is made."""
    deadline = time.monotonic() + SLACK
    while (r := c.get(f"/api/tournaments/{tid}/seat")).status_code != 200:
        assert time.monotonic() < deadline, "no seat"
        time.sleep(0.02)
    seat: dict[str, Any] = r.json()
    return seat


def test_a_tournament_seat_keeps_its_address_key(tmp_path: Path) -> None:
    """Anna and Ben take their seats at one tournament table from one client address:
    each seat's address key is kept as at any rated table's seat, the two equal (so
    that neither is rated by that table)."""
    with client(tmp_path) as guest:
        app_state(guest).tournament_runner.every = 0.05
        anna, ben = person(guest, "Anna"), person(guest, "Ben")
        body = {"name": "Twin cup", "game": "mueckenstich", "players": 3, "rounds": 1,
                "starts": soon(600), "cap": 3}  # fmt: skip
        tid = post(anna, "", body).json()["id"]
        for c in (anna, ben):
            assert post(c, f"/{tid}/join").status_code == 200
        assert post(anna, f"/{tid}/bots", {"bot": "random", "count": 1}).status_code == 200
        assert post(anna, f"/{tid}/start").status_code == 200
        wait_round(guest, tid, 1)
        seats = {}
        deadline = time.monotonic() + SLACK
        for c in (anna, ben):
            while (r := c.get(f"/api/tournaments/{tid}/seat")).status_code != 200:
                assert time.monotonic() < deadline, "no seat"
                time.sleep(0.02)
            seats[r.json()["seat"]] = r.json()["table"]["id"]
        (table,) = set(seats.values())
        with app_state(guest).ratings.engine.connect() as connection:
            kept = dict(
                connection.execute(
                    text("SELECT seat, key FROM tikki_rated_addresses WHERE table_id = :t"),
                    {"t": table},
                ).all()
            )
    assert set(kept) == set(seats)
    assert set(kept.values()) == {address_key(table, client_key("testclient"))}
    assert same_address(kept, {s: s + 100 for s in seats}) == set(seats)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The test's database: an SQLite file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'web.sqlite'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


def test_no_round_or_table_seats_a_withdrawn_entrant(db_url: str) -> None:
    """The store adds no Swiss round and no arena table that seats an entrant who
    withdrew after the runner read the tournament (the runner stopped: the test plays
    it), and changes nothing then; without the withdrawn entrant it adds them."""
    with TestClient(create_app(db_url, bot_delay=0)) as guest:
        assert guest.portal is not None
        app = guest.app
        assert isinstance(app, FastAPI)
        guest.portal.call(lambda: tournaments.stop(app))
        anna = person(guest, "Anna")
        body = {"name": "Cup", "game": "mueckenstich", "players": 3, "rounds": 2,
                "starts": soon(600), "cap": 8}  # fmt: skip
        tid = post(anna, "", body).json()["id"]
        assert post(anna, f"/{tid}/join").status_code == 200
        assert post(anna, f"/{tid}/bots", {"bot": "random", "count": 3}).status_code == 200
        store = app_state(guest).tournaments
        assert store.set_status(tid, "open", "running")
        mine, *bots = [e.id for e in store.load(tid).entrants]
        assert post(anna, f"/{tid}/withdraw").status_code == 200
        moment = datetime.now(UTC).replace(tzinfo=None)
        assert not store.add_round(tid, 0, [[mine, *bots[:2]]], [bots[2]], moment)
        assert not store.add_game(tid, 0, [mine, *bots[:2]], moment)
        found = store.load(tid)
        assert found.row.round == 0 and found.games == [] and found.byes == []
        assert store.add_round(tid, 0, [bots], [], moment)
        assert [g.seats for g in store.load(tid).games] == [tuple(bots)]


def test_turn_timers_take_the_tables_forms(tmp_path: Path) -> None:
    """A tournament's ``turn_timer`` takes what a table's and a challenge's take: whole
    seconds (what the web form sends), ``"24h"``, ``"correspondence"`` and no timer
    (null); anything else is a 400 ``bad_timer`` in words, in the asker's language,
    naming the allowed values, and nothing is created."""
    with client(tmp_path) as guest:
        base = {"name": "Cup", "game": "mattis", "players": 3, "rounds": 3, "starts": soon(60)}
        anna, ben = person(guest, "Anna"), person(guest, "Ben")
        made = {}
        for who, timer in ((anna, "24h"), (anna, "correspondence"), (anna, None),
                           (ben, 120), (ben, 172800)):  # fmt: skip
            r = post(who, "", {**base, "turn_timer": timer})
            assert r.status_code == 201, r.text
            made[str(timer)] = r.json()["turn_timer"]
        assert made == {"24h": 86400, "correspondence": 86400, "None": None,
                        "120": 120, "172800": 172800}  # fmt: skip
        messages = set()
        for lang in ("en", "fi", "de"):
            status, code, message = error_of(post(ben, "", {**base, "turn_timer": "5h"}, lang))
            assert (status, code) == (400, "bad_timer") and "'24h'" in message, message
            assert "valid integer" not in message
            messages.add(message)
        assert len(messages) == 3
        assert error_of(post(ben, "", {**base, "turn_timer": 45}))[:2] == (400, "bad_timer")
        assert len(guest.get("/api/tournaments").json()["tournaments"]) == 5


def test_an_arena_refuses_hours_a_move(tmp_path: Path) -> None:
    """An arena lasts minutes: hours a move (a correspondence timer) is refused with a
    400 in words in the asker's language, nothing created; a Swiss tournament takes it."""
    with client(tmp_path) as guest:
        anna = person(guest, "Anna")
        arena = {"name": "Blitz", "game": "mattis", "kind": "arena", "minutes": 30,
                 "starts": soon(60)}  # fmt: skip
        messages = set()
        for timer in ("24h", 43200, "correspondence"):
            for lang in ("en", "fi", "de"):
                r = post(anna, "", {**arena, "turn_timer": timer}, lang)
                status, code, message = error_of(r)
                assert (status, code) == (400, "bad_timer"), message
                messages.add(message)
        assert len(messages) == 3
        assert guest.get("/api/tournaments").json()["tournaments"] == []
        assert post(anna, "", {**arena, "turn_timer": 120}).status_code == 201


def test_the_detail_names_the_games_options(tmp_path: Path) -> None:
    """A tournament's detail returns its game's variant and options as created."""
    with client(tmp_path) as guest:
        anna = person(guest, "Anna")
        body = {"name": "Cup", "game": "mueckenstich", "players": 3, "rounds": 2,
                "starts": soon(60), "options": {"rounds": 1}}  # fmt: skip
        r = post(anna, "", body)
        assert r.status_code == 201, r.text
        shown = detail(guest, r.json()["id"])
        assert shown["options"] == {"rounds": 1}
        assert shown["variant"] is None


def test_tournaments_starting_together_are_listed_by_id(tmp_path: Path) -> None:
    """Tournaments with the same start are listed in a fixed order: the start, then
    the id."""
    with client(tmp_path) as guest:
        starts = soon(120)
        base = {"name": "Cup", "game": "mattis", "players": 3, "rounds": 3, "starts": starts}
        for name in ("Anna", "Ben"):
            who = person(guest, name)
            for _ in range(3):
                assert post(who, "", base).status_code == 201
        later = person(guest, "Cecilia")
        assert post(later, "", {**base, "starts": soon(600)}).status_code == 201
        listed = guest.get("/api/tournaments").json()["tournaments"]
        assert listed[0]["starts"] > listed[1]["starts"]
        same = [t["id"] for t in listed[1:]]
        assert len(same) == 6 and same == sorted(same)


class Crash(Exception):
    """A process dying at this point of making a table (injected by a test)."""


@pytest.mark.parametrize("at", ["create", "made", "set_table"])
def test_a_table_whose_maker_died_is_made_once_and_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, at: str
) -> None:
    """The runner making a tournament table dies (``at``: before the table is stored,
    after it is stored, after the people are linked, before the game is noted ready):
    the game has the table's id noted from the start, and the runner of another process
    that takes the tournament over after the claim went stale makes that table if it
    is not stored, else finishes making it: one table, rated, Anna linked to her seat
    and seated with the noted token, played to its end and counted once."""
    with client(tmp_path) as guest:
        app = guest.app
        assert guest.portal is not None and isinstance(app, FastAPI)
        guest.portal.call(lambda: tournaments.stop(app))  # the test steps the runners
        anna = person(guest, "Anna")
        body = {"name": "Cup", "game": "mueckenstich", "players": 3, "rounds": 1,
                "options": {"rounds": 1}, "starts": soon(600), "cap": 3}  # fmt: skip
        tid = post(anna, "", body).json()["id"]
        assert post(anna, f"/{tid}/join").status_code == 200
        assert post(anna, f"/{tid}/bots", {"bot": "random", "count": 2}).status_code == 200
        state = app_state(guest)
        store, runner = state.tournaments, state.tournament_runner
        assert store.set_status(tid, "open", "running")

        async def crash(*_args: Any, **_kwargs: Any) -> Any:
            raise Crash(at)

        def crash_now(*_args: Any, **_kwargs: Any) -> Any:
            raise Crash(at)

        with monkeypatch.context() as patched:
            if at == "create":
                patched.setattr(state.manager, "create", crash)
            elif at == "made":
                patched.setattr(runner, "made", crash)
            else:
                patched.setattr(store, "set_table", crash_now)
            guest.portal.call(runner.tick)
        (game,) = store.load(tid).games
        made = set(stored_ids(tmp_path))
        assert game.table_id is not None and not game.ready
        assert made == (set() if at == "create" else {game.table_id})
        assert anna.get(f"/api/tournaments/{tid}/seat").status_code == 404
        later = tournaments.Runner(store, state.manager, state.accounts, "b", None, runner.made)
        later.clock = lambda: datetime.now(UTC).replace(tzinfo=None) + timedelta(minutes=1)
        guest.portal.call(later.tick)  # the lease and the claim ran out: b takes over
        assert store.load(tid).row.lease_node == "b"
        seat = anna.get(f"/api/tournaments/{tid}/seat").json()
        assert (seat["table"]["id"], seat["token"]) == (
            game.table_id,
            game.tokens[str(seat["seat"])],
        )

        portal = guest.portal

        def done() -> bool:
            portal.call(later.tick)
            return bool(detail(guest, tid)["status"] == "finished")

        play_people([anna], tid, done, [])
        (scored,) = store.load(tid).games
    assert set(stored_ids(tmp_path)) == {game.table_id}
    outcome, _began, _over = stored_tables(tmp_path)[game.table_id]
    assert scored.points is not None and list(scored.points) == place_points(outcome, 3)
    engine = create_engine(f"sqlite:///{tmp_path / 'web.sqlite'}")
    with engine.connect() as connection:
        rated = connection.execute(text("SELECT rated FROM tikki_table_extras")).scalars().all()
        linked = connection.execute(text("SELECT table_id, seat FROM tikki_account_seats")).all()
    engine.dispose()
    assert rated == [True] and linked == [(game.table_id, seat["seat"])]


def stored_ids(tmp_path: Path) -> list[str]:
    """The ids of every table in the test's database."""
    engine = create_engine(f"sqlite:///{tmp_path / 'web.sqlite'}")
    with engine.connect() as connection:
        ids = connection.execute(text("SELECT id FROM tikki_tables")).scalars().all()
    engine.dispose()
    return [str(i) for i in ids]


def test_a_table_the_site_cannot_seat_yet_waits_in_one_log_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """With the site's bot tables at its cap (here 1), a round's second bot-only table
    is not made while the first plays: the runner says so in a warning line (the cap's
    own words, no traceback) and makes it on a later try."""
    from tikki.serve_settings import Policy

    with client(tmp_path, bot_delay=0.2, policy=Policy(max_bot_tables=1)) as guest:
        runner = app_state(guest).tournament_runner
        runner.every = 0.02
        anna = person(guest, "Anna")
        body = {"name": "Full cup", "game": "mueckenstich", "players": 3, "rounds": 1,
                "options": {"rounds": 1}, "starts": soon(600), "cap": 6}  # fmt: skip
        tid = post(anna, "", body).json()["id"]
        assert post(anna, f"/{tid}/bots", {"bot": "random", "count": 6}).status_code == 200
        with caplog.at_level("WARNING", logger="tikki"):
            assert post(anna, f"/{tid}/start").status_code == 200
            wait_ticks(guest, 4)
        tables = [t["table"] for g in detail(guest, tid)["games"] for t in g["tables"]]
    waits = [r for r in caplog.records if "waits" in r.getMessage()]
    assert waits and all(r.exc_info is None for r in waits)
    assert "only bots play" in waits[0].getMessage()
    assert not [r for r in caplog.records if r.exc_info is not None]
    assert len(tables) == 2 and tables.count(None) == 1  # one made, one waiting


def test_an_outage_while_running_the_tournaments_is_one_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The database away (a restart) while the runner steps the tournaments: it says so
    in one line, with no traceback (an outage is the operator's news, not a bug; the
    fault benchmark counts tracebacks), and tries again at its next step."""
    import asyncio

    from sqlalchemy.exc import OperationalError

    from tikki.server.tournaments.runner import Runner

    runner = Runner(None, None, None, "a")  # type: ignore[arg-type]  # tick() replaced
    runner.every = 0.01
    steps: list[int] = []

    async def away() -> None:
        steps.append(1)
        raise OperationalError("SELECT", {}, Exception("the database system is shutting down"))

    runner.tick = away  # type: ignore[method-assign]

    async def main() -> None:
        task = asyncio.create_task(runner.run())
        while len(steps) < 2:
            await asyncio.sleep(0.01)
        task.cancel()

    with caplog.at_level("ERROR", logger="tikki.server"):
        asyncio.run(main())
    told = [r for r in caplog.records if "running the tournaments" in r.getMessage()]
    assert told and all(r.exc_info is None for r in told)
    assert "shutting down" in told[0].getMessage()
