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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import games
from ..games.protocol import GameState
from ..kernel import rules
from ..kernel.errors import BadArgument
from ..kernel.game import Game
from ..kernel.rules import Event
from ..puzzles.draft import PuzzleDraft
from ..records import GameRecord, Record, read_game
from ..records.reading import as_record
from ..records.syntax import MAGIC
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


@dataclass(frozen=True)
class SeatInfo:
    """A seat of a record's header as the replay shows it (``scoundrel``: Langfinger's only)."""

    name: str
    bot: str | None
    scoundrel: str | None = None


@dataclass(frozen=True)
class ProtocolHeader:
    date: str
    seats: tuple[SeatInfo, ...]


class ProtocolRecord:
    """A full record of any registered game but Langfinger (``records.read_game``) with the
    shape :class:`Replay` reads a Langfinger :class:`Record` through: every position is the
    game replayed through the protocol, each view and log the game's own for the seat."""

    seat: int | None = None  # only full records replay: they hold every seat's view

    def __init__(self, source: GameRecord) -> None:
        self.source = source
        self.spec = games.get(source.game_name)
        self.header = ProtocolHeader(source.date, tuple(
            SeatInfo(n, b) for n, b in zip(source.names, source.bots, strict=True)))
        self.deciders = [s for s, _ in source.decisions]
        self.actions = [a for _, a in source.decisions]
        game = source.game(at=0)
        self._games: list[GameState] = [game.copy()]
        for seat, action in source.decisions:
            game.play(action, seat)
            self._games.append(game.copy())

    @property
    def length(self) -> int:
        return len(self.actions)

    @property
    def text(self) -> str:
        return self.source.text

    def _at(self, at: int) -> GameState:
        if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= self.length:
            raise BadArgument(f"position {at!r} is outside the record (0..{self.length})")
        return self._games[at]

    def view(self, at: int, seat: int | None = None) -> dict[str, Any]:
        return self._at(at).view(seat)

    def log(self, at: int, seat: int | None = None) -> list[Event]:
        return self._at(at).log(seat)

    def round_starts(self) -> list[int]:
        return [0]

    def labels(self) -> list[str]:
        words = self.spec.action_words[0] if self.spec.action_words else str
        return [f"{i + 1}. {self.header.seats[s].name} {words(a)}"
                for i, (s, a) in enumerate(zip(self.deciders, self.actions, strict=True))]

    def captions(self, seat: int | None = None) -> list[str]:
        """Each decision as ``seat`` saw it: the events of it in ``log(seat)``, only the
        fields the seat may see (a hidden crook is left out, not named)."""
        out = []
        for i, decider in enumerate(self.deciders):
            before = len(self._games[i].log(seat))
            seen = self._games[i + 1].log(seat)[before:]
            parts = [_event_words(e) for e in seen]
            out.append(f"{self.header.seats[decider].name}: {'; '.join(parts) or 'decides'}.")
        return out

    def money(self) -> list[list[int]]:
        """Each seat's cash (or money) after each number of decisions, from the open view."""
        return [[int(p.get("money", p.get("cash", 0))) for p in g.view(None)["players"]]
                for g in self._games]

    def game(self, at: int | None = None) -> GameState:
        return self._at(self.length if at is None else at).copy()


def _event_words(event: dict[str, Any]) -> str:
    shown_ = [f"{k} {v}" for k, v in event.items()
              if k not in ("type", "seat") and isinstance(v, (str, int)) and v is not None]
    return " ".join([str(event.get("type", "")), *shown_[:4]]).replace("_", " ")


def replay_record(source: Any) -> Record | ProtocolRecord:
    """What :class:`Replay` replays: a Langfinger record (a :class:`Record`, its text or its
    file), or any other registered game's full record (a :class:`GameRecord` or its text)."""
    if isinstance(source, (Record, ProtocolRecord)):
        return source
    if isinstance(source, GameRecord):
        return ProtocolRecord(source)
    text = source
    if isinstance(source, Path) or (isinstance(source, str) and not source.startswith(MAGIC)
                                    and "\n" not in source):
        text = Path(source).read_text(encoding="utf-8")
    if isinstance(text, str):
        head = text.split("\n\n", 1)[0].splitlines()
        if any(line.split()[:1] == ["game"] and line.split()[1:] != ["langfinger"]
               for line in head):
            return ProtocolRecord(read_game(text))
    return as_record(source)


class Replay:
    """A record being replayed; see the module docstring.

    ``seat`` is whose eyes the board uses: a seat, or None (everything) for a
    full record. A seat's record is seen only from that seat (the default).
    ``on_change`` is called whenever the position or the playing state moves.
    """

    def __init__(self, record: Record | ProtocolRecord | GameRecord | str | Path,
                 seat: int | str | None = "record", *,
                 pace: float = DEFAULT_PACE, scheduler: Scheduler | None = None,
                 on_change: Callable[[], None] | None = None) -> None:
        self.record = replay_record(record)
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
        if isinstance(self.record, ProtocolRecord):
            return {"seat": self.record.deciders[i], "action": action, "by": "replay",
                    "move": self.index}
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
    def game(self) -> Game | GameState:
        """A game at this position to play on ("Continue from here").

        A full record gives the real game (with its history, so undo works);
        a seat's record gives what that seat knew, the rest dealt at random.
        """
        return self.record.game(self.index)

    def puzzle_draft(self) -> PuzzleDraft:
        """A puzzle skeleton from this position for the seat to move ("Make a puzzle from
        here"); see :class:`PuzzleDraft`."""
        if isinstance(self.record, ProtocolRecord):
            raise BadArgument(f"puzzles are Langfinger's; a {self.record.spec.title} replay "
                              f"makes none")
        return PuzzleDraft.from_record(self.record, self.index)

    def money(self) -> list[list[int]]:
        return self.record.money()


__all__ = ["ProtocolRecord", "Replay", "check_pace", "replay_record"]
