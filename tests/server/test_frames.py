"""Text frames written straight to the transport (server/frames.py, issue 39).

The bytes must be the frame websockets itself would parse, flow control must hold (a
peer that stopped reading still times out and is closed), and a real server must send
every frame that way while its clients read exactly what they read through ASGI.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from websockets.frames import Frame, Opcode
from websockets.streams import StreamReader
from wire import WAIT, ServerThread, Wire, play_random, seated_table

from langfinger_widget.server import frames, protocol
from langfinger_widget.server.app import _send_within, _write
from langfinger_widget.server.config import Settings
from langfinger_widget.server.hub import Client

LONG = 3600.0


def _parsed(data: bytes) -> Frame:
    reader = StreamReader()
    reader.feed_data(data)
    reader.feed_eof()
    parser = Frame.parse(reader.read_exact, mask=False)
    try:
        next(parser)
    except StopIteration as done:
        frame: Frame = done.value
        return frame
    raise AssertionError("the frame was cut short")


@pytest.mark.parametrize("size", [0, 1, 125, 126, 65535, 65536, 200_000])
def test_the_header_makes_the_frame_websockets_reads(size: int) -> None:
    payload = ("é" * size).encode()[:size]  # any bytes: the parser does not decode
    frame = _parsed(frames.header(len(payload)) + payload)
    assert (frame.opcode, frame.fin, frame.data) == (Opcode.TEXT, True, payload)


class _Writer:
    """A socket's frame writer whose transport is full until ``room`` is set."""

    def __init__(self, full: bool = False) -> None:
        self.room = asyncio.Event()
        if not full:
            self.room.set()
        self.written: list[bytes] = []

    def write_text(self, data: bytes) -> bool:
        if not self.room.is_set():
            return False
        self.written.append(data)
        return True

    async def wait_writable(self) -> None:
        await self.room.wait()


class _Socket:
    def __init__(self, writer: _Writer) -> None:
        self.scope = {"extensions": {frames.KEY: writer}}
        self.closed: int | None = None

    async def send_text(self, text: str) -> None:
        raise AssertionError("a socket with a frame writer sends no ASGI message")

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed = code


def _message(n: int) -> dict[str, Any]:
    return {"v": 1, "kind": "pong", "seq": 0, "id": n}


def test_a_writer_gets_the_encoded_bytes_of_messages_and_frames() -> None:
    async def scene() -> list[bytes]:
        writer = _Writer()
        socket = _Socket(writer)
        await _send_within(socket, _message(1), LONG)  # type: ignore[arg-type]
        await _send_within(socket, protocol.Frame.of(_message(2)), LONG)  # type: ignore[arg-type]
        return writer.written

    assert asyncio.run(scene()) == [protocol.encode(_message(n)).encode() for n in (1, 2)]


def test_a_full_transport_waits_then_writes_in_order(tmp_path) -> None:
    settings = Settings(data=tmp_path, send_timeout=LONG)

    async def scene() -> list[bytes]:
        client = Client(Any, 0, None, settings)  # type: ignore[arg-type]
        hub = type("HubStub", (), {"settings": settings, "state_for": lambda self, c: {}})()
        writer = _Writer(full=True)
        for n in range(1, 4):
            client.push(_message(n))
        task = asyncio.ensure_future(_write(_Socket(writer), client, hub))  # type: ignore[arg-type]
        await asyncio.sleep(0.05)
        assert writer.written == [] and not task.done()
        writer.room.set()
        client.push(_message(4))
        client.close(1000, "bye")
        await asyncio.wait_for(task, WAIT)
        return writer.written

    assert asyncio.run(scene()) == [protocol.encode(_message(n)).encode() for n in range(1, 5)]


def test_a_peer_whose_transport_stays_full_is_closed_as_slow(tmp_path) -> None:
    settings = Settings(data=tmp_path, send_timeout=0.05)

    async def scene() -> int | None:
        client = Client(Any, 0, None, settings)  # type: ignore[arg-type]
        hub = type("HubStub", (), {"settings": settings, "state_for": lambda self, c: {}})()
        socket = _Socket(_Writer(full=True))
        client.push(_message(1))
        await asyncio.wait_for(_write(socket, client, hub), WAIT)  # type: ignore[arg-type]
        return socket.closed

    assert asyncio.run(scene()) == protocol.CLOSE_SLOW


def test_a_real_server_writes_every_frame_itself(tmp_path, monkeypatch) -> None:
    """Through uvicorn as `langfinger serve` runs it, every frame a client reads was written
    by the socket's own writer, and a whole stretch of play reads as it always did."""
    if frames.FrameProtocol is None:
        pytest.skip("this uvicorn has no sans-I/O WebSocket protocol")
    written: list[bytes] = []
    write_text = frames.FrameProtocol.write_text

    def counted(self: Any, data: bytes) -> bool:
        done: bool = write_text(self, data)
        if done:
            written.append(data)
        return done

    monkeypatch.setattr(frames.FrameProtocol, "write_text", counted)
    running = ServerThread(Settings(data=tmp_path)).start()
    try:
        _, tokens = seated_table(running.base, players=3)
        wires = [Wire(running.ws_url) for _ in tokens]
        try:
            for wire, token in zip(wires, tokens, strict=True):
                wire.hello(token)
            play_random(wires, 12, random.Random(7))
            received = [f.encode() for w in wires for f in w.frames]
        finally:
            for wire in wires:
                wire.close()
    finally:
        running.stop()
    assert len(received) > 12 * 3  # every seat's update of every move, and the answers
    assert set(received) <= set(written)


def test_a_push_with_nothing_waiting_is_written_at_once_else_it_keeps_its_place(
        tmp_path) -> None:
    """``Client.push`` writes straight to the socket only when nothing is queued or being
    sent: a frame never overtakes one before it."""
    settings = Settings(data=tmp_path, send_timeout=LONG)

    async def scene() -> tuple[list[bytes], list[bytes]]:
        client = Client(Any, 0, None, settings)  # type: ignore[arg-type]
        hub = type("HubStub", (), {"settings": settings, "state_for": lambda self, c: {}})()
        direct: list[bytes] = []
        room = [True]

        def write(message: Any) -> bool:
            if not room[0]:
                return False
            direct.append(protocol.Frame.of(message).data if isinstance(message, dict)
                          else message.data)
            return True

        client.direct = write
        client.push(_message(1))  # nothing waits: written at once
        room[0] = False
        client.push(_message(2))  # the socket is full: it waits in the outbox ...
        room[0] = True
        client.push(_message(3))  # ... and this one waits behind it, room or not
        writer = _Writer()
        task = asyncio.ensure_future(_write(_Socket(writer), client, hub))  # type: ignore[arg-type]
        while len(writer.written) < 2:
            await asyncio.sleep(0)
        client.push(_message(4))  # the outbox is empty and nothing held: at once again
        client.resync = True
        client.push(_message(5))  # a resync is coming: through the writer, in order
        client.close(1000, "bye")
        await asyncio.wait_for(task, WAIT)
        return direct, writer.written

    direct, written = asyncio.run(scene())
    encoded = [protocol.encode(_message(n)).encode() for n in range(1, 6)]
    assert direct == [encoded[0], encoded[3]]
    assert written == [encoded[1], encoded[2], encoded[4], b"{}"]  # the last: the resync
