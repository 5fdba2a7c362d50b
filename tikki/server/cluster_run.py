"""``make cluster``: N ``tikki serve --cluster`` processes on one PostgreSQL behind nginx.

This is the cluster of ``docs/hosting.md`` on one machine, for trying it out and for the
tests and benchmarks: the PostgreSQL server of ``.ci/services.sh`` (which installs it and
nginx from Debian's packages when they are missing, and starts it), N tikki processes on
consecutive ports after the proxy's (8001, 8002, … for the proxy on 8000), and an nginx
of its own, run as the current user with its own prefix directory and the configuration
``deploy/nginx.conf`` rendered for those processes (:func:`render_nginx`). It prints the
URL, runs until Ctrl-C (or SIGTERM), then stops the tikki processes (a deliberate stop
hands their tables over) and nginx.

Run: ``make cluster`` (3 processes) or ``make cluster N=2 ARGS='--port 9000'``, that is
``python -m tikki.server.cluster_run --nodes N [--port P] [--db URL] [--bot-delay S]
[--workdir DIR] [-- serve options…]``.

:class:`Cluster` is the same set-up as a context manager (``tests/test_cluster_proxy.py``,
``benchmarks/cluster.py``): it can kill one process (``kill -9``) and start it again.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Annotated

import typer

from tikki.commandline import fail, run

ROOT = Path(__file__).resolve().parents[2]
"""The repository (``deploy/``, ``.ci/`` live beside the package)."""
TEMPLATE = ROOT / "deploy" / "nginx.conf"
"""The proxy's configuration, as a file in the repository (production uses it as is)."""
SERVICES = ROOT / ".ci" / "services.sh"
"""Installs and starts PostgreSQL (and nginx, Chromium); prints the database URL last."""

_UPSTREAM_SERVER = re.compile(r"^(\s*)server\s+(\S+?)((?:\s+[^\s;{]+)*)\s*;\s*(#.*)?$")
_LISTEN = re.compile(r"^(\s*)listen\s+[^;]+;\s*(#.*)?$")
_METRICS = re.compile(r"^(\s*)/metrics/\S+\s+\S+\s*;\s*(#.*)?$")


class ClusterError(Exception):
    """The cluster cannot start (no nginx, a process that does not come up, …)."""


def render_nginx(template: str, listen: str, backends: Sequence[str]) -> str:
    """``template`` (``deploy/nginx.conf``) with the upstream's ``server`` lines replaced by
    one line per address of ``backends`` (keeping the first line's parameters), the
    metrics map's ``/metrics/PORT ADDRESS;`` lines likewise, and the ``listen`` line by
    ``listen``; everything else as written."""
    if not backends:
        raise ClusterError("the proxy needs at least one tikki process")
    out: list[str] = []
    servers = listens = metrics = 0
    for line in template.splitlines():
        found = _METRICS.match(line)
        if found:
            metrics += 1
            if metrics == 1:
                out += [f"{found.group(1)}/metrics/{a.rsplit(':', 1)[-1]}  {a};" for a in backends]
            continue
        server = _UPSTREAM_SERVER.match(line)
        if server:
            servers += 1
            if servers == 1:
                indent, params = server.group(1), server.group(3)
                out += [f"{indent}server {address}{params};" for address in backends]
            continue
        found = _LISTEN.match(line)
        if found:
            listens += 1
            out.append(f"{found.group(1)}listen {listen};")
            continue
        out.append(line)
    if servers == 0 or listens != 1:
        raise ClusterError(
            f"the nginx template has {servers} upstream server lines and {listens} listen "
            "lines: it needs at least one of the first and exactly one listen line"
        )
    return "\n".join(out) + "\n"


def nginx_main_config(http: str, prefix: Path) -> str:
    """A whole nginx configuration around ``http`` (the rendered template) that runs in
    the foreground with every file it writes under ``prefix`` (no root, no port 80)."""
    temp = prefix / "tmp"
    paths = "".join(
        f"    {kind}_temp_path {temp / kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    body = "".join(f"    {line}\n" if line else "\n" for line in http.splitlines())
    return (
        "# Written by tikki/server/cluster_run.py from deploy/nginx.conf.\n"
        "daemon off;\n"
        "worker_processes 1;\n"
        f"pid {prefix / 'nginx.pid'};\n"
        f"error_log {prefix / 'nginx-error.log'} warn;\n"
        "events {\n    worker_connections 4096;\n}\n"
        "http {\n"
        "    access_log off;\n"
        f"{paths}"
        f"{body}"
        "}\n"
    )


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nothing listens on now."""
    with socket.socket() as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def free_ports(count: int, host: str = "127.0.0.1") -> int:
    """The first of ``count`` consecutive ports that nothing listens on now (for the proxy
    and its processes in tests and benchmarks)."""
    for _ in range(100):
        base = free_port(host)
        if base + count >= 65536:
            continue
        try:
            with contextlib.ExitStack() as held:
                for port in range(base, base + count):
                    sock = held.enter_context(socket.socket())
                    sock.bind((host, port))
            return base
        except OSError:
            continue
    raise ClusterError(f"found no {count} free consecutive ports")


def postgres_url() -> str:
    """The database of ``.ci/services.sh`` (installs and starts PostgreSQL if needed)."""
    try:
        done = subprocess.run(
            ["bash", str(SERVICES)], check=True, stdout=subprocess.PIPE, text=True
        )
    except (OSError, subprocess.CalledProcessError) as err:
        raise ClusterError(f"{SERVICES} could not start PostgreSQL: {err}") from None
    lines = done.stdout.strip().splitlines()
    if not lines or not lines[-1].startswith("postgresql://"):
        raise ClusterError(f"{SERVICES} printed no PostgreSQL URL")
    return lines[-1]


def get(url: str, timeout: float = 1.0) -> int:
    """The status of ``GET url`` (0: no answer)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as err:
        return int(err.code)
    except (OSError, ValueError):
        return 0


@dataclass
class Node:
    """One tikki process of the cluster."""

    name: str
    port: int
    log: Path
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """Its own URL (not through the proxy)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def alive(self) -> bool:
        """Whether the process runs."""
        return self.proc is not None and self.proc.poll() is None


@dataclass
class Cluster:
    """PostgreSQL at ``db``, ``nodes`` tikki processes on the ports after ``port``, and
    nginx on ``port`` in front of them; files (logs, nginx's) under ``workdir``."""

    db: str
    nodes: int = 3
    port: int = 8000
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="tikki-cluster-")))
    serve_args: Sequence[str] = ()
    bot_delay: float = 0.6
    nginx: str = field(default_factory=lambda: shutil.which("nginx") or "/usr/sbin/nginx")
    clustered: bool = True
    """``--cluster`` (``False``: one plain process, for a benchmark's baseline)."""
    members: list[Node] = field(default_factory=list)
    proxy: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The proxy's URL: where people go."""
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60) -> None:
        """Start the tikki processes (the first alone: it creates the schema), then nginx;
        return when each answers its health check through its own port and the proxy
        answers too."""
        if not Path(self.nginx).exists():
            raise ClusterError(
                f"nginx is not installed ({self.nginx}): run `bash {SERVICES}` "
                "(it installs Debian's nginx)"
            )
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.members = [
            Node(f"node{i}", self.port + i, self.workdir / f"node{i}.log")
            for i in range(1, self.nodes + 1)
        ]
        self.start_node(0, timeout)
        for i in range(1, self.nodes):
            self.start_node(i, timeout=0)
        for node in self.members[1:]:
            self.wait_node(node, timeout)
        self.start_proxy(timeout)

    def command(self, node: Node) -> list[str]:
        """The ``tikki serve`` command line of ``node``."""
        cmd = [sys.executable, "-m", "tikki.cli", "serve", "--host", "127.0.0.1"]
        cmd += ["--port", str(node.port), "--db", self.db, "--bot-delay", str(self.bot_delay)]
        cmd += ["--forwarded-allow-ips", "127.0.0.1"]  # the proxy's address
        if self.clustered:
            cmd += ["--cluster", "--node", node.name]
        return [*cmd, *self.serve_args]

    def start_node(self, index: int, timeout: float = 60) -> Node:
        """Start process ``index`` (again, after :meth:`kill`); wait for it unless
        ``timeout`` is 0."""
        node = self.members[index]
        with node.log.open("ab") as log:
            node.proc = subprocess.Popen(
                self.command(node), stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        if timeout:
            self.wait_node(node, timeout)
        return node

    def wait_node(self, node: Node, timeout: float) -> None:
        """Wait until ``node`` answers ``/healthz`` with 200."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not node.alive:
                raise ClusterError(f"{node.name} stopped at start:\n{tail(node.log)}")
            if get(f"{node.url}/healthz") == 200:
                return
            time.sleep(0.1)
        raise ClusterError(f"{node.name} did not answer within {timeout:g} s:\n{tail(node.log)}")

    def start_proxy(self, timeout: float = 30) -> None:
        """Write nginx's configuration, check it (``nginx -t``) and start nginx."""
        backends = [f"127.0.0.1:{node.port}" for node in self.members]
        http = render_nginx(TEMPLATE.read_text(), f"127.0.0.1:{self.port}", backends)
        conf = self.workdir / "nginx.conf"
        conf.write_text(nginx_main_config(http, self.workdir))
        (self.workdir / "tmp").mkdir(exist_ok=True)
        base = [self.nginx, "-p", str(self.workdir), "-c", str(conf)]
        base += ["-e", str(self.workdir / "nginx-error.log")]
        check = subprocess.run([*base, "-t", "-q"], capture_output=True, text=True)
        if check.returncode != 0:
            raise ClusterError(f"nginx refused {conf}: {check.stderr.strip()}")
        log = (self.workdir / "nginx.out").open("ab")
        with log:
            self.proxy = subprocess.Popen(
                base, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proxy.poll() is not None:
                raise ClusterError(
                    f"nginx stopped at start:\n{tail(self.workdir / 'nginx-error.log')}"
                )
            if get(f"{self.url}/healthz") == 200:
                return
            time.sleep(0.1)
        raise ClusterError(f"nginx did not answer on {self.url} within {timeout:g} s")

    def kill(self, index: int, sig: int = signal.SIGKILL) -> Node:
        """Send ``sig`` (default: ``kill -9``) to process ``index`` and reap it."""
        node = self.members[index]
        if node.proc is not None and node.proc.poll() is None:
            node.proc.send_signal(sig)
            node.proc.wait(30)
        return node

    def stop(self) -> None:
        """Stop the tikki processes (SIGTERM: a deliberate stop hands the tables over),
        then nginx (SIGQUIT: after the open requests); kill what does not stop in time."""
        for node in self.members:
            if node.alive and node.proc is not None:
                node.proc.terminate()
        for node in self.members:
            _reap(node.proc, 20)
        if self.proxy is not None and self.proxy.poll() is None:
            self.proxy.send_signal(signal.SIGQUIT)
        _reap(self.proxy, 10)

    def __enter__(self) -> Cluster:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        err: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()


def _reap(proc: subprocess.Popen[bytes] | None, grace: float) -> None:
    if proc is None:
        return
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


def tail(path: Path, lines: int = 20) -> str:
    """The last ``lines`` lines of a log file ('' when there is none)."""
    with contextlib.suppress(OSError):
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    return ""


PROG = "python -m tikki.server.cluster_run"
"""How the command is called (``make cluster`` calls it)."""

app = typer.Typer(name=PROG, add_completion=False, rich_markup_mode="rich")


def main(argv: Sequence[str] | None = None) -> int:
    """``make cluster``: start everything, print the URL, run until Ctrl-C or SIGTERM."""

    return run(app, argv, PROG)


@app.command(help=__doc__.split("\n\n")[0])
def cluster_command(
    nodes: Annotated[
        int, typer.Option("--nodes", help="tikki processes (3)", show_default=False)
    ] = 3,
    port: Annotated[
        int, typer.Option("--port", help="the proxy's port (8000)", show_default=False)
    ] = 8000,
    db: Annotated[
        str | None,
        typer.Option("--db", help="PostgreSQL URL (default: .ci/services.sh's server)"),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option("--bot-delay", help="seconds (0.6)", show_default=False)
    ] = 0.6,
    workdir: Annotated[
        Path | None, typer.Option("--workdir", help="logs and nginx's files (a temp dir)")
    ] = None,
    serve_args: Annotated[
        list[str] | None,
        typer.Argument(help="more `tikki serve` options, after --", show_default=False),
    ] = None,
) -> None:
    """Start the cluster, print its URL, run until Ctrl-C or SIGTERM (status 1: it could
    not start)."""

    if nodes < 1:
        raise fail(f"--nodes is a number of processes >= 1, not {nodes}")
    folder = workdir or Path(tempfile.mkdtemp(prefix="tikki-cluster-"))
    try:
        url = db or postgres_url()
        cluster = Cluster(url, nodes, port, folder, serve_args or [], bot_delay)
        signal.signal(signal.SIGTERM, _interrupt)
        signal.signal(signal.SIGINT, _interrupt)  # even where a shell started it ignoring SIGINT
        with cluster:
            ports = ", ".join(str(node.port) for node in cluster.members)
            print(f"tikki cluster: {cluster.url}/  ({nodes} processes on ports {ports}, "
                  f"nginx on {port}; Ctrl-C stops it)")  # fmt: skip
            print(f"database: {_hide_password(url)}")
            print(f"logs: {folder}")
            watch(cluster)
            print("stopping the tikki processes (they hand their tables over) and nginx")
        print("stopped")
    except ClusterError as err:
        print(f"make cluster: {err}", file=sys.stderr)
        raise typer.Exit(1) from None
    except KeyboardInterrupt:  # during the start
        print("stopped")


RESTART_FIRST = 1.0
"""Seconds before a dead process is started again; each restart within
:data:`RESTART_KEPT` doubles it, up to :data:`RESTART_MOST`."""
RESTART_MOST = 30.0
RESTART_KEPT = 60.0
"""Seconds a restarted process must live for its back-off to start again at the first."""


def watch(
    cluster: Cluster,
    pause: Callable[[float], None] = time.sleep,
    say: Callable[[str], None] = print,
    first: float = RESTART_FIRST,
) -> None:
    """Start a process that stops by itself again (after a back-off that doubles while it
    keeps dying) and say so; return on Ctrl-C / SIGTERM, or when nginx stops."""
    wait: dict[str, float] = {}
    due: dict[str, float] = {}
    began: dict[str, float] = {}
    with contextlib.suppress(KeyboardInterrupt):
        while True:
            pause(1)
            now = time.monotonic()
            for index, node in enumerate(cluster.members):
                if node.alive:
                    if now - began.get(node.name, now) > RESTART_KEPT:
                        wait.pop(node.name, None)  # it lived: the next back-off is short
                    continue
                if node.name not in due:
                    delay = wait.get(node.name, first)
                    code = node.proc.returncode if node.proc is not None else None
                    say(f"{node.name} stopped (exit status {code}; see {node.log}); the others "
                        f"take its tables; restarting it in {delay:g} s")  # fmt: skip
                    due[node.name] = now + delay
                    wait[node.name] = min(max(2 * delay, first), RESTART_MOST)
                elif now >= due[node.name]:
                    del due[node.name]
                    cluster.start_node(index, timeout=0)
                    began[node.name] = now
                    pid = node.proc.pid if node.proc is not None else "?"
                    say(f"{node.name} restarted (process {pid})")
            if cluster.proxy is not None and cluster.proxy.poll() is not None:
                say(f"nginx stopped: {tail(cluster.workdir / 'nginx-error.log')}")
                return


def _interrupt(_sig: int, _frame: object) -> None:
    raise KeyboardInterrupt


def _hide_password(url: str) -> str:
    return re.sub(r"(://[^:/@]+:)[^@]*@", r"\1***@", url)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
