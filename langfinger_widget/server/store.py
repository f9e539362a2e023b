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
import contextlib
import json
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
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
    and_,
    delete,
    event,
    exists,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from .kernel import BadArgument

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


@dataclass
class Write:
    """One change of one table: a compare and set on its ``seq`` (unless ``seq`` is None),
    then rows inserted, seats updated and rows deleted. Nothing of it is written if the
    compare and set fails. Plain data, so that each database runs it its own way (see
    _SqliteWriter)."""

    table_id: str
    seq: int | None
    fields: dict[str, Any]
    inserts: list[tuple[Table, list[dict[str, Any]]]] = field(default_factory=list)
    seat_updates: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    # Rows deleted, in this order: (table, column, the values it may have).
    deletes: list[tuple[Table, str, list[Any]]] = field(default_factory=list)

    def conflict(self) -> Conflict:
        return Conflict(f"table {self.table_id} is no longer at sequence {self.seq}")


async def _run_async(conn: AsyncConnection, write: Write) -> None:
    if write.seq is not None:
        cas = (update(tables).where(tables.c.id == write.table_id, tables.c.seq == write.seq)
               .values(**write.fields, updated=time.time()))
        if (await conn.execute(cas)).rowcount != 1:
            raise write.conflict()
    for table, rows in write.inserts:
        await conn.execute(insert(table), rows)
    for seat, values in write.seat_updates:
        await conn.execute(update(seats).where(seats.c.table_id == write.table_id,
                                               seats.c.seat == seat).values(**values))
    for table, column, keys in write.deletes:
        await conn.execute(delete(table).where(table.c[column].in_(keys)))


class _Statements:
    """The SQL of a write's statements, made once for each set of columns and reused: building
    and compiling them through SQLAlchemy cost more a move than the kernel's whole decision.
    ``param(n)`` spells the n-th parameter (from 1): ``?`` for sqlite3, ``$n`` for asyncpg.
    The column names come from this module's tables, never from a request (and are quoted:
    ``by`` and ``at`` are SQL words)."""

    def __init__(self, param: Callable[[int], str]) -> None:
        self._param = param
        self._made: dict[tuple[str, str, tuple[str, ...]], str] = {}

    def get(self, kind: str, table: Table, columns: tuple[str, ...]) -> str:
        key = (kind, table.name, columns)
        sql = self._made.get(key)
        if sql is None:
            for name in columns:
                if name not in table.c:
                    raise BadArgument(f"{table.name} has no column {name!r}")
            p = self._param
            names = [f'"{c}"' for c in columns]
            sets = ", ".join(f"{c} = {p(i)}" for i, c in enumerate(names, 1))
            n = len(columns)
            if kind == "insert":
                sql = (f"INSERT INTO {table.name} ({', '.join(names)}) "
                       f"VALUES ({', '.join(p(i) for i in range(1, n + 1))})")
            elif kind == "delete":
                sql = f"DELETE FROM {table.name} WHERE {names[0]} = {p(1)}"
            elif kind == "cas":
                sql = f"UPDATE {table.name} SET {sets} WHERE id = {p(n + 1)} AND seq = {p(n + 2)}"
            else:
                sql = (f"UPDATE {table.name} SET {sets} "
                       f"WHERE table_id = {p(n + 1)} AND seat = {p(n + 2)}")
            self._made[key] = sql
        return sql

    def plan(self, write: Write) -> tuple[tuple[str, tuple[Any, ...]] | None,
                                          list[tuple[str, list[tuple[Any, ...]]]]]:
        """``write`` as statements: its compare and set (None without one; it must change
        exactly one row, or nothing of the write may be run), then each statement with the
        rows of parameters to run it with, in order."""
        cas = None
        if write.seq is not None:
            values = {**write.fields, "updated": time.time()}
            cas = (self.get("cas", tables, tuple(values)),
                   (*values.values(), write.table_id, write.seq))
        rest: list[tuple[str, list[tuple[Any, ...]]]] = []
        for table, rows in write.inserts:
            if rows:
                columns = tuple(rows[0])
                rest.append((self.get("insert", table, columns),
                             [tuple(r[c] for c in columns) for r in rows]))
        for seat, values in write.seat_updates:
            rest.append((self.get("seat", seats, tuple(values)),
                         [(*values.values(), write.table_id, seat)]))
        for table, column, keys in write.deletes:
            if keys:  # one statement a key: SQLite caps a statement's parameters
                rest.append((self.get("delete", table, (column,)), [(k,) for k in keys]))
        return cas, rest


class _SqliteWriter:
    """(The writer thread.) SQLite's writes through the standard library's ``sqlite3``, each
    group of writes one transaction: one fsync however many moves it holds.

    SQLAlchemy's statement building and compiling cost more per move than the kernel's
    whole decision; here each statement's SQL is made once per set of columns and reused.
    The column names come from this module's tables, never from a request.
    """

    def __init__(self, path: str) -> None:
        # isolation_level=None: the transactions are this class's own (BEGIN IMMEDIATE).
        self.conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        _sqlite_pragmas(self.conn, None)
        self._sql = _Statements(lambda _: "?")
        # A thread of its own fed by a queue, not an executor: a group is handed over with
        # one put and answered with one call_soon_threadsafe (an executor's locks, futures
        # and chained callbacks cost as much again as the commit's own Python).
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name="langfinger-sqlite",
                                        daemon=True)
        self._thread.start()

    def submit(self, group: list[Write]) -> asyncio.Future[list[Exception | None]]:
        """Commit ``group`` in the writer thread; its outcomes, one a write, on this loop."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[list[Exception | None]] = loop.create_future()
        self._jobs.put((group, future, loop))
        return future

    def _serve(self) -> None:
        """(The writer thread.)"""
        while (job := self._jobs.get()) is not None:
            group, future, loop = job
            try:
                outcomes = self.commit_group(group)
            except Exception as exc:  # the thread must live on: every move waits on it
                outcomes = [exc] * len(group)
            with contextlib.suppress(RuntimeError):  # the loop was closed meanwhile
                loop.call_soon_threadsafe(_settle, future, outcomes)
        self.conn.close()

    def _run(self, cursor: sqlite3.Cursor, write: Write) -> None:
        cas, rest = self._sql.plan(write)
        if cas is not None:
            cursor.execute(*cas)
            if cursor.rowcount != 1:
                raise write.conflict()
        for sql, rows in rest:
            cursor.executemany(sql, rows)

    def commit_group(self, group: list[Write]) -> list[Exception | None]:
        """One transaction for the group. A write whose compare and set fails is skipped (it
        wrote nothing); any other failure rolls the whole group back, and every write in it
        fails."""
        outcomes: list[Exception | None] = []
        cursor = self.conn.cursor()
        try:
            cursor.execute("BEGIN IMMEDIATE")
            for write in group:
                try:
                    self._run(cursor, write)
                except Conflict as conflict:
                    outcomes.append(conflict)
                else:
                    outcomes.append(None)
            cursor.execute("COMMIT")
        except Exception as exc:
            if self.conn.in_transaction:
                self.conn.rollback()
            return [exc] * len(group)
        finally:
            cursor.close()
        return outcomes

    def close(self) -> None:
        """Commit what was handed over, then stop the thread and close the connection."""
        self._jobs.put(None)
        self._thread.join()


class _PostgresWriter:
    """Postgres's writes through asyncpg's own pool (the one ``Store.since`` reads with), each
    group of writes one transaction, as SQLite's writer does: one commit (one WAL flush) and
    one connection's round trips for all the moves that arrived meanwhile. Through SQLAlchemy
    each move was a transaction of its own: its statements built and compiled, a ping, BEGIN
    and COMMIT, 2.2-3.0 ms of CPU a move in all.

    A group's writes run in the order of their tables' ids, so the row locks that two
    processes' groups take come in one order and never wait on each other in a cycle. A write
    whose compare and set fails wrote nothing and is refused alone; any other failure rolls
    the whole group back, and every write in it fails.
    """

    def __init__(self, pool: Any) -> None:
        self.pool = pool
        self._sql = _Statements(lambda n: f"${n}")

    async def _run(self, conn: Any, write: Write) -> None:
        cas, rest = self._sql.plan(write)
        if cas is not None and await conn.execute(cas[0], *cas[1]) != "UPDATE 1":
            raise write.conflict()
        for sql, rows in rest:
            await conn.executemany(sql, rows)

    async def submit(self, group: list[Write]) -> list[Exception | None]:
        """Commit ``group`` in one transaction; its outcomes, one a write."""
        outcomes: list[Exception | None] = [None] * len(group)
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                for i in sorted(range(len(group)), key=lambda i: group[i].table_id):
                    try:
                        await self._run(conn, group[i])
                    except Conflict as conflict:
                        outcomes[i] = conflict
        except Exception as exc:
            return [exc] * len(group)
        return outcomes

    def close(self) -> None:
        """Nothing of its own: the pool is closed with the store's."""


_Job = tuple[list[Write], "asyncio.Future[list[Exception | None]]", asyncio.AbstractEventLoop]


# A group gathered in a commit window is committed at once when it holds this many writes:
# the wait is for company, and this much is company enough (one transaction stays short).
GROUP_FULL = 64
# How long writes count as arriving together after they were last seen doing so: under a
# steady load they are seen every few groups, so every group waits; a quiet server (or one
# client moving after another's answer, who never overlap) forgets it within this.
BUSY_MEMORY = 0.1


def _window(seconds: float) -> float:
    if not 0.0 <= seconds <= 1.0:
        raise BadArgument(f"the commit window must be 0 to 1 seconds, not {seconds!r}")
    return seconds


def _release(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _settle(future: asyncio.Future[list[Exception | None]],
            outcomes: list[Exception | None]) -> None:
    if not future.done():
        future.set_result(outcomes)


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
    cursor = dbapi_connection.cursor()
    for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON",
                   "busy_timeout=10000"):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


# Store.since_many on Postgres: each table's row with its seats and its new journal rows as
# JSON text (decoded here once, not row by row through the driver and SQLAlchemy), for every
# table asked for in one statement: the notices that arrive together are read together.
_SINCE = """
SELECT t.id, t.seq, t.status, t.to_move, t.bot_turn, t.deadline, t.spectator_hash, t.created,
       t.updated,
       (SELECT json_agg(s ORDER BY s.seat)::text FROM lf_seats s WHERE s.table_id = t.id)
           AS seats,
       (SELECT json_agg(j ORDER BY j.ply)::text FROM lf_journal j
         WHERE j.table_id = t.id AND j.ply > q.after) AS plies
FROM unnest($1::text[], $2::int[]) AS q(id, after) JOIN lf_tables t ON t.id = q.id
"""


async def _no_reset(_conn: Any) -> None:
    """The pool's connections run only this module's statements: no session setting, cursor,
    LISTEN or advisory lock outlives one (asyncpg still rolls back a transaction left open).
    asyncpg's default reset is a round trip of four statements at every release, which cost
    a follower more than its read of another process's move."""


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


def _followed(row: Any) -> Loaded:
    """A row of ``_SINCE`` as :class:`Loaded` (its setup left empty: see ``since_many``)."""
    table = TableRow(id=row["id"], seq=row["seq"], setup={}, options={}, status=row["status"],
                     to_move=row["to_move"], bot_turn=bool(row["bot_turn"]),
                     deadline=row["deadline"], spectator_hash=row["spectator_hash"],
                     created=row["created"], updated=row["updated"])
    seat_rows = [SeatRow(seat=r["seat"], kind=r["kind"], name=r["name"], status=r["status"],
                         level=r["level"], stand_in=bool(r["stand_in"]),
                         invite_hash=r["invite_hash"], token_hash=r["token_hash"],
                         webhook=r["webhook"])
                 for r in json.loads(row["seats"] or "[]")]
    plies = [Ply(ply=r["ply"], kind=r["kind"], seat=r["seat"], data=json.loads(r["data"]),
                 by=r["by"], seq=r["seq"], at=r["at"])
             for r in json.loads(row["plies"] or "[]")]
    return Loaded(table, seat_rows, plies)


class Store:
    """The tables on disk (or in Postgres): every call is one transaction."""

    def __init__(self, engine: AsyncEngine, writer: _SqliteWriter | _PostgresWriter | None = None,
                 follow: Any = None, commit_window: float = 0.0) -> None:
        self.engine = engine
        # Postgres: asyncpg's own pool for ``since``, the read every process makes for every
        # move another makes. Through SQLAlchemy it took four round trips (a ping at checkout,
        # BEGIN, the query, a ROLLBACK at checkin); alone it is one statement, prepared once.
        self._follow = follow
        # The writes that arrive together are committed in one transaction (see _write): on
        # SQLite by a writer thread with a connection of its own, on Postgres through
        # asyncpg's pool (each process its own groups). Without asyncpg (another driver),
        # every write is its own transaction through SQLAlchemy.
        self._writer = writer
        self._pending: list[tuple[Write, asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self.commit_window = _window(commit_window)
        # Until then (the loop's clock) writes count as arriving together, the last seen
        # doing so BUSY_MEMORY ago: a group waits up to commit_window for more (see _flush).
        self._busy_until = 0.0
        self._first_at = 0.0  # when the oldest pending write arrived (the loop's clock)
        # Set when the group being gathered is full (GROUP_FULL): the wait ends early.
        self._full: asyncio.Future[None] | None = None
        self.waited = 0  # groups that waited the window (the tests ask which did)

    @classmethod
    async def open(cls, url: str, group: bool = True, commit_window: float = 0.0) -> Store:
        """Connect to ``url`` (``sqlite+aiosqlite:///...`` or ``postgresql://...``) and make
        the tables if they are missing. ``group=False``: on Postgres, every write its own
        transaction through SQLAlchemy, as without asyncpg (what the benchmark compares).
        ``commit_window``: seconds a group may wait for more writes while they arrive
        together (see _flush; 0: never waits)."""
        window = _window(commit_window)  # before anything is opened: nothing to close
        url = database_url(url)
        is_sqlite = url.startswith("sqlite")
        engine = create_async_engine(url, pool_pre_ping=not is_sqlite)
        writer: _SqliteWriter | _PostgresWriter | None = None
        if is_sqlite:
            event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        async with engine.begin() as conn:
            if not is_sqlite:  # processes starting together make the tables once, in turn
                await conn.execute(text("SELECT pg_advisory_xact_lock(31)"))
            await conn.run_sync(metadata.create_all)
        follow = None
        if is_sqlite:
            writer = _SqliteWriter(make_url(url).database or ":memory:")
        elif make_url(url).drivername == "postgresql+asyncpg":
            import asyncpg  # the [server] extra: SQLAlchemy's driver for Postgres

            dsn = make_url(url).set(drivername="postgresql").render_as_string(
                hide_password=False)
            follow = await asyncpg.create_pool(dsn, min_size=1, max_size=4,
                                               reset=_no_reset)
            writer = _PostgresWriter(follow) if group else None
        return cls(engine, writer, follow, window)

    async def _write(self, write: Write) -> None:
        """Commit ``write``; :class:`Conflict` (nothing written) if its table moved on.

        Writes that arrive while a group is being committed form the next group, committed
        in one transaction (by SQLite's writer thread, or on Postgres through asyncpg): one
        fsync for many moves. A write whose compare and set fails is skipped (it wrote
        nothing); any other failure rolls the whole group back, and every write in it fails.
        On Postgres a deletion (of many tables, in no one order) is a transaction of its own,
        so that it never holds locks in a group that another process waits on.
        """
        if self._writer is None or (write.deletes and isinstance(self._writer, _PostgresWriter)):
            async with self.engine.begin() as conn:
                await _run_async(conn, write)
            return
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        if not self._pending:
            self._first_at = loop.time()
        self._pending.append((write, done))
        if self._flusher is None or self._flusher.done():
            self._flusher = loop.create_task(self._flush())
        elif (self._full is not None and len(self._pending) >= GROUP_FULL
              and not self._full.done()):
            self._full.set_result(None)
        await done

    async def _flush(self) -> None:
        """Commit the pending writes, a group at a time, until none is left.

        Like Postgres's ``commit_delay``: while writes are seen arriving together (a group
        of the last BUSY_MEMORY held more than one, or more arrived while it was committed),
        a group waits up to ``commit_window`` (or until GROUP_FULL writes) for more to join
        it: the fixed cost of a transaction (BEGIN, COMMIT and its fsync, the handover to
        the writer and back) is most of a move's write when fsync is fast, and then paid once
        for all of them. On a quiet server (no writes arriving together for BUSY_MEMORY) a
        write never waits, nor do one client's writes each sent after the last one's answer
        (they never overlap). A write is still acknowledged only after its group's COMMIT
        returned.
        """
        assert self._writer is not None
        loop = asyncio.get_running_loop()
        # One turn of the event loop first: the moves read from other sockets in the same turn
        # join this group (one fsync for all) instead of waiting for the next.
        await asyncio.sleep(0)
        while self._pending:
            now = loop.time()
            # The window counts from the oldest write's arrival: one that came during the last
            # commit has waited that long already.
            delay = self._first_at + self.commit_window - now
            if delay > 0 and len(self._pending) < GROUP_FULL and now < self._busy_until:
                self.waited += 1
                self._full = full = loop.create_future()
                timer = loop.call_later(delay, _release, full)
                try:
                    await full
                finally:
                    timer.cancel()
                    self._full = None
            group, self._pending = self._pending, []
            outcomes = await self._writer.submit([w for w, _ in group])
            if len(group) > 1 or self._pending:
                self._busy_until = loop.time() + max(BUSY_MEMORY, self.commit_window)
            for (_, done), outcome in zip(group, outcomes, strict=True):
                if done.done():
                    continue
                if outcome is None:
                    done.set_result(None)
                else:
                    done.set_exception(outcome)

    async def close(self) -> None:
        if self._flusher is not None:
            await asyncio.gather(self._flusher, return_exceptions=True)
        await self.engine.dispose()
        if self._follow is not None:
            await self._follow.close()
        if self._writer is not None:
            self._writer.close()

    # --- writing ------------------------------------------------------------------------------
    async def create(self, table: TableRow, seat_rows: Sequence[SeatRow]) -> None:
        await self._write(Write(table.id, None, {}, [
            (tables, [{
                "id": table.id, "seq": table.seq, "setup": _dumps(table.setup),
                "options": _dumps(table.options), "status": table.status,
                "to_move": table.to_move, "bot_turn": table.bot_turn,
                "deadline": table.deadline, "spectator_hash": table.spectator_hash,
                "created": table.created, "updated": table.updated}]),
            (seats, [
                {"table_id": table.id, "seat": s.seat, "kind": s.kind, "level": s.level,
                 "name": s.name, "status": s.status, "stand_in": s.stand_in,
                 "invite_hash": s.invite_hash, "token_hash": s.token_hash,
                 "webhook": s.webhook} for s in seat_rows]),
        ]))

    async def commit(self, table_id: str, seq: int, fields: Mapping[str, Any],
                     plies: Iterable[Ply] = (),
                     seat_changes: Mapping[int, Mapping[str, Any]] | None = None) -> None:
        """Move table ``table_id`` from ``seq`` to ``fields["seq"]`` with these journal rows
        and seat changes, all or nothing; :class:`Conflict` if its ``seq`` is no longer ``seq``.
        """
        rows = [{"table_id": table_id, "ply": p.ply, "kind": p.kind, "seat": p.seat,
                 "data": _dumps(p.data), "by": p.by, "seq": p.seq, "at": p.at} for p in plies]
        await self._write(Write(table_id, seq, dict(fields), [(journal, rows)] if rows else [],
                                [(seat, dict(v)) for seat, v in (seat_changes or {}).items()]))

    async def set_webhook(self, table_id: str, seat: int, url: str | None) -> None:
        """A seat's webhook is its own business: no sequence number moves for it."""
        await self._write(Write(table_id, None, {}, seat_updates=[(seat, {"webhook": url})]))

    # --- reading ------------------------------------------------------------------------------
    async def since(self, table_id: str, after_ply: int) -> Loaded | None:
        """What a process that holds a table up to ``after_ply`` needs to follow it: the
        table's row, its seats and only the journal rows after that one (None: no table)."""
        return (await self.since_many({table_id: after_ply})).get(table_id)

    async def since_many(self, after: Mapping[str, int]) -> dict[str, Loaded]:
        """:meth:`since` for several tables at once (``after``: each table's last ply held);
        the tables that exist.

        Every process with clients at a table follows every move another process makes
        there, so this is paid (N - 1) times a move with N processes: on Postgres it is one
        statement, one round trip for all the tables whose notices came together, their rows
        aggregated in the database (instead of three statements a table through SQLAlchemy,
        in a transaction of their own, which cost a follower more than the committing
        process paid for the move). The setup is not read again: it never changes.
        """
        if self._follow is None:  # SQLite: one machine, the general path is cheap
            found = {}
            for table_id, after_ply in after.items():
                loaded = await self.load(table_id, after_ply)
                if loaded is not None:
                    found[table_id] = loaded
            return found
        async with self._follow.acquire() as conn:
            rows = await conn.fetch(_SINCE, list(after), list(after.values()))
        return {row["id"]: _followed(row) for row in rows}

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

    async def seq_of(self, table_id: str) -> int | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(tables.c.seq).where(tables.c.id == table_id))).first()
        return None if row is None else int(row.seq)

    async def seqs_of(self, table_ids: Sequence[str]) -> dict[str, int]:
        """The sequence numbers of these tables (those that exist)."""
        found: dict[str, int] = {}
        async with self.engine.connect() as conn:
            for start in range(0, len(table_ids), 500):  # SQLite caps a statement's parameters
                chunk = list(table_ids[start:start + 500])
                result = await conn.execute(select(tables.c.id, tables.c.seq)
                                            .where(tables.c.id.in_(chunk)))
                found.update((r.id, int(r.seq)) for r in result)
        return found

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

    # --- retention ----------------------------------------------------------------------------
    async def expired(self, waiting_before: float | None,
                      finished_before: float | None) -> list[str]:
        """Tables past their keeping: waiting since before ``waiting_before`` with no person
        seat ever taken, or over since before ``finished_before`` (None: keep them)."""
        found: list[str] = []
        async with self.engine.connect() as conn:
            if waiting_before is not None:
                joined = exists().where(and_(seats.c.table_id == tables.c.id,
                                             seats.c.kind == "person",
                                             seats.c.status != "open"))
                result = await conn.execute(select(tables.c.id).where(
                    tables.c.status == "waiting", tables.c.created < waiting_before, ~joined))
                found += [r.id for r in result]
            if finished_before is not None:
                result = await conn.execute(select(tables.c.id).where(
                    tables.c.status == "over", tables.c.updated < finished_before))
                found += [r.id for r in result]
        return found

    async def delete(self, table_ids: Sequence[str]) -> None:
        """Forget these tables: journal, seats and all."""
        if not table_ids:
            return
        ids = list(table_ids)
        await self._write(Write(ids[0], None, {}, deletes=[
            (journal, "table_id", ids), (seats, "table_id", ids), (tables, "id", ids)]))
