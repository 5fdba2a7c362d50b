"""What a wrong route costs: a person's move latency through the process that owns the
table vs through another process of the cluster, which relays the socket to the owner
(:mod:`tikki.server.relay`).

Two ``tikki serve --cluster`` processes (``tikki.server.cluster_run``'s cluster, nginx
unused). Tables of three people are made and joined on the first process, so it owns
them; each table's three sockets connect either to the owner or to the other process,
and the two kinds of tables are played one move at a time, in turn (so the machine's
other work falls on both alike). A move's latency is from sending it to the mover's
socket receiving the state with it. It prints p50/p90/p99 per route and the added p50,
and checks that no table changed hands (its lock is still the first process's).

Run: ``nice -n 10 .venv/bin/python benchmarks/cluster_hop.py [--moves 400]
[--tables 4]`` (PostgreSQL: ``TIKKI_TEST_POSTGRES``, else ``.ci/services.sh``'s).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cluster import OPEN, fresh_schema
from load import percentile

from tikki.server.cluster_run import Cluster, free_ports, postgres_url

PEOPLE = {"game": "mattis", "players": 3, "seats": [{"kind": "open"}] * 3}


@dataclass
class Played:
    """One table played through one route: its sockets (by seat) and the latencies."""

    table: str
    route: str
    sockets: list[ClientConnection]
    state: dict[str, Any] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)


def seat_people(http: httpx.Client) -> tuple[str, list[str]]:
    """A table of three people made and joined on ``http``'s process: (id, tokens)."""
    made = http.post("/api/tables", json=PEOPLE)
    made.raise_for_status()
    tid = made.json()["table"]["id"]
    tokens = []
    for invite in made.json()["invites"]:
        secret = invite["url"].split("#invite=")[1]
        body = {"name": f"P{invite['seat']}", "invite": secret}
        joined = http.post(f"/api/tables/{tid}/seats/{invite['seat']}", json=body)
        joined.raise_for_status()
        tokens.append(joined.json()["token"])
    return tid, tokens


async def open_table(base: str, route: str, tid: str, tokens: list[str]) -> Played:
    """The table's three sockets on ``base`` (``ws://HOST:PORT``), each past its first
    state."""
    sockets = []
    state: dict[str, Any] = {}
    for token in tokens:
        ws = await connect(f"{base}/ws/tables/{tid}", max_size=None)
        await ws.send(json.dumps({"type": "hello", "token": token}))
        state = await next_state(ws, -1)
        sockets.append(ws)
    return Played(tid, route, sockets, state)


async def next_state(ws: ClientConnection, after: int) -> dict[str, Any]:
    """The socket's first state with a seq above ``after``."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if message["type"] == "state" and message["seq"] > after:
            return dict(message)


async def one_move(played: Played, rng: random.Random) -> bool:
    """Play the next move of the seat to act; ``False`` once the game is over."""
    table = played.state["table"]
    seat = table["to_act"]
    if played.state["status"] == "finished" or seat is None:
        return False
    ws = played.sockets[seat]
    seq = played.state["seq"]
    mine = await next_state(ws, seq - 1) if played.state["seat"] != seat else played.state
    move = rng.choice(mine["view"]["legal_moves"])
    began = time.perf_counter()
    await ws.send(json.dumps({"type": "move", "move": move, "seq": seq}))
    played.state = await next_state(ws, seq)
    played.latencies.append(time.perf_counter() - began)
    return True


async def measure(
    owner: str, other: str, jobs: list[tuple[str, list[str]]], moves: int
) -> dict[str, list[float]]:
    """Play half the tables through the owner, half through the other process, a move
    at a time in turn, until each route has ``moves`` latencies."""
    rng = random.Random(1)
    tables = [
        await open_table(owner if i % 2 == 0 else other, "owner" if i % 2 == 0 else "relayed",
                         tid, tokens)
        for i, (tid, tokens) in enumerate(jobs)
    ]  # fmt: skip
    counts = {"owner": 0, "relayed": 0}
    while min(counts.values()) < moves and any(t.state["status"] != "finished" for t in tables):
        for played in tables:
            if counts[played.route] < moves and await one_move(played, rng):
                counts[played.route] += 1
    for played in tables:
        for ws in played.sockets:
            await ws.close()
    out: dict[str, list[float]] = {"owner": [], "relayed": []}
    for played in tables:
        out[played.route] += played.latencies
    return out


def main() -> None:
    """Start two processes, play, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=400, help="moves per route (400)")
    parser.add_argument("--tables", type=int, default=8, help="tables, half per route (8)")
    args = parser.parse_args()
    with (
        fresh_schema(postgres_url()) as db,
        tempfile.TemporaryDirectory() as tmp,
        Cluster(db, 2, free_ports(3), Path(tmp), OPEN, 0.0) as cluster,
    ):
        first, second = cluster.members
        with httpx.Client(base_url=first.url, timeout=60) as http:
            jobs = [seat_people(http) for _ in range(args.tables)]
        owner, other = (n.url.replace("http://", "ws://") for n in (first, second))
        lat = asyncio.run(measure(owner, other, jobs, args.moves))
        moved = "took over table" in second.log.read_text()
    p50 = {route: percentile(values, 50) for route, values in lat.items()}
    for route, values in lat.items():
        shown = "  ".join(f"p{q} {percentile(values, q):6.2f} ms" for q in (50, 90, 99))
        print(f"{route:8} moves {len(values):4}  {shown}")
    print(f"added p50 through the other process: {p50['relayed'] - p50['owner']:.2f} ms")
    print(f"tables taken over by the other process: {'some (wrong)' if moved else 'none'}")


if __name__ == "__main__":
    main()
