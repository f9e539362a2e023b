"""The server's settings, with the defaults of one process on one machine."""

from __future__ import annotations

import os
import socket
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .owners import LEASE_SECONDS
from .thinkers import default_processes


def default_data_dir() -> Path:
    """Where a user's tables are kept when ``--data`` is not given (per platform)."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "langfinger"


@dataclass
class Settings:
    host: str = "127.0.0.1"
    port: int = 8000
    data: Path | None = None  # SQLite lives here unless `database` is given
    database: str | None = None  # e.g. postgresql://user@host/db
    broker: str | None = None  # e.g. redis://localhost:6379/0; None: one process
    # Page origins (scheme://host:port) allowed to open a socket or call the lobby besides
    # the server's own pages: a JupyterLite site, a notebook server.
    origins: tuple[str, ...] = ()
    public_url: str | None = None  # the base of the links handed out (behind a proxy)
    allow_private_webhooks: bool = False
    rate: float = 30.0  # messages a second a connection may send on average ...
    burst: int = 60  # ... and at once
    flood_limit: int = 200  # refused in a row before the connection is closed
    lobby_rate: float = 2.0  # lobby calls a second one address may make on average ...
    lobby_burst: int = 60  # ... and at once (loopback is not limited: see limits.py)
    hint_searches: int = 4  # hint searches a process runs at once (one a seat)
    # A client has this long to send a request's headers, and then its body (Slowloris).
    header_timeout: float = 10.0
    body_timeout: float = 10.0
    # Connections at once (None: what the process may open, less what it needs itself), and
    # of them WebSockets (None: nine tenths), so that the lobby always finds room.
    max_connections: int | None = None
    max_sockets: int | None = None
    sockets_per_token: int = 8  # sockets one seat token may hold open at once (a process)
    hello_timeout: float = 10.0  # seconds a new socket has to say hello
    outbox: int = 256  # messages queued for a slow client before it is resynced instead
    # (and answers alone this many: it is closed); a frame the client has not taken after
    # this many seconds closes it too (it stopped reading: its buffers would only grow)
    send_timeout: float = 30.0
    # Retention: a waiting table nobody ever joined is deleted this long after it was made;
    # a finished one this long after its end (None: kept until deleted by hand).
    expire_waiting: float | None = 7 * 86400.0
    keep_finished: float | None = None
    resume_bots: bool = True  # drive the bots of stored tables at start-up
    # With several processes: a table's owner that stops renewing (died) loses it after this
    # many seconds; another process then takes it over (owners.py).
    owner_lease: float = LEASE_SECONDS
    # While moves arrive together, a commit waits up to this many seconds for more to join
    # its transaction (one fsync for all); on a quiet server a move never waits. 0: never.
    commit_window: float = 0.002
    # Worker processes the bots and hints think in, off the event loop (thinkers.py); 0:
    # they think on the loop a slice at a time.
    bot_processes: int = field(default_factory=default_processes)

    def base_url(self) -> str:
        """Where people reach this server: ``public_url``, else the address it listens on."""
        if self.public_url:
            return self.public_url.rstrip("/")
        host = self.host
        if host in ("0.0.0.0", "::", ""):
            host = socket.gethostname()  # listening everywhere: name this machine
        elif ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}"

    def data_dir(self) -> Path:
        return self.data or default_data_dir()

    def database_url(self) -> str:
        if self.database:
            return self.database
        data = self.data_dir()
        data.mkdir(parents=True, exist_ok=True)
        return f"sqlite+aiosqlite:///{data / 'langfinger.sqlite3'}"
