"""The front end's files: ``/`` (lobby), ``/t/{id}`` (table page), ``/replay/{id}`` and
``/replay`` (a table's replay, an uploaded record's), ``/rules/{game}``
(a game's rules in English, Finnish or German, rendered from its markdown on the server)
and ``/static/*``.

They live in ``tikki/web/`` (written separately); a small placeholder page stands in for a
page that is not there, so the server runs without them.
"""

from __future__ import annotations

import html
import mimetypes
import re
from collections.abc import Awaitable, Callable, Mapping
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query
from fastapi.responses import FileResponse, HTMLResponse, Response
from markdown_it import MarkdownIt

from tikki.core import RulesError, game_class
from tikki.i18n import _, negotiate, spoken
from tikki.rules import DEFAULT_LANGUAGE, players_text, rules_text
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
<html lang="{lang}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{head}</title>
  <link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/static/style.css">
</head>
<body class="rules-page">
  <header class="topbar">
    <a class="brand" href="/" aria-label="tikki lobby">tikki</a>
    <h1>{heading}</h1>
    <a class="phase" href="/">{back}</a>
  </header>
  <nav class="rules-languages" aria-label="{languages}">{switch}</nav>
  <main class="rules panel">
{body}
  </main>
</body>
</html>
"""
"""The rules page around a game's rendered rules (style from the site's CSS, no script)."""

RULES_PAGE_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "head": "{title} rules · tikki",
        "heading": "{title}: the rules",
        "back": "back to the lobby",
        "languages": "Language",
    },
    "fi": {
        "head": "{title}: säännöt · tikki",
        "heading": "{title}: säännöt",
        "back": "takaisin aulaan",
        "languages": "Kieli",
    },
    "de": {
        "head": "{title}: Spielregeln · tikki",
        "heading": "{title}: die Spielregeln",
        "back": "zurück zur Lobby",
        "languages": "Sprache",
    },
}
"""The rules page's own words in each language of the rules (``{title}``: the game)."""

LANGUAGE_NAMES = {"en": "English", "fi": "Suomi", "de": "Deutsch"}
"""Each language of the rules in its own words, for the page's language links."""

_MARKDOWN = MarkdownIt("commonmark", {"html": False})
"""Rules markdown to HTML; raw HTML in the text is escaped, never passed through."""


def rules_markdown(game: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """A game's rules (markdown) in ``lang``; ``unknown_game`` (404) if there is no such game."""
    try:
        name = game_class(game).name
    except RulesError as err:
        raise ApiError("unknown_game", str(err)) from None
    return rules_text(name, lang)


def rules_page(game: str, lang: str = DEFAULT_LANGUAGE) -> HTMLResponse:
    """A game's rules in ``lang`` (one of :data:`tikki.rules.LANGUAGES`) as an HTML page,
    in players' words (:func:`tikki.rules.players_text`: no terminal or API spelling)."""
    rules_markdown(game, lang)  # an unknown game: 404
    text = players_text(game_class(game).name, lang)
    words = RULES_PAGE_WORDS[lang]
    title = html.escape(game_class(game).title)
    switch = " · ".join(
        f'<a href="/rules/{html.escape(game)}?lang={code}" hreflang="{code}" lang="{code}"'
        + (' aria-current="page"' if code == lang else "")
        + f">{name}</a>"
        for code, name in LANGUAGE_NAMES.items()
    )
    page = RULES_PAGE.format(
        lang=lang,
        head=words["head"].format(title=title),
        heading=words["heading"].format(title=title),
        back=words["back"],
        languages=words["languages"],
        switch=switch,
        body=_MARKDOWN.render(text),
    )
    return HTMLResponse(page, headers={"Vary": "Accept-Language"})


def page(name: str) -> Response:
    """One of the front end's HTML pages, or the placeholder."""
    path = WEB_ROOT / name
    if path.is_file():
        return FileResponse(path, media_type="text/html")
    return HTMLResponse(PLACEHOLDER.format(page=name))


def page_routes(path: str, name: str) -> APIRouter:
    """The page ``name`` served at ``/path`` and at ``/path/{id}`` (the page reads the id
    from its own address)."""
    routes = APIRouter(include_in_schema=False)

    async def serve() -> Response:
        return page(name)

    routes.add_api_route(f"/{path}", serve, methods=["GET"])
    routes.add_api_route(f"/{path}/{{item}}", serve, methods=["GET"])
    return routes


def has_renderer(game: str) -> bool:
    """Whether the web table has a renderer of the game's own, ``static/render/<game>.js``
    (tikki's, or the one its class declares, :func:`declared_renderer`); without one the
    table draws it with ``render/generic.js``."""
    own = (WEB_ROOT / "static" / "render" / f"{game}.js").is_file()
    return own or declared_renderer(game) is not None


def declared_renderer(game: str) -> Path | None:
    """The web renderer a game's class declares in its own package
    (:attr:`tikki.core.WebParts.renderer`, ``package:file``), if it is a file."""
    try:
        declared = game_class(game).web.renderer
    except RulesError:
        return None
    package, _sep, name = declared.partition(":")
    if not (package and name):
        return None
    try:
        path = Path(str(resources.files(package).joinpath(name)))
    except (ImportError, TypeError, ValueError):
        return None
    return path if path.is_file() else None


def with_renderers(described: Mapping[str, Any]) -> dict[str, Any]:
    """Each game's description (``tikki.games()``) with ``renderer``: :func:`has_renderer`."""
    return {name: {**info, "renderer": has_renderer(name)} for name, info in described.items()}


def static_file(path: str) -> Response:
    """A file under ``tikki/web/static``; 404 for anything outside it or missing."""
    root = (WEB_ROOT / "static").resolve()
    try:
        target = (root / path).resolve()
        found = target.is_relative_to(root) and target.is_file()
    except (OSError, ValueError):  # a NUL byte, a name over the system's limit
        found = False
    if not found:
        game = re.fullmatch(r"render/([a-z0-9_]+)\.js", path)
        declared = declared_renderer(game[1]) if game else None
        if declared is None:
            raise ApiError("not_found", _("no static file {path!r}", path=path[:100]))
        return FileResponse(declared, media_type="text/javascript")
    media_type, _encoding = mimetypes.guess_type(target.name)
    return FileResponse(target, media_type=media_type or "application/octet-stream")


router = APIRouter(include_in_schema=False)
"""The routes of the front end's pages and files."""


PAGES = {
    "/": "index.html",  # the lobby
    "/t/{table_id}": "table.html",  # a table (the page reads the table id from its URL)
    "/replay": "replay.html",  # the replay of a record the player uploads (or in the link)
    "/replay/{table_id}": "replay.html",  # a table's replay (?seat=N|all&at=K, read by the page)
}
"""The front end's pages by path: each path answers its HTML file (:func:`page`)."""


def _page_route(name: str) -> Callable[[], Awaitable[Response]]:
    async def answer() -> Response:
        return page(name)

    return answer


for _path, _name in PAGES.items():
    router.add_api_route(_path, _page_route(_name), methods=["GET"])


@router.get("/rules/{game}")
async def rules(
    game: str,
    lang: Annotated[str | None, Query()] = None,
    accept_language: Annotated[str | None, Header()] = None,
) -> Response:
    """A game's rules page in ``?lang=``, else the browser's language, else English."""
    return rules_page(game, spoken(negotiate(accept_language, lang)))


@router.get("/static/{path:path}")
async def static(path: str) -> Response:
    """The front end's scripts, styles and images."""
    return static_file(path)


__all__ = [
    "LANGUAGE_NAMES",
    "PLACEHOLDER",
    "RULES_PAGE",
    "RULES_PAGE_WORDS",
    "WEB_ROOT",
    "declared_renderer",
    "has_renderer",
    "page",
    "router",
    "rules_markdown",
    "rules_page",
    "static_file",
    "with_renderers",
]
