"""The operator's logs (tikki/server/logs.py): JSON lines with the time, level, process
name and (where there is one) table id, and an access log."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx

from tikki.server.logs import JsonFormatter


def test_a_record_about_a_table_is_one_json_line() -> None:
    record = logging.LogRecord("tikki.server", logging.INFO, __file__, 1, "took over %s",
                               ("ab12cd34",), None)  # fmt: skip
    record.table = "ab12cd34"
    line = json.loads(JsonFormatter("node1").format(record))
    assert line["level"] == "INFO" and line["process"] == "node1"
    assert line["table"] == "ab12cd34" and line["message"] == "took over ab12cd34"
    assert line["time"].endswith("Z") and "T" in line["time"]


def test_a_served_request_is_in_the_access_log_as_json(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "tikki.cli", "serve", "--port", "0"]
    command += ["--db", f"sqlite:///{tmp_path / 'web.sqlite'}"]
    env = {**os.environ, "TIKKI_LOG": "json"}
    errors = (tmp_path / "err.log").open("w")
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, text=True, env=env) as p:
        assert p.stdout is not None
        url = p.stdout.readline().split(": ", 1)[1].strip()
        assert httpx.get(f"{url}api/tables", timeout=30).status_code == 200
        p.send_signal(signal.SIGTERM)
        p.wait(30)
    errors.close()
    lines = [json.loads(line) for line in (tmp_path / "err.log").read_text().splitlines()]
    assert lines, "no log lines"
    for line in lines:
        assert {"time", "level", "process", "logger", "message"} <= set(line), line
    access = [line for line in lines if line["logger"] == "uvicorn.access"]
    assert any(a["path"] == "/api/tables" and a["status"] == 200 for a in access), access
    assert any(line["level"] == "INFO" for line in lines if line["logger"].startswith("tikki"))
