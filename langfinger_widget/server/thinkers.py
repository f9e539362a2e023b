"""Bots and hints that think in worker processes, off the event loop (issue 39).

On the loop a search runs in slices (limits.Thinking), which bounds the time a person's
message waits for the Python code of a search, not for the garbage collector: with a
hundred searches' trees alive at once, a collection that lands in a slice walks all of
them (5-30 ms young, 150-200 ms for the middle generation) while the person waits. In a
worker process the trees, and their collections, are out of the server's heap. A hint
searches 1,500 iterations, an `expert` bot's budget or more: on the loop, one client's
hints would cost every table's people latency, so hints go to the workers as well.

A worker gets what :func:`~langfinger_widget.tables.table.bot_steps` gives a bot (or, for
a hint, the hint's search) on the loop, and nothing else: the seat's view, its legal
actions and (a game other than Langfinger) the twin the server resampled for the seat,
which holds nothing the seat has not seen. It builds the bot afresh for each move: the
bots keep nothing between moves but their random generator, so a bot seeded anew a move
plays as well as one kept a table long.

The workers run at a lower priority (nice), so that the kernel gives the core to the
event loop's process first whenever both want it. A worker that dies breaks the pool: the
next question starts a new pool, and each question the broken pool held is asked again
in the new one, once. A question whose second pool breaks too fails (one that kills its
worker itself would otherwise go round for good): the hub then plays a random legal move for a bot,
as for a bot that failed on the loop, and answers a hint "no hint".
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from . import kernel

log = logging.getLogger("langfinger.server")

NICE = 10  # added to a worker's niceness: the loop's process comes first on a shared core
MAX_PROCESSES = 64


# At least one worker, even where the server has a single core: at nice 10 the kernel runs
# the loop's process first, and the searches' trees (and the collector's walks over them)
# are out of the server's heap. With the server and its worker pinned to one core and 100
# tables of `expert` bots thinking, people's p99 was 7 ms against 92-148 ms with the bots
# on the loop (benchmarks/README.md). A worker answers one question at a time, so a bigger
# machine gets more: half the cores the server may run on (the other half for its event
# loops: one server process a core is how it scales, docs/server.md), at most DEFAULT_MOST.
DEFAULT_MOST = 8


def default_processes() -> int:
    """The bots' workers when none is asked for: see above."""
    try:
        cores = len(os.sched_getaffinity(0))  # what taskset or a container allows
    except (AttributeError, OSError):  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(DEFAULT_MOST, cores // 2))


def check_processes(processes: object) -> int:
    if type(processes) is not int or not 0 <= processes <= MAX_PROCESSES:
        raise kernel.BadArgument(f"bot processes is a whole number from 0 (the bots think on "
                                 f"the event loop) to {MAX_PROCESSES}, not {processes!r}")
    return processes


@dataclass(frozen=True)
class Question:
    """What a worker is sent to choose one move (or weigh one, for a hint): what the bot
    (or the hint's search) is given on the loop."""

    game: str  # the game's registered name
    level: str  # the bot's level (or name); unused for a hint, whose bot is fixed
    seed: int  # the bot's
    view: dict[str, Any]
    legal: list[Any]
    twin: kernel.GameState | None
    hint: bool = False  # the answer is the hint's (action, value), not a bot's action


def question(game: kernel.GameState, seat: int, level: str, seed: int, twin_seed: int,
             hint: bool = False) -> Question:
    """Built on the server, where the game's hidden part stays: see the module's docstring."""
    view, legal, twin = kernel.bot_inputs(game, seat, twin_seed)
    return Question(kernel.games.spec_of(game).name, level, seed, view, legal, twin, hint)


def answer(asked: Question) -> Any:
    """The move (for a hint: the move and its value), in a worker: the whole search, at
    once."""
    bot = (kernel.make_hint_bot(seed=asked.seed) if asked.hint
           else kernel.make(asked.level, seed=asked.seed, game=asked.game))
    return kernel.at_once(kernel.searching(bot, asked.view, asked.legal, asked.twin,
                                           asked.hint))


def _worker_started(lifeline: Connection) -> None:
    # Ctrl-C in a terminal reaches the whole process group: the server stops its workers
    # itself, and a traceback from each would only bury its own message.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(AttributeError, OSError):  # no nice on Windows
        os.nice(NICE)
    threading.Thread(target=_outlive_no_server, args=(lifeline,), daemon=True).start()


def _outlive_no_server(lifeline: Connection) -> None:
    """End the worker once the server is gone. A pool's worker waits on its queue, whose
    write end it holds itself: a server killed (-9, or by the OOM killer) would leave it,
    and the forkserver it keeps alive, running for good. Only the server holds the
    lifeline's other end, and nothing is ever sent on it: end of file is the server's end
    (or the pool's: :meth:`Thinkers._end` closes it)."""
    with contextlib.suppress(EOFError, OSError):
        lifeline.recv_bytes()
    os._exit(0)


class Asked:
    """One question under way: its answer goes to ``done`` (or its failure to ``failed``)
    on the loop, unless it was cancelled first."""

    def __init__(self, loop: asyncio.AbstractEventLoop, done: Callable[[Any], None],
                 failed: Callable[[Exception], None]) -> None:
        self.loop = loop
        self.done, self.failed = done, failed
        self.future: concurrent.futures.Future[Any] | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.cancelled = False
        self.sent = 0  # times submitted: a pool's death is retried once (see the module)

    def cancel(self) -> None:
        self.cancelled = True
        if self.timer is not None:
            self.timer.cancel()
        if self.future is not None:
            self.future.cancel()  # not started yet: no worker spends time on it

    def settle(self, future: concurrent.futures.Future[Any]) -> None:
        """On the loop: hand the answer on (a superseded one is dropped here, and again by
        the hub, which checks the position it was asked for)."""
        if self.cancelled or future.cancelled():
            return
        failure = future.exception()
        if failure is None:
            self.done(future.result())
        else:
            self.failed(failure if isinstance(failure, Exception) else RuntimeError(failure))


class Thinkers:
    """A pool of ``processes`` workers for the bots' moves and the hints, started at the
    first question."""

    def __init__(self, processes: int) -> None:
        self.processes = check_processes(processes)
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._lifelines: dict[concurrent.futures.ProcessPoolExecutor,
                              tuple[Connection, Connection]] = {}
        self.pools = 0  # pools started (a broken one is replaced: the tests count them)
        self._closed = False  # stopped for good: a question failing now is not asked again

    def ask(self, loop: asyncio.AbstractEventLoop, asked: Question,
            done: Callable[[Any], None], failed: Callable[[Exception], None],
            delay: float = 0.0) -> Asked:
        """Ask a worker for a move (or a hint); the answer comes back on ``loop``, never
        before this returns: the caller holds the :class:`Asked` (to cancel it, to count
        it) before ``done`` or ``failed`` can run."""
        waiting = Asked(loop, done, failed)

        def send() -> None:
            waiting.timer = None
            if waiting.cancelled:
                return
            try:
                pool, future = self._submit(asked)
            except Exception as exc:  # no pool could start: the hub's fallback plays
                failure: concurrent.futures.Future[Any] = concurrent.futures.Future()
                failure.set_exception(exc)
                loop.call_soon(waiting.settle, failure)
                return
            waiting.future = future
            waiting.sent += 1

            def settle(future: concurrent.futures.Future[Any]) -> None:  # on the loop
                broken = not future.cancelled() and isinstance(future.exception(),
                                                               BrokenProcessPool)
                if broken and self._pool is pool:
                    # (A pool closed or already replaced: its end was no surprise.)
                    log.error("a worker process died; the pool starts again, and the questions "
                              "it held are asked again, once")
                    self._discard(pool)
                if broken and not self._closed and waiting.sent < 2:
                    # It may only have been waiting in the pool another question killed.
                    # (Called off meanwhile: send drops it.)
                    send()
                    return
                waiting.settle(future)

            future.add_done_callback(lambda f: _to_loop(loop, settle, f))

        if delay > 0:
            waiting.timer = loop.call_later(delay, send)
        else:
            send()
        return waiting

    def _submit(self, asked: Question) -> tuple[concurrent.futures.ProcessPoolExecutor,
                                                  concurrent.futures.Future[Any]]:
        for _ in range(2):
            pool = self.pool()
            try:
                return pool, pool.submit(answer, asked)
            except BrokenProcessPool:  # a worker died: its pool takes no more work
                self._discard(pool)
        raise BrokenProcessPool("the bots' worker processes could not be started")

    def pool(self) -> concurrent.futures.ProcessPoolExecutor:
        """The workers' pool, started now if none runs."""
        return self._pool or self._start()

    def _start(self) -> concurrent.futures.ProcessPoolExecutor:
        # Not fork: the server has threads (the pool's own, the database driver's), and a
        # child forked from a threaded process may inherit a lock some thread held.
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("forkserver" if "forkserver" in methods
                                              else "spawn")
        lifeline, held = context.Pipe(duplex=False)
        pool = concurrent.futures.ProcessPoolExecutor(
            self.processes, mp_context=context, initializer=_worker_started,
            initargs=(lifeline,))
        # Both ends live as long as the pool: workers may start later, each given the one.
        self._lifelines[pool] = (lifeline, held)
        self._pool = pool
        self.pools += 1
        return pool

    def _discard(self, pool: concurrent.futures.ProcessPoolExecutor) -> None:
        if self._pool is pool:
            self._pool = None
        self._end(pool)

    def pids(self) -> list[int]:
        """The workers' process ids (none before the first question)."""
        processes = getattr(self._pool, "_processes", None) or {}
        return sorted(processes)

    def close(self) -> None:
        """Stop the workers now, without waiting for the searches they run (their tables'
        bots think again when the tables are next loaded)."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            self._end(pool)

    def _end(self, pool: concurrent.futures.ProcessPoolExecutor) -> None:
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        # A search runs up to a second or more (longer on a busy core at a lower priority):
        # shutdown alone would let the interpreter's exit wait for it.
        for process in processes:
            with contextlib.suppress(Exception):
                process.terminate()
        for end in self._lifelines.pop(pool, ()):
            end.close()


def _to_loop(loop: asyncio.AbstractEventLoop, call: Callable[[Any], None], arg: Any) -> None:
    with contextlib.suppress(RuntimeError):  # the loop is closed: the server has stopped
        loop.call_soon_threadsafe(call, arg)
