"""Tournaments on the server: a Swiss tournament of people and bots played to the end
through the site's own paths (the people are accounts that enter over HTTP, fetch their
seat and play their moves over HTTP; the bots are the tables' bots), its standings
checked against the tables' own outcomes; a timed arena on an injected clock with
nothing lost; and the API's refusals, each a 4xx in words.  SQLite here."""

from __future__ import annotations

import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from itertools import combinations
from pathlib import Path
from typing import Any

from tests._server import TestClient, app_state, auth, client, error_of, pick
from tests.test_server_friends import csrf
from tests.test_server_friends import person as signed_up

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


def play_people(people: list[TestClient], tid: str, done: Any, hints: list[Any]) -> int:
    """Play every person's moves at their tournament tables until ``done()``; the moves
    played (the first person to move asks for a hint first: ``hints``)."""
    moves = 0
    deadline = time.monotonic() + SLACK
    while not done():
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
