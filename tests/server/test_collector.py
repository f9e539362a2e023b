"""The server's collector on a clock (server/collector.py, issue 39): young objects walked
and then left alone, cycles among them freed by the sweep, everything back as it was at
stop."""

from __future__ import annotations

import asyncio
import gc
import weakref

from langfinger_widget.server.collector import Collector


class _Node:
    def __init__(self) -> None:
        self.other: object = None


def _cycle() -> weakref.ref[_Node]:
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_young_objects_are_walked_once_and_cycles_among_them_freed_by_the_sweep() -> None:
    before = gc.get_threshold()

    async def run() -> None:
        collector = Collector(young=0.01, sweep=3600)
        collector.start()
        try:
            assert gc.get_freeze_count() > 0  # what was loaded before: never walked again
            kept = [_Node() for _ in range(100)]  # alive: walked once, young, then left
            dropped = _cycle()  # garbage already: the next young pass frees it
            await asyncio.sleep(0.05)
            assert dropped() is None
            assert any(o is kept[0] for o in gc.get_objects(generation=1))
            held = [_cycle()]  # a cycle alive when walked young, garbage after
            strong = held[0]()
            await asyncio.sleep(0.05)
            del strong
            await asyncio.sleep(0.05)
            assert held[0]() is not None  # young passes never walk the older objects...
            assert not any(o is kept[0] for o in gc.get_objects(generation=0))
            collector.sweep()
            assert held[0]() is None  # ...the sweep does
            assert collector.sweeps == 1 and collector.swept_ms >= 0
        finally:
            collector.stop()

    asyncio.run(run())
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
