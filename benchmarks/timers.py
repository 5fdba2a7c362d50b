"""What the turn timers cost the server: one :meth:`TableManager.tick` over many tables.

The server checks every live table's turn timer (and its away people) once a second on
its event loop (:data:`tikki.server.tables.TICK`), so a tick must stay far below a
second and well below a move's latency.  This builds N playing Myllymatti tables of two
people in memory (SQLite in a temporary file), half of them with a 60-second timer and
every person away (the most work a tick does without acting), and times ticks.  Times
are the process's CPU time (``time.process_time``).

Run: ``.venv/bin/python benchmarks/timers.py [--tables 500 2000] [--ticks 20]``
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from tikki.server.db import Store
from tikki.server.quota import Policy
from tikki.server.tables import NewTable, TableManager


async def measure(tables: int, ticks: int, folder: Path) -> tuple[float, float]:
    """(median, max) milliseconds of one tick over ``tables`` playing tables."""
    policy = Policy(max_tables=tables + 1, tables_per_address=tables + 1)
    manager = TableManager(Store(f"sqlite:///{folder / f'{tables}.sqlite'}"), 0, policy=policy)
    await manager.start()
    try:
        for i in range(tables):
            request = NewTable("myllymatti", 2, None, {}, [("open", None)] * 2, None,
                               turn_timer=60 if i % 2 else None)  # fmt: skip
            table, invites = await manager.create(request)
            for seat in (0, 1):
                await manager.join(table.id, seat, f"P{seat}", invites[seat])
        times = []
        for _ in range(ticks):
            start = time.process_time()
            await manager.tick()
            times.append((time.process_time() - start) * 1000)
        times.sort()
        return times[len(times) // 2], times[-1]
    finally:
        await manager.stop()


def main() -> None:
    """Print one row per table count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[500, 2000])
    parser.add_argument("--ticks", type=int, default=20)
    args = parser.parse_args()
    print(f"{'tables':>8} {'tick median ms':>15} {'tick max ms':>12}")
    with tempfile.TemporaryDirectory() as folder:
        for n in args.tables:
            median, worst = asyncio.run(measure(n, args.ticks, Path(folder)))
            print(f"{n:>8} {median:>15.2f} {worst:>12.2f}")


if __name__ == "__main__":
    main()
