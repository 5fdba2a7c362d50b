"""A server process killed with ``kill -9`` cannot stop its search workers: they end by
themselves once it is gone (tikki/server/pool.py), instead of running on, reparented."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

SCRIPT = """
import os, sys, time
from tikki.server.pool import SearchPool
pool = SearchPool(size=1)
print(pool._pool().submit(os.getpid).result(), flush=True)
time.sleep(600)
"""
SLACK = 60.0


def gone(pid: int) -> bool:
    """Whether a process has ended (a zombie nobody reaped counts as ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state in ("Z", "X")


def test_the_workers_end_with_their_server_process() -> None:
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    worker = int(proc.stdout.readline())
    assert worker != proc.pid and not gone(worker)
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    deadline = time.monotonic() + SLACK
    while time.monotonic() < deadline and not gone(worker):
        time.sleep(0.1)
    ended = gone(worker)
    if not ended:
        os.kill(worker, signal.SIGKILL)
    assert ended, "the search worker outlived its server process"
