"""The game server's capacity: offered load against round trip, CPU and fsyncs (issues 31, 39).

Starts ``python -m langfinger_widget.server`` (one process on SQLite, or two sharing a real
Postgres and Redis started from Debian's binaries) pinned to one core, creates TABLES
tables of SEATS people and plays them from bot clients in separate processes pinned to the
other cores (``os.sched_setaffinity``), over real WebSockets on loopback. Each seat moves a
random legal move after a think time (exponential, mean T), so a sweep step offers
``tables / T`` moves a second; a table whose game ends is replaced by a new one. Per step
it prints the offered and achieved moves a second, the p50/p99/max of a move's round trip
(the act sent to its result received, after the commit and the updates), the server's CPU
time per move (process CPU time, which load on the machine distorts far less than wall
clock), the fsyncs a second (counted by strace where it is installed), the RSS, and the
event loop's thread's share: its CPU time, reads and writes (the sockets' system calls) a
move. Then a
fresh client at every table sees exactly the moves that were acknowledged, and each
table's record replays them.

    python benchmarks/server.py                                 # sweep 50..1600 moves/s
    python benchmarks/server.py --loads 100,200,400 --step 8 --json out.json --plot p99.png
    python benchmarks/server.py --compare /tmp/old              # the same sweep, another tree
    python benchmarks/server.py --quick                         # seconds; CI runs it
    python benchmarks/server.py --mode cluster                  # two processes, Postgres+Redis
    python benchmarks/server.py --bot-tables 100                # people's p99, bots thinking
    python benchmarks/server.py --bot-tables 100 --bot-processes 0  # ... bots on the loop
    python benchmarks/server.py --mode turns --compare /tmp/old # thinking during a move
    python benchmarks/server.py --mode kernel --compare /tmp/old  # the kernel's share
    python benchmarks/server.py --mode sends --compare /tmp/old   # a frame's writer task
    python benchmarks/server.py --mode follow --compare /tmp/old  # following another's moves
    python benchmarks/server.py --mode writer --compare /tmp/old  # SQLite's writer, a group
    python benchmarks/server.py --mode hub --rate 400 --compare /tmp/old  # moves arriving

``--compare DIR`` runs the sweep first against the server of another checkout (e.g. made by
``git archive main | tar -x -C DIR``), then against this one: before and after in one run.
Figures only: nothing asserts them; ``--quick`` exits non-zero if a move was lost.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import itertools
import json
import math
import multiprocessing as mp
import os
import platform
import random
import secrets
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psutil
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "server"), str(ROOT / "benchmarks")]
import services  # noqa: E402  (tests/server/services.py: real Postgres and Redis)
import wsload  # noqa: E402  (benchmarks/wsload.py: the load's lean client)

import langfinger_widget as lf  # noqa: E402
from langfinger_widget.server.collector import Collector  # noqa: E402
from langfinger_widget.server.connections import raise_fd_limit  # noqa: E402

try:  # the load clients decode with msgspec where it is installed: they must outrun the server
    import msgspec

    _decode: Any = msgspec.json.Decoder().decode
except ImportError:  # pragma: no cover
    _decode = json.loads

WARMUP = 2.0  # seconds of the first load before the first step counts (sockets, caches)


# --- the server -------------------------------------------------------------------------------
class Server:
    """One server process (under strace when counting fsyncs), pinned to ``cores``."""

    def __init__(self, port: int, args: list[str], code: Path, cores: set[int] | None,
                 fsyncs: bool, profile: Path | None = None) -> None:
        self.port = port
        env = {**os.environ, "PYTHONPATH": str(code), "PYTHONUNBUFFERED": "1"}
        self.log = Path(tempfile.mkstemp(prefix=f"lf-server-{port}-", suffix=".log")[1])
        self.trace = Path(tempfile.mkstemp(prefix=f"lf-fsync-{port}-", suffix=".txt")[1])
        command = [sys.executable, "-m", "langfinger_widget.server", "--port", str(port), *args]
        if profile is not None:  # the event loop's thread, written when the server stops
            command[1:1] = ["-m", "cProfile", "-o", str(profile)]
        if fsyncs:
            # seccomp-bpf: only the traced calls stop the process, so the rest runs at speed.
            command = ["strace", "-f", "--seccomp-bpf", "-qq", "-e", "trace=fsync,fdatasync",
                       "-o", str(self.trace), *command]

        def pin() -> None:
            if cores:
                os.sched_setaffinity(0, cores)  # inherited by every thread the server starts

        with self.log.open("w") as out:  # a file, never a pipe nobody reads (it would fill)
            self.proc = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT,
                                         preexec_fn=pin, cwd=str(code))
        deadline = time.monotonic() + 60
        while "Langfinger server:" not in self.log.read_text():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start:\n{self.log.read_text()}")
            time.sleep(0.05)
        top = psutil.Process(self.proc.pid)
        self.ps = top.children()[0] if fsyncs else top
        self.profiled = profile is not None
        self.peak_rss = 0
        self.data: Path | None = None  # its SQLite database's directory (single mode)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def cpu(self) -> tuple[float, float]:
        """User and system CPU seconds (all threads)."""
        times = self.ps.cpu_times()
        return times.user, times.system

    def loop_thread(self) -> tuple[float, int, int]:
        """The event loop's thread (the main one): its CPU seconds, and the read and write
        calls it made (/proc's ``syscr`` and ``syscw``: the sockets' reads and frame writes;
        SQLite's are its writer thread's)."""
        pid = self.ps.pid
        cpu = next((t.user_time + t.system_time for t in self.ps.threads() if t.id == pid), 0.0)
        try:
            fields = dict(line.split(": ") for line in
                          Path(f"/proc/{pid}/task/{pid}/io").read_text().splitlines())
        except OSError:  # not Linux, or not ours to read
            return cpu, 0, 0
        return cpu, int(fields["syscr"]), int(fields["syscw"])

    def rss(self) -> int:
        rss = int(self.ps.memory_info().rss)
        self.peak_rss = max(self.peak_rss, rss)
        return rss

    def fsyncs(self) -> int:
        with self.trace.open("rb") as f:
            return sum(chunk.count(b"sync(") for chunk in iter(lambda: f.read(1 << 16), b""))

    def stop(self) -> None:
        # The server itself (strace, if it runs it, then ends with it). SIGINT when profiled:
        # uvicorn raises the signal again once it has stopped, and only an interrupt (which
        # the CLI catches) lets cProfile write its figures.
        self.ps.send_signal(signal.SIGINT if self.profiled else signal.SIGTERM)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.ps.kill()
            self.proc.kill()
            self.proc.wait()
        problems = [line for line in self.log.read_text().splitlines()
                    if "ERROR" in line or "Traceback" in line]
        if problems:
            print(f"  the server on port {self.port} logged {len(problems)} problem(s); "
                  f"see {self.log}")
        else:
            self.log.unlink()
        self.trace.unlink(missing_ok=True)


@contextlib.contextmanager
def started(mode: str, code: Path, cores: set[int] | None, fsyncs: bool,
            profile: Path | None = None, count: int = 2, extra: Sequence[str] = ()
            ) -> Iterator[list[Server]]:
    """``count`` servers on one Postgres and Redis (``cluster``), or one on SQLite;
    ``extra``: more of the servers' options."""
    data: Path | None = None
    with contextlib.ExitStack() as stack:
        if mode == "cluster":
            pg = stack.enter_context(services.postgres(fsync=True))
            bus = stack.enter_context(services.redis())
            args = ["--database", pg.url, "--broker", bus.url]
        else:
            data = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            args = ["--data", str(data)]
            count = 1
        args += extra
        servers: list[Server] = []
        try:
            for _ in range(count):
                servers.append(Server(services.free_port(), args, code, cores, fsyncs,
                                      profile if not servers else None))
                servers[-1].data = data
            yield servers
        finally:
            for s in servers:
                s.stop()


# --- the load: bot clients in other processes ---------------------------------------------------
@dataclass
class Table:
    id: str
    tokens: list[str]
    server: int  # the index of the server its seat 0 joined through
    # (the game's version the move was chosen at, the move) for every acknowledged move:
    # seats connected to different processes may take their results in another order than
    # the commits', and a result's seq is the table's when it was sent (a process that
    # followed the next move already, before it answered, quotes that one's), while each
    # move is chosen at its own version, in the order they are played.
    acked: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    def moves(self) -> list[dict[str, Any]]:
        return [action for _, action in sorted(self.acked, key=lambda a: a[0])]
    over: bool = False


@dataclass
class StepTally:
    moves: int = 0  # acknowledged (by the time the result came)
    round_trips: list[float] = field(default_factory=list)
    refused: int = 0
    rate_limited: int = 0
    created: int = 0  # tables made to replace finished games
    cpu: float = 0.0  # the load process's CPU seconds during the step: the load must outrun
    # the server, and a step whose load ran out of its core measured the load, not the server


async def _post(http: httpx.AsyncClient, url: str, body: dict[str, Any]) -> Any:
    """POST, sent again if the connection broke first: a pooled keep-alive connection that the
    server closed meanwhile (a busy machine makes that likely) is no failure of the server's.
    Sending again is safe: a table made twice is an extra table, and a join carries a key."""
    for attempt in range(3):
        try:
            return (await http.post(url, json=body)).json()
        except httpx.TransportError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


async def _create(http: httpx.AsyncClient, bases: Sequence[str], i: int, seats: int) -> Table:
    made = await _post(http, f"{bases[i % len(bases)]}/api/tables",
                       {"players": seats, "pace": 0})
    tokens = []
    for s in range(seats):
        joined = await _post(
            http, f"{bases[(i + s) % len(bases)]}/api/tables/{made['table']}/join",
            {"invite": made["invite_keys"][str(s)], "key": secrets.token_urlsafe(24)})
        tokens.append(joined["token"])
    return Table(made["table"], tokens, i % len(bases))


async def make_tables(bases: Sequence[str], count: int, seats: int, first: int = 0
                      ) -> list[Table]:
    # Bounded here, not by the pool alone: httpx's pool walks its queue of waiting requests
    # at every step, so thousands queued there take minutes (--mode idle makes 3,334).
    gate = asyncio.Semaphore(20)

    async def one(http: httpx.AsyncClient, i: int) -> Table:
        async with gate:
            return await _create(http, bases, first + i, seats)

    async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=20)) as http:
        return list(await asyncio.gather(*(one(http, i) for i in range(count))))


async def make_bot_tables(base: str, ws_url: str, count: int, seats: int, level: str) -> int:
    """``count`` tables that bots play to the end: a person and ``seats - 1`` bots at
    ``level``, the person resigning at once (its stand-in thinks at ``level`` too). They think
    on the server's loop while the people's tables play: what the people's round trip then
    shows is what many thinking bots cost a person's move. The tables made."""
    gate = asyncio.Semaphore(20)
    seat_specs = [{"kind": "person"}, *({"kind": "bot", "level": level}
                                        for _ in range(seats - 1))]

    async def one(http: httpx.AsyncClient) -> bool:
        async with gate:
            made = await _post(http, f"{base}/api/tables", {
                "players": seats, "seats": seat_specs, "pace": 0, "stand_in": level,
                "join": 0})
            async with connect(ws_url, max_size=None, compression=None) as ws:
                await ws.send(json.dumps({"kind": "hello", "token": made["token"]}))
                await ws.send(json.dumps({"kind": "resign", "id": 1}))
                while True:
                    msg = _decode(await ws.recv())
                    if msg["kind"] == "result":
                        return bool(msg["ok"])

    async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=20)) as http:
        return sum(await asyncio.gather(*(one(http) for _ in range(count))))


class Load:
    """One load process's tables: each seat a socket, moving after a think time."""

    def __init__(self, bases: list[str], wss: list[str], schedule: list[tuple[float, float]],
                 total_tables: int, start_at: float, seed: int, spread: int = 1) -> None:
        self.bases, self.wss = bases, wss
        self.spread = spread  # 1: seat s of table t to process t + s (mod N); 0: all to t
        self.schedule = schedule  # (offered moves/s, seconds) per step; step -1 is warm-up
        self.total_tables = total_tables
        self.start_at = start_at
        self.end_at = start_at + sum(s for _, s in schedule)
        self.rng = random.Random(seed)
        self.steps = [StepTally() for _ in schedule]
        self.tables: list[Table] = []
        self.next_index = seed * 100_000
        self.stop = asyncio.Event()
        self.in_flight: list[dict[int, Any]] = []  # each seat's moves sent, not yet answered
        self.failures: list[str] = []  # seats whose socket failed

    def step_at(self, now: float) -> int:
        """The step running at ``now`` (-1 before the first, during the warm-up)."""
        t = self.start_at
        for i, (_, seconds) in enumerate(self.schedule):
            t += seconds
            if now < t:
                return i if now >= self.start_at else -1
        return len(self.schedule) - 1

    def _next_boundary(self, now: float) -> float:
        t = self.start_at
        for _, seconds in self.schedule:
            if now < t:
                return t
            t += seconds
        return math.inf

    async def think(self) -> None:
        """A table's think time: each table moves as a Poisson process at this step's rate
        (offered / tables), so the tables together offer the step's load. A wait that would
        cross into the next step is drawn again there at the new rate (an exponential wait
        forgets how long it has lasted, so this is exact): with 1,000 tables a think lasts
        seconds, and waits drawn at the old rate took most of a step to follow a change."""
        while True:
            now = time.time()
            offered = self.schedule[max(0, self.step_at(now))][0]
            wait = self.rng.expovariate(offered / self.total_tables)
            boundary = self._next_boundary(now)
            if now + wait <= boundary:
                await asyncio.sleep(wait)
                return
            await asyncio.sleep(boundary - now)

    async def seat(self, table: Table, seat: int, http: httpx.AsyncClient) -> None:
        # ?table=, as the board's page and lf.online name it (for a balancer routing by table)
        url = f"{self.wss[(table.server + self.spread * seat) % len(self.wss)]}?table={table.id}"
        async with wsload.connect(url) as ws:
            ws.send(wsload.encode({"kind": "hello", "token": table.tokens[seat]}))
            latest: Any = None  # the last state or update (a wsload Frame)
            next_id = 0
            sent: dict[int, tuple[float, Any, int]] = {}
            self.in_flight.append(sent)  # run() waits for these answers at the end
            thinking: asyncio.Task[None] | None = None

            async def act(version: int, legal: list[Any]) -> None:
                nonlocal next_id
                await self.think()
                if self.stop.is_set():
                    return
                action = self.rng.choice(legal)
                next_id += 1
                sent[next_id] = (time.perf_counter(), action, version)
                ws.send(wsload.encode({"kind": "act", "id": next_id, "action": action,
                                       "version": version}))

            # A plain recv, cancelled by run() at the end: a recv under wait_for is a task of
            # its own each message, and polling every socket for the stop was 6,000 timeouts
            # a second at 1,000 tables; the load, not the server, then set the pace.
            # The game's last move can have its update (over) here before its result: the
            # seat waits for that result, or the move, kept by the server, was never counted
            # as acknowledged and verify() failed on every table whose game ended.
            over = False
            while not over or sent:
                msg = wsload.decode(await ws.recv())
                kind = msg.kind
                if kind in ("state", "update"):
                    latest = msg
                    if msg.view is not None and msg.view.is_over and not over:
                        over = table.over = True
                        if seat == 0 and not self.stop.is_set():
                            self.spawn_table(http)
                elif kind == "result":
                    started, action, chosen_at = sent.pop(msg.id)
                    tally = self.steps[max(0, self.step_at(time.time()))]
                    if msg.ok:
                        if time.time() >= self.start_at:
                            tally.moves += 1
                            tally.round_trips.append(time.perf_counter() - started)
                        table.acked.append((chosen_at, wsload.action(action)))
                    else:
                        tally.refused += 1
                    thinking = None
                elif kind == "error" and msg.code == "rate_limited":
                    self.steps[max(0, self.step_at(time.time()))].rate_limited += 1
                if latest is not None and latest.legal and thinking is None and not sent \
                        and not over and not self.stop.is_set():
                    thinking = asyncio.ensure_future(act(latest.version, latest.legal))
            if thinking is not None:
                thinking.cancel()

    def spawn_table(self, http: httpx.AsyncClient) -> None:
        async def replace() -> None:
            self.next_index += 1
            table = await _create(http, self.bases, self.next_index, 3)
            self.steps[max(0, self.step_at(time.time()))].created += 1
            self.start(table, http)

        self._tasks.append(asyncio.ensure_future(replace()))

    def start(self, table: Table, http: httpx.AsyncClient) -> None:
        self.tables.append(table)
        self._tasks.extend(asyncio.ensure_future(self._seat_task(table, s, http))
                           for s in range(len(table.tokens)))

    async def _seat_task(self, table: Table, seat: int, http: httpx.AsyncClient) -> None:
        try:
            await self.seat(table, seat, http)
        except asyncio.CancelledError:
            pass
        except Exception as exc:  # the sweep fails with it: a seat lost measures nothing
            self.failures.append(f"table {table.id} seat {seat}: {exc!r}")

    async def _clock_steps(self) -> None:
        """Each step's CPU time, read at the steps' boundaries."""
        boundary = self.start_at
        for i, (_, seconds) in enumerate(self.schedule):
            await asyncio.sleep(max(0.0, boundary - time.time()))
            cpu0 = time.process_time()
            boundary += seconds
            await asyncio.sleep(max(0.0, boundary - time.time()))
            self.steps[i].cpu = time.process_time() - cpu0

    async def run(self, tables: list[Table]) -> None:
        # The server's collector, short pauses: with the default thresholds a load process
        # holding 1,500 sockets walked them all in 60-90 ms passes, inside round trips it
        # was timing.
        collector = Collector()
        collector.start()
        try:
            await self._run(tables)
        finally:
            collector.stop()

    async def _run(self, tables: list[Table]) -> None:
        self._tasks: list[asyncio.Future[Any]] = []
        clock = asyncio.ensure_future(self._clock_steps())
        async with httpx.AsyncClient(timeout=60) as http:
            for table in tables:
                self.start(table, http)
            await asyncio.sleep(max(0.0, self.end_at - time.time()))
            await clock
            self.stop.set()  # no move is sent from now on; replacements are not made
            # The answers in flight, then every seat's socket closed.
            while any(self.in_flight) and time.time() < self.end_at + 20:
                await asyncio.sleep(0.05)
            while True:  # a replacement being made may add tasks meanwhile
                pending = [t for t in self._tasks if not t.done()]
                if not pending:
                    break
                for t in pending:
                    t.cancel()
                await asyncio.wait(pending, timeout=10)


def _load_process(cores: set[int] | None, bases: list[str], wss: list[str],
                  schedule: list[tuple[float, float]], total: int, start_at: float, seed: int,
                  tables: list[dict[str, Any]], out: Any, spread: int = 1) -> None:
    if cores:
        os.sched_setaffinity(0, cores)
    load = Load(bases, wss, schedule, total, start_at, seed, spread)
    cpu0 = time.process_time()
    run: Callable[[Any], Any] = asyncio.run
    with contextlib.suppress(ImportError):  # the [server] extra's: a cheaper loop for the load
        import uvloop

        run = uvloop.run
    run(load.run([Table(**t) for t in tables]))
    out.send({"steps": [asdict(s) for s in load.steps],
              "tables": [asdict(t) for t in load.tables], "failures": load.failures,
              "cpu": time.process_time() - cpu0})
    out.close()


# --- verification -----------------------------------------------------------------------------
async def verify(servers: list[Server], tables: list[Table]) -> tuple[int, int]:
    """Every table holds exactly the acknowledged moves, and its record replays them."""
    checked = finished = 0
    async with httpx.AsyncClient(timeout=60) as http:
        for table in tables:
            server = servers[table.server % len(servers)]
            async with connect(server.ws, max_size=None) as ws:
                await ws.send(json.dumps({"kind": "hello", "token": table.tokens[0]}))
                state = json.loads(await ws.recv())
            assert state["move_number"] == len(table.acked), (table.id, state["move_number"],
                                                               len(table.acked))
            text = (await http.get(f"{server.base}/api/tables/{table.id}/record",
                                   headers={"Authorization": f"Bearer {table.tokens[0]}"})).text
            if state["view"]["is_over"]:
                assert lf.Game.from_record(text).history == table.moves(), table.id
                finished += 1
            else:
                assert lf.records.read(text).actions == table.moves(), table.id
            checked += 1
    return checked, finished


# --- one sweep ----------------------------------------------------------------------------------
def sample(servers: list[Server], fsyncs: bool
           ) -> tuple[float, float, float, int, int, float, int, int]:
    """Now: the servers' user and system CPU seconds, fsyncs, RSS, and their event loops'
    CPU seconds, read and write calls."""
    cpu = [s.cpu() for s in servers]
    loops = [s.loop_thread() for s in servers]
    return (time.time(), sum(c[0] for c in cpu), sum(c[1] for c in cpu),
            sum(s.fsyncs() for s in servers) if fsyncs else 0, sum(s.rss() for s in servers),
            sum(x[0] for x in loops), sum(x[1] for x in loops), sum(x[2] for x in loops))


def workers_cpu(servers: list[Server]) -> float:
    """User and system CPU seconds of the servers' worker processes (the bots' thinkers,
    which run under a forkserver child), as far as they still run."""
    total = 0.0
    for s in servers:
        with contextlib.suppress(psutil.Error):
            for child in s.ps.children(recursive=True):
                with contextlib.suppress(psutil.Error):
                    times = child.cpu_times()
                    total += times.user + times.system
    return total


def bot_moves(server: Server, bounds: Sequence[float]) -> list[int] | None:
    """The moves bots made (bot seats and stand-ins: the people's tables have only people)
    between each pair of ``bounds`` (wall clock), read from the journal afterwards: counting
    while the steps ran would cost the server's core."""
    if server.data is None:
        return None
    with contextlib.closing(sqlite3.connect(
            f"file:{server.data / 'langfinger.sqlite3'}?mode=ro", uri=True)) as db:
        stamps = sorted(at for (at,) in db.execute(
            "SELECT at FROM lf_journal WHERE by != 'person' AND kind = 'play'"))
    return [bisect.bisect_left(stamps, b) - bisect.bisect_left(stamps, a)
            for a, b in itertools.pairwise(bounds)]


def _percentile(values: Sequence[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))] if values else math.nan


def sweep(mode: str, code: Path, loads: list[float], step: float, count: int, seats: int,
          processes: int, fsyncs: bool, label: str, progress: bool,
          profile: Path | None = None, servers_count: int = 2, bot_tables: int = 0,
          bot_level: str = "expert", spread: int = 1, extra: Sequence[str] = ()
          ) -> dict[str, Any]:
    cpus = sorted(os.sched_getaffinity(0))
    server_cores = {cpus[0]} if len(cpus) > 1 else None
    client_cores = set(cpus[1:]) if len(cpus) > 1 else None
    with started(mode, code, server_cores, fsyncs, profile, servers_count, extra) as servers, \
            contextlib.ExitStack() as after:
        if client_cores:
            os.sched_setaffinity(0, client_cores)
            # Every core again once the sweep is over: the next sweep (--compare's other tree)
            # pins its server and its load from them. Left on the load's cores, it ran both on
            # one core: the second sweep of a pair stopped at 1,100-1,400 moves/s with the
            # server's core 71-75% its own.
            after.callback(os.sched_setaffinity, 0, set(cpus))
        t0 = time.monotonic()
        tables = asyncio.run(make_tables([s.base for s in servers], count, seats))
        made_in = time.monotonic() - t0
        bots_made = asyncio.run(make_bot_tables(servers[0].base, servers[0].ws, bot_tables,
                                                seats, bot_level)) if bot_tables else 0
        schedule = [(loads[0], WARMUP), *[(load, step) for load in loads]]
        start_at = time.time() + 1.5 + 0.02 * count  # every process connected by then
        ctx = mp.get_context("spawn")
        pipes, procs = [], []
        for p in range(processes):
            mine = [asdict(t) for i, t in enumerate(tables) if i % processes == p]
            here, there = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_load_process, args=(
                client_cores, [s.base for s in servers], [s.ws for s in servers], schedule,
                count, start_at, p + 1, mine, there, spread))
            proc.start()
            pipes.append(here)
            procs.append(proc)
        bar: Any = None
        if progress:
            with contextlib.suppress(ImportError):
                from tqdm import tqdm

                bar = tqdm(total=len(schedule), desc=label, unit="step", leave=False)
        samples: list[tuple[float, float, float, int, int]] = []
        workers: list[float] = []
        boundary = start_at
        for _, seconds in schedule:
            while time.time() < boundary:
                time.sleep(min(0.2, boundary - time.time()))
                for s in servers:
                    s.rss()
            samples.append(sample(servers, fsyncs))
            workers.append(workers_cpu(servers))
            boundary += seconds
            if bar is not None:
                bar.update(0 if len(samples) == 1 else 1)
        while time.time() < boundary:
            time.sleep(min(0.2, boundary - time.time()))
        samples.append(sample(servers, fsyncs))
        workers.append(workers_cpu(servers))
        if bar is not None:
            bar.update(1)
            bar.close()
        results = [pipe.recv() for pipe in pipes]
        for proc in procs:
            proc.join(30)
        failures = [f for r in results for f in r["failures"]]
        if failures:
            raise SystemExit(f"{len(failures)} seats of the load failed, the first: "
                             f"{failures[0]}")
        all_tables = [Table(**t) for r in results for t in r["tables"]]
        verified = asyncio.run(verify(servers, all_tables))
        by_bots = bot_moves(servers[0], [t for t, *_ in samples]) if bots_made else None
        steps = []
        for i, (offered, _) in enumerate(schedule):
            if i == 0:
                continue  # the warm-up
            tallies = [r["steps"][i] for r in results]
            moves = sum(t["moves"] for t in tallies)
            rts = sorted(x for t in tallies for x in t["round_trips"])
            (t_a, user_a, sys_a, fs_a, _, loop_a, reads_a, writes_a), \
                (t_b, user_b, sys_b, fs_b, rss_b, loop_b, reads_b, writes_b) = \
                samples[i], samples[i + 1]
            cpu_a, cpu_b = user_a + sys_a, user_b + sys_b
            elapsed = t_b - t_a
            steps.append({
                "offered": offered, "seconds": round(elapsed, 2),
                "achieved": moves / elapsed, "moves": moves,
                "p50_ms": _percentile(rts, 0.5) * 1000, "p99_ms": _percentile(rts, 0.99) * 1000,
                "max_ms": (rts[-1] * 1000) if rts else math.nan,
                "cpu_ms_per_move": (cpu_b - cpu_a) / moves * 1000 if moves else math.nan,
                "sys_ms_per_move": (sys_b - sys_a) / moves * 1000 if moves else math.nan,
                "cpu_share": (cpu_b - cpu_a) / elapsed,
                "fsyncs_per_s": (fs_b - fs_a) / elapsed if fsyncs else None,
                "loop_cpu_ms_per_move": (loop_b - loop_a) / moves * 1000 if moves else math.nan,
                "loop_reads_per_move": (reads_b - reads_a) / moves if moves else math.nan,
                "loop_writes_per_move": (writes_b - writes_a) / moves if moves else math.nan,
                "rss_mib": rss_b / 2**20,
                "refused": sum(t["refused"] for t in tallies),
                "rate_limited": sum(t["rate_limited"] for t in tallies),
                "tables_created": sum(t["created"] for t in tallies),
                "bot_moves_per_s": None if by_bots is None else by_bots[i] / elapsed,
                "workers_cpu_share": (workers[i + 1] - workers[i]) / elapsed,
                "load_cpu_ms_per_move": (sum(t.get("cpu", 0.0) for t in tallies) / moves * 1000
                                         if moves else math.nan),
                "load_cpu_share": sum(t.get("cpu", 0.0) for t in tallies) / elapsed,
            })
        return {"label": label + (f" ({' '.join(extra)})" if extra else ""), "mode": mode,
                "servers": len(servers), "code": str(code),
                "tables": count, "bot_tables": bots_made, "bot_level": bot_level,
                "seats": seats, "load_processes": processes, "made_in_s": made_in,
                "clients_cpu_s": sum(r["cpu"] for r in results),
                "peak_rss_mib": [s.peak_rss / 2**20 for s in servers],
                "verified_tables": verified[0], "finished_games": verified[1],
                "steps": steps, **summary(steps)}


def summary(steps: list[dict[str, Any]]) -> dict[str, Any]:
    """Capacity (the most moves a second achieved) and the p99 at half of it (interpolated
    between the steps offered just below and above)."""
    if not steps:
        return {}
    capacity = max(s["achieved"] for s in steps)
    half = capacity / 2
    below = [s for s in steps if s["offered"] <= half]
    above = [s for s in steps if s["offered"] >= half]
    if below and above:
        a, b = below[-1], above[0]
        f = 0.0 if b["offered"] == a["offered"] else \
            (half - a["offered"]) / (b["offered"] - a["offered"])
        p99_half = a["p99_ms"] + f * (b["p99_ms"] - a["p99_ms"])
    else:
        p99_half = (below or above)[0 if above else -1]["p99_ms"]
    light = [s for s in steps if s["offered"] <= half] or steps[:1]
    return {"capacity": capacity, "p99_at_half_capacity_ms": p99_half,
            "cpu_ms_per_move": statistics.median(s["cpu_ms_per_move"] for s in light)}


def show(result: dict[str, Any]) -> None:
    print(f"\n{result['label']}: {result['servers']} server process(es), {result['tables']} "
          f"tables x {result['seats']} seats, {result['load_processes']} load process(es); "
          f"{result['code']}")
    print(f"  {'offered':>8} {'achieved':>9} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} "
          f"{'CPU ms/move':>11} {'of it sys':>9} {'CPU %':>6} {'fsync/s':>8} {'RSS MiB':>8} "
          f"{'loop ms/move':>12} {'reads':>6} {'writes':>6} {'load ms/move':>12} {'load %':>6}")
    for s in result["steps"]:
        fs = "-" if s["fsyncs_per_s"] is None else f"{s['fsyncs_per_s']:.0f}"
        print(f"  {s['offered']:>8.0f} {s['achieved']:>9.1f} {s['p50_ms']:>8.1f} "
              f"{s['p99_ms']:>8.1f} {s['max_ms']:>8.1f} {s['cpu_ms_per_move']:>11.2f} "
              f"{s['sys_ms_per_move']:>9.2f} "
              f"{s['cpu_share'] * 100:>6.0f} {fs:>8} {s['rss_mib']:>8.0f} "
              f"{s.get('loop_cpu_ms_per_move', math.nan):>12.3f} "
              f"{s.get('loop_reads_per_move', math.nan):>6.2f} "
              f"{s.get('loop_writes_per_move', math.nan):>6.2f} "
              f"{s.get('load_cpu_ms_per_move', math.nan):>12.3f} "
              f"{s.get('load_cpu_share', math.nan) * 100:>6.0f}")
    if result.get("bot_tables"):
        print("  bots: " + "; ".join(
            f"{s['offered']:.0f} offered: {s['bot_moves_per_s'] or 0:.1f} bot moves/s, "
            f"workers' CPU {s['workers_cpu_share'] * 100:.0f}%" for s in result["steps"]))
        worst = max(result["steps"], key=lambda s: s["p99_ms"])
        print(f"  people's p99 with {result['bot_tables']} bot tables thinking at "
              f"{result['bot_level']}: {worst['p99_ms']:.1f} ms at worst "
              f"({worst['offered']:.0f} moves/s offered)")
    print(f"  capacity {result['capacity']:.0f} moves/s; p99 at half capacity "
          f"{result['p99_at_half_capacity_ms']:.1f} ms; server CPU "
          f"{result['cpu_ms_per_move']:.2f} ms a move (median of the steps below half); the "
          f"load processes' CPU {result['clients_cpu_s']:.1f} s")
    print(f"  verified: {result['verified_tables']} tables ({result['finished_games']} "
          "finished games, full records replayed; the others' seat records replayed): every "
          "acknowledged move kept")


def plot(results: list[dict[str, Any]], path: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("  (no plot: matplotlib is not installed)")
        return
    fig, ax = plt.subplots(figsize=(6.4, 4))
    for r in results:
        ax.plot([s["offered"] for s in r["steps"]], [s["p99_ms"] for s in r["steps"]],
                marker="o", label=r["label"])
    ax.set_xlabel("offered load (moves/s)")
    ax.set_ylabel("p99 round trip (ms)")
    ax.set_yscale("log")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print(f"  plot: {path}")


# --- idle connections ---------------------------------------------------------------------------
def _idle_process(ws_url: str, tokens: list[str], opened: Any) -> None:
    """Open a socket a token, hello, take the state; hold them all until terminated."""
    raise_fd_limit()  # as the server raises its own: a socket a file

    async def run() -> int:
        gate = asyncio.Semaphore(100)  # connections being opened at once (loopback's backlog)
        sockets: list[Any] = []

        async def one(token: str) -> None:
            async with gate:
                ws = await connect(ws_url, max_size=None, compression=None, open_timeout=60)
                await ws.send(json.dumps({"kind": "hello", "token": token}))
                while _decode(await ws.recv())["kind"] != "state":
                    pass
                sockets.append(ws)

        results = await asyncio.gather(*(one(t) for t in tokens), return_exceptions=True)
        failed = [r for r in results if isinstance(r, BaseException)]
        opened.send(len(sockets))
        if failed:
            print(f"  {len(failed)} socket(s) failed, e.g. {failed[0]!r}")
        await asyncio.Event().wait()  # held (their pings answered) until terminated

    asyncio.run(run())


def idle(connections: int, hold: float, seats: int, processes: int) -> int:
    """One server on SQLite holds ``connections`` hello'd WebSockets (a seat each, at tables
    of ``seats``); its memory a connection and its CPU while they idle."""
    cpus = sorted(os.sched_getaffinity(0))
    server_cores = {cpus[0]} if len(cpus) > 1 else None
    client_cores = set(cpus[1:]) if len(cpus) > 1 else None
    files = raise_fd_limit()
    mine = "no limit" if files is None else files[1]
    print(f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.1f}; {connections} sockets from {processes} "
          f"process(es) (open files here: {mine})")
    with started("single", ROOT, server_cores, False) as servers:
        server = servers[0]
        print("  " + next(line for line in server.log.read_text().splitlines()
                          if line.startswith("Langfinger server:")))
        if client_cores:
            os.sched_setaffinity(0, client_cores)
        rss_start = server.rss()
        count = math.ceil(connections / seats)
        t0 = time.monotonic()
        made = asyncio.run(make_tables([server.base], count, seats))
        tokens = [t for table in made for t in table.tokens][:connections]
        rss_tables = server.rss()
        print(f"  {count} tables of {seats} made and joined in {time.monotonic() - t0:.0f} s; "
              f"server RSS {rss_start / 2**20:.0f} MiB at start, {rss_tables / 2**20:.0f} "
              "MiB with the tables loaded")
        ctx = mp.get_context("spawn")
        procs, pipes = [], []
        t0 = time.monotonic()
        for p in range(processes):  # on the clients' cores, inherited
            here, there = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_idle_process, args=(server.ws, tokens[p::processes],
                                                           there))
            proc.start()
            procs.append(proc)
            pipes.append(here)
        opened = sum(pipe.recv() for pipe in pipes)
        took = time.monotonic() - t0
        time.sleep(2.0)  # the last hellos' answers written, buffers settled
        rss_open = server.rss()
        cpu_a, t_a = sum(server.cpu()), time.monotonic()
        time.sleep(hold)
        cpu_b, t_b = sum(server.cpu()), time.monotonic()
        rss_held = server.rss()
        for proc in procs:
            proc.terminate()  # closing 10,000 sockets one by one politely would take long
            proc.join(30)
        print(f"  {opened} of {connections} sockets open and hello'd in {took:.0f} s")
        print(f"  server RSS {rss_open / 2**20:.0f} MiB with them open, "
              f"{rss_held / 2**20:.0f} MiB after holding them {hold:.0f} s")
        if opened:
            print(f"  memory a connection: {(rss_held - rss_tables) / opened / 1024:.1f} KiB "
                  f"(RSS delta / connections; with the tables loaded for them: "
                  f"{(rss_held - rss_start) / opened / 1024:.1f} KiB)")
        print(f"  the server's CPU while they idle: {(cpu_b - cpu_a) / (t_b - t_a) * 100:.1f}% "
              f"of a core")
    return 0 if opened == connections else 1


PING_RATE = 20.0  # pings a second a socket


async def _ping_all(ws_url: str, tokens: list[str], count: int,
                    cpu: Callable[[], float]) -> float:
    """Each token's socket, hello'd, pings ``count`` times, one at a time, all sockets at
    once; the server's CPU seconds (``cpu()``) over the pings, once every socket is ready."""
    ready, go = asyncio.Semaphore(0), asyncio.Event()

    async def one(token: str) -> None:
        async with connect(ws_url, max_size=None, compression=None, open_timeout=60) as ws:
            await ws.send(json.dumps({"kind": "hello", "token": token}))
            while _decode(await ws.recv())["kind"] != "state":
                pass
            ready.release()
            await go.wait()
            loop = asyncio.get_running_loop()
            start = loop.time()
            for n in range(1, count + 1):
                # Under the server's rate a connection (30 a second): one over is dropped.
                await asyncio.sleep(max(0.0, start + n / PING_RATE - loop.time()))
                await ws.send(json.dumps({"kind": "ping", "id": n}))
                while _decode(await ws.recv())["kind"] != "pong":
                    pass

    tasks = [asyncio.ensure_future(one(t)) for t in tokens]
    for _ in tokens:
        await ready.acquire()
    await asyncio.sleep(0.5)  # the hellos' state frames and presence written and settled
    before = cpu()
    go.set()
    await asyncio.gather(*tasks)
    return cpu() - before


def pings(codes: list[tuple[str, Path]], sockets: int = 150, count: int = 60,
          rounds: int = 3) -> None:
    """The web stack's CPU a message: ``sockets`` hello'd sockets each send ``count`` pings,
    one at a time (``PING_RATE`` a second), to one server on its own core; the server's CPU
    time (process, all threads) a ping (a frame read, parsed, answered, encoded and written).
    No game and no store: what each of a move's five frames pays the WebSocket, ASGI and JSON
    layers. With ``--compare DIR``, DIR's server and this tree's take turns, ``rounds`` times
    each."""
    cpus = sorted(os.sched_getaffinity(0))
    server_cores = {cpus[0]} if len(cpus) > 1 else None
    if len(cpus) > 1:
        os.sched_setaffinity(0, set(cpus[1:]))
    print(f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.1f}; {sockets} sockets x {count} pings, "
          f"{rounds} round(s), server pinned to one core")
    from tqdm import tqdm

    figures: dict[str, list[float]] = {label: [] for label, _ in codes}
    for _ in tqdm(range(rounds), desc="rounds", unit="round"):
        for label, code in codes:
            with started("single", code, server_cores, False) as servers:
                server = servers[0]
                made = asyncio.run(make_tables([server.base], math.ceil(sockets / 3), 3))
                tokens = [t for table in made for t in table.tokens][:sockets]
                spent = asyncio.run(_ping_all(server.ws, tokens, count,
                                              lambda s=server: sum(s.cpu())))
                figures[label].append(spent / (len(tokens) * count) * 1e6)
    for label, values in figures.items():
        print(f"  {label}: {statistics.median(values):.1f} us of server CPU a ping "
              f"(rounds: {', '.join(f'{v:.1f}' for v in values)})")


# --- in-process figures, of this tree's code or another's ---------------------------------------
def _printed(code: Path, script: str) -> list[str]:
    """What ``script`` prints, run with ``code``'s package (its folder first on the path, as
    the servers are run: ``-c`` puts the working directory before PYTHONPATH)."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    return subprocess.run([sys.executable, "-c", script], env=env, check=True,
                          capture_output=True, text=True, cwd=code).stdout.split()


def turns(code: Path, searches: int = 100, moves: int = 50) -> None:
    """The milliseconds of bots' thinking that run on the loop during one person's move, as
    the server's scheduler (``Turns``) orders them, in this process: ``searches`` searches
    thinking in the server's slices (each step 1 ms of CPU), and a move's turns of the loop
    (its frame read, three hops of its commit, three turns writing its answer and updates).
    Wall-clock figures on a busy machine cannot tell a slice apart from a neighbour's load;
    this counts what the scheduler lets through. ``--compare DIR`` runs DIR's scheduler."""
    script = f"""
import asyncio, time
from langfinger_widget.server.limits import Thinking, Turns

async def main():
    turns = Turns(asyncio.get_running_loop())
    ran = [0]
    def steps():
        while True:
            t = time.perf_counter() + 0.001
            while time.perf_counter() < t:
                pass
            ran[0] += 1
            yield
    for _ in range({searches}):
        Thinking(turns, steps(), lambda _: None, lambda exc: None).start()
    counts = []
    for _ in range({moves}):
        await asyncio.sleep(0.003)
        before = ran[0]
        await asyncio.sleep(0)
        with turns.first():
            for _ in range(3):
                await asyncio.sleep(0)
        for _ in range(3):
            await asyncio.sleep(0)
        counts.append(ran[0] - before)
    counts.sort()
    print(counts[len(counts) // 2], counts[-1])

asyncio.run(main())
"""
    median, worst = _printed(code, script)
    print(f"  {code}: {median} ms of thinking during a person's move (median of {moves}; "
          f"at most {worst}), {searches} searches thinking")


# --- the kernel's share of a move -------------------------------------------------------------
def kernel_share(code: Path, games: int = 40, seats: int = 3) -> None:
    """The CPU time of what a server move asks of the kernel and the table rules, in this
    process, without sockets or disk: the draft copied and played, then for every seat its
    view and its Undo refusal (R13.2), and the mover's legal actions (random games, every
    seat a person, as in the sweep). Where the tree's refusal takes the names it gives
    (``players``), they are made once a game, as a server's room keeps them; where its game
    builds the seats' views at once (``Game.views``), so do they, as its server does.
    ``--compare DIR`` runs DIR's kernel first."""
    script = f"""
import inspect, random, time
import langfinger_widget as lf
from langfinger_widget.tables.table import seat_undo_refusal

rng, humans, moves = random.Random(1), set(range({seats})), 0
kept = "players" in inspect.signature(seat_undo_refusal).parameters
shared = hasattr(lf.Game, "views")
start = time.process_time()
for g in range({games}):
    game = lf.Game.new(players={seats}, seed=g)
    names = {{}}
    if kept:
        names["players"] = {{"players": [{{"name": p["name"]}}
                                         for p in game.public_view()["players"]]}}
    while not game.is_over:
        draft = game.copy()
        draft.play(rng.choice(draft.legal_actions()))
        game = draft
        if shared:  # a tree whose server builds the seats' views at once
            game.views(range({seats}))
        for s in range({seats}):
            if not shared:
                game.view(s)
            seat_undo_refusal(game, s, humans, **names)
        game.legal_actions()
        moves += 1
print(moves, (time.process_time() - start) / moves * 1000)
"""
    moves, ms = _printed(code, script)
    print(f"  {code}: {float(ms):.3f} ms of CPU a move for the kernel's share ({moves} moves, "
          f"{seats} seats)")


# --- a move through the hub and the store, no sockets --------------------------------------------
def hub_share(code: Path, tables: int = 30, rounds: int = 40, seats: int = 3,
              rate: float | None = None, window: float | None = None, warm: int = 0) -> None:
    """The CPU time of a person's move through the server's hub, in-process: the intent
    checked, the change built, committed to SQLite (``synchronous=FULL``, its writer thread)
    and applied, every seat's picture built and encoded for its client; no socket and no
    network. Main thread and process (with the writer thread), a move.

    ``rate`` None: one move at a time (each commit a group of one). Otherwise moves are
    offered at ``rate`` a second across the tables (exponential gaps, a table's next move once
    its last is answered), as clients' moves arrive: what the commit window gathers.
    ``window``: the store's commit window in seconds (None: the tree's default setting; a
    tree without the setting has none). ``warm``: moves played on each table first, unmeasured
    (a game's cost a move grows with its length: 3-seat games of random moves last ~300
    decisions, 5-seat ~450; greedy bots' 126 and 180)."""
    script = f"""
import asyncio, gc, random, tempfile, time
from pathlib import Path
from langfinger_widget.server import lobby
from langfinger_widget.server.broker import MemoryBroker
from langfinger_widget.server.config import Settings
from langfinger_widget.server.hub import Hub
from langfinger_widget.server.store import Store
try:
    import uvloop
    uvloop.install()
except ImportError:
    pass

async def main():
    settings = Settings(data=Path(tempfile.mkdtemp()))
    window = {window!r}
    if window is None:
        window = getattr(settings, "commit_window", None)
    store = await (Store.open(settings.database_url()) if window is None else
                   Store.open(settings.database_url(), commit_window=window))
    hub = Hub(settings, store, MemoryBroker())
    await hub.start()
    groups, submit = [0], store._writer.submit
    def counted(group):
        groups[0] += 1
        return submit(group)
    store._writer.submit = counted
    rng, at = random.Random(3), []
    for _ in range({tables}):
        made = await lobby.create(hub, {{"players": {seats}, "pace": 0}}, "http://x")
        tokens = [""] * {seats}
        for seat, invite in made["invite_keys"].items():
            tokens[int(seat)] = (await lobby.join(hub, made["table"], {{"invite": invite}},
                                                  "http://x"))["token"]
        at.append([await hub.hello({{"kind": "hello", "token": t}}) for t in tokens])
    moves = 0

    waits = []

    async def move(clients):
        nonlocal moves
        start = time.perf_counter()
        game = clients[0].live.room.game
        seat = game.to_move
        if seat is None:
            return
        client = clients[seat]
        client.last_id += 1
        reply = await hub.intent(client, {{"kind": "act", "id": client.last_id,
            "action": rng.choice(game.legal_actions(seat)), "move": game.move_number,
            "version": game.version}})
        assert reply["ok"], reply
        moves += 1
        waits.append(time.perf_counter() - start)
        for c in clients:
            c._queue.clear()  # as a socket's writer takes them

    for _ in range({warm}):
        for clients in at:
            await move(clients)
    moves, waits = 0, []
    gc.collect()
    groups[0] = 0
    cpu, main_cpu = time.process_time(), time.thread_time()
    rate = {rate!r}
    if rate is None:
        for _ in range({rounds}):
            for clients in at:
                await move(clients)
    else:
        last = {{}}
        async def after(previous, clients):
            if previous is not None:
                await previous
            await move(clients)
        for _ in range({rounds}):
            for i, clients in enumerate(at):
                await asyncio.sleep(rng.expovariate(rate))
                last[i] = asyncio.ensure_future(after(last.get(i), clients))
        await asyncio.gather(*last.values())
    cpu, main_cpu = time.process_time() - cpu, time.thread_time() - main_cpu
    await hub.stop()
    waits.sort()
    depth = sum(c[0].live.room.game.move_number for c in at) / len(at)
    print(moves, main_cpu / moves * 1000, cpu / moves * 1000, window, moves / groups[0],
          waits[len(waits) // 2] * 1000, waits[len(waits) * 99 // 100] * 1000, depth)

asyncio.run(main())
"""
    moves, main_ms, ms, used, size, p50, p99, depth = _printed(code, script)
    offered = "one at a time" if rate is None else f"{rate:g}/s offered"
    print(f"  {code}: {float(main_ms):.3f} ms of the loop's CPU a move, {float(ms):.3f} ms with "
          f"the writer thread ({moves} moves {offered}, {seats} seats, commit window "
          f"{'none' if used == 'None' else f'{float(used) * 1000:g} ms'}, "
          f"{float(size):.2f} moves a transaction; a move's wall time p50 {float(p50):.2f} ms, "
          f"p99 {float(p99):.2f} ms; the games at move {float(depth):.0f} on average)")


# --- the SQLite writer thread's share of a group -------------------------------------------------
def writer_share(code: Path, tables: int = 64, groups: int = 200) -> None:
    """The writer thread's CPU time for one transaction (``_SqliteWriter.commit_group``) of 1,
    2, 4, 8 and 16 moves, each on a table of its own (the Writes ``Store.commit`` makes for a
    move: a compare and set and one journal row), SQLite with ``synchronous=FULL``: how much
    of a group is its fixed cost (BEGIN, COMMIT and its fsync, the locks) and how much each
    move adds. Run in this thread, while the writer thread waits on its queue."""
    script = f"""
import asyncio, gc, tempfile, time
from pathlib import Path
from langfinger_widget.server.store import Ply, SeatRow, Store, TableRow

async def main():
    store = await Store.open(f"sqlite+aiosqlite:///{{Path(tempfile.mkdtemp()) / 'w.sqlite3'}}")
    ids = [f"t{{i:04d}}" for i in range({tables})]
    for i in ids:
        now = time.time()
        await store.create(TableRow(i, 0, {{"seed": 1}}, {{"players": 3}}, "playing", 0, False,
                                    None, "x" * 64, now, now),
                           [SeatRow(s, "person", f"p{{s}}", "taken") for s in range(3)])
    made = []
    async def capture(write):
        made.append(write)
    writer, store._write = store._writer, capture
    seqs = dict.fromkeys(ids, 0)
    async def moves(n, first):
        made.clear()
        for i in ids[first:first + n]:
            seq = seqs[i]
            await store.commit(i, seq, {{"seq": seq + 1, "status": "playing",
                                         "to_move": (seq + 1) % 3, "bot_turn": False,
                                         "deadline": None}},
                               [Ply(seq, "play", seq % 3, {{"kind": "take", "card": [3, 1]}},
                                    "person", seq + 1)])
            seqs[i] = seq + 1
        return list(made)
    for n in (1, 2, 4, 8, 16):
        spent = 0.0
        for g in range({groups}):
            group = await moves(n, (g * n) % ({tables} - n + 1))
            gc.collect()
            start = time.thread_time()
            outcomes = writer.commit_group(group)
            spent += time.thread_time() - start
            assert outcomes == [None] * n, outcomes
        print(n, spent / {groups} * 1e6)
    await store.close()

asyncio.run(main())
"""
    figures = _printed(code, script)
    print(f"  {code}: the writer thread's CPU for one transaction of n moves")
    for n, us in zip(figures[::2], figures[1::2], strict=True):
        print(f"    n={n:>2}: {float(us):6.0f} us a group, {float(us) / int(n):6.0f} us a move")


# --- a frame's way out: the socket's writer task --------------------------------------------
def sends(code: Path, frames: int = 100_000) -> None:
    """The CPU time of one frame through a socket's writer task (``app._write``: woken by the
    push, the frame taken from the outbox, sent under the send timeout), in this process on
    the server's loop (uvloop where installed), to a socket whose send completes at once, as a
    real one's does while its buffers have room. A move sends four or more frames (an update to
    each seat, the mover's result). ``--compare DIR`` runs DIR's writer first."""
    script = f"""
import asyncio, time
from langfinger_widget.server.app import _write
from langfinger_widget.server.config import Settings
from langfinger_widget.server.hub import Client
from langfinger_widget.server.protocol import Frame, out
try:
    import uvloop
    new_loop = uvloop.new_event_loop
except ImportError:
    new_loop = asyncio.new_event_loop

class Socket:
    sent = 0
    async def send_text(self, text):
        self.sent += 1
    async def close(self, code=1000, reason=""):
        pass

async def main():
    settings = Settings()
    client = Client(None, 0, None, settings)
    hub = type("Hub", (), {{"settings": settings, "state_for": lambda self, c: {{}}}})()
    frame = Frame.of(out("update", 1, since=0, events=[]))
    socket = Socket()
    writer = asyncio.ensure_future(_write(socket, client, hub))
    await asyncio.sleep(0)
    start = time.process_time()
    for n in range(1, {frames} + 1):
        client.push(frame, picture=True)
        while socket.sent < n:  # the writer's turns: it sends, and waits for the next
            await asyncio.sleep(0)
    spent = time.process_time() - start
    client.close(1000, "bye")
    await writer
    print(socket.sent, spent / socket.sent * 1e6)

loop = new_loop()
loop.run_until_complete(main())
"""
    count, us = _printed(code, script)
    print(f"  {code}: {float(us):.1f} us of CPU a frame through the writer task ({count} frames; "
          f"the loop's turn to it included)")


# --- following another process's moves ---------------------------------------------------------
def follow(code: Path, tables_count: int, rounds: int = 30) -> None:
    """The CPU a process pays to follow another's moves (issue 39), in-process, without the
    noise of a shared machine's sockets and neighbours: two hubs share a real Postgres; A
    commits a move at each of ``tables_count`` 3-seat tables, B (one client at one or two
    seats of each, as the cluster sweep connects them) is told "table T is at N" as its bus
    would tell it, one notice at a time and 4 at once (a group commit announces its moves
    together); B's thread CPU a followed move: the read, the replay, the pictures of its
    seats and their encoding (the sockets' sends are not in it). Then the bus on a real
    Redis: the CPU a notice costs its reader, and its sender. ``--compare DIR`` runs DIR's
    code first."""
    script = f"""
import asyncio, os, random, sys, time
sys.path.append({str(ROOT / "tests" / "server")!r})
import services
from langfinger_widget.server import lobby, tokens
from langfinger_widget.server.broker import MemoryBroker, RedisBroker
from langfinger_widget.server.config import Settings
from langfinger_widget.server.hub import Client, Hub
from langfinger_widget.server.limits import Turns
from langfinger_widget.server.store import Store
try:
    import uvloop
    new_loop = uvloop.new_event_loop
except ImportError:
    new_loop = asyncio.new_event_loop

class Bus:  # not the one-process MemoryBroker: B follows as it does with others
    async def start(self, listener): pass
    async def publish(self, table_id, seq): pass
    async def close(self): pass

async def followed(url):
    settings = Settings()
    a = Hub(settings, await Store.open(url), MemoryBroker())
    b = Hub(settings, await Store.open(url), Bus())
    a.scheduler = b.scheduler = Turns(asyncio.get_running_loop())
    rng, ids, clients = random.Random(1), [], []
    for t in range({tables_count}):
        made = await lobby.create(a, {{"players": 3, "join": 0, "pace": 0}}, "http://x")
        table_id, seat_tokens = made["table"], {{0: made["token"]}}
        for s in (1, 2):
            invite = {{"invite": made["invite_keys"][str(s)]}}
            seat_tokens[s] = (await lobby.join(a, table_id, invite, "http://x"))["token"]
        live = await b.live(table_id)
        for s in (0, 1, 2):
            if (t + s) % 2 == 1:
                client = Client(live, s, tokens.digest(seat_tokens[s]), settings)
                live.clients.add(client)
                client.push(b.state_for(client))
                clients.append(client)
        ids.append(table_id)
    figures = []
    for group in (1, 4):
        spent, moves = 0.0, 0
        for r in range({rounds}):
            for table_id in ids:
                live = a.rooms[table_id]
                if live.room.status == "playing":
                    seat = live.room.game.to_decide[0]
                    action = rng.choice(live.room.game.legal_actions(seat))
                    await a.commit(live, lambda room, s=seat, x=action: room.play(s, x, "person"))
            for client in clients:
                client._queue.clear()
            start = time.thread_time()
            for k in range(0, len(ids), group):
                for table_id in ids[k:k + group]:
                    await b._notice(table_id, a.rooms[table_id].room.seq)
                if getattr(b, "_following", None) is not None:  # (batched: issue 39)
                    await b._following
            if r >= 2:  # the first rounds warm up
                spent += time.thread_time() - start
                moves += len(ids)
            assert all(b.rooms[t].room.seq == a.rooms[t].room.seq for t in ids)
        figures.append(spent / moves * 1000)
    for hub in (a, b):
        await hub.store.close()
    return figures

async def bus(url, notices=5000):
    heard = []
    reader, sender = RedisBroker(url), RedisBroker(url)
    async def listener(table_id, seq):
        heard.append(time.thread_time())
    await reader.start(listener)
    await sender.start(listener)
    await asyncio.sleep(0.2)
    start = time.thread_time()
    for seq in range(notices):
        await sender.publish("t" + str(seq % 97), seq + 1)
        if seq % 4 == 3:  # four moves a group
            await asyncio.sleep(0)
            await asyncio.sleep(0)
    while len(heard) < notices:
        await asyncio.sleep(0.01)
    spent = time.thread_time() - start
    await reader.close()
    await sender.close()
    return spent / notices * 1e6

with services.postgres() as pg, services.redis() as r:
    one, four = new_loop().run_until_complete(followed(pg.url))
    both = new_loop().run_until_complete(bus(r.url))
print(one, four, both)
"""
    one, four, both = _printed(code, script)
    print(f"  {code}: {float(one):.3f} ms of CPU a followed move, one notice at a time; "
          f"{float(four):.3f} when four come together ({tables_count} tables); the bus: "
          f"{float(both):.1f} us a notice, sent and read (both ends in one process)")


# --- Postgres writes: one transaction a move, or a group ------------------------------------------
async def _commits(url: str, tables_count: int, rounds: int) -> list[tuple[str, float, float]]:
    """On the Postgres at ``url``: rounds of ``tables_count`` moves committed at once (one a
    table, as many tables' seats move together), through the store's grouped writer and
    through SQLAlchemy a move each (``Store.open(url, group=False)``, as before issue 39's
    grouping), the two ways taking turns round by round on one database. Per way: its name,
    this process's CPU a move (not Postgres's own) and the wall time of a round a move."""
    from langfinger_widget.server.store import Ply, SeatRow, Store, TableRow

    stores = {"grouped": await Store.open(url), "one a move": await Store.open(url, group=False)}
    ids = [f"b{i}" for i in range(tables_count)]
    for table_id in ids:
        await stores["grouped"].create(
            TableRow(table_id, 0, {"players": 2, "seed": 1}, {"players": 2}, "playing", 0, False,
                     None, "digest", 0.0, 0.0),
            [SeatRow(0, "person", "a", "taken"), SeatRow(1, "person", "b", "taken")])
    seq = 0
    spent = {way: [0.0, 0.0] for way in stores}
    for _ in range(rounds):
        for way, store in stores.items():
            cpu, wall = time.process_time(), time.perf_counter()
            await asyncio.gather(*(store.commit(t, seq, {"seq": seq + 1, "to_move": 1}, [
                Ply(seq, "play", 0, {"action": {"type": "place", "place": "museum"}}, "person",
                    seq + 1)]) for t in ids))
            spent[way][0] += time.process_time() - cpu
            spent[way][1] += time.perf_counter() - wall
            seq += 1
    for store in stores.values():
        await store.close()
    moves = rounds * tables_count
    return [(way, c / moves * 1000, w / moves * 1000) for way, (c, w) in spent.items()]


def postgres_writes(tables_count: int, rounds: int = 20) -> None:
    with services.postgres(fsync=True) as pg:
        for way, cpu, wall in asyncio.run(_commits(pg.url, tables_count, rounds)):
            print(f"  {way:>10}: {cpu:.3f} ms of this process's CPU a move, {wall:.2f} ms of "
                  f"wall time ({rounds} rounds of {tables_count} moves at once, fsync on)")


def scale_out(one: dict[str, Any], many: dict[str, Any]) -> dict[str, Any]:
    """How many times one process's moves N processes carry, one core each: N x (one
    process's CPU a move) / (the N processes' CPU a move, summed), step by step. The ideal is
    N; every process's share of every other's moves (reading them, showing them to its
    clients) is what keeps it below.

    Under ``--scale process`` (the default) step k of the N processes offers N times the
    load of step k of the one, on N times the tables: each process is as busy as the one
    was. Offered the same total instead, each of N processes carries 1/N of the moves while
    its fixed costs (timers, leases, pings, pools) stay whole, and the CPU a move that divides
    them rises with N whatever the coordination costs."""
    n = many["servers"]
    steps = [{"offered": a["offered"], "offered_many": b["offered"],
              "one_cpu_ms": a["cpu_ms_per_move"], "many_cpu_ms": b["cpu_ms_per_move"],
              "factor": n * a["cpu_ms_per_move"] / b["cpu_ms_per_move"]}
             for a, b in zip(one["steps"], many["steps"], strict=True)]
    return {"servers": n, "factor": statistics.median(s["factor"] for s in steps),
            "one_cpu_ms": statistics.median(s["one_cpu_ms"] for s in steps),
            "many_cpu_ms": statistics.median(s["many_cpu_ms"] for s in steps),
            "steps": steps}


def show_scale(label: str, scale: dict[str, Any]) -> None:
    n = scale["servers"]
    per_step = ", ".join(f"{s['factor']:.2f} at {s['offered']:.0f}/s"
                         + (f" -> {s['offered_many']:.0f}/s" if s["offered_many"] != s["offered"]
                            else "") for s in scale["steps"])
    print(f"\n{label}: scale-out factor {scale['factor']:.2f} for {n} processes "
          f"({scale['factor'] / n:.0%} of {n}; the aim is 0.8 x {n} = {0.8 * n:.1f}): "
          f"{scale['one_cpu_ms']:.2f} ms of CPU a move in one process, "
          f"{scale['many_cpu_ms']:.2f} ms in {n} together (medians; by step: {per_step})")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", default="50,100,200,400,800,1600",
                        help="offered moves a second, one sweep step each")
    parser.add_argument("--step", type=float, default=8.0, help="seconds a step")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--processes", type=int, default=2, help="load processes")
    parser.add_argument("--mode", choices=["single", "cluster", "idle", "turns", "kernel",
                                           "sends", "pgwrites", "pings", "hub", "follow",
                                           "writer"],
                        default="single",
                        help="single: one process on SQLite; cluster: --servers processes on "
                             "Postgres+Redis, after one such process alone (the scale-out "
                             "factor); idle: --connections hello'd sockets held, memory each; "
                             "turns: bots' thinking let through during a person's move; "
                             "kernel: the kernel's share of a move's CPU, in-process; "
                             "sends: a frame's CPU through a socket's writer task, in-process; "
                             "pings: the web stack's CPU a message, through a real server; "
                             "hub: a move through the hub and SQLite, no sockets, in-process; "
                             "writer: SQLite's writer thread's CPU a transaction of 1-16 "
                             "moves, in-process; "
                             "pgwrites: Postgres moves grouped or one a transaction "
                             "(--tables at once); follow: a process's CPU to follow "
                             "another's moves (--tables tables), in-process")
    parser.add_argument("--rate", type=float, default=None,
                        help="hub: moves a second offered across the tables (default: one "
                             "move at a time)")
    parser.add_argument("--warm", type=int, default=0, metavar="MOVES",
                        help="hub: moves played on each table before measuring (a game's "
                             "cost a move grows with its length; 3-seat games of random moves "
                             "last ~300)")
    parser.add_argument("--commit-window", type=float, default=None, metavar="MS",
                        help="hub: this tree's commit window (default: its setting's)")
    parser.add_argument("--servers", type=int, default=2,
                        help="cluster: server processes (N), each a client's process in turn")
    parser.add_argument("--route", choices=["seats", "table"], default="seats",
                        help="cluster: which process a seat's socket goes to: seats, seat s of "
                             "table t to process t + s (mod N), a balancer that knows no "
                             "table, so most moves are forwarded to the table's owner; table, "
                             "every seat of table t to process t (a balancer routing by table)")
    parser.add_argument("--scale", choices=["process", "total"], default="process",
                        help="cluster: process, the N processes are offered N times each "
                             "step's load on N times the tables (each as busy as the one "
                             "alone: what N cores carry); total, the same load and tables "
                             "as the one (each process 1/N of it)")
    parser.add_argument("--connections", type=int, default=10_000,
                        help="idle: WebSockets to open and hold (at most 30,000)")
    parser.add_argument("--hold", type=float, default=10.0,
                        help="idle: seconds to hold them (the server's CPU meanwhile)")
    parser.add_argument("--bot-tables", type=int, default=0,
                        help="tables that bots play to the end meanwhile (a person resigned "
                             "at once), thinking on the server's loop: people's p99 with them")
    parser.add_argument("--bot-level", default="expert", help="the level they think at")
    parser.add_argument("--bot-processes", type=int, default=None, metavar="N",
                        help="the server's --bot-processes (worker processes the bots and "
                             "hints think in; 0: on the event loop; default: the server's "
                             "own default)")
    parser.add_argument("--compare", type=Path, default=None,
                        help="another checkout: sweep its server first, then this one's")
    parser.add_argument("--no-fsyncs", action="store_true", help="do not run under strace")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    parser.add_argument("--plot", type=Path, default=None, help="p99 against offered load")
    parser.add_argument("--quick", action="store_true",
                        help="a few seconds (CI): 12 tables, two short steps, verified")
    parser.add_argument("--no-progress", action="store_true")
    parser.add_argument("--profile", type=Path, default=None,
                        help="run this tree's (first) server under cProfile, writing here")
    args = parser.parse_args(argv)
    if args.mode == "pgwrites":
        postgres_writes(args.tables)
        return 0
    if args.mode == "pings":
        pings(([(f"{args.compare.name} (compare)", args.compare.resolve())]
               if args.compare else []) + [("this tree", ROOT)])
        return 0
    if args.mode in ("turns", "kernel", "sends", "hub", "follow", "writer"):
        for code in ([args.compare.resolve()] if args.compare else []) + [ROOT]:
            if args.mode == "writer":
                writer_share(code)
            elif args.mode == "hub":
                hub_share(code, seats=args.seats, rate=args.rate,
                          window=None if args.commit_window is None or code != ROOT
                          else args.commit_window / 1000, warm=args.warm)
            elif args.mode == "turns":
                turns(code, max(1, args.bot_tables or 100))
            elif args.mode == "follow":
                follow(code, args.tables)
            elif args.mode == "sends":
                sends(code)
            else:
                kernel_share(code, seats=args.seats)
        return 0
    if args.mode == "idle":
        return idle(min(args.connections, 30_000), args.hold, args.seats, args.processes)
    if args.quick:
        args.loads, args.step, args.tables, args.processes = "20,60", 2.0, 12, 1
    loads = [float(x) for x in args.loads.split(",")]
    fsyncs = not args.no_fsyncs and shutil.which("strace") is not None and args.mode == "single"
    print(f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.1f}; server pinned to one core, load processes "
          f"to the others; fsyncs {'counted by strace' if fsyncs else 'not counted'}")
    codes = [(f"{args.compare.name} (compare)", args.compare.resolve())] if args.compare else []
    codes.append(("this tree", ROOT))
    results = []
    scales = []
    counts = [1, args.servers] if args.mode == "cluster" and args.servers > 1 else \
        [args.servers]
    for label, code in codes:
        pair = []
        for n in counts:
            k = n if args.mode == "cluster" and args.scale == "process" else 1
            result = sweep(args.mode, code, [load * k for load in loads], args.step,
                           args.tables * k, args.seats,
                           args.processes, fsyncs,
                           label if args.mode == "single" else f"{label}, {n} process(es)",
                           not args.no_progress, args.profile if code == ROOT else None, n,
                           args.bot_tables, args.bot_level,
                           0 if args.route == "table" else 1,
                           [] if args.bot_processes is None
                           else ["--bot-processes", str(args.bot_processes)])
            show(result)
            results.append(result)
            pair.append(result)
        if len(pair) == 2:
            scales.append({"label": label, **scale_out(*pair)})
    for scale in scales:
        show_scale(scale["label"], scale)
    if args.json:
        args.json.write_text(json.dumps({"machine": platform.machine(),
                                         "cores": os.cpu_count(),
                                         "python": platform.python_version(),
                                         "results": results, "scale_out": scales}, indent=1))
        print(f"  figures: {args.json}")
    if args.plot:
        plot(results, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
