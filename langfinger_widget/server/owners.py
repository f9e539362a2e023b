"""Who commits a table's moves: its owner process, one at a time (issue 39).

One process (no broker) owns every table, at no cost: :class:`LocalOwners`.

With Redis (:class:`RedisOwners`) a table is owned through a lease, the key
``langfinger:owner:<table>`` holding the owner's id, set with ``SET NX PX``
by the first process that needs to commit to a table nobody owns, renewed
for all the tables a process owns in one script call every third of the
lease, and released (compare and delete) when the table leaves memory or the
process stops. A process that gets a changing intent for a table another
process owns forwards it to that owner, point to point: it pushes the ask
onto the owner's list ``langfinger:inbox:<owner>``, which only the owner pops,
and the owner pushes its answer onto the asker's own inbox. Nothing of it ever
goes on the pub/sub notice channel (see broker.py), which carries only "table
T is at sequence N". An ask holds a seat's token hash and the intent the seat
sent (an action it may see); never a hidden card.

An owner killed with asks in its inbox answers none of them: its lease runs
out within LEASE_SECONDS and the next process that needs the table takes it
(``SET NX`` again). The compare and set on the table's sequence number in the
store stays the safety net: two processes that both believe they own a table
(a lease that ran out mid-commit) still cannot double or lose a move.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, Protocol

from . import resp
from .broker import Broker, RedisBroker

log = logging.getLogger("langfinger.server")

LEASE_SECONDS = 5.0  # an owner that stopped renewing loses its tables after this long
OWNER_KEY = "langfinger:owner:"
INBOX_KEY = "langfinger:inbox:"
# An inbox nobody pops (its process died) is dropped by Redis after this many leases.
INBOX_LEASES = 12

Serve = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]  # an ask to its answer
Lost = Callable[[list[str]], None]  # told the tables this process no longer owns


class Owners(Protocol):
    """Which process commits a table's moves, and the way to it."""

    @property
    def lease(self) -> float: ...

    async def start(self, serve: Serve, lost: Lost) -> None:
        """Answer the asks forwarded to this process with ``serve``; tell ``lost`` the
        tables whose lease could not be renewed (another process may own them now)."""

    def mine(self, table_id: str) -> bool:
        """Whether this process owns the table (as far as it knows without asking)."""

    async def claim(self, table_id: str) -> str | None:
        """Own the table if nobody does: None if it is ours, else its owner's id."""

    async def forward(self, table_id: str, ask: dict[str, Any], timeout: float
                      ) -> tuple[str, dict[str, Any] | None] | None:
        """Send ``ask`` to the table's owner: None if the table is (now) ours, else the
        owner and its answer (None: no answer within ``timeout``)."""

    async def unowned(self, table_ids: Sequence[str]) -> list[str]:
        """Those of the tables that no process owns now (a lease nobody holds)."""

    async def release(self, table_ids: Iterable[str]) -> None: ...

    async def close(self) -> None: ...


class LocalOwners:
    """One process: every table is ours."""

    lease = LEASE_SECONDS

    async def start(self, serve: Serve, lost: Lost) -> None:
        return None

    def mine(self, table_id: str) -> bool:
        return True

    async def claim(self, table_id: str) -> str | None:
        return None

    async def forward(self, table_id: str, ask: dict[str, Any], timeout: float
                      ) -> tuple[str, dict[str, Any] | None] | None:
        return None

    async def unowned(self, table_ids: Sequence[str]) -> list[str]:
        return []  # ours, all of them

    async def release(self, table_ids: Iterable[str]) -> None:
        return None

    async def close(self) -> None:
        return None


# Own the table if nobody does, else push the ask (if any) onto its owner's inbox: one round
# trip, and atomic, so an ask never goes to an owner whose lease ran out meanwhile.
_ROUTE = resp.Script("""
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return ARGV[1] end
local owner = redis.call('GET', KEYS[1])
if owner == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return owner
end
if ARGV[3] ~= '' then
  local inbox = ARGV[4] .. owner
  redis.call('RPUSH', inbox, ARGV[3])
  redis.call('PEXPIRE', inbox, ARGV[5])
end
return owner
""")
# Extend each lease that is still ours; 1 or 0 for each key.
_RENEW = resp.Script("""
local kept = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
    kept[i] = 1
  else
    kept[i] = 0
  end
end
return kept
""")
_RELEASE = resp.Script("""
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('DEL', key) end
end
return 0
""")
_CHUNK = 500  # keys a script call takes at once


class RedisOwners:
    """Leases and inboxes in Redis (see the module's docstring), through :mod:`resp`'s
    client: the scripts by their sha1 (EVALSHA), an answer's RPUSH and PEXPIRE in one
    write, the inbox's BLPOP on a connection of its own."""

    def __init__(self, url: str, me: str, lease: float = LEASE_SECONDS) -> None:
        self.me = me
        self.lease = lease
        address = resp.Address.of(url)
        self._redis = resp.Client(address)
        self._inbox_redis = resp.Client(address)  # BLPOP holds its connection: its own
        self._owned: set[str] = set()
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    def _ms(self, seconds: float) -> int:
        return max(1, int(seconds * 1000))

    async def start(self, serve: Serve, lost: Lost) -> None:
        self._spawn(self._listen(serve))
        self._spawn(self._keep(lost))

    def _spawn(self, work: Awaitable[Any]) -> None:
        task: asyncio.Task[Any] = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def mine(self, table_id: str) -> bool:
        return table_id in self._owned

    async def _run_route(self, table_id: str, ask: str) -> str | None:
        owner = await self._redis.run(_ROUTE, [OWNER_KEY + table_id], [
            self.me, self._ms(self.lease), ask, INBOX_KEY, self._ms(self.lease * INBOX_LEASES)])
        text = owner.decode() if isinstance(owner, bytes) else str(owner)
        if text == self.me:
            self._owned.add(table_id)
            return None
        self._owned.discard(table_id)
        return text

    async def claim(self, table_id: str) -> str | None:
        if table_id in self._owned:
            return None
        return await self._run_route(table_id, "")

    async def forward(self, table_id: str, ask: dict[str, Any], timeout: float
                      ) -> tuple[str, dict[str, Any] | None] | None:
        if table_id in self._owned:
            return None
        ask_id = secrets.token_hex(8)
        # Waited for before it is sent: the answer may come back before the script returns.
        waiting = self._waiting[ask_id] = asyncio.get_running_loop().create_future()
        try:
            owner = await self._run_route(table_id, json.dumps(
                {"ask": ask_id, "from": self.me, **ask}, separators=(",", ":")))
            if owner is None:
                return None
            try:
                return owner, await asyncio.wait_for(waiting, timeout)
            except TimeoutError:
                return owner, None
        finally:
            self._waiting.pop(ask_id, None)

    async def _listen(self, serve: Serve) -> None:
        inbox = INBOX_KEY + self.me
        while True:
            try:
                popped = await self._inbox_redis.call("BLPOP", inbox, 1)
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis away a while: the asks time out, the leases run out
                log.exception("reading the inbox %s failed", inbox)
                await asyncio.sleep(self.lease / 10)
                continue
            if popped is None:
                continue
            try:
                message = json.loads(popped[1])
            except ValueError:
                message = None
            if not isinstance(message, dict) or not isinstance(message.get("ask"), str):
                log.warning("ignored a malformed message in %s: %r", inbox, popped[1][:80])
                continue
            if "answer" in message:
                waiting = self._waiting.get(message["ask"])
                if waiting is not None and not waiting.done():
                    waiting.set_result(message)
            elif isinstance(message.get("from"), str):
                self._spawn(self._answer(serve, message))

    async def _answer(self, serve: Serve, ask: dict[str, Any]) -> None:
        try:
            answer = await serve(ask)
        except Exception:
            log.exception("answering a forwarded %r failed", ask.get("kind"))
            answer = {"ok": False, "code": "server_error", "error": "the server could not do "
                      "this; try again", "seq": -1}
        inbox = INBOX_KEY + ask["from"]
        try:
            await self._redis.calls(
                ("RPUSH", inbox, json.dumps({**answer, "ask": ask["ask"], "answer": True},
                                            separators=(",", ":"))),
                ("PEXPIRE", inbox, self._ms(self.lease * INBOX_LEASES)))
        except Exception:  # Redis away: the asker times out and looks at the journal
            log.exception("answering a forwarded intent failed")

    async def _keep(self, lost: Lost) -> None:
        """Renew every lease of ours, a third of a lease apart: one call per 500 tables."""
        while True:
            await asyncio.sleep(self.lease / 3)
            owned = list(self._owned)
            gone: list[str] = []
            try:
                for start in range(0, len(owned), _CHUNK):
                    chunk = owned[start:start + _CHUNK]
                    kept = await self._redis.run(_RENEW, [OWNER_KEY + t for t in chunk],
                                                 [self.me, self._ms(self.lease)])
                    gone += [t for t, k in zip(chunk, kept, strict=True) if not int(k)]
            except Exception:  # Redis away: the leases may run out; the store's CAS guards
                log.exception("renewing the table leases failed")
                continue
            if gone:
                self._owned.difference_update(gone)
                log.warning("lost the lease of %d table(s) to another process", len(gone))
                lost(gone)

    async def unowned(self, table_ids: Sequence[str]) -> list[str]:
        free: list[str] = []
        for start in range(0, len(table_ids), _CHUNK):
            chunk = table_ids[start:start + _CHUNK]
            held = await self._redis.call("MGET", *(OWNER_KEY + t for t in chunk))
            free += [t for t, owner in zip(chunk, held, strict=True) if owner is None]
        return free

    async def release(self, table_ids: Iterable[str]) -> None:
        ours = [t for t in table_ids if t in self._owned]
        self._owned.difference_update(ours)
        for start in range(0, len(ours), _CHUNK):
            await self._redis.run(_RELEASE, [OWNER_KEY + t for t in ours[start:start + _CHUNK]],
                                  [self.me])

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await self.release(list(self._owned))
        self._inbox_redis.close()
        self._redis.close()


def make_owners(broker: Broker, lease: float = LEASE_SECONDS) -> Owners:
    """Leases in the broker's Redis, owned under its sender id; with no broker (one
    process) every table is this process's."""
    if isinstance(broker, RedisBroker):
        return RedisOwners(broker.url, broker.sender, lease)
    return LocalOwners()
