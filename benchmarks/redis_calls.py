"""The Redis work of one forwarded move (issue 39, server/owners.py), CPU a call: the route
script on the forwarder, the pop of the ask and the answer's push on the owner, the pop of
the answer on the forwarder; through redis-py (what owners.py used) and through
server/resp.py's client (what it uses), against a real redis-server, in turns.

    python benchmarks/redis_calls.py [--calls 2000] [--rounds 3]

Needs redis-server (tests/server/services.py) and redis-py (the test extra).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "server")]
import services  # noqa: E402

from langfinger_widget.server import owners, resp  # noqa: E402

ASK = '{"ask":"0123456789abcdef","from":"fedcba9876543210","kind":"act","table":"t1",' \
      '"seat":1,"token":"' + "ab" * 32 + '","intent":{"move":{"kind":"bid","amount":3}}}'


async def _cpu(calls: int, one: Callable[[], Awaitable[Any]]) -> float:
    for _ in range(50):  # warm
        await one()
    start = time.process_time()
    for _ in range(calls):
        await one()
    return (time.process_time() - start) / calls * 1e6


async def _redis_py(url: str, calls: int) -> dict[str, float]:
    import redis.asyncio as redis

    client, inbox_client = redis.from_url(url), redis.from_url(url)
    route = client.register_script(owners._ROUTE.text)
    await client.set(owners.OWNER_KEY + "t1", "owner")
    try:
        async def script() -> None:
            await route(keys=[owners.OWNER_KEY + "t1"],
                        args=["me", 5000, ASK, owners.INBOX_KEY, 60000])

        async def pop() -> None:
            await inbox_client.blpop([owners.INBOX_KEY + "owner"], timeout=1)

        async def answer() -> None:
            async with client.pipeline(transaction=False) as pipe:
                pipe.rpush(owners.INBOX_KEY + "owner", ASK)
                pipe.pexpire(owners.INBOX_KEY + "owner", 60000)
                await pipe.execute()

        return {"script": await _cpu(calls, script), "pop": await _cpu(calls, pop),
                "answer pipeline": await _cpu(calls, answer)}
    finally:
        await client.delete(owners.INBOX_KEY + "owner")
        await client.aclose()
        await inbox_client.aclose()


async def _resp(url: str, calls: int) -> dict[str, float]:
    address = resp.Address.of(url)
    client, inbox_client = resp.Client(address), resp.Client(address)
    await client.call("SET", owners.OWNER_KEY + "t1", "owner")
    try:
        async def script() -> None:
            await client.run(owners._ROUTE, [owners.OWNER_KEY + "t1"],
                             ["me", 5000, ASK, owners.INBOX_KEY, 60000])

        async def pop() -> None:
            await inbox_client.call("BLPOP", owners.INBOX_KEY + "owner", 1)

        async def answer() -> None:
            await client.calls(("RPUSH", owners.INBOX_KEY + "owner", ASK),
                               ("PEXPIRE", owners.INBOX_KEY + "owner", 60000))

        return {"script": await _cpu(calls, script), "pop": await _cpu(calls, pop),
                "answer pipeline": await _cpu(calls, answer)}
    finally:
        await client.call("DEL", owners.INBOX_KEY + "owner")
        client.close()
        inbox_client.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    try:
        import uvloop
        run: Callable[[Any], Any] = uvloop.run
    except ImportError:
        run = asyncio.run
    figures: dict[str, dict[str, list[float]]] = {"redis-py": {}, "resp": {}}
    with services.redis() as running:
        for _ in range(args.rounds):
            for name, measure in (("redis-py", _redis_py), ("resp", _resp)):
                for what, us in run(measure(running.url, args.calls)).items():
                    figures[name].setdefault(what, []).append(us)
    print(f"CPU µs a call, median of {args.rounds} rounds of {args.calls} (each pop finds "
          "an ask waiting: the script calls pushed them)")
    print(f"{'':16} {'redis-py':>9} {'resp':>9}")
    totals = {"redis-py": 0.0, "resp": 0.0}
    for what in figures["resp"]:
        row = {name: statistics.median(figures[name][what]) for name in figures}
        # A forwarded move: one script (forwarder), two pops (owner, forwarder), one answer.
        weight = 2 if what == "pop" else 1
        for name in totals:
            totals[name] += weight * row[name]
        print(f"{what:16} {row['redis-py']:9.1f} {row['resp']:9.1f}")
    print(f"{'a forwarded move':16} {totals['redis-py']:9.1f} {totals['resp']:9.1f}  "
          "(script + 2 pops + answer)")


if __name__ == "__main__":
    main()
