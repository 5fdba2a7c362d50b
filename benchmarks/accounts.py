"""What accounts cost the server: Argon2id hashing and verifying, and a whole
login request (CSRF check, rate limits, Argon2 verify, new session) through the app.

    python benchmarks/accounts.py --repeat 10
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
from fastapi.testclient import TestClient  # noqa: E402

from tikki.server import create_app  # noqa: E402
from tikki.server.accounts import CSRF_COOKIE, HASHER  # noqa: E402

PASSWORD = "correct horse battery"


def timed(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median and max milliseconds of ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    stored = HASHER.hash(PASSWORD)
    rows = [
        ("argon2id hash", *timed(lambda: HASHER.hash(PASSWORD), args.repeat)),
        ("argon2id verify", *timed(lambda: HASHER.verify(stored, PASSWORD), args.repeat)),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(f"sqlite:///{Path(tmp) / 'web.sqlite'}", bot_delay=0)
        with TestClient(app) as c:
            accounts = app.state.accounts
            accounts.per_account.clock = accounts.per_address.clock = lambda: 0.0
            accounts.per_account.burst = accounts.per_address.burst = 1e9
            c.get("/api/account")
            headers = {"X-CSRF-Token": c.cookies[CSRF_COOKIE]}
            body = {"name": "Anna", "password": PASSWORD}
            assert c.post("/api/account/register", json=body, headers=headers).is_success

            def login() -> None:
                headers = {"X-CSRF-Token": c.cookies[CSRF_COOKIE]}
                assert c.post("/api/account/login", json=body, headers=headers).is_success

            rows.append(("POST /api/account/login", *timed(login, args.repeat)))
            rows.append(
                ("GET /api/account (signed in)", *timed(lambda: c.get("/api/account"), args.repeat))
            )
    print(f"{'operation':<30}{'median ms':>11}{'max ms':>9}")
    for name, median, most in rows:
        print(f"{name:<30}{median:>11.1f}{most:>9.1f}")


if __name__ == "__main__":
    main()
