"""Start the board's other front ends for the browser tests: the Voilà app, a marimo app and
the game server (its web board, and the tables notebooks join).

Each is started the way ``./scripts/play --app`` (Voilà) or ``marimo run`` start
them, on 127.0.0.1 and a free port, with Jupyter's config and runtime dirs
under the test's own temporary directory (:func:`~tests.e2e.lab.jupyter_env`).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Locator, Page, expect

from .lab import (
    ARTIFACTS,
    REPO,
    free_port,
    jupyter_env,
    log_tail,
    stop_process,
    wait_until_answers,
)

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


@contextmanager
def shot_on_failure(page: Page, app: AppServer, name: str) -> Iterator[None]:
    """On a failure inside: the page's screenshot as ``FAILED-<name>.png`` and the app
    server's last lines printed, then the failure goes on."""
    try:
        yield
    except Exception:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"FAILED-{name}.png"), full_page=True)
        print(app.log_tail())
        raise


def new_game_in_app(page: Page, app: AppServer, game: str, players: int, seed: str) -> Locator:
    """The app opened, and its board's New game dealing ``game`` at ``seed``: seat 0 is you,
    the others easy bots. The board's root, once the panel has closed."""
    page.goto(app.url)
    root = page.get_by_test_id("langfinger")
    expect(root.get_by_test_id("round")).to_have_text("Round 1", timeout=60_000)
    root.get_by_role("button", name="New game").click()
    panel = root.get_by_test_id("new-game-panel")
    panel.get_by_test_id("ng-game").select_option(game)
    panel.get_by_test_id("ng-players").select_option(str(players))
    panel.get_by_test_id("ng-seat").select_option("0")
    expect(panel.get_by_test_id("ng-player-0")).to_have_text("You")
    for seat in range(1, players):
        panel.get_by_test_id(f"ng-player-{seat}").select_option("easy")
    panel.get_by_label("Seed (optional)").fill(seed)
    panel.get_by_role("button", name="Start the new game").click()
    expect(panel).to_have_count(0)
    return root


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


def start_voila(
    base: Path, timeout: float = 90.0, notebook: str = APP_NOTEBOOK, cwd: Path = APP_DIR
) -> AppServer:
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


class GameServer:
    """``python -m langfinger_widget.server`` on loopback, in a data folder of the test's own;
    it can be killed and started again on the same port and data (``starts`` counts).
    ``origins``: page origins it accepts besides its own (a JupyterLite site)."""

    def __init__(self, data: Path, port: int, origins: Sequence[str] = ()) -> None:
        self.data, self.port, self.origins = data, port, tuple(origins)
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> GameServer:
        log = self.data / "server.log"
        with log.open("a") as out:  # a file: a pipe nobody reads would fill and stall it
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "langfinger_widget.server",
                    "--port",
                    str(self.port),
                    "--data",
                    str(self.data),
                    *(f"--origin={o}" for o in self.origins),
                ],
                env={**os.environ, "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1"},
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 60
        while log.read_text().count("Langfinger server:") < self.starts + 1:
            assert self.proc.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        self.starts += 1
        return self

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)
