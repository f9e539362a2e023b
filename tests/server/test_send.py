"""A frame's send (app._send_within): run at once with no timer when it does not wait, and
under the send timeout, with cancellation passed on, when it does (issue 39). No timing is
relied on: a send waits on an event the test sets, and the timeouts are either far longer than
the test or (a stuck send) bounded by an outer wait."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import pytest
from wire import WAIT

from langfinger_widget.server import protocol
from langfinger_widget.server.app import _send_within, _write
from langfinger_widget.server.config import Settings
from langfinger_widget.server.hub import Client

LONG = 3600.0  # a send timeout no test comes near


class _Socket:
    """A WebSocket whose sends complete at once, or wait for ``release`` (set by the test)."""

    scope: dict[str, Any] = {}  # no frame writer: the ASGI path

    def __init__(self, wait: bool = False, fail: BaseException | None = None) -> None:
        self.wait = wait
        self.fail = fail
        self.release = asyncio.Event()
        self.sent: list[str] = []
        self.waiting = asyncio.Event()  # a send is waiting for release
        self.cleaned = 0  # sends whose finally ran
        self.closed: int | None = None

    async def send_text(self, text: str) -> None:
        try:
            if self.wait:
                self.waiting.set()
                await self.release.wait()
            if self.fail is not None:
                raise self.fail
            self.sent.append(text)
        finally:
            self.cleaned += 1

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed = code


def _message(n: int) -> dict[str, Any]:
    return {"v": 1, "kind": "pong", "seq": 0, "id": n}


@pytest.mark.skipif(sys.version_info < (3, 11), reason="asyncio.timeout is Python 3.11's")
def test_a_send_that_does_not_wait_sets_no_timer(monkeypatch) -> None:
    def no_timer(*args: Any) -> Any:
        raise AssertionError("a send that did not wait set a timer")

    monkeypatch.setattr(asyncio, "timeout", no_timer)

    async def scene() -> list[str]:
        socket = _Socket()
        await _send_within(socket, _message(1), LONG)  # type: ignore[arg-type]
        await _send_within(socket, protocol.Frame.of(_message(2)), LONG)  # type: ignore[arg-type]
        return socket.sent

    assert asyncio.run(scene()) == [protocol.encode(_message(1)), protocol.encode(_message(2))]


def test_a_send_that_waits_finishes_once_released() -> None:
    async def scene() -> tuple[list[str], int]:
        socket = _Socket(wait=True)
        sending = asyncio.ensure_future(_send_within(socket, _message(1), LONG))  # type: ignore[arg-type]
        await asyncio.wait_for(socket.waiting.wait(), WAIT)
        assert not sending.done() and socket.sent == []
        socket.release.set()
        await asyncio.wait_for(sending, WAIT)
        return socket.sent, socket.cleaned

    assert asyncio.run(scene()) == ([protocol.encode(_message(1))], 1)


@pytest.mark.parametrize("wait", [False, True])
def test_a_failing_send_raises_its_own_error(wait: bool) -> None:
    async def scene() -> None:
        socket = _Socket(wait=wait, fail=OSError("gone"))
        socket.release.set()
        await asyncio.wait_for(_send_within(socket, _message(1), LONG), WAIT)  # type: ignore[arg-type]

    with pytest.raises(OSError, match="gone"):
        asyncio.run(scene())


def test_a_waiting_send_is_cancelled_with_its_writer() -> None:
    async def scene() -> int:
        socket = _Socket(wait=True)
        sending = asyncio.ensure_future(_send_within(socket, _message(1), LONG))  # type: ignore[arg-type]
        await asyncio.wait_for(socket.waiting.wait(), WAIT)
        sending.cancel()
        with pytest.raises(asyncio.CancelledError):
            await sending
        return socket.cleaned  # the send's own finally ran: the cancellation went into it

    assert asyncio.run(scene()) == 1


def test_a_send_that_waits_too_long_times_out_and_the_socket_is_closed(tmp_path) -> None:
    settings = Settings(data=tmp_path, send_timeout=0.05)

    async def scene() -> tuple[int | None, int, list[str]]:
        client = Client(Any, 0, None, settings)  # type: ignore[arg-type]
        hub = type("HubStub", (), {"settings": settings, "state_for": lambda self, c: {}})()
        socket = _Socket(wait=True)  # never released: the peer stopped reading
        client.push(_message(1))
        await asyncio.wait_for(_write(socket, client, hub), WAIT)  # type: ignore[arg-type]
        return socket.closed, socket.cleaned, socket.sent

    assert asyncio.run(scene()) == (protocol.CLOSE_SLOW, 1, [])


def test_frames_go_in_order_whether_or_not_a_send_waits(tmp_path) -> None:
    settings = Settings(data=tmp_path, send_timeout=LONG)

    async def scene() -> list[str]:
        client = Client(Any, 0, None, settings)  # type: ignore[arg-type]
        hub = type("HubStub", (), {"settings": settings, "state_for": lambda self, c: {}})()
        socket = _Socket(wait=True)
        for n in range(1, 4):
            client.push(_message(n))
        writer = asyncio.ensure_future(_write(socket, client, hub))  # type: ignore[arg-type]
        await asyncio.wait_for(socket.waiting.wait(), WAIT)
        socket.wait = False  # the rest go at once
        socket.release.set()
        client.push(_message(4))
        client.close(1000, "bye")
        await asyncio.wait_for(writer, WAIT)
        return socket.sent

    assert asyncio.run(scene()) == [protocol.encode(_message(n)) for n in range(1, 5)]
