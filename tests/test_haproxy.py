"""``deploy/haproxy.cfg``: HAProxy accepts the file as shipped (``haproxy -c -f``), and,
with its addresses pointed at two stand-in processes, routes as ``deploy/nginx.conf``
does: every request about a table to the same process, tables spread over both, the
client's address overwritten in ``X-Forwarded-For``, ``/metrics`` closed, a process's
``/metrics/PORT`` to that process, and a dead process's tables to the other one without
a 5xx.

Needs HAProxy (``.ci/services.sh`` installs Debian's); without it the test is skipped
loudly, except under ``CI=true``, where it fails.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tikki.server.cluster_run import ROOT, free_ports

CONFIG = ROOT / "deploy" / "haproxy.cfg"
STAND_IN = """
import json, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

class Answer(BaseHTTPRequestHandler):
    def do_GET(self):
        body = json.dumps({"name": sys.argv[2], "path": self.path,
                           "xff": self.headers.get("X-Forwarded-For")}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass

ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Answer).serve_forever()
"""


def haproxy_or_skip() -> str:
    """HAProxy's path; a loud skip (a failure under CI) without it."""
    path = shutil.which("haproxy") or "/usr/sbin/haproxy"
    if not os.path.exists(path):
        reason = "HAProxy is not installed: deploy/haproxy.cfg was NOT checked (.ci/services.sh)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return path


def render(text: str, listen: int, ports: list[int]) -> str:
    """The shipped file with its ``bind`` on ``listen`` and the processes on 8001, 8002
    moved to ``ports`` (the third one's lines dropped); nothing else changed."""
    out = text.replace("bind :80", f"bind 127.0.0.1:{listen}")
    for i, port in enumerate(ports, start=1):
        out = out.replace(f"800{i}", str(port))
    return "\n".join(line for line in out.splitlines() if "8003" not in line) + "\n"


def wait_port(url: str, timeout: float = 20) -> None:
    """Until ``url`` answers at all."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.05)
    raise AssertionError(f"{url} did not answer within {timeout} s")


@pytest.fixture
def proxy(tmp_path: Path) -> Iterator[tuple[str, list[subprocess.Popen[bytes]], list[int]]]:
    """HAProxy on a free port in front of two stand-ins: (its URL, the stand-ins, ports)."""
    haproxy = haproxy_or_skip()
    base = free_ports(3)
    ports = [base + 1, base + 2]
    stand_ins = [
        subprocess.Popen(
            [sys.executable, "-c", STAND_IN, str(port), f"node{i}"], stderr=subprocess.DEVNULL
        )
        for i, port in enumerate(ports, start=1)
    ]
    for port in ports:  # first the processes (a failed first check takes one out for 4 s)
        wait_port(f"http://127.0.0.1:{port}/healthz")
    conf = tmp_path / "haproxy.cfg"
    conf.write_text(render(CONFIG.read_text(), base, ports))
    running = subprocess.Popen(
        [haproxy, "-db", "-f", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        wait_port(f"http://127.0.0.1:{base}/healthz")
        yield f"http://127.0.0.1:{base}", stand_ins, ports
    finally:
        for proc in [running, *stand_ins]:
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)


def test_haproxy_accepts_the_shipped_configuration() -> None:
    haproxy = haproxy_or_skip()
    checked = subprocess.run([haproxy, "-c", "-f", str(CONFIG)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_haproxy_routes_tables_to_one_process_and_around_a_dead_one(
    proxy: tuple[str, list[subprocess.Popen[bytes]], list[int]],
) -> None:
    url, stand_ins, ports = proxy
    with httpx.Client(base_url=url, timeout=5) as http:

        def who(path: str, **headers: str) -> dict[str, str]:
            answer = http.get(path, headers=headers)
            assert answer.status_code == 200, (path, answer.status_code, answer.text)
            body: dict[str, str] = answer.json()
            return body

        owner = {}
        for n in range(40):
            table = f"{n:08x}"
            seen = {
                who(path)["name"]
                for path in (f"/t/{table}", f"/ws/tables/{table}", f"/api/tables/{table}/state")
                for _ in range(2)
            }
            assert len(seen) == 1, f"table {table}'s requests went to {seen}"
            owner[table] = seen.pop()
        assert set(owner.values()) == {"node1", "node2"}, "the tables were not spread"

        assert who("/api/tables", **{"X-Forwarded-For": "6.6.6.6"})["xff"] == "127.0.0.1"
        assert http.get("/metrics").status_code == 404
        scraped = who(f"/metrics/{ports[1]}")
        assert (scraped["name"], scraped["path"]) == ("node2", "/metrics")

        stand_ins[0].send_signal(signal.SIGKILL)
        stand_ins[0].wait(10)
        for table, name in owner.items():
            # the dead process's tables go to the other one at once, without a 5xx
            assert who(f"/api/tables/{table}/state")["name"] == "node2", (table, name)
