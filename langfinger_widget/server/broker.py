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
from typing import Any, Protocol

from . import resp
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
    """Redis pub/sub on one channel; a notice of our own is ignored by its sender's id.

    Two connections of :mod:`resp`'s (a subscribed one may not publish). A lost one is
    opened again (after a pause that grows, to a few seconds); the notices missed
    meanwhile are found by the hub's look at the database (``Hub._heal``).
    """

    def __init__(self, url: str) -> None:
        self._address = resp.Address.of(url)
        self._task: asyncio.Task[None] | None = None
        self._sender = secrets.token_hex(8)  # tells our own notices apart from others'
        self._own = self._sender.encode()
        self._heard: list[tuple[str, int]] = []  # notices read, not yet handed over
        self._wake = asyncio.Event()
        self._pending: list[bytes] = []  # notices to send, with the task sending them
        self._sending: asyncio.Task[None] | None = None
        self._publisher: resp.Connection | None = None
        self._confirmed: asyncio.Future[None] | None = None  # Redis's answer to SUBSCRIBE
        self.url = url

    @property
    def sender(self) -> str:
        """This process's id on the bus (and as a table's owner: owners.py)."""
        return self._sender

    async def start(self, listener: Listener) -> None:
        """Subscribe (Redis away, or refusing: the error, as the server starts)."""
        subscribed = asyncio.get_running_loop().create_future()
        self._task = asyncio.create_task(self._listen(listener, subscribed))
        await asyncio.wait([subscribed, self._task], return_when=asyncio.FIRST_COMPLETED)
        if self._task.done():
            self._task.result()  # the first connection failed: say why

    def _on_message(self, reply: Any) -> None:
        # ["message", channel, data]; or the subscription's confirmation, or a refusal (a
        # wrong password) before it.
        confirmed = self._confirmed
        if isinstance(reply, Exception):
            if confirmed is not None and not confirmed.done():
                confirmed.set_exception(reply)
            else:
                log.error("Redis said, on the bus %s: %s", CHANNEL, reply)
            return
        if not (isinstance(reply, list) and len(reply) == 3):
            return  # AUTH's OK
        if reply[0] == b"subscribe" and confirmed is not None and not confirmed.done():
            confirmed.set_result(None)
        if reply[0] != b"message":
            return
        data = reply[2]
        sender, _, notice = data.partition(b"|")
        if sender == self._own:
            return
        parsed = decode(notice)
        if parsed is None:
            log.warning("ignored a malformed notice on %s: %r", CHANNEL, data[:80])
            return
        self._heard.append(parsed)
        self._wake.set()

    async def _listen(self, listener: Listener, subscribed: asyncio.Future[None]) -> None:
        pause = 0.1
        while True:
            connection = None
            try:
                self._confirmed = confirmed = asyncio.get_running_loop().create_future()
                connection = await resp.Connection.open(self._address, self._on_message)
                connection.send(resp.command("SUBSCRIBE", CHANNEL))
                await asyncio.wait([confirmed, connection.lost],
                                   return_when=asyncio.FIRST_COMPLETED)
                if not confirmed.done():
                    raise resp.ConnectionLost(connection.lost.result())
                confirmed.result()  # a refusal raises its ReplyError
            except (OSError, resp.ConnectionLost, resp.ReplyError):
                if connection is not None:
                    connection.close()
                if not subscribed.done():
                    raise
                log.warning("the bus (%s) is away; trying again in %.1f s", self._address.host,
                            pause, exc_info=True)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 5.0)
                continue
            if not subscribed.done():
                subscribed.set_result(None)
            pause = 0.1
            connection.lost.add_done_callback(lambda _: self._wake.set())
            try:
                while not connection.lost.done():
                    await self._wake.wait()
                    self._wake.clear()
                    await self._hand_over(listener)
                log.warning("lost the bus: %s", connection.lost.result())
            finally:
                connection.close()

    async def _hand_over(self, listener: Listener) -> None:
        heard, self._heard = self._heard, []
        for table_id, seq in heard:
            try:
                await listener(table_id, seq)
            except Exception:  # one table's trouble must not stop the bus
                log.exception("refreshing table %s after a notice failed", table_id)

    async def publish(self, table_id: str, seq: int) -> None:
        """Send the notice soon: those of one turn of the event loop (a group of moves is
        committed in one transaction, then announced together) go in one write."""
        self._pending.append(resp.command("PUBLISH", CHANNEL,
                                          f"{self._sender}|{encode(table_id, seq)}"))
        if self._sending is None or self._sending.done():
            self._sending = asyncio.get_running_loop().create_task(self._send())

    def _on_published(self, reply: Any) -> None:
        if isinstance(reply, Exception):
            log.error("Redis refused a notice: %s", reply)

    async def _send(self) -> None:
        await asyncio.sleep(0)  # the notices of this turn join the first write
        batch, self._pending = self._pending, []
        try:
            if self._publisher is None or self._publisher.lost.done():
                self._publisher = await resp.Connection.open(self._address, self._on_published)
            self._publisher.send(b"".join(batch))
        except (OSError, resp.ConnectionLost):  # the others find these moves (Hub._heal)
            log.warning("announcing %d move(s) on %s failed", len(batch), CHANNEL,
                        exc_info=True)
            self._publisher = None
        if self._pending:  # sent while the connection was being opened
            self._sending = asyncio.get_running_loop().create_task(self._send())

    async def close(self) -> None:
        if self._sending is not None:
            with contextlib.suppress(Exception):
                await self._sending
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self._publisher is not None:
            self._publisher.close()


def make_broker(url: str | None) -> Broker:
    """The bus for ``--broker URL``: ``redis://...``, or none (one process) when empty."""
    if not url or url == "memory":
        return MemoryBroker()
    if url.startswith(("redis://", "rediss://", "unix://")):
        return RedisBroker(url)
    raise BadArgument(f"--broker must be a redis:// URL, not {url!r}")
