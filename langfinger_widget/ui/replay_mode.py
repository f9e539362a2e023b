"""The board in replay mode: a record, read-only, moved by a scrubber (``ReplayMode``).

Every board can switch into it: :class:`~langfinger_widget.ui.replay.ReplayWidget`
starts in it, and a live board enters it from its end screen ("Replay this game",
:meth:`ReplayMode.replay_this_game`) and leaves it again ("Back to the end
screen"). It is the same board, the same comm and the same traits, with two more:
``scrubber`` (where the replay is: index, length, round starts, playing, pace)
and ``timeline`` (each decision's words, everyone's money after each decision,
and the evaluation graph once a seat is analysed). No second widget is made, so
it works wherever the board does (marimo makes no widget outside a cell's run).

The page moves the replay with intents, each checked like any other:

=====================  ===========================================================
``replay_seek``        ``{"index": i}``: go to position i (0 .. length)
``replay_step``        ``{"delta": 1 | -1}``: one decision forward or back
``replay_round``       ``{"direction": 1 | -1}``: the next round's start, or this one's
``replay_play``        ``{"pace": seconds}`` (optional): play on at a pace
``replay_pause``       stop playing
``replay_pace``        ``{"pace": seconds}``: the pace, playing or not
``replay_seat``        ``{"seat": k | null}``: whose eyes (full records only)
``replay_analyse``     ``{"seat": k, "bot": "hard"}``: rate a seat's decisions, on the loop
``replay_continue``    ``{"seat": k | null, "bots": {"1": "medium"}}``: play on from here
``replay_puzzle``      a puzzle skeleton from here (the reply carries its Python)
``replay_leave``       back to the live game the replay was made from (its end screen)
=====================  ===========================================================

Every other intent (a move, undo, hint, new game) is refused: a replay is
read-only until "Continue from here" turns the board into a live game.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import traitlets

from ..bots import LEVELS, names
from ..games.protocol import GameState
from ..kernel.cards import SCOUNDRELS
from ..kernel.errors import BadArgument, InvalidState
from ..kernel.game import Game
from ..kernel.state import shown
from ..puzzles.draft import PuzzleDraft
from ..records import GameRecord, Record, read_game, write_game
from ..study.analysis import analysis_steps
from ..tables.driver import BoardDriver
from ..tables.replay import DEFAULT_PACE, ProtocolRecord, Replay, replay_record
from ..tables.scheduler import Slices
from ..tables.table import Reply, TableError, ok, refuse

REPLAY_KINDS = ("replay_seek", "replay_step", "replay_round", "replay_play", "replay_pause",
                "replay_pace", "replay_seat", "replay_analyse", "replay_continue",
                "replay_puzzle", "replay_leave")
CHART_MARKS = tuple(SCOUNDRELS)  # a seat's colour and shape in the charts, in seat order
READ_ONLY = "a replay is read-only: press Continue from here to play on from this position"


class SeatRefused(traitlets.TraitError, BadArgument):
    """A seat the replay's record may not be seen from (``SeatError`` for the widget)."""


class ReplayMode(traitlets.HasTraits):
    """A board's replay mode; mixed into :class:`~langfinger_widget.ui.widget.LangfingerWidget`.

    It leans on the board for ``table``, ``_sync`` and ``_ready`` (the board's
    own), and keeps the live game untouched in ``table`` while it replays: leaving
    the replay shows that game again.
    """

    # Where the replay is (index, length, round starts, playing, pace, seats); {} when live.
    scrubber = traitlets.Dict().tag(sync=True)
    # Each decision's words, the money after each decision and the evaluation; {} when live.
    timeline = traitlets.Dict().tag(sync=True)

    table: BoardDriver
    _ready: bool
    _replay: Replay | None = None
    _analysis: Slices[list[dict[str, Any]]] | None = None
    # Whether leaving the replay goes back to a live game (a finished game's end screen).
    _replay_leaves = False
    puzzle_draft: PuzzleDraft | None = None

    def _sync(self) -> None:  # the board's own
        raise NotImplementedError

    # The board's own (no import cycle).
    def _new_board(self, game: Game | GameState, **kwargs: Any) -> Any:
        raise NotImplementedError

    # --- entering and leaving ---------------------------------------------------------------
    def enter_replay(self, record: Record | ProtocolRecord | GameRecord | str | Path,
                     seat: int | str | None = "record", *,
                     pace: float = DEFAULT_PACE, analysis: list[dict[str, Any]] | None = None,
                     leaves: bool = False) -> None:
        """Show ``record`` on this board, read-only, seen from ``seat`` (``"record"``: the
        record's own seat; None: from above, full records only). ``leaves``: the page may
        go back to the live game (:meth:`leave_replay`). Raises ``ValueError`` for a seat
        the record may not be seen from, changing nothing. Any registered game's full
        record replays (``records.write_game``), on that game's own board."""
        rec = replay_record(record)
        shown = rec.seat if seat == "record" else seat
        if isinstance(shown, str):
            raise SeatRefused(f"seat must be None, a seat number or 'record', not {shown!r}")
        try:
            replay = Replay(rec, shown, pace=pace, scheduler=self.table.scheduler)
        except ValueError as exc:
            raise SeatRefused(str(exc)) from None
        self._stop()
        replay.on_change = self._sync
        self._replay = replay
        self._replay_leaves = leaves
        self.puzzle_draft = None
        self.timeline = self._timeline(analysis)
        self._sync()

    def replay_this_game(self, analyse: bool = False) -> None:
        """The end screen's "Replay this game" (and "Analyse my game"): this board replays
        its own finished game, seen by the shown seat, until :meth:`leave_replay`."""
        game = self.table.game
        if not game.is_over:
            raise BadArgument("R10.1: a game is replayed from the end screen, once it is over")
        seat = self.table.seat
        record: Record | ProtocolRecord | str
        if isinstance(game, Game):
            record = game.record(None, bots=self.table.bot_names)
        else:  # any other registered game: its full record, through the protocol
            record = ProtocolRecord(read_game(write_game(game, bots=self.table.bot_names)))
        self.enter_replay(record, seat, leaves=True)
        if analyse:  # the board's own analysis: its panel shows the progress
            humans = self.table.human_seats
            mine = seat if seat is not None else (humans[0] if humans else 0)
            started = self._analyse_intent({"seat": mine})
            if not started.get("ok"):
                raise BadArgument(f"the analysis could not start: {started.get('error')}")

    def leave_replay(self) -> None:
        """Back to the live game the replay was made from (nothing changed in it)."""
        if self._replay is None:
            raise BadArgument("this board is not replaying")
        self._stop()
        self._sync()

    # --- the Python API -------------------------------------------------------------------
    @property
    def replaying(self) -> Replay | None:
        """The replay on the board, or None while it plays live."""
        return self._replay

    @property
    def record(self) -> Record | ProtocolRecord:
        if self._replay is None:
            raise BadArgument("this board plays on live; its record is w.game.record(...)")
        return self._replay.record

    def show_analysis(self, rows: list[dict[str, Any]]) -> None:
        """Draw ``lf.analyse`` rows as the evaluation graph under the board."""
        self.timeline = self._timeline(rows)

    def analyse(self, seat: int, bot: Any = "hard", **options: Any) -> list[dict[str, Any]]:
        """Rate ``seat``'s decisions now (``lf.analyse``), show the graph, return the rows."""
        from ..study.analysis import analyse

        rec = self.record
        rows: list[dict[str, Any]] = analyse(
            rec.source if isinstance(rec, ProtocolRecord) else rec, seat, bot, **options)
        self.show_analysis(rows)
        return rows

    def continue_from_here(self, **kwargs: Any) -> Any:
        """A new live board from the replay's position (``kwargs`` as for the widget: seat,
        bots, pace...); the replay stays as it is."""
        replay = self._live_replay()
        kwargs.setdefault("seat", replay.seat)
        kwargs.setdefault("bots", self._default_bots(kwargs["seat"]))
        return self._new_board(replay.game(), **kwargs)

    def continue_here(self, seat: int | str | None = "replay",
                      bots: Mapping[Any, str] | None = None) -> None:
        """Turn this board into a live game from the replay's position ("Continue from here").

        Raises ``ValueError`` (nothing changes) for a seat or bot the table cannot take.
        """
        replay = self._live_replay()
        shown = replay.seat if seat == "replay" else seat
        if isinstance(shown, str):
            raise SeatRefused(f"seat must be None, a seat number or 'replay', not {shown!r}")
        game = replay.game()
        if game.is_over:
            raise BadArgument("R10.1: the game is over here; step back to play on")
        try:
            self.table.check_seat(shown, game.num_players)
            wanted = self.table.check_bots(self._default_bots(shown) if bots is None else bots,
                                           game.num_players)
        except TableError as exc:
            raise SeatRefused(str(exc)) from None
        self._stop()
        self.table.replace_game(game)
        self.table.set_seat(shown)
        self.table.set_bots(wanted)

    def make_puzzle(self) -> PuzzleDraft:
        """A puzzle skeleton from this position, kept as ``w.puzzle_draft``."""
        self.puzzle_draft = self._live_replay().puzzle_draft()
        return self.puzzle_draft

    # --- helpers ----------------------------------------------------------------------------
    def _live_replay(self) -> Replay:
        if self._replay is None:
            raise BadArgument("this board already plays on live")
        return self._replay

    def _stop(self) -> None:
        if self._analysis is not None:
            self._analysis.cancel()
            self._analysis = None
        if self._replay is not None:
            self._replay.close()
        self._replay = None
        self._replay_leaves = False
        self.scrubber, self.timeline = {}, {}

    def _check_replay_seat(self, seat: Any) -> None:
        """:class:`SeatRefused` unless the replay's record may be seen from ``seat``."""
        if self._replay is not None:
            try:
                self._replay._check_seat(seat)
            except ValueError as exc:
                raise SeatRefused(str(exc)) from None

    def _default_bots(self, seat: Any) -> dict[int, str]:
        """The record's bots play on (an unknown bot label as a middle level), never the seat
        shown; a seat's board with no bots in the record plays against middle-level bots."""
        bots: list[str | None] = [s.bot for s in self.record.header.seats]
        robots = {i: bot if bot in names() else "medium"
                  for i, bot in enumerate(bots) if bot is not None and i != seat}
        if not robots and seat is not None:
            robots = {i: "medium" for i in range(len(bots)) if i != seat}
        return robots

    def _timeline(self, rows: list[dict[str, Any]] | None) -> dict[str, Any]:
        replay = self._live_replay()
        seats: list[Any] = list(replay.record.header.seats)  # Langfinger's or another game's
        evaluation = None
        if rows:
            evaluation = {"seat": rows[0]["seat"], "points": [
                {k: r[k] for k in ("index", "decision", "move", "before", "after", "best",
                                   "best_chance", "loss", "doubtful", "too_late")}
                for r in rows]}
        return {
            "labels": replay.labels,
            "money": replay.money(),
            # The charts draw each seat in its scoundrel's colour and shape; a game without
            # scoundrels (Crooks) lends them in seat order.
            "seats": [{"name": s.name, "scoundrel": s.scoundrel or CHART_MARKS[i], "bot": s.bot}
                      for i, s in enumerate(seats)],
            "evaluation": evaluation,
        }

    def _scrubber(self, replay: Replay) -> dict[str, Any]:
        header = replay.record.header
        i = replay.index
        return {
            "index": i, "length": replay.length, "rounds": replay.round_starts,
            "playing": replay.playing, "pace": replay.pace, "seat": replay.seat,
            "record_seat": replay.record.seat,
            "label": replay.labels[i - 1] if i else "the start",
            "caption": replay.caption(),
            "next": replay.labels[i] if i < replay.length else "",
            "can_continue": replay.view()["to_move"] is not None,
            "can_leave": self._replay_leaves,
            "puzzles": isinstance(replay.record, Record),  # puzzles are Langfinger's
            "levels": list(LEVELS),
            "bots": {str(k): v for k, v in self._default_bots(replay.seat).items()},
            "date": header.date,
            "analysing": self.scrubber.get("analysing") if self._analysis is not None else None,
        }

    def _replay_traits(self, replay: Replay) -> dict[str, Any]:
        """What the board shows while it replays (its live game is left as it is)."""
        table = self.table
        return {
            "seat": replay.seat, "error": table.error, "human_seats": [], "hint": {},
            "highlight": replay.last_decision(), "move_number": replay.index,
            "view": replay.view(), "events": replay.log(), "legal": [],
            "undo_status": {"allowed": False, "reason": READ_ONLY},
            "setup": {**table.setup(), "allow_new_game": False},
            "scrubber": self._scrubber(replay), "figures": [],
        }

    # --- intents from the page -------------------------------------------------------------
    def _dispatch_replay(self, content: Any) -> Reply:
        if not isinstance(content, dict):
            return refuse(f"not a message: expected an object, got {type(content).__name__}")
        kind = content.get("kind")
        if kind not in REPLAY_KINDS:
            return refuse(f"{READ_ONLY} ({shown(kind)} refused)")
        try:
            return self._replay_intent(kind, content)
        except (ValueError, TypeError, KeyError) as exc:  # whatever the page sent: an answer
            return refuse(str(exc))

    def _replay_intent(self, kind: str, content: Mapping[str, Any]) -> Reply:
        replay = self._live_replay()
        if kind == "replay_seek":
            replay.seek(content.get("index"))
        elif kind == "replay_step":
            delta = content.get("delta", 1)
            if delta not in (1, -1) or isinstance(delta, bool):
                raise BadArgument(f"a step is 1 or -1 decisions, not {shown(delta)}")
            replay.step(delta)
        elif kind == "replay_round":
            direction = content.get("direction", 1)
            if direction not in (1, -1) or isinstance(direction, bool):
                raise BadArgument(f"direction is 1 or -1, not {shown(direction)}")
            replay.round_start(direction)
        elif kind == "replay_play":
            replay.play(content.get("pace"))
        elif kind == "replay_pause":
            replay.pause()
        elif kind == "replay_pace":
            replay.set_pace(content.get("pace"))
        elif kind == "replay_seat":
            seat = content.get("seat")
            replay._check_seat(seat)
            self.seat = seat  # the board's trait: its observer moves the replay
        elif kind == "replay_analyse":
            return self._analyse_intent(content)
        elif kind == "replay_continue":
            bots = content.get("bots")
            if bots is not None and not isinstance(bots, dict):
                raise BadArgument(f"bots must map seats to levels, not {shown(bots)}")
            self.continue_here(content.get("seat", "replay"), bots)
            return ok()
        elif kind == "replay_leave":
            if not self._replay_leaves:
                raise BadArgument("this replay was not made from a live game: "
                                  "nothing to go back to")
            self.leave_replay()
            return ok()
        else:
            draft = self.make_puzzle()
            try:
                line, why = draft.line(), ""
            except InvalidState as exc:  # too big for the solver, or nothing to earn
                line, why = "", str(exc)
            return {"kind": "replay_puzzle", "source": draft.source(), "seat": draft.seat,
                    "line": line, "line_error": why, "error": ""}
        self.table.error = ""  # a refusal shown before is answered by moving on
        self._sync()
        return ok()

    def _analyse_intent(self, content: Mapping[str, Any]) -> Reply:
        """Rate a seat's decisions a slice at a time on the loop; the graph appears when done."""
        replay = self._live_replay()
        seat = content.get("seat", replay.seat)
        bot = content.get("bot", "hard")
        if not isinstance(bot, str) or bot not in LEVELS or bot in ("easy", "medium"):
            raise BadArgument(f"analysis uses a searching level (hard or expert), not {shown(bot)}")
        if self._analysis is not None:
            self._analysis.cancel()

        def progress(done: int, total: int) -> None:
            if self._replay is not None:
                self.scrubber = {**self.scrubber, "analysing": {"seat": seat, "done": done,
                                                                "total": total}}

        rec = replay.record
        steps = analysis_steps(rec.source if isinstance(rec, ProtocolRecord) else rec, seat, bot,
                               progress=progress)
        self._analysis = Slices(self.table.scheduler, steps, self._analysed, self._analysis_failed)
        self.scrubber = {**self.scrubber, "analysing": {"seat": seat, "done": 0, "total": None}}
        self._analysis.start()
        return ok()

    def _analysed(self, rows: list[dict[str, Any]]) -> None:
        self._analysis = None
        if self._replay is not None:
            self.show_analysis(rows)
            self._sync()

    def _analysis_failed(self, exc: Exception) -> None:
        self._analysis = None
        self.table.error = f"the analysis failed: {exc!r}"
        self._sync()
