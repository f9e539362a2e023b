"""The store: a write is all or nothing, and grouped commits (SQLite's writer thread, Postgres
through asyncpg) keep that per write."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from pathlib import Path

import pytest
import services  # tests/server/services.py: a real Postgres

from langfinger_widget.server.kernel import BadArgument
from langfinger_widget.server.store import (
    GROUP_FULL,
    Conflict,
    Ply,
    SeatRow,
    Store,
    TableRow,
    Write,
)


def _table(table_id: str) -> TableRow:
    return TableRow(table_id, 0, {"players": 2, "seed": 1}, {"players": 2}, "playing", 0, False,
                    None, "digest", 0.0, 0.0)


async def _grouped(url: str) -> None:
    store = await Store.open(url)
    try:
        ids = [f"t{i}" for i in range(8)]
        for table_id in ids:
            await store.create(_table(table_id), [SeatRow(0, "person", "a", "taken"),
                                                  SeatRow(1, "person", "b", "taken")])

        async def move(table_id: str, seq: int) -> str:
            try:
                await store.commit(table_id, seq, {"seq": seq + 1},
                                   [Ply(seq, "play", 0, {"action": {"type": "pass"}}, "person",
                                        seq + 1)],
                                   {1: {"status": "open", "token_hash": None}})
            except Conflict:
                return "conflict"
            return "ok"

        # Many writes at once (one group on SQLite), one of them quoting a stale sequence.
        outcomes = await asyncio.gather(*(move(t, 0) for t in ids), move("t3", 0))
        assert outcomes.count("ok") == 8 and outcomes.count("conflict") == 1
        for table_id in ids:
            loaded = await store.load(table_id)
            assert loaded is not None and loaded.table.seq == 1 and len(loaded.plies) == 1
            assert loaded.seats[1].status == "open" and loaded.seats[1].token_hash is None
        # The refused write left nothing behind, and the table goes on from its real sequence.
        assert await move("t3", 1) == "ok"
        loaded = await store.load("t3", after_ply=0)
        assert loaded is not None and [p.ply for p in loaded.plies] == [1]
    finally:
        await store.close()


def test_grouped_sqlite_writes_stay_all_or_nothing(tmp_path: Path) -> None:
    asyncio.run(_grouped(f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}"))


def test_grouped_postgres_writes_stay_all_or_nothing() -> None:
    # The same on Postgres, whose moves are grouped too (one transaction through asyncpg).
    with services.needed(services.postgres) as pg:
        asyncio.run(_grouped(pg.url))


def test_urls_get_their_async_driver() -> None:
    from langfinger_widget.server.store import database_url

    assert database_url("postgresql://u@h/db") == "postgresql+asyncpg://u@h/db"
    assert database_url("sqlite:////tmp/x.db") == "sqlite+aiosqlite:////tmp/x.db"
    with pytest.raises(Exception):  # noqa: B017 (SQLAlchemy's own error for a bad URL)
        database_url("not a url")


# --- the commit window (issue 39): writes arriving together share one transaction -----------
def _move(store: Store, table_id: str, seq: int) -> asyncio.Task[str]:
    async def move() -> str:
        try:
            await store.commit(table_id, seq, {"seq": seq + 1},
                               [Ply(seq, "play", 0, {"action": {"type": "pass"}}, "person",
                                    seq + 1)])
        except Conflict:
            return "conflict"
        return "ok"
    return asyncio.get_running_loop().create_task(move())


def _sqlite(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}"


async def _windowed(url: str, window: float) -> tuple[Store, list[int], list[str]]:
    """A store with ``window`` whose writer's groups are recorded (their sizes, in order), and
    the ids of tables made in it one after the other."""
    store = await Store.open(url, commit_window=window)
    ids = [f"t{i}" for i in range(GROUP_FULL + 2)]
    for table_id in ids:
        await store.create(_table(table_id), [SeatRow(0, "person", "a", "taken")])
    sizes: list[int] = []
    writer = store._writer
    assert writer is not None
    submit = writer.submit

    def counted(group: list[Write]) -> Awaitable[list[Exception | None]]:
        sizes.append(len(group))
        return submit(group)
    writer.submit = counted  # type: ignore[method-assign,assignment]
    return store, sizes, ids


async def _turns(n: int) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


async def _gathers(url: str) -> None:
    store, sizes, ids = await _windowed(url, 1.0)
    # An hour (more than a setting may ask): the wait ends when the group is full
    # (GROUP_FULL), never by the clock, however slow the machine.
    store.commit_window = 3600.0
    try:
        assert store.waited == 0  # the tables were made one after the other: no wait
        # Two moves in one turn: one group, and the store now counts as busy ...
        assert await asyncio.gather(_move(store, ids[0], 0), _move(store, ids[1], 0)) \
            == ["ok", "ok"]
        assert sizes == [2]
        # ... so moves arriving one a turn afterwards wait for each other: one group,
        # one of them quoting a stale sequence (refused alone, the others written).
        moves = [_move(store, ids[0], 0)]
        for table_id in ids[2:GROUP_FULL + 1]:
            await _turns(3)  # each alone in its turn: without a window, a group each
            moves.append(_move(store, table_id, 0))
        outcomes = await asyncio.gather(*moves)
        assert sizes == [2, GROUP_FULL] and store.waited == 1
        assert outcomes == ["conflict"] + ["ok"] * (GROUP_FULL - 1)
        for table_id in ids[:GROUP_FULL + 1]:
            loaded = await store.load(table_id)
            assert loaded is not None and loaded.table.seq == 1 and len(loaded.plies) == 1
        loaded = await store.load(ids[GROUP_FULL + 1])
        assert loaded is not None and loaded.table.seq == 0 and not loaded.plies
    finally:
        await store.close()


def test_a_window_gathers_writes_arriving_together_into_one_transaction(tmp_path: Path) -> None:
    asyncio.run(_gathers(_sqlite(tmp_path)))


def test_a_window_gathers_postgres_writes_too() -> None:
    with services.needed(services.postgres) as pg:
        asyncio.run(_gathers(pg.url))


def test_a_write_arriving_alone_never_waits_for_the_window(tmp_path: Path) -> None:
    async def main() -> None:
        store, sizes, ids = await _windowed(_sqlite(tmp_path), 1.0)
        try:
            # One client moving after the other's answer: every commit a group of one, handed
            # to the writer without waiting (a wait would be counted, and last a second).
            for seq in range(5):
                assert await _move(store, ids[seq % 2], seq // 2) == "ok"
            assert sizes == [1] * 5 and store.waited == 0
        finally:
            await store.close()

    asyncio.run(main())


def test_window_zero_commits_as_before(tmp_path: Path) -> None:
    async def main() -> None:
        store, sizes, ids = await _windowed(_sqlite(tmp_path), 0.0)
        try:
            assert await asyncio.gather(_move(store, ids[0], 0), _move(store, ids[1], 0)) \
                == ["ok", "ok"]
            first = _move(store, ids[2], 0)
            await _turns(3)  # its group is handed over: the next is not waited for
            assert sizes == [2, 1]
            assert await asyncio.gather(first, _move(store, ids[3], 0)) == ["ok", "ok"]
            assert sizes == [2, 1, 1] and store.waited == 0
        finally:
            await store.close()

    asyncio.run(main())


def test_a_commit_window_out_of_range_is_refused(tmp_path: Path) -> None:
    from langfinger_widget.server.cli import parser

    with pytest.raises(BadArgument, match="commit window must be 0 to 1 seconds"):
        asyncio.run(Store.open(_sqlite(tmp_path), commit_window=-0.001))
    with pytest.raises(SystemExit):
        parser().parse_args(["serve", "--commit-window", "nan"])
