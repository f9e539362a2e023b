"""``OnlineSeat``: a seat at a server's table, driven like a local table.

The board widget drives a local :class:`~langfinger_widget.tables.table.Table` and an
online seat through the same methods (:class:`~langfinger_widget.tables.driver.BoardDriver`):
intents go to the server, which checks them (R13) and answers; its pictures (``state``,
``update``, docs/server.md) come back as the traits the board shows. No rule is played
here: the server's kernel decides, so Undo and Hint follow R12/R13 as the server applies them.

Threads: the socket is read on a background thread (a normal kernel) or on the browser's
event loop (Pyodide). Each message is queued and the queue is drained on the thread that
owns the board (``Scheduler.run_on_owner``), so the picture and the widget's traits change
only there. A script that waits (``play``, ``wait_for_turn``) on that very thread drains the
queue itself, as ``wait_for_bots`` plays bots in a cell where the loop cannot run.
"""

from __future__ import annotations

import itertools
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any, cast

from .. import games
from ..games.protocol import GameState
from ..kernel.errors import IllegalAction, LangfingerError
from ..kernel.figures import figures
from ..kernel.game import Game
from ..kernel.state import shown
from ..tables.runtime import in_pyodide
from ..tables.scheduler import (
    LoopScheduler,
    ManualScheduler,
    Scheduler,
    TokenBucket,
    event_loop_scheduler,
)
from ..tables.table import Reply, TableError, refuse
from . import http
from .links import Link, masked, parse
from .my_seats import MySeats
from .transport import Transport, make_transport

FATAL = {
    "unauthorized": "this link does not open a seat any more (wrong, or revoked: the seat was "
                    "left or resigned); ask the table's host for a new invite",
    "revoked": "this seat was given up (left or resigned); its link no longer opens it",
    "origin": "the server does not accept connections from this page's origin; start it "
              "with --origin for this site",
    "version": "the server speaks another protocol version; update langfinger-widget",
    "missing": "",
}
WAIT = 30.0  # seconds a script waits for the server's answer by default
JOIN_TRIES = 3  # a join unanswered (offline) is sent again, with its key, this often in all
# A seat sends at most this many messages a second (bursts of BURST), under the server's
# default limit (30 and 60, docs/server.md): a script playing flat out is slowed, not cut off.
RATE, BURST = 20.0, 40
# The seats opened here, by server (the lobby lists them), kept between sessions in a file
# only its owner reads: the links are secrets (net/my_seats.py).
MY_SEATS = MySeats()


class OnlineError(TableError):
    """The server refused, or cannot be reached, or the link is wrong (the message says)."""


def _online_error(exc: http.ServerError) -> OnlineError:
    return OnlineError(f"{exc} ({exc.code})")


class OnlineSeat:
    """One seat (or a spectator) at a server's table, from a link.

    ``OnlineSeat(link)`` takes the seat an invite opens (``/join/...``), comes back to
    one's own seat (``/play/...``) or watches (``/watch/...``). ``view``, ``log``,
    ``legal`` and ``table`` are what the server last said; :meth:`play`,
    :meth:`undo` and :meth:`wait_for_turn` let a script (a bot of one's own) play the seat.
    With ``raise_errors=False`` a link that cannot be opened leaves the seat closed with
    ``error`` saying why (what a board shows), instead of raising :class:`OnlineError`.
    """

    def __init__(self, link: str | Link, *, scheduler: Scheduler | None = None,
                 raise_errors: bool = True, start: bool = True,
                 transport: Callable[[str, dict[str, Any], Callable[[dict[str, Any]], None]],
                                     Transport] | None = None) -> None:
        self.link = parse(link)
        self.scheduler: Scheduler = scheduler or event_loop_scheduler() or ManualScheduler()
        self._pace = TokenBucket(RATE, BURST)
        self.on_change: Callable[[], None] = lambda: None
        self.on_message: Callable[[Reply], None] = lambda reply: None
        self.error = ""
        self.hint: dict[str, Any] = {}
        self.highlight: dict[str, Any] = {}
        self.puzzle: Any = None  # the board's; an online table plays no puzzle
        self.pace = 0.0  # bots move at the server's pace
        self.closed = False
        self.connection = "connecting"  # online, offline, closed
        self.seq: int | None = None
        self.table: dict[str, Any] = {}
        self.you: dict[str, Any] = {}
        self.view: dict[str, Any] = {}
        self.legal: list[dict[str, Any]] = []
        self.log: list[dict[str, Any]] = []
        self.move_number = 0
        self.version = 0
        self.undo_allowed: dict[str, Any] = {"allowed": False, "reason": ""}
        self.moved_at = time.time()  # when this client last saw the game move (wall clock)
        self._final: GameState | None = None
        self._final_tried = False
        self._ids = itertools.count(1)
        self._answers: dict[int, dict[str, Any]] = {}
        self._inbox: deque[dict[str, Any]] = deque()
        self._draining = False
        self._arrived = threading.Condition()
        self.token: str | None = None
        self.play_link = str(self.link)  # the seat's own link, to come back (kept secret)
        # The invites and spectators' link of a table created for this seat (Play online).
        self.invites: dict[int, str] = {}
        self.watch_link = ""
        self._hello: dict[str, Any] = {}
        self._transport: Transport | None = None
        self._make_transport = transport or make_transport
        try:
            self._credentials()
        except OnlineError as exc:
            if raise_errors:
                raise
            self._close_with(str(exc))
            return
        if start:
            self.start()

    # --- opening -----------------------------------------------------------------------------
    def _credentials(self) -> None:
        link = self.link
        if link.kind == "watch":
            self._hello = {"table": link.table, "spectate": link.secret}
            return
        if link.kind == "join":
            # A key of this join's own: a join whose answer was lost (a timeout) is sent
            # again with it and gets the same seat and token, instead of "seat taken".
            body = {"invite": link.secret, "key": secrets.token_urlsafe(24)}
            url = f"{link.base}/api/tables/{link.table}/join"
            for attempt in range(JOIN_TRIES):
                try:
                    taken = http.call("POST", url, body)
                    break
                except http.ServerError as exc:
                    if exc.code != "offline" or attempt == JOIN_TRIES - 1:
                        raise _online_error(exc) from None
            self.token, self.play_link = str(taken["token"]), str(taken["play"])
            self.you = {"seat": taken.get("seat"), "role": "seat"}
        else:
            self.token = link.secret
        self._hello = {"token": self.token}
        MY_SEATS.remember(link.base, link.table, self.play_link)

    def start(self) -> None:
        """Open the socket (reconnecting by itself until :meth:`close`)."""
        if self._transport is None and not self.closed:
            self._transport = self._make_transport(self.link.socket_url, self._hello,
                                                   self._receive)
            self._transport.start()

    def close(self) -> None:
        """Close the socket; the seat stays the server's (come back by ``play_link``)."""
        self.closed = True
        if self._transport is not None:
            self._transport.stop()
        with self._arrived:
            self._arrived.notify_all()

    def _close_with(self, message: str) -> None:
        self.close()
        self.connection = "closed"
        self.error = message
        self.on_change()

    # --- what the server said ----------------------------------------------------------------
    @property
    def seat(self) -> int | None:
        """This seat's number (None for a spectator, or before the server answered)."""
        seat = self.you.get("seat")
        return seat if isinstance(seat, int) else None

    @property
    def players(self) -> int:
        return len(self.view.get("players") or []) or int(
            (self.table.get("options") or {}).get("players", 2))

    @property
    def to_move(self) -> int | None:
        return self.view.get("to_move") if self.view else None

    @property
    def is_over(self) -> bool:
        return bool(self.view.get("is_over")) or self.table.get("status") == "over"

    @property
    def my_turn(self) -> bool:
        return bool(self.legal) and not self.is_over

    @property
    def bot_names(self) -> dict[int, str]:
        """Seats a bot plays: bot seats, and people's seats a stand-in plays (R13.3)."""
        out: dict[int, str] = {}
        stand_in = (self.table.get("options") or {}).get("stand_in", "")
        for s in self.table.get("seats") or []:
            if s.get("kind") == "bot":
                out[int(s["seat"])] = str(s.get("level") or "bot")
            elif s.get("stand_in") or s.get("status") == "resigned":
                out[int(s["seat"])] = f"stand-in {stand_in}".strip()
        return out

    @property
    def human_seats(self) -> list[int]:
        """The people at this screen: this seat alone (no hot seat online)."""
        return [] if self.seat is None else [self.seat]

    @property
    def game_name(self) -> str:
        """The registered game this table plays (``lf.games.get(name)``), as its options say."""
        return str((self.table.get("options") or {}).get("game", "langfinger"))

    @property
    def game(self) -> Game:
        """The whole game, once it is over (its record, replayed through the kernel).

        While it is played the server holds it (R13.1): ``view``, ``log`` and ``legal``
        are what this seat may see."""
        if self._final is None and self.is_over and not self._final_tried:
            self._final_tried = True  # once: a board redraws often
            self._final = self._fetch_final()
        if self._final is None:
            raise OnlineError("the server holds this game while it is played (R13.1): read "
                              "seat.view, seat.log and seat.legal; the whole game is "
                              "shown once it is over")
        # BoardDriver names Langfinger's Game; another game's board reads it by the protocol.
        return cast(Game, self._final)

    def _fetch_final(self) -> GameState | None:
        from ..records import load, read_game

        try:
            if self.game_name == "langfinger":
                return load(self.record()).game()
            return read_game(self.record()).game()  # records/any_game: names its game
        except (LangfingerError, KeyError, TypeError):  # said on the board as "no figures"
            return None

    def _figures(self, final: GameState | None) -> list[dict[str, Any]]:
        """The end screen's figures of the finished game (each game's own, if it has any)."""
        if final is None:
            return []
        if self.game_name == "langfinger":
            return figures(final, self.seat)  # type: ignore[arg-type]
        of_game = games.get(self.game_name).figures
        return of_game(final, self.seat) if of_game is not None else []

    def record(self) -> str:
        """This seat's record now (docs/records.md); the whole game's once it is over."""
        key = self.token or self.link.secret
        try:
            text = http.call("GET", f"{self.link.base}/api/tables/{self.link.table}/record",
                             token=key)
        except http.ServerError as exc:
            raise _online_error(exc) from None
        return str(text)

    # --- the socket's messages, handed to the owner's thread -----------------------------------
    def _receive(self, message: dict[str, Any]) -> None:
        """From the transport, on any thread: queue it, wake waiters, hand over the drain."""
        with self._arrived:
            self._inbox.append(message)
            self._arrived.notify_all()
        self.scheduler.run_on_owner(self._drain_now)

    def _drain_now(self) -> None:
        self.drain()

    def drain(self) -> int:
        """Apply the queued messages (on the owner's thread); return how many."""
        if self._draining:  # a reader of the picture asked again from on_change
            return 0
        self._draining = True
        try:
            return self._drain_queue()
        finally:
            self._draining = False

    def _drain_queue(self) -> int:
        applied = 0
        while True:
            with self._arrived:
                if not self._inbox:
                    break
                message = self._inbox.popleft()
            applied += 1
            forward = self._apply(message)
            if forward is not None:
                self.on_message(forward)
        if applied:
            with self._arrived:
                self._arrived.notify_all()
        return applied

    def _apply(self, msg: dict[str, Any]) -> Reply | None:
        """Take one message in; the reply to pass on to the board, if any."""
        kind = msg.get("kind")
        if kind in ("state", "update"):
            self._picture(msg)
        elif kind == "presence":
            online = set(msg.get("online") or [])
            for s in self.table.get("seats") or []:
                s["online"] = s.get("seat") in online
        elif kind == "_offline":
            if self.connection == "closed":  # after a refusal that closed it for good
                return None
            self.connection = "offline"
            self.error = (f"offline: {msg.get('message')}; reconnecting in "
                          f"{msg.get('retry_in')} s (nothing is lost: the server keeps every "
                          "move)")
            self.on_change()
        elif kind == "error":
            return self._server_error(msg)
        elif kind == "hint":
            return self._hint(msg)
        elif kind in ("result", "why"):
            return self._answer(msg)
        return None

    def _picture(self, msg: dict[str, Any]) -> None:
        if msg["kind"] == "update" and msg.get("since") != self.seq:
            self.send({"kind": "sync"})  # a gap: never guess, ask for the whole picture
            return
        events = list(msg.get("events") or [])
        self.log = events if msg["kind"] == "state" else [*self.log, *events]
        self.seq = msg.get("seq")
        self.you = dict(msg.get("you") or self.you)
        self.table = dict(msg.get("table") or self.table)
        self.view = dict(msg.get("view") or {})
        self.legal = list(msg.get("legal") or [])
        self.highlight = dict(msg.get("highlight") or {})
        moved = msg.get("move_number") != self.move_number or msg.get("version") != self.version
        self.move_number = int(msg.get("move_number") or 0)
        self.version = int(msg.get("version") or 0)
        self.undo_allowed = dict(msg.get("undo") or {"allowed": False, "reason": ""})
        if moved:
            self.hint = {}
            self.moved_at = time.time()
        if self.connection != "online":
            self.connection = "online"
            self.error = ""
        self.on_change()

    def _server_error(self, msg: dict[str, Any]) -> Reply | None:
        code = str(msg.get("code") or "")
        if code in FATAL:
            self._close_with(f"{msg.get('error') or code}: {FATAL[code]}".rstrip(": "))
            return None
        return self._answer({"kind": "result", "ok": False, "id": msg.get("id"),
                             "error": msg.get("error") or code, "code": code})

    def _hint(self, msg: dict[str, Any]) -> Reply | None:
        if msg.get("pending"):
            return None
        if msg.get("action") is not None and msg.get("move") == self.move_number:
            self.hint = {"seat": self.seat, "action": msg["action"], "value": msg.get("value"),
                         "move": msg.get("move"), "version": self.version}
            self.on_change()
        return {"kind": "hint", "action": msg.get("action"), "value": msg.get("value"),
                "error": msg.get("error") or ""}

    def _answer(self, msg: dict[str, Any]) -> Reply | None:
        ident = msg.get("id")
        if isinstance(ident, int) and ident in self._answers:
            self._answers[ident] = msg  # a script waits for it
            return None
        if msg.get("kind") == "result" and not msg.get("ok"):
            self.error = str(msg.get("error") or "refused")
            self.on_change()
        return msg

    # --- intents -------------------------------------------------------------------------------
    def send(self, intent: dict[str, Any], awaited: bool = False) -> int | None:
        """Number ``intent`` and send it; its id, or None when offline (nothing sent).

        ``awaited``: a script waits for the answer, which is kept for it, not shown."""
        if self._transport is None or self.closed:
            return None
        self._keep_under_the_limit()
        ident = next(self._ids)
        if awaited:  # before sending: the answer may be drained on another thread at once
            self._answers[ident] = {}
        if self._transport.send({**intent, "id": ident}):
            return ident
        self._answers.pop(ident, None)
        return None

    def _keep_under_the_limit(self) -> None:
        # Pyodide cannot sleep on the page's one thread; there the sends are clicks, slow anyway.
        delay = self._pace.wait(time.monotonic())
        if delay > 0 and not in_pyodide():
            time.sleep(delay)
        self._pace.take(time.monotonic())

    def _not_sent(self) -> str:
        return self.error or "offline: nothing was sent; the board reconnects by itself"

    def _intent(self, intent: dict[str, Any]) -> Reply:
        if self.send(intent) is None:
            return refuse(self._not_sent())
        return {"kind": "sent"}  # the server's answer follows (on_message)

    def act(self, content: Mapping[str, Any]) -> Reply:
        """The board's move: sent with the position it was chosen in (stale ones refused)."""
        intent = {"kind": "act", "action": content.get("action")}
        for key in ("move", "version"):
            if key in content:
                intent[key] = content[key]
        return self._intent(intent)

    def why(self, content: Mapping[str, Any]) -> Reply:
        return self._intent({"kind": "why", "action": content.get("action")})

    def hint_intent(self) -> Reply:
        return self._intent({"kind": "hint"})

    def undo_intent(self) -> Reply:
        return self._intent({"kind": "undo"})

    def new_game_intent(self, content: Mapping[str, Any]) -> Reply:
        return refuse("an online table plays its one game: create a new table for another")

    def reveal(self, content: Mapping[str, Any]) -> Reply:
        return refuse("an online seat is one person's: there is no board to pass around")

    # --- a script plays the seat ---------------------------------------------------------------
    def catch_up(self) -> None:
        """Take in what has arrived, if called on the owner's thread (a notebook cell)."""
        if self._owns():
            self.scheduler.run_on_owner(self._drain_now)

    def _owns(self) -> bool:
        scheduler = self.scheduler
        return not isinstance(scheduler, LoopScheduler) or scheduler.on_owner_thread()

    def _wait(self, done: Callable[[], bool], timeout: float) -> bool:
        """Wait until ``done()`` (True) or ``timeout`` (False), draining on the owner thread."""
        if in_pyodide() and not done():
            raise OnlineError(
                "JupyterLite runs Python on the page's one thread: a cell that waits would "
                "stop the very messages it waits for. Use `await seat.turn()` (or "
                "`await seat.until(...)`) instead; seat.play(action) sends without waiting")
        deadline = time.monotonic() + timeout
        while True:
            if self._owns():
                self.scheduler.run_on_owner(self._drain_now)
            if done():
                return True
            left = deadline - time.monotonic()
            if left <= 0 or self.connection == "closed":
                return done()
            with self._arrived:
                if not self._inbox:
                    self._arrived.wait(min(left, 0.25))

    def _request(self, intent: dict[str, Any], timeout: float) -> dict[str, Any]:
        ident = self.send(intent, awaited=True)
        if ident is None:
            raise OnlineError(self._not_sent())
        try:
            if not self._wait(lambda: bool(self._answers.get(ident)), timeout):
                raise OnlineError(self.error or f"no answer from the server in {timeout:g} s")
            return self._answers[ident]
        finally:
            self._answers.pop(ident, None)

    def play(self, action: Any, by: str = "python", timeout: float = WAIT) -> None:
        """Play ``action`` as this seat; raises ``IllegalAction`` with the server's reason.

        Returns once the server committed it and this seat's picture shows it."""
        if in_pyodide():  # no blocking wait there: the answer shows on the board
            if self.send({"kind": "act", "action": action}) is None:
                raise OnlineError(self._not_sent())
            return
        answer = self._request({"kind": "act", "action": action}, timeout)
        if not answer.get("ok"):
            raise IllegalAction(str(answer.get("error")))
        seq = answer.get("seq")
        self._wait(lambda: isinstance(seq, int) and (self.seq or -1) >= seq, timeout)

    def undo(self, timeout: float = WAIT) -> None:
        """Take back this seat's last decision, as the server allows it (R13.2)."""
        answer = self._request({"kind": "undo"}, timeout)
        if not answer.get("ok"):
            raise IllegalAction(str(answer.get("error")))

    def wait_for_turn(self, timeout: float = WAIT) -> bool:
        """Wait until this seat is to decide (True), or the game is over or time is up (False).

        In a notebook cell this drains the server's messages itself; in JupyterLite (no
        blocking waits) ``await seat.turn()`` instead."""
        self._wait(lambda: self.my_turn or self.is_over or self.connection == "closed", timeout)
        return self.my_turn

    def wait_for(self, done: Callable[[OnlineSeat], bool], timeout: float = WAIT) -> bool:
        """Wait until ``done(seat)`` holds (True) or ``timeout`` passes (False)."""
        return self._wait(lambda: done(self), timeout)

    async def until(self, done: Callable[[OnlineSeat], bool], timeout: float = WAIT) -> bool:
        """``wait_for`` for an event loop (JupyterLite): ``await seat.until(lambda s: ...)``;
        the loop runs meanwhile, so the server's messages come in."""
        import asyncio

        deadline = time.monotonic() + timeout
        while not done(self):
            if time.monotonic() > deadline or self.connection == "closed":
                return done(self)
            await asyncio.sleep(0.05)
        return True

    async def turn(self, timeout: float = WAIT) -> bool:
        """``wait_for_turn`` for an event loop (JupyterLite): ``await seat.turn()``."""
        await self.until(lambda s: s.my_turn or s.is_over, timeout)
        return self.my_turn

    # --- what the board asks of its table (tables.driver.BoardDriver) --------------------------
    def picture(self) -> dict[str, Any]:
        final = None
        if self.is_over:
            try:
                final = self.game
            except OnlineError:
                final = None
        return {
            "view": self.view, "events": self.log, "legal": self.legal,
            "move_number": self.move_number, "version": self.version,
            "undo_status": self.undo_status(), "setup": self.setup(),
            "figures": self._figures(final),
            "online": self.online_info(),
        }

    def online_info(self) -> dict[str, Any]:
        """What the board says of the connection: state, table, status, invites to hand out.

        The links come without their secrets: this goes into the widget's state, which a
        notebook saves (autosave included). The board asks :meth:`full_link` for one when the
        person shows or copies it.
        """
        return {"connection": self.connection, "server": self.link.base,
                "table": self.link.table, "status": self.table.get("status", ""),
                "seat": self.seat,
                "invites": {str(s): masked(x) for s, x in self.invites.items()},
                "watch": masked(self.watch_link) if self.watch_link else ""}

    def full_link(self, which: Any) -> str | None:
        """The whole invite of seat ``which`` ("0".."4") or the spectators' link ("watch"),
        secret and all; None if this board handed out no such link."""
        if which == "watch":
            return self.watch_link or None
        try:
            return self.invites.get(int(which))
        except (TypeError, ValueError):
            return None

    def undo_status(self) -> dict[str, Any]:
        return {"allowed": bool(self.undo_allowed.get("allowed")),
                "reason": str(self.undo_allowed.get("reason") or "")}

    def setup(self) -> dict[str, Any]:
        return {"players": self.players, "seat": self.seat,
                "bots": {str(s): n for s, n in self.bot_names.items()},
                "variant": self.view.get("variant", "standard"), "levels": [],
                "level_notes": {}, "allow_new_game": False}

    def acting_seats(self) -> set[int]:
        return set(self.human_seats)

    def check_seat(self, seat: Any, players: int | None = None) -> None:
        if seat != self.seat:
            raise OnlineError(f"this board is seat {self.seat!r}'s at an online table; "
                              f"{shown(seat)} is another person's (R13.1)")

    def set_seat(self, seat: int | None) -> None:
        self.check_seat(seat)

    def check_bots(self, bots: Mapping[Any, Any], players: int | None = None) -> dict[int, str]:
        return {int(s): str(n) for s, n in dict(bots).items()}

    def set_bots(self, bots: Mapping[Any, Any]) -> None:
        if self.check_bots(bots) != self.bot_names:
            raise OnlineError("the server seats the bots of an online table (its host chose "
                              "them when creating it)")

    def set_pace(self, pace: Any) -> None:
        """Bots move at the server's pace (the host chose it): a pace set here changes nothing,
        and the board puts its own value back."""
        self.on_change()

    def replace_game(self, game: Game) -> None:
        raise OnlineError("an online table's game is the server's: it cannot be replaced")

    def new_game(self, options: Mapping[str, Any] | None = None) -> None:
        raise OnlineError(self.new_game_intent(options or {})["error"])

    def step_bots(self, limit: int | None = None) -> int:
        return 0  # the server moves its bots

    def bot_to_move(self) -> int | None:
        seat = self.to_move
        return seat if seat is not None and seat in self.bot_names else None

    def __repr__(self) -> str:
        who = "spectator" if self.seat is None else f"seat {self.seat}"
        return (f"<OnlineSeat {who} at {self.link.base} table {self.link.table}: "
                f"{self.connection}, move {self.move_number}>")
