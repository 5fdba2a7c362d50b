"""The crowds of ``benchmarks/abuse.py`` that try to hoard what the server has (tables,
connections, the chat's window, memory) or sit at Expert tables of their own.

- ``hoard``: 100 addresses creating Mattis tables and joining each other's, without pause;
  a newcomer (a new address each time) tries to create a table every 2 s;
- ``watchers-idle``: 3,000 watchers' WebSockets from 120 addresses on 15 tables that never speak,
  against a server under ``ulimit -n 1024``; a newcomer sits at a table of their own (a
  new table, a seat, a WebSocket) every 2 s, timed;
- ``idle-http``: 1,500 HTTP connections from 30 loopback hosts that send nothing (and
  come back when closed; a process of their own), against a server under ``ulimit -n
  1024``; a newcomer's ``GET /api/games`` every second, timed;
- ``chat``: two people at a table send 3 messages, then 40 spectators' addresses 5 each;
  how many of the people's messages a player still sees;
- ``unknown-joins``: 3,000 joins of unknown 12 KB table ids from one address; the
  server's RSS before and after;
- ``seated-expert``: 20 addresses, each seated at a Mattis table of its own against two
  Expert bots, playing random moves.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import statistics
import sys
import time
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

import httpx
from websockets.asyncio.client import connect

EXPERT = "expert:iterations=3000"
NOFILE = {"watchers-idle": 1024, "idle-http": 1024}
"""The crowds whose server runs under ``ulimit -n`` (file descriptors)."""


class Served(Protocol):
    """What a crowd needs of the server under test."""

    url: str

    def stats(self) -> tuple[float, int]:
        """RSS in MiB and open file descriptors."""


Crowd = Callable[[Any, dict[str, Any]], Coroutine[Any, Any, None]]


def as_address(address: str) -> dict[str, str]:
    """The header the trusted proxy adds for a client at ``address``."""
    return {"X-Forwarded-For": address}


async def seat_at(
    http: httpx.AsyncClient,
    seats: list[dict[str, Any]],
    address: str,
    seed: int | None = None,
    name: str = "probe",
) -> tuple[str, str]:
    """Create a table with seat 0 open and take it as ``name``, from ``address``: (id, token)."""
    body: dict[str, Any] = {"game": "myllymatti", "seats": seats}
    if seed is not None:
        body["seed"] = seed
    made = await http.post("/api/tables", json=body, headers=as_address(address))
    made.raise_for_status()
    table_id = made.json()["table"]["id"]
    invite = made.json()["invites"][0]["url"].split("#invite=")[1]
    joined = await http.post(
        f"/api/tables/{table_id}/seats/0",
        json={"name": name, "invite": invite},
        headers=as_address(address),
    )
    joined.raise_for_status()
    return table_id, joined.json()["token"]


def count(notes: dict[str, Any], key: str) -> None:
    """Add one to ``notes[key]``."""
    notes[key] = notes.get(key, 0) + 1


def slowest(notes: dict[str, Any], key: str, seconds: float) -> None:
    """Keep the largest time (ms) seen under ``key``."""
    notes[key] = max(notes.get(key, 0), round(seconds * 1000))


async def hoard_crowd(server: Served, notes: dict[str, Any]) -> None:
    """100 addresses creating three-seat tables and joining their neighbours'."""
    body = {"game": "mattis", "seats": [{"kind": "open"}] * 3}
    latest: dict[int, tuple[str, str]] = {}

    async def address(n: int, http: httpx.AsyncClient) -> None:
        me = as_address(f"10.110.0.{n + 1}")
        while True:
            r = await http.post("/api/tables", json=body, headers=me)
            count(notes, f"create_{r.status_code}")
            if r.status_code == 201:
                made = r.json()
                secret = made["invites"][1]["url"].split("#invite=")[1]
                latest[n] = (made["table"]["id"], secret)
            other = latest.pop((n + 1) % 100, None)
            if other is not None:  # a neighbour's table: take its seat 1
                r = await http.post(
                    f"/api/tables/{other[0]}/seats/1",
                    json={"name": f"Crowd{n}", "invite": other[1]},
                    headers=me,
                )
                count(notes, f"join_{r.status_code}")
            await asyncio.sleep(0.5 if r.status_code != 429 else 2)

    async def newcomers(http: httpx.AsyncClient) -> None:
        for k in range(10_000):
            r = await http.post("/api/tables", json=body, headers=as_address(f"198.51.{k}.7"))
            count(notes, f"newcomer_{r.status_code}")
            await asyncio.sleep(2)

    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        await asyncio.gather(newcomers(http), *(address(n, http) for n in range(100)))


async def sit_down(server: Served, address: str) -> float:
    """A newcomer's table against a Medium bot: create, sit, WebSocket, first state (s)."""
    began = time.perf_counter()
    ws_base = re.sub(r"^http", "ws", server.url)
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        seats = [{"kind": "open"}, {"kind": "bot", "bot": "heuristic"}]
        table_id, token = await seat_at(http, seats, address, name="Newcomer")
    async with connect(
        f"{ws_base}/ws/tables/{table_id}", additional_headers=as_address(address)
    ) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        first = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if first.get("type") != "state":
            raise RuntimeError(f"refused: {first}")
    return time.perf_counter() - began


async def watchers_idle_crowd(server: Served, notes: dict[str, Any]) -> None:
    """3,000 silent watchers from 120 addresses on 15 tables; a newcomer every 2 s."""
    ws_base = re.sub(r"^http", "ws", server.url)
    tables = []
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        seats = [{"kind": "open"}, {"kind": "bot", "bot": "heuristic"}]
        for i in range(15):  # 200 watchers a table at most: the server's share binds first
            made = await http.post(
                "/api/tables",
                json={"game": "myllymatti", "seats": seats},
                headers=as_address(f"10.120.9.{i + 1}"),
            )
            tables.append(made.json()["table"]["id"])
    held: list[Any] = []
    gate = asyncio.Semaphore(50)

    async def watcher(n: int) -> None:
        async with gate:
            try:
                ws = await connect(
                    f"{ws_base}/ws/tables/{tables[n % len(tables)]}",
                    additional_headers=as_address(f"10.120.0.{n % 120 + 1}"),
                    ping_interval=None,
                )
                await ws.send(json.dumps({"type": "hello"}))
                first = json.loads(await asyncio.wait_for(ws.recv(), 10))
            except Exception:
                count(notes, "watchers_failed")
                return
            if first.get("type") == "error":
                count(notes, "watchers_refused")
                await ws.close()
            else:
                count(notes, "watchers_held")
                held.append(ws)

    async def newcomers() -> None:
        for k in range(10_000):
            try:
                slowest(notes, "newcomer_slowest_ms", await sit_down(server, f"198.51.{k}.9"))
                count(notes, "newcomers_seated")
            except Exception:
                count(notes, "newcomers_failed")
            await asyncio.sleep(2)

    try:
        await asyncio.gather(newcomers(), *(watcher(n) for n in range(3000)))
    finally:
        for ws in held:
            with contextlib.suppress(Exception):
                await ws.close()


IDLERS = 1500
"""The idle HTTP connections the ``idle-http`` crowd holds or reopens."""


async def idlers(port: int, notes: dict[str, Any]) -> None:
    """:data:`IDLERS` connections from 30 loopback hosts that send nothing, each reopened
    as soon as the server closes it."""

    async def idler(n: int) -> None:
        host = f"127.0.2.{n % 30 + 1}"
        while True:
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(host, 0)
                )
            except OSError:
                count(notes, "idle_refused")
                await asyncio.sleep(1)
                continue
            count(notes, "idle_opened")
            with contextlib.suppress(Exception):
                await reader.read(100)  # until the server closes it
            writer.close()
            count(notes, "idle_closed_by_server")

    await asyncio.gather(*(idler(n) for n in range(IDLERS)))


async def idlers_reporting(port: int) -> None:
    """:func:`idlers`, printing their notes as a JSON line twice a second."""
    notes: dict[str, Any] = {}

    async def report() -> None:
        while True:
            await asyncio.sleep(0.5)
            print(json.dumps(notes), flush=True)

    await asyncio.gather(report(), idlers(port, notes))


async def idle_http_crowd(server: Served, notes: dict[str, Any]) -> None:
    """:func:`idlers` in a process of their own (as an attacker's machine: their thousands
    of reconnects a second would starve this process's event loop, and so every probe
    timed in it); a newcomer's ``GET /api/games`` every second, timed here."""
    port = server.url.rsplit(":", 1)[1]
    crowd = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "idlers", port, stdout=asyncio.subprocess.PIPE
    )

    async def counts() -> None:
        assert crowd.stdout is not None
        async for line in crowd.stdout:
            notes.update(json.loads(line))

    async def newcomers() -> None:
        times: list[float] = []
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            for _ in range(10_000):
                began = time.perf_counter()
                try:
                    r = await http.get("/api/games", headers={"Connection": "close"})
                    count(notes, f"newcomer_{r.status_code}")
                    times.append(time.perf_counter() - began)
                    notes["newcomer_median_ms"] = round(statistics.median(times) * 1000)
                    slowest(notes, "newcomer_slowest_ms", times[-1])
                except httpx.HTTPError:
                    count(notes, "newcomer_failed")
                await asyncio.sleep(1)

    try:
        await asyncio.gather(counts(), newcomers())
    finally:
        with contextlib.suppress(ProcessLookupError):
            crowd.kill()
        await crowd.wait()


async def chat_crowd(server: Served, notes: dict[str, Any]) -> None:
    """Two people send 3 messages; 40 spectators' addresses send 5 each; what a player
    still sees of the people's messages."""
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        body = {"game": "myllymatti", "seats": [{"kind": "open"}] * 2}
        made = (await http.post("/api/tables", json=body, headers=as_address("10.150.9.1"))).json()
        table_id = made["table"]["id"]
        tokens = []
        for seat, address, name in ((0, "10.150.9.1", "Rasmus"), (1, "10.150.9.2", "Lotta")):
            secret = made["invites"][seat]["url"].split("#invite=")[1]
            r = await http.post(
                f"/api/tables/{table_id}/seats/{seat}",
                json={"name": name, "invite": secret},
                headers=as_address(address),
            )
            if r.status_code != 200:
                raise RuntimeError(r.text)
            tokens.append(r.json()["token"])
        chat = f"/api/tables/{table_id}/chat"
        for i in range(3):
            r = await http.post(
                chat,
                json={"phrase": "gg"},
                headers={"Authorization": f"Bearer {tokens[i % 2]}", **as_address("10.150.9.1")},
            )
            count(notes, f"players_sent_{r.status_code}")

        async def spectator(n: int) -> None:
            for _ in range(5):
                r = await http.post(
                    chat, json={"phrase": "oops"}, headers=as_address(f"10.150.0.{n + 1}")
                )
                count(notes, f"spectators_sent_{r.status_code}")

        await asyncio.gather(*(spectator(n) for n in range(40)))
        seen = (await http.get(chat, headers={"Authorization": f"Bearer {tokens[0]}"})).json()
        people = [m for m in seen["messages"] if m.get("channel", "players") == "players"]
        notes["players_messages_seen"] = f"{len(people)}/{notes.get('players_sent_201', 0)}"
    await asyncio.sleep(3600)


async def unknown_joins_crowd(server: Served, notes: dict[str, Any]) -> None:
    """3,000 joins of unknown 12 KB table ids from one address; the RSS before and after."""
    notes["rss_before_mib"] = round(server.stats()[0], 1)
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:
        for i in range(3000):
            table_id = f"{i:06d}" + "x" * 12_000
            r = await http.post(
                f"/api/tables/{table_id}/seats/0",
                json={"name": "Crowd"},
                headers=as_address("10.130.0.1"),
            )
            count(notes, f"join_{r.status_code}")
    notes["rss_after_mib"] = round(server.stats()[0], 1)
    await asyncio.sleep(3600)


async def seated_expert_crowd(server: Served, notes: dict[str, Any]) -> None:
    """20 addresses, each seated at a Mattis table against two Expert bots, playing on."""
    ws_base = re.sub(r"^http", "ws", server.url)
    seats = [{"kind": "open"}, {"kind": "bot", "bot": EXPERT}, {"kind": "bot", "bot": EXPERT}]

    async def person(n: int, http: httpx.AsyncClient) -> None:
        address = f"10.140.0.{n + 1}"
        rng = random.Random(n)
        while True:
            made = await http.post(
                "/api/tables", json={"game": "mattis", "seats": seats}, headers=as_address(address)
            )
            count(notes, f"tables_{made.status_code}")
            if made.status_code != 201:
                await asyncio.sleep(5)
                continue
            table_id = made.json()["table"]["id"]
            secret = made.json()["invites"][0]["url"].split("#invite=")[1]
            joined = await http.post(
                f"/api/tables/{table_id}/seats/0",
                json={"name": f"Crowd{n}", "invite": secret},
                headers=as_address(address),
            )
            token = joined.json()["token"]
            async with connect(
                f"{ws_base}/ws/tables/{table_id}", additional_headers=as_address(address)
            ) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                async for raw in ws:
                    msg = json.loads(raw)
                    if msg["type"] != "state":
                        continue
                    if msg["status"] == "finished":
                        count(notes, "games_finished")
                        break
                    legal = msg["view"].get("legal_moves")
                    if legal:
                        count(notes, "moves")
                        move = {"type": "move", "move": rng.choice(legal), "seq": msg["seq"]}
                        await ws.send(json.dumps(move))

    async with httpx.AsyncClient(base_url=server.url, timeout=120) as http:
        await asyncio.gather(*(person(n, http) for n in range(20)))


HOARD_CROWDS: dict[str, Crowd] = {
    "hoard": hoard_crowd,
    "watchers-idle": watchers_idle_crowd,
    "idle-http": idle_http_crowd,
    "chat": chat_crowd,
    "unknown-joins": unknown_joins_crowd,
    "seated-expert": seated_expert_crowd,
}
"""The crowds of this module by name, as ``abuse.py --only`` names them."""


if __name__ == "__main__":  # the idle-http crowd's own process: crowds_hoard.py idlers PORT
    if sys.argv[1:2] == ["idlers"]:
        asyncio.run(idlers_reporting(int(sys.argv[2])))
