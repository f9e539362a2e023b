"""Fixtures of the online client's tests: a real server on loopback, in a thread.

The server's own test helpers (tests/server/wire.py) start it; the client under test talks
to it only as any notebook would, over HTTP and a WebSocket.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the online tests start a server ([server] extra)")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from wire import ServerThread

from langfinger_widget.server.config import Settings


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    running = ServerThread(Settings(data=tmp_path_factory.mktemp("server"))).start()
    yield running
    running.stop()
