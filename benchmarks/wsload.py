"""A lean WebSocket client and frame decoder for the capacity benchmark's load (server.py).

The load processes share a core and must offer several times what the server can take, so
what a seat costs them per move has to be a fraction of what the server spends. The
``websockets`` client's general machinery (its protocol state machine, a task and an
assembler per connection, a full decode of every view) cost them ~0.6 ms a move; this
client speaks just what the load uses over a bare ``asyncio.Protocol``: a client's
handshake (RFC 6455 section 4.1), masked text frames out, unmasked frames in (text, close,
ping; continuation for a fragmented message), no extensions. Benchmark code: the package's
own clients keep ``websockets``.
"""

from __future__ import annotations

import asyncio
import base64
import collections
import contextlib
import hashlib
import json
import os
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, cast
from urllib.parse import urlsplit

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
TEXT, BINARY, CLOSE, PING, PONG, CONTINUATION = 0x1, 0x2, 0x8, 0x9, 0xA, 0x0


class ConnectionClosed(Exception):
    """The server closed the connection (its close code, when it sent one)."""


def frame(opcode: int, payload: bytes) -> bytes:
    """A final client frame: always masked (RFC 6455 5.3: a server must refuse unmasked
    ones), with a fresh random key as the RFC asks; XOR over one big integer costs a few
    hundred nanoseconds for a move's ~100 bytes, a Python loop over the bytes far more."""
    n = len(payload)
    if n < 126:
        head = bytes((0x80 | opcode, 0x80 | n))
    elif n < 1 << 16:
        head = bytes((0x80 | opcode, 0x80 | 126)) + n.to_bytes(2, "big")
    else:
        head = bytes((0x80 | opcode, 0x80 | 127)) + n.to_bytes(8, "big")
    key = os.urandom(4)
    if not n:
        return head + key
    masked = (int.from_bytes(payload, "little")
              ^ int.from_bytes((key * (n // 4 + 1))[:n], "little")).to_bytes(n, "little")
    return head + key + masked


class WebSocket(asyncio.Protocol):
    """One client connection. ``recv`` returns each text message's payload as bytes (both
    msgspec and json decode bytes): no str is built for a frame the load only decodes."""

    def __init__(self, host: str, resource: str) -> None:
        self.key = base64.b64encode(os.urandom(16))
        self.request = (f"GET {resource} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                        "Connection: Upgrade\r\nSec-WebSocket-Key: "
                        f"{self.key.decode()}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode()
        loop = asyncio.get_running_loop()
        self.opened: asyncio.Future[None] = loop.create_future()
        self.closed: asyncio.Future[None] = loop.create_future()
        self.transport: asyncio.Transport | None = None
        self.buffer = b""  # bytes not yet parsed: a partial frame (or the handshake's answer)
        self.upgraded = False
        self.messages: collections.deque[bytes] = collections.deque()
        self.waiter: asyncio.Future[None] | None = None
        self.parts: list[bytes] = []  # a fragmented message's frames so far
        self.close_code: int | None = None
        self.closing = False  # a close frame sent: nothing more may be

    # --- asyncio.Protocol ------------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's TCPTransport is no asyncio.Transport subclass, though it is one in kind.
        self.transport = cast(asyncio.Transport, transport)
        self.transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        if self.buffer:
            data = self.buffer + data
            self.buffer = b""
        if not self.upgraded:
            end = data.find(b"\r\n\r\n")
            if end < 0:
                self.buffer = data
                return
            try:
                self._handshake(data[:end])
            except ConnectionError as exc:
                if not self.opened.done():
                    self.opened.set_exception(exc)
                self._abort()
                return
            data = data[end + 4:]
        pos, size = 0, len(data)
        while size - pos >= 2:
            b0, b1 = data[pos], data[pos + 1]
            length, head = b1 & 0x7F, 2
            if length == 126:
                if size - pos < 4:
                    break
                length, head = int.from_bytes(data[pos + 2:pos + 4], "big"), 4
            elif length == 127:
                if size - pos < 10:
                    break
                length, head = int.from_bytes(data[pos + 2:pos + 10], "big"), 10
            if b1 & 0x80 or b0 & 0x70:  # a masked server frame, or an extension's bits
                self._fail(1002)
                return
            end = pos + head + length
            if end > size:
                break
            self._frame(b0, data[pos + head:end])
            pos = end
        # A frame split across reads waits here whole; a state's few KB rarely take two.
        self.buffer = data[pos:] if pos < size else b""

    def connection_lost(self, exc: Exception | None) -> None:
        self.closing = True
        if not self.opened.done():
            self.opened.set_exception(exc or ConnectionError("closed during the handshake"))
        if not self.closed.done():
            self.closed.set_result(None)
        self._wake()

    # --- frames ------------------------------------------------------------------------------
    def _handshake(self, head: bytes) -> None:
        lines = head.decode("latin-1").split("\r\n")
        if lines[0].split(" ", 2)[1:2] != ["101"]:
            raise ConnectionError(f"the server refused the upgrade: {lines[0]}")
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        accept = base64.b64encode(hashlib.sha1(self.key + GUID).digest()).decode()
        if headers.get("sec-websocket-accept") != accept:
            raise ConnectionError("wrong Sec-WebSocket-Accept")
        if headers.get("sec-websocket-extensions"):
            raise ConnectionError(f"an extension not asked for: "
                                  f"{headers['sec-websocket-extensions']}")
        self.upgraded = True
        self.opened.set_result(None)

    def _frame(self, b0: int, payload: bytes) -> None:
        opcode = b0 & 0x0F
        if opcode in (TEXT, BINARY, CONTINUATION):
            if not b0 & 0x80:  # not the last frame of its message
                self.parts.append(payload)
                return
            if self.parts:
                self.parts.append(payload)
                payload = b"".join(self.parts)
                self.parts = []
            self.messages.append(payload)
            self._wake()
        elif opcode == PING:
            self._write(PONG, payload)
        elif opcode == CLOSE:
            self.close_code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005
            # Echo it (RFC 6455 5.5.1); the server then closes the TCP connection.
            self._write(CLOSE, payload[:2])
            self.closing = True
            self._wake()

    def _write(self, opcode: int, payload: bytes) -> None:
        if self.closing or self.transport is None or self.transport.is_closing():
            return
        self.transport.write(frame(opcode, payload))

    def _wake(self) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    def _fail(self, code: int) -> None:
        self._write(CLOSE, code.to_bytes(2, "big"))
        self.closing = True
        self._abort()

    def _abort(self) -> None:
        if self.transport is not None:
            self.transport.close()

    # --- the load's side --------------------------------------------------------------------
    async def recv(self) -> bytes:
        """The next text message; ConnectionClosed once the server closed."""
        while not self.messages:
            if self.closing:
                raise ConnectionClosed(self.close_code)
            self.waiter = asyncio.get_running_loop().create_future()
            try:
                await self.waiter
            finally:
                self.waiter = None
        return self.messages.popleft()

    def send(self, message: bytes | str) -> None:
        """A text message, written at once (a socket's buffer takes a move's frame whole)."""
        if self.closing:
            raise ConnectionClosed(self.close_code)
        self._write(TEXT, message.encode() if isinstance(message, str) else message)

    async def close(self, timeout: float = 10.0) -> None:
        """The closing handshake: a close frame (1000), then the server's answer and its
        end of the TCP connection, or ``timeout``."""
        self._write(CLOSE, (1000).to_bytes(2, "big"))
        self.closing = True
        try:
            await asyncio.wait_for(asyncio.shield(self.closed), timeout)
        except asyncio.TimeoutError:
            pass
        finally:
            self._abort()


@contextlib.asynccontextmanager
async def connect(url: str, open_timeout: float = 10.0) -> AsyncIterator[WebSocket]:
    """A ``ws://`` connection, closed on leaving (the closing handshake, as ``websockets``
    does)."""
    parts = urlsplit(url)
    if parts.scheme != "ws" or parts.hostname is None:
        raise ValueError(f"only ws:// URLs: {url}")
    port = parts.port or 80
    resource = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    loop = asyncio.get_running_loop()
    ws = WebSocket(parts.netloc, resource)
    try:
        await asyncio.wait_for(loop.create_connection(lambda: ws, parts.hostname, port),
                               open_timeout)
        await asyncio.wait_for(asyncio.shield(ws.opened), open_timeout)
    except BaseException:
        ws._abort()
        raise
    try:
        yield ws
    finally:
        await ws.close()


# --- what the load reads of the server's frames ----------------------------------------------
@dataclass
class PlainView:
    is_over: bool = False


@dataclass
class PlainFrame:
    """The fields the load reads (the pure-json fallback: the same shape as ``Frame``)."""
    kind: str
    view: PlainView | None = None
    legal: list[Any] = field(default_factory=list)
    version: int = 0
    id: Any = None
    ok: bool = False
    code: str | None = None


def _decode_plain(data: bytes) -> PlainFrame:
    msg = json.loads(data)
    view = msg.get("view")
    return PlainFrame(msg["kind"], None if view is None else PlainView(bool(view["is_over"])),
                      msg.get("legal") or [], msg.get("version") or 0, msg.get("id"),
                      bool(msg.get("ok")), msg.get("code"))


decode: Callable[[bytes], Any]  # bytes -> Frame (or PlainFrame)
encode: Callable[[dict[str, Any]], bytes]
action: Callable[[Any], dict[str, Any]]  # a legal action as decoded -> the action's dict

try:
    import msgspec

    class View(msgspec.Struct):
        is_over: bool = False

    class Frame(msgspec.Struct):
        """Only what the load reads: msgspec skips the other fields (the view's board,
        the events, the table) without building them, most of a full decode's cost. A legal
        action stays raw JSON: it goes back as it came, and only an acknowledged one is
        decoded (for the verification)."""
        kind: str
        view: View | None = None
        legal: list[msgspec.Raw] = []
        version: int = 0
        id: Any = None  # as the act sent it (an int); None in an error about no message
        ok: bool = False
        code: str | None = None

    decode = msgspec.json.Decoder(Frame).decode
    encode = msgspec.json.Encoder().encode
    _decode_action = msgspec.json.Decoder(dict[str, Any]).decode

    def action(raw: Any) -> dict[str, Any]:
        return _decode_action(raw)
except ImportError:  # pragma: no cover
    decode = _decode_plain

    def encode(message: dict[str, Any]) -> bytes:
        return json.dumps(message, separators=(",", ":")).encode()

    def action(raw: Any) -> dict[str, Any]:
        return dict(raw)
