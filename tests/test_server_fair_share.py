"""The search slots' fair share between people: a group that used less search time is
served first (among groups within a quantum of the least use, round-robin), so a person
whose bot searches briefly goes ahead of a crowd whose Expert bots search without pause.
The clock is the test's own: no timing is asserted."""

from __future__ import annotations

import asyncio

from tikki.server.pool import QUANTUM, USAGE_HALF_LIFE, FairSlots


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_group_that_used_least_goes_first() -> None:
    clock = Clock()
    slots = FairSlots(1, clock=clock)
    order: list[str] = []

    async def hold(group: str, seconds: float) -> None:
        async with slots.slot(group, f"{group}-table"):
            order.append(group)
            clock.now += seconds
            await asyncio.sleep(0)

    async def run() -> None:
        for crowd in ("a", "b", "c"):  # three Expert addresses have searched a while
            await hold(crowd, 8.0)
        await hold("person", 0.3)  # the person's Hard bot, once
        order.clear()
        async with slots.slot("a", "a-table"):  # a holds the slot; everyone queues
            waiters = [asyncio.create_task(hold(g, 8.0)) for g in ("b", "c", "a")]
            await asyncio.sleep(0)
            waiters.append(asyncio.create_task(hold("person", 0.3)))
            await asyncio.sleep(0)
        await asyncio.gather(*waiters)

    asyncio.run(run())
    assert order[0] == "person", order  # it used least: it is served first
    assert sorted(order[1:]) == ["a", "b", "c"]


def test_use_fades_and_equal_use_takes_turns() -> None:
    clock = Clock()
    slots = FairSlots(1, clock=clock)
    slots._use("a", 10.0)
    assert slots.usage("a") == 10.0
    clock.now += USAGE_HALF_LIFE
    assert abs(slots.usage("a") - 5.0) < 1e-9
    slots._use("b", 5.0 + QUANTUM / 2)  # within a quantum: a and b take turns in order
    order: list[str] = []

    async def run() -> None:
        async with slots.slot("x", "x"):
            tasks = []
            for group in ("b", "a", "b", "a"):
                tasks.append(asyncio.create_task(one(group)))
                await asyncio.sleep(0)
        await asyncio.gather(*tasks)

    async def one(group: str) -> None:
        async with slots.slot(group, f"{group}-table"):
            order.append(group)

    asyncio.run(run())
    assert order == ["b", "a", "b", "a"]


def test_a_slot_given_back_early_lets_the_next_in_once() -> None:
    """The body gives its slot back early (its move waits for a commit): the next waiter
    starts while the body still runs, and the slot is not given back a second time."""
    slots = FairSlots(1)
    order: list[str] = []

    async def run() -> None:
        done = asyncio.Event()

        async def second() -> None:
            async with slots.slot("b", "b-table"):
                order.append("second")
                done.set()

        async with slots.slot("a", "a-table") as give_back:
            waiter = asyncio.create_task(second())
            await asyncio.sleep(0)
            assert order == [] and slots.waiting == 1
            give_back()
            give_back()
            await done.wait()
            order.append("first ends")
        await waiter

    asyncio.run(run())
    assert order == ["second", "first ends"]
    assert slots.busy == 0 and slots.waiting == 0
