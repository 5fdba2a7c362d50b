"""Security headers on every answer, and the API browser ``/docs`` served from local files.

Every HTTP answer gets a Content-Security-Policy that allows only the server's own origin
(no inline script, no other host, no framing), ``X-Content-Type-Options: nosniff`` and
``Referrer-Policy: no-referrer``.  ``/docs`` is Swagger UI 5 from the files of the pinned
``fastapi-offline`` package, started by ``/static/docs.js``: the origin where seat tokens
live loads no code from anywhere else.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tikki.i18n import _
from tikki.server.errors import ApiError

CSP = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
"""The Content-Security-Policy of every answer: own origin only, never framed."""

HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
)
"""The headers added to every HTTP answer."""


class SecurityHeaders:
    """ASGI middleware: add :data:`HEADERS` to every HTTP answer (errors included)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Run the app, adding the headers to its answer's start."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(n, v) for n, v in HEADERS if n not in names]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def swagger_ui_files() -> Path | None:
    """The folder of the installed Swagger UI's files (``None`` if it is not installed)."""
    try:
        folder = Path(str(resources.files("fastapi_offline") / "static"))
    except ModuleNotFoundError:
        return None
    return folder if folder.is_dir() else None


SWAGGER_FILES = {"swagger-ui-bundle.js", "swagger-ui.css"}
"""The Swagger UI files ``/docs`` loads."""

DOCS_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>tikki web table: API</title>
<link rel="icon" href="/static/favicon.svg">
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head><body><div id="swagger-ui"><p>The HTTP API is described by
<a href="/openapi.json">/openapi.json</a>; the WebSocket by docs/protocol.md.</p></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/static/docs.js"></script>
</body></html>
"""
"""The ``/docs`` page: Swagger UI and its start script, all from this server."""


docs_router = APIRouter(include_in_schema=False)
"""``/docs`` and the Swagger UI files it loads."""


@docs_router.get("/docs")
async def docs() -> HTMLResponse:
    """Swagger UI over ``/openapi.json``."""
    return HTMLResponse(DOCS_PAGE)


@docs_router.get("/docs/{name}")
async def docs_file(name: str) -> Response:
    """One of Swagger UI's files."""
    folder = swagger_ui_files()
    if folder is None or name not in SWAGGER_FILES:
        raise ApiError("not_found", _("no file {name!r} under /docs", name=name[:100]))
    media = "text/css" if name.endswith(".css") else "text/javascript"
    return FileResponse(folder / name, media_type=media)


__all__ = ["CSP", "DOCS_PAGE", "HEADERS", "SecurityHeaders", "docs_router", "swagger_ui_files"]
