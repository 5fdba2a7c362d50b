"""Headers and third parties: every answer carries a strict
Content-Security-Policy, nosniff and no-referrer; ``/docs`` loads nothing from another
host; the seat token never travels in a URL (the WebSocket's ``hello`` carries it)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from tests._server import TestClient, socket

PATHS = [
    "/",
    "/t/abc",
    "/docs",
    "/docs/swagger-ui-bundle.js",
    "/docs/swagger-ui.css",
    "/static/table.js",
    "/static/docs.js",
    "/openapi.json",
    "/api/games",
    "/api/tables",
    "/api/tables/nosuch",
    "/static/nosuch.js",
    "/nosuch",
]


def directives(csp: str) -> dict[str, list[str]]:
    """A CSP header as {directive: sources}."""
    out = {}
    for part in csp.split(";"):
        name, *sources = part.split()
        out[name] = sources
    return out


@pytest.mark.parametrize("path", PATHS)
def test_every_answer_has_the_security_headers(c: TestClient, path: str) -> None:
    r = c.get(path)
    csp = directives(r.headers["content-security-policy"])
    assert csp["default-src"] == ["'self'"] and csp["script-src"] == ["'self'"]
    assert csp["frame-ancestors"] == ["'none'"] and csp["object-src"] == ["'none'"]
    for sources in csp.values():  # own origin only: no host, scheme or wildcard but data:
        assert all(s.startswith("'") or s == "data:" for s in sources), sources
        assert "'unsafe-inline'" not in sources and "'unsafe-eval'" not in sources
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"


def test_refusals_have_the_headers_too(c: TestClient) -> None:
    r = c.post("/api/tables", content=b"x" * 5000, headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.headers["x-content-type-options"] == "nosniff"
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]


REFERENCE = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']""")


def test_docs_load_nothing_from_another_host(c: TestClient) -> None:
    page = c.get("/docs")
    assert page.status_code == 200 and "swagger-ui" in page.text
    refs = REFERENCE.findall(page.text)
    assert refs and all(ref.startswith("/") and not ref.startswith("//") for ref in refs), refs
    assert "<script>" not in page.text and "cdn" not in page.text.lower()
    for ref in refs:
        assert c.get(ref).status_code == 200, ref
    assert "validatorUrl: null" in c.get("/static/docs.js").text
    assert c.get("/redoc").status_code == 404  # ReDoc loads from a CDN: not served
    assert c.get("/docs/index.html").status_code == 404


def test_the_pages_have_no_inline_script(c: TestClient) -> None:
    for path in ("/", "/t/abc", "/docs"):
        text = c.get(path).text
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), path
        assert not re.search(r"\son[a-z]+\s*=", text), path


def test_a_token_in_the_url_is_refused(c: TestClient, duel: dict[str, Any]) -> None:
    token = duel["tokens"][0]
    with c.websocket_connect(f"/ws/tables/{duel['id']}?token={token}") as ws:
        error = ws.receive_json()
        assert (
            error["code"] == "bad_token"
            and "never put the seat token in the URL" in (error["message"])
        )
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403


def test_the_hello_message_takes_the_seat(c: TestClient, duel: dict[str, Any]) -> None:
    with socket(c, duel["id"], duel["tokens"][1]) as ws:
        first = ws.receive_json()
        assert first["type"] == "state" and first["seat"] == 1 and first["view"]["hand"]
    with socket(c, duel["id"]) as ws:
        assert ws.receive_json()["seat"] is None


@pytest.mark.parametrize(
    "first",
    ['{"type": "sync"}', "hello", '{"type": "hello", "token": 5}', "[" * 1500 + "]" * 1500],
)
def test_a_socket_must_start_with_hello(c: TestClient, duel: dict[str, Any], first: str) -> None:
    with c.websocket_connect(f"/ws/tables/{duel['id']}") as ws:
        ws.send_text(first)
        error = ws.receive_json()
        assert error["code"] in ("bad_message", "bad_token") and "hello" in error["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code in (4400, 4403)
