"""The bus between server processes (issue 39): its few words of Redis's protocol, read the
same by the pure reader and by hiredis's; notices sent together all arrive, in order, to
the others only; a connection Redis drops is opened again."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from typing import Any

import pytest
import services

from langfinger_widget.server import resp
from langfinger_widget.server.broker import RedisBroker
from langfinger_widget.server.kernel import BadArgument

REPLIES = (b"*3\r\n$9\r\nsubscribe\r\n$17\r\nlangfinger:tables\r\n:1\r\n"
           b"*3\r\n$7\r\nmessage\r\n$17\r\nlangfinger:tables\r\n$22\r\n0123456789abcdef|t1 42\r\n"
           b"+OK\r\n-ERR wrong password\r\n$-1\r\n:7\r\n*0\r\n$0\r\n\r\n")


def _readers() -> list[Any]:
    readers: list[Any] = [resp.PureReader]
    try:
        import hiredis
    except ImportError:
        return readers
    return [*readers, lambda: hiredis.Reader(replyError=resp.ReplyError)]


def _read(reader: Any, chunks: list[bytes]) -> list[Any]:
    replies = []
    for chunk in chunks:
        reader.feed(chunk)
        while (reply := reader.gets()) is not False:
            replies.append(reply)
    return replies


@pytest.mark.parametrize("make", _readers())
def test_replies_are_read_whole_however_the_bytes_come(make: Any) -> None:
    whole = _read(make(), [REPLIES])
    byte_by_byte = _read(make(), [REPLIES[i:i + 1] for i in range(len(REPLIES))])
    assert repr(byte_by_byte) == repr(whole)  # (repr: an error equals only itself)
    assert whole[0] == [b"subscribe", b"langfinger:tables", 1]
    assert whole[1] == [b"message", b"langfinger:tables", b"0123456789abcdef|t1 42"]
    assert whole[2] == b"OK"
    assert isinstance(whole[3], resp.ReplyError) and str(whole[3]) == "ERR wrong password"
    assert whole[4:] == [None, 7, [], b""]


def test_a_command_is_an_array_of_bulk_strings() -> None:
    assert resp.command("PUBLISH", "c", "é") == \
        b"*3\r\n$7\r\nPUBLISH\r\n$1\r\nc\r\n$2\r\n\xc3\xa9\r\n"
    reader = resp.PureReader()
    reader.feed(resp.command("SUBSCRIBE", "langfinger:tables"))
    assert reader.gets() == [b"SUBSCRIBE", b"langfinger:tables"]


def test_redis_urls() -> None:
    plain = resp.Address.of("redis://cache:6380/0")
    assert (plain.host, plain.port, plain.tls, plain.hello()) == ("cache", 6380, False, b"")
    assert resp.Address.of("redis://:s%40cret@cache").hello() == resp.command("AUTH", "s@cret")
    assert resp.Address.of("rediss://lf:pw@cache").hello() == resp.command("AUTH", "lf", "pw")
    assert resp.Address.of("rediss://cache").tls
    assert resp.Address.of("unix:///run/redis.sock").path == "/run/redis.sock"
    with pytest.raises(BadArgument):
        resp.Address.of("http://cache")


@pytest.fixture(scope="module")
def bus() -> Iterator[str]:
    with services.needed(services.redis) as running:
        yield running.url


async def _heard_until(heard: list[tuple[str, int]], count: int) -> None:
    for _ in range(500):
        if len(heard) >= count:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"heard {heard}, not {count} notices")


async def _notices(url: str) -> None:
    a, b = RedisBroker(url), RedisBroker(url)
    heard_a: list[tuple[str, int]] = []
    heard_b: list[tuple[str, int]] = []

    async def on_a(table_id: str, seq: int) -> None:
        heard_a.append((table_id, seq))

    async def on_b(table_id: str, seq: int) -> None:
        heard_b.append((table_id, seq))

    await a.start(on_a)
    await b.start(on_b)
    try:
        for seq in range(1, 6):  # one turn of the loop: one write
            await a.publish(f"t{seq % 2}", seq)
        await _heard_until(heard_b, 5)
        assert heard_b == [(f"t{seq % 2}", seq) for seq in range(1, 6)]
        await b.publish("t9", 1)
        await _heard_until(heard_a, 1)
        assert heard_a == [("t9", 1)] and len(heard_b) == 5  # nobody hears their own
        import redis.asyncio as redis

        admin = redis.from_url(url)
        try:  # Redis drops every connection but this one: the brokers open theirs again
            await admin.client_kill_filter(_type="pubsub")
            await admin.client_kill_filter(_type="normal", skipme=True)
        finally:
            await admin.aclose()
        for seq in range(6, 200):
            await a.publish("t7", seq)
            await asyncio.sleep(0.02)
            if heard_b[-1][0] == "t7":
                break
        assert heard_b[-1][0] == "t7"
    finally:
        await a.close()
        await b.close()


def test_notices_reach_the_others_in_order_and_survive_a_dropped_connection(bus) -> None:
    asyncio.run(_notices(bus))


async def _refused(url: str) -> None:
    import redis.asyncio as redis

    admin = redis.from_url(url)
    try:
        await admin.config_set("requirepass", "s3cret")
    finally:
        await admin.aclose()
    with pytest.raises(resp.ReplyError):  # as the server starts: not a silent, dead bus
        await RedisBroker(url).start(_nothing)
    heard: list[tuple[str, int]] = []

    async def on(table_id: str, seq: int) -> None:
        heard.append((table_id, seq))

    host = url.removeprefix("redis://")
    a, b = RedisBroker(f"redis://:s3cret@{host}"), RedisBroker(f"redis://:s3cret@{host}")
    await a.start(on)
    await b.start(_nothing)
    try:
        await b.publish("t1", 3)
        await _heard_until(heard, 1)
        assert heard == [("t1", 3)]
    finally:
        await a.close()
        await b.close()


async def _nothing(table_id: str, seq: int) -> None:
    return None


def test_a_bus_that_wants_a_password_refuses_to_start_without_it() -> None:
    try:
        with services.redis() as running:  # its own: the password stays with it
            asyncio.run(_refused(running.url))
    except services.Missing as missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI must install the services: {missing}")
        pytest.skip(str(missing))
