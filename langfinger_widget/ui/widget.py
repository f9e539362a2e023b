"""``LangfingerWidget``: the game in JupyterLab, a thin glue between ``Game`` and the board.

The widget mirrors a :class:`~langfinger_widget.tables.table.Table` (the live
:class:`~langfinger_widget.kernel.game.Game`, its seats, bots, hints and Undo) into
synced traits: one seat's *redacted* picture (``view``, ``legal``,
``events``). The front end renders those and sends intents back as custom
messages; every intent is checked here as if it came from an adversary (wrong
seat, malformed, stale), so a refused intent leaves the game untouched and
sets ``error``. Nothing the shown seat may not see is ever put into a trait or
a message: the view and log come from ``Game.view(seat)``/``Game.log(seat)``,
and ``legal`` is sent only to the seat whose decision it is (another player's
legal actions would reveal their hand).

>>> import langfinger_widget as lf
>>> w = lf.LangfingerWidget(players=3, seed=7, seat=0, bots={1: "random", 2: "random"},
...                         autoplay=False)
>>> w.view["to_move"]  # the deal drew seat 0 to start (R1.0)
0
>>> w.play({"type": "place", "place": "museum"})
>>> w.step_bots()  # in a notebook, bots move by themselves at `pace` seconds a move
2
>>> w.view["to_move"]
0
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import Any, Protocol

import anywidget
import traitlets

from .. import games
from ..games.protocol import GameState
from ..kernel.errors import BadArgument
from ..kernel.game import Game
from ..kernel.limits import MAX_MESSAGE_BYTES, MAX_MESSAGE_DEPTH, too_big
from ..kernel.state import shown
from ..tables import runtime as platform
from ..tables.driver import BoardDriver
from ..tables.scheduler import MAX_PACE, Scheduler
from ..tables.table import (
    Reply,
    Table,
    TableError,
    check_pace,
    check_players,
    ok,
    panel_bots,
    refuse,
)
from .replay_mode import ReplayMode, SeatRefused

__all__ = ["MAX_PACE", "LangfingerWidget", "SeatError"]

STATIC = Path(__file__).parent.parent / "static"

# Shown instead of the board when the package was installed from a checkout
# without building the front end (``npm run build``), rather than failing to import.
_MISSING_BUNDLE_ESM = """
export default { render({ el }) {
  el.textContent = "Langfinger: the front-end bundle is not built (run `npm run build`).";
} };
"""

MESSAGE_KINDS = ("act", "why", "hint", "undo", "new_game", "reveal", "puzzle_hint", "puzzle_reset",
                 "replay", "online_link")
# The `events` trait carries the most recent events only, so that one update stays small late
# in a game; the whole log is `w.game.log(seat)` in Python.
LOG_LIMIT = 30


class SeatError(traitlets.TraitError, BadArgument):
    """A seat, pace or bot setting the game cannot take (a ValueError, as any bad argument)."""


class PuzzleSession(Protocol):
    """What the widget needs of a puzzle being played (``lf.puzzles.PuzzleSession``)."""

    @property
    def seat(self) -> int: ...

    @property
    def over(self) -> bool: ...

    def hint(self) -> str: ...

    def reset(self) -> None: ...

    def refused(self, reason: str) -> None: ...

    def panel(self) -> dict[str, Any]: ...

    def round_end(self, seat: int | None) -> tuple[dict[str, Any], list[Any]] | None: ...

    def shown(self, view: dict[str, Any], state: Any = None) -> dict[str, Any]: ...


class LangfingerWidget(ReplayMode, anywidget.AnyWidget):
    """A clickable board for one seat, the open board, or hot-seat play, of any registered game.

    ``game`` is a game in progress (Langfinger's ``lf.Game``, or any game of ``lf.games``),
    a registered game's name (``game="crooks"``: a new deal of ``players`` from ``seed``),
    or None for a new Langfinger game. The board drawn follows the view's format: Langfinger's,
    or Crooks' (``crooks-view/1``, docs/crooks.md).

    ``seat=k`` shows what player ``k`` may see; ``seat=None`` shows everything
    (teaching). Seats in ``bots`` (a level, ``easy`` to ``expert``, or a bot
    name) are played at ``pace`` seconds a move on the kernel's event loop;
    with no ``bots``, a seat's board plays against ``medium`` bots and the open
    board is all human. With several human seats the board is passed around:
    the front end covers it and asks the next player to ``reveal``. Seats,
    bots, hints and Undo (R12) are the :class:`~langfinger_widget.tables.table.Table`'s
    (``w.table``); the widget mirrors it into traits and passes intents on.
    Once the game is over, its end screen replays it on this same board
    (:class:`~langfinger_widget.ui.replay_mode.ReplayMode`). A lesson's board
    gives ``until`` (``"act"``: once every token is down; ``"round"``: once the
    next round begins): there it holds, and Undo takes the learner back.
    """

    _esm = STATIC / "widget.js" if (STATIC / "widget.js").is_file() else _MISSING_BUNDLE_ESM
    _css = STATIC / "widget.css" if (STATIC / "widget.css").is_file() else ""

    view = traitlets.Dict().tag(sync=True)
    legal: traitlets.List[Any] = traitlets.List().tag(sync=True)
    # The shown seat's recent events (not `log`: ipywidgets keeps its logger there).
    events: traitlets.List[Any] = traitlets.List().tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    seat = traitlets.Int(0, allow_none=True).tag(sync=True)
    pace = traitlets.Float(0.6).tag(sync=True)
    bots = traitlets.Dict().tag(sync=True)
    human_seats: traitlets.List[Any] = traitlets.List().tag(sync=True)
    highlight = traitlets.Dict().tag(sync=True)
    hint = traitlets.Dict().tag(sync=True)
    # Actions played so far: an intent may quote it, and is refused as stale if the board moved on.
    move_number = traitlets.Int(0).tag(sync=True)
    # Game.version: changes on every play and undo, so an intent can quote the exact position.
    version = traitlets.Int(0).tag(sync=True)
    # Whether the board's Undo may be pressed now, and if not the ruling why (R12).
    undo_status = traitlets.Dict().tag(sync=True)
    # What the board's New game panel starts from and offers (Table.setup).
    setup = traitlets.Dict().tag(sync=True)
    # The puzzle being played on this board ({} otherwise): its name, goal, ruling, status and
    # the hints asked for so far, never its solution (PuzzleSession.panel).
    puzzle = traitlets.Dict().tag(sync=True)
    # Once the game is over, what each player did and the loot left unsold (figures.figures,
    # from the shown seat's log); [] while the game is being played.
    figures: traitlets.List[Any] = traitlets.List().tag(sync=True)
    # When the board plays at a game server's table (lf.online): the connection, the table,
    # its status and the invites this board handed out, without their secrets (a saved
    # notebook keeps this; the board asks for a whole link by message); {} for a game here.
    online = traitlets.Dict().tag(sync=True)

    # The only trait the front end may change directly; everything else moves by message.
    _FRONT_END_WRITABLE = frozenset({"pace"})

    def __init__(
        self,
        game: Game | GameState | str | None = None,
        players: int = 3,
        seed: int | None = None,
        seat: int | None = 0,
        bots: Mapping[int | str, str] | None = None,
        *,
        pace: float = 0.6,
        autoplay: bool = True,
        variant: str = "standard",
        scheduler: Scheduler | None = None,
        table: BoardDriver | None = None,
        until: str | None = None,
        **kwargs: Any,
    ) -> None:
        self._ready = False  # observers stay quiet until the table is set up
        self._syncs = 0  # pictures put into the traits so far (a nested one supersedes)
        self._puzzle: PuzzleSession | None = None
        # Where "Play online" creates tables: a server's URL, or None for one started here.
        self.online_server: str | None = None
        self.table: BoardDriver
        if table is not None:  # a table driven elsewhere: a seat at a server's (lf.online)
            self.table, seat = table, table.seat
            table.on_change, table.on_message = self._sync, self._send_later
        else:
            seating: dict[str, Any] = {
                "seat": seat, "bots": bots, "pace": pace, "autoplay": autoplay,
                "scheduler": scheduler, "on_change": self._sync, "on_message": self._send_later,
                "until": until}
            try:
                if isinstance(game, str):  # a registered game by name (lf.games.names())
                    options = {"variant": variant} if variant != "standard" else {}
                    self.table = Table.new(game, players=players, seed=seed, options=options,
                                           **seating)
                else:
                    self.table = Table[Any](
                        game if game is not None else Game.new(players, seed, variant=variant),
                        seed=seed, **seating)
            except TableError as exc:
                raise SeatError(str(exc)) from None
        super().__init__(pace=self.table.pace, seat=seat, **kwargs)
        self.on_msg(self._on_custom_msg)
        self._ready = True
        self._sync()

    # --- the Python API -------------------------------------------------------------------
    @property
    def game(self) -> Game:
        """The live game. Change it through the widget (``play``, ``undo``) so the board follows."""
        return self.table.game

    @game.setter
    def game(self, game: Game) -> None:
        try:
            self.table.replace_game(game)
        except TableError as exc:
            raise BadArgument(str(exc)) from None

    def play(self, action: dict[str, Any]) -> None:
        """Play ``action`` for whoever is to move (Python is trusted: any seat, bots too).

        Raises :class:`~langfinger_widget.IllegalAction`, leaving the game as it was.
        """
        self.table.play(action, by="python")

    def undo(self) -> None:
        """Take back the shown seat's last decision and the bot moves after it, as the board's
        Undo does (R12: never past a card that seat has seen, never another human's move).

        The all-human open board and puzzles take back without limit (R12.3); the open board
        with a bot seated stops at every card it showed drawn (R12.4); ``w.game.undo()``
        followed by ``w.refresh()`` is the unlimited script path. Raises ``IllegalAction``.
        """
        self.table.undo()

    @property
    def puzzle_session(self) -> PuzzleSession | None:
        """The puzzle played on this board (see ``Puzzle.widget``), or None."""
        return self._puzzle

    def attach_puzzle(self, session: PuzzleSession) -> None:
        """Make this the board of a puzzle (``PuzzleSession.attach`` calls it).

        Only the puzzle's seat is human: the session answers for the rivals,
        so they are neither bots nor hot-seat players, and undo takes back
        their answers with the reader's move.
        """
        self._puzzle = session
        self.table.puzzle = session
        self.table.set_bots({})
        self.puzzle = session.panel()
        self._sync()

    def show_puzzle(self, panel: dict[str, Any]) -> None:
        """Put the puzzle panel into the ``puzzle`` trait (the session calls it after each move)."""
        self.puzzle = panel
        self._sync()  # a finished puzzle takes the reader's choices away

    def new_game(self, seed: int | None = None, **options: Any) -> None:
        """Deal a new game: the same seats, bots and variant unless ``options`` say otherwise
        (``players``, ``seat``, ``bots``, ``variant``, as the board's New game panel)."""
        try:
            self.table.new_game({**options, "seed": seed})
        except TableError as exc:
            raise BadArgument(str(exc)) from None

    def save(self) -> dict[str, Any]:
        """The position as a dict (``Game.to_dict``): give it to :meth:`load` to continue."""
        return self.game.to_dict()

    @classmethod
    def load(cls, position: Mapping[str, Any], **kwargs: Any) -> LangfingerWidget:
        """A widget continuing a saved position (``lf.InvalidState`` if it cannot exist)."""
        return cls(game=Game.from_dict(dict(position)), **kwargs)

    # --- records (docs/records.md) -------------------------------------------------------------
    def record_text(self, seat: int | str | None = "board") -> str:
        """This game as a record, its seats' bots named in the header.

        ``seat="board"`` writes what this board may show: everything on the open
        board or once the game is over, else only what the shown seat saw.
        """
        if self._replay is not None:  # the record being replayed, as read
            return self._replay.record.text
        if seat == "board":
            seat = None if self.table.seat is None or self.game.is_over else self.table.seat
        if not isinstance(self.game, Game):  # any other registered game: records/any_game.py
            from ..records import write_game

            if isinstance(seat, str):
                raise BadArgument(f"seat must be None, a seat number or 'board', not {seat!r}")
            return write_game(self.game, bots=self.table.bot_names, seat=seat)
        return self.game.record(seat, bots=self.table.bot_names)

    def save_record(self, path: str | Path, seat: int | str | None = "board") -> Path:
        """Write :meth:`record_text` to ``path`` (UTF-8 text; ``.lfr`` by convention)."""
        target = Path(path)
        target.write_text(self.record_text(seat), encoding="utf-8")
        return target

    @classmethod
    def load_record(cls, source: str | Path, **kwargs: Any) -> LangfingerWidget:
        """A live board playing on from the end of a record (a file path or the record's
        text), every decision checked (``lf.RecordError``). ``kwargs`` go to the widget;
        without ``bots`` the record's bot seats are bots again. Any registered game's full
        record plays on too (``lf.records.write_game``)."""
        from ..bots import names
        from ..tables.replay import replay_record

        rec = replay_record(source)
        kwargs.setdefault("seat", rec.seat if rec.seat is not None else 0)
        if "bots" not in kwargs:  # a bot the table cannot seat (an arena label) plays as medium
            bots: list[str | None] = [s.bot for s in rec.header.seats]
            kwargs["bots"] = {i: bot if bot in names() else "medium"
                              for i, bot in enumerate(bots)
                              if bot is not None and i != kwargs["seat"]}
        return cls(game=rec.game(), **kwargs)

    @classmethod
    def replay(cls, record: Any, seat: int | str | None = "record", **kwargs: Any) -> Any:
        """The board, read-only, replaying ``record`` (text, path or ``lf.records.Record``)
        with a scrubber, seen from ``seat`` or from above (``None``, full records only).
        See :class:`~langfinger_widget.ui.replay.ReplayWidget`."""
        from .replay import ReplayWidget

        return ReplayWidget(record, seat, **kwargs)

    def step_bots(self, limit: int | None = None) -> int:
        """Play pending bot moves now, in this call (no pace); return how many were played.

        With ``autoplay=False``, or in a script with no event loop, this is how
        bots move. Stops at a human's decision, at the end of the game, or
        after ``limit`` moves.
        """
        return self.table.step_bots(limit)

    def wait_for_bots(self, timeout: float = 30.0) -> bool:
        """Let the bots finish their moves before going on; True when a human (or nobody) is
        to move. Within a notebook cell the event loop cannot run, so the pending bot moves
        are played here and now, without pace. ``timeout`` is kept for older scripts."""
        self.table.step_bots()
        return self.table.bot_to_move() is None

    def refresh(self) -> None:
        """Re-read the game into the traits (after changing ``w.game`` behind the widget's back)."""
        self.table.replace_game(self.table.game)

    def _new_board(self, game: Game | GameState, **kwargs: Any) -> LangfingerWidget:
        """A new live board on ``game`` (the replay's "Continue from here" in a new board)."""
        return LangfingerWidget(game=game, **kwargs)

    def close(self) -> None:
        """Close the widget; its bots and hint searches stop."""
        self._stop()
        table = getattr(self, "table", None)  # absent when __init__ refused its arguments
        if table is not None:
            table.close()
        super().close()

    # --- messages from the front end ------------------------------------------------------
    def _handle_msg(self, msg: dict[str, Any]) -> None:
        """Every comm message from the page (intents, trait writes), on the game's own thread.

        ipykernel 7 runs a comm's handler on a subshell thread when the front end
        sends comms over subshells (JupyterLab 4.6's and Notebook 7.6's default):
        handled there, a bot's ``call_later`` would sit on an event loop nobody
        wakes, and the game would change on two threads. So the message is handed
        to the thread that owns the table's loop, which it wakes.
        """
        self.table.scheduler.run_on_owner(partial(super()._handle_msg, msg))

    def _on_custom_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        self.handle_message(platform.from_page(content))  # Pyodide: JS null arrives as jsnull

    def _send_later(self, reply: Reply) -> None:
        if not self.table.closed:
            self.send(_strict_json(reply))

    def handle_message(self, content: Any) -> dict[str, Any]:
        """Answer one intent from the front end (as if from an adversary) and send the reply.

        Returns the reply that was sent. A refused intent sets ``error`` and
        changes nothing else. A message larger than ``MAX_MESSAGE_BYTES`` or
        nested deeper than ``MAX_MESSAGE_DEPTH`` (``limits.py``) is refused
        before anything reads it.
        """
        problem = too_big(content)  # before anything reads it (and echoes it back)
        answer = self._dispatch(content) if problem is None else refuse(
            f"message refused: {problem} (a board's intent holds at most {MAX_MESSAGE_BYTES} "
            f"bytes, {MAX_MESSAGE_DEPTH} levels deep)")
        reply: dict[str, Any] = _strict_json(answer)
        if reply.get("kind") == "result" and not reply["ok"]:
            self.table.error = reply["error"]
            self._sync()
        self.send(reply)
        return reply

    def _dispatch(self, content: Any) -> Reply:
        if self._replay is not None:
            return self._dispatch_replay(content)
        table = self.table
        if not isinstance(content, dict):
            return refuse(f"not a message: expected an object, got {type(content).__name__}")
        kind = content.get("kind")
        if kind not in MESSAGE_KINDS:
            return refuse(f"unknown message kind {shown(kind)}; expected one of "
                          f"{list(MESSAGE_KINDS)}")
        if kind == "act":
            return table.act(content)
        if kind == "why":
            return table.why(content)
        if kind in ("puzzle_hint", "puzzle_reset"):
            return self._msg_puzzle(kind)
        if kind == "hint":
            return table.hint_intent()
        if kind == "undo":
            return table.undo_intent()
        if kind == "new_game":
            if content.get("online") is True:
                return self._msg_play_online(content)
            return table.new_game_intent(content)
        if kind == "replay":
            return self._msg_replay(content)
        if kind == "online_link":
            return self._msg_online_link(content)
        return table.reveal(content)

    def _msg_online_link(self, content: dict[str, Any]) -> Reply:
        """One invite or the spectators' link, secret and all, for the person who asked to see
        or copy it: a reply, never a trait, so that a saved notebook keeps no secret."""
        which = content.get("which")
        full = getattr(self.table, "full_link", None)
        link = full(which) if callable(full) else None
        if not isinstance(link, str):
            return refuse(f"no link {shown(which)} on this board: it hands out the invites of "
                          "a table it created (Play online)")
        return {"kind": "online_link", "which": which, "link": link}

    def _msg_play_online(self, content: dict[str, Any]) -> Reply:
        """The New game panel's "Play online": a table on a server with the panel's choices."""
        options = {k: v for k, v in content.items() if k not in ("kind", "online")}
        if "server" in options:  # the kernel is told where to connect by Python, not the page
            return refuse("play online: the page does not choose the server; Python does "
                          "(w.online_server)")
        try:
            self.play_online(**options)
        except ValueError as exc:  # bad choices, an unreachable server: said on the board
            return refuse(str(exc))
        return ok()

    def play_online(self, server: str | None = None, **options: Any) -> None:
        """Move this board to a new table on a game server (docs/online.md), with the New game
        panel's choices: ``game`` (any of ``lf.games.names()``), ``players``, ``seat``
        (yours), ``bots`` ({seat: level}) and the game's own options (Langfinger's
        ``variant``), each by default this board's. Every other seat is a person's: their
        invites are in ``w.online["invites"]`` and on the board. ``server`` is a URL (by
        default ``w.online_server``, else a server started on this machine)."""
        from ..net.hosting import host
        from ..net.seat import OnlineSeat

        setup = self.table.setup()
        # The New game panel names its game (this board's by default); the server deals any.
        game = options.get("game", setup["game"])
        if not isinstance(game, str) or game not in games.names():
            raise BadArgument(f"play online: no game {shown(game)}; the games are "
                              f"{', '.join(games.names())}")
        spec = games.get(game)
        unknown = sorted(set(options) - {"players", "seat", "bots", "seed", "game"}
                         - set(spec.options))
        if unknown:
            raise BadArgument(f"play online: unknown option(s) {unknown} for {spec.title}")
        if options.get("seed") is not None:
            raise BadArgument("an online table is dealt by the server from a secret seed "
                              "(R13.1): leave the seed empty")
        players = options.get("players", setup["players"])
        check_players(players, spec)
        seat = options.get("seat", setup["seat"])
        if seat is None or isinstance(seat, bool) or not isinstance(seat, int):
            raise BadArgument("an online table is played from one seat: choose yours, not the "
                              "open board")
        Table.check_seat(seat, players)
        bots = {s: name for s, name in panel_bots(options.get("bots", setup["bots"]),
                                                  players).items() if s != seat}
        own = {key: options.get(key, setup.get(key, choices[0]))
               for key, (choices, _) in spec.options.items()}
        made = host(players, server or self.online_server, bots=bots, game=game, **own)
        seat_at = OnlineSeat(made.invites[seat], scheduler=self.table.scheduler)
        seat_at.invites = {s: link for s, link in made.invites.items() if s != seat}
        seat_at.watch_link = made.watch
        old, self.table = self.table, seat_at
        seat_at.on_change, seat_at.on_message = self._sync, self._send_later
        old.close()
        self._sync()

    def _msg_replay(self, content: dict[str, Any]) -> Reply:
        """The end screen's "Replay this game" and "Analyse my game": this board switches into
        replay mode on its own record (no second widget: marimo could not show one made
        here), until the page asks to leave it (``replay_leave``)."""
        analyse = content.get("analyse", False)
        if not isinstance(analyse, bool):
            return refuse(f"analyse must be true or false, not {shown(analyse)}")
        try:
            self.replay_this_game(analyse)
        except ValueError as exc:
            return refuse(str(exc))
        return ok()

    def _msg_puzzle(self, kind: str) -> Reply:
        session = self._puzzle
        if session is None:
            return refuse(f"{kind}: this board is not playing a puzzle")
        if kind == "puzzle_reset":
            session.reset()
            self.table.error = ""
            self._sync()
            return {"kind": "result", "ok": True, "error": ""}
        if self.puzzle.get("hints_left", 0) <= 0:
            # Not an error on the board: the button is simply spent.
            return {"kind": "puzzle_hint", "hint": None, "error": "every hint is already shown"}
        return {"kind": "puzzle_hint", "hint": session.hint(), "error": ""}

    # --- keeping the traits in step -------------------------------------------------------
    def _sync(self) -> None:
        """Put the table's picture for the shown seat into the traits, in one message."""
        if not self._ready:
            return
        if self._replay is not None:
            with self.hold_sync():
                for name, value in self._replay_traits(self._replay).items():
                    setattr(self, name, value[-LOG_LIMIT:] if name == "events" else value)
            return
        table = self.table
        picture = table.picture()
        # A puzzle ends with its round: the board stops there, before the next round's deal.
        ended = self._puzzle.round_end(table.seat) if self._puzzle is not None else None
        view, log = ended or (picture["view"], picture["events"])
        if self._puzzle is not None and ended is None:
            view = self._puzzle.shown(view)  # the fronts the puzzle tells its reader (R11.1)
        traits = {
            "seat": table.seat, "pace": table.pace,
            "bots": {str(s): n for s, n in table.bot_names.items()},
            "human_seats": table.human_seats, "error": table.error, "hint": table.hint,
            "highlight": table.highlight, "move_number": picture["move_number"],
            "version": picture["version"], "view": view, "events": log[-LOG_LIMIT:],
            "legal": picture["legal"],  # only the decider's (Table.picture)
            "undo_status": picture["undo_status"],
            "setup": {**picture["setup"], "allow_online": self._online_allowed()},
            "figures": picture["figures"], "online": picture.get("online", {}),
        }
        self._syncs += 1
        this = self._syncs
        with self.hold_sync():
            for name, value in traits.items():
                setattr(self, name, value)
                # An observer moved the game on (a puzzle's rivals answer a new move_number)
                # and synced it anew: the rest of this picture is stale.
                if self._syncs != this:
                    return

    def _online_allowed(self) -> bool:
        """Whether the New game panel offers "Play online": not for a puzzle, and in
        JupyterLite (no server can start there) only with ``w.online_server`` set."""
        return self._puzzle is None and (self.online_server is not None
                                         or not platform.in_pyodide())

    @traitlets.validate("seat")
    def _valid_seat(self, proposal: Any) -> int | None:
        seat = proposal["value"]
        try:
            self.table.check_seat(seat, self.table.players)
            self._check_replay_seat(seat)
        except (TableError, SeatRefused) as exc:
            raise SeatError(str(exc)) from None
        return seat  # type: ignore[no-any-return]

    @traitlets.validate("bots")
    def _valid_bots(self, proposal: Any) -> dict[str, str]:
        try:
            wanted = self.table.check_bots(dict(proposal["value"]))
        except TableError as exc:
            raise SeatError(str(exc)) from None
        return {str(s): n for s, n in wanted.items()}

    @traitlets.validate("pace")
    def _valid_pace(self, proposal: Any) -> float:
        try:
            return check_pace(proposal["value"])
        except TableError as exc:
            raise SeatError(str(exc)) from None

    # Python may set `seat` (whose board is shown), `bots` (`w.bots = {2: "hard"}` hands seats
    # to bots, or back to people) and `pace`: the table follows; _sync puts back the same values.
    @traitlets.observe("seat")
    def _seat_changed(self, change: Any) -> None:
        replay = self._replay
        if replay is not None:  # whose eyes replay the record; the live game keeps its seat
            if replay.seat != change["new"]:
                try:  # traitlets skips validators for None: a seat's record refuses it here
                    self._check_replay_seat(change["new"])
                except SeatRefused as exc:
                    self.seat = change["old"]
                    raise SeatError(str(exc)) from None
                replay.seat = change["new"]
            return
        if self._ready:
            self.table.set_seat(change["new"])

    @traitlets.observe("bots")
    def _bots_changed(self, change: Any) -> None:
        if self._ready and self.table.check_bots(change["new"]) != self.table.bot_names:
            self.table.set_bots(change["new"])

    @traitlets.observe("pace")
    def _pace_changed(self, change: Any) -> None:
        if self._ready and change["new"] != self.table.pace:
            self.table.set_pace(change["new"])

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """State sent by the front end: only a valid ``pace`` may change; the rest is put back.

        A page could otherwise set ``seat`` (and see another hand) or write a
        ``view``; intents go through messages, which are validated. Each
        refused write is answered once: ``error`` says why, and the page gets
        the kernel's values back.
        """
        allowed = {k: v for k, v in sync_data.items() if k in self._FRONT_END_WRITABLE}
        refused = sorted(set(sync_data) - set(allowed))
        problems = [f"the board may not change {', '.join(refused)} directly"] if refused else []
        if "pace" in allowed:
            try:
                check_pace(allowed["pace"])
            except TableError as exc:
                problems.append(str(exc))
                refused.append("pace")
                del allowed["pace"]
        if allowed:
            super().set_state(allowed)
        if problems:
            self.table.error = "; ".join(problems)
            self._sync()
            traits = sorted(name for name in refused if name in self.keys)  # synced ones
            if traits:
                self.send_state(traits)  # put the page back in step with the kernel


def _strict_json(value: Any) -> Any:
    """``value`` with every non-finite number replaced by None: replies are strict JSON."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _strict_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_strict_json(v) for v in value]
    return value
