"""``Replay``: a record on a board that moves back and forth, or plays at a pace.

A replay holds a read :class:`~langfinger_widget.records.Record` and a
position index (how many decisions have been made, 0 to ``length``). It
answers what the board shows there (the view of one seat, or of everyone for
a full record), steps one decision, jumps to a round's start, and plays on by
itself at ``pace`` seconds a decision on the event loop (no threads: the
same :mod:`~langfinger_widget.tables.scheduler` as the bots). Any front end drives
it; :class:`~langfinger_widget.ui.replay.ReplayWidget` mirrors it into
traits.

From any position, :meth:`Replay.game` gives a game to play on ("Continue
from here") and :meth:`Replay.puzzle_draft` a puzzle skeleton for the seat to
move ("Make a puzzle from here").

>>> import langfinger_widget as lf
>>> from langfinger_widget.tables.scheduler import ManualScheduler
>>> g = lf.Game.new(players=2, seed=3, start_player=0)
>>> for _ in range(6):
...     _ = g.play(g.legal_actions()[0])
>>> r = Replay(g.record(seat=None, date="2025-06-01"), scheduler=ManualScheduler())
>>> r.length, r.index, r.view()["squares"]["city"]
(6, 0, [None, None, None, None, None])
>>> r.seek(2); r.view()["squares"]["city"]
[0, 1, None, None, None]
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..kernel import rules
from ..kernel.errors import BadArgument
from ..kernel.game import Game
from ..kernel.rules import Event
from ..puzzles.draft import PuzzleDraft
from ..records import Record
from ..records.reading import as_record
from .scheduler import MAX_PACE, Handle, ManualScheduler, Scheduler, event_loop_scheduler

Action = dict[str, Any]
DEFAULT_PACE = 0.8


def check_pace(pace: Any) -> float:
    """Seconds a decision while playing: a number from 0.05 to MAX_PACE."""
    if isinstance(pace, bool) or not isinstance(pace, (int, float)) or not (
            0.05 <= pace <= MAX_PACE):
        raise BadArgument(f"pace must be a number of seconds from 0.05 to {MAX_PACE:g}, "
                         f"not {pace!r}")
    return float(pace)


class Replay:
    """A record being replayed; see the module docstring.

    ``seat`` is whose eyes the board uses: a seat, or None (everything) for a
    full record. A seat's record is seen only from that seat (the default).
    ``on_change`` is called whenever the position or the playing state moves.
    """

    def __init__(self, record: Record | str | Path, seat: int | str | None = "record", *,
                 pace: float = DEFAULT_PACE, scheduler: Scheduler | None = None,
                 on_change: Callable[[], None] | None = None) -> None:
        self.record = as_record(record)
        self.seat = self._check_seat(self.record.seat if seat == "record" else seat)
        self.pace = check_pace(pace)
        self.scheduler: Scheduler = scheduler or event_loop_scheduler() or ManualScheduler()
        self.on_change = on_change or (lambda: None)
        self.index = 0
        self.playing = False
        self._handle: Handle | None = None
        self._rounds = self.record.round_starts()
        self._labels = self.record.labels()
        self._captions: dict[int | None, list[str]] = {}

    def _check_seat(self, seat: Any) -> int | None:
        n = len(self.record.header.seats)
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                                 or not 0 <= seat < n):
            raise BadArgument(f"seat must be None or 0..{n - 1}, not {seat!r}")
        if self.record.seat is not None and seat != self.record.seat:
            raise BadArgument(f"this record holds only what seat {self.record.seat} saw: it "
                             f"replays from seat {self.record.seat}, not {seat!r}")
        return seat

    # --- where we are ---------------------------------------------------------------------------
    @property
    def length(self) -> int:
        """How many decisions the record holds (the last index)."""
        return self.record.length

    @property
    def round_starts(self) -> list[int]:
        """Indexes where a round's placing begins (and 0)."""
        return list(self._rounds)

    @property
    def labels(self) -> list[str]:
        """Each decision in the record's words (``labels[i]`` leads from index i to i + 1)."""
        return list(self._labels)

    @property
    def captions(self) -> list[str]:
        """Each decision in plain words as :attr:`seat` saw it (``captions[i]`` leads from
        index i to i + 1): "Hans takes two lockpicks from the City."."""
        return list(self._seat_captions())

    def _seat_captions(self) -> list[str]:
        if self.seat not in self._captions:  # worked out once a seat: a seek only looks up
            self._captions[self.seat] = self.record.captions(self.seat)
        return self._captions[self.seat]

    def caption(self) -> str:
        """The decision that led here in plain words, or what the start shows."""
        if self.index == 0:
            return "The record's first position."
        return self._seat_captions()[self.index - 1]

    def set_seat(self, seat: int | None) -> None:
        """View the board from another seat, or from above (full records only)."""
        self.seat = self._check_seat(seat)
        self.on_change()

    def view(self) -> dict[str, Any]:
        """What the board shows now: the view of :attr:`seat` at :attr:`index`."""
        return self.record.view(self.index, self.seat)

    def log(self) -> list[Event]:
        """The events up to :attr:`index`, redacted for :attr:`seat`."""
        return self.record.log(self.index, self.seat)

    def last_decision(self) -> dict[str, Any]:
        """The decision that led here (the board's highlight), or {} at the start."""
        if self.index == 0:
            return {}
        i = self.index - 1
        action = self.record.actions[i]
        before = self.record.states[i]
        acting = rules.acting_square(before)
        placing = before.phase == "place"
        events = self.record.events[i]
        return {
            "seat": self.record.deciders[i],
            "action": action,
            "by": "replay",
            "place": action.get("place") if placing else acting[0] if acting else None,
            "square": (events[0].get("square") if placing and events
                       else acting[1] if acting else None),
            "move": self.index,
        }

    # --- moving -------------------------------------------------------------------------------
    def seek(self, index: Any) -> None:
        """Go to position ``index`` (0: the record's start, :attr:`length`: its end)."""
        if isinstance(index, bool) or not isinstance(index, int) or not (
                0 <= index <= self.length):
            raise BadArgument(f"position must be a whole number from 0 to {self.length}, "
                             f"not {index!r}")
        if index != self.index:
            self.index = index
            self.on_change()

    def step(self, delta: int = 1) -> None:
        """Forward (or back, with a negative ``delta``) by whole decisions, stopping at the ends."""
        self.seek(max(0, min(self.length, self.index + int(delta))))

    def round_start(self, direction: int) -> None:
        """Jump to the next round's start (``direction`` 1) or back to this round's, and if
        already there to the one before (-1)."""
        if direction > 0:
            target = next((r for r in self._rounds if r > self.index), self.length)
        else:
            target = next((r for r in reversed(self._rounds) if r < self.index), 0)
        self.seek(target)

    # --- playing at a pace --------------------------------------------------------------------
    def play(self, pace: float | None = None) -> None:
        """Move on one decision every ``pace`` seconds until the end (from the start if at
        the end), on the scheduler's loop."""
        if pace is not None:
            self.pace = check_pace(pace)
        if self.index >= self.length:
            self.index = 0
        self._cancel()
        self.playing = True
        self._handle = self.scheduler.call_later(self.pace, self._tick)
        self.on_change()

    def set_pace(self, pace: Any) -> None:
        """Seconds a decision from now on (a replay that plays goes on at the new pace)."""
        self.pace = check_pace(pace)
        if self.playing:
            self._cancel()
            self._handle = self.scheduler.call_later(self.pace, self._tick)
        self.on_change()

    def pause(self) -> None:
        """Stop playing; the position stays."""
        was = self.playing
        self._cancel()
        self.playing = False
        if was:
            self.on_change()

    def _cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _tick(self) -> None:
        self._handle = None
        if not self.playing:
            return
        self.index = min(self.length, self.index + 1)
        self.playing = self.index < self.length
        if self.playing:
            self._handle = self.scheduler.call_later(self.pace, self._tick)
        self.on_change()

    def close(self) -> None:
        self._cancel()
        self.playing = False

    # --- leaving the replay ---------------------------------------------------------------------
    def game(self) -> Game:
        """A game at this position to play on ("Continue from here").

        A full record gives the real game (with its history, so undo works);
        a seat's record gives what that seat knew, the rest dealt at random.
        """
        return self.record.game(self.index)

    def puzzle_draft(self) -> PuzzleDraft:
        """A puzzle skeleton from this position for the seat to move ("Make a puzzle from
        here"); see :class:`PuzzleDraft`."""
        return PuzzleDraft.from_record(self.record, self.index)

    def money(self) -> list[list[int]]:
        return self.record.money()


__all__ = ["Replay", "check_pace"]
