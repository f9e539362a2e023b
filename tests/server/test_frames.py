"""Text frames written straight to the transport (server/frames.py, issue 39).

The bytes must be the frame websockets itself would parse, flow control must hold (a
peer that stopped reading still times out and is closed), and a real server must send
every frame that way while its clients read exactly what they read through ASGI.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.frames import Frame, Opcode
from websockets.streams import StreamReader
from wire import WAIT, ServerThread, Wire, caught_up, play_random, seated_table

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


def _data(message: Any) -> bytes:
    return protocol.Frame.of(message).data if isinstance(message, dict) else message.data


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


def _record_writes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, list[bytes]]]:
    """Every transport write of the sockets' own writers: (the socket, its frames)."""
    writes: list[tuple[int, list[bytes]]] = []
    write_text, write_texts = frames.FrameProtocol.write_text, frames.FrameProtocol.write_texts

    def one(self: Any, data: bytes) -> bool:
        done: bool = write_text(self, data)
        if done:
            writes.append((id(self), [data]))
        return done

    def many(self: Any, data: list[bytes]) -> bool:
        done: bool = write_texts(self, data)
        if done:
            writes.append((id(self), list(data)))
        return done

    monkeypatch.setattr(frames.FrameProtocol, "write_text", one)
    monkeypatch.setattr(frames.FrameProtocol, "write_texts", many)
    return writes


@contextlib.contextmanager
def _recorded_server(tmp_path: Any, monkeypatch: Any) -> Iterator[tuple[Any, Any, list[str]]]:
    """A real server as `langfinger serve` runs it, every transport write recorded, and a
    table of three seated on it (its seat tokens)."""
    if frames.FrameProtocol is None:
        pytest.skip("this uvicorn has no sans-I/O WebSocket protocol")
    writes = _record_writes(monkeypatch)
    running = ServerThread(Settings(data=tmp_path)).start()
    try:
        _, tokens = seated_table(running.base, players=3)
        yield running, writes, tokens
    finally:
        running.stop()


def test_a_real_server_writes_every_frame_itself(tmp_path, monkeypatch) -> None:
    """Through uvicorn as `langfinger serve` runs it, every frame a client reads was written
    by the socket's own writer, and a whole stretch of play reads as it always did."""
    with _recorded_server(tmp_path, monkeypatch) as (running, writes, tokens):
        wires = [Wire(running.ws_url) for _ in tokens]
        try:
            for wire, token in zip(wires, tokens, strict=True):
                wire.hello(token)
            play_random(wires, 12, random.Random(7))
            received = [f.encode() for w in wires for f in w.frames]
        finally:
            for wire in wires:
                wire.close()
    assert len(received) > 12 * 3  # every seat's update of every move, and the answers
    assert set(received) <= {frame for _, batch in writes for frame in batch}


def _kinds(batch: list[bytes]) -> list[str]:
    return [json.loads(frame)["kind"] for frame in batch]


def test_a_movers_update_and_answer_go_out_in_one_write_in_order(tmp_path, monkeypatch) -> None:
    """The socket that moved gets the move's update and then its result in one transport
    write, reading exactly what was written; a second socket of the same seat is not held
    back: it gets each update in a write of its own."""
    with _recorded_server(tmp_path, monkeypatch) as (running, writes, tokens):
        wires = [Wire(running.ws_url) for _ in range(4)]
        try:
            for wire, token in zip(wires, [*tokens, tokens[0]], strict=True):
                wire.hello(token)  # one at a time: the sockets' first writes in this order
            played = play_random(wires[:3], 12, random.Random(11))
            caught_up(wires, wires[0].latest["seq"])
        finally:
            for wire in wires:
                wire.close()
    sockets = list(dict.fromkeys(socket for socket, _ in writes))  # in the order of hello
    twin = sockets[3]  # seat 0's second socket
    batched = [(socket, batch) for socket, batch in writes if len(batch) > 1]
    assert len(batched) == len(played) == 12
    for socket, batch in batched:
        assert socket != twin
        update, result = (json.loads(frame) for frame in batch)
        assert (update["kind"], result["kind"], result["ok"]) == ("update", "result", True)
        assert update["seq"] == result["seq"]
    seat0_moves = sum(socket == sockets[0] for socket, _ in batched)
    assert seat0_moves > 0
    twin_updates = [b for socket, b in writes if socket == twin and _kinds(b) == ["update"]]
    assert len(twin_updates) == 12  # every move's, seat 0's own ones included, each alone
    for wire, socket in zip(wires, sockets, strict=True):
        written = [frame for s, batch in writes if s == socket for frame in batch]
        got = [f.encode() for f in wire.frames]
        assert got == written[:len(got)]  # every byte, in the order written


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

        def write(messages: Any) -> bool:
            if not room[0]:
                return False
            direct.extend(_data(m) for m in messages)
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


class _Direct:
    """A client's direct writer: each call one transport write of its frames; ``full``: the
    socket's buffers are full, nothing is written."""

    def __init__(self) -> None:
        self.writes: list[list[bytes]] = []
        self.full = False

    def __call__(self, messages: Any) -> bool:
        if self.full:
            return False
        self.writes.append([_data(m) for m in messages])
        return True


def _corked_client(tmp_path, send_timeout: float = LONG) -> tuple[Client, _Direct, Any]:
    settings = Settings(data=tmp_path, send_timeout=send_timeout)
    live = type("LiveStub", (), {"room": type("RoomStub", (), {"seq": 5})()})()
    client = Client(live, 0, None, settings)  # type: ignore[arg-type]
    client.direct = direct = _Direct()
    hub = type("HubStub", (), {"settings": settings, "state_for": lambda self, c: {}})()
    return client, direct, hub


def _encoded(*ns: int) -> list[bytes]:
    return [protocol.encode(_message(n)).encode() for n in ns]


def test_a_corked_client_writes_what_it_held_in_one_write_and_another_is_not_held(
        tmp_path) -> None:
    async def scene() -> tuple[list[list[bytes]], list[list[bytes]]]:
        client, direct, _ = _corked_client(tmp_path)
        other, other_direct, _ = _corked_client(tmp_path)  # e.g. the seat's second socket
        client.cork()
        client.push(_message(1), picture=True)
        other.push(_message(1), picture=True)
        assert direct.writes == [] and other_direct.writes == [_encoded(1)]
        client.push(_message(2))
        client.uncork(_message(3))  # the answer: last, in the same write
        await asyncio.sleep(0)  # the end-of-turn write finds nothing left
        client.push(_message(4))  # uncorked: at once again
        client.cork()
        client.uncork(_message(5))  # an answer alone
        return direct.writes, other_direct.writes

    writes, other_writes = asyncio.run(scene())
    assert writes == [_encoded(1, 2, 3), _encoded(4), _encoded(5)]
    assert other_writes == [_encoded(1)]


def test_a_cork_holds_nothing_past_its_turn_of_the_loop(tmp_path) -> None:
    """An intent that awaits (its commit, another process) does not hold back what was
    pushed to its socket meanwhile: that is written when the loop's turn ends."""
    async def scene() -> list[list[bytes]]:
        client, direct, _ = _corked_client(tmp_path)
        client.cork()
        client.push(_message(1))
        await asyncio.sleep(0)
        assert direct.writes == [_encoded(1)]
        client.push(_message(2))
        client.push(_message(3))
        client.uncork()
        return direct.writes

    assert asyncio.run(scene()) == [_encoded(1), _encoded(2, 3)]


def test_a_full_socket_at_uncork_keeps_the_order_and_still_closes_as_slow(tmp_path) -> None:
    async def scene(room_comes: bool) -> tuple[list[bytes], int | None]:
        client, direct, hub = _corked_client(tmp_path, send_timeout=LONG if room_comes
                                             else 0.05)
        direct.full = True
        client.cork()
        client.push(_message(1))
        client.push(_message(2))
        client.uncork()  # the buffers are full: into the outbox, in order
        client.push(_message(3))
        writer = _Writer(full=True)
        socket = _Socket(writer)
        task = asyncio.ensure_future(_write(socket, client, hub))  # type: ignore[arg-type]
        if room_comes:
            await asyncio.sleep(0.01)
            writer.room.set()
            client.close(1000, "bye")
        await asyncio.wait_for(task, WAIT)
        assert direct.writes == []
        return writer.written, socket.closed

    assert asyncio.run(scene(True)) == (_encoded(1, 2, 3), 1000)
    assert asyncio.run(scene(False)) == ([], protocol.CLOSE_SLOW)


def test_a_client_closed_while_corked_is_sent_what_was_held_before_the_close(tmp_path) -> None:
    async def scene() -> tuple[list[bytes], int | None]:
        client, direct, hub = _corked_client(tmp_path)
        client.cork()
        client.push(_message(1))
        client.close(protocol.CLOSE_REVOKED, "seat token revoked")
        client.push(_message(2))
        client.uncork()
        writer = _Writer()
        socket = _Socket(writer)
        await asyncio.wait_for(_write(socket, client, hub), WAIT)  # type: ignore[arg-type]
        assert direct.writes == []
        return writer.written, socket.closed

    assert asyncio.run(scene()) == (_encoded(1, 2), protocol.CLOSE_REVOKED)


class _Boom(BaseException):
    """Not an Exception: it goes through the socket's loop (as a cancellation would)."""


class _IntentSocket:
    """A socket that sends one intent, then hangs up."""

    def __init__(self) -> None:
        self.sent = [{"type": "websocket.receive",
                      "text": json.dumps({"kind": "act", "id": 1, "action": {}})},
                     {"type": "websocket.disconnect", "code": 1000}]

    async def receive(self) -> dict[str, Any]:
        return self.sent.pop(0)


@pytest.mark.parametrize("ending", ["answer", "exception", "base_exception"])
def test_the_socket_that_sent_an_intent_gets_its_frames_and_answer_in_one_write(
        tmp_path, ending: str) -> None:
    """Whatever the intent does (answers, fails with a bug, or is interrupted), what was
    pushed to its socket meanwhile is written, before the answer and with it."""
    from starlette.websockets import WebSocketDisconnect

    from langfinger_widget.server.app import _serve

    class HubStub:
        async def intent(self, client: Client, message: dict[str, Any]) -> dict[str, Any]:
            client.push(_message(1), picture=True)  # the move's update, from its commit
            if ending == "exception":
                raise RuntimeError("a bug")
            if ending == "base_exception":
                raise _Boom
            return _message(2)

    async def scene() -> list[list[bytes]]:
        client, direct, _ = _corked_client(tmp_path)
        with pytest.raises(_Boom if ending == "base_exception" else WebSocketDisconnect):
            await _serve(_IntentSocket(), client, HubStub())  # type: ignore[arg-type]
        return direct.writes  # before the loop turns: written by the uncork itself

    writes = asyncio.run(scene())
    assert len(writes) == 1 and writes[0][0] == _encoded(1)[0]
    answers = [json.loads(frame) for frame in writes[0][1:]]
    if ending == "answer":
        assert answers == [_message(2)]
    elif ending == "exception":
        assert [(a["kind"], a["code"], a["id"]) for a in answers] == [
            ("error", "server_error", 1)]
    else:
        assert answers == []
