"""A tournament as its page reads it in the reader's language: the bots' names carry
their level in that language (as at a table), and the page's long turn timers (hours a
move) are taken.  SQLite here."""

from __future__ import annotations

import time
from pathlib import Path

from tests._server import app_state, client
from tests.test_server_tournaments import SLACK, person, post, soon


def test_bots_in_the_standings_in_the_readers_language(tmp_path: Path) -> None:
    with client(tmp_path) as guest:
        anna = person(guest, "Anna")
        base = {"name": "Cup", "game": "mattis", "players": 3, "rounds": 2, "starts": soon(600)}
        tid = post(anna, "", base).json()["id"]
        assert post(anna, f"/{tid}/bots", {"bot": "heuristic", "count": 2}).status_code == 200
        for lang, level in (("en", "(Medium)"), ("fi", "(Keskitaso)"), ("de", "(Mittel)")):
            shown = guest.get(f"/api/tournaments/{tid}", headers={"Accept-Language": lang}).json()
            names = [line["name"] for line in shown["standings"]]
            assert len(names) == 2 and all(n.endswith(level) for n in names), (lang, names)
            assert [e["name"] for e in shown["entrants"]] == names


def test_a_tournament_of_hours_a_move(tmp_path: Path) -> None:
    """The create form's hours a move are the seconds of the correspondence allowances:
    the tournament's tables are correspondence tables."""
    with client(tmp_path) as guest:
        anna = person(guest, "Anna")
        base = {"name": "Slow", "game": "mattis", "players": 3, "rounds": 2, "starts": soon(600)}
        made = post(anna, "", {**base, "turn_timer": 86400})
        assert made.status_code == 201, made.text
        assert made.json()["turn_timer"] == 86400
        tid = made.json()["id"]
        app_state(guest).tournament_runner.every = 0.05
        assert post(anna, f"/{tid}/join").status_code == 200
        assert post(anna, f"/{tid}/bots", {"bot": "random", "count": 2}).status_code == 200
        assert post(anna, f"/{tid}/start").status_code == 200
        deadline = time.monotonic() + SLACK
        while not (seat := anna.get(f"/api/tournaments/{tid}/seat")).is_success:
            assert time.monotonic() < deadline, seat.text
            time.sleep(0.05)
        table = seat.json()["table"]
        assert (table["turn_timer"], table["correspondence"]) == (86400, True)
