"""The store: a write is all or nothing, and grouped commits (SQLite's writer thread, Postgres
through asyncpg) keep that per write."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
import services  # tests/server/services.py: a real Postgres

from langfinger_widget.server.store import Conflict, Ply, SeatRow, Store, TableRow


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
    try:
        with services.postgres() as pg:
            asyncio.run(_grouped(pg.url))
    except services.Missing as missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI must install the services: {missing}")
        pytest.skip(str(missing))


def test_urls_get_their_async_driver() -> None:
    from langfinger_widget.server.store import database_url

    assert database_url("postgresql://u@h/db") == "postgresql+asyncpg://u@h/db"
    assert database_url("sqlite:////tmp/x.db") == "sqlite+aiosqlite:////tmp/x.db"
    with pytest.raises(Exception):  # noqa: B017 (SQLAlchemy's own error for a bad URL)
        database_url("not a url")
