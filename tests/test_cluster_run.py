"""``deploy/nginx.conf`` rendered for a set of processes (tikki/server/cluster_run.py): the
upstream's server lines and the listen line change, nothing else; nginx accepts the whole
configuration (``nginx -t``) that ``make cluster`` writes."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from tikki.server.cluster_run import (
    TEMPLATE,
    ClusterError,
    free_ports,
    nginx_main_config,
    render_nginx,
)


def test_the_template_is_rendered_for_the_given_processes() -> None:
    template = TEMPLATE.read_text()
    out = render_nginx(template, "127.0.0.1:9000", ["10.0.0.1:81", "10.0.0.2:82"])
    servers = [line.strip() for line in out.splitlines() if line.strip().startswith("server 1")]
    assert servers == [
        "server 10.0.0.1:81 max_fails=1 fail_timeout=5s;",
        "server 10.0.0.2:82 max_fails=1 fail_timeout=5s;",
    ]
    assert [line.strip() for line in out.splitlines() if "listen" in line.split("#")[0]] == [
        "listen 127.0.0.1:9000;"
    ]
    # the routing itself is the file's: the table map, the consistent hash, the failover
    for kept in (
        "~^/(?:t|ws/tables|api/tables)/(?<tikki_id>[^/]+)  $tikki_id;",
        "hash $tikki_route consistent;",
        "proxy_next_upstream error timeout http_502;",
        "proxy_set_header X-Forwarded-For $remote_addr;",
    ):
        assert kept in out
    assert "http_503" not in out  # tikki's own 503 takes no process out
    metrics = [line.strip() for line in out.splitlines() if line.strip().startswith("/metrics/")]
    assert metrics == ["/metrics/81  10.0.0.1:81;", "/metrics/82  10.0.0.2:82;"]
    assert len(out.splitlines()) == len(template.splitlines()) - 6 + 4


def test_a_template_without_its_lines_is_refused_clearly() -> None:
    with pytest.raises(ClusterError, match="exactly one listen line"):
        render_nginx("upstream tikki {\n    server 127.0.0.1:1;\n}\n", "80", ["127.0.0.1:2"])
    with pytest.raises(ClusterError, match="at least one tikki process"):
        render_nginx(TEMPLATE.read_text(), "80", [])


def test_free_ports_are_consecutive_and_free() -> None:
    import socket

    base = free_ports(4)
    for port in range(base, base + 4):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", port))


def test_nginx_accepts_the_configuration_make_cluster_writes(tmp_path: Path) -> None:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.path.exists(nginx):
        reason = "nginx is not installed: nginx -t did NOT run (.ci/services.sh installs it)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    base = free_ports(3)
    http = render_nginx(
        TEMPLATE.read_text(),
        f"127.0.0.1:{base}",
        [f"127.0.0.1:{base + 1}", f"127.0.0.1:{base + 2}"],
    )
    conf = tmp_path / "nginx.conf"
    conf.write_text(nginx_main_config(http, tmp_path))
    (tmp_path / "tmp").mkdir()
    command = [nginx, "-t", "-q", "-p", str(tmp_path), "-c", str(conf)]
    checked = subprocess.run([*command, "-e", str(tmp_path / "error.log")], capture_output=True)
    assert checked.returncode == 0, checked.stderr.decode()


def test_the_runner_restarts_a_process_that_died(tmp_path: Path) -> None:
    """``make cluster`` starts a dead process again (after a back-off) and says so."""
    import signal
    import sys

    from tikki.server.cluster_run import Cluster, Node, watch

    class Sleepers(Cluster):
        def command(self, node: Node) -> list[str]:
            return [sys.executable, "-c", "import time; time.sleep(600)"]

    cluster = Sleepers("postgresql://unused", nodes=2, workdir=tmp_path)
    cluster.members = [Node(f"node{i}", 1 + i, tmp_path / f"node{i}.log") for i in (1, 2)]
    for i in range(2):
        cluster.start_node(i, timeout=0)
    first = cluster.members[0].proc
    assert first is not None
    cluster.kill(0)
    said: list[str] = []
    rounds = iter(range(50))

    def pause(_seconds: float) -> None:
        if next(rounds, None) is None or (said and "restarted" in said[-1]):
            raise KeyboardInterrupt
        time.sleep(0.05)

    try:
        watch(cluster, pause=pause, say=said.append, first=0.1)
        again = cluster.members[0].proc
        assert again is not None and again is not first and again.poll() is None, said
        assert any("node1 stopped" in line and "restarting it in" in line for line in said), said
        assert "node1 restarted" in said[-1], said
    finally:
        for node in cluster.members:
            if node.proc is not None:
                node.proc.send_signal(signal.SIGKILL)
                node.proc.wait(10)
