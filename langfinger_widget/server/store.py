"""Where tables live: SQLite (one machine) or Postgres (many), through SQLAlchemy.

Three tables. ``lf_tables`` holds a table's settings, its sequence number
``seq`` (bumped by every change anyone can see) and what the lobby lists
(status, whose turn, the deadline). ``lf_seats`` holds each seat: a person
or a bot, the digests of its invite and token (never the secrets), its
webhook. ``lf_journal`` holds every decision and take-back in order: the game
is the deal (``setup``, which holds the seed and never leaves the server)
replayed through the kernel, row by row.

One writer per table: :meth:`Store.commit` changes a table only if its
``seq`` is still the one the writer read (compare and set, in the same
transaction as the journal rows), so two processes can never both append the
next move; the loser reloads and tries again.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

metadata = MetaData()

tables = Table(
    "lf_tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("seq", Integer, nullable=False),
    Column("setup", Text, nullable=False),  # JSON: how the game was dealt (secret: the seed)
    Column("options", Text, nullable=False),  # JSON: the table's public settings
    Column("status", String(16), nullable=False),  # waiting | playing | over
    Column("to_move", Integer),
    Column("bot_turn", Boolean, nullable=False, index=True),  # a process must drive a bot
    Column("deadline", Float),  # when the seat to move runs out of time (R13.3)
    Column("spectator_hash", String(64), nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
)

seats = Table(
    "lf_seats", metadata,
    Column("table_id", String(32), ForeignKey("lf_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # person | bot
    Column("level", String(16)),  # the bot's level (bots only)
    Column("name", String(40), nullable=False),
    Column("status", String(12), nullable=False),  # open | taken | resigned | bot
    Column("stand_in", Boolean, nullable=False),  # a bot plays this person's seat (R13.3)
    Column("invite_hash", String(64)),
    Column("token_hash", String(64), unique=True),
    Column("webhook", Text),
)

journal = Table(
    "lf_journal", metadata,
    Column("table_id", String(32), ForeignKey("lf_tables.id"), primary_key=True),
    Column("ply", Integer, primary_key=True),  # 0, 1, 2, ...: the order to replay in
    Column("kind", String(8), nullable=False),  # play | undo
    Column("seat", Integer, nullable=False),
    Column("data", Text, nullable=False),  # play: the action; undo: {"to": move number}
    Column("by", String(10), nullable=False),  # person | bot | stand_in
    Column("seq", Integer, nullable=False),
    Column("at", Float, nullable=False),
)


@dataclass
class TableRow:
    id: str
    seq: int
    setup: dict[str, Any]
    options: dict[str, Any]
    status: str
    to_move: int | None
    bot_turn: bool
    deadline: float | None
    spectator_hash: str
    created: float
    updated: float


@dataclass
class SeatRow:
    seat: int
    kind: str
    name: str
    status: str
    level: str | None = None
    stand_in: bool = False
    invite_hash: str | None = None
    token_hash: str | None = None
    webhook: str | None = None


@dataclass
class Ply:
    ply: int
    kind: str
    seat: int
    data: dict[str, Any]
    by: str
    seq: int
    at: float = field(default_factory=time.time)


@dataclass
class Loaded:
    table: TableRow
    seats: list[SeatRow]
    plies: list[Ply]


class Conflict(Exception):
    """Another writer changed the table first (its ``seq`` moved on)."""


Work = Callable[[AsyncConnection], Awaitable[None]]


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def database_url(url: str) -> str:
    """A user's URL with the async driver SQLAlchemy needs (``postgresql://`` -> asyncpg)."""
    parsed = make_url(url)
    driver = {"postgresql": "postgresql+asyncpg", "postgres": "postgresql+asyncpg",
              "sqlite": "sqlite+aiosqlite"}.get(parsed.drivername, parsed.drivername)
    return parsed.set(drivername=driver).render_as_string(hide_password=False)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL: readers never wait for the writer. synchronous=FULL: a commit is on disk before the
    # move is shown to anyone, so neither a kill -9 nor a power cut loses an accepted move.
    dbapi_connection.isolation_level = None  # SQLAlchemy says BEGIN (see Store.open)
    cursor = dbapi_connection.cursor()
    for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON",
                   "busy_timeout=10000"):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


def _table_row(r: Any) -> TableRow:
    return TableRow(id=r.id, seq=r.seq, setup=json.loads(r.setup), options=json.loads(r.options),
                    status=r.status, to_move=r.to_move, bot_turn=bool(r.bot_turn),
                    deadline=r.deadline, spectator_hash=r.spectator_hash, created=r.created,
                    updated=r.updated)


def _seat_row(r: Any) -> SeatRow:
    return SeatRow(seat=r.seat, kind=r.kind, name=r.name, status=r.status, level=r.level,
                   stand_in=bool(r.stand_in), invite_hash=r.invite_hash,
                   token_hash=r.token_hash, webhook=r.webhook)


def _ply_row(r: Any) -> Ply:
    return Ply(ply=r.ply, kind=r.kind, seat=r.seat, data=json.loads(r.data), by=r.by, seq=r.seq,
               at=r.at)


class Store:
    """The tables on disk (or in Postgres): every call is one transaction."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        # SQLite has one writer and one fsync a transaction: its writes are grouped (below).
        # Postgres takes concurrent writers from many processes, one transaction each.
        self._group = engine.dialect.name == "sqlite"
        self._pending: list[tuple[Work, asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None

    async def _write(self, work: Work) -> None:
        """Run ``work`` in a transaction of its own, or (SQLite) in a savepoint of a group.

        Writes that arrive while a group is being committed form the next group, committed
        together: one fsync for many moves, and each write still all or nothing (its
        savepoint is rolled back if it fails, e.g. :class:`Conflict`). It returns once its
        group is on disk.
        """
        if not self._group:
            async with self.engine.begin() as conn:
                await work(conn)
            return
        done = asyncio.get_running_loop().create_future()
        self._pending.append((work, done))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.get_running_loop().create_task(self._flush())
        await done

    async def _flush(self) -> None:
        while self._pending:
            group, self._pending = self._pending, []
            outcomes: list[Exception | None] = []
            try:
                async with self.engine.begin() as conn:
                    for work, _ in group:
                        try:
                            async with conn.begin_nested():
                                await work(conn)
                        except Exception as exc:
                            outcomes.append(exc)
                        else:
                            outcomes.append(None)
            except Exception as exc:  # the group's commit failed: none of it is kept
                outcomes = [exc] * len(group)
            for (_, done), outcome in zip(group, outcomes, strict=True):
                if done.done():
                    continue
                if outcome is None:
                    done.set_result(None)
                else:
                    done.set_exception(outcome)

    @classmethod
    async def open(cls, url: str) -> Store:
        """Connect to ``url`` (``sqlite+aiosqlite:///...`` or ``postgresql://...``) and make
        the tables if they are missing."""
        url = database_url(url)
        is_sqlite = url.startswith("sqlite")
        engine = create_async_engine(url, pool_pre_ping=not is_sqlite)
        if is_sqlite:
            event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
            # SQLAlchemy's recipe for savepoints on SQLite: the driver's own implicit BEGIN is
            # turned off and SQLAlchemy says BEGIN itself.
            event.listen(engine.sync_engine, "begin",
                         lambda conn: conn.exec_driver_sql("BEGIN"))
        async with engine.begin() as conn:
            if not is_sqlite:  # processes starting together make the tables once, in turn
                await conn.execute(text("SELECT pg_advisory_xact_lock(31)"))
            await conn.run_sync(metadata.create_all)
        return cls(engine)

    async def close(self) -> None:
        if self._flusher is not None:
            await asyncio.gather(self._flusher, return_exceptions=True)
        await self.engine.dispose()

    @property
    def kind(self) -> str:
        return self.engine.dialect.name

    # --- writing ------------------------------------------------------------------------------
    async def create(self, table: TableRow, seat_rows: Sequence[SeatRow]) -> None:
        async def work(conn: AsyncConnection) -> None:
            await conn.execute(insert(tables).values(
                id=table.id, seq=table.seq, setup=_dumps(table.setup),
                options=_dumps(table.options), status=table.status, to_move=table.to_move,
                bot_turn=table.bot_turn, deadline=table.deadline,
                spectator_hash=table.spectator_hash, created=table.created,
                updated=table.updated))
            await conn.execute(insert(seats), [
                {"table_id": table.id, "seat": s.seat, "kind": s.kind, "level": s.level,
                 "name": s.name, "status": s.status, "stand_in": s.stand_in,
                 "invite_hash": s.invite_hash, "token_hash": s.token_hash,
                 "webhook": s.webhook} for s in seat_rows])

        await self._write(work)

    async def commit(self, table_id: str, seq: int, fields: Mapping[str, Any],
                     plies: Iterable[Ply] = (),
                     seat_changes: Mapping[int, Mapping[str, Any]] | None = None) -> None:
        """Move table ``table_id`` from ``seq`` to ``fields["seq"]`` with these journal rows
        and seat changes, all or nothing; :class:`Conflict` if its ``seq`` is no longer ``seq``.
        """
        async def work(conn: AsyncConnection) -> None:
            changed = await conn.execute(
                update(tables).where(tables.c.id == table_id, tables.c.seq == seq)
                .values(**fields, updated=time.time()))
            if changed.rowcount != 1:
                raise Conflict(f"table {table_id} is no longer at sequence {seq}")
            rows = [{"table_id": table_id, "ply": p.ply, "kind": p.kind, "seat": p.seat,
                     "data": _dumps(p.data), "by": p.by, "seq": p.seq, "at": p.at}
                    for p in plies]
            if rows:
                await conn.execute(insert(journal), rows)
            for seat, values in (seat_changes or {}).items():
                await conn.execute(update(seats).where(seats.c.table_id == table_id,
                                                       seats.c.seat == seat).values(**values))

        await self._write(work)

    async def set_webhook(self, table_id: str, seat: int, url: str | None) -> None:
        """A seat's webhook is its own business: no sequence number moves for it."""
        async def work(conn: AsyncConnection) -> None:
            await conn.execute(update(seats).where(seats.c.table_id == table_id,
                                                   seats.c.seat == seat).values(webhook=url))

        await self._write(work)

    # --- reading ------------------------------------------------------------------------------
    async def load(self, table_id: str, after_ply: int = -1) -> Loaded | None:
        """A table with its seats and the journal rows after ``after_ply`` (all by default)."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(tables).where(tables.c.id == table_id))).first()
            if row is None:
                return None
            return Loaded(_table_row(row), await self._seats(conn, table_id),
                          await self._plies(conn, table_id, after_ply))

    async def _seats(self, conn: AsyncConnection, table_id: str) -> list[SeatRow]:
        result = await conn.execute(select(seats).where(seats.c.table_id == table_id)
                                    .order_by(seats.c.seat))
        return [_seat_row(r) for r in result]

    async def _plies(self, conn: AsyncConnection, table_id: str, after: int) -> list[Ply]:
        result = await conn.execute(select(journal).where(journal.c.table_id == table_id,
                                                          journal.c.ply > after)
                                    .order_by(journal.c.ply))
        return [_ply_row(r) for r in result]

    async def seat_of_token(self, token_hash: str) -> tuple[str, int] | None:
        """The (table, seat) a token digest opens, or None (forged, revoked, unknown)."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(seats.c.table_id, seats.c.seat)
                                      .where(seats.c.token_hash == token_hash))).first()
        return None if row is None else (row.table_id, row.seat)

    async def seats_of_tokens(self, token_hashes: Sequence[str]) -> list[tuple[str, int]]:
        if not token_hashes:
            return []
        async with self.engine.connect() as conn:
            result = await conn.execute(select(seats.c.table_id, seats.c.seat)
                                        .where(seats.c.token_hash.in_(list(token_hashes))))
            return [(r.table_id, r.seat) for r in result]

    async def tables_with_bot_turns(self) -> list[str]:
        """Tables where a bot (or a stand-in) is to move: a process must drive them."""
        async with self.engine.connect() as conn:
            result = await conn.execute(select(tables.c.id).where(
                tables.c.bot_turn.is_(True), tables.c.status == "playing"))
            return [r.id for r in result]

    async def table_ids(self) -> list[str]:
        async with self.engine.connect() as conn:
            return [r.id for r in await conn.execute(select(tables.c.id))]
