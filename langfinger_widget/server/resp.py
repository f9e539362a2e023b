"""Just enough of Redis's wire protocol (RESP2) for the server: the bus's PUBLISH and
SUBSCRIBE (broker.py), and a small request/response :class:`Client` for the tables'
leases and inboxes (owners.py: scripts, BLPOP, RPUSH). The server has no other Redis
client.

Every process reads every notice on the bus, its own included (pub/sub has no other
way), and sends one for each move it commits. Through redis-py a notice cost ~30 us of
CPU to read and ~100 us to send (its general client: a pool, retries, a parser in
Python); here reading is a few microseconds and the notices of one loop turn go in one
write. hiredis's parser (C) is used where it is installed, this module's own otherwise.
"""

from __future__ import annotations

import asyncio
import hashlib
import ssl
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast
from urllib.parse import unquote, urlsplit

from .kernel import BadArgument


class ReplyError(Exception):
    """A ``-ERR ...`` reply."""


class ConnectionLost(Exception):
    """The connection to Redis closed."""


class NotResp(Exception):
    """Bytes from the server that are no RESP2 reply (nothing after them can be read)."""


Part = str | bytes | int


def command(*parts: Part) -> bytes:
    """One command as Redis reads it: an array of bulk strings."""
    out = [b"*%d\r\n" % len(parts)]
    for part in parts:
        data = (part if isinstance(part, bytes)
                else part.encode() if isinstance(part, str) else b"%d" % part)
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
        raise NotResp(f"not a RESP2 reply: {bytes(kind)!r}")


def _reader() -> Any:
    try:
        import hiredis  # an optional speed-up (the [server] extra installs it)
    except ImportError:
        return PureReader()
    return hiredis.Reader(replyError=ReplyError)


def _without_password(url: str) -> str:
    """``url`` as it may be shown in an error: the password left out."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    user = f"{parts.username}:***@" if parts.username else ":***@"
    return parts._replace(netloc=user + host).geturl()


@dataclass(frozen=True)
class Address:
    """Where Redis is, from a ``redis://``, ``rediss://`` (TLS) or ``unix://`` URL."""

    host: str  # (not for a unix socket)
    port: int
    path: str | None  # a unix socket
    tls: bool
    username: str | None
    password: str | None
    db: int = 0  # the path's number: redis://host/3


    @classmethod
    def of(cls, url: str) -> Address:
        parts = urlsplit(url)
        if parts.scheme not in ("redis", "rediss", "unix"):
            raise BadArgument(f"not a Redis URL: {url!r}")
        user = unquote(parts.username) if parts.username else None
        password = unquote(parts.password) if parts.password is not None else None
        query = dict(pair.partition("=")[::2] for pair in parts.query.split("&") if pair)
        # redis-py reads options from the query (socket_timeout=, ssl_cert_reqs=, ...); this
        # client has none of them, and one silently dropped would be a surprise (TLS not
        # checked as asked, a timeout not kept): say so instead.
        unknown = sorted(set(query) - ({"db"} if parts.scheme == "unix" else set()))
        if unknown:
            raise BadArgument(f"the Redis URL {_without_password(url)!r} has options this "
                              f"server does not read: {', '.join(unknown)} (it reads the "
                              "host, port, user, password, the database as redis://host/N, "
                              "and ?db=N for unix://)")
        db_text = query.get("db", "0") if parts.scheme == "unix" else parts.path.strip("/")
        if not (db_text or "0").isdigit():
            raise BadArgument(f"not a Redis database number in {url!r}")
        db = int(db_text or "0")
        if parts.scheme == "unix":
            return cls("", 0, parts.path, False, user, password, db)
        return cls(parts.hostname or "localhost", parts.port or 6379, None,
                   parts.scheme == "rediss", user, password, db)

    def greeting(self) -> list[bytes]:
        """What a connection says first, one command each: AUTH if the URL names a
        password, SELECT if it names a database other than 0."""
        said = []
        if self.password is not None:
            said.append(command("AUTH", self.username, self.password) if self.username
                        else command("AUTH", self.password))
        if self.db:
            said.append(command("SELECT", self.db))
        return said

    def hello(self) -> bytes:
        """The greeting in one write."""
        return b"".join(self.greeting())


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


@dataclass(frozen=True)
class Script:
    """A Lua script, run by its sha1 (EVALSHA), sent whole (EVAL) only when Redis does not
    know it yet (a new or restarted Redis, SCRIPT FLUSH)."""

    text: str
    sha: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "sha", hashlib.sha1(self.text.encode()).hexdigest())


class _Link:
    """One connection of a :class:`Client`'s and its replies' futures, first sent first."""

    def __init__(self) -> None:
        self.connection: Connection | None = None
        self.waiting: deque[asyncio.Future[Any]] = deque()
        self.out: list[bytes] = []  # commands of this loop turn, written together

    def on_reply(self, reply: Any) -> None:
        if not self.waiting:  # (nothing asked: never, unless Redis misbehaves)
            return
        future = self.waiting.popleft()
        if future.done():  # its caller was cancelled
            return
        if isinstance(reply, ReplyError):
            future.set_exception(reply)
        else:
            future.set_result(reply)

    def fail(self, reason: str) -> None:
        waiting, self.waiting, self.out = self.waiting, deque(), []
        for future in waiting:
            if not future.done():
                future.set_exception(ConnectionLost(reason))

    def flush(self) -> None:
        out, self.out = self.out, []
        if not out or self.connection is None:
            return
        try:
            self.connection.send(b"".join(out))
        except ConnectionLost as lost:
            self.fail(str(lost))


class Client:
    """Requests and their replies on one connection, in order (Redis answers a connection's
    commands in the order they came). The commands asked for in one turn of the event loop
    go in one write. An error reply is raised as :class:`ReplyError`; a connection lost
    fails the replies still awaited with :class:`ConnectionLost`, and the next call opens
    another. A blocking command (BLPOP) holds the connection until it returns: give it a
    client of its own."""

    def __init__(self, address: Address) -> None:
        self.address = address
        self._link: _Link | None = None
        self._opening: asyncio.Future[_Link] | None = None

    async def _connect(self) -> _Link:
        link = self._link
        if link is not None and link.connection is not None and not link.connection.lost.done():
            return link
        if self._opening is None or self._opening.done():
            self._opening = asyncio.ensure_future(self._open())
        return await asyncio.shield(self._opening)

    async def _open(self) -> _Link:
        link = _Link()
        connection = await Connection.open(self.address, link.on_reply)
        link.connection = connection
        loop = asyncio.get_running_loop()
        # The greeting's replies (Connection.open sent it) come first.
        greeted = [loop.create_future() for _ in self.address.greeting()]
        link.waiting.extend(greeted)
        connection.lost.add_done_callback(lambda lost: link.fail(lost.result()))
        try:
            for reply in greeted:
                await reply
        except BaseException:
            connection.close()
            raise
        self._link = link
        return link

    def _ask(self, link: _Link, data: bytes) -> asyncio.Future[Any]:
        assert link.connection is not None
        if link.connection.lost.done():  # lost while we waited for it to open
            raise ConnectionLost(link.connection.lost.result())
        future = asyncio.get_running_loop().create_future()
        link.waiting.append(future)
        if not link.out:
            asyncio.get_running_loop().call_soon(link.flush)
        link.out.append(data)
        return future

    async def call(self, *parts: Part) -> Any:
        """One command's reply."""
        link = await self._connect()
        return await self._ask(link, command(*parts))

    async def calls(self, *commands: Sequence[Part]) -> list[Any]:
        """Several commands' replies, sent in one write (the first error reply raised,
        once every reply has come)."""
        link = await self._connect()
        futures = [self._ask(link, command(*parts)) for parts in commands]
        replies = await asyncio.gather(*futures, return_exceptions=True)
        for reply in replies:
            if isinstance(reply, BaseException):
                raise reply
        return replies

    async def run(self, script: Script, keys: Sequence[Part], args: Sequence[Part]) -> Any:
        """The script's reply: EVALSHA, then EVAL if Redis does not know the script."""
        try:
            return await self.call("EVALSHA", script.sha, len(keys), *keys, *args)
        except ReplyError as error:
            if not str(error).startswith("NOSCRIPT"):
                raise
        return await self.call("EVAL", script.text, len(keys), *keys, *args)

    def close(self) -> None:
        link, self._link = self._link, None
        if self._opening is not None and not self._opening.done():
            self._opening.cancel()
        if link is not None and link.connection is not None:
            link.connection.close()
            link.fail("closed")
