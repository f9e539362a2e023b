"""The web server's side of the hardening: time limits and a cap on connections.

uvicorn times out a connection that sits idle between two requests
(``timeout_keep_alive``), but that timer stops at a request's first byte: a
client that sends one header byte a second (Slowloris) held its socket, and
a file descriptor, for good. :class:`GuardedH11` gives each request's
headers a time limit of their own (``Settings.header_timeout``; the body's
is in app.py), and keeps the connections under a cap: when a new
connection would pass it, the oldest connection that is not in the middle
of anything (no request under way, not a WebSocket) is closed to make room,
so that a crowd of silent connections cannot keep a lobby request out.
WebSockets are capped lower (``Settings.max_sockets``, in app.py), which
leaves the rest to the lobby and the pages.
"""

from __future__ import annotations

import asyncio
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from .config import Settings
from .frames import FrameProtocol
from .protocol import MAX_FRAME

# File descriptors kept for the database, logs and the Python runtime itself.
RESERVED_FDS = 64


# Where the hard limit is "unlimited", the soft one is raised this far: Linux refuses more
# than fs.nr_open (1,048,576 by default) anyway.
UNLIMITED_FDS = 1 << 20


def raise_fd_limit() -> tuple[int, int] | None:
    """Raise this process's soft limit on open files as far as its hard limit allows: each
    connection is a file, and the soft limit (often 1,024) is a default for programs that
    open few, not a choice made for a server. The limits before and after, or None where
    there are none to raise (Windows)."""
    try:
        import resource  # not on Windows
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = UNLIMITED_FDS if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < target:
        # A hard limit above what the kernel allows (fs.nr_open) is refused: halve until one
        # is taken, so the server gets as many files as it may rather than none more.
        while target > soft:
            try:
                resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
                break
            except (ValueError, OSError):
                target //= 2
    return soft, resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def max_connections_default() -> int:
    """As many connections as the process may open files (read now: after
    :func:`raise_fd_limit`), less those it needs itself."""
    try:
        import resource  # not on Windows
    except ImportError:
        return 500
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        soft = UNLIMITED_FDS
    return max(16, soft - RESERVED_FDS)


class _Registry:
    """This server's connections that are between requests, oldest first."""

    def __init__(self) -> None:
        self.idle: dict[GuardedH11, None] = {}


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with a time limit on each request's headers and a cap on
    connections (see the module's docstring)."""

    header_timeout = 10.0
    max_connections = 1_000
    registry = _Registry()  # replaced per server by ``guarded``
    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            oldest = next(iter(self.registry.idle), None)
            if oldest is None:  # everyone is busy: the newcomer waits for another time
                transport.abort()
                return
            self.registry.idle.pop(oldest, None)
            oldest.transport.abort()
        self._waiting_for_headers()

    def _waiting_for_headers(self) -> None:
        # uvicorn's keep-alive timer stops at the first byte of a request, so a client that
        # drips its headers would hold the connection for good: this one stops only when
        # they are all in.
        self.registry.idle[self] = None
        if self._header_timer is not None:
            self._header_timer.cancel()
        self._header_timer = self.loop.call_later(self.header_timeout, self._too_slow)

    def _too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.abort()

    def _busy(self) -> None:
        self.registry.idle.pop(self, None)  # in the middle of something: not to be closed
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def connection_lost(self, exc: Exception | None) -> None:
        self._busy()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        if (self.cycle is not None and not self.cycle.response_complete) or self.upgraded():
            self._busy()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self.registry.idle.pop(self, None)
            self._waiting_for_headers()  # the next request's, and the newest idle connection

    def upgraded(self) -> bool:
        # After a WebSocket upgrade the connection belongs to the WebSocket protocol.
        return self.transport.get_protocol() is not self


def guarded(settings: Settings) -> type[GuardedH11]:
    """The protocol class for one server, with its settings and a registry of its own."""
    return type("GuardedH11ForServer", (GuardedH11,), {
        "header_timeout": settings.header_timeout,
        "max_connections": settings.max_connections or max_connections_default(),
        "registry": _Registry(),
    })


def uvicorn_config(app: Any, settings: Settings, log_level: str = "warning") -> uvicorn.Config:
    """How ``langfinger serve`` runs the app on uvicorn (tests run it the same way)."""
    # permessage-deflate off: compressing every frame cost ~7% of the server's CPU a move (and
    # a compressor's memory a socket) to shrink updates of a few KB; a proxy may compress.
    return uvicorn.Config(app, log_level=log_level, ws_max_size=MAX_FRAME, lifespan="on",
                          ws_ping_interval=20.0, ws_ping_timeout=20.0,
                          ws_per_message_deflate=False,
                          ws=FrameProtocol or "auto",
                          http=guarded(settings), timeout_keep_alive=5)
