"""The replay endpoint's cost: one answer holds every position.

For a finished bot game of each game (random bots, fixed seeds), in-process (the ASGI app
through FastAPI's test client, SQLite in a temporary directory), the median time of
``GET /api/tables/{id}/replay`` over a few calls per perspective (the answer gzipped, as
browsers accept it) and the answer's size, plain and gzipped.

    .venv/bin/python benchmarks/replay.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import tempfile
import time
import warnings
from pathlib import Path

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
from fastapi.testclient import TestClient  # noqa: E402

from tikki.server import create_app  # noqa: E402

GAMES = [("myllymatti", 3, 1), ("mattis", 3, 2), ("mueckenstich", 4, 3)]


def finished(c: TestClient, game: str, players: int, seed: int) -> tuple[str, int]:
    """A finished table of random bots: its id and number of moves."""
    seats = [{"kind": "bot", "bot": "random"}] * players
    table_id = c.post("/api/tables", json={"game": game, "seats": seats, "seed": seed}).json()[
        "table"
    ]["id"]
    while c.get(f"/api/tables/{table_id}").json()["status"] != "finished":
        time.sleep(0.02)
    return table_id, len(c.get(f"/api/tables/{table_id}/record").json()["moves"])


def main() -> None:
    """Print one row per game and perspective."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="calls per row (median)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(f"sqlite:///{Path(tmp) / 'bench.sqlite'}", bot_delay=0)
        with TestClient(app) as c:
            print(f"{'game':<13} {'moves':>5} {'view':<11} {'ms':>7} {'KiB':>7} {'gzip KiB':>9}")
            for game, players, seed in GAMES:
                table_id, moves = finished(c, game, players, seed)
                for seat in ("", "0", "all"):
                    times, body = [], b""
                    for _ in range(args.repeat):
                        start = time.perf_counter()
                        r = c.get(f"/api/tables/{table_id}/replay", params={"seat": seat})
                        times.append((time.perf_counter() - start) * 1000)
                        body = r.content
                    name = {"": "spectators", "0": "seat 1", "all": "every hand"}[seat]
                    print(
                        f"{game:<13} {moves:>5} {name:<11} {statistics.median(times):>7.1f} "
                        f"{len(body) / 1024:>7.0f} {len(gzip.compress(body)) / 1024:>9.0f}"
                    )


if __name__ == "__main__":
    main()
