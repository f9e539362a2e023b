"""Just enough of Redis's wire protocol (RESP2) for the bus: PUBLISH, SUBSCRIBE, AUTH.

Every process reads every notice on the bus, its own included (pub/sub has no other
way), and sends one for each move it commits. Through redis-py a notice cost ~30 us of
CPU to read and ~100 us to send (its general client: a pool, retries, a parser in
Python); here reading is a few microseconds and the notices of one loop turn go in one
write. hiredis's parser (C) is used where it is installed, this module's own otherwise.
"""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import unquote, urlsplit

from .kernel import BadArgument


class ReplyError(Exception):
    """A ``-ERR ...`` reply."""


class ConnectionLost(Exception):
    """The connection to Redis closed."""


def command(*parts: str | bytes) -> bytes:
    """One command as Redis reads it: an array of bulk strings."""
    out = [b"*%d\r\n" % len(parts)]
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        out.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(out)


class PureReader:
    """RESP2 replies out of the bytes as they come (hiredis.Reader's interface: ``feed``,
    then ``gets`` until it returns False, a reply not complete yet)."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._at = 0

    def feed(self, data: bytes) -> None:
        self._buffer += data

    def gets(self) -> Any:
        found = self._parse(self._at)
        if found is None:
            if self._at > 65536:  # drop what was read, now and then (not every reply)
                del self._buffer[:self._at]
                self._at = 0
            return False
        reply, self._at = found
        return reply

    def _parse(self, at: int) -> tuple[Any, int] | None:
        buffer = self._buffer
        end = buffer.find(b"\r\n", at)
        if end < 0:
            return None
        kind, line = buffer[at:at + 1], bytes(buffer[at + 1:end])
        at = end + 2
        if kind == b"$":
            size = int(line)
            if size < 0:
                return None, at
            if len(buffer) < at + size + 2:
                return None
            return bytes(buffer[at:at + size]), at + size + 2
        if kind == b"*":
            count = int(line)
            if count < 0:
                return None, at
            items = []
            for _ in range(count):
                found = self._parse(at)
                if found is None:
                    return None
                item, at = found
                items.append(item)
            return items, at
        if kind == b":":
            return int(line), at
        if kind == b"+":
            return line, at
        if kind == b"-":
            return ReplyError(line.decode("utf-8", "replace")), at
        raise ValueError(f"not a RESP2 reply: {bytes(kind)!r}")


def _reader() -> Any:
    try:
        import hiredis  # an optional speed-up (the [server] extra installs it)
    except ImportError:
        return PureReader()
    return hiredis.Reader(replyError=ReplyError)


@dataclass(frozen=True)
class Address:
    """Where Redis is, from a ``redis://``, ``rediss://`` (TLS) or ``unix://`` URL."""

    host: str  # (not for a unix socket)
    port: int
    path: str | None  # a unix socket
    tls: bool
    username: str | None
    password: str | None

    @classmethod
    def of(cls, url: str) -> Address:
        parts = urlsplit(url)
        if parts.scheme not in ("redis", "rediss", "unix"):
            raise BadArgument(f"not a Redis URL: {url!r}")
        user = unquote(parts.username) if parts.username else None
        password = unquote(parts.password) if parts.password is not None else None
        if parts.scheme == "unix":
            return cls("", 0, parts.path, False, user, password)
        return cls(parts.hostname or "localhost", parts.port or 6379, None,
                   parts.scheme == "rediss", user, password)

    def hello(self) -> bytes:
        """What a connection says first (AUTH, if the URL names a password)."""
        if self.password is None:
            return b""
        if self.username:
            return command("AUTH", self.username, self.password)
        return command("AUTH", self.password)


class _Protocol(asyncio.Protocol):
    def __init__(self, on_reply: Callable[[Any], None]) -> None:
        self._reader = _reader()
        self._on_reply = on_reply
        self.transport: asyncio.Transport | None = None
        # Done, with the reason, when the connection has closed.
        self.lost: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # (uvloop's transports are not asyncio.Transport's subclasses, but have its methods.)
        self.transport = cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        self._reader.feed(data)
        try:
            while (reply := self._reader.gets()) is not False:
                self._on_reply(reply)
        except Exception as exc:  # a reply that is no RESP: nothing after it can be trusted
            assert self.transport is not None
            self.transport.close()
            if not self.lost.done():
                self.lost.set_result(f"not a RESP2 reply: {exc}")

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.lost.done():
            self.lost.set_result(str(exc or "closed by Redis"))


class Connection:
    """One connection; every reply is handed to ``on_reply`` as it comes."""

    def __init__(self, protocol: _Protocol) -> None:
        self._protocol = protocol

    @classmethod
    async def open(cls, address: Address, on_reply: Callable[[Any], None]) -> Connection:
        loop = asyncio.get_running_loop()
        made: tuple[Any, _Protocol]
        if address.path is not None:
            made = await loop.create_unix_connection(lambda: _Protocol(on_reply), address.path)
        else:
            made = await loop.create_connection(
                lambda: _Protocol(on_reply), address.host, address.port,
                ssl=ssl.create_default_context() if address.tls else None)
        connection = cls(made[1])
        hello = address.hello()
        if hello:
            connection.send(hello)
        return connection

    @property
    def lost(self) -> asyncio.Future[str]:
        """Done, with the reason, when the connection has closed."""
        return self._protocol.lost

    def send(self, data: bytes) -> None:
        transport = self._protocol.transport
        if transport is None or transport.is_closing():
            raise ConnectionLost("the connection to Redis is closed")
        transport.write(data)

    def close(self) -> None:
        if self._protocol.transport is not None:
            self._protocol.transport.close()
