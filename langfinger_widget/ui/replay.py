"""``ReplayWidget``: the board, read-only, following a :class:`~.tables.replay.Replay`.

Made by ``lf.LangfingerWidget.replay(record, seat=None)``. It is the board in
replay mode from the start (:mod:`~langfinger_widget.ui.replay_mode` describes the
mode, its ``scrubber`` and ``timeline`` traits and its intents): a live board
enters the same mode from its end screen. "Continue from here" turns it into a
live game. A record of any other registered game (``lf.records.write_game``) replays the
same way, on that game's own board (Crooks'); puzzles are Langfinger's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..records import GameRecord, Record
from ..tables.replay import DEFAULT_PACE, ProtocolRecord, replay_record
from ..tables.scheduler import ManualScheduler, Scheduler, event_loop_scheduler
from .replay_mode import READ_ONLY, REPLAY_KINDS, SeatRefused
from .widget import LangfingerWidget, SeatError


class ReplayWidget(LangfingerWidget):
    """A record replayed on the board; see :mod:`~langfinger_widget.ui.replay_mode`."""

    def __init__(self, record: Record | ProtocolRecord | GameRecord | str | Path,
                 seat: int | str | None = "record", *,
                 pace: float = DEFAULT_PACE, analysis: list[dict[str, Any]] | None = None,
                 scheduler: Scheduler | None = None, **kwargs: Any) -> None:
        rec = replay_record(record)  # any registered game's: Crooks on its own board
        shown = rec.seat if seat == "record" else seat
        if isinstance(shown, str):
            raise SeatError(f"seat must be None, a seat number or 'record', not {shown!r}")
        clock = scheduler or event_loop_scheduler() or ManualScheduler()
        from ..tables.replay import Replay

        try:  # checked before the widget (and its comm) exists: a refusal leaves nothing behind
            Replay(rec, shown, pace=pace, scheduler=clock).close()
        except ValueError as exc:
            raise SeatError(str(exc)) from None
        kwargs.pop("bots", None)  # nobody moves in a replay
        super().__init__(game=rec.game(0), seat=shown, bots={}, scheduler=clock, **kwargs)
        try:
            self.enter_replay(rec, shown, pace=pace, analysis=analysis)
        except SeatRefused as exc:
            raise SeatError(str(exc)) from None


__all__ = ["READ_ONLY", "REPLAY_KINDS", "ReplayWidget"]
