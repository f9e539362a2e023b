"""The server's collector on the loop's clock (server/collector.py, issue 39): young objects
walked once and set aside, cycles among them freed by the whole pass, and everything back as
it was at stop."""

from __future__ import annotations

import asyncio
import gc
import weakref

from langfinger_widget.server.collector import THRESHOLDS, Collector


class _Node:
    def __init__(self) -> None:
        self.other: object = None


def _cycle() -> weakref.ref[_Node]:
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def _walked(obj: object) -> bool:
    """In a generation the collector walks (not set aside)."""
    return any(o is obj for o in gc.get_objects())


def test_young_objects_are_walked_once_and_cycles_among_them_freed_by_the_whole_pass() -> None:
    before = gc.get_threshold()

    async def run() -> None:
        collector = Collector(young=0.01, whole=3600)
        collector.start()
        try:
            assert gc.get_freeze_count() > 0  # what was loaded before: never walked again
            assert gc.get_threshold() == THRESHOLDS
            kept = _Node()
            dropped = _cycle()  # garbage already: the next young pass frees it
            assert _walked(kept)
            await asyncio.sleep(0.05)
            assert dropped() is None
            assert not _walked(kept)  # walked young once, then set aside
            assert collector.passes["young"] >= 2
            held = [_cycle()]  # a cycle alive when it was walked young, garbage after
            strong = held[0]()
            await asyncio.sleep(0.05)
            del strong
            await asyncio.sleep(0.05)
            assert held[0]() is not None  # young passes never walk what was set aside...
            collector.collect_whole()
            assert held[0]() is None  # ...the whole pass does
            assert not _walked(kept) and gc.get_freeze_count() > 0
            assert collector.passes["whole"] == 1 and collector.longest_ms["whole"] >= 0
        finally:
            collector.stop()

    asyncio.run(run())
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_the_whole_pass_comes_on_its_clock() -> None:
    async def run() -> None:
        collector = Collector(young=0.01, whole=0.05)
        collector.start()
        try:
            await asyncio.sleep(0.3)
            assert collector.passes["whole"] >= 2 and collector.passes["young"] >= 5
        finally:
            collector.stop()

    asyncio.run(run())
