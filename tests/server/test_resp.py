"""server/resp.py's request/response client (owners.py's leases and inboxes, issue 39),
against a real redis-server: replies matched to their calls in order, the calls of one
loop turn in one write, scripts by sha1 with EVAL when Redis forgot them, an error reply
raised without harm to the next call, a connection Redis drops opened again, BLPOP's
timeout; each with the pure reader and, where installed, hiredis's."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
import services

from langfinger_widget.server import resp


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    with services.needed(services.redis) as running:
        yield running.url


def _readers() -> list[str]:
    try:
        import hiredis  # noqa: F401
    except ImportError:
        return ["pure"]
    return ["pure", "hiredis"]


@pytest.fixture(params=_readers())
def reader(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "pure":
        monkeypatch.setattr(resp, "_reader", resp.PureReader)
    return str(request.param)


def _with_client(url: str, work: Callable[[resp.Client], Awaitable[Any]]) -> Any:
    async def main() -> Any:
        client = resp.Client(resp.Address.of(url))
        try:
            return await work(client)
        finally:
            client.close()

    return asyncio.run(main())


async def _admin(url: str, *parts: Any) -> Any:
    import redis.asyncio as redis

    admin = redis.from_url(url)
    try:
        return await admin.execute_command(*parts)
    finally:
        await admin.aclose()


def test_replies_come_to_their_calls_in_order_and_a_turn_goes_in_one_write(
        redis_url: str, reader: str, monkeypatch: pytest.MonkeyPatch) -> None:
    writes: list[bytes] = []
    send = resp.Connection.send

    def counted(self: resp.Connection, data: bytes) -> None:
        writes.append(data)
        send(self, data)

    monkeypatch.setattr(resp.Connection, "send", counted)

    async def work(client: resp.Client) -> None:
        await client.call("PING")  # opened
        writes.clear()
        values = [b"v%d" % i * (i % 7) for i in range(400)]
        sets = await asyncio.gather(*(client.call("SET", f"{reader}:k{i}", v)
                                      for i, v in enumerate(values)))
        assert sets == [b"OK"] * 400
        assert len(writes) == 1  # one loop turn: one write
        got = await asyncio.gather(*(client.call("GET", f"{reader}:k{i}") for i in range(400)))
        assert got == values
        assert await client.calls(("RPUSH", f"{reader}:l", "a", "b"),
                                  ("PEXPIRE", f"{reader}:l", 60_000),
                                  ("LRANGE", f"{reader}:l", 0, -1)) == [2, 1, [b"a", b"b"]]
        assert await client.call("GET", f"{reader}:none") is None

    _with_client(redis_url, work)


SCRIPT = resp.Script("return {KEYS[1], ARGV[1], redis.call('INCR', KEYS[1])}")


def test_a_script_runs_by_its_sha_and_is_sent_again_after_script_flush(
        redis_url: str, reader: str) -> None:
    import hashlib

    assert SCRIPT.sha == hashlib.sha1(SCRIPT.text.encode()).hexdigest()

    async def work(client: resp.Client) -> None:
        key = f"{reader}:script"
        assert await client.run(SCRIPT, [key], ["x"]) == [key.encode(), b"x", 1]
        assert await client.call("SCRIPT", "EXISTS", SCRIPT.sha) == [1]  # EVAL cached it
        assert await client.run(SCRIPT, [key], [7]) == [key.encode(), b"7", 2]
        await client.call("SCRIPT", "FLUSH")
        assert await client.call("SCRIPT", "EXISTS", SCRIPT.sha) == [0]
        assert await client.run(SCRIPT, [key], ["y"]) == [key.encode(), b"y", 3]
        with pytest.raises(resp.ReplyError):  # a script's own error is no NOSCRIPT
            await client.run(resp.Script("return redis.call('NOSUCHCOMMAND')"), [], [])

    _with_client(redis_url, work)


def test_an_error_reply_is_raised_and_the_next_call_is_answered(
        redis_url: str, reader: str) -> None:
    async def work(client: resp.Client) -> None:
        key = f"{reader}:text"
        await client.call("SET", key, "not a number")
        calls = [client.call("INCR", key), client.call("GET", key), client.call("NOSUCH")]
        incr, got, nosuch = await asyncio.gather(*calls, return_exceptions=True)
        assert isinstance(incr, resp.ReplyError) and "not an integer" in str(incr)
        assert got == b"not a number"
        assert isinstance(nosuch, resp.ReplyError)
        with pytest.raises(resp.ReplyError):
            await client.calls(("SET", key, "1"), ("INCR", key, "x", "y"))
        assert await client.call("INCR", key) == 2  # (the SET before the error was done)

    _with_client(redis_url, work)


def test_a_connection_redis_drops_fails_its_calls_and_is_opened_again(
        redis_url: str, reader: str) -> None:
    async def work(client: resp.Client) -> None:
        name = f"lf-test-{reader}"
        await client.call("CLIENT", "SETNAME", name)
        blocked = asyncio.ensure_future(client.call("BLPOP", f"{reader}:never", 10))
        await asyncio.sleep(0.1)
        await _admin(redis_url, "CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes")
        with pytest.raises(resp.ConnectionLost):
            await asyncio.wait_for(blocked, 5)
        assert await client.call("CLIENT", "GETNAME") is None  # a new connection
        assert await client.call("PING") == b"PONG"

    _with_client(redis_url, work)


def test_blpop_times_out_with_none_and_pops_what_is_pushed(redis_url: str, reader: str) -> None:
    async def work(client: resp.Client) -> None:
        inbox = f"{reader}:inbox"
        assert await client.call("BLPOP", inbox, 1) is None
        other = resp.Client(client.address)  # the pop holds its connection: push on another
        try:
            popped = asyncio.ensure_future(client.call("BLPOP", inbox, 5))
            await asyncio.sleep(0.05)
            assert await other.call("RPUSH", inbox, "ask") == 1
            assert await popped == [inbox.encode(), b"ask"]
        finally:
            other.close()

    _with_client(redis_url, work)


def test_a_password_and_a_database_from_the_url(reader: str) -> None:
    try:
        running_redis = services.redis()
        running = running_redis.__enter__()
    except services.Missing as missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI must install the services: {missing}")
        pytest.skip(str(missing))
    try:
        asyncio.run(_admin(running.url, "CONFIG", "SET", "requirepass", "s3cret"))
        host = running.url.removeprefix("redis://").removesuffix("/0")

        async def refused(client: resp.Client) -> None:
            with pytest.raises(resp.ReplyError):
                await client.call("PING")

        _with_client(f"redis://:wrong@{host}/0", refused)

        async def work(client: resp.Client) -> None:
            assert await client.call("SET", "where", "db 3") == b"OK"

        _with_client(f"redis://:s3cret@{host}/3", work)
        seen = asyncio.run(_admin(f"redis://:s3cret@{host}/3", "GET", "where"))
        assert seen == b"db 3"
        assert asyncio.run(_admin(f"redis://:s3cret@{host}/0", "GET", "where")) is None
    finally:
        running_redis.__exit__(None, None, None)


@pytest.mark.parametrize(("url", "option"), [
    ("redis://h:6379/0?socket_timeout=5", "socket_timeout"),
    ("rediss://u:s3cret@h/0?ssl_cert_reqs=none", "ssl_cert_reqs"),
    ("unix:///tmp/r.sock?db=2&health_check_interval=3", "health_check_interval"),
])
def test_an_option_the_client_does_not_read_is_refused_by_name(url: str, option: str) -> None:
    """redis-py reads options from a URL's query; dropping one silently (TLS not checked as
    asked, a timeout not kept) would surprise: the option is named, the password never."""
    with pytest.raises(ValueError, match="options this server does not read") as refused:
        resp.Address.of(url)
    assert option in str(refused.value) and "s3cret" not in str(refused.value)


def test_what_a_url_names_is_read() -> None:
    tls = resp.Address.of("rediss://me:p%40ss@cache.example:6380/4")
    assert (tls.host, tls.port, tls.tls, tls.username, tls.password, tls.db) == (
        "cache.example", 6380, True, "me", "p@ss", 4)
    assert resp.Address.of("unix:///run/redis.sock?db=2").db == 2
