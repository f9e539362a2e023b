"""``ReplayWidget``: the board, read-only, following a :class:`~.tables.replay.Replay`.

Made by ``lf.LangfingerWidget.replay(record, seat=None)``. It is the same
board (the same front end, the same traits) with two more: ``scrubber``
(where the replay is: index, length, round starts, playing, pace) and
``timeline`` (each decision's words, everyone's money after each decision,
and the evaluation graph once a seat is analysed). The page moves the replay
with intents, each checked like any other:

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
from ..kernel.errors import BadArgument
from ..kernel.state import shown
from ..records.full import Record
from ..study.analysis import analysis_steps
from ..tables.replay import DEFAULT_PACE, PuzzleDraft, Replay, as_record
from ..tables.scheduler import ManualScheduler, Scheduler, Slices, event_loop_scheduler
from ..tables.table import Reply, TableError, ok, refuse
from .widget import LOG_LIMIT, LangfingerWidget, SeatError

REPLAY_KINDS = ("replay_seek", "replay_step", "replay_round", "replay_play", "replay_pause",
                "replay_pace", "replay_seat", "replay_analyse", "replay_continue",
                "replay_puzzle")
READ_ONLY = "a replay is read-only: press Continue from here to play on from this position"


class ReplayWidget(LangfingerWidget):
    """A record replayed on the board; see the module docstring."""

    # Where the replay is (index, length, round starts, playing, pace, seats); {} when live.
    scrubber = traitlets.Dict().tag(sync=True)
    # Each decision's words, the money after each decision and the evaluation; {} when live.
    timeline = traitlets.Dict().tag(sync=True)

    def __init__(self, record: Record | str | Path, seat: int | str | None = "record", *,
                 pace: float = DEFAULT_PACE, analysis: list[dict[str, Any]] | None = None,
                 scheduler: Scheduler | None = None, **kwargs: Any) -> None:
        self._replay: Replay | None = None  # first: close() may run on a half-made widget
        self._analysis: Slices[list[dict[str, Any]]] | None = None
        rec = as_record(record)
        shown = rec.seat if seat == "record" else seat
        if isinstance(shown, str):
            raise SeatError(f"seat must be None, a seat number or 'record', not {shown!r}")
        clock = scheduler or event_loop_scheduler() or ManualScheduler()
        try:  # checked before the widget (and its comm) exists: a refusal leaves nothing behind
            replay = Replay(rec, shown, pace=pace, scheduler=clock)
        except ValueError as exc:
            raise SeatError(str(exc)) from None
        self.puzzle_draft: PuzzleDraft | None = None
        kwargs.pop("bots", None)  # nobody moves in a replay
        super().__init__(game=rec.game(0), seat=shown, bots={}, scheduler=clock, **kwargs)
        replay.on_change = self._sync
        self._replay = replay
        self.timeline = self._timeline(analysis)
        self._sync()

    # --- the Python API -------------------------------------------------------------------
    @property
    def replaying(self) -> Replay | None:
        """The replay behind the board, or None once it plays on live."""
        return self._replay

    @property
    def record(self) -> Record:
        if self._replay is None:
            raise BadArgument("this board plays on live; its record is w.game.record(...)")
        return self._replay.record

    def record_text(self, seat: int | str | None = "board") -> str:
        """The record being replayed, as read (a live board writes its own game's)."""
        if self._replay is not None:
            return self._replay.record.text
        return super().record_text(seat)

    def show_analysis(self, rows: list[dict[str, Any]]) -> None:
        """Draw ``lf.analyse`` rows as the evaluation graph under the board."""
        self.timeline = self._timeline(rows)

    def analyse(self, seat: int, bot: Any = "hard", **options: Any) -> list[dict[str, Any]]:
        """Rate ``seat``'s decisions now (``lf.analyse``), show the graph, return the rows."""
        from ..study.analysis import analyse

        rows: list[dict[str, Any]] = analyse(self.record, seat, bot, **options)
        self.show_analysis(rows)
        return rows

    def continue_from_here(self, **kwargs: Any) -> LangfingerWidget:
        """A new live board from the replay's position (``kwargs`` as for the widget: seat,
        bots, pace...); the replay stays as it is."""
        replay = self._live_replay()
        kwargs.setdefault("seat", replay.seat)
        kwargs.setdefault("bots", self._default_bots(kwargs["seat"]))
        return LangfingerWidget(game=replay.game(), **kwargs)

    def continue_here(self, seat: int | str | None = "replay",
                      bots: Mapping[Any, str] | None = None) -> None:
        """Turn this board into a live game from the replay's position ("Continue from here").

        Raises ``ValueError`` (nothing changes) for a seat or bot the table cannot take.
        """
        replay = self._live_replay()
        shown = replay.seat if seat == "replay" else seat
        if isinstance(shown, str):
            raise SeatError(f"seat must be None, a seat number or 'replay', not {shown!r}")
        game = replay.game()
        if game.is_over:
            raise BadArgument("R10.1: the game is over here; step back to play on")
        try:
            self.table.check_seat(shown, game.num_players)
            wanted = self.table.check_bots(self._default_bots(shown) if bots is None else bots,
                                           game.num_players)
        except TableError as exc:
            raise SeatError(str(exc)) from None
        self._stop()
        self.table.replace_game(game)
        self.table.set_seat(shown)
        self.table.set_bots(wanted)

    def make_puzzle(self) -> PuzzleDraft:
        """A puzzle skeleton from this position, kept as ``w.puzzle_draft``."""
        self.puzzle_draft = self._live_replay().puzzle_draft()
        return self.puzzle_draft

    def close(self) -> None:
        self._stop()
        super().close()

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
        self.scrubber, self.timeline = {}, {}

    def _default_bots(self, seat: Any) -> dict[int, str]:
        """The record's bots play on (an unknown bot label as a middle level), never the seat
        shown; a seat's board with no bots in the record plays against middle-level bots."""
        header = self.record.header
        robots = {i: s.bot if s.bot in names() else "medium"
                  for i, s in enumerate(header.seats) if s.bot is not None and i != seat}
        if not robots and seat is not None:
            robots = {i: "medium" for i in range(len(header.seats)) if i != seat}
        return robots

    def _timeline(self, rows: list[dict[str, Any]] | None) -> dict[str, Any]:
        replay = self._live_replay()
        header = replay.record.header
        evaluation = None
        if rows:
            evaluation = {"seat": rows[0]["seat"], "points": [
                {k: r[k] for k in ("index", "decision", "move", "before", "after", "best",
                                   "best_chance", "loss", "doubtful")} for r in rows]}
        return {
            "labels": replay.labels,
            "money": replay.money(),
            "seats": [{"name": s.name, "scoundrel": s.scoundrel, "bot": s.bot}
                      for s in header.seats],
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
            "levels": list(LEVELS),
            "bots": {str(k): v for k, v in self._default_bots(replay.seat).items()},
            "date": header.date,
            "analysing": self.scrubber.get("analysing") if self._analysis is not None else None,
        }

    # --- keeping the traits in step -------------------------------------------------------
    def _sync(self) -> None:
        replay = getattr(self, "_replay", None)
        if replay is None or not self._ready:
            super()._sync()
            return
        table = self.table
        with self.hold_sync():
            self.seat = replay.seat
            self.error = table.error
            self.human_seats = []
            self.hint = {}
            self.highlight = replay.last_decision()
            self.move_number = replay.index
            self.view = replay.view()
            self.events = replay.log()[-LOG_LIMIT:]
            self.legal = []
            self.undo_status = {"allowed": False, "reason": READ_ONLY}
            self.setup = {**table.setup(), "allow_new_game": False}
            self.scrubber = self._scrubber(replay)

    @traitlets.validate("seat")
    def _valid_seat(self, proposal: Any) -> int | None:
        seat: int | None = super()._valid_seat(proposal)
        replay = getattr(self, "_replay", None)
        if replay is not None:
            try:
                replay._check_seat(seat)
            except ValueError as exc:
                raise SeatError(str(exc)) from None
        return seat

    @traitlets.observe("seat")
    def _seat_changed(self, change: Any) -> None:
        replay = getattr(self, "_replay", None)
        if replay is not None and replay.seat != change["new"]:
            try:  # traitlets skips validators for None: a seat's record refuses it here
                replay._check_seat(change["new"])
            except ValueError as exc:
                self.seat = change["old"]
                raise SeatError(str(exc)) from None
            replay.seat = change["new"]
        super()._seat_changed(change)

    # --- intents from the page -------------------------------------------------------------
    def _dispatch(self, content: Any) -> Reply:
        if self._replay is None:
            return super()._dispatch(content)
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
            self.seat = seat
        elif kind == "replay_analyse":
            return self._analyse_intent(content)
        elif kind == "replay_continue":
            bots = content.get("bots")
            if bots is not None and not isinstance(bots, dict):
                raise BadArgument(f"bots must map seats to levels, not {shown(bots)}")
            self.continue_here(content.get("seat", "replay"), bots)
            return ok()
        else:
            draft = self.make_puzzle()
            return {"kind": "replay_puzzle", "source": draft.source(), "seat": draft.seat,
                    "error": ""}
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

        steps = analysis_steps(replay.record, seat, bot, progress=progress)
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


__all__ = ["REPLAY_KINDS", "ReplayWidget"]
