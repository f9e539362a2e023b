"""The server's collector on the loop's clock (server/collector.py, issue 39): young objects
walked once and moved to the old generation, cycles there freed by the old pass once memory
has grown, what was loaded before the start never walked, everything back as it was at
stop."""

from __future__ import annotations

import asyncio
import gc
import os
import weakref

from langfinger_widget.server import collector as collector_module
from langfinger_widget.server.collector import THRESHOLDS, Collector, resident_bytes


class _Node:
    def __init__(self) -> None:
        self.other: object = None


def _cycle() -> weakref.ref[_Node]:
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def _in(generation: int, obj: object) -> bool:
    return any(o is obj for o in gc.get_objects(generation=generation))


def test_young_objects_are_walked_once_and_cycles_among_the_old_freed_by_the_old_pass(
) -> None:
    before = gc.get_threshold()
    loaded = _Node()  # made before the start: set aside for good

    async def run() -> None:
        collector = Collector(young=0.01, resident=lambda: 1)
        collector.start()
        try:
            frozen = gc.get_freeze_count()
            assert frozen > 0 and not any(_in(g, loaded) for g in range(3))
            assert gc.get_threshold() == THRESHOLDS
            kept = _Node()
            dropped = _cycle()  # garbage already: the next young pass frees it
            assert _in(0, kept)
            await asyncio.sleep(0.05)
            assert dropped() is None
            assert _in(2, kept)  # walked young once, then old: no young pass walks it
            assert collector.passes["young"] >= 2 and collector.passes["old"] == 0
            held = [_cycle()]  # a cycle alive when it was walked young, garbage after
            strong = held[0]()
            await asyncio.sleep(0.05)
            del strong
            await asyncio.sleep(0.05)
            assert held[0]() is not None  # young passes never walk the old...
            collector.collect_old()
            assert held[0]() is None  # ...the old pass does, and not what was set aside
            assert gc.get_freeze_count() > frozen // 2 and not _in(2, loaded)
            assert collector.passes["old"] == 1 and collector.longest_ms["old"] >= 0
        finally:
            collector.stop()

    asyncio.run(run())
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_the_old_pass_comes_once_memory_has_doubled(monkeypatch) -> None:
    monkeypatch.setattr(collector_module, "MEMORY_SECONDS", 0.0)
    memory = [1000]

    async def run() -> None:
        collector = Collector(young=0.01, resident=lambda: memory[0])
        collector.start()
        try:
            memory[0] = 2000  # twice as much, not more: young passes only
            await asyncio.sleep(0.1)
            assert collector.passes["old"] == 0 and collector.passes["young"] >= 3
            memory[0] = 2001
            await asyncio.sleep(0.05)
            assert collector.passes["old"] == 1  # ... and the next counts from here
            memory[0] = 3000
            await asyncio.sleep(0.1)
            assert collector.passes["old"] == 1
        finally:
            collector.stop()

    asyncio.run(run())


def test_where_memory_cannot_be_read_the_old_pass_comes_on_a_clock() -> None:
    async def run() -> None:
        collector = Collector(young=0.01, old=0.05, resident=lambda: None)
        collector.start()
        try:
            await asyncio.sleep(0.3)
            assert collector.passes["old"] >= 2 and collector.passes["young"] >= 5
        finally:
            collector.stop()

    asyncio.run(run())


def test_resident_memory_is_read_on_linux() -> None:
    found = resident_bytes()
    if os.path.exists("/proc/self/statm"):
        assert found is not None and found > 10 * 2**20
    else:
        assert found is None
