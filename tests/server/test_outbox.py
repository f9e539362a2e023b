"""A client too slow to take its messages is resynced with one fresh state, never dropped
silently; its answers are kept."""

from __future__ import annotations

import asyncio

from langfinger_widget.server.config import Settings
from langfinger_widget.server.hub import Client, Live
from langfinger_widget.server.protocol import out
from langfinger_widget.server.room import Room
from langfinger_widget.server.store import Loaded, SeatRow, TableRow


def _live() -> Live:
    row = TableRow("t", 3, {"players": 2, "seed": 5, "names": ["A", "B"]}, {"players": 2},
                   "playing", None, False, None, "h", 0.0, 0.0)
    return Live(Room(Loaded(row, [SeatRow(0, "person", "A", "taken", token_hash="x"),
                                  SeatRow(1, "person", "B", "taken", token_hash="y")], [])))


def test_a_backlog_becomes_one_fresh_state_and_answers_are_kept() -> None:
    client = Client(_live(), 0, "x", Settings(outbox=4))
    for seq in range(3):
        client.push(out("update", seq), picture=True)
    client.push(out("result", 3, id=1, ok=True))
    client.push(out("update", 4), picture=True)  # the fifth: over the limit
    assert client.resync
    client.push(out("update", 5), picture=True)  # dropped: the coming state holds it
    client.push(out("result", 5, id=2, ok=True))
    composed: list[str] = []

    def compose(c: Client) -> dict:
        composed.append("state")
        return out("state", 5)

    async def drain() -> list[dict]:
        got = []
        client.close(1000, "done")
        while (message := await client.next(compose)) is not None:
            got.append(message)
        return got

    got = asyncio.run(drain())
    assert [(m["kind"], m.get("id")) for m in got] == [("result", 1), ("result", 2),
                                                       ("state", None)]
    assert composed == ["state"] and not client.resync
