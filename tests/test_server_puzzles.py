"""Puzzles on the site: the API (list, one, the daily puzzle, next, an attempt), the
hidden information (before the attempt the seat's view and nothing more), the puzzle
ratings (an account's first attempt is a rated match with the puzzle, a retry changes
nothing, guests solve unrated) and the refusals in words."""

from __future__ import annotations

import functools
import gzip
import json
import random
import time
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from tests._server import TestClient, app_state, client, error_of
from tikki import i18n, puzzles
from tikki.core import load
from tikki.puzzles import puzzle_id
from tikki.puzzles.words import theme_title
from tikki.server.accounts import CSRF_COOKIE
from tikki.server.puzzles import catalogue as cat
from tikki.server.puzzles import routes
from tikki.server.puzzles.rows import PuzzleAttemptRow
from tikki.testing.checks import shown

GAMES_SHIPPED = ("mattis", "mueckenstich", "myllymatti")
"""The games whose puzzle sets ship with tikki."""

PASSWORD = "correct horse battery"
SECRET_KEYS = {"answer", "explanation", "themes", "values", "worlds", "rating", "seed",
               "nodes", "move_number", "points", "bots"}  # fmt: skip
"""What a stored puzzle holds beyond the view: never a key of a pre-attempt answer."""
SAMPLES = 8
"""Worlds of each puzzle's view drawn to find the cards hidden from its seat."""


def csrf(c: TestClient) -> dict[str, str]:
    if CSRF_COOKIE not in c.cookies:
        assert c.get("/api/account").status_code == 200
    return {"X-CSRF-Token": c.cookies[CSRF_COOKIE]}


def person(c: TestClient, name: str) -> TestClient:
    other = TestClient(c.app)
    r = other.post(
        "/api/account/register", json={"name": name, "password": PASSWORD}, headers=csrf(other)
    )
    assert r.status_code == 201, r.text
    return other


def attempt(c: TestClient, pid: str, moves: list[str], lang: str = "en") -> Any:
    headers = {**csrf(c), "Accept-Language": lang}
    return c.post(f"/api/puzzles/{pid}/attempt", json={"moves": moves}, headers=headers)


def keys(value: Any) -> Iterator[str]:
    """Every key of a JSON value, at any depth."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from keys(v)
    elif isinstance(value, list):
        for v in value:
            yield from keys(v)


def wrong_move(puzzle: cat.Puzzle) -> str:
    return next(str(m) for m in puzzle.view["legal_moves"] if m != puzzle.answer[0])


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[TestClient]:
    with client(tmp_path) as c:
        yield c


def test_the_daily_puzzle_comes_from_the_utc_date_the_games_in_turn() -> None:
    found = cat.catalogue()
    day = date(2026, 12, 6)
    first = cat.daily(found, day)
    assert first is not None and first == cat.daily(found, day)
    assert len(found.games()) == 3  # every game ships a set
    games = [cat.daily(found, day + timedelta(days=k)) for k in range(4)]
    assert [p.game for p in games if p] == [
        found.games()[(day.toordinal() + k) % len(found.games())] for k in range(4)
    ]
    assert (
        len({p.id for p in (cat.daily(found, day + timedelta(days=k)) for k in range(60)) if p})
        > 10
    )


def test_daily_and_one_puzzle_send_the_seats_view_only(app_client: TestClient) -> None:
    r = app_client.get("/api/puzzles/daily")
    assert r.status_code == 200, r.text
    daily = r.json()
    expected = cat.daily(cat.catalogue(), date.fromisoformat(daily["date"]))
    assert expected is not None and daily["id"] == expected.id
    for puzzle in cat.catalogue().by_id.values():
        sent = app_client.get(f"/api/puzzles/{puzzle.id}").json()
        assert set(sent) == {"id", "game", "players", "kind", "seat", "moves", "view", "rated"}
        assert sent["view"] == dict(puzzle.view)  # the stored view: the seat's, as it was
        assert not SECRET_KEYS & set(keys({k: v for k, v in sent.items() if k != "view"}))
        for text in puzzle.stored["explanation"].values():
            assert text not in json.dumps(sent, ensure_ascii=False)
        game = load(puzzle.game, puzzle.players, rules=puzzle.rules, **puzzle.options)
        # the id is a digest of the game and the view alone: it says nothing more
        assert puzzle.id == puzzle_id(game, puzzle.view)
        sample = game.sampler(puzzle.view)  # worlds of the view, as any game deals them
        for k in range(SAMPLES):
            world = sample(random.Random(k))
            assert world.view(puzzle.seat) == puzzle.view
            assert not shown(sent, world.reveal()["hidden"][str(puzzle.seat)])


def hidden_card_set(tmp_path: Path) -> tuple[cat.Catalogue, list[str]]:
    """A set of one made-up puzzle at a Mattis position with cards hidden from the seat,
    whose stored explanation and themes name them (as a hidden-card puzzle's would)."""
    game = load("mattis", 3)
    state = game.new_state(seed=5)
    for _ in range(3):
        state.play(state.legal_moves()[0])
    seat = state.current_player
    assert seat is not None
    view = state.view(seat)
    hidden = list(state.reveal()["hidden"][str(seat)])
    assert hidden
    answer = str(view["legal_moves"][-1])
    text = f"{answer} escapes: {' '.join(hidden)} lie with the others."
    stored = {"id": puzzle_id(game, view), "seat": seat, "view": view, "answer": [answer],
              "explanation": {"en": text, "fi": text, "de": text}, "themes": ["hidden-cards"],
              "rating": {"mu": 24.0, "sigma": 8.333}, "values": {}, "worlds": 9,
              "future_field": {"cards": hidden}}  # fmt: skip
    document = {"format": "tikki-puzzles", "version": 1, "game": "mattis", "players": 3,
                "rules": game.rules, "options": game.options, "puzzles": [stored]}  # fmt: skip
    path = tmp_path / "mattis.json.gz"
    path.write_bytes(gzip.compress(json.dumps(document).encode()))
    return cat.load([path]), hidden


def test_hidden_cards_only_after_the_attempt(
    app_client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    found, hidden = hidden_card_set(tmp_path)
    monkeypatch.setattr(routes, "catalogue", lambda: found)
    (puzzle,) = found.by_id.values()
    for path in ("/api/puzzles/daily", f"/api/puzzles/{puzzle.id}", "/api/puzzles/next"):
        sent = app_client.get(path).json()
        assert sent["id"] == puzzle.id and not shown(sent, hidden), path
        assert sent["view"] == dict(puzzle.view) and "future_field" not in json.dumps(sent)
    after = attempt(app_client, puzzle.id, [puzzle.answer[0]]).json()
    assert after["right"] and set(hidden) <= shown(after, hidden)  # the test can fail


def test_attempts_right_wrong_and_explained_in_each_language(app_client: TestClient) -> None:
    puzzle = next(iter(cat.catalogue().by_id.values()))
    for lang in ("en", "fi", "de"):
        right = attempt(app_client, puzzle.id, list(puzzle.answer), lang).json()
        assert right["right"] and right["answer"] == list(puzzle.answer)
        assert right["explanation"] == puzzle.stored["explanation"][lang]
        assert not right["rated"] and right["player"] is None  # a guest: unrated
        wrong = attempt(app_client, puzzle.id, [wrong_move(puzzle)], lang).json()
        assert not wrong["right"] and wrong["explanation"] == right["explanation"]
    themed = next(p for p in cat.catalogue().by_id.values() if "take-back" in p.themes)
    fi = attempt(app_client, themed.id, list(themed.answer), "fi").json()
    with i18n.use("fi"):
        title = theme_title("take-back")
    assert title != "take the card back" and {"id": "take-back", "title": title} in fi["themes"]


def test_first_attempt_is_rated_a_retry_is_not(app_client: TestClient) -> None:
    anna, ben = person(app_client, "Anna"), person(app_client, "Ben")
    puzzle = next(iter(cat.catalogue().by_id.values()))
    assert anna.get(f"/api/puzzles/{puzzle.id}").json()["rated"]
    won = attempt(anna, puzzle.id, list(puzzle.answer)).json()
    assert won["rated"] and won["player"]["after"]["mu"] > won["player"]["before"]["mu"]
    assert won["puzzle_rating"]["mu"] < puzzle.mu and won["puzzle_rating"]["attempts"] == 1
    assert not anna.get(f"/api/puzzles/{puzzle.id}").json()["rated"]
    again = attempt(anna, puzzle.id, [wrong_move(puzzle)]).json()
    assert not again["rated"] and not again["right"]
    assert again["player"]["after"] == won["player"]["after"]
    lost = attempt(ben, puzzle.id, [wrong_move(puzzle)]).json()
    assert lost["rated"] and lost["player"]["after"]["mu"] < lost["player"]["before"]["mu"]
    assert lost["puzzle_rating"]["mu"] > won["puzzle_rating"]["mu"]
    assert anna.get("/api/puzzles/me").json()["rating"] == won["player"]["after"]
    profile = app_client.get("/api/players/Anna").json()
    assert profile["puzzle_rating"] == won["player"]["after"]
    assert app_client.get("/api/players/Ben").json()["puzzle_rating"]["attempts"] == 1
    assert anna.get("/api/puzzles/next").json()["id"] != puzzle.id  # not attempted yet


def test_refusals_in_words_and_nothing_changed(app_client: TestClient) -> None:
    anna = person(app_client, "Anna")
    puzzle = next(iter(cat.catalogue().by_id.values()))
    status, code, message = error_of(attempt(anna, puzzle.id, ["XX"], "de"))
    assert (status, code) == (400, "bad_attempt") and "XX" in message
    status, code, _m = error_of(attempt(anna, puzzle.id, [puzzle.answer[0]] * 2))
    assert (status, code) == (400, "bad_attempt")
    assert error_of(attempt(anna, "nope", ["5D"]))[:2] == (404, "unknown_puzzle")
    r = anna.post(f"/api/puzzles/{puzzle.id}/attempt", json={"moves": list(puzzle.answer)})
    assert error_of(r)[:2] == (403, "csrf")
    assert anna.get("/api/puzzles/me").json()["rating"] is None  # nothing was rated
    assert anna.get(f"/api/puzzles/{puzzle.id}").json()["rated"]
    assert error_of(app_client.get("/api/puzzles?game=chess"))[:2] == (404, "unknown_game")
    assert error_of(app_client.get("/api/puzzles?theme=zz"))[:2] == (404, "unknown_theme")
    assert error_of(app_client.get("/api/puzzles/me"))[:2] == (401, "not_signed_in")


def test_attempts_are_rate_limited(app_client: TestClient) -> None:
    puzzle = next(iter(cat.catalogue().by_id.values()))
    answers = [attempt(app_client, puzzle.id, list(puzzle.answer)) for _ in range(12)]
    status, code, message = error_of(answers[-1])
    assert (status, code) == (429, "rate_limited") and "20" in message
    assert answers[-1].headers.get("Retry-After")


def test_the_attempt_rate_is_the_servers_puzzle_rate(tmp_path: Path) -> None:
    """``--puzzle-rate`` sets the attempts a minute (a host's knob, and the browser tests'
    whose every page is one address): past the burst of 10 the refusal names the rate."""
    from tikki.serve_settings import Policy

    puzzle = next(iter(cat.catalogue().by_id.values()))
    with client(tmp_path, policy=Policy(puzzles_per_minute=6000)) as fast:
        answers = [attempt(fast, puzzle.id, list(puzzle.answer)) for _ in range(10)]  # the burst
        assert all(a.status_code == 200 for a in answers), answers[-1].text
        time.sleep(0.1)  # 10 attempts' worth at 6000 a minute (0.03 at the default 20)
        again = attempt(fast, puzzle.id, list(puzzle.answer))
        assert again.status_code == 200, again.text
    with client(tmp_path, "slow.sqlite", policy=Policy(puzzles_per_minute=7)) as slow:
        answers = [attempt(slow, puzzle.id, list(puzzle.answer)) for _ in range(12)]
        status, code, message = error_of(answers[-1])
        assert (status, code) == (429, "rate_limited") and "7 " in message, message


def test_listing_by_game_and_theme(app_client: TestClient) -> None:
    shipped = {g: len(puzzles.read(puzzles.shipped(g))["puzzles"]) for g in GAMES_SHIPPED}
    every = app_client.get("/api/puzzles").json()
    assert every["total"] == sum(shipped.values()) and every["games"] == sorted(shipped)
    mattis = app_client.get("/api/puzzles?game=mattis&limit=5").json()
    assert mattis["total"] == shipped["mattis"]
    assert [p["game"] for p in mattis["puzzles"]] == ["mattis"] * 5
    themed = app_client.get("/api/puzzles?theme=the-lead").json()
    assert themed["total"] == sum("the-lead" in p.themes for p in cat.catalogue().by_id.values())
    titles = app_client.get("/api/puzzles", headers={"Accept-Language": "de"}).json()["themes"]
    assert all(t["title"] for t in titles) and {"id", "title"} == set(titles[0])


def race(url: str) -> None:
    """Three accounts each send their first attempt at one puzzle from four threads at
    once: each account is rated once, the puzzle once per account, nothing lost."""
    from concurrent.futures import ThreadPoolExecutor

    from sqlalchemy import select

    from tests._server import app_state
    from tikki.server import create_app
    from tikki.server.db import AccountRow
    from tikki.server.puzzles import PuzzleStore

    with TestClient(create_app(url, bot_delay=0)) as c:
        for name in ("Anna", "Ben", "Cid"):
            person(c, name)
        engine = app_state(c).manager.store.engine
        store = PuzzleStore(engine)
        with engine.connect() as connection:
            ids = list(connection.execute(select(AccountRow.id)).scalars())
        puzzle = next(iter(cat.catalogue().by_id.values()))
        with ThreadPoolExecutor(12) as pool:
            done = list(
                pool.map(lambda a: store.attempt(a, puzzle, list(puzzle.answer), True), ids * 4)
            )
        assert sum(r.first for r in done) == 3
        assert store.puzzle_rating(puzzle).attempts == 3
        for account in ids:
            rating = store.player(account)
            assert rating is not None and rating.attempts == 1


def test_first_attempts_at_once_are_each_rated_once(tmp_path: Path) -> None:
    race(f"sqlite:///{tmp_path / 'web.sqlite'}")


def test_first_attempts_at_once_on_postgresql(postgres_url: str) -> None:
    race(postgres_url)


def test_next_for_an_account_is_unattempted_and_nearest_its_rating(
    app_client: TestClient,
) -> None:
    anna = person(app_client, "Anna")
    pool = cat.catalogue().select("mattis")
    first = min(pool, key=lambda p: abs(p.mu - 25.0))
    assert anna.get("/api/puzzles/next?game=mattis").json()["id"] == first.id
    assert attempt(anna, first.id, [wrong_move(first)]).json()["rated"]
    mu = anna.get("/api/puzzles/me").json()["rating"]["mu"]
    rest = [p for p in pool if p.id != first.id]
    expected = min(rest, key=lambda p: abs(p.mu - mu))
    assert anna.get("/api/puzzles/next?game=mattis").json()["id"] == expected.id
    guest = app_client.get(f"/api/puzzles/next?game=mattis&after={pool[0].id}").json()
    assert guest["id"] == pool[1].id  # a guest: the next in order


@functools.cache
def line_set_bytes() -> bytes:
    """A Myllymatti set of two puzzles (seed 4): the second takes three moves."""
    built = puzzles.build("myllymatti", 2, seed=4)
    return puzzles.dumps(built.document)


def line_puzzle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> cat.Puzzle:
    path = tmp_path / "myllymatti.json"
    path.write_bytes(line_set_bytes())
    found = cat.load([path])
    monkeypatch.setattr(routes, "catalogue", lambda: found)
    (three,) = [p for p in found.by_id.values() if len(p.answer) == 3]
    return three


def test_a_puzzle_of_several_moves_goes_a_step_at_a_time(
    app_client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    puzzle = line_puzzle(tmp_path, monkeypatch)
    steps = puzzle.stored["steps"]
    anna = person(app_client, "Anna")
    sent = anna.get(f"/api/puzzles/{puzzle.id}").json()
    assert sent["moves"] == 3 and sent["view"] == dict(puzzle.view) and sent["rated"]
    later = json.dumps([s["view"]["hand"] for s in steps])
    assert "steps" not in sent and later not in json.dumps(sent)  # only the first position
    moves = list(puzzle.answer)
    for k in (1, 2):
        step = attempt(anna, puzzle.id, moves[:k], "fi").json()
        assert set(step) == {"id", "right", "final", "step", "explanation", "replies", "view"}
        assert step["right"] and not step["final"] and step["step"] == k
        assert step["view"] == steps[k - 1]["view"] and step["replies"] == steps[k - 1]["replies"]
        text = puzzle.stored["explanation"] if k == 1 else steps[0]["explanation"]
        assert step["explanation"] == text["fi"]
        assert anna.get("/api/puzzles/me").json()["rating"] is None  # not rated yet
    done = attempt(anna, puzzle.id, moves).json()
    assert done["right"] and done["final"] and done["rated"] and done["answer"] == moves
    assert done["player"]["after"]["mu"] > done["player"]["before"]["mu"]
    assert [s["answer"] for s in done["steps"]] == moves
    assert [s["replies"] for s in done["steps"]] == [[]] + [s["replies"] for s in steps]
    assert done["explanation"] == steps[-1]["explanation"]["en"]
    assert anna.get("/api/puzzles/me").json()["rating"]["attempts"] == 1  # counted once
    assert not anna.get(f"/api/puzzles/{puzzle.id}").json()["rated"]


def test_a_wrong_move_at_a_later_step_fails_the_attempt(
    app_client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    puzzle = line_puzzle(tmp_path, monkeypatch)
    step = puzzle.stored["steps"][0]
    wrong = next(m for m in step["view"]["legal_moves"] if m != puzzle.answer[1])
    ben = person(app_client, "Ben")
    lost = attempt(ben, puzzle.id, [puzzle.answer[0], wrong], "de").json()
    assert lost["final"] and not lost["right"] and lost["rated"]
    assert lost["player"]["after"]["mu"] < lost["player"]["before"]["mu"]
    assert lost["explanation"] == step["explanation"]["de"]  # the step that was missed
    assert lost["answer"] == list(puzzle.answer)
    again = attempt(ben, puzzle.id, list(puzzle.answer)).json()
    assert again["right"] and not again["rated"]  # the first attempt was the rated one


def test_a_step_attempt_refused_in_words_and_nothing_rated(
    app_client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    puzzle = line_puzzle(tmp_path, monkeypatch)
    anna = person(app_client, "Anna")
    a, b, c = puzzle.answer
    wrong = next(m for m in puzzle.view["legal_moves"] if m != a)
    for moves in (["XX", b], [a, "XX"], [a, b, c, c]):
        status, code, message = error_of(attempt(anna, puzzle.id, moves, "fi"))
        assert (status, code) == (400, "bad_attempt") and message, moves
    with i18n.use("fi"):
        assert error_of(attempt(anna, puzzle.id, [a, b, c, c], "fi"))[2] == i18n._(
            "this puzzle takes {n} moves, not {k}", n=3, k=4
        )
    assert wrong != a
    assert anna.get("/api/puzzles/me").json()["rating"] is None
    assert anna.get(f"/api/puzzles/{puzzle.id}").json()["rated"]


def test_a_wrong_move_with_more_after_it_ends_the_attempt_rated(
    app_client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wrong move ends the attempt wherever it stands, the moves after it ignored: the
    attempt is rated then.  (A wrong first move followed by a second one was refused
    unrated, and a right one followed by a move illegal at the next step was refused
    with another message, also unrated: an account learnt each step's answer by the
    message, never rated, then solved the puzzle rated.)"""
    puzzle = line_puzzle(tmp_path, monkeypatch)
    a, b, _c = puzzle.answer
    wrong = next(m for m in puzzle.view["legal_moves"] if m != a)
    anna = person(app_client, "Anna")
    lost = attempt(anna, puzzle.id, [wrong, "XX"], "de").json()
    assert lost["final"] and not lost["right"] and lost["rated"], lost
    assert lost["explanation"] == puzzle.stored["explanation"]["de"]  # missed at step 0
    assert anna.get("/api/puzzles/me").json()["rating"]["attempts"] == 1
    with Session(app_state(app_client).manager.store.engine) as session:
        stored = session.scalars(select(PuzzleAttemptRow.moves)).all()
    assert stored == [[wrong]]  # the moves read, not the one after
    ben = person(app_client, "Ben")
    assert attempt(ben, puzzle.id, [wrong, b]).json()["rated"]
    assert not attempt(ben, puzzle.id, list(puzzle.answer)).json()["rated"]


def hidden_line_set(tmp_path: Path) -> tuple[cat.Catalogue, list[str], list[str]]:
    """A made-up Mattis puzzle of two steps at an early position (cards hidden from the
    seat): the second step's explanation and an unknown field name cards hidden from the
    seat at each step; the first step's explanation names none."""
    game = load("mattis", 3)
    state = game.new_state(seed=5)
    for _ in range(3):
        state.play(state.legal_moves()[0])
    seat = state.current_player
    assert seat is not None
    first = state.view(seat)
    hidden = list(state.reveal()["hidden"][str(seat)])
    a0 = str(first["legal_moves"][-1])
    state.play(a0)
    replies = []
    while state.current_player != seat:
        move = state.legal_moves()[0]
        replies.append([state.current_player, move])
        state.play(move)
    second = state.view(seat)
    later = list(state.reveal()["hidden"][str(seat)])
    assert replies and later
    a1 = str(second["legal_moves"][-1])
    text = f"{a1} escapes: {' '.join(later)} lie with the others."
    step = {"view": second, "replies": replies, "move_number": 9, "worlds": 9, "values": {},
            "themes": [], "explanation": {"en": text, "fi": text, "de": text},
            "future_field": {"cards": later}}  # fmt: skip
    plain = {"en": f"{a0} escapes.", "fi": f"{a0} escapes.", "de": f"{a0} escapes."}
    stored = {"id": puzzle_id(game, first), "seat": seat, "view": first, "answer": [a0, a1],
              "explanation": plain, "themes": ["several-moves"], "worlds": 9, "values": {},
              "rating": {"mu": 27.0, "sigma": 8.333}, "steps": [step]}  # fmt: skip
    document = {"format": "tikki-puzzles", "version": 1, "game": "mattis", "players": 3,
                "rules": game.rules, "options": game.options, "puzzles": [stored]}  # fmt: skip
    path = tmp_path / "mattis.json.gz"
    path.write_bytes(gzip.compress(json.dumps(document).encode()))
    return cat.load([path]), hidden, later


def test_no_step_shows_what_its_seat_cannot_see(
    app_client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    found, hidden, later = hidden_line_set(tmp_path)
    monkeypatch.setattr(routes, "catalogue", lambda: found)
    (puzzle,) = found.by_id.values()
    sent = app_client.get(f"/api/puzzles/{puzzle.id}").json()
    assert not shown(sent, hidden) and "future_field" not in json.dumps(sent)
    step = attempt(app_client, puzzle.id, [puzzle.answer[0]]).json()
    assert step["final"] is False and step["view"] == puzzle.stored["steps"][0]["view"]
    assert not shown(step, later) and "future_field" not in json.dumps(step)
    done = attempt(app_client, puzzle.id, list(puzzle.answer)).json()
    assert done["right"] and set(later) <= shown(done, later)  # the test can fail
