"""``deploy/nginx.conf`` as nginx runs it, in front of two stand-in processes (small
HTTP servers that say who they are): a 503 of tikki's own (a table moving, the database
away) reaches the client and takes no process out of the rotation, and
``/metrics/PORT`` reads the process on PORT, for the allowed addresses only."""

from __future__ import annotations

import subprocess
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

from tests.test_cluster_proxy import nginx_or_skip
from tikki.server.cluster_run import TEMPLATE, free_ports, nginx_main_config, render_nginx


def stand_in(name: str, port: int) -> ThreadingHTTPServer:
    """A process that answers ``NAME PATH`` (503 with ``Retry-After`` for ``/busy``)."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = f"{name} {self.path}".encode()
            self.send_response(503 if self.path == "/busy" else 200)
            self.send_header("Retry-After", "1")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture
def proxy(tmp_path: Path) -> Iterator[tuple[str, list[int]]]:
    """nginx with ``deploy/nginx.conf`` on two stand-ins; (its URL, their ports)."""
    nginx = nginx_or_skip()
    base = free_ports(3)
    ports = [base + 1, base + 2]
    servers = [stand_in(f"p{port}", port) for port in ports]
    http = render_nginx(TEMPLATE.read_text(), f"127.0.0.1:{base}",
                        [f"127.0.0.1:{p}" for p in ports])  # fmt: skip
    conf = tmp_path / "nginx.conf"
    conf.write_text(nginx_main_config(http, tmp_path))
    (tmp_path / "tmp").mkdir()
    command = [nginx, "-p", str(tmp_path), "-c", str(conf), "-e", str(tmp_path / "error.log")]
    proc = subprocess.Popen(command, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{base}"
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                httpx.get(f"{url}/x", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        yield url, ports
    finally:
        proc.terminate()
        proc.wait(10)
        for server in servers:
            server.shutdown()


def test_a_503_of_tikki_reaches_the_client_and_drops_no_process(
    proxy: tuple[str, list[int]],
) -> None:
    url, _ports = proxy
    r = httpx.get(f"{url}/busy", timeout=10)
    assert r.status_code == 503 and r.headers["Retry-After"] == "1"
    answers = [httpx.get(f"{url}/api/tables/t{i}/state", timeout=10) for i in range(20)]
    assert [a.status_code for a in answers] == [200] * 20
    assert len({a.text.split()[0] for a in answers}) == 2  # both processes still serve


def test_each_process_metrics_through_the_proxy(proxy: tuple[str, list[int]]) -> None:
    url, ports = proxy
    for port in ports:
        r = httpx.get(f"{url}/metrics/{port}", timeout=10)
        assert r.status_code == 200 and r.text == f"p{port} /metrics", r.text
    assert httpx.get(f"{url}/metrics/1", timeout=10).status_code == 404  # not a process
    assert httpx.get(f"{url}/metrics", timeout=10).status_code == 404  # which one?


def test_metrics_are_refused_to_other_addresses() -> None:
    """The template allows only this machine (the operator adds Prometheus's address)."""
    text = TEMPLATE.read_text()
    block = text[text.index("location /metrics/ {") :]
    block = block[: block.index("}")]
    assert "deny all;" in block and "allow 127.0.0.1;" in block
