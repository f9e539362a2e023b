"""The bus between server processes: "table T is at sequence N", and nothing else.

A process that commits a change publishes the table's id and new sequence
number; every other process that has people watching that table reads the
new rows from the database itself. The bus never carries state, so it can
never carry a hidden card. One process needs no bus (:class:`MemoryBroker`);
several share Redis pub/sub (:class:`RedisBroker`). An intent forwarded to a
table's owner process goes point to point through Redis lists, never on this
channel (owners.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Protocol

from .kernel import BadArgument

log = logging.getLogger("langfinger.server")

CHANNEL = "langfinger:tables"
Listener = Callable[[str, int], Awaitable[None]]


class Broker(Protocol):
    """Tells the other processes that a table moved on."""

    async def start(self, listener: Listener) -> None:
        """Call ``listener(table_id, seq)`` for every notice from another process."""

    async def publish(self, table_id: str, seq: int) -> None: ...

    async def close(self) -> None: ...


def encode(table_id: str, seq: int) -> str:
    return f"{table_id} {seq}"


def decode(message: str | bytes) -> tuple[str, int] | None:
    """A notice as (table, seq), or None if it is not one (never trusted blindly)."""
    text = message.decode("ascii", "replace") if isinstance(message, bytes) else message
    parts = text.split(" ")
    if len(parts) != 2 or not parts[1].isdigit() or not 0 < len(parts[0]) <= 32:
        return None
    return parts[0], int(parts[1])


class MemoryBroker:
    """One process: nobody else to tell."""

    async def start(self, listener: Listener) -> None:
        return None

    async def publish(self, table_id: str, seq: int) -> None:
        return None

    async def close(self) -> None:
        return None


class RedisBroker:
    """Redis pub/sub on one channel; a notice of our own is ignored by its sender's id."""

    def __init__(self, url: str) -> None:
        import redis.asyncio as redis  # the [server] extra

        self._redis = redis.from_url(url)
        self._task: asyncio.Task[None] | None = None
        self._sender = secrets.token_hex(8)  # tells our own notices apart from others'
        self.url = url

    @property
    def sender(self) -> str:
        """This process's id on the bus (and as a table's owner: owners.py)."""
        return self._sender

    async def start(self, listener: Listener) -> None:
        pubsub = self._redis.pubsub()
        await pubsub.subscribe(CHANNEL)
        self._task = asyncio.create_task(self._listen(pubsub, listener))

    async def _listen(self, pubsub: object, listener: Listener) -> None:
        async for message in pubsub.listen():  # type: ignore[attr-defined]
            if message.get("type") != "message":
                continue
            data = message["data"]
            sender, _, notice = (data.decode() if isinstance(data, bytes) else data).partition("|")
            if sender == self._sender:
                continue
            parsed = decode(notice)
            if parsed is None:
                log.warning("ignored a malformed notice on %s: %r", CHANNEL, data[:80])
                continue
            try:
                await listener(*parsed)
            except Exception:  # one table's trouble must not stop the bus
                log.exception("refreshing table %s after a notice failed", parsed[0])

    async def publish(self, table_id: str, seq: int) -> None:
        await self._redis.publish(CHANNEL, f"{self._sender}|{encode(table_id, seq)}")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self._redis.aclose()


def make_broker(url: str | None) -> Broker:
    """The bus for ``--broker URL``: ``redis://...``, or none (one process) when empty."""
    if not url or url == "memory":
        return MemoryBroker()
    if url.startswith(("redis://", "rediss://", "unix://")):
        return RedisBroker(url)
    raise BadArgument(f"--broker must be a redis:// URL, not {url!r}")
