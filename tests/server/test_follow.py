"""Following another process's moves (issue 39): the notices that arrive together are read
in one query, every table they name takes in its own moves (an undo among them too), and a
table busy with a change of this process's waits for it alone.

Two hubs share a real Postgres in one event loop: A commits, B is told "table T is at N"
as its broker would tell it, and B's rooms must then be what A's are.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
import services

from langfinger_widget.server import lobby, tokens
from langfinger_widget.server.broker import MemoryBroker
from langfinger_widget.server.config import Settings
from langfinger_widget.server.hub import Client, Hub
from langfinger_widget.server.limits import Turns
from langfinger_widget.server.store import Loaded, Store


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    with services.needed(services.postgres) as running:
        yield running.url


class _Bus:
    """A broker that is not the one-process MemoryBroker: B follows as with others."""

    async def start(self, listener: Any) -> None:
        return None

    async def publish(self, table_id: str, seq: int) -> None:
        return None

    async def close(self) -> None:
        return None


async def _hubs(url: str) -> tuple[Hub, Hub]:
    settings = Settings()
    a = Hub(settings, await Store.open(url), MemoryBroker())
    b = Hub(settings, await Store.open(url), _Bus())
    a.scheduler = b.scheduler = Turns(asyncio.get_running_loop())
    return a, b


async def _table(a: Hub, b: Hub) -> tuple[str, Client]:
    """A 2-player table made through A, its seat 1 connected to B."""
    made = await lobby.create(a, {"players": 2, "join": 0, "pace": 0}, "http://x")
    table_id = made["table"]
    token = (await lobby.join(a, table_id, {"invite": made["invite_keys"]["1"]},
                              "http://x"))["token"]
    live = await b.live(table_id)
    assert live is not None
    client = Client(live, 1, tokens.digest(token), b.settings)
    live.clients.add(client)
    client.push(b.state_for(client))
    client._queue.clear()
    return table_id, client


async def _play(a: Hub, table_id: str, rng: random.Random) -> int:
    """One move through A; the seat that made it."""
    live = a.rooms[table_id]
    seat = live.room.game.to_decide[0]
    action = rng.choice(live.room.game.legal_actions(seat))
    await a.commit(live, lambda room: room.play(seat, action, "person"))
    return seat


async def _play_then_undo(a: Hub, table_id: str, rng: random.Random) -> None:
    """Moves through A until the last mover may take theirs back, then that undo."""
    for _ in range(40):
        seat = await _play(a, table_id, rng)
        if a.rooms[table_id].room.undo_refusal(seat) is None:
            await a.commit(a.rooms[table_id], lambda room, seat=seat: room.undo(seat))
            return
    raise AssertionError("no undo was allowed in 40 moves")


def _same(a: Hub, b: Hub, table_id: str) -> None:
    room_a, room_b = a.rooms[table_id].room, b.rooms[table_id].room
    assert (room_b.seq, room_b.plies, room_b.status) == (room_a.seq, room_a.plies, room_a.status)
    assert room_b.game.version == room_a.game.version
    for seat in (None, 0, 1):
        assert room_b.picture(seat) == room_a.picture(seat)


def _sent(client: Client) -> list[dict[str, Any]]:
    messages = [json.loads(m.text) if hasattr(m, "text") else m for m in client._queue]
    client._queue.clear()
    return messages


def _count_reads(b: Hub) -> list[dict[str, int]]:
    reads: list[dict[str, int]] = []
    since_many = b.store.since_many

    async def counted(after: Mapping[str, int]) -> dict[str, Loaded]:
        reads.append(dict(after))
        return await since_many(after)

    b.store.since_many = counted  # type: ignore[method-assign]
    return reads


async def _one_read_for_all(url: str) -> None:
    a, b = await _hubs(url)
    rng = random.Random(39)
    try:
        made = [await _table(a, b) for _ in range(4)]
        ids = [table_id for table_id, _ in made]
        for table_id in ids:
            for _ in range(3):
                await _play(a, table_id, rng)
        await _play_then_undo(a, ids[0], rng)
        reads = _count_reads(b)
        for table_id in ids:  # as the broker hands them over: in one turn of the loop
            await b._notice(table_id, a.rooms[table_id].room.seq)
        assert b._following is not None
        await b._following
        assert len(reads) == 1 and set(reads[0]) == set(ids)
        for table_id, client in made:
            _same(a, b, table_id)
            [message] = _sent(client)
            assert message["seq"] == a.rooms[table_id].room.seq
            # After an undo a client's log cannot be extended: it gets the whole state.
            assert message["kind"] == ("state" if table_id == ids[0] else "update")
        # The tables go on from there: moves after the undo are followed as any.
        for table_id in ids:
            await _play(a, table_id, rng)
            await b._notice(table_id, a.rooms[table_id].room.seq)
        await b._following
        for table_id, client in made:
            _same(a, b, table_id)
            assert [m["kind"] for m in _sent(client)] == ["update"]
    finally:
        for hub in (a, b):
            await hub.store.close()


def test_notices_of_one_turn_are_read_in_one_query_and_each_table_follows(database) -> None:
    asyncio.run(_one_read_for_all(database))


async def _busy_table_waits(url: str) -> None:
    a, b = await _hubs(url)
    rng = random.Random(40)
    try:
        made = [await _table(a, b) for _ in range(3)]
        for table_id, _ in made:
            await _play(a, table_id, rng)
        busy = b.rooms[made[0][0]]
        await busy.lock.acquire()  # as a change of B's own under way would hold it
        for table_id, _ in made:
            await b._notice(table_id, a.rooms[table_id].room.seq)
        assert b._following is not None
        await b._following
        for table_id, _ in made[1:]:
            _same(a, b, table_id)
        assert busy.room.seq < a.rooms[made[0][0]].room.seq
        busy.lock.release()
        for _ in range(100):
            if busy.room.seq == a.rooms[made[0][0]].room.seq:
                break
            await asyncio.sleep(0.01)
        _same(a, b, made[0][0])
        assert [m["kind"] for m in _sent(made[0][1])] == ["update"]
    finally:
        for hub in (a, b):
            await hub.store.close()


def test_a_table_busy_with_a_change_follows_when_it_is_done(database) -> None:
    asyncio.run(_busy_table_waits(database))
