"""The cyclic garbage collector in a server process (issue 39): pauses of a millisecond or
two, each object walked once young, and an old pass only when the process's memory has
doubled.

A server holds every live table's game, and each move replaces a table's state with a new
one (~50 tracked lists, dicts and objects for Langfinger). Reference counting frees the old
state, and every free counts *against* the collector's allocation counter, so the counter
barely moves while the young generation fills up with the tables' new states. With 1,000
tables and the thresholds raised (10,000, 50, 100) a young pass came every second or two
and walked 40,000-60,000 objects: 30-40 ms of CPU on a busy machine (in-process, 800 moves
a second, ``benchmarks/server.py --mode hub``'s set-up), and they set people's round-trip
p99 through real sockets: 13-50 ms at 200-600 moves a second, 5.6-9.0 ms with this module.

So the young generation is walked on the event loop's clock, every :data:`YOUNG_SECONDS`
(what a tenth of a second made, ~1.5 ms there), and what survives goes straight to the old
generation, which only :meth:`Collector.collect_old` walks: reference counting still frees
a state there when its table moves on. Walking the survivors again in the middle
generation, as CPython does, costs as much again: every state is still alive a second
later (15-27 ms passes, each second, at 800 moves a second).

The old pass frees the cycles among what went there (a closed connection's protocol and
its transport, say): it walks everything made since the server started, but not what it
loaded before (the modules, the app: set aside for good at start, ``gc.freeze``). That is
still every table's game and history and every connection: 0.2-0.55 s of CPU with 1,000
tables and 3,000 connections, a pause no round trip's p99 can hide. So it comes only once
the process's resident memory has doubled since the last one (:data:`OLD_GROWTH`, as Go's
collector does by default): its cost is paid once for as much new memory as it walks.
CPython's own rule (a quarter more old objects than at the last pass) counts the states
that replaced freed ones too, and would bring it every half minute under load. Where
resident memory cannot be read (not Linux), it comes every :data:`OLD_SECONDS`. A first
form of this module froze the survivors, so that its sweeps had to walk the modules too,
0.4-0.8 s (1b4e741 reverted it).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import time
from collections.abc import Callable

YOUNG_SECONDS = 0.1
OLD_GROWTH = 2.0
MEMORY_SECONDS = 1.0  # how often resident memory is read (~10 us)
OLD_SECONDS = 600.0  # where it cannot be read
# CPython's own collections, on a burst of allocations between the clock's passes (a
# thousand tables loaded at once): the young generation by count, as usual, the others
# never (the clock's passes take them).
THRESHOLDS = (10_000, 2**30, 2**30)


class Collector:
    """Runs the collector on the event loop's clock (see the module's docstring)."""

    def __init__(self, young: float = YOUNG_SECONDS, old: float = OLD_SECONDS,
                 resident: Callable[[], int | None] | None = None) -> None:
        self.young, self.old = young, old
        self.resident = resident or resident_bytes
        self._thresholds = gc.get_threshold()
        self._handle: asyncio.TimerHandle | None = None
        self._next_old = self._next_look = 0.0
        self._after_old: int | None = None  # resident bytes after the last old pass
        self.passes = {"young": 0, "old": 0}
        self.longest_ms = {"young": 0.0, "old": 0.0}  # CPU, the longest pass of each

    def start(self) -> None:
        """On the running loop: what is loaded by now is set aside for good."""
        gc.collect()
        gc.freeze()
        gc.set_threshold(*THRESHOLDS)
        self._after_old = self.resident()
        self._next_old = time.monotonic() + self.old
        self._handle = asyncio.get_running_loop().call_later(self.young, self._tick)

    def _tick(self) -> None:
        if self._old_due():
            self.collect_old()
        else:
            self.collect_young()
        self._handle = asyncio.get_running_loop().call_later(self.young, self._tick)

    def _old_due(self) -> bool:
        now = time.monotonic()
        if self._after_old is None:
            return now >= self._next_old
        if now < self._next_look:
            return False
        self._next_look = now + MEMORY_SECONDS
        resident = self.resident()
        return resident is not None and resident > self._after_old * OLD_GROWTH

    def collect_young(self) -> None:
        """Walk what was made since the last pass; the survivors go to the old generation."""
        started = time.thread_time()
        gc.collect(1)  # (a collection by count since may have left some in the middle one)
        self._took("young", started)

    def collect_old(self) -> None:
        """Walk everything made since the start: cycles among it are freed."""
        started = time.thread_time()
        gc.collect()
        self._took("old", started)
        self._after_old = self.resident()
        self._next_old = time.monotonic() + self.old

    def _took(self, kind: str, started: float) -> None:
        self.passes[kind] += 1
        self.longest_ms[kind] = max(self.longest_ms[kind],
                                    (time.thread_time() - started) * 1000)

    def stop(self) -> None:
        """Back to the collector's own ways (the thresholds it had, nothing set aside)."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        gc.unfreeze()
        gc.set_threshold(*self._thresholds)


def resident_bytes() -> int | None:
    """This process's resident memory (Linux's /proc), or None where it cannot be read."""
    with contextlib.suppress(OSError, ValueError, IndexError), \
            open("/proc/self/statm", "rb") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    return None


__all__ = ["OLD_GROWTH", "OLD_SECONDS", "YOUNG_SECONDS", "Collector", "resident_bytes"]
