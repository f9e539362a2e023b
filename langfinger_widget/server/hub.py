"""The tables one server process holds live, and the one way every change goes.

Build the change on a draft (the rules refuse it, or it is complete), commit
it (compare and set on the table's sequence number), then apply it, show it
to each client as that client may see it, tell the other processes "table T
is at N", wake the bots and ring the webhook of the seat whose turn it now
is. A commit that loses to another process takes in what that process wrote
and builds the change again on it, checked anew.

With several processes a table's people's moves and its bots are committed by
its owner process (owners.py): another process forwards a seat's changing
intent to the owner, follows the journal up to the owner's answer and answers
its client as for a move of its own; the owner dead, it takes the table over.

Bots and hints think in worker processes (thinkers.py, ``Settings.bot_processes``), or
with none (or for a game registered at run time, which a worker does not know) on this
process's event loop a slice at a time (``Slices``), so a table whose bot searches never
holds up another table's move.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any

from . import kernel, protocol, seats, tokens, webhooks
from .broker import Broker, MemoryBroker
from .config import Settings
from .limits import Thinking, Turns
from .owners import Owners, make_owners
from .protocol import Frame, RateLimit, out
from .room import (
    BOT,
    LOG_LIMIT,
    PLAYING,
    Change,
    Refusal,
    Room,
)
from .store import Conflict, Loaded, Store
from .thinkers import Thinkers, question

log = logging.getLogger("langfinger.server")

# A socket opened at /ws?table=T (so that a balancer can send all of T's seats to one
# process) that says hello for another table: its address and its secret disagree.
WRONG_ROUTE = ("this socket's address names another table (/ws?table=) than its seat token "
               "or spectator key opens")
# The intents a seat forwards to its table's owner (a webhook is the seat's own row: local).
FORWARDED = frozenset({"act", "undo", "stand_in", "return", "resign", "leave"})
# A forwarded intent unanswered after this many leases: the owner is taken for dead.
FORWARD_LEASES = 0.6
MOVED = "moved"  # between processes only: the asked one no longer owns the table
COMMIT_TRIES = 4  # a commit that keeps losing to other processes' is refused after this
# A table nobody is connected to and no bot plays leaves memory after this long (its
# journal stays: the next client loads it again).
IDLE_SECONDS = 600.0
# With other processes: how often a process asks the database whether a table it shows has
# moved on without a notice (its writer died between its commit and its notice).
HEAL_SECONDS = 3.0


class Client:
    """One WebSocket: a seat (or a spectator) at one table, and what it was last sent."""

    def __init__(self, live: Live, seat: int | None, token_hash: str | None,
                 settings: Settings) -> None:
        self.live = live
        self.seat = seat
        self.token_hash = token_hash
        self.last_id = 0
        self.sent_seq = -1
        self.log_size = 0
        self.limit = RateLimit(settings.rate, settings.burst)
        self.flood_limit = settings.flood_limit
        self._outbox_size = settings.outbox
        self._queue: deque[Message] = deque()
        self._wake = asyncio.Event()
        self._roomy = asyncio.Event()  # the outbox is less than half full
        self._roomy.set()
        self.resync = False
        self.closing: tuple[int, str] | None = None
        self.hint: Any = None  # the hint search under way for this client
        # Writes messages to the socket at once, in one write, True; False if it cannot now
        # (its buffers are full, or it is closing): then they wait in the outbox for the
        # socket's writer task. None: every message goes through the outbox.
        self.direct: Callable[[Sequence[Message]], bool] | None = None
        self._held = False  # the writer task holds a message it is sending
        # While corked (see cork), the messages that would have been written at once: the
        # outbox is empty while it holds any, so nothing queued is meant to go before them.
        self._corked: list[Message] | None = None

    def push(self, message: Message, picture: bool = False) -> None:
        """Queue a message (or a frame encoded once for many clients). A client too slow to
        take its pictures gets one fresh state instead of the backlog (never a silent drop);
        replies are always kept."""
        if picture and self.resync:
            return
        if _kind(message) == "presence":  # only the latest says who is online
            self._queue = deque(m for m in self._queue if _kind(m) != "presence")
        if len(self._queue) >= self._outbox_size:
            kept = [m for m in self._queue if _kind(m) not in ("state", "update", "presence")]
            self._queue = deque(kept)
            self.resync = True
            if picture:
                return
            if len(kept) >= self._outbox_size:
                # Answers alone fill the outbox: the client asks and does not read. Its
                # backlog is dropped and the socket closed (it may connect again and sync).
                self._queue.clear()
                self.close(protocol.CLOSE_SLOW, "not reading")
                return
        # Nothing waiting or being sent: the frame goes out now, not a task switch later
        # (a wake-up, the writer's turn and its send cost as much as the write itself).
        corked = self._corked
        if (not self._queue and not self._held and not self.resync and self.closing is None
                and self.direct is not None):
            if corked is None:
                if self.direct((message,)):
                    return
            else:
                if not corked:
                    # Held at most until this turn of the loop ends: an intent that awaits
                    # (its commit, another process) must not hold back what others did.
                    asyncio.get_running_loop().call_soon(self._write_corked)
                corked.append(message)
                return
        elif corked:  # (cannot happen while the outbox is empty; kept safe) they go first
            self._queue.extend(corked)
            corked.clear()
        self._enqueue(message)

    def _enqueue(self, message: Message) -> None:
        self._queue.append(message)
        self._wake.set()
        if len(self._queue) >= self._outbox_size // 2:
            self._roomy.clear()

    def cork(self) -> None:
        """Hold the messages that would be written at once until :meth:`uncork` (or the end of
        this turn of the event loop), then write them in one write: a move's update and its
        answer to the mover cost one system call, not two. Every cork needs its uncork
        (``try``/``finally``): no message may stay held."""
        if self.direct is not None:
            self._corked = []

    def uncork(self, last: Message | None = None) -> None:
        """Write what the cork held, then ``last`` (an answer), in order, in one write (or
        queue them for the writer task if the socket cannot take them now)."""
        corked = self._corked
        if corked and last is not None:  # (held: so the outbox is empty, nothing goes first)
            corked.append(last)
            last = None
        self._write_corked()
        self._corked = None
        if last is not None:
            self.push(last)

    def _write_corked(self) -> None:
        corked = self._corked
        if not corked:
            return
        self._corked = []
        if self.direct is not None and self.direct(corked):
            return
        for message in corked:  # full or closing: the writer task waits for room, in order
            self._enqueue(message)

    async def room_for_answers(self) -> None:
        """Wait until the outbox is less than half full: the client's next message is read
        only then, so a client that sends faster than it reads is slowed by its own backlog
        (and one that stopped reading stops being read) instead of filling memory."""
        await self._roomy.wait()

    def close(self, code: int, reason: str) -> None:
        if self._corked:  # written before the close, as they would have been uncorked
            self._queue.extend(self._corked)
            self._corked.clear()
        self.closing = (code, reason)
        self._wake.set()
        self._roomy.set()

    async def next(self, compose: Callable[[Client], Message]) -> Message | None:
        """The next message to send (None: close the socket with ``closing``). The writer
        holds it until it asks for the next one: meanwhile nothing is written directly."""
        self._held = False
        while True:
            if self._queue:
                if len(self._queue) <= self._outbox_size // 2:
                    self._roomy.set()
                self._held = True
                return self._queue.popleft()
            if self.resync:
                self.resync = False
                self._held = True
                return compose(self)
            if self.closing is not None:
                return None
            self._wake.clear()
            await self._wake.wait()


Message = dict[str, Any] | Frame  # a message to encode, or one already encoded


def _kind(message: Message) -> str:
    return message.kind if isinstance(message, Frame) else str(message["kind"])


class Live:
    """A room with what only this process has: its lock, clients and thinking bots."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.lock = asyncio.Lock()
        self.clients: set[Client] = set()
        self.bot: Any = None  # the bot thinking now: its Slices, or its question to a worker
        self.bot_key: tuple[int, int] | None = None  # (version, seat) it thinks for
        self.bots: dict[tuple[int, str], kernel.Bot] = {}
        self.changed_at = time.monotonic()
        self.reset_seq = room.seq  # clients sent anything before this get a full state
        self.presence: list[int] = []  # the seats last said to be online
        self.noticed = room.seq  # the latest sequence another process announced
        self.adopting = False  # asking whether this process may own it (to drive its bots)

    def online(self) -> set[int]:
        return {c.seat for c in self.clients if c.seat is not None}

    def bot_for(self, seat: int, level: str) -> kernel.Bot:
        key = (seat, level)
        if key not in self.bots:
            self.bots[key] = kernel.make(level, seed=secrets.randbelow(2**31),
                                         game=self.room.spec.name)
        return self.bots[key]


class Pictures:
    """What one broadcast built: each seat's picture, each distinct message's frame, the
    table's public line."""

    __slots__ = ("frames", "seats", "table", "views")

    def __init__(self) -> None:
        self.views: dict[int | None, dict[str, Any]] = {}  # built at once for a broadcast
        self.seats: dict[int | None, dict[str, Any]] = {}
        self.frames: dict[tuple[int | None, bool, int, int | None], Frame] = {}
        self.table: dict[str, Any] | None = None


class Hub:
    """Every live table of this process, the store and the broker."""

    def __init__(self, settings: Settings, store: Store, broker: Broker,
                 owners: Owners | None = None) -> None:
        self.settings = settings
        self.store = store
        self.broker = broker
        self.owners = make_owners(broker, settings.owner_lease) if owners is None else owners
        self.commits = 0  # store commits this process made (the tests ask who commits)
        self.rooms: dict[str, Live] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        # The tables other processes announced moves of, waiting to be read in one go (see
        # _notice), and the task reading them.
        self._behind: dict[str, Live] = {}
        self._following: asyncio.Task[None] | None = None
        self.scheduler: Any = None
        # The bots' and hints' worker processes (started at the first question), or None:
        # they think on the loop.
        self.thinkers = Thinkers(settings.bot_processes) if settings.bot_processes else None
        self.base_url = ""  # the links' base when no request says otherwise

    # --- life ---------------------------------------------------------------------------------
    async def start(self) -> None:
        self.scheduler = Turns(asyncio.get_running_loop())
        await self.broker.start(self._notice)
        await self.owners.start(self._serve, self._lost)
        self.spawn(self._sweep())
        if not isinstance(self.broker, MemoryBroker):
            self.spawn(self._heal())
        if self.settings.resume_bots:
            for table_id in await self.store.tables_with_bot_turns():
                live = await self.live(table_id)
                if live is not None:
                    self._schedule(live)

    async def stop(self) -> None:
        for live in self.rooms.values():
            self._cancel_bot(live)
            for client in list(live.clients):
                client.close(1001, "the server is shutting down")
        for task in list(self._tasks):
            task.cancel()
        if self.thinkers is not None:
            self.thinkers.close()
        await self.owners.close()  # releases its tables: the others take them over at once
        await self.broker.close()
        await self.store.close()

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(IDLE_SECONDS / 10)
            self.evict_idle(time.monotonic())
            try:
                await self.expire(time.time())
            except Exception:  # the database may be away a while: try again next round
                log.exception("deleting expired tables failed")

    async def _heal(self) -> None:
        """Follow what no notice announced. A process killed between a commit and its notice
        leaves the others' clients on the position before: a seat whose turn it now is would
        wait for good. Every few seconds one query reads the sequence numbers of the tables
        this process shows to someone, and those behind catch up as after a notice."""
        while True:
            await asyncio.sleep(HEAL_SECONDS)
            try:
                shown = {table_id: live.room.seq for table_id, live in self.rooms.items()
                         if live.clients}
                if shown:
                    for table_id, seq in (await self.store.seqs_of(list(shown))).items():
                        if seq > shown[table_id]:
                            await self._notice(table_id, seq)
                for table_id in shown:  # a bot whose owner died: take its table over
                    live = self.rooms.get(table_id)
                    if live is not None and live.bot_key is None:
                        self._schedule(live)
                await self._adopt_orphans()
            except Exception:  # the database may be away a while: try again next round
                log.exception("looking for tables moved on without a notice failed")

    async def _adopt_orphans(self) -> None:
        """Take over the bot tables that no process owns: their owner died while nobody
        was connected to them anywhere, so no client's process would take them over, and
        only a restart would have moved their bots again. Another process may win one's
        lease first (claimed in :meth:`_adopt`); then it drives that table's bots."""
        candidates = [t for t in await self.store.tables_with_bot_turns()
                      if not self.owners.mine(t)]
        for table_id in await self.owners.unowned(candidates) if candidates else []:
            live = await self.live(table_id)
            if live is not None and live.bot_key is None:
                self._schedule(live)

    async def expire(self, now: float) -> list[str]:
        """Delete the tables past the retention settings (see Settings); their ids.

        A table someone is connected to (or that is changing) waits for the next round: its
        clients would be left at a table that no longer exists.
        """
        settings = self.settings
        waiting = None if settings.expire_waiting is None else now - settings.expire_waiting
        finished = None if settings.keep_finished is None else now - settings.keep_finished
        if waiting is None and finished is None:
            return []
        ids = [table_id for table_id in await self.store.expired(waiting, finished)
               if table_id not in self.rooms or not (self.rooms[table_id].clients
                                                     or self.rooms[table_id].lock.locked())]
        for table_id in ids:
            live = self.rooms.pop(table_id, None)
            if live is not None:
                self._cancel_bot(live)
        await self.owners.release(ids)
        await self.store.delete(ids)
        if ids:
            log.info("deleted %d table(s) past their keeping", len(ids))
        return ids

    def evict_idle(self, now: float) -> int:
        """Forget the tables idle for IDLE_SECONDS (no client, no bot, no change under way)."""
        idle = [table_id for table_id, live in self.rooms.items()
                if not live.clients and live.bot_key is None and not live.lock.locked()
                and now - live.changed_at > IDLE_SECONDS]
        for table_id in idle:
            del self.rooms[table_id]
        if idle:
            self.spawn(self.owners.release(idle))
        return len(idle)

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run ``work`` in the background; its failure is logged, never lost."""
        self._start(work)

    def _start(self, work: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._finished)
        return task

    def _finished(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background work failed", exc_info=task.exception())

    async def live(self, table_id: str) -> Live | None:
        """The table, loaded (and replayed) once however many ask at the same time."""
        found = self.rooms.get(table_id)
        if found is not None:
            return found
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                found = self.rooms.get(table_id)
                if found is None:
                    loaded = await self.store.load(table_id)
                    if loaded is None:
                        return None
                    found = self.rooms[table_id] = Live(Room(loaded))
        finally:
            # The last one out forgets the lock, found or not: a lock kept for every id
            # anyone asked for would be memory for the asking.
            if not lock.locked() and self._loading.get(table_id) is lock:
                del self._loading[table_id]
        return found

    async def current(self, live: Live) -> Live:
        """With other processes writing: take in what they wrote that no notice brought yet,
        so a client's first picture (or a record, or the lobby's line) is the latest."""
        if isinstance(self.broker, MemoryBroker):
            return live
        seq = await self.store.seq_of(live.room.id)
        if seq is not None and seq > live.room.seq:
            async with live.lock:
                if seq > live.room.seq:
                    await self._catch_up(live)
            self._followed(live)
        return live

    # --- the one way a change goes ------------------------------------------------------------
    async def commit(self, live: Live, build: Callable[[Room], Change]) -> Change:
        """Build, commit, apply, show. Refusal (or IllegalAction) leaves everything as it was.

        A commit that loses to another process takes in what that one wrote and builds the
        change again on it: ``build`` checks everything anew (a move quoting an older
        version is then stale), so only what is still right goes through.
        """
        followed = False  # took in another writer's change: its clients must see it
        try:
            async with live.lock:
                for _ in range(COMMIT_TRIES):
                    room = live.room
                    before = (tuple(room.game.to_decide), room.status)
                    change = room.finish(build(room), time.time())
                    try:
                        self.commits += 1
                        await self.store.commit(room.id, room.seq, change.fields, change.plies,
                                                change.seats)
                    except Conflict:
                        await self._catch_up(live)
                        followed = True
                        continue
                    except Exception:
                        log.exception("committing a change to table %s failed", room.id)
                        await self._reload(live)
                        followed = True
                        raise Refusal("server_error", "the server could not save this; try "
                                                      "again") from None
                    room.apply(change)
                    if change.kind == "undo":
                        live.reset_seq = room.seq
                    followed = False  # what it took in is shown with this change, below
                    break
                else:
                    raise Refusal("conflict", "the table is busy: try again")
        finally:
            if followed:
                self._followed(live)
        self._after(live, change, before)
        return change

    def _after(self, live: Live, change: Change, before: tuple[tuple[int, ...], str]) -> None:
        room = live.room
        live.changed_at = time.monotonic()
        self.broadcast(live)
        self._revoke(live)
        if not isinstance(self.broker, MemoryBroker):  # one process: no task a move for nothing
            self.spawn(self.broker.publish(room.id, room.seq))
        self._schedule(live)
        self._ring(live, before)

    async def _catch_up(self, live: Live) -> None:
        """Take in what other processes committed to this table (under its lock)."""
        room = live.room
        await self._take_in(live, await self.store.since(room.id, room.plies - 1))

    async def _take_in(self, live: Live, loaded: Loaded | None) -> None:
        """Take in ``loaded``, read from the store after the room's last ply (under its lock):
        a journal that does not follow on from the room's is read anew whole."""
        room = live.room
        if loaded is None or loaded.table.seq == room.seq:
            return
        try:
            undone = room.catch_up(loaded)
        except (ValueError, kernel.LangfingerError):
            log.exception("table %s could not follow the journal; reloading it", room.id)
            await self._reload(live)
            return
        if undone:
            live.reset_seq = room.seq

    async def _reload(self, live: Live) -> None:
        loaded = await self.store.load(live.room.id)
        if loaded is not None:
            live.room = Room(loaded)
            live.reset_seq = live.room.seq

    async def _notice(self, table_id: str, seq: int) -> None:
        """Another process says ``table_id`` is at ``seq``: read what it wrote, show it.

        A table held here for nobody (no client, no bot thinking: the lobby loaded it, or its
        clients left) is not followed: that would cost a read and a replay a move for no one.
        It catches up when it is next used: every reader asks ``current`` first, a commit
        from behind loses its compare and set and catches up, and a client's hello follows
        the notices heard meanwhile (``noticed``).

        The tables noticed in one turn of the event loop are read in one query (a process
        commits the moves that arrive together in one transaction and announces them
        together): see ``_follow``. A notice lost to a failed read is found by ``_heal``.
        """
        live = self.rooms.get(table_id)
        if live is None or live.room.seq >= seq:
            return
        live.noticed = max(live.noticed, seq)
        if not live.clients and live.bot_key is None:
            return
        self._behind[table_id] = live
        if self._following is None or self._following.done():
            self._following = self._start(self._follow())

    async def _follow(self) -> None:
        await asyncio.sleep(0)  # the notices read in this turn join the first read
        while self._behind:
            batch, self._behind = self._behind, {}
            # A table whose lock is taken (a change of this process's under way) waits for
            # it alone; the others are locked at once (none waits: no cycle) and read at once.
            held = []
            for live in batch.values():
                if live.room.seq >= live.noticed:
                    continue
                if live.lock.locked():
                    self.spawn(self._follow_one(live))
                else:
                    await live.lock.acquire()  # free: taken without a turn of the loop
                    held.append(live)
            if not held:
                continue
            before = [live.room.seq for live in held]
            try:
                found = await self.store.since_many({live.room.id: live.room.plies - 1
                                                     for live in held})
                for live in held:
                    await self._take_in(live, found.get(live.room.id))
            finally:
                for live in held:
                    live.lock.release()
            for live, seq in zip(held, before, strict=True):
                if live.room.seq != seq:
                    self._followed(live)

    async def _follow_to(self, live: Live, seq: int) -> None:
        """Take in and show what other processes wrote up to ``seq`` (at least): a forwarded
        intent's answer is shown to the client that sent it before the answer itself."""
        live.noticed = max(live.noticed, seq)
        await self._follow_one(live)

    async def _follow_one(self, live: Live) -> None:
        async with live.lock:
            if live.room.seq >= live.noticed:
                return
            await self._catch_up(live)
        self._followed(live)

    def _followed(self, live: Live) -> None:
        """This process took in another's change: show it (the owner drives the bots)."""
        self.broadcast(live)
        self._revoke(live)
        live.changed_at = time.monotonic()
        self._schedule(live)

    # --- what clients are sent ----------------------------------------------------------------
    def picture(self, client: Client, full: bool = False, cache: Pictures | None = None
                ) -> Frame:
        """The client's next state (all of it) or update (what is new since the last one),
        encoded. Within one ``cache`` (one broadcast), each seat's picture is built once and
        each distinct message encoded once, however many clients it goes to."""
        live, room = client.live, client.live.room
        cache = Pictures() if cache is None else cache
        pic = cache.seats.get(client.seat)
        if pic is None:
            pic = cache.seats[client.seat] = room.picture(client.seat,
                                                          cache.views.get(client.seat))
        tail: list[Any] = pic["log"]
        size: int = pic["log_size"]
        since, start = client.sent_seq, client.log_size
        # A client further behind than the events kept gets a full state, as after a resync.
        full = (full or since < live.reset_seq or start > size or size - start > len(tail))
        client.sent_seq, client.log_size = room.seq, size
        key = (client.seat, full, since, None if full else start)
        frame = cache.frames.get(key)
        if frame is None:
            if cache.table is None:
                cache.table = room.info(live.online())
            fields = {k: v for k, v in pic.items() if k != "log"}
            frame = cache.frames[key] = Frame.of(out(
                "state" if full else "update", room.seq, since=since, you=self._you(client),
                table=cache.table,
                events=tail[-LOG_LIMIT:] if full else tail[len(tail) - (size - start):],
                **fields))
        return frame

    def _you(self, client: Client) -> dict[str, Any]:
        if client.seat is None:
            return {"seat": None, "role": "spectator"}
        name = client.live.room.seats[client.seat].name
        return {"seat": client.seat, "role": "seat", "name": name}

    def broadcast(self, live: Live) -> None:
        cache = Pictures()
        cache.views = live.room.views({c.seat for c in live.clients if not c.resync})
        for client in list(live.clients):
            if client.resync:
                continue  # its coming fresh state holds this; build nothing for it now
            client.push(self.picture(client, cache=cache), picture=True)

    def state_for(self, client: Client) -> Frame:
        return self.picture(client, full=True)

    def _revoke(self, live: Live) -> None:
        """Close the sockets of seats whose token was revoked (left, resigned)."""
        for client in list(live.clients):
            if client.seat is None:
                continue
            seat = live.room.seats[client.seat]
            if not tokens.same_digest(client.token_hash, seat.token_hash):
                if client.hint is not None:
                    client.hint.cancel()
                    client.hint = None
                live.clients.discard(client)
                # On the loop's next turn: the socket that left or resigned gets its
                # answer ("ok") first, then the notice; the other way round its client
                # took the notice as the answer to its request.
                asyncio.get_running_loop().call_soon(self._close_revoked, client,
                                                     live.room.seq)

    @staticmethod
    def _close_revoked(client: Client, seq: int) -> None:
        client.push(protocol.error("revoked", "this seat token was revoked (the seat was left "
                                   "or resigned)", seq))
        client.close(protocol.CLOSE_REVOKED, "seat token revoked")

    def _presence(self, live: Live) -> None:
        """Tell everyone who is online, if that changed: another socket of a seat already
        online changes nothing, so sockets coming and going cost no message each to all."""
        online = sorted(live.online())
        if online == live.presence:
            return
        live.presence = online
        frame = Frame.of(out("presence", live.room.seq, online=online))
        for client in list(live.clients):
            client.push(frame, picture=True)

    # --- clients ------------------------------------------------------------------------------
    async def hello(self, message: Mapping[str, Any], routed: str | None = None) -> Client:
        """A client's first message: its seat token, or a table and its spectator key.
        ``routed``: the table its socket's address names (``/ws?table=``, for a balancer
        that routes by table); a token or key for another table is then refused."""
        if message.get("kind") != "hello":
            raise Refusal("unauthorized", "say hello first: {\"kind\": \"hello\", \"token\": ...}")
        token, key = message.get("token"), message.get("spectate")
        if token is not None:
            if not tokens.looks_like_secret(token):
                raise Refusal("unauthorized", "not a seat token")
            token_hash = tokens.digest(str(token))
            found = await self.store.seat_of_token(token_hash)
            if found is not None and routed is not None and found[0] != routed:
                raise Refusal("unauthorized", WRONG_ROUTE)
            live = None if found is None else await self.live(found[0])
            if live is not None:
                await self.current(live)  # the seat may have been taken through another process
            if found is None or live is None or not tokens.same_digest(
                    live.room.seats[found[1]].token_hash, token_hash):
                raise Refusal("unauthorized", "unknown or revoked seat token")
            same = sum(tokens.same_digest(c.token_hash, token_hash) for c in live.clients)
            if same >= self.settings.sockets_per_token:
                raise Refusal("too_many_sockets", f"this seat has {same} sockets open here "
                                                  "already: close one first")
            client = Client(live, found[1], token_hash, self.settings)
        elif key is not None:
            table_id = message.get("table")
            if routed is not None and table_id != routed:
                raise Refusal("unauthorized", WRONG_ROUTE)
            live = await self.live(table_id) if isinstance(table_id, str) and \
                len(table_id) <= 32 else None
            if live is None or not tokens.looks_like_secret(key) or \
                    not tokens.matches(str(key), live.room.spectator_hash):
                raise Refusal("unauthorized", "unknown table or wrong spectator key")
            client = Client(await self.current(live), None, None, self.settings)
        else:
            raise Refusal("unauthorized", "hello needs a seat token or a spectator key")
        live.clients.add(client)
        if live.noticed > live.room.seq:  # announced while nobody here followed the table
            self.spawn(self._notice(live.room.id, live.noticed))
        client.push(self.state_for(client))
        self._presence(live)
        if client.seat is not None:
            self._schedule(live)  # a table loaded for this client may have a bot to move
        return client

    def leave(self, client: Client) -> None:
        """The client's socket closed."""
        live = client.live
        if client.hint is not None:
            client.hint.cancel()
        if client in live.clients:
            live.clients.discard(client)
            self._presence(live)

    def _check_token(self, client: Client) -> int:
        """The client's seat, if its token is still that seat's (else: revoked)."""
        if client.seat is None:
            raise Refusal("spectator", "a spectator watches; only a seat may do this")
        seat = client.live.room.seats[client.seat]
        if not tokens.same_digest(client.token_hash, seat.token_hash):
            raise Refusal("revoked", "this seat token was revoked")
        return client.seat

    async def intent(self, client: Client, message: dict[str, Any]) -> dict[str, Any] | None:
        """Answer one intent (already checked for kind and id); the reply, or None if the
        reply comes later (a hint)."""
        kind = message["kind"]
        msg_id = message["id"]
        live = client.live
        if kind == "ping":
            return out("pong", live.room.seq, id=msg_id)
        if kind == "sync":
            client.push(self.state_for(client))
            return None
        if kind == "why":
            return out("why", live.room.seq, id=msg_id, action=protocol.echo(message.get("action")),
                       reason=self._why(client, message))
        try:
            seat = self._check_token(client)
            if kind == "hint":
                return self._hint(client, seat, msg_id)
            with self.scheduler.first():  # no bot or hint thinks while a person's move goes
                if kind in FORWARDED and not self.owners.mine(live.room.id):
                    await self._carry(live, seat, client.token_hash, kind, message)
                else:
                    await self._change(live, seat, kind, message)
        except Refusal as refusal:
            return out("result", live.room.seq, id=msg_id, ok=False, error=refusal.message,
                       code=refusal.code)
        except kernel.IllegalAction as exc:
            return out("result", live.room.seq, id=msg_id, ok=False, error=str(exc),
                       code="illegal")
        return out("result", live.room.seq, id=msg_id, ok=True, error="", code="")

    def _why(self, client: Client, message: Mapping[str, Any]) -> str | None:
        room = client.live.room
        try:
            self._check_token(client)
            room.check_can_decide(client.seat, message.get("action"))  # type: ignore[arg-type]
        except Refusal as refusal:
            return refusal.message
        return room.why_not(message.get("action"), client.seat)

    async def _change(self, live: Live, seat: int, kind: str,
                      message: Mapping[str, Any]) -> None:
        if kind == "act":
            action = message.get("action")

            def play(room: Room) -> Change:
                room.check_can_decide(seat, action)
                room.check_fresh(message, seat)
                reason = room.why_not(action, seat)
                if reason is not None:
                    raise Refusal("illegal", reason)
                return room.play(seat, action, "person")  # type: ignore[arg-type]

            await self.commit(live, play)
        elif kind == "undo":
            await self.commit(live, lambda room: room.undo(seat))
        elif kind == "stand_in":
            target = message.get("seat")
            await self.commit(live, lambda room: seats.stand_in(room, seat, target, time.time()))
        elif kind == "return":
            await self.commit(live, lambda room: seats.take_back(room, seat))
        elif kind == "resign":
            await self.commit(live, lambda room: seats.resign(room, seat))
        elif kind == "leave":
            await self.commit(live, lambda room: seats.leave(room, seat))
        elif kind == "webhook":
            url = webhooks.check_url(message.get("url"))
            await self.store.set_webhook(live.room.id, seat, url)
            live.room.seats[seat].webhook = url

    # --- tables another process owns ---------------------------------------------------------
    async def _carry(self, live: Live, seat: int, token_hash: str | None, kind: str,
                     message: Mapping[str, Any]) -> None:
        """Have the table's owner make the change (or make it here if the table is, or
        becomes, ours); when this returns, this process shows the change. Refusal as for a
        change made here."""
        table_id = live.room.id
        after = live.room.plies  # the move, if it lands, lands after these journal rows
        ask = {"table": table_id, "seat": seat, "token_hash": token_hash, "intent": message}
        lease = self.owners.lease
        deadline = time.monotonic() + 3 * lease
        doubt = False  # an owner took the ask and went silent: it may have committed it
        while True:
            try:
                routed = await self._forward(table_id, ask, FORWARD_LEASES * lease)
                if routed is None:  # ours (now): as for a client of ours
                    await self._change(live, seat, kind, message)
                    return
                answer = routed[1]
                if answer is None:
                    # Dead (its lease runs out, then the table is taken over) or swamped.
                    # Sending again is safe only for a move that quotes the position: once
                    # played, the same move is stale. An undo or a seat change is not.
                    again = kind == "act" and Room.quotes_position(message)
                    if not again or time.monotonic() > deadline:
                        raise Refusal("in_doubt", "the server process holding this table "
                                                  "did not answer: it may or may not have "
                                                  "done this; look (sync) before trying again")
                    doubt = True
                    await self._await_lease(table_id, routed[0], lease)
                    continue
                if answer.get("code") == MOVED:  # it gave the table up: who holds it now?
                    if time.monotonic() < deadline:
                        continue
                    raise Refusal("conflict", "the table is busy: try again")
                await self._follow_to(live, int(answer.get("seq", -1)))
                if not answer.get("ok"):
                    raise Refusal(str(answer.get("code")), str(answer.get("error")))
                return
            except Refusal:
                if doubt and await self._landed(live, seat, message, after):
                    return
                raise

    async def _forward(self, table_id: str, ask: dict[str, Any], timeout: float
                       ) -> tuple[str, dict[str, Any] | None] | None:
        try:
            return await self.owners.forward(table_id, ask, timeout)
        except Exception:  # Redis away: nothing was asked of anyone, so nothing is in doubt
            log.exception("forwarding an intent for table %s failed", table_id)
            raise Refusal("server_error", "the server could not reach this table's process; "
                                          "try again") from None

    async def _await_lease(self, table_id: str, silent: str, wait: float) -> None:
        """Wait (up to ``wait``) until the silent owner's lease runs out and the table is
        ours or another's: asking it again meanwhile would only wait out another timeout."""
        until = time.monotonic() + wait
        while time.monotonic() < until and await self.owners.claim(table_id) == silent:
            await asyncio.sleep(wait / 20)

    async def _landed(self, live: Live, seat: int, message: Mapping[str, Any],
                      after: int) -> bool:
        """Whether the journal holds ``seat`` playing the intent's action after journal row
        ``after`` (the owner that went silent committed it before it died); this process
        then shows it."""
        loaded = await self.store.since(live.room.id, after - 1)
        if loaded is None:
            return False
        action = message.get("action")
        landed = any(ply.kind == "play" and ply.seat == seat and ply.by == "person"
                     and ply.data.get("action") == action for ply in loaded.plies)
        if landed:
            await self._follow_to(live, loaded.table.seq)
        return landed

    async def _serve(self, ask: dict[str, Any]) -> dict[str, Any]:
        """Answer an intent another process forwarded (owners.py): the seat's token hash is
        checked again here, against this process's copy of the table, so a revoked or
        forged one is refused whatever the forwarder said."""
        table_id, seat, intent = ask.get("table"), ask.get("seat"), ask.get("intent")
        if not isinstance(table_id, str) or type(seat) is not int or not isinstance(
                intent, dict) or intent.get("kind") not in FORWARDED:
            return _answer(-1, Refusal("bad_request", "not an intent"))
        live = await self.live(table_id) if len(table_id) <= 32 else None
        if live is None:
            return _answer(-1, Refusal("unauthorized", "unknown table"))
        if await self.owners.claim(table_id) is not None:
            return {"ok": False, "code": MOVED, "error": "", "seq": live.room.seq}

        def holds(room: Room) -> bool:
            return 0 <= seat < len(room.seats) and tokens.same_digest(
                ask.get("token_hash"), room.seats[seat].token_hash)

        if not holds(live.room) and not holds((await self.current(live)).room):
            return _answer(live.room.seq, Refusal("revoked", "this seat token was revoked"))
        try:
            with self.scheduler.first():
                await self._change(live, seat, intent["kind"], intent)
        except Refusal as refusal:
            return _answer(live.room.seq, refusal)
        except kernel.IllegalAction as exc:
            return _answer(live.room.seq, Refusal("illegal", str(exc)))
        return {"ok": True, "code": "", "error": "", "seq": live.room.seq}

    def _lost(self, table_ids: list[str]) -> None:
        """Another process took these tables over: its bots are no longer ours to drive."""
        for table_id in table_ids:
            live = self.rooms.get(table_id)
            if live is not None:
                self._cancel_bot(live)

    async def _adopt(self, live: Live) -> None:
        """Own a table whose bot is to move and whose owner is gone (or that nobody owned
        yet), then drive its bot; another process owns it: nothing to do here."""
        try:
            owner = await self.owners.claim(live.room.id)
        finally:
            live.adopting = False
        if owner is None and self.rooms.get(live.room.id) is live:
            self._schedule(await self.current(live))

    # --- hints --------------------------------------------------------------------------------
    def _hint(self, client: Client, seat: int, msg_id: int) -> dict[str, Any] | None:
        room = client.live.room
        if not room.options.hints:
            raise Refusal("hints_off", "this table plays without hints")
        room.check_can_decide(seat)
        if client.hint is not None:  # the client asks again: its last question is dropped
            client.hint.cancel()
            client.hint = None
        if any(c.hint is not None for c in client.live.clients if c.seat == seat):
            raise Refusal("busy", "a hint for this seat is being searched (another socket "
                                  "asked): ask again when it has come")
        if self.hints_running() >= self.settings.hint_searches:
            raise Refusal("busy", "the server is searching hints for others: ask again in "
                                  "a moment")
        version = room.game.version

        def done(result: tuple[dict[str, Any], float]) -> None:
            client.hint = None
            now = client.live.room
            if now.game.version != version:
                client.push(out("hint", now.seq, id=msg_id, action=None,
                                error="the board moved on; ask again"))
                return
            action, value = result
            client.push(out("hint", now.seq, id=msg_id, action=action,
                            value=protocol.finite(float(value)), error="",
                            move=now.game.move_number, version=version))

        def failed(exc: Exception) -> None:
            client.hint = None
            client.push(out("hint", client.live.room.seq, id=msg_id, action=None,
                            error=f"no hint: {exc!r}"))

        seed, twin_seed = room.game.move_number, secrets.randbelow(2**31)
        thinkers = self._thinkers_for(room)
        if thinkers is not None:
            asked = question(room.game, seat, "", seed, twin_seed, hint=True)
            client.hint = thinkers.ask(self.scheduler.loop, asked, done, failed)
        else:
            bot = kernel.make_hint_bot(seed=seed)
            steps = kernel.bot_steps(bot, room.game, seat, twin_seed, hint=True)
            client.hint = Thinking(self.scheduler, steps, done, failed).start()
        return out("hint", room.seq, id=msg_id, action=None, error="", pending=True)

    def hints_running(self) -> int:
        return sum(c.hint is not None for live in self.rooms.values() for c in live.clients)

    def _thinkers_for(self, room: Room) -> Thinkers | None:
        """The workers a search at ``room`` (a bot's or a hint's) goes to; None: it thinks
        on the loop. A game registered in this process only (lf.games.register) is unknown
        to a worker."""
        if self.thinkers is not None and kernel.games.built_in(room.spec):
            return self.thinkers
        return None

    # --- bots ---------------------------------------------------------------------------------
    def _cancel_bot(self, live: Live) -> None:
        if live.bot is not None:
            live.bot.cancel()
        live.bot, live.bot_key = None, None

    def _schedule(self, live: Live, delay: float = 0.0) -> None:
        """Start the bot to move thinking, unless one already thinks for this position."""
        room = live.room
        seat = room.bot_to_move()
        if seat is None:
            self._cancel_bot(live)
            return
        if not self.owners.mine(room.id):  # the owner drives a table's bots
            self._cancel_bot(live)
            if not live.adopting:
                live.adopting = True
                self.spawn(self._adopt(live))
            return
        key = (room.game.version, seat)
        if live.bot_key == key:
            return
        self._cancel_bot(live)
        live.bot_key = key

        def done(action: dict[str, Any]) -> None:
            self.spawn(self._bot_move(live, key, action))

        def failed(exc: Exception) -> None:
            self.spawn(self._bot_move(live, key, None, exc))

        thinkers = self._thinkers_for(room)
        if thinkers is not None:
            asked = question(room.game, seat, room.bot_level(seat), secrets.randbelow(2**31),
                             secrets.randbelow(2**31))
            live.bot = thinkers.ask(self.scheduler.loop, asked, done, failed, delay)
            return
        bot = live.bot_for(seat, room.bot_level(seat))
        steps = kernel.bot_steps(bot, room.game, seat, secrets.randbelow(2**31))
        live.bot = Thinking(self.scheduler, steps, done, failed).start(delay)

    async def _bot_move(self, live: Live, key: tuple[int, int], action: dict[str, Any] | None,
                        failure: Exception | None = None) -> None:
        wait = live.changed_at + live.room.options.pace - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        if live.bot_key != key:
            return  # superseded: the table moved on, or the bot was cancelled
        version, seat = key

        def play(room: Room) -> Change:
            if room.game.version != version or room.bot_to_move() != seat:
                raise Refusal("stale", "the table moved on while the bot thought")
            chosen = action
            if chosen is None or room.why_not(chosen, seat) is not None:
                log.warning("the bot of table %s seat %d failed (%r); a random legal move "
                            "stands in", room.id, seat, failure or chosen)
                chosen = kernel.make("random", seed=version).choose(
                    room.game.view(seat), room.game.legal_actions(seat))
            by = BOT if room.seats[seat].kind == BOT else "stand_in"
            return room.play(seat, chosen, by)

        try:
            await self.commit(live, play)
        except Refusal:
            pass  # stale or lost to another process: look again below
        finally:
            if live.bot_key == key:
                live.bot, live.bot_key = None, None
                self._schedule(live)

    # --- webhooks -----------------------------------------------------------------------------
    def _ring(self, live: Live, before: tuple[tuple[int, ...], str]) -> None:
        """POST to the webhook of each person seat whose turn it has just become (several
        at once in a sealed step), not to one whose turn it was already."""
        room = live.room
        was = set(before[0]) if before[1] == PLAYING else set()
        for seat in room.people_to_decide():
            url = room.seats[seat].webhook
            if seat in was or not url:
                continue
            payload = {"event": "your_turn", "table": room.id, "seat": seat, "seq": room.seq,
                       "round": getattr(room.game, "round", None),
                       "move_number": room.game.move_number,
                       "deadline": room.deadline, "play": f"{self.base_url}/play/{room.id}"}
            self.spawn(webhooks.post(url, payload, self.settings.allow_private_webhooks))


def _answer(seq: int, refusal: Refusal) -> dict[str, Any]:
    return {"ok": False, "code": refusal.code, "error": refusal.message, "seq": seq}
