"""The web front end's files: the pages are served and every file they reference exists.

Follows the lobby and the table page through their ``<script>``/``<link>`` references
and every ES module import (recursively), against the real app, in-process; no browser.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
from fastapi.testclient import TestClient  # noqa: E402

from tikki.server import create_app  # noqa: E402

WEB = Path(__file__).resolve().parents[1] / "tikki" / "web"
HTML_REF = re.compile(r"""(?:src|href)\s*=\s*["']([^"'#]+)["']""")
JS_IMPORT = re.compile(r"""(?:\bimport\b[^"';]*?\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']""")
CSS_URL = re.compile(r"""url\(\s*["']?([^"')]+)["']?\s*\)""")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("static") / "web.sqlite"
    with TestClient(create_app(f"sqlite:///{db}", bot_delay=0)) as c:
        yield c


def _resolve(base: str, ref: str) -> str:
    if ref.startswith("/"):
        return ref
    parts = base.rsplit("/", 1)[0].split("/")
    for piece in ref.split("/"):
        if piece == "..":
            parts.pop()
        elif piece != ".":
            parts.append(piece)
    return "/".join(parts)


def _crawl(client: TestClient, page: str) -> set[str]:
    """Every local file reachable from ``page``; asserts each one is served (200)."""
    seen: set[str] = set()
    todo = [page]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        r = client.get(path)
        assert r.status_code == 200, f"{path} -> {r.status_code} (from {page})"
        if path.endswith(".js"):
            assert "javascript" in r.headers["content-type"], (path, r.headers["content-type"])
            refs = JS_IMPORT.findall(r.text)
            if "import(`./render/${name}.js`)" in r.text:  # renderers.js: each game's own
                games = client.get("/api/games").json()["games"]
                refs += [f"./render/{name}.js" for name, g in games.items() if g["renderer"]]
        elif path.endswith(".css"):
            assert "text/css" in r.headers["content-type"]
            refs = [u for u in CSS_URL.findall(r.text) if not u.startswith("data:")]
        elif path.endswith((".svg", ".png", ".ico")):
            refs = []
        else:
            assert "text/html" in r.headers["content-type"]
            refs = HTML_REF.findall(r.text)
        for ref in refs:
            assert not re.match(r"^(https?:)?//", ref), f"{path} loads {ref} from the internet"
            if ref.startswith(("mailto:", "data:")) or ref in ("/",):
                continue
            if ref.startswith("/api/") or ref.startswith("/t/"):
                continue
            todo.append(_resolve(path, ref))
    return seen


def test_pages_and_their_files_are_served(client: TestClient) -> None:
    lobby = _crawl(client, "/")
    table = _crawl(client, "/t/anything")
    assert "/static/lobby.js" in lobby and "/static/style.css" in lobby
    assert "/static/table.js" in table and "/static/cards.js" in table
    assert {p for p in table if p.startswith("/static/render/")} >= {
        "/static/render/myllymatti.js",
        "/static/render/mattis.js",
        "/static/render/mueckenstich.js",
    }


def test_every_static_file_is_used(client: TestClient) -> None:
    """No stray files: everything under static/ is reached from a page."""
    used = _crawl(client, "/") | _crawl(client, "/t/x") | _crawl(client, "/replay/x")
    used |= _crawl(client, "/players/x") | _crawl(client, "/account")
    used |= {ref for ref in HTML_REF.findall(client.get("/docs").text) if "/static/" in ref}
    # i18n.js fetches the catalog of the page's language: each must be served
    assert "/static/i18n.js" in used
    for lang in ("en", "fi", "de", "pseudo"):
        catalog = f"/static/i18n/{lang}.json"
        assert client.get(catalog).json()["lang"] == lang
        used.add(catalog)
    files = {
        "/static/" + p.relative_to(WEB / "static").as_posix()
        for p in (WEB / "static").rglob("*")
        if p.is_file()
    }
    assert files - used == set()


def test_missing_static_file_is_404(client: TestClient) -> None:
    assert client.get("/static/nothing-here.js").status_code == 404
