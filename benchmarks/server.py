"""The game server under load: bot clients over real WebSockets on loopback (issue 31).

Starts ``python -m langfinger_widget.server`` (one process on SQLite, or two processes
sharing a real Postgres and Redis started from Debian's binaries), creates TABLES tables of
SEATS people, joins every seat, and lets one bot client a seat play random legal moves over
its own WebSocket for SECONDS (bounded in time). It prints moves a second, the p50 and p99
of a move's round trip (the act sent to its result received, after the update), the
servers' CPU and memory, and then verifies every table: a fresh client sees exactly the
moves that were acknowledged, and each table's record (a seat's, or the whole game's once
over) replays through the kernel to the same actions.

    python benchmarks/server.py                          # 200 tables x 3 seats, 30 s, both
    python benchmarks/server.py --mode single --tables 50 --seconds 10

Figures only: no test asserts them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psutil
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "server")]
import services  # noqa: E402  (tests/server/services.py: real Postgres and Redis)

import langfinger_widget as lf  # noqa: E402


@dataclass
class Table:
    id: str
    tokens: list[str]
    acked: list[dict[str, Any]] = field(default_factory=list)
    over: bool = False


@dataclass
class Tally:
    moves: int = 0
    round_trips: list[float] = field(default_factory=list)
    refused: int = 0
    rate_limited: int = 0


class Server:
    def __init__(self, port: int, args: list[str]) -> None:
        self.port = port
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
        self.log = Path(tempfile.mkstemp(prefix=f"lf-server-{port}-", suffix=".log")[1])
        with self.log.open("w") as out:  # a file, never a pipe nobody reads (it would fill)
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "langfinger_widget.server", "--port", str(port), *args],
                env=env, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while "Langfinger server:" not in self.log.read_text():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start:\n{self.log.read_text()}")
            time.sleep(0.05)
        self.ps = psutil.Process(self.proc.pid)
        self.peak_rss = 0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def cpu(self) -> float:
        times = self.ps.cpu_times()
        return times.user + times.system

    def sample(self) -> None:
        self.peak_rss = max(self.peak_rss, self.ps.memory_info().rss)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        problems = [line for line in self.log.read_text().splitlines()
                    if "ERROR" in line or "Traceback" in line]
        if problems:
            print(f"  the server on port {self.port} logged {len(problems)} problem(s); "
                  f"see {self.log}")
        else:
            self.log.unlink()


async def make_tables(servers: list[Server], count: int, seats: int) -> list[Table]:
    """Create the tables on the first server and join each seat through the next one."""
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        async def one(i: int) -> Table:
            made = (await http.post(f"{servers[i % len(servers)].base}/api/tables",
                                    json={"players": seats, "pace": 0})).json()
            tokens = []
            for s in range(seats):
                joined = (await http.post(
                    f"{servers[(i + s) % len(servers)].base}/api/tables/{made['table']}/join",
                    json={"invite": made["invite_keys"][str(s)]})).json()
                tokens.append(joined["token"])
            return Table(made["table"], tokens)

        return list(await asyncio.gather(*(one(i) for i in range(count))))


async def seat_client(url: str, table: Table, seat: int, tally: Tally, stop: asyncio.Event,
                      rng: random.Random) -> None:
    """One bot at one seat: plays a random legal move whenever it is its decision."""
    async with connect(url, max_size=None) as ws:
        await ws.send(json.dumps({"kind": "hello", "token": table.tokens[seat]}))
        latest: dict[str, Any] = {}
        next_id = 0
        sent_at: dict[int, tuple[float, dict[str, Any]]] = {}
        waiting = False
        while not stop.is_set() or waiting:  # at the end, wait for the answer in flight
            try:
                raw = await asyncio.wait_for(ws.recv(), 0.5)
            except asyncio.TimeoutError:
                continue
            msg = json.loads(raw)
            kind = msg["kind"]
            if kind in ("state", "update"):
                latest = msg
                if msg["view"]["is_over"]:
                    table.over = True
                    return
            elif kind == "result":
                started, action = sent_at.pop(msg["id"])
                waiting = False
                if msg["ok"]:
                    tally.moves += 1
                    tally.round_trips.append(time.perf_counter() - started)
                    table.acked.append(action)
                else:
                    tally.refused += 1
            elif kind == "error" and msg.get("code") == "rate_limited":
                tally.rate_limited += 1
                waiting = False
                await asyncio.sleep(0.5)
            if latest.get("legal") and not waiting and not stop.is_set():
                action = rng.choice(latest["legal"])
                next_id += 1
                sent_at[next_id] = (time.perf_counter(), action)
                waiting = True
                await ws.send(json.dumps({"kind": "act", "id": next_id, "action": action,
                                          "version": latest["version"]}))


async def run_load(servers: list[Server], tables: list[Table], seconds: float) -> Tally:
    tally = Tally()
    stop = asyncio.Event()
    rng = random.Random(1)
    tasks = [asyncio.create_task(seat_client(servers[(i + s) % len(servers)].ws, t, s, tally,
                                             stop, random.Random(rng.random())))
             for i, t in enumerate(tables) for s in range(len(t.tokens))]
    started = time.monotonic()
    while time.monotonic() - started < seconds and not all(t.over for t in tables):
        await asyncio.sleep(0.5)
        for server in servers:
            server.sample()
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return tally


async def verify(servers: list[Server], tables: list[Table]) -> tuple[int, int]:
    """Every table holds exactly the acknowledged moves, and its record replays them."""
    checked = finished = 0
    async with httpx.AsyncClient(timeout=60) as http:
        for i, table in enumerate(tables):
            server = servers[i % len(servers)]
            async with connect(server.ws, max_size=None) as ws:
                await ws.send(json.dumps({"kind": "hello", "token": table.tokens[0]}))
                state = json.loads(await ws.recv())
            assert state["move_number"] == len(table.acked), (table.id, state["move_number"],
                                                               len(table.acked))
            text = (await http.get(f"{server.base}/api/tables/{table.id}/record",
                                   headers={"Authorization": f"Bearer {table.tokens[0]}"})).text
            if state["view"]["is_over"]:
                assert lf.Game.from_record(text).history == table.acked
                finished += 1
            else:
                assert lf.records.read(text).actions == table.acked
            checked += 1
    return checked, finished


def report(label: str, servers: list[Server], tables: list[Table], tally: Tally,
           seconds: float, cpu: float, verified: tuple[int, int]) -> None:
    rt = sorted(tally.round_trips)
    p = (lambda q: rt[min(len(rt) - 1, int(q * len(rt)))] * 1000) if rt else (lambda q: 0.0)
    seats = sum(len(t.tokens) for t in tables)
    print(f"\n{label}: {len(tables)} tables x {len(tables[0].tokens)} seats "
          f"({seats} WebSockets), {seconds:.1f} s")
    print(f"  moves: {tally.moves} ({tally.moves / seconds:,.0f} a second); refused "
          f"{tally.refused}, rate-limited {tally.rate_limited}")
    print(f"  round trip of a move: p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms "
          f"(mean {statistics.fmean(rt) * 1000 if rt else 0:.1f} ms)")
    print(f"  server CPU: {cpu:.1f} s over {seconds:.1f} s ({cpu / seconds * 100:.0f}% of one "
          f"core, {len(servers)} process(es)); peak RSS "
          + ", ".join(f"{s.peak_rss / 2**20:.0f} MiB" for s in servers))
    print(f"  verified: {verified[0]} tables ({verified[1]} finished games, full records "
          f"replayed; the others' seat records replayed): every acknowledged move kept")


@contextlib.contextmanager
def started(mode: str, data: Path) -> Iterator[list[Server]]:
    if mode == "single":
        servers = [Server(services.free_port(), ["--data", str(data)])]
        try:
            yield servers
        finally:
            for s in servers:
                s.stop()
        return
    with services.postgres(fsync=True) as pg, services.redis() as bus:
        args = ["--database", pg.url, "--broker", bus.url]
        servers = [Server(services.free_port(), args) for _ in range(2)]
        try:
            yield servers
        finally:
            for s in servers:
                s.stop()


async def bench(mode: str, count: int, seats: int, seconds: float) -> None:
    with tempfile.TemporaryDirectory() as tmp, started(mode, Path(tmp)) as servers:
        t0 = time.monotonic()
        tables = await make_tables(servers, count, seats)
        print(f"[{mode}] {count} tables created and {count * seats} seats joined in "
              f"{time.monotonic() - t0:.1f} s")
        cpu0 = sum(s.cpu() for s in servers)
        me = psutil.Process()
        mine0 = sum(me.cpu_times()[:2])
        t1 = time.monotonic()
        tally = await run_load(servers, tables, seconds)
        elapsed = time.monotonic() - t1
        cpu = sum(s.cpu() for s in servers) - cpu0
        clients_cpu = sum(me.cpu_times()[:2]) - mine0
        verified = await verify(servers, tables)
        label = ("one process, SQLite (WAL, synchronous=FULL)" if mode == "single" else
                 "two processes, Postgres 15 (fsync on) + Redis")
        report(label, servers, tables, tally, elapsed, cpu, verified)
        print(f"  the bot clients' own CPU: {clients_cpu:.1f} s "
              f"({clients_cpu / elapsed * 100:.0f}% of one core)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--mode", choices=["single", "cluster", "both"], default="both")
    args = parser.parse_args()
    print(f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.1f}; the bot clients run in this process")
    for mode in (["single", "cluster"] if args.mode == "both" else [args.mode]):
        asyncio.run(bench(mode, args.tables, args.seats, args.seconds))


if __name__ == "__main__":
    main()
