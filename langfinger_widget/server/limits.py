"""What one client may cost the server: the lobby's calls, the event loop's turns.

The lobby's calls each cost a database round trip (a table made, a seat taken),
so each client address has a token bucket of its own. Loopback is not limited: it is this
machine's own scripts, or a proxy in front, which sees the real addresses and
must limit by them itself (every request through it comes from one address here).

The event loop: bots and hints think a slice a turn between them (:class:`Turns`),
so that however many think, a person's message waits one slice at most.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import time
from collections import deque
from collections.abc import Callable, Iterator
from typing import TypeVar

from .kernel import Handle, LoopScheduler, Pending, Slices, TokenBucket

T = TypeVar("T")
# How long one slice of a bot's or a hint's search holds the loop on the server.
SLICE_SECONDS = 0.005

MAX_ADDRESSES = 10_000  # buckets kept; past this, the idle ones are forgotten first


def is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address.split("%")[0]).is_loopback
    except ValueError:
        return False


class AddressLimits:
    """``rate`` calls a second an address, in bursts of up to ``burst``."""

    def __init__(self, rate: float, burst: int, max_addresses: int = MAX_ADDRESSES) -> None:
        self.rate = rate
        self.burst = burst
        self.max_addresses = max_addresses
        self._buckets: dict[str, TokenBucket] = {}

    def allow(self, address: str | None, now: float) -> bool:
        if address is None or is_loopback(address):
            return True
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= self.max_addresses:
                self._forget(now)
            bucket = self._buckets[address] = TokenBucket(self.rate, self.burst)
        return bucket.take(now)

    def _forget(self, now: float) -> None:
        """Drop the buckets that are full again (forgetting them changes nothing), and if
        that is not enough the older half: memory stays bounded whoever asks."""
        full = self.burst / self.rate if self.rate > 0 else float("inf")
        for address, bucket in list(self._buckets.items()):
            if bucket.stamp is not None and now - bucket.stamp >= full:
                del self._buckets[address]
        if len(self._buckets) >= self.max_addresses:
            for address in list(self._buckets)[: len(self._buckets) // 2 + 1]:
                del self._buckets[address]


class Turns(LoopScheduler):
    """The hub's scheduler: thinking (bots, hints) gets one slice a turn of the event loop,
    and none while a person's change is under way.

    Each :class:`~langfinger_widget.tables.scheduler.Slices` asks for its next slice "now";
    on a plain loop every search's slice would run in the same turn, so with many searches
    a person's message, read between turns, waited for all of them. Here the slices wait
    in one line and a single pump runs one a turn, round robin: a message waits at most
    one slice, whatever the number of searches, and a loop with nothing else to do still
    runs them back to back. While a person's move (or undo, or seat change) is being
    committed (:meth:`first`) no slice starts, nor in the ``after_people`` turns after it,
    in which its answer and its updates are written out by their sockets' tasks (a slice
    before each of those turns cost a person's round trip a slice a turn, 20-50 ms with a
    hundred bot tables thinking on a shared core); for up to ``people_first`` seconds at a
    time: people's moves come first, and a stream of them cannot starve the bots.
    """

    people_first = 0.25
    after_people = 3  # turns: the reply pushed, the sockets' tasks woken, their frames sent

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(loop)
        self._line: deque[Pending] = deque()
        self._pumping = False
        self._people = 0
        self._held = 0  # turns still held after the last person's change (after_people)
        self._release_turn: asyncio.Handle | None = None
        self._since = 0.0  # when people last began to go first
        self._resume: asyncio.TimerHandle | None = None

    def call_later(self, delay: float, callback: Callable[[], None]) -> Handle:
        if delay > 0 or not self.on_owner_thread():
            return super().call_later(delay, callback)
        turn = Pending(callback)
        self._line.append(turn)
        self._wake()
        return turn

    @contextlib.contextmanager
    def first(self) -> Iterator[None]:
        """A person's change is under way: thinking waits (see the class's docstring)."""
        if not self._people and not self._held:
            self._since = self.loop.time()
        self._people += 1
        if self._release_turn is not None:
            self._release_turn.cancel()
            self._release_turn = None
        try:
            yield
        finally:
            self._people -= 1
            if not self._people:
                self._held = self.after_people
                self._release_turn = self.loop.call_soon(self._release)

    def _release(self) -> None:
        """A turn of the loop has passed since the last person's change ended."""
        self._held -= 1
        if self._held > 0:
            self._release_turn = self.loop.call_soon(self._release)
            return
        self._release_turn = None
        if self._resume is not None:
            self._resume.cancel()
            self._resume = None
        self._wake()

    def _resumed(self) -> None:
        self._resume = None
        self._held = 0  # people_first is up: the bots' turn, whatever is held
        if self._release_turn is not None:
            self._release_turn.cancel()
            self._release_turn = None
        self._wake()

    def _wake(self) -> None:
        if self._line and not self._pumping:
            self._pumping = True
            self.loop.call_soon(self._pump)

    def _pump(self) -> None:
        waited = self.loop.time() - self._since
        if (self._people or self._held) and waited < self.people_first:
            self._pumping = False  # woken by the last person out, or when the wait is up
            if self._resume is None:
                self._resume = self.loop.call_later(self.people_first - waited, self._resumed)
            return
        while self._line:
            turn = self._line.popleft()
            if not turn.cancelled:
                turn.callback()
                break
        if self._line:
            self.loop.call_soon(self._pump)
        else:
            self._pumping = False


class Thinking(Slices[T]):
    """A search on the server, in slices of :data:`SLICE_SECONDS` (shorter than a board's:
    a person's message goes through a few turns of the loop, a slice each)."""

    def _slice(self) -> None:
        self._run(deadline=time.perf_counter() + SLICE_SECONDS)
        if self.active:
            self._handle = self._scheduler.call_later(0.0, self._slice)
