"""Shared test helpers: where the project's shared material lives; web-table fixtures."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import pytest

if TYPE_CHECKING:  # the web-table fixtures import the server (the web extra) only when used
    from tests._server import TestClient

# The tests speak English on any machine: the repository's conftest.py sets the locale.

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("TIKKI_SHARED", ROOT.parent / "shared"))
"""The project's shared folder (rules, playthroughs), beside the checkout as in CI."""


def shared_path(*parts: str) -> Path:
    """A path under ../shared; skips loudly locally, fails under CI, if it is missing."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        message = f"{path} is missing: the tests need the project's shared/ folder beside the repo"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


SLOW_FIRST = (
    "test_web_desktop.py",
    "test_web_phone.py",
    "test_web_e2e.py",
    "test_web_i18n_e2e.py",
    "test_web_rules_e2e.py",
    "test_web_memory.py",
    "test_web_profile_e2e.py",
    "test_cluster_proxy.py",
    "test_bidding_plugin.py",
    "test_light_install.py",
    "test_interop_mini.py",
)
"""The test files with the longest tests (CI's ``--durations``), the longest first."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the files whose tests drive Chromium first, then the other files of
    :data:`SLOW_FIRST`, then the rest; the files of :data:`SLOW_FIRST` in its order at the
    front of their group, each file's tests together and in order.

    ``make test`` deals the tests to two workers (``--dist worksteal``): an idle worker
    takes the back half of the other's queue, so with the longest tests at the front no
    worker is left alone with one of them at the end. Files that use the ``browser``
    fixture one after another share one Chromium (tests/test_web_e2e.py's ``Chromium``).
    The order is the same on every worker (a stable sort), as xdist needs.
    """
    here = Path(__file__).resolve().parent
    rank = {name: i for i, name in enumerate(SLOW_FIRST)}
    browsers = {item.path for item in items if "browser" in getattr(item, "fixturenames", ())}

    def key(item: pytest.Item) -> tuple[int, int]:
        order = rank.get(item.path.name, len(rank)) if item.path.parent == here else len(rank)
        if item.path in browsers:
            return (0, order)
        return (1 if order < len(rank) else 2, order)

    items.sort(key=key)


@pytest.fixture
def c(tmp_path: Path) -> Iterator[TestClient]:
    """An in-process web-table server on a fresh SQLite file, with its test client."""
    from tests._server import client

    with client(tmp_path) as test_client:
        yield test_client


@pytest.fixture
def duel(c: TestClient) -> dict[str, Any]:
    """A two-person Myllymatti table, both seats joined (seat 0 to act)."""
    from tests._server import create, join

    table = create(c, seed=11)["table"]
    tokens = [join(c, table["id"], 0, "Anna"), join(c, table["id"], 1, "Ben")]
    return {"id": table["id"], "tokens": tokens}


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A PostgreSQL URL whose search path is a fresh schema (dropped afterwards)."""
    url = os.environ.get("TIKKI_TEST_POSTGRES")
    if not url:
        reason = (
            "TIKKI_TEST_POSTGRES is not set: this PostgreSQL test did NOT run "
            "(set it to a server URL, e.g. the one .ci/services.sh prints)"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    import psycopg

    schema = f"tikki_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    joiner = "&" if "?" in url else "?"
    try:
        yield f"{url}{joiner}options={quote(f'-csearch_path={schema}')}"
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(autouse=True)
def _english_by_default() -> Iterator[None]:
    """Every test starts in English, whatever the machine's locale or an earlier test's
    ``--lang`` (a command sets the language of the context it runs in)."""
    from tikki import i18n

    i18n.activate("en")
    yield
    i18n.activate("en")
