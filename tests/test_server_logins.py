"""What logins may cost: wrong passwords delay only their (account, address) pair, so
nobody elsewhere locks the owner out; one account's guesses from everywhere are capped;
the server takes a bounded number of attempts a second; password hashes run in a pool of
their own whose short queue refuses (503) when full.  No timing is asserted: the clocks
are the tests' own."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from tests._server import TestClient, app_state, client, error_of
from tests.test_server_accounts import PASSWORD, csrf, login, register
from tikki.server import logins
from tikki.server.errors import ApiError
from tikki.server.logins import FREE_FAILURES, Hashing, LoginLimits, delay


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def from_address(c: TestClient, host: str) -> TestClient:
    """A client of the same app at another address."""
    return TestClient(c.app, client=(host, 50000))


def clocked(c: TestClient) -> Clock:
    clock = Clock()
    accounts = app_state(c).accounts
    accounts.logins = LoginLimits(clock)
    accounts.per_address.clock = clock
    return clock


def test_wrong_passwords_elsewhere_never_lock_the_owner_out(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        clocked(c)
        assert register(from_address(c, "10.1.0.1"), "Anna").status_code == 201
        attacker = from_address(c, "10.9.9.9")
        codes = [error_of(login(attacker, "Anna", "wrong password!"))[1] for _ in range(8)]
        assert codes[:FREE_FAILURES] == ["wrong_password"] * FREE_FAILURES
        assert codes[FREE_FAILURES] == "rate_limited"  # the attacker's pair waits now
        # the owner, from their own address, signs in at once with the right password
        owner = from_address(c, "10.1.0.1")
        r = login(owner, "Anna")
        assert r.status_code == 200, r.text
        # and from a new address too: the attacker's failures are the attacker's
        assert login(from_address(c, "10.2.0.2"), "Anna").status_code == 200


def test_a_pairs_delays_grow_and_a_right_password_clears_them(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        clock = clocked(c)
        assert register(c, "Anna").status_code == 201
        guesser = from_address(c, "10.3.0.3")
        for _ in range(FREE_FAILURES):
            assert error_of(login(guesser, "Anna", "wrong password!"))[1] == "wrong_password"
        waits = []
        for _ in range(4):
            r = login(guesser, "Anna", "wrong password!")
            assert r.status_code == 429 and "wrong passwords" in error_of(r)[2]
            waits.append(int(r.headers["Retry-After"]))
            clock.now += waits[-1]
            assert error_of(login(guesser, "Anna", "wrong password!"))[1] == "wrong_password"
        assert waits == [1, 2, 4, 8]
        clock.now += 16
        assert login(guesser, "Anna").status_code == 200  # the right password clears it
        assert error_of(login(guesser, "Anna", "wrong password!"))[1] == "wrong_password"


def test_delays_double_up_to_their_cap() -> None:
    assert [delay(n) for n in range(FREE_FAILURES + 4)] == [0.0] * FREE_FAILURES + [1, 2, 4, 8]
    assert delay(1000) == logins.MAX_DELAY


def test_one_account_takes_a_capped_number_of_guesses_from_everywhere() -> None:
    clock = Clock()
    limits = LoginLimits(clock)
    limits.succeeded("anna", "10.1.0.1")  # the owner's address is known to the account
    cap = int(logins.ACCOUNT_FAILURES_PER_HOUR)
    guesses = 0
    with pytest.raises(ApiError) as refused:
        for i in range(2 * cap):  # a crowd: each address guesses once, under the server's rate
            address = f"10.{i // 250}.{i % 250}.9"
            limits.attempt("anna", address)
            limits.failed("anna", address)
            guesses += 1
            clock.now += 0.25
    assert cap <= guesses < cap + 10  # about the cap in the first minute, then it waits
    assert refused.value.code == "rate_limited"
    assert "signed in to it before" in refused.value.message
    limits.attempt("anna", "10.1.0.1")  # the owner's known address still may try
    limits.attempt("bert", "10.200.0.1")  # and other accounts are untouched


def test_the_server_takes_a_bounded_number_of_attempts_a_second() -> None:
    clock = Clock()
    limits = LoginLimits(clock)
    burst = int(logins.ATTEMPTS_PER_SECOND * 2)
    for i in range(burst):
        limits.attempt(None, f"10.0.0.{i}")
    with pytest.raises(ApiError) as refused:
        limits.attempt(None, "10.0.1.1")
    assert refused.value.code == "rate_limited" and refused.value.retry_after == 1
    clock.now += 1
    limits.attempt("anna", "10.0.1.1")


def test_registrations_share_the_servers_rate(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        clocked(c)
        burst = int(logins.ATTEMPTS_PER_SECOND * 2)
        codes = []
        for i in range(burst + 1):
            r = register(from_address(c, f"10.5.0.{i + 1}"), f"Name{i:02d}", "wrong password!")
            codes.append(r.status_code)
        assert codes[:burst] == [201] * burst and codes[burst] == 429


def test_the_hash_pool_refuses_when_its_queue_is_full() -> None:
    pool = Hashing(threads=1, queue=2)
    release = threading.Event()

    def slow() -> str:
        release.wait(10)
        return "done"

    async def run() -> list[object]:
        tasks = [asyncio.ensure_future(pool.run(slow)) for _ in range(3)]
        await asyncio.sleep(0)
        with pytest.raises(ApiError) as refused:
            await pool.run(slow)
        assert refused.value.code == "unavailable" and refused.value.status == 503
        assert refused.value.retry_after == logins.HASH_RETRY
        release.set()
        return list(await asyncio.gather(*tasks))

    assert asyncio.run(run()) == ["done"] * 3
    assert pool.pending == 0 and pool.refused == 1
    pool.stop()


def test_a_full_hash_queue_is_a_503_with_retry_after(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        clocked(c)
        accounts = app_state(c).accounts
        accounts.hashing.pending = accounts.hashing.threads + accounts.hashing.queue
        r = c.post(
            "/api/account/login", json={"name": "Anna", "password": PASSWORD}, headers=csrf(c)
        )
        status, code, message = error_of(r)
        assert (status, code) == (503, "unavailable") and "passwords" in message
        assert int(r.headers["Retry-After"]) >= 1
        accounts.hashing.pending = 0
