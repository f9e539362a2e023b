"""The capacity benchmark's lean WebSocket client (benchmarks/wsload.py) against the
``websockets`` server: the handshake, masked frames the server accepts, messages of every
length encoding, fragmented ones, several frames in one read and one frame over many, pings
answered, the closing handshake both ways, and the fields the load decodes."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest
from websockets.asyncio.server import ServerConnection, serve

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import wsload

SIZES = [0, 1, 125, 126, 65_535, 65_536, 200_000]  # 7-, 16- and 64-bit lengths
CLOSES: list[int | None] = []  # each connection's close code, as the server saw it


async def _echo(ws: ServerConnection) -> None:
    """Echoes each text message; "frag" comes back in three fragments, "ping" makes the
    server ping (and report the pong), "bye" closes from the server's side."""
    try:
        await _echoes(ws)
    finally:
        await ws.wait_closed()
        CLOSES.append(ws.close_code)


async def _echoes(ws: ServerConnection) -> None:
    async for message in ws:
        if message == "frag":
            await ws.send(iter(["a" * 10, "b" * 70_000, "c"]))
        elif message == "ping":
            await (await ws.ping(b"hi"))
            await ws.send("ponged")
        elif message == "bye":
            await ws.close(4000, "done")
        else:
            await ws.send(message)


def test_messages_pings_and_closes_against_a_real_server() -> None:
    async def main() -> None:
        async with serve(_echo, "127.0.0.1", 0, compression=None, max_size=None) as server:
            port = server.sockets[0].getsockname()[1]
            async with wsload.connect(f"ws://127.0.0.1:{port}/ws?table=t") as ws:
                for n in SIZES:
                    ws.send("x" * n)
                    assert await ws.recv() == b"x" * n
                for n in SIZES:  # sent together: many frames in one read, frames over many
                    ws.send(str(n) * 3)
                for n in SIZES:
                    assert await ws.recv() == (str(n) * 3).encode()
                ws.send("frag")
                assert await ws.recv() == b"a" * 10 + b"b" * 70_000 + b"c"
                ws.send("ping")
                assert await ws.recv() == b"ponged"
                ws.send("bye")
                with pytest.raises(wsload.ConnectionClosed):
                    await ws.recv()
                assert ws.close_code == 4000
            async with wsload.connect(f"ws://127.0.0.1:{port}/") as ws:
                ws.send(b"{}")
                assert await ws.recv() == b"{}"
            while len(CLOSES) < 2:
                await asyncio.sleep(0.01)
            # leaving closed the second with the closing handshake: the server saw 1000
            assert CLOSES == [4000, 1000]

    asyncio.run(asyncio.wait_for(main(), 30))


def test_the_wrong_accept_or_status_is_refused() -> None:
    async def main() -> None:
        async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await reader.readuntil(b"\r\n\r\n")
            writer.write(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                         b"Connection: Upgrade\r\nSec-WebSocket-Accept: wrong\r\n\r\n")
            await writer.drain()

        server = await asyncio.start_server(answer, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        with pytest.raises(ConnectionError):
            async with wsload.connect(f"ws://127.0.0.1:{port}/"):
                pass
        server.close()

    asyncio.run(asyncio.wait_for(main(), 30))


def test_the_fields_the_load_reads() -> None:
    update = {"v": 1, "kind": "update", "seq": 7, "version": 12, "legal": [
        {"type": "take", "card": 3}, {"type": "pass"}], "view": {"is_over": False,
                                                              "board": [[1, 2], [3]]},
        "events": [{"e": 1}], "table": {"id": "x"}}
    frame = wsload.decode(json.dumps(update).encode())
    assert (frame.kind, frame.version, frame.view.is_over) == ("update", 12, False)
    assert [wsload.action(a) for a in frame.legal] == update["legal"]
    act = json.loads(wsload.encode({"kind": "act", "id": 1, "action": frame.legal[0],
                                    "version": 12}))
    assert act == {"kind": "act", "id": 1, "action": {"type": "take", "card": 3},
                   "version": 12}
    result = wsload.decode(b'{"kind":"result","id":4,"ok":true,"error":"","code":""}')
    assert (result.kind, result.id, result.ok) == ("result", 4, True)
    error = wsload.decode(b'{"kind":"error","code":"rate_limited","error":"slow","id":null}')
    assert (error.kind, error.code, error.id) == ("error", "rate_limited", None)
    plain = wsload._decode_plain(json.dumps(update).encode())
    assert (plain.kind, plain.version, plain.view is not None and plain.view.is_over,
            plain.legal) == ("update", 12, False, update["legal"])
