"""tikki's web table server: HTTP API, WebSocket play, bots and storage.

``create_app()`` makes the ASGI app (FastAPI); ``tikki serve`` runs it under uvicorn.  The
wire protocol is ``docs/protocol.md``.  The server depends on the engine, never the
reverse.
"""

# ruff: noqa: E402  (the extra is checked before its imports)
from tikki.extras import require

require("web", "the web table (tikki.server)")

from tikki.server.app import create_app
from tikki.server.db import default_db_url

__all__ = ["create_app", "default_db_url"]
