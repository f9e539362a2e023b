"""A WebSocket's text frames written straight to its transport.

Every move sends a frame to each seat, and through the ASGI stack a frame costs more
than the move's views: our send, Starlette's WebSocket and its exception middleware's
wrapper, uvicorn's ``send`` (with its checks and an ``Event`` wait), websockets' frame
object and its serializer, and the text encoded to UTF-8 once more. A server frame is a
two-to-ten byte header and the payload (RFC 6455 5.2: servers never mask), so for a
socket that is open and writable this module writes those bytes itself, with the state
uvicorn keeps for the socket (``close_sent``, ``disconnected``, ``writable``) deciding as
it would. Everything else (the handshake, reading, pings, closing) stays uvicorn's.

uvicorn runs :class:`FrameProtocol` as its WebSocket protocol (``ws=``, see
``connections.uvicorn_config``); it puts itself in the scope's extensions, where
:func:`writer_of` finds it. Under another ASGI server (or an older uvicorn without the
sans-I/O protocol) there is no writer and the socket sends through ASGI as before.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any, Protocol

KEY = "langfinger.frames"  # the scope extension naming the socket's writer
_TEXT = 0x81  # FIN and the text opcode


def header(size: int) -> bytes:
    """The header of one unmasked, unfragmented text frame of ``size`` bytes."""
    if size < 126:
        return bytes((_TEXT, size))
    if size < 1 << 16:
        return struct.pack("!BBH", _TEXT, 126, size)
    return struct.pack("!BBQ", _TEXT, 127, size)


class Writer(Protocol):
    """What the app needs of a socket to write a text frame itself."""

    def write_text(self, data: bytes) -> bool:
        """Write one text frame of UTF-8 ``data`` now, True; or False if the transport's
        buffers are full (wait for :meth:`wait_writable`, then write again). Raises
        ``OSError`` once the socket is closing, as uvicorn's ``send`` does."""

    def write_texts(self, data: Sequence[bytes]) -> bool:
        """:meth:`write_text` for several frames, in one write to the transport."""

    async def wait_writable(self) -> None: ...


def writer_of(scope: Any) -> Writer | None:
    """The socket's own writer, if the server gave it one."""
    extensions = scope.get("extensions") or {}
    found: Writer | None = extensions.get(KEY)
    return found


try:
    from uvicorn.protocols.utils import ClientDisconnected
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    from websockets.protocol import State
except ImportError:  # pragma: no cover (uvicorn before 0.35: no sans-I/O protocol)
    FrameProtocol: Any = None
else:
    class FrameProtocol(WebSocketsSansIOProtocol):  # type: ignore[no-redef]
        """uvicorn's sans-I/O WebSocket protocol that writes its text frames itself."""

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)
            # Only a socket with no extension negotiated (per-message deflate is off, see
            # connections.uvicorn_config): a compressed socket's frames need its compressor.
            if scope is not None and not self.conn.extensions:
                scope["extensions"][KEY] = self

        def write_text(self, data: bytes) -> bool:
            if (self.disconnected or self.close_sent or self.conn.state is not State.OPEN
                    or self.transport.is_closing()):
                raise ClientDisconnected()
            if not self.writable.is_set():
                return False
            self.transport.write(header(len(data)) + data)
            return True

        def write_texts(self, data: Sequence[bytes]) -> bool:
            if (self.disconnected or self.close_sent or self.conn.state is not State.OPEN
                    or self.transport.is_closing()):
                raise ClientDisconnected()
            if not self.writable.is_set():
                return False
            # One write: on loopback each costs a system call (~10-20 us of CPU) however small.
            self.transport.write(b"".join([part for one in data
                                           for part in (header(len(one)), one)]))
            return True

        async def wait_writable(self) -> None:
            await self.writable.wait()
