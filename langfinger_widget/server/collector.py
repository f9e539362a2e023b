"""The cyclic garbage collector in a server process (issue 39): pauses of a millisecond or
two, each object walked once, and one long pass every few minutes.

A server holds every live table's game, and each move replaces a table's state with a new
one (~50 tracked lists, dicts and objects for Langfinger). Reference counting frees the old
state, and every free counts *against* the collector's allocation counter, so the counter
barely moves while the young generation fills up with the tables' new states. With 1,000
tables and the thresholds raised (10,000, 50, 100) a young pass came every second or two
and walked 40,000-60,000 objects: 30-40 ms of CPU on a busy machine (in-process, 800 moves
a second, ``benchmarks/server.py --mode hub``'s set-up).

So the young generation is walked on the event loop's clock, every
:data:`YOUNG_SECONDS` (what a tenth of a second made, ~1.5 ms there), and what survives
is set aside (``gc.freeze``): no later pass walks it, and reference counting still frees
it when its table moves on. Walking the survivors again in the middle generation, as
CPython does, costs as much again: every state is still alive a second later (15-27 ms
passes, each second, at 800 moves a second).

A cycle among the objects set aside (a closed connection's protocol and its transport,
say) is freed by the whole pass every :data:`WHOLE_SECONDS`: everything is walked, the
modules loaded at start-up too. That is the one long pause, ~0.4 s with 1,000 tables and
3,000 connections on a quiet machine. A first form of this module swept every minute and
showed in a ten-second step's p99 (1b4e741 reverted it); every five minutes it is a
fraction of a thousandth of the moves.
"""

from __future__ import annotations

import asyncio
import gc
import time

YOUNG_SECONDS = 0.1
WHOLE_SECONDS = 300.0
# CPython's own collections, on a burst of allocations between the clock's passes (a
# thousand tables loaded at once): the young generation by count, as usual, the others
# never (their passes would walk what the clock set aside).
THRESHOLDS = (10_000, 2**30, 2**30)


class Collector:
    """Runs the collector on the event loop's clock (see the module's docstring)."""

    def __init__(self, young: float = YOUNG_SECONDS, whole: float = WHOLE_SECONDS) -> None:
        self.young, self.whole = young, whole
        self._thresholds = gc.get_threshold()
        self._handle: asyncio.TimerHandle | None = None
        self._next_whole = 0.0
        self.passes = {"young": 0, "whole": 0}
        self.longest_ms = {"young": 0.0, "whole": 0.0}  # CPU, the longest pass of each

    def start(self) -> None:
        """On the running loop: what is loaded by now is set aside at once."""
        gc.collect()
        gc.freeze()
        gc.set_threshold(*THRESHOLDS)
        self._next_whole = time.monotonic() + self.whole
        self._handle = asyncio.get_running_loop().call_later(self.young, self._tick)

    def _tick(self) -> None:
        if time.monotonic() >= self._next_whole:
            self.collect_whole()
        else:
            self.collect_young()
        self._handle = asyncio.get_running_loop().call_later(self.young, self._tick)

    def collect_young(self) -> None:
        """Walk what was made since the last pass; set the survivors aside."""
        started = time.thread_time()
        # Collections by count also leave survivors in the middle and old generations:
        # the pass takes them too (the generations below the old are cheap to walk).
        gc.collect(1)
        gc.freeze()
        self._took("young", started)

    def collect_whole(self) -> None:
        """Walk everything, what was set aside too: cycles among it are freed."""
        started = time.thread_time()
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self._took("whole", started)
        self._next_whole = time.monotonic() + self.whole

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


__all__ = ["WHOLE_SECONDS", "YOUNG_SECONDS", "Collector"]
