"""Optional accounts: register, login, logout, CSRF, rate limits, session
rotation, names unique across case and confusables, attaching guest games, deletion that
leaves records anonymous, and no secret in logs, URLs or records.  SQLite here; the same
flow runs on PostgreSQL with ``TIKKI_TEST_POSTGRES``."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from tests._server import INVITES, TestClient, app_state, auth, client, create, error_of, join
from tikki.server import create_app
from tikki.server.accounts import CSRF_COOKIE, SESSION_COOKIE, skeleton
from tikki.server.logins import LoginLimits
from tikki.server.passwords import device
from tikki.server.quota import RateLimiter

PASSWORD = "correct horse battery"


def csrf(c: TestClient) -> dict[str, str]:
    """The CSRF header of this client's cookie (fetched first if missing)."""
    if CSRF_COOKIE not in c.cookies:
        assert c.get("/api/account").status_code == 200
    return {"X-CSRF-Token": c.cookies[CSRF_COOKIE]}


def register(c: TestClient, name: str, password: str = PASSWORD, **body: Any) -> Any:
    return c.post(
        "/api/account/register", json={"name": name, "password": password, **body}, headers=csrf(c)
    )


def login(c: TestClient, name: str, password: str = PASSWORD) -> Any:
    return c.post("/api/account/login", json={"name": name, "password": password}, headers=csrf(c))


def test_skeleton_joins_case_and_confusables() -> None:
    assert skeleton("Anna") == skeleton("ANNA") == skeleton("\u0410nna") == skeleton("Ａnna")
    assert skeleton("Paul") == skeleton("PauI") == skeleton("Pau1")
    assert skeleton("Anna") != skeleton("Anne")


def test_register_login_logout(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        assert c.get("/api/account").json() == {"account": None}
        r = register(c, "Anna")
        assert r.status_code == 201, r.text
        assert r.json()["account"] == {"name": "Anna", "private": False}
        cookie = r.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=lax" in cookie.replace("Lax", "lax")
        assert c.get("/api/account").json()["account"]["name"] == "Anna"
        # names are unique across case and look-alike letters
        for twin in ("anna", "\u0410NNA", "Ａnna"):
            status, code, _ = error_of(register(TestClient(c.app), twin))
            assert (status, code) == (409, "name_taken"), twin
        # wrong password, unknown name: the same answer
        other = TestClient(c.app)
        assert error_of(login(other, "Anna", "wrong password!"))[:2] == (401, "wrong_password")
        assert error_of(login(other, "Nobody", "wrong password!"))[:2] == (401, "wrong_password")
        assert other.get("/api/account").json() == {"account": None}
        # logout ends the session everywhere
        assert login(other, "anna").status_code == 200
        assert other.get("/api/account").json()["account"]["name"] == "Anna"
        assert c.post("/api/account/logout", headers=csrf(c)).status_code == 200
        assert c.get("/api/account").json() == {"account": None}
        assert other.get("/api/account").json() == {"account": None}


def test_bad_names_and_passwords(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        for name in ("ab", "<script>", "a_b_c"):
            status, code, message = error_of(register(c, name))
            assert (status, code) == (400, "bad_name") and "letters" in message
        status, code, message = error_of(register(c, "x" * 30))
        assert (status, code) == (400, "bad_name") and "at most 24" in message
        status, code, message = error_of(register(c, "Anna", "short"))
        assert (status, code) == (400, "bad_password") and "8–128" in message
        assert c.get("/api/account").json() == {"account": None}


def test_csrf_refused(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        body = {"name": "Anna", "password": PASSWORD}
        assert error_of(c.post("/api/account/register", json=body))[:2] == (403, "csrf")
        assert register(c, "Anna").status_code == 201
        # a forged request carries the cookies but cannot read them: no header
        for path, payload in (
            ("/api/account/logout", None),
            ("/api/account/settings", {"private": True}),
            ("/api/account/delete", {"password": PASSWORD}),
        ):
            r = c.post(path, json=payload)
            assert error_of(r)[:2] == (403, "csrf"), path
            r = c.post(path, json=payload, headers={"X-CSRF-Token": "guess"})
            assert error_of(r)[:2] == (403, "csrf"), path
        assert c.get("/api/account").json()["account"] == {"name": "Anna", "private": False}


def test_session_rotates_on_login(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        assert register(c, "Anna").status_code == 201
        first = c.cookies[SESSION_COOKIE]
        first_csrf = c.cookies[CSRF_COOKIE]
        assert login(c, "Anna").status_code == 200
        second = c.cookies[SESSION_COOKIE]
        assert second != first and c.cookies[CSRF_COOKIE] != first_csrf
        stale = TestClient(c.app, cookies={SESSION_COOKIE: first})
        assert stale.get("/api/account").json() == {"account": None}
        assert c.get("/api/account").json()["account"]["name"] == "Anna"


def frozen(c: TestClient) -> None:
    """Stop the login limits' clock: no token comes back while a test runs (the server's
    own rate is lifted: these tests count one address's and one pair's tries)."""
    accounts = app_state(c).accounts
    accounts.logins = LoginLimits(lambda: 0.0)
    accounts.logins.server = RateLimiter(1e9, 1e9)
    accounts.per_address.clock = lambda: 0.0


def test_logins_rate_limited(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        frozen(c)
        assert register(c, "Anna").status_code == 201
        answers = [error_of(login(TestClient(c.app), "Anna", "wrong password!")) for _ in range(6)]
        assert [a[1] for a in answers[:5]] == ["wrong_password"] * 5
        status, code, message = answers[5]
        assert (status, code) == (429, "rate_limited") and "wrong passwords" in message
        # even the right password waits now from this address: brute force gains nothing
        r = login(TestClient(c.app), "Anna")
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
        # but the owner elsewhere is not locked out (tests/test_server_logins.py)
        assert login(TestClient(c.app, client=("10.1.0.1", 50000)), "Anna").status_code == 200


def test_logins_rate_limited_per_address(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        frozen(c)
        codes = [error_of(login(c, f"Name{i:02d}", "wrong password!"))[1] for i in range(21)]
        assert codes[:20] == ["wrong_password"] * 20 and codes[20] == "rate_limited"


def test_seats_attached_and_account_deleted(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    with client(tmp_path) as c:
        table = create(c, seed=5)["table"]
        guest = join(c, table["id"], 0, "Guesty")
        r = register(c, "Anna", games=[{"table": table["id"], "token": guest}])
        assert r.json()["attached"] == 1
        # a signed-in person's seat carries the account's name, whatever was typed
        other = TestClient(c.app)
        assert register(other, "Bertta").status_code == 201
        r = other.post(
            f"/api/tables/{table['id']}/seats/1",
            json={"name": "Fake", "invite": INVITES[table["id"], 1]},
        )
        assert r.status_code == 200, r.text
        assert r.json()["table"]["seats"][1]["name"] == "Bertta"
        manager = app_state(c).manager
        live = manager.tables[table["id"]]
        token = r.json()["token"]
        while live.status != "finished":
            view = c.get(f"/api/tables/{table['id']}/state", headers=auth(token)).json()
            to_act = view["table"]["to_act"]
            tok = guest if to_act == 0 else token
            v = c.get(f"/api/tables/{table['id']}/state", headers=auth(tok)).json()
            move = v["view"]["legal_moves"][0]
            r = c.post(
                f"/api/tables/{table['id']}/moves",
                json={"move": move, "seq": v["seq"]},
                headers=auth(tok),
            )
            assert r.status_code == 200, r.text
        record = c.get(f"/api/tables/{table['id']}/record").json()
        assert [s["name"] for s in record["seats"]] == ["Guesty", "Bertta"]
        chat = {"phrase": "gg"}
        r = other.post(f"/api/tables/{table['id']}/chat", json=chat, headers=auth(token))
        assert r.json()["name"] == "Bertta"
        # deleting needs the password, then the records keep the game, anonymous
        r = other.post(
            "/api/account/delete", json={"password": "nope nope nope"}, headers=csrf(other)
        )
        assert error_of(r)[:2] == (401, "wrong_password")
        r = other.post("/api/account/delete", json={"password": PASSWORD}, headers=csrf(other))
        assert r.status_code == 200 and r.json()["anonymised"] == 1
        record = c.get(f"/api/tables/{table['id']}/record").json()
        assert [s["name"] for s in record["seats"]] == ["Guesty", "anonymous"]
        assert other.get("/api/account").json() == {"account": None}
        assert error_of(login(TestClient(c.app), "Bertta"))[1] == "wrong_password"
        said = c.get(f"/api/tables/{table['id']}/chat").json()["messages"]
        assert [m["name"] for m in said] == ["anonymous"]
        secrets = [PASSWORD, c.cookies[SESSION_COOKIE]]
        text = str(record)
    # restarted: the stored record is anonymous too
    with client(tmp_path) as c:
        record = c.get(f"/api/tables/{table['id']}/record").json()
        assert [s["name"] for s in record["seats"]] == ["Guesty", "anonymous"]
        said = c.get(f"/api/tables/{table['id']}/chat").json()["messages"]
        assert [m["name"] for m in said] == ["anonymous"]
    logged = caplog.text
    for secret in secrets:
        assert secret not in logged and secret not in text


def test_postgres_accounts(postgres_url: str) -> None:
    app = create_app(postgres_url, bot_delay=0)
    with TestClient(app) as c:
        assert register(c, "Anna").status_code == 201
        assert error_of(register(TestClient(c.app), "ANNA"))[1] == "name_taken"
        assert login(TestClient(c.app), "anna").status_code == 200
        phone = TestClient(c.app, headers={"User-Agent": PHONE})
        assert login(phone, "anna").status_code == 200
        listed = sessions(c)
        assert len(listed) == 3 and [s["current"] for s in listed].count(True) == 1
        ended = next(s for s in sessions(phone) if s["current"])["id"]
        r = c.delete(f"/api/account/sessions/{ended}", headers=csrf(c))
        assert r.status_code == 200, r.text
        assert phone.get("/api/account").json() == {"account": None}
        assert len(sessions(c)) == 2
        status, code, _message = error_of(register(TestClient(c.app), "Bertta", "password"))
        assert (status, code) == (400, "bad_password")
        assert c.post("/api/account/logout", headers=csrf(c)).status_code == 200
        assert c.get("/api/account").json() == {"account": None}


def test_weak_passwords_refused_with_the_reason(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        for weak in ("password", "12345678"):
            status, code, message = error_of(register(c, "Anna", weak))
            assert (status, code) == (400, "bad_password"), weak
            assert "easy to guess" in message and "10 most common passwords" in message, message
        status, code, message = error_of(register(c, "Anna", "aaaaaaaaaa"))
        assert code == "bad_password" and "repeat" in message.lower(), message
        fi = {"Accept-Language": "fi", **csrf(c)}
        r = c.post(
            "/api/account/register", json={"name": "Anna", "password": "password"}, headers=fi
        )
        status, code, message = error_of(r)
        assert code == "bad_password" and "helppo arvata" in message, message
        de = {"Accept-Language": "de", **csrf(c)}
        r = c.post(
            "/api/account/register", json={"name": "Anna", "password": "12345678"}, headers=de
        )
        assert "leicht zu erraten" in error_of(r)[2]
        # a password made of the name itself is guessed too
        assert error_of(register(c, "Annabella", "Annabella1"))[1] == "bad_password"
        assert c.get("/api/account").json() == {"account": None}  # nothing was created
        assert register(c, "Anna").status_code == 201


def test_a_name_too_long_is_refused_in_words(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        status, code, message = error_of(register(c, "Aino" + "x" * 36))
        assert (status, code) == (400, "bad_name")
        assert "at most 24 characters" in message and "40" in message, message
        assert c.get("/api/account").json() == {"account": None}


def sessions(c: TestClient) -> list[dict[str, Any]]:
    r = c.get("/api/account/sessions")
    assert r.status_code == 200, r.text
    out: list[dict[str, Any]] = r.json()["sessions"]
    return out


FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
PHONE = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/126.0.0.0 Mobile Safari/537.36"
)


def test_sessions_listed_per_device_and_signed_out_one_by_one(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        assert error_of(c.get("/api/account/sessions"))[:2] == (401, "not_signed_in")
        c.headers["User-Agent"] = FIREFOX
        assert register(c, "Anna").status_code == 201
        phone = TestClient(c.app, headers={"User-Agent": PHONE})
        assert login(phone, "Anna").status_code == 200
        listed = sessions(c)
        assert len(listed) == 2
        mine = next(s for s in listed if s["current"])
        other = next(s for s in listed if not s["current"])
        assert (mine["browser"], mine["system"]) == ("Firefox", "Linux")
        assert (other["browser"], other["system"]) == ("Chrome", "Android")
        assert mine["created"] and mine["last_seen"]
        for s in listed:  # no secret in the list
            assert set(s) == {"id", "created", "last_seen", "browser", "system", "current"}
            assert s["id"] not in (c.cookies[SESSION_COOKIE], phone.cookies[SESSION_COOKIE])
        assert [s["current"] for s in sessions(phone)].count(True) == 1
        # a forged request cannot end a session
        url = f"/api/account/sessions/{other['id']}"
        assert error_of(c.delete(url))[:2] == (403, "csrf")
        assert error_of(c.delete("/api/account/sessions/nope", headers=csrf(c)))[:2] == (
            404,
            "unknown_session",
        )
        # another account cannot end Anna's sessions
        bertta = TestClient(c.app)
        assert register(bertta, "Bertta").status_code == 201
        assert error_of(bertta.delete(url, headers=csrf(bertta)))[1] == "unknown_session"
        assert phone.get("/api/account").json()["account"]["name"] == "Anna"
        # sign out the phone from the desktop: the desktop stays signed in
        r = c.delete(url, headers=csrf(c))
        assert r.status_code == 200, r.text
        assert phone.get("/api/account").json() == {"account": None}
        assert c.get("/api/account").json()["account"]["name"] == "Anna"
        assert [s["id"] for s in sessions(c)] == [mine["id"]]
        # signing out this device ends only it
        r = c.delete(f"/api/account/sessions/{mine['id']}", headers=csrf(c))
        assert r.status_code == 200 and r.json() == {"account": None}
        assert c.get("/api/account").json() == {"account": None}


def test_password_change_checks_strength_and_ends_other_sessions(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        assert register(c, "Anna").status_code == 201
        other = TestClient(c.app)
        assert login(other, "Anna").status_code == 200
        new = "violet lantern harbour"

        def change(old: str, password: str) -> Any:
            body = {"password": old, "new_password": password}
            return c.post("/api/account/password", json=body, headers=csrf(c))

        assert error_of(change("not my password", new))[:2] == (401, "wrong_password")
        status, code, message = error_of(change(PASSWORD, "12345678"))
        assert (status, code) == (400, "bad_password") and "easy to guess" in message
        assert login(TestClient(c.app), "Anna").status_code == 200  # unchanged
        r = change(PASSWORD, new)
        assert r.status_code == 200, r.text
        assert c.get("/api/account").json()["account"]["name"] == "Anna"  # still signed in
        assert other.get("/api/account").json() == {"account": None}  # the others end
        assert error_of(login(TestClient(c.app), "Anna"))[1] == "wrong_password"
        assert login(TestClient(c.app), "Anna", new).status_code == 200


def check_sessions_upgrade(url: str) -> None:
    """A database whose sessions table predates the devices list gets its columns."""
    from sqlalchemy import Column, DateTime, Integer, MetaData, String, Table, create_engine, insert
    from sqlalchemy import inspect as inspect_db

    from tikki.server.db import Store, normalize_url, now

    old = MetaData()
    table = Table(
        "tikki_sessions",
        old,
        Column("token_hash", String(64), primary_key=True),
        Column("account_id", Integer),
        Column("csrf_hash", String(64)),
        Column("created", DateTime),
    )
    engine = create_engine(normalize_url(url))
    old.create_all(engine)
    with engine.begin() as conn:
        conn.execute(
            insert(table),
            {"token_hash": "a" * 64, "account_id": 1, "csrf_hash": "b", "created": now()},
        )
    engine.dispose()
    store = Store(url)
    try:
        store.create_schema()
        store.create_schema()  # a second start changes nothing
        columns = {c["name"] for c in inspect_db(store.engine).get_columns("tikki_sessions")}
        assert {"last_seen", "user_agent"} <= columns
    finally:
        store.close()


def test_a_sqlite_sessions_table_of_an_earlier_version_is_upgraded(tmp_path: Path) -> None:
    check_sessions_upgrade(f"sqlite:///{tmp_path / 'old.sqlite'}")


def test_a_postgresql_sessions_table_of_an_earlier_version_is_upgraded(postgres_url: str) -> None:
    check_sessions_upgrade(postgres_url)


@pytest.mark.parametrize(
    ("agent", "expected"),
    [
        (FIREFOX, ("Firefox", "Linux")),
        (PHONE, ("Chrome", "Android")),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
            "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
            ("Safari", "iOS"),
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
            ("Edge", "Windows"),
        ),
        (
            "Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/140.0.0.0 Safari/537.36",
            ("Chrome", "Linux"),
        ),
        ("", (None, None)),
    ],
)
def test_device_names_the_browser_and_system(agent: str, expected: tuple[Any, Any]) -> None:
    assert device(agent) == expected
