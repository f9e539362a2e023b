"""Real Postgres and Redis for the scale-out tests and benchmarks, from Debian's binaries.

Each is started in a temporary directory on a free loopback port and stopped
afterwards. Postgres refuses to run as root (CI runs as root): then it runs as
the ``postgres`` user the Debian package creates (or a user made for it), via
``runuser``. Where the binaries are missing the tests are skipped with the
install command, except under CI (``CI`` set), where that is a broken machine.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

INSTALL = "apt-get install postgresql redis-server"


class Missing(RuntimeError):
    """A service's binaries are not installed."""


T = TypeVar("T")


@contextlib.contextmanager
def needed(service: Callable[[], AbstractContextManager[T]]) -> Iterator[T]:
    """``service()`` running for a fixture, or its tests skipped where it is not installed
    (failed under CI, which must install it)."""
    import pytest

    try:
        with service() as running:
            yield running
    except Missing as missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI must install the services: {missing}")
        pytest.skip(str(missing))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_port(port: int, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not answer on port {port} within {timeout} s")


def postgres_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parts[4]) if Path(p).parts[4].isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).parent
    raise Missing(f"no Postgres binaries (initdb, pg_ctl): {INSTALL}")


def _service_user() -> str | None:
    """The user Postgres runs as: None (ourselves) unless we are root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "lf-postgres"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    subprocess.run(["useradd", "--system", "--no-create-home", "lf-postgres"], check=True)
    return "lf-postgres"


@dataclass
class Postgres:
    url: str
    port: int
    data: Path


@contextlib.contextmanager
def postgres(fsync: bool = False) -> Iterator[Postgres]:
    """A fresh Postgres cluster on a free port; ``url`` names its ``langfinger`` database."""
    binaries = postgres_bin()
    user = _service_user()
    home = Path(tempfile.mkdtemp(prefix="lf-postgres-"))
    data, sockets = home / "data", home / "sockets"
    sockets.mkdir()
    if user is not None:
        entry = pwd.getpwnam(user)
        for path in (home, sockets):
            os.chown(path, entry.pw_uid, entry.pw_gid)
    run_as = [] if user is None else ["runuser", "-u", user, "--"]
    port = free_port()

    def run(*args: str) -> None:
        subprocess.run([*run_as, *args], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, cwd=home)

    try:
        run(str(binaries / "initdb"), "-D", str(data), "-U", "lf", "-A", "trust", "--no-sync",
            "-E", "UTF8")
        options = (f"-p {port} -k {sockets} -c listen_addresses=127.0.0.1 "
                   f"-c fsync={'on' if fsync else 'off'} -c max_connections=200")
        run(str(binaries / "pg_ctl"), "-D", str(data), "-o", options, "-l",
            str(home / "postgres.log"), "-w", "-t", "60", "start")
        run(str(binaries / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "lf",
            "langfinger")
        yield Postgres(f"postgresql://lf@127.0.0.1:{port}/langfinger", port, data)
    finally:
        with contextlib.suppress(Exception):
            run(str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(home, ignore_errors=True)


@dataclass
class Redis:
    url: str
    port: int


@contextlib.contextmanager
def redis() -> Iterator[Redis]:
    """A redis-server with nothing saved to disk, on a free port."""
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not Path(binary).exists():
        raise Missing(f"no redis-server: {INSTALL}")
    home = Path(tempfile.mkdtemp(prefix="lf-redis-"))
    port = free_port()
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", str(home)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_port(port, 20, "redis-server")
        yield Redis(f"redis://127.0.0.1:{port}/0", port)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(home, ignore_errors=True)
