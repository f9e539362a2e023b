"""When background work runs: on the event loop, never in a thread (Pyodide has none).

The game has one owner: the thread that runs its event loop. Every change to
it happens there. Work that arrives on another thread (ipykernel 7 hands a
widget's comm messages to a *subshell* thread when JupyterLab 4.6 or
Notebook 7.6 send comms over subshells, their default) is handed over with
:meth:`Scheduler.run_on_owner`, which wakes the owner's loop
(``call_soon_threadsafe``); a ``call_later`` from a foreign thread is handed
over the same way, because asyncio's own would neither be thread-safe nor
wake a loop asleep in ``select``.

A :class:`Scheduler` runs callbacks after a delay. :func:`event_loop_scheduler`
gives the running asyncio loop's (ipykernel's, Voilà's, marimo's, or Pyodide's
WebLoop in JupyterLite); :class:`ManualScheduler` is a clock that moves only
when told, for deterministic tests and for scripts that have no loop.
:class:`Slices` runs a long computation (a bot's search) a slice at a time, so
that clicks are answered between slices.

>>> from langfinger_widget.tables.scheduler import ManualScheduler
>>> clock = ManualScheduler()
>>> seen = []
>>> _ = clock.call_later(0.5, lambda: seen.append(clock.now()))
>>> clock.advance(1.0)
1
>>> seen
[0.5]
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import threading
import time
from collections.abc import Callable, Generator
from typing import Generic, Protocol, TypeVar

from .runtime import in_pyodide

T = TypeVar("T")
# The slowest pace anything on a clock may be set to, in seconds a move: a bot's move at a
# table, a decision of a replay playing on, a server room's bots.
MAX_PACE = 10.0

# How long one slice of thinking may hold the loop: short enough that a click waits at most
# this long, long enough that the loop's own overhead stays small.
SLICE_SECONDS = 0.02


class Handle(Protocol):
    def cancel(self) -> None: ...


class Scheduler(Protocol):
    """Runs callbacks later, on the one thread that owns the game."""

    def now(self) -> float: ...

    def call_later(self, delay: float, callback: Callable[[], None]) -> Handle: ...

    def run_on_owner(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` on the owner's thread: now if called there, else handed over."""
        ...


class LoopScheduler:
    """Callbacks on an asyncio event loop, owned by the thread that made the scheduler.

    ``thread`` is that thread's ident (:func:`threading.get_ident`); by default
    the calling thread's, which is the loop's when made by
    :func:`event_loop_scheduler`.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, thread: int | None = None) -> None:
        self.loop = loop
        self.thread = threading.get_ident() if thread is None else thread

    def now(self) -> float:
        return self.loop.time()

    def on_owner_thread(self) -> bool:
        return threading.get_ident() == self.thread

    def call_later(self, delay: float, callback: Callable[[], None]) -> Handle:
        if self.on_owner_thread():
            return self.loop.call_later(max(0.0, delay), callback)
        handle = _HandedOver(self.loop, delay, callback)
        self.loop.call_soon_threadsafe(handle.start)
        return handle

    def run_on_owner(self, callback: Callable[[], None]) -> None:
        if self.on_owner_thread():
            callback()
        else:
            self.loop.call_soon_threadsafe(callback)


class _HandedOver:
    """A ``call_later`` asked for on a foreign thread, started on the loop's own thread.

    Cancelling it before it starts keeps it from ever starting.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, delay: float,
                 callback: Callable[[], None]) -> None:
        self._loop, self._delay, self._callback = loop, delay, callback
        self._lock = threading.Lock()
        self._timer: asyncio.TimerHandle | None = None
        self._cancelled = False

    def start(self) -> None:
        with self._lock:
            if not self._cancelled:
                self._timer = self._loop.call_later(max(0.0, self._delay), self._callback)

    def cancel(self) -> None:
        with self._lock:
            self._cancelled = True
            if self._timer is not None:
                self._timer.cancel()


def event_loop_scheduler() -> LoopScheduler | None:
    """The running event loop's scheduler, or None where no loop runs (a plain script)."""
    try:
        return LoopScheduler(asyncio.get_running_loop())
    except RuntimeError:
        pass
    if in_pyodide():  # Pyodide: its WebLoop is the current loop, always live
        return LoopScheduler(asyncio.get_event_loop())
    return None


class Pending:
    """A callback waiting for its turn (a :class:`Handle`): cancelling it only marks it, and
    whoever runs the line skips it, so no queue is searched to take it out."""

    __slots__ = ("callback", "cancelled")

    def __init__(self, callback: Callable[[], None]) -> None:
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualScheduler:
    """A clock that moves only when :meth:`advance` (or :meth:`run_all`) is called.

    ``clock`` gives the time; by default it starts at 0 and moves only by
    :meth:`advance`, which makes every interleaving of clicks and bot moves
    reproducible in tests.
    """

    def __init__(self, clock: Callable[[], float] | None = None) -> None:
        self._clock = clock
        self._now = 0.0
        self._queue: list[tuple[float, int, Pending]] = []
        self._order = itertools.count()
        # No loop to hand work to: callers on any thread take turns instead.
        self._owner = threading.RLock()

    def now(self) -> float:
        return self._clock() if self._clock is not None else self._now

    def run_on_owner(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` now, one thread at a time (a manual clock has no loop to wake)."""
        with self._owner:
            callback()

    def call_later(self, delay: float, callback: Callable[[], None]) -> Handle:
        entry = Pending(callback)
        heapq.heappush(self._queue, (self.now() + max(0.0, delay), next(self._order), entry))
        return entry

    @property
    def pending(self) -> int:
        """Callbacks waiting (cancelled ones not counted)."""
        return sum(not entry.cancelled for _, _, entry in self._queue)

    def advance(self, seconds: float) -> int:
        """Move the clock on by ``seconds``, running what falls due in order; return how many."""
        until = self.now() + seconds
        ran = 0
        while self._queue and self._queue[0][0] <= until:
            when, _, entry = heapq.heappop(self._queue)
            self._now = max(self._now, when)
            if not entry.cancelled:
                self.run_on_owner(entry.callback)
                ran += 1
        self._now = max(self._now, until)
        return ran

    def tick(self) -> int:
        """One turn of the loop: run what is due now, not what those callbacks schedule."""
        due = []
        while self._queue and self._queue[0][0] <= self.now():
            due.append(heapq.heappop(self._queue)[2])
        for entry in due:
            if not entry.cancelled:
                self.run_on_owner(entry.callback)
        return sum(not e.cancelled for e in due)

    def run_all(self, limit: int = 100_000) -> int:
        """Run every callback, the ones they schedule too, ignoring delays (up to ``limit``)."""
        ran = 0
        while self._queue and ran < limit:
            when, _, entry = heapq.heappop(self._queue)
            self._now = max(self._now, when)
            if not entry.cancelled:
                self.run_on_owner(entry.callback)
                ran += 1
        return ran


class Slices(Generic[T]):
    """Runs ``steps`` (a generator that yields between small pieces of work) a slice at a time.

    Each slice runs pieces for up to :data:`SLICE_SECONDS`, then hands the
    loop back. When the generator returns, ``on_done(value)`` is called; if it
    raises, ``on_error(exc)``. :meth:`cancel` stops it for good;
    :meth:`finish` runs the rest at once (for scripts that wait).
    """

    def __init__(
        self,
        scheduler: Scheduler,
        steps: Generator[None, None, T],
        on_done: Callable[[T], None],
        on_error: Callable[[Exception], None],
    ) -> None:
        self._scheduler = scheduler
        self._steps = steps
        self._on_done = on_done
        self._on_error = on_error
        self._handle: Handle | None = None
        self.active = True

    def start(self, delay: float = 0.0) -> Slices[T]:
        self._handle = self._scheduler.call_later(delay, self._slice)
        return self

    def cancel(self) -> None:
        self.active = False
        if self._handle is not None:
            self._handle.cancel()
        self._steps.close()

    def finish(self) -> None:
        """Run what is left now, in this call (``on_done``/``on_error`` as usual)."""
        if self._handle is not None:
            self._handle.cancel()
        self._run(deadline=None)

    def _slice(self) -> None:
        self._run(deadline=time.perf_counter() + SLICE_SECONDS)
        if self.active:
            self._handle = self._scheduler.call_later(0.0, self._slice)

    def _run(self, deadline: float | None) -> None:
        if not self.active:
            return
        try:
            while True:  # at least one piece a slice, so that every slice makes progress
                next(self._steps)
                if deadline is not None and time.perf_counter() >= deadline:
                    break
        except StopIteration as stop:
            self.active = False
            self._on_done(stop.value)
        except Exception as exc:  # reported, never raised into the loop: the game goes on
            self.active = False
            self._on_error(exc)


def at_once(steps: Generator[None, None, T]) -> T:
    """Run a sliced computation straight through and return its result."""
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]


class TokenBucket:
    """``rate`` events a second on average, in bursts of up to ``burst``: a token bucket.

    The game server refuses a connection's messages beyond its bucket (``server/protocol.py``
    builds its limit on this one); an online seat keeps under it with a smaller bucket of its
    own, so a script playing as fast as it can is slowed down, never cut off.

    >>> bucket = TokenBucket(rate=2.0, burst=1)
    >>> bucket.take(now=0.0), bucket.take(now=0.1), bucket.wait(now=0.1)
    (True, False, 0.4)
    """

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp: float | None = None

    def refill(self, now: float) -> float:
        """Top the bucket up for the time since it was last looked at; that time, in seconds."""
        elapsed = 0.0 if self.stamp is None else max(0.0, now - self.stamp)
        self.tokens = min(self.burst, self.tokens + elapsed * self.rate)
        self.stamp = now
        return elapsed

    def take(self, now: float) -> bool:
        """Spend a token if there is one (True), else change nothing (False)."""
        self.refill(now)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def wait(self, now: float) -> float:
        """Seconds until a token is there (0.0: one is there now)."""
        self.refill(now)
        return round(max(0.0, (1.0 - self.tokens) / self.rate), 9)
