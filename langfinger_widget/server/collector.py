"""The cyclic garbage collector in a server process (issue 39): short pauses, and each
object walked about once.

A server holds every live table's game, and each move replaces a table's state with a new
one (~70 tracked lists, dicts and objects for Langfinger). Reference counting frees the old
state, and every free counts against the collector's allocation counter, so the counter
barely moves while the young generation fills up with the tables' new states: at 1,000
tables the collector's young passes walked 50,000-60,000 objects at a time (30-60 ms of
CPU) and its middle-generation passes every state again (up to 200 ms), whatever the
thresholds. Those pauses were most of a round trip's p99.

So the young objects are walked on a clock instead, every :data:`YOUNG_SECONDS`, and what
survives stays in the middle generation, which the collector never walks by itself: a
state is walked once, young, and freed by reference counting as usual when its table
moves on. A cycle that becomes garbage there later (a closed connection's protocol and
transport, say) is freed by a whole sweep every :data:`SWEEP_SECONDS`. What the process
loaded before it started serving (modules, the app) is set aside for good (``gc.freeze``):
no sweep walks it.
"""

from __future__ import annotations

import asyncio
import gc
import time

YOUNG_SECONDS = 0.1  # young objects are walked this often: a few thousand at a time
SWEEP_SECONDS = 60.0  # all made since the start is walked this often: cycles among it
# Between the clock's passes the collector still runs by itself on a burst of allocations
# (a thousand tables loaded at once), young objects only: the older generations are
# walked only by the sweep.
YOUNG_ALLOCATIONS = 5_000
NEVER = 2**30


class Collector:
    """Runs the collector on the event loop's clock (see the module's docstring)."""

    def __init__(self, young: float = YOUNG_SECONDS, sweep: float = SWEEP_SECONDS) -> None:
        self.young = young
        self.sweep_every = sweep
        self._thresholds = gc.get_threshold()
        self._handle: asyncio.TimerHandle | None = None
        self._next_sweep = 0.0
        self.sweeps = 0
        self.swept_ms = 0.0  # CPU of the last sweep

    def start(self) -> None:
        """On the running loop: what is loaded by now lives as long as the process."""
        gc.collect()
        gc.freeze()
        gc.set_threshold(YOUNG_ALLOCATIONS, NEVER, NEVER)
        self._next_sweep = time.monotonic() + self.sweep_every
        self._handle = asyncio.get_running_loop().call_later(self.young, self._tick)

    def _tick(self) -> None:
        if time.monotonic() >= self._next_sweep:
            self.sweep()
        else:
            gc.collect(0)
        self._handle = asyncio.get_running_loop().call_later(self.young, self._tick)

    def sweep(self) -> None:
        """Walk everything made since the start once: cycles among it are freed."""
        started = time.thread_time()
        gc.collect()
        self.swept_ms = (time.thread_time() - started) * 1000
        self.sweeps += 1
        self._next_sweep = time.monotonic() + self.sweep_every

    def stop(self) -> None:
        """Back to the collector's own ways (the thresholds it had, nothing set aside)."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        gc.unfreeze()
        gc.set_threshold(*self._thresholds)


__all__ = ["SWEEP_SECONDS", "YOUNG_SECONDS", "Collector"]
