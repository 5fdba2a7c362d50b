"""Notices: stored per account, delivered live over ``/ws/account`` to that account
only, listed and marked read over HTTP; a challenge notifies the challenged; a blocked
account's notices are dropped; a correspondence table's ``your_turn`` is not stored
twice while unread; e-mail goes through a real local SMTP server (aiosmtpd) when the
host configured it, in the account's language, and never by default."""

from __future__ import annotations

import asyncio
import socket
import time
from email import message_from_bytes
from email.policy import default
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from tests._server import TestClient, app_state, client, error_of
from tests.test_server_friends import PASSWORD, call, csrf, person
from tikki.server import create_app
from tikki.server.friends import presence
from tikki.server.notices import KINDS, live, notify
from tikki.server.notices.mail import SmtpSettings, subject_and_body
from tikki.server.notices.store import KEEP
from tikki.server.notices.wake import Wakes


def notices(c: TestClient) -> dict[str, Any]:
    r = c.get("/api/notices")
    assert r.status_code == 200, r.text
    found: dict[str, Any] = r.json()
    return found


def account_id(c: TestClient) -> int:
    """The signed-in account's id, as the server stores it."""
    state = app_state(c)
    token = c.cookies["tikki_session"]
    found = state.accounts._session(token)
    assert found is not None
    return int(found.id)


def send(c: TestClient, account: int, kind: str, data: dict[str, Any], **kw: Any) -> None:
    """Call :func:`notify` on the app's loop, as a feature does."""
    assert c.portal is not None, "the client of the with block"
    c.portal.call(lambda: notify(c.app, account, kind, data, **kw))


def settle(c: TestClient) -> None:
    """Wait for the mails being sent."""
    assert c.portal is not None
    c.portal.call(app_state(c).notices.settle)


def test_stored_listed_and_marked_read(tmp_path: Path) -> None:
    with client(tmp_path) as guest:
        anna, ben = person(guest.app, "Anna"), person(guest.app, "Ben")
        send(guest, account_id(anna), "your_turn", {"table": "t1", "game": "mattis"})
        send(guest, account_id(anna), "tournament_start", {"tournament": "x", "name": "Cup"})
        mine = notices(anna)
        assert mine["unread"] == 2 and mine["mail"] is False
        assert [n["kind"] for n in mine["notices"]] == ["tournament_start", "your_turn"]
        assert notices(ben) == {"unread": 0, "notices": [], "mail": False}
        first = mine["notices"][1]["id"]
        # another account cannot mark them read
        r = ben.post("/api/notices/read", json={"ids": [first]}, headers=csrf(ben))
        assert r.status_code == 200 and notices(anna)["unread"] == 2
        r = anna.post("/api/notices/read", json={"ids": [first]}, headers=csrf(anna))
        assert r.json()["unread"] == 1
        assert [n["read"] for n in r.json()["notices"]] == [False, True]
        r = anna.post("/api/notices/read", json={"ids": None}, headers=csrf(anna))
        assert r.json()["unread"] == 0
        assert error_of(anna.post("/api/notices/read", json={}))[:2] == (403, "csrf")
        assert error_of(guest.get("/api/notices"))[:2] == (401, "not_signed_in")
        with pytest.raises(ValueError, match="unknown notice kind"):
            send(guest, account_id(anna), "spam", {})
        assert set(KINDS) >= {"your_turn", "challenge", "tournament_start"}


def test_your_turn_replaces_the_unread_one_and_kept_short(tmp_path: Path) -> None:
    with client(tmp_path) as guest:
        anna = person(guest.app, "Anna")
        me = account_id(anna)
        for _ in range(3):
            send(guest, me, "your_turn", {"table": "t1", "game": "mattis"})
        send(guest, me, "your_turn", {"table": "t2", "game": "mattis"})
        mine = notices(anna)  # the newest t1 replaced the unread ones before it
        assert mine["unread"] == 2 and [n["data"]["table"] for n in mine["notices"]] == ["t2", "t1"]
        assert mine["notices"][1]["id"] == 3
        anna.post("/api/notices/read", json={"ids": None}, headers=csrf(anna))
        send(guest, me, "your_turn", {"table": "t1", "game": "mattis"})
        assert notices(anna)["unread"] == 1
        store = app_state(anna).notices.store
        for n in range(KEEP + 5):
            store.add(me, "tournament_start", {"name": str(n)})
        assert len(store.after(me, 0)) == 50 and store.newest(me) > KEEP
        kept = store.listing(me, KEEP + 10)["notices"]  # 3 your_turn and names 0-4 went
        assert len(kept) == KEEP and kept[-1]["data"] == {"name": "5"}


def receive_notice(ws: Any) -> dict[str, Any]:
    """The next ``notice`` message of an account socket (the friends' lists skipped)."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "notice":
            return message


def test_delivered_live_to_that_account_only(tmp_path: Path) -> None:
    with client(tmp_path) as guest:
        anna, ben = person(guest.app, "Anna"), person(guest.app, "Ben")
        with (
            anna.websocket_connect("/ws/account") as ws_a,
            ben.websocket_connect("/ws/account") as ws_b,
        ):
            assert ws_a.receive_json()["type"] == "friends"
            assert ws_b.receive_json()["type"] == "friends"
            r = call(ben, "/challenges", {"name": "Anna", "game": "myllymatti"})
            assert r.status_code == 201, r.text
            send(guest, account_id(ben), "your_turn", {"table": "t9", "game": "mattis"})
            got = receive_notice(ws_a)
            assert got["notice"]["kind"] == "challenge" and got["unread"] == 1
            assert got["notice"]["data"]["from"] == "Ben"
            assert got["notice"]["data"]["challenge"] == r.json()["id"]
            mine = receive_notice(ws_b)["notice"]
            assert mine["kind"] == "your_turn" and mine["data"]["table"] == "t9"
        assert [n["kind"] for n in notices(anna)["notices"]] == ["challenge"]
        assert [n["kind"] for n in notices(ben)["notices"]] == ["your_turn"]


@pytest.fixture
def no_polling(monkeypatch: pytest.MonkeyPatch) -> None:
    """The account socket's reads on a timer an hour apart: a notice that arrives came
    because it was stored, not because a timer ran out."""
    monkeypatch.setattr(presence, "POLL", 3600.0)
    monkeypatch.setattr(live, "SAFETY", 3600.0)


@pytest.mark.timeout(60)
def test_a_stored_notice_reaches_the_open_sockets_at_once(tmp_path: Path, no_polling: None) -> None:
    """Two open pages of one account get a notice the moment it is stored, with no
    timer to read it (the test fails by its timeout if one waits for the timer)."""
    with client(tmp_path) as guest:
        anna = person(guest.app, "Anna")
        anna.portal = guest.portal  # the server's own loop, as in a real process
        with (
            anna.websocket_connect("/ws/account") as first,
            anna.websocket_connect("/ws/account") as second,
        ):
            assert first.receive_json()["type"] == "friends"
            assert second.receive_json()["type"] == "friends"
            for n in range(3):
                send(guest, account_id(anna), "tournament_start", {"tournament": "c", "name": n})
                for ws in (first, second):
                    got = receive_notice(ws)
                    assert got["notice"]["data"]["name"] == n and got["unread"] == n + 1


def test_wakes_forget_a_closed_socket() -> None:
    """A socket's event is woken for its own account only, and forgotten when it closes."""

    async def scenario() -> None:
        wakes = Wakes()
        mine, other = wakes.add(1), wakes.add(2)
        assert wakes.wake(1) == 1
        await asyncio.sleep(0)  # set on the socket's own loop
        assert mine.is_set() and not other.is_set()
        wakes.discard(1, mine)
        assert wakes.wake(1) == 0 and set(wakes.waiting) == {2}

    asyncio.run(scenario())


def test_the_blocked_cannot_notify(tmp_path: Path) -> None:
    with client(tmp_path) as guest:
        anna, ben = person(guest.app, "Anna"), person(guest.app, "Ben")
        assert call(anna, "/block", {"name": "Ben"}).status_code == 200
        assert error_of(call(ben, "/challenges", {"name": "Anna", "game": "myllymatti"}))[1] == (
            "blocked"
        )
        data = {"from": "Ben", "game": "mattis", "challenge": "x"}
        send(guest, account_id(anna), "challenge", data, sender=account_id(ben))
        assert notices(anna)["unread"] == 0
        send(guest, account_id(anna), "your_turn", {"table": "t1"})  # no sender: the server's
        assert notices(anna)["unread"] == 1


class Inbox:
    """The messages a local SMTP server received."""

    def __init__(self) -> None:
        self.messages: list[Any] = []

    async def handle_DATA(self, _server: Any, _session: Any, envelope: Any) -> str:
        self.messages.append(envelope)
        return "250 OK"


def wait_for(inbox: Inbox, count: int) -> None:
    """Until the inbox holds ``count`` messages (bounded; never a timing check)."""
    deadline = time.monotonic() + 15
    while len(inbox.messages) < count and time.monotonic() < deadline:
        time.sleep(0.02)


def free_port() -> int:
    """A TCP port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_email_through_a_local_smtp_server(tmp_path: Path) -> None:
    inbox = Inbox()
    port = free_port()
    server = Controller(inbox, hostname="127.0.0.1", port=port)
    server.start()
    try:
        env = {
            "TIKKI_SMTP_HOST": "127.0.0.1",
            "TIKKI_SMTP_PORT": str(port),
            "TIKKI_SMTP_STARTTLS": "0",
            "TIKKI_SMTP_FROM": "tikki@example.org",
            "TIKKI_SITE_URL": "https://cards.example.org/",
        }
        with client(tmp_path) as guest:
            anna, ben = person(guest.app, "Anna"), person(guest.app, "Ben")
            notifier = app_state(anna).notices
            notifier.smtp = SmtpSettings.from_env(env)
            headers = {**csrf(anna), "Accept-Language": "fi"}
            bad = anna.post("/api/notices/email", json={"address": "anna"}, headers=headers)
            assert error_of(bad)[:2] == (400, "bad_email") and "anna" in error_of(bad)[2]
            r = anna.post("/api/notices/email", json={"address": "anna@example.org"},
                          headers=headers)  # fmt: skip
            assert r.json() == {"address": "anna@example.org", "wanted": True, "mail": True}
            assert ben.get("/api/notices/email").json()["address"] is None  # never another's
            assert "anna@example.org" not in ben.get("/api/friends").text
            send(guest, account_id(anna), "your_turn", {"table": "t5", "game": "mattis"})
            send(guest, account_id(ben), "your_turn", {"table": "t5", "game": "mattis"})  # no mail
            settle(guest)
            wait_for(inbox, 1)
            assert len(inbox.messages) == 1
            mail = inbox.messages[0]
            assert mail.rcpt_tos == ["anna@example.org"]
            parsed = message_from_bytes(mail.content, policy=default)
            assert parsed["Subject"] == "tikki: sinun siirtosi pöydässä t5"  # Anna's language
            body = parsed.get_body()
            assert body is not None and "https://cards.example.org/t/t5" in body.get_content()
            # the next turn at the same table, still unread: no second mail
            send(guest, account_id(anna), "your_turn", {"table": "t5", "game": "mattis"})
            settle(guest)
            assert notices(anna)["unread"] == 1 and len(inbox.messages) == 1
            # a server whose SMTP does not answer logs, and the notice is still stored
            notifier.smtp = SmtpSettings("127.0.0.1", 1, "tikki@example.org", starttls=False)
            send(guest, account_id(anna), "tournament_start", {"name": "Cup"})
            settle(guest)
            assert notices(anna)["unread"] == 2 and len(inbox.messages) == 1
    finally:
        server.stop()


def test_email_is_off_by_default() -> None:
    assert SmtpSettings.from_env({}) is None
    on = SmtpSettings.from_env({"TIKKI_SMTP_HOST": "mail.example.org"})
    assert on is not None and on.port == 587 and on.starttls


def test_postgres_notices(postgres_url: str) -> None:
    app = create_app(postgres_url, bot_delay=0)
    with TestClient(app) as guest:
        anna, ben = person(guest.app, "Anna"), person(guest.app, "Ben")
        with anna.websocket_connect("/ws/account") as ws:
            assert ws.receive_json()["type"] == "friends"
            r = call(ben, "/challenges", {"name": "Anna", "game": "myllymatti"})
            assert r.status_code == 201, r.text
            assert receive_notice(ws)["notice"]["data"]["from"] == "Ben"
        send(guest, account_id(anna), "your_turn", {"table": "t1", "game": "mattis"})
        send(guest, account_id(anna), "your_turn", {"table": "t1", "game": "mattis"})
        assert notices(anna)["unread"] == 2
        r = anna.post("/api/notices/read", json={"ids": None}, headers=csrf(anna))
        assert r.json()["unread"] == 0
        r = anna.post("/api/notices/email", json={"address": "a@example.org"}, headers=csrf(anna))
        assert r.json()["address"] == "a@example.org"
        mine, store = account_id(anna), app_state(guest).notices.store
        assert store.newest(mine) > 0
        r = anna.post("/api/account/delete", json={"password": PASSWORD}, headers=csrf(anna))
        assert r.status_code == 200, r.text  # the notices and the address go with the account
        assert store.newest(mine) == 0 and store.email(mine)["address"] is None


@pytest.mark.timeout(90)
def test_a_notice_stored_by_one_process_reaches_a_socket_on_another(
    postgres_url: str, no_polling: None
) -> None:
    """Two processes of a cluster: a notice stored by process a reaches Anna's socket
    open on process b at once (``NOTIFY tikki_notices``), with no timer to read it."""
    app_a = create_app(postgres_url, bot_delay=0, cluster=True, node="a")
    app_b = create_app(postgres_url, bot_delay=0, cluster=True, node="b")
    with TestClient(app_a) as on_a, TestClient(app_b) as on_b:
        anna = person(on_a.app, "Anna")
        on_b.cookies.update(anna.cookies)  # her browser, its socket served by b
        with on_b.websocket_connect("/ws/account") as ws:
            assert ws.receive_json()["type"] == "friends"
            send(on_a, account_id(anna), "tournament_start", {"tournament": "c", "name": "Cup"})
            got = receive_notice(ws)
            assert got["notice"]["data"]["name"] == "Cup" and got["unread"] == 1


def test_each_kind_has_its_mail() -> None:
    site = "https://cards.example.org"
    subject, body = subject_and_body("tournament_start", {"tournament": "c1", "name": "Cup"}, site)
    assert "Cup" in body and f"{site}/tournaments/c1" in body and subject
    subject, body = subject_and_body("challenge", {"from": "Ben", "game": "mattis"}, site)
    assert "Ben" in subject and "mattis" in body and body.rstrip().endswith(site)
    subject, body = subject_and_body("your_turn", {"table": "t7", "title": "Mattis"}, "")
    assert "t7" in subject and "Mattis" in body and "http" not in body


def turn_waiting(guest: TestClient, days: Any) -> tuple[str, TestClient, str]:
    """A correspondence table after its first move, its ``your_turn`` notice settled:
    the table's id, the person now to move (a client) and their seat's token."""
    from tests.test_server_correspondence import on_loop, play_once, seated

    table_id, people = seated(guest, days)
    mover = guest.get(f"/api/tables/{table_id}/state").json()["table"]["to_act"]
    play_once(guest, table_id, people, 0)
    on_loop(guest, app_state(guest).manager.moves.ledger.on_turn.settle)
    waiting, token = people[1 - mover]
    return table_id, waiting, token


def test_opening_the_table_marks_its_your_turn_read(tmp_path: Path) -> None:
    """A correspondence table's ``your_turn`` notice is marked read when its person
    opens that table (its seat's socket); another table's notice stays unread, and a
    watcher marks nothing."""
    from tests.test_server_correspondence import Days, server

    days = Days()
    with server(tmp_path, days) as guest:
        table_id, waiting, token = turn_waiting(guest, days)
        me = account_id(waiting)
        send(guest, me, "your_turn", {"table": "elsewhere", "game": "mattis"})

        def unread() -> list[str]:
            found = notices(waiting)["notices"]
            turns = [n for n in found if n["kind"] == "your_turn" and not n["read"]]
            return sorted(n["data"]["table"] for n in turns)

        assert unread() == sorted([table_id, "elsewhere"])
        with waiting.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "hello"})  # watching: not the seat
            assert ws.receive_json()["type"] == "state"
        assert unread() == sorted([table_id, "elsewhere"])
        with waiting.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "hello", "token": token})
            assert ws.receive_json()["type"] == "state"
        assert unread() == ["elsewhere"]


def receive_read(ws: Any) -> dict[str, Any]:
    """The next ``notices_read`` message of an account socket (others skipped)."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "notices_read":
            return message


@pytest.mark.timeout(60)
def test_marked_read_reaches_every_open_page_at_once(tmp_path: Path, no_polling: None) -> None:
    """Anna's notices marked read on one page (``POST /api/notices/read``) reach her
    other open pages at once: the unread count and which notices are still unread,
    with no timer to read them (the test fails by its timeout if one waits for one)."""
    with client(tmp_path) as guest:
        anna = person(guest.app, "Anna")
        anna.portal = guest.portal
        me = account_id(anna)
        with (
            anna.websocket_connect("/ws/account") as first,
            anna.websocket_connect("/ws/account") as second,
        ):
            for ws in (first, second):  # opened: the list, then the read state (none)
                assert ws.receive_json()["type"] == "friends"
                assert receive_read(ws)["unread"] == 0
            ids = []
            for name in ("Cup", "Bowl"):
                send(guest, me, "tournament_start", {"tournament": "c", "name": name})
                ids.append(receive_notice(first)["notice"]["id"])
                receive_notice(second)
            r = anna.post("/api/notices/read", json={"ids": ids[:1]}, headers=csrf(anna))
            assert r.status_code == 200 and r.json()["unread"] == 1
            for ws in (first, second):
                got = receive_read(ws)
                assert got["unread"] == 1 and got["unread_ids"] == ids[1:]
            anna.post("/api/notices/read", json={"ids": None}, headers=csrf(anna))
            for ws in (first, second):
                assert receive_read(ws) == {"type": "notices_read", "unread": 0, "unread_ids": []}


@pytest.mark.timeout(60)
def test_opening_the_table_clears_the_bell_of_the_other_pages(
    tmp_path: Path, no_polling: None
) -> None:
    """The person to move opens the correspondence table: their lobby's account socket
    learns at once that the table's ``your_turn`` notice is read."""
    from tests.test_server_correspondence import Days, server

    days = Days()
    with server(tmp_path, days) as guest:
        table_id, waiting, token = turn_waiting(guest, days)
        with waiting.websocket_connect("/ws/account") as lobby:
            assert lobby.receive_json()["type"] == "friends"
            assert receive_read(lobby)["unread"] == notices(waiting)["unread"] >= 1
            with waiting.websocket_connect(f"/ws/tables/{table_id}") as ws:
                ws.send_json({"type": "hello", "token": token})
                assert ws.receive_json()["type"] == "state"
                got = receive_read(lobby)
            assert got["unread"] == notices(waiting)["unread"]
            turns = [n["id"] for n in notices(waiting)["notices"] if n["kind"] == "your_turn"]
            assert not set(turns) & set(got["unread_ids"])


@pytest.mark.timeout(90)
def test_read_on_one_process_reaches_a_socket_on_another(
    postgres_url: str, no_polling: None
) -> None:
    """A cluster: Anna marks her notices read through process a; her page whose socket
    process b serves learns it at once (``NOTIFY tikki_notices``)."""
    app_a = create_app(postgres_url, bot_delay=0, cluster=True, node="a")
    app_b = create_app(postgres_url, bot_delay=0, cluster=True, node="b")
    with TestClient(app_a) as on_a, TestClient(app_b) as on_b:
        anna = person(on_a.app, "Anna")
        anna.portal = on_a.portal
        on_b.cookies.update(anna.cookies)
        with on_b.websocket_connect("/ws/account") as ws:
            assert ws.receive_json()["type"] == "friends"
            assert receive_read(ws)["unread"] == 0  # the read state it opens with, first:
            # a notice stored before it would come with a read state of its own (unread 1)
            send(on_a, account_id(anna), "tournament_start", {"tournament": "c", "name": "Cup"})
            assert receive_notice(ws)["unread"] == 1
            r = anna.post("/api/notices/read", json={"ids": None}, headers=csrf(anna))
            assert r.status_code == 200, r.text
            assert receive_read(ws)["unread"] == 0


@pytest.mark.timeout(60)
def test_a_socket_tells_the_read_state_when_it_opens(tmp_path: Path, no_polling: None) -> None:
    """A page reads its list, then opens its account socket; a notice read in between
    (the table page marks its ``your_turn`` read as it opens) would stay unread on it:
    the socket's first word after the friends' list is the read state as it is now."""
    with client(tmp_path) as guest:
        anna = person(guest.app, "Anna")
        anna.portal = guest.portal
        me = account_id(anna)
        send(guest, me, "tournament_start", {"tournament": "c", "name": "Cup"})
        send(guest, me, "tournament_start", {"tournament": "c", "name": "Bowl"})
        first, second = (n["id"] for n in notices(anna)["notices"])  # the page's list
        anna.post("/api/notices/read", json={"ids": [second]}, headers=csrf(anna))
        with anna.websocket_connect("/ws/account") as ws:
            assert ws.receive_json()["type"] == "friends"
            got = ws.receive_json()
            assert got == {"type": "notices_read", "unread": 1, "unread_ids": [first]}
