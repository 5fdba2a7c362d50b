"""The walk of a person's move through the server's parts, as a reader follows it: from
``Moves.move``, every call in tikki that receives the move's ``Table``, in order.  A
*climb back* is a call into a module on a higher import floor than its caller's (a part
reaching back up past the one that called it); a *return* is a stay in a module the walk
had already left (the reader turns back to a file).  The composed parts keep both low:
each collaborator is named once by the move's entry and does its step.
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass
from functools import cache
from types import FrameType
from typing import Any

from tests import test_layers as layers
from tests.test_server_parts import parts, two_people


@dataclass(frozen=True)
class Stay:
    """One call that receives the table: its module and function, and its caller's module."""

    module: str
    function: str
    caller: str | None


@cache
def _floors() -> dict[str, int]:
    """Each tikki module's import floor: one above the highest module it imports."""
    graph = layers.graph()
    floors: dict[str, int] = {}

    def floor(module: str) -> int:
        if module not in floors:
            floors[module] = 0  # a circle (none exist: test_layers) stops here
            below = [floor(d) for d in graph.get(module, ()) if d != module]
            floors[module] = 1 + max(below, default=-1)
        return floors[module]

    for module in graph:
        floor(module)
    return floors


def _walk() -> list[Stay]:
    """The stays of one person's move on a two-person table, in call order."""
    moves, _stand_ins, registry, _store = parts()
    table = two_people()
    registry.tables[table.id] = table
    seat, move = table.state.current_player, table.state.legal_moves()[0]
    stays: list[Stay] = []
    entered: dict[int, tuple[FrameType, str]] = {}

    def trace(frame: FrameType, event: str, _arg: Any) -> None:
        path = frame.f_code.co_filename
        if event != "call" or "/tikki/" not in path or "site-packages" in path:
            return
        if id(frame) in entered and entered[id(frame)][0] is frame:
            return  # a coroutine resumed, not a new stay
        if not any(value is table for value in frame.f_locals.values()):
            return
        module = layers.module_name(layers.ROOT / path[path.index("/tikki/") + 1 :])
        caller = frame.f_back
        while caller is not None and id(caller) not in entered:
            caller = caller.f_back
        stays.append(Stay(module, frame.f_code.co_qualname, _caller(caller, entered, stays)))
        entered[id(frame)] = (frame, module)

    async def play() -> None:
        sys.setprofile(trace)
        try:
            await moves.move(table, seat, move, 0)
        finally:
            sys.setprofile(None)

    asyncio.run(play())
    return stays


def _caller(
    frame: FrameType | None, entered: dict[int, tuple[FrameType, str]], stays: list[Stay]
) -> str | None:
    """The module of the stay that called ``frame`` (a resumed coroutine's callee: the
    stay before it)."""
    if frame is not None:
        return entered[id(frame)][1]
    return stays[-1].module if stays else None


def test_a_moves_walk_climbs_back_at_most_once_and_returns_at_most_twice() -> None:
    stays = _walk()
    floors = _floors()
    assert stays[0].function == "Moves.move", stays[0]
    assert any(s.function.startswith("Ledger.") for s in stays), "the move was not stored"
    climbs = [s for s in stays if s.caller and floors[s.module] > floors[s.caller]]
    returns, left, current = [], set(), stays[0].module
    for stay in stays[1:]:
        if stay.module != current:
            if stay.module in left:
                returns.append(stay)
            left.add(current)
            current = stay.module
    walk = "\n".join(f"{s.module} {s.function} <- {s.caller}" for s in stays)
    assert len(climbs) <= 1, f"climbs back: {climbs}\n{walk}"
    assert len(returns) <= 2, f"returns: {returns}\n{walk}"
