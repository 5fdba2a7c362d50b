"""The server's logs for an operator: one JSON object a line (``TIKKI_LOG=json``, the
default of ``tikki serve --cluster``) at INFO, with an access log; or, without
``--cluster``, uvicorn's plain lines at WARNING as before (``TIKKI_LOG=text`` chooses them
for a cluster too).

Each JSON line has ``time`` (UTC, ISO 8601 with milliseconds), ``level``, ``process``
(the node's name: ``--node``, default ``host:pid``), ``logger`` and ``message``; a line
about one table has ``table`` (its id); an error's traceback, if any, is in
``exception``.  An access line (logger ``uvicorn.access``) has ``client``, ``method``,
``path`` and ``status`` too.  Takeovers, handovers, lost locks, reconnects and database
errors are logged at INFO or above (:mod:`tikki.server.cluster`,
:mod:`tikki.server.tables.ownership`, :mod:`tikki.server.tables.storage`).
"""

from __future__ import annotations

import json
import logging
import os
from datetime import UTC, datetime
from typing import Any

ENV = "TIKKI_LOG"
"""The environment variable that chooses the format: ``json`` or ``text``."""
ACCESS_FIELDS = ("client", "method", "path", "http", "status")
"""The fields of uvicorn's access record's arguments, in its order."""


class JsonFormatter(logging.Formatter):
    """One JSON object a line, with the process's name in each."""

    def __init__(self, node: str = "") -> None:
        super().__init__()
        self.node = node

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line of JSON."""
        moment = datetime.fromtimestamp(record.created, UTC)
        line: dict[str, Any] = {
            "time": moment.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname,
            "process": self.node,
            "logger": record.name,
        }
        if record.name == "uvicorn.access" and isinstance(record.args, tuple):
            line.update(zip(ACCESS_FIELDS, record.args, strict=False))
            line["message"] = f"{line.get('method')} {line.get('path')} {line.get('status')}"
        else:
            line["message"] = record.getMessage()
        table = getattr(record, "table", None)
        if table is not None:
            line["table"] = str(table)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def wanted(cluster: bool) -> bool:
    """Whether the logs are JSON: ``TIKKI_LOG`` says, else ``--cluster`` does."""
    choice = os.environ.get(ENV, "").strip().lower()
    if choice in ("json", "text"):
        return choice == "json"
    return cluster


def config(node: str) -> dict[str, Any]:
    """The logging configuration (:func:`logging.config.dictConfig`) of JSON lines on
    standard error at INFO: tikki's loggers, uvicorn's and its access log."""
    handler = {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
    logger = {"handlers": ["json"], "level": "INFO", "propagate": False}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonFormatter, "node": node}},
        "handlers": {"json": handler},
        "loggers": {name: logger for name in ("tikki", "uvicorn", "uvicorn.access")}
        | {"uvicorn.error": {"level": "INFO"}},
        "root": {"handlers": ["json"], "level": "WARNING"},
    }


__all__ = ["ENV", "JsonFormatter", "config", "wanted"]
