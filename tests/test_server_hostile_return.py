"""A hostile but signed-in stranger against the features that bring people back (issue
55): friends and challenges, puzzles, notices, tournaments.  Each test names what it
guards: bad input gets a 4xx in words and changes nothing (never a 500: a NUL that
PostgreSQL refuses, a number or a date out of range), nobody acts for another account,
a double action is answered once, a block keeps two accounts apart on every path, and
nothing before a puzzle's attempt tells its answer.

SQLite, except the tests of what only PostgreSQL refuses (``TIKKI_TEST_POSTGRES``); and
a derandomized schemathesis run over these routes signed in (``test_server_schema.py``
sends no cookie, so it meets their 401s and 403s only)."""

from __future__ import annotations

import atexit
import functools
import itertools
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from sqlalchemy import update

from tests import test_web_e2e as e2e
from tests._server import TestClient, app_state, client, error_of
from tests.test_server_correspondence import Days, on_loop
from tests.test_server_friends import PASSWORD, csrf, person
from tikki.server import create_app
from tikki.server.friends import routes as friend_routes
from tikki.server.friends.rows import ChallengeRow
from tikki.server.friends.store import CHALLENGE_LIFE
from tikki.server.notices import api as notices_api
from tikki.server.notices.mail import SmtpSettings
from tikki.server.puzzles.catalogue import catalogue
from tikki.server.quota import Policy, RateLimiter
from tikki.server.tournaments import routes as tournament_routes


def post(c: TestClient, path: str, body: Any = None, lang: str = "en") -> Any:
    """POST with the CSRF header of ``c``'s cookie."""
    headers = {**csrf(c), "Accept-Language": lang}
    return c.post(path, json={} if body is None else body, headers=headers)


def cup(c: TestClient, lang: str = "en", **body: Any) -> Any:
    """Create a Swiss tournament of Mattis (three seats, one round)."""
    base = {"name": "Cup", "game": "mattis", "rounds": 1}
    return post(c, "/api/tournaments", {**base, **body}, lang)


@contextmanager
def postgres_app(url: str) -> Iterator[TestClient]:
    """A guest's client of an app on PostgreSQL."""
    with TestClient(create_app(url, bot_delay=0)) as guest:
        yield guest


# ---------------------------------------------------------------- what PostgreSQL refuses


def nul_refused(answer: Any) -> bool:
    """Whether ``answer`` is the door's refusal of a NUL (``422 bad_request``, naming it)."""
    status, code, message = error_of(answer)
    return (status, code) == (422, "bad_request") and "NUL" in message


def test_a_nul_anywhere_in_a_request_is_refused_at_the_door_on_postgresql(
    postgres_url: str,
) -> None:
    """A NUL reached the database in a follow's, a challenge's or a login's name, a
    challenge's id, a tournament's or a table's id, a tournament's name, an e-mail
    address: PostgreSQL refused the query and the answer was a 500.  Every route now
    answers one clear ``422 bad_request`` before it runs, and nothing is stored."""
    with postgres_app(postgres_url) as guest:
        anna = person(guest.app, "Anna")
        person(guest.app, "Ben")
        for path in ("/api/friends/follow", "/api/friends/block", "/api/friends/unblock"):
            assert nul_refused(post(anna, path, {"name": "B\x00en"})), path
        body = {"name": "B\x00en", "game": "myllymatti"}
        assert nul_refused(post(anna, "/api/friends/challenges", body))
        for action in ("accept", "decline", "cancel", "seat"):
            assert nul_refused(post(anna, f"/api/friends/challenges/%00/{action}")), action
        for action in ("join", "leave", "withdraw", "start"):
            assert nul_refused(post(anna, f"/api/tournaments/%00/{action}")), action
        for path in (
            "/api/tournaments/%00",
            "/api/tournaments/%00/seat",
            "/api/tables/%00",
            "/api/tables/%00/state",
            "/api/tables/%00/chat",
            "/api/tables?status=%00",
        ):
            assert nul_refused(anna.get(path)), path  # fmt: skip
        assert nul_refused(anna.post("/api/tables/%00/seats/0", json={"name": "Anna"}))
        login = {"name": "An\x00na", "password": PASSWORD}
        assert nul_refused(post(guest, "/api/account/login", login))
        assert nul_refused(cup(anna, name="Cup\x00"))
        assert anna.get("/api/tournaments").json()["tournaments"] == []
        answer = post(anna, "/api/notices/email", {"address": "an\x00na@example.org"})
        assert nul_refused(answer)
        assert anna.get("/api/notices/email").json()["address"] is None
        answer = post(anna, "/api/notices/read", {"ids": [2**31]})
        assert answer.status_code == 422 and "2147483647" in answer.json()["detail"]["message"]


def test_an_escaped_backslash_before_u0000_is_text_not_a_nul(tmp_path: Path) -> None:
    """The door reads JSON's escapes: ``\\\\u0000`` is a backslash and "u0000", which
    the route judges as it would any text (here: no such player)."""
    with client(tmp_path) as guest:
        anna = person(guest.app, "Anna")
        answer = anna.post(
            "/api/friends/follow",
            content=b'{"name": "B\\\\u0000en"}',
            headers={**csrf(anna), "content-type": "application/json"},
        )
        assert error_of(answer)[:2] == (404, "unknown_player")
        raw = anna.post(
            "/api/friends/follow",
            content=b'{"name": "B\\u0000en"}',
            headers={**csrf(anna), "content-type": "application/json"},
        )
        assert nul_refused(raw)


# ---------------------------------------------------------------- notices


def test_marking_a_notice_id_out_of_range_read_is_a_422(tmp_path: Path) -> None:
    """``ids`` beyond a 64-bit integer reached SQLite (OverflowError: a 500)."""
    with client(tmp_path) as guest:
        anna = person(guest.app, "Anna")
        for ids in ([2**63], [2**70], [0], [-1]):
            answer = post(anna, "/api/notices/read", {"ids": ids})
            status, code, message = error_of(answer)
            assert (status, code) == (422, "bad_request") and "ids" in message, ids
        assert post(anna, "/api/notices/read", {"ids": [1, 2**31 - 1]}).status_code == 200


def test_an_address_of_control_characters_or_a_list_is_refused(tmp_path: Path) -> None:
    """An e-mail address is one address: no control or format character (an escape, a
    right-to-left override), no list a mail header would read as a second recipient;
    the refusal keeps the address given before."""
    with client(tmp_path) as guest:
        anna = person(guest.app, "Anna")
        assert post(anna, "/api/notices/email", {"address": "anna@example.org"}).status_code == 200
        for bad in (
            "an\x1bna@example.org",
            "an\u202ena@example.org",
            "x,ben@example.org",
            "anna@example.org;x",
            '"a b"@example.org',
            "<anna@example.org>",
        ):
            status, code, message = error_of(post(anna, "/api/notices/email", {"address": bad}))
            assert (status, code) == (400, "bad_email") and "e-mail" in message, bad
        assert anna.get("/api/notices/email").json()["address"] == "anna@example.org"
        answer = post(anna, "/api/notices/email", {"address": "x,ben@example.org"}, "fi")
        assert "sähköposti" in error_of(answer)[2]


def test_accounts_cannot_flood_one_inbox_with_mail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An address is not checked to be its account's, so a person's accounts could all
    give a stranger's address and mail it every notice they caused each other (a
    challenge a few seconds): now one address gets a bounded number of mails an hour,
    whichever accounts gave it; the notices themselves are all kept in the bell."""
    sent: list[str] = []

    def record(_smtp: SmtpSettings, to: str, *_args: Any) -> bool:
        sent.append(to)
        return True

    monkeypatch.setattr(notices_api, "send", record)
    with client(tmp_path) as guest:
        anna, ben = person(guest.app, "Anna"), person(guest.app, "Ben")
        # the server's own loop, as in a real process: a mail task made in a request's
        # loop of its own died with it, half-way or not (the test failed under load)
        anna.portal = ben.portal = guest.portal
        notifier = app_state(guest).notices
        notifier.smtp = SmtpSettings("127.0.0.1", 1, "tikki@example.org", starttls=False)
        notifier.mails = RateLimiter(1 / 60, 1)  # one mail an hour to an address
        for who in (anna, ben):
            body = {"address": "Victim@example.org"}
            assert post(who, "/api/notices/email", body).status_code == 200
        for who, other in ((ben, "Anna"), (anna, "Ben")):
            made = post(who, "/api/friends/challenges", {"name": other, "game": "myllymatti"})
            assert made.status_code == 201, made.text
        assert guest.portal is not None
        guest.portal.call(notifier.settle)
        assert sent == ["Victim@example.org"]
        assert [
            anna.get("/api/notices").json()["unread"],
            ben.get("/api/notices").json()["unread"],
        ] == [1, 1]


# ---------------------------------------------------------------- tournaments


def test_a_tournament_name_is_shown_without_control_characters(tmp_path: Path) -> None:
    """A name with an escape sequence, a right-to-left override and line breaks was
    stored and shown to everyone as given."""
    with client(tmp_path) as guest:
        anna = person(guest.app, "Anna")
        made = cup(anna, name="\u202eSpring\n\x1b[31m  cup\t")
        assert made.status_code == 201, made.text
        assert made.json()["name"] == "Spring [31m cup"
        listed = guest.get("/api/tournaments").json()["tournaments"]
        assert [t["name"] for t in listed] == ["Spring [31m cup"]
        assert cup(anna, name="\u200b\x07").json()["name"] == "mattis"  # nothing left: the game


@pytest.mark.parametrize(
    "starts", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00"]
)
def test_a_start_out_of_the_calendar_is_a_400(tmp_path: Path, starts: str) -> None:
    """A start at the calendar's edge with a time zone overflowed on the way to UTC
    (OverflowError: a 500)."""
    with client(tmp_path) as guest:
        anna = person(guest.app, "Anna")
        status, code, message = error_of(cup(anna, starts=starts))
        assert (status, code) == (400, "bad_tournament") and "7 days" in message
        assert guest.get("/api/tournaments").json()["tournaments"] == []


def test_a_block_keeps_two_accounts_out_of_one_tournament(tmp_path: Path) -> None:
    """Ben blocked Anna, yet both entered Anna's tournament and were seated at one table
    (a block keeps them from any table the other sits at): now whoever enters second is
    refused in words, either way round, and the entrants are unchanged."""
    with client(tmp_path) as guest:
        anna, ben = person(guest.app, "Anna"), person(guest.app, "Ben")
        assert post(ben, "/api/friends/block", {"name": "Anna"}).status_code == 200
        tid = cup(anna).json()["id"]
        assert post(anna, f"/api/tournaments/{tid}/join").status_code == 200
        status, code, message = error_of(post(ben, f"/api/tournaments/{tid}/join"))
        assert (status, code) == (403, "blocked") and "unblock" in message
        other = cup(ben).json()["id"]
        assert post(ben, f"/api/tournaments/{other}/join").status_code == 200
        status, code, message = error_of(post(anna, f"/api/tournaments/{other}/join", lang="de"))
        assert (status, code) == (403, "blocked") and "blockiert" in message, message
        assert [e["name"] for e in guest.get(f"/api/tournaments/{tid}").json()["entrants"]] == [
            "Anna"
        ]
        assert post(ben, "/api/friends/unblock", {"name": "Anna"}).status_code == 200
        assert post(ben, f"/api/tournaments/{tid}/join").status_code == 200


def test_a_block_made_after_both_entered_seats_them_apart(tmp_path: Path) -> None:
    """Anna and Ben entered, then Ben blocked Anna: the first round seated them at one
    table (the two best rated of six, tables of three, filled from the top); now the
    seating keeps them apart."""
    with client(tmp_path) as guest:
        anna, ben = person(guest.app, "Anna"), person(guest.app, "Ben")
        tid = cup(anna).json()["id"]
        for who in (anna, ben):
            assert post(who, f"/api/tournaments/{tid}/join").status_code == 200
        bots = {"bot": "random", "count": 4}
        assert post(anna, f"/api/tournaments/{tid}/bots", bots).status_code == 200
        assert post(ben, "/api/friends/block", {"name": "Anna"}).status_code == 200
        assert post(anna, f"/api/tournaments/{tid}/start").status_code == 200
        runner = app_state(guest).tournament_runner
        assert guest.portal is not None
        shown: dict[str, Any] = {"games": []}
        for _step in range(5):  # start, then seat the first round (each step idempotent)
            guest.portal.call(runner.step, tid)
            shown = guest.get(f"/api/tournaments/{tid}").json()
            if shown["games"]:
                break
        people = {e["id"] for e in shown["entrants"] if not e["bot"]}
        tables = [set(t["entrants"]) for t in shown["games"][0]["tables"]]
        assert len(tables) == 2 and all(len(t & people) == 1 for t in tables), tables


def test_nobody_acts_for_a_tournaments_creator(tmp_path: Path) -> None:
    """Only the creator adds bots or starts early; a withdrawal from an open tournament
    is refused in words whoever asks; an entry is made once."""
    with client(tmp_path) as guest:
        anna, ben = person(guest.app, "Anna"), person(guest.app, "Ben")
        tid = cup(anna).json()["id"]
        bots = {"bot": "random", "count": 2}
        assert error_of(post(ben, f"/api/tournaments/{tid}/bots", bots))[:2] == (403, "not_yours")
        assert error_of(post(ben, f"/api/tournaments/{tid}/start"))[:2] == (403, "not_yours")
        assert post(ben, f"/api/tournaments/{tid}/join").status_code == 200
        assert error_of(post(ben, f"/api/tournaments/{tid}/join"))[:2] == (409, "already_entered")
        answer = post(ben, f"/api/tournaments/{tid}/withdraw")
        assert error_of(answer)[:2] == (409, "tournament_not_started")
        assert error_of(ben.get(f"/api/tournaments/{tid}/seat"))[:2] == (404, "unknown_tournament")
        shown = guest.get(f"/api/tournaments/{tid}").json()
        assert [e["name"] for e in shown["entrants"]] == ["Ben"] and shown["status"] == "open"


def test_more_accounts_at_one_address_do_not_hold_more_tournaments(tmp_path: Path) -> None:
    """The runner makes a tournament's tables outside its creator's address's caps on
    tables, and the cap of open tournaments was an account's: an address with more
    accounts held more tournaments (each up to 64 bots, 21 tables a round).  The
    accounts of one address now hold 9 together; the address is kept only as a digest,
    shown to nobody."""
    with client(tmp_path) as guest:
        people = [person(guest.app, name) for name in ("Anna", "Ben", "Cara", "Dan")]
        for who in people[:3]:
            for _ in range(3):
                assert cup(who).status_code == 201
        status, code, message = error_of(cup(people[3], lang="fi"))
        assert (status, code) == (409, "too_many_tournaments") and "9" in message
        listed = guest.get("/api/tournaments").json()["tournaments"]
        assert len(listed) == 9
        shown = people[0].get(f"/api/tournaments/{listed[0]['id']}").text
        assert "origin" not in shown and "testclient" not in shown


# ---------------------------------------------------------------- friends


def test_more_accounts_at_one_address_do_not_send_more_challenges(tmp_path: Path) -> None:
    """Challenges a minute were counted by account only, so each new account of one
    address sent (and notified, and mailed) as many again; the accounts of one address
    now share a rate."""
    with client(tmp_path) as guest:
        anna, ben, cara = (person(guest.app, n) for n in ("Anna", "Ben", "Cara"))
        limits = friend_routes.Limits()
        limits.addresses = RateLimiter(1, 1)  # the address's rate, made small
        app_state(guest).friend_limits = limits
        body = {"name": "Ben", "game": "myllymatti"}
        assert post(anna, "/api/friends/challenges", body).status_code == 201
        answer = post(ben, "/api/friends/challenges", {**body, "name": "Cara"}, "de")
        status, code, message = error_of(answer)
        assert (status, code) == (429, "rate_limited") and int(answer.headers["Retry-After"]) > 0
        assert "Adresse" in message, message
        assert cara.get("/api/friends").json()["incoming"] == []
        assert cara.get("/api/notices").json()["notices"] == []


def test_a_challenge_is_answered_by_its_parties_once(tmp_path: Path) -> None:
    """A third account can neither answer nor withdraw nor take the seat of another's
    challenge; the challenged cannot withdraw it, nor the challenger accept it; the
    challenger's seat is given once."""
    with client(tmp_path) as guest:
        anna, ben, cara = (person(guest.app, n) for n in ("Anna", "Ben", "Cara"))
        made = post(anna, "/api/friends/challenges", {"name": "Ben", "game": "myllymatti"})
        cid = made.json()["id"]
        assert "from_id" not in made.json() and "to_id" not in made.json()
        for who, action in ((cara, "accept"), (cara, "cancel"), (anna, "accept"), (ben, "cancel")):
            answer = post(who, f"/api/friends/challenges/{cid}/{action}")
            assert error_of(answer)[:2] == (404, "unknown_challenge"), action
        assert post(ben, f"/api/friends/challenges/{cid}/accept").status_code == 200
        for who in (cara, ben):
            answer = post(who, f"/api/friends/challenges/{cid}/seat")
            assert error_of(answer)[:2] == (404, "unknown_challenge")
        assert post(anna, f"/api/friends/challenges/{cid}/seat").status_code == 200
        answer = post(anna, f"/api/friends/challenges/{cid}/seat")
        assert error_of(answer)[:2] == (404, "unknown_challenge")
        for action in ("accept", "decline"):
            answer = post(ben, f"/api/friends/challenges/{cid}/{action}")
            assert error_of(answer)[:2] == (409, "challenge_gone")


def test_an_expired_challenge_is_answered_by_nobody(tmp_path: Path) -> None:
    """A challenge older than its 15 minutes can be neither accepted, declined nor
    withdrawn (409 in words, no table made), is listed to nobody and counts toward no
    cap: the same challenge may be sent again."""
    with client(tmp_path) as guest:
        anna, ben = person(guest.app, "Anna"), person(guest.app, "Ben")
        body = {"name": "Ben", "game": "myllymatti"}
        cid = post(anna, "/api/friends/challenges", body).json()["id"]
        long_ago = datetime.now(UTC).replace(tzinfo=None) - CHALLENGE_LIFE - timedelta(minutes=1)
        with app_state(guest).friends.engine.begin() as connection:
            connection.execute(
                update(ChallengeRow).where(ChallengeRow.id == cid).values(created=long_ago)
            )
        for who, action in ((ben, "accept"), (ben, "decline"), (anna, "cancel")):
            status, code, message = error_of(post(who, f"/api/friends/challenges/{cid}/{action}"))
            assert (status, code) == (409, "challenge_gone") and "15 minutes" in message, action
        assert ben.get("/api/friends").json()["incoming"] == []
        assert anna.get("/api/friends").json()["outgoing"] == []
        assert guest.get("/api/tables").json()["tables"] == []
        assert post(anna, "/api/friends/challenges", body).status_code == 201


def test_a_blocked_account_reaches_its_blocker_by_no_name(tmp_path: Path) -> None:
    """A block refuses follows and challenges under any spelling of the name (case, a
    look-alike letter), and no notice of the blocked account reaches the blocker."""
    with client(tmp_path) as guest:
        anna, ben = person(guest.app, "Anna"), person(guest.app, "Ben")
        assert post(ben, "/api/friends/block", {"name": "Anna"}).status_code == 200
        for name in ("Ben", "BEN", "\u0412en"):  # a Cyrillic В
            for path, body in (
                ("/api/friends/follow", {"name": name}),
                ("/api/friends/challenges", {"name": name, "game": "myllymatti"}),
            ):
                assert error_of(post(anna, path, body))[:2] == (403, "blocked"), (name, path)
        assert ben.get("/api/notices").json()["notices"] == []
        assert ben.get("/api/friends").json()["incoming"] == []


# ---------------------------------------------------------------- puzzles


def test_a_puzzle_tells_nothing_of_its_answer_before_the_attempt(tmp_path: Path) -> None:
    """Before the attempt: the seat's view and no answer, explanation, themes or rating;
    a later step's move sent first is refused naming the first step's moves (not the
    later step's, which would tell the first answer), and nothing is rated."""
    puzzle = next(p for p in catalogue().by_id.values() if len(p.answer) > 1)
    with client(tmp_path) as guest:
        anna = person(guest.app, "Anna")
        shown = anna.get(f"/api/puzzles/{puzzle.id}").json()
        assert set(shown) == {"id", "game", "players", "kind", "seat", "moves", "view", "rated"}
        assert shown["rated"] is True
        first = [str(m) for m in puzzle.view["legal_moves"]]
        later = [m for m in map(str, puzzle.step_view(1)["legal_moves"]) if m not in first]
        if later:
            status, code, message = error_of(
                post(anna, f"/api/puzzles/{puzzle.id}/attempt", {"moves": [later[0]]})
            )
            assert (status, code) == (400, "bad_attempt")
            assert all(m in message for m in first) and puzzle.answer[0] in message
        assert anna.get("/api/puzzles/me").json()["rating"] is None
        assert anna.get(f"/api/puzzles/{puzzle.id}").json()["rated"] is True


def test_an_accounts_second_attempt_is_not_rated(tmp_path: Path) -> None:
    """The first attempt is rated; a second, right this time, changes no rating."""
    puzzle = next(p for p in catalogue().by_id.values() if len(p.answer) == 1)
    wrong = next(m for m in map(str, puzzle.view["legal_moves"]) if m != puzzle.answer[0])
    with client(tmp_path) as guest:
        anna = person(guest.app, "Anna")
        first = post(anna, f"/api/puzzles/{puzzle.id}/attempt", {"moves": [wrong]}).json()
        assert (first["right"], first["rated"]) == (False, True)
        again = post(anna, f"/api/puzzles/{puzzle.id}/attempt", {"moves": list(puzzle.answer)})
        assert (again.json()["right"], again.json()["rated"]) == (True, False)
        assert again.json()["player"]["after"] == first["player"]["after"]
        assert anna.get("/api/puzzles/me").json()["rating"]["attempts"] == 1


# ---------------------------------------------------------------- generated requests, signed in

SCHEMA_DIR = Path(tempfile.mkdtemp(prefix="tikki-hostile-"))
atexit.register(shutil.rmtree, SCHEMA_DIR, ignore_errors=True)
schema_app = create_app(f"sqlite:///{SCHEMA_DIR / 'web.sqlite'}", bot_delay=0)
signed_in_schema = schemathesis.openapi.from_asgi("/openapi.json", schema_app).include(
    path_regex=r"^/api/(friends|puzzles|notices|tournaments)"
)


SCHEMA_CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@functools.cache
def stranger() -> dict[str, Any]:
    """A signed-in account of the schema's app (its cookies and CSRF header), a second
    account to name, a tournament, a puzzle and a challenge that exist; the routes'
    rates made wide, so that the budget reaches past the first refusals."""
    browser = TestClient(schema_app)
    for name in ("Anna", "Mallory"):
        browser.cookies.clear()
        made = post(browser, "/api/account/register", {"name": name, "password": PASSWORD})
        assert made.status_code == 201, made.text
    wide = RateLimiter(10**6, 10**6)
    state = schema_app.state
    state.friend_limits = friend_routes.Limits()
    state.friend_limits.challenges = state.friend_limits.addresses = wide
    state.friend_limits.changes = wide
    state.tournament_limits = tournament_routes.Limits()
    state.tournament_limits.creates = state.tournament_limits.changes = wide
    state.puzzle_limits = wide
    body = {"name": "Anna", "game": "myllymatti"}
    in_an_hour = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    return {
        "cookies": dict(browser.cookies),
        "headers": csrf(browser),
        "tournament_id": cup(browser, starts=in_an_hour).json()["id"],
        "challenge_id": post(browser, "/api/friends/challenges", body).json()["id"],
        "puzzle_id": next(iter(catalogue().by_id)),
    }


TURNS = itertools.count()
"""Every other generated request is pointed at what exists (an account's name, a
tournament, a challenge, a puzzle); the others keep what was generated."""


def aimed(case: schemathesis.Case[Any], known: dict[str, Any]) -> None:
    """Point ``case`` at what exists, every other time."""
    if next(TURNS) % 2:
        return
    for key in ("tournament_id", "challenge_id", "puzzle_id"):
        if key in (case.path_parameters or {}):
            case.path_parameters[key] = known[key]
    if isinstance(case.body, dict) and "name" in case.body and "friends" in case.path:
        case.body["name"] = "Anna"


@signed_in_schema.parametrize()
@settings(
    max_examples=8,
    derandomize=True,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
)
def test_signed_in_requests_get_no_server_error(case: schemathesis.Case[Any]) -> None:
    """Generated requests to these routes from a signed-in account with its CSRF
    header (``test_server_schema.py`` sends none, so it meets their 401 and 403 only),
    half of them at an account, tournament, challenge or puzzle that exists: no answer
    is a server error or breaks the documented schema."""
    known = stranger()
    aimed(case, known)
    case.call_and_validate(headers=known["headers"], cookies=known["cookies"], checks=SCHEMA_CHECKS)


# ---------------------------------------------------------------- tables and people kept


def person_at(app: Any, name: str, host: str) -> TestClient:
    """A browser at the client address ``host`` signed in to a new account ``name``."""
    c = TestClient(app, client=(host, 50000))
    r = post(c, "/api/account/register", {"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return c


def correspondence_table(c: TestClient, timer: str = "12h", **body: Any) -> Any:
    """Create a two-seat Myllymatti table of hours a move, an open seat and a bot."""
    seats = [{"kind": "open", "anyone": True}, {"kind": "bot", "bot": "random"}]
    wanted = {"game": "myllymatti", "seats": seats, "turn_timer": timer, **body}
    return post(c, "/api/tables", wanted)


def test_a_guest_makes_no_correspondence_table(tmp_path: Path) -> None:
    """A guest held a correspondence table (and 20 per address) for weeks, without
    notices or a 'your turn' list to come back by: games that last days are an
    account's, refused to a guest in words."""
    with client(tmp_path) as guest:
        for lang, word in (("en", "account"), ("fi", "tili"), ("de", "konto")):
            answer = post(guest, "/api/tables", {
                "game": "myllymatti", "turn_timer": "24h",
                "seats": [{"kind": "open"}, {"kind": "open"}]}, lang)  # fmt: skip
            status, code, message = error_of(answer)
            assert (status, code) == (403, "correspondence_needs_account"), answer.text
            assert word in message.lower(), message
        assert guest.get("/api/tables").json()["tables"] == []
        anna = person(guest.app, "Anna")
        assert correspondence_table(anna, "24h").status_code == 201


def test_an_account_holds_a_capped_number_of_correspondence_tables(tmp_path: Path) -> None:
    """Nothing capped an account's live games that last days but the address's caps,
    which a few addresses multiply: ``--correspondence-per-account`` now does."""
    policy = Policy(correspondence_per_account=2)
    with client(tmp_path, policy=policy) as guest:
        anna, ben = person(guest.app, "Anna"), person(guest.app, "Ben")
        for _ in range(2):
            assert correspondence_table(anna).status_code == 201
        answer = correspondence_table(anna)
        status, code, message = error_of(answer)
        assert (status, code) == (429, "rate_limited") and "2" in message, answer.text
        assert int(answer.headers["Retry-After"]) > 0
        assert correspondence_table(anna, timer="60").status_code == 201  # a live game: yes
        assert correspondence_table(ben).status_code == 201


def test_a_correspondence_table_nobody_moved_at_lapses_after_its_first_allowance(
    tmp_path: Path,
) -> None:
    """A correspondence table where nobody had moved lived 21 days (the 21-day rule
    came before the unplayed table's expiry), its turn timer's bot playing on; and the
    refusal of more such tables said 'let one expire (in minutes)'.  Now nobody's move
    within the first allowance removes it (the timer does not play for nobody), and the
    refusal names the hours."""
    days = Days()
    policy = Policy(waiting_per_address=2, connects_per_minute=10_000)
    app = create_app(f"sqlite:///{tmp_path / 'lapse.sqlite'}", bot_delay=0, policy=policy)
    app.state.manager.clock = days
    with TestClient(app) as guest:
        anna = person(guest.app, "Anna")
        made = []
        for _ in range(2):
            answer = correspondence_table(anna, on_timeout="bot")
            assert answer.status_code == 201, answer.text
            table_id = answer.json()["table"]["id"]
            join = post(anna, f"/api/tables/{table_id}/seats/0", {"name": "Anna"})
            assert join.status_code == 200, join.text
            made.append(table_id)
        status, code, message = error_of(correspondence_table(anna))
        assert (status, code) == (429, "rate_limited") and "12 h" in message, message
        manager = app_state(guest).manager
        days.pass_(timedelta(hours=11))
        assert on_loop(guest, manager.tick) == [] and on_loop(guest, manager.expire) == []
        days.pass_(timedelta(hours=2))
        assert on_loop(guest, manager.tick) == []  # no bot plays the first turn for nobody
        assert sorted(on_loop(guest, manager.expire)) == sorted(made)
        assert correspondence_table(anna).status_code == 201


def test_a_rated_correspondence_table_whose_timer_plays_goes_on_unplayed(
    tmp_path: Path,
) -> None:
    """A guard for tournaments: at a rated correspondence table whose timer lets a bot
    play (every tournament table's settings), an absent first mover's turn is played by
    the timer's bot, and the table goes on (the others at it did nothing wrong)."""
    days = Days()
    policy = Policy(connects_per_minute=10_000)
    app = create_app(f"sqlite:///{tmp_path / 'rated.sqlite'}", bot_delay=0, policy=policy)
    app.state.manager.clock = days
    with TestClient(app) as guest:
        anna = person(guest.app, "Anna")
        answer = correspondence_table(anna, on_timeout="bot", rated=True)
        assert answer.status_code == 201, answer.text
        table_id = answer.json()["table"]["id"]
        assert post(anna, f"/api/tables/{table_id}/seats/0", {"name": "Anna"}).status_code == 200
        manager = app_state(guest).manager
        days.pass_(timedelta(hours=13))
        assert on_loop(guest, manager.expire) == []
        assert on_loop(guest, manager.tick) == [table_id]
        assert guest.get(f"/api/tables/{table_id}").json()["status"] == "playing"


def test_one_address_enters_a_capped_number_of_bots_in_its_tournaments(tmp_path: Path) -> None:
    """Three accounts of one address ran 9 tournaments of 64 bots, about 189 bot-only
    tables of the site's 200: the bots the accounts of one address have entered in their
    tournaments not over yet are capped together (``--tournament-bots-per-address``),
    refused in words; the people of another address are not held back by it."""
    policy = Policy(tournament_bots_per_address=10)
    with client(tmp_path, policy=policy) as guest:
        anna, ben = person(guest.app, "Anna"), person(guest.app, "Ben")
        cara = person_at(guest.app, "Cara", "2001:db8::1")
        first = cup(anna, cap=64).json()["id"]
        second = cup(ben, cap=64).json()["id"]
        bots = {"bot": "random", "count": 8}
        assert post(anna, f"/api/tournaments/{first}/bots", bots).status_code == 200
        answer = post(ben, f"/api/tournaments/{second}/bots", {**bots, "count": 3}, "fi")
        status, code, message = error_of(answer)
        assert (status, code) == (429, "rate_limited") and "10" in message, answer.text
        assert int(answer.headers["Retry-After"]) > 0
        assert guest.get(f"/api/tournaments/{second}").json()["entrants"] == []
        assert post(ben, f"/api/tournaments/{second}/bots", {**bots, "count": 2}).status_code == 200
        third = cup(cara, cap=64).json()["id"]
        assert post(cara, f"/api/tournaments/{third}/bots", bots).status_code == 200


def test_one_address_keeps_no_persons_challenges_full(tmp_path: Path) -> None:
    """From one address, 10 challenges filled a person's waiting list, and their
    friends were refused until they declined or blocked: the accounts of one address
    now have at most ``--challenges-per-address`` (3) waiting for one person, refused
    with the wait until the first expires; others still reach them."""
    with client(tmp_path) as guest:
        eve = person_at(guest.app, "Eve", "198.51.100.7")
        senders = [person(guest.app, n) for n in ("Anna", "Ben", "Cara", "Dan")]
        body = {"name": "Eve", "game": "myllymatti"}
        for who in senders[:3]:
            assert post(who, "/api/friends/challenges", body).status_code == 201
        answer = post(senders[3], "/api/friends/challenges", body, "de")
        status, code, message = error_of(answer)
        assert (status, code) == (429, "rate_limited") and "Eve" in message, answer.text
        assert 0 < int(answer.headers["Retry-After"]) <= CHALLENGE_LIFE.total_seconds()
        friend = person_at(guest.app, "Finn", "203.0.113.9")
        assert post(friend, "/api/friends/challenges", body).status_code == 201
        incoming = eve.get("/api/friends").json()["incoming"]
        assert len(incoming) == 4 and all("origin" not in c["options"] for c in incoming)
        assert (
            post(senders[3], "/api/friends/challenges", {**body, "name": "Finn"}).status_code == 201
        )


lobby_server = e2e.serving("hostile-lobby")
browser = e2e.browser


def test_the_lobby_offers_hours_a_move_to_accounts_only(
    lobby_server: e2e.Server, browser: e2e.Browser
) -> None:
    """The lobby's form offered a guest hours a move, which the server now refuses to a
    guest: a guest's form offers them not, a signed-in person's does (Chromium)."""
    page = browser.new_context(viewport=e2e.DESKTOP, locale="en").new_page()
    hours = "#turn-timer option[value='24h']"
    page.goto(f"{lobby_server.url}/?lang=en")
    page.locator(f"{hours}:disabled").wait_for(state="attached")
    page.goto(f"{lobby_server.url}/account?lang=en")
    page.locator("#register-form").wait_for()
    page.fill("#register-name", "Marjatta")
    page.fill("#register-password", "violet lantern harbour")
    page.locator("#register-form button[type=submit]").click()
    page.locator("#me-link", has_text="Marjatta").wait_for()
    page.goto(f"{lobby_server.url}/?lang=en")
    page.locator("#account-link", has_text="Marjatta").wait_for()
    page.locator(f"{hours}:enabled").wait_for(state="attached")
    page.select_option("#turn-timer", "24h")
    assert page.locator("#turn-timer").input_value() == "24h"
