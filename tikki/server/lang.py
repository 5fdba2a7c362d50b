"""The language of each request: ``?lang=`` or ``Accept-Language`` (:func:`tikki.i18n.negotiate`).

:class:`LanguageMiddleware` runs every request and WebSocket in its language
(:func:`tikki.i18n.use`), so that error messages, the lobby's game summaries, option help
and bot levels come translated; API answers say which one with ``Content-Language``.
A WebSocket may change its language with the ``lang`` of its ``hello``.
"""

from __future__ import annotations

from urllib.parse import parse_qs

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tikki.i18n import negotiate, use


def scope_language(scope: Scope) -> str:
    """The language a request asks for: its ``lang`` query parameter, else its
    ``Accept-Language`` header, else English."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("lang", [None])[0]
    accept = None
    for name, value in scope.get("headers", ()):
        if name == b"accept-language":
            accept = value.decode("latin-1")
            break
    return negotiate(accept, query)


class LanguageMiddleware:
    """Run each request in its language and name it in ``Content-Language``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Handle one request or WebSocket in its language."""
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        lang = scope_language(scope)
        api = str(scope.get("path", "")).startswith("/api/")

        async def send_with_language(message: Message) -> None:
            if message["type"] == "http.response.start" and api:
                headers = list(message.get("headers", []))
                headers.append((b"content-language", lang.encode()))
                headers.append((b"vary", b"Accept-Language"))
                message = {**message, "headers": headers}
            await send(message)

        with use(lang):
            await self.app(scope, receive, send_with_language)


__all__ = ["LanguageMiddleware", "scope_language"]
