"""A game server on this machine, started in the background (``langfinger serve --port 0``).

A separate process (``python -m langfinger_widget.server``), so the notebook's kernel never
runs the server's event loop; it listens on loopback only, keeps its tables in a temporary
directory unless ``data`` is given, and stops with :meth:`LocalServer.stop` or when Python
exits.
"""

from __future__ import annotations

import atexit
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..kernel.errors import BadArgument
from ..tables.runtime import in_pyodide
from .http import ServerError

START_TIMEOUT = 60.0
_RUNNING: list[LocalServer] = []


class LocalServer:
    """``langfinger serve`` in a child process; ``url`` is where it listens."""

    def __init__(self, data: str | Path | None = None, origins: tuple[str, ...] = (),
                 port: int = 0) -> None:
        if in_pyodide():
            raise BadArgument("JupyterLite cannot start a server (no processes, no sockets): "
                              "give the URL of a running one, started with --origin for "
                              "this site")
        self._tmp = None if data is not None else tempfile.TemporaryDirectory(
            prefix="langfinger-server-")
        self.data = Path(data) if data is not None else Path(self._tmp.name)  # type: ignore[union-attr]
        self.log_path = self.data / "server.log"
        command = [sys.executable, "-m", "langfinger_widget.server", "--port", str(port),
                   "--data", str(self.data)]
        for origin in origins:
            command += ["--origin", origin]
        self.data.mkdir(parents=True, exist_ok=True)
        # The child imports this very copy of the package, even one not installed (a checkout
        # on sys.path): its directory goes first on the child's path.
        package_root = str(Path(__file__).resolve().parents[2])
        path = os.pathsep.join(p for p in (package_root, os.environ.get("PYTHONPATH")) if p)
        with self.log_path.open("a") as log:  # a file: a pipe nobody reads would fill up
            self.process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                env={**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": path})
        self.url = self._wait_for_url()
        _RUNNING.append(self)

    def _wait_for_url(self) -> str:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            text = self.log_path.read_text(errors="replace")
            for line in text.splitlines():
                if line.startswith("Langfinger server: "):
                    return line.split()[2].rstrip("/")
            if self.process.poll() is not None:
                raise ServerError(f"the server did not start: {text.strip()[-800:]}",
                                  "offline")
            time.sleep(0.05)
        self.stop()
        raise ServerError(f"the server did not start in {START_TIMEOUT:g} s", "offline")

    @property
    def running(self) -> bool:
        return self.process.poll() is None

    def stop(self) -> None:
        """Stop the server (its tables go with its temporary directory)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        if self in _RUNNING:
            _RUNNING.remove(self)
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> LocalServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"<LocalServer {self.url} {'running' if self.running else 'stopped'}>"


@atexit.register
def _stop_all() -> None:
    for server in list(_RUNNING):
        server.stop()
