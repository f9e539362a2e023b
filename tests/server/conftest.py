"""Fixtures of the server tests: one server a test module, in a thread, on loopback."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# The test-only games (tests/games/sealed.py: a sealed step) for tables of any game.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games"))

pytest.importorskip("starlette", reason="the server tests need the [server] extra")

from wire import ServerThread

from langfinger_widget.server.config import Settings


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    settings = Settings(data=tmp_path_factory.mktemp("server"), allow_private_webhooks=True)
    running = ServerThread(settings).start()
    yield running
    running.stop()
