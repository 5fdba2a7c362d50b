"""The front end's files: ``/`` (lobby), ``/t/{id}`` (table page), ``/rules/{game}``
(a game's rules, rendered from its markdown on the server) and ``/static/*``.

They live in ``tikki/web/`` (written separately); a small placeholder page stands in for a
page that is not there, so the server runs without them.
"""

from __future__ import annotations

import html
import mimetypes
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse, Response
from markdown_it import MarkdownIt

from tikki.core import RulesError, game_class
from tikki.i18n import _
from tikki.server.errors import ApiError

WEB_ROOT = Path(__file__).resolve().parent.parent / "web"
"""Where the front end's files are."""

PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tikki web table</title></head>
<body><h1>tikki web table</h1>
<p>The browser front end ({page}) is not installed. The API is described at
<a href="/docs">/docs</a>.</p></body></html>
"""


RULES_PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{title} rules · tikki</title>
  <link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/static/style.css">
</head>
<body class="rules-page">
  <header class="topbar">
    <a class="brand" href="/" aria-label="tikki lobby">tikki</a>
    <h1>{title}: the rules</h1>
    <a class="phase" href="/">back to the lobby</a>
  </header>
  <main class="rules panel">
{body}
  </main>
</body>
</html>
"""
"""The rules page around a game's rendered rules (style from the site's CSS, no script)."""

_MARKDOWN = MarkdownIt("commonmark", {"html": False})
"""Rules markdown to HTML; raw HTML in the text is escaped, never passed through."""


def rules_markdown(game: str) -> str:
    """The rules text (markdown) of a game; ``unknown_game`` (404) if there is none."""
    try:
        cls = game_class(game)
    except RulesError as err:
        raise ApiError("unknown_game", str(err)) from None
    return cls.rules_text


def rules_page(game: str) -> HTMLResponse:
    """A game's rules as an HTML page of the web table."""
    text = rules_markdown(game)
    title = html.escape(game_class(game).title)
    return HTMLResponse(RULES_PAGE.format(title=title, body=_MARKDOWN.render(text)))


def page(name: str) -> Response:
    """One of the front end's HTML pages, or the placeholder."""
    path = WEB_ROOT / name
    if path.is_file():
        return FileResponse(path, media_type="text/html")
    return HTMLResponse(PLACEHOLDER.format(page=name))


def static_file(path: str) -> Response:
    """A file under ``tikki/web/static``; 404 for anything outside it or missing."""
    root = (WEB_ROOT / "static").resolve()
    try:
        target = (root / path).resolve()
        found = target.is_relative_to(root) and target.is_file()
    except (OSError, ValueError):  # a NUL byte, a name over the system's limit
        found = False
    if not found:
        raise ApiError("not_found", _("no static file {path!r}", path=path[:100]))
    media_type, _encoding = mimetypes.guess_type(target.name)
    return FileResponse(target, media_type=media_type or "application/octet-stream")


def router() -> APIRouter:
    """The routes of the front end's pages and files."""
    routes = APIRouter(include_in_schema=False)

    @routes.get("/")
    async def lobby_page() -> Response:
        """The lobby."""
        return page("index.html")

    @routes.get("/t/{table_id}")
    async def table_page(table_id: str) -> Response:
        """A table's page (the page reads the table id from its URL)."""
        return page("table.html")

    @routes.get("/rules/{game}")
    async def rules(game: str) -> Response:
        """A game's rules page."""
        return rules_page(game)

    @routes.get("/static/{path:path}")
    async def static(path: str) -> Response:
        """The front end's scripts, styles and images."""
        return static_file(path)

    return routes


__all__ = [
    "PLACEHOLDER",
    "RULES_PAGE",
    "WEB_ROOT",
    "page",
    "router",
    "rules_markdown",
    "rules_page",
    "static_file",
]
