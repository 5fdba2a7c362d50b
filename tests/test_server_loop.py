"""The server's event loop: uvloop where it is installed (the ``web`` extra pins it), else
asyncio's own; on uvloop the listening socket keeps the kernel's long queue."""

from __future__ import annotations

import asyncio
import importlib.util
from pathlib import Path

import pytest

from tests.test_server_hoard import queue_limit
from tikki.server import create_app
from tikki.server.guard import LISTEN_BACKLOG, Limits
from tikki.server.run import _Server, bind, config, event_loop, is_uvloop
from tikki.server.tables.bots import BEAT, beat


def test_the_loop_is_uvloop_where_installed_else_asyncio(tmp_path: Path) -> None:
    installed = importlib.util.find_spec("uvloop") is not None
    assert event_loop() == ("uvloop" if installed else "asyncio")
    assert config(create_app(f"sqlite:///{tmp_path / 'x.sqlite'}"), Limits()).loop == event_loop()
    loop = asyncio.new_event_loop()
    try:
        assert not is_uvloop(loop)
    finally:
        loop.close()


def test_uvloop_listens_with_the_kernels_long_queue(tmp_path: Path) -> None:
    """uvloop calls ``listen()`` again with uvicorn's ``backlog`` (asyncio's accept batch,
    a few dozen): the server gives it the long queue instead, or a crowd's SYNs are dropped."""
    uvloop = pytest.importorskip("uvloop")
    most = int(Path("/proc/sys/net/core/somaxconn").read_text())
    server = _Server(config(create_app(f"sqlite:///{tmp_path / 'x.sqlite'}"), Limits()))
    with bind("127.0.0.1", 0) as listener:

        async def serve() -> int:
            assert is_uvloop(asyncio.get_running_loop())
            running = asyncio.create_task(server.serve([listener]))
            while not server.started:
                await asyncio.sleep(0.01)
            limit = queue_limit(listener)
            server.should_exit = True
            await running
            return limit

        assert uvloop.run(serve()) == min(LISTEN_BACKLOG, most)


def test_bot_delays_end_on_a_shared_beat() -> None:
    """Bots due within one beat wake at one pass of the loop: each delay is lengthened (by
    less than a beat) to end on the beat's grid; no delay stays none."""
    for now in (0.0, 11769.339997776999, 123.456):
        for delay in (0.3, 0.3001, 0.317, 1.5):
            lengthened = beat(delay, now)
            assert delay <= lengthened < delay + BEAT
            end = (now + lengthened) / BEAT
            assert abs(end - round(end)) < 1e-6
    assert beat(0, 5.0) == 0

    async def running() -> float:
        return beat(0.3)

    assert 0.3 <= asyncio.run(running()) < 0.3 + BEAT
