"""Start the board's other front ends for the browser tests: the Voilà app and a marimo app.

Each is started the way ``./scripts/play --app`` (Voilà) or ``marimo run`` start
them, on 127.0.0.1 and a free port, with Jupyter's config and runtime dirs
under the test's own temporary directory (:func:`~tests.e2e.lab.jupyter_env`).
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from .lab import REPO, free_port, jupyter_env, log_tail, stop_process, wait_until_answers

APP_DIR = REPO / "app"
APP_NOTEBOOK = "langfinger.ipynb"
MARIMO_NOTEBOOK = REPO / "notebooks" / "marimo_langfinger.py"


@dataclass
class AppServer:
    """A server this test module started and owns."""

    url: str
    process: subprocess.Popen[bytes]
    log_path: Path
    started_in: float = 0.0

    def log_tail(self, lines: int = 40) -> str:
        return log_tail(self.log_path, lines)

    def stop(self) -> None:
        stop_process(self.process)


def _start(cmd: list[str], base: Path, cwd: Path, ready_path: str, timeout: float) -> AppServer:
    port = free_port()
    cmd = [part.replace("{port}", str(port)) for part in cmd]
    log_path = base / "server.log"
    log = log_path.open("wb")
    process = subprocess.Popen(
        cmd, stdout=log, stderr=subprocess.STDOUT, env=jupyter_env(base), cwd=cwd
    )
    url = f"http://127.0.0.1:{port}"
    server = AppServer(url, process, log_path)
    server.started_in = wait_until_answers(url + ready_path, process, log_path, timeout)
    return server


def start_voila(base: Path, timeout: float = 90.0, notebook: str = APP_NOTEBOOK,
                cwd: Path = APP_DIR) -> AppServer:
    """The Voilà app as ``./scripts/play --app`` serves it: from ``app/``, so that
    ``app/voila.json`` (sources stripped, no tracebacks) applies; or another notebook in
    ``cwd`` with Voilà's defaults."""
    cmd = [
        sys.executable, "-m", "voila", notebook, "--no-browser",
        "--Voila.ip=127.0.0.1", "--port={port}", "--Voila.port_retries=0",
    ]  # fmt: skip
    # A static file: asking for the page itself would start a kernel just to say "ready".
    return _start(cmd, base, cwd, "/voila/static/require.min.js", timeout)


def start_marimo(base: Path, notebook: Path = MARIMO_NOTEBOOK, timeout: float = 90.0) -> AppServer:
    """``marimo run`` of the notebook: the app view (code hidden), no token, no browser."""
    cmd = [
        sys.executable, "-m", "marimo", "run", str(notebook), "--headless", "--no-token",
        "--host", "127.0.0.1", "--port", "{port}", "--no-sandbox",
    ]  # fmt: skip
    return _start(cmd, base, REPO, "/health", timeout)
