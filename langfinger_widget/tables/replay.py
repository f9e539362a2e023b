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

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from .. import records
from ..kernel import rules
from ..kernel.errors import BadArgument, InvalidState
from ..kernel.game import Game
from ..kernel.rules import Event
from ..records.full import Record
from .scheduler import Handle, ManualScheduler, Scheduler, event_loop_scheduler

Action = dict[str, Any]
DEFAULT_PACE = 0.8
MAX_PACE = 10.0


def check_pace(pace: Any) -> float:
    """Seconds a decision while playing: a number from 0.05 to MAX_PACE."""
    if isinstance(pace, bool) or not isinstance(pace, (int, float)) or not (
            0.05 <= pace <= MAX_PACE):
        raise BadArgument(f"pace must be a number of seconds from 0.05 to {MAX_PACE:g}, "
                         f"not {pace!r}")
    return float(pace)


def as_record(source: Record | str | Path, seed: int = 0) -> Record:
    """A record as read, from a Record, its text, or a file path."""
    return source if isinstance(source, Record) else records.load(source, seed=seed)


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


# --- puzzles from a position --------------------------------------------------------------------


class PuzzleDraft:
    """A puzzle skeleton from a position of a record, for its author to finish.

    ``position`` is a :class:`~langfinger_widget.kernel.builder.Position` holding the
    position (edit it further); the reader's ``seat`` is the seat to move. The
    draft suggests what the game itself did until the round ended: the seat's
    moves as the ``solution``, the rivals' as a script, and as the goal the
    money the seat earned (so the draft is solved by the game's own moves;
    tighten it). :meth:`source` writes it as Python to paste into a puzzle
    book; :meth:`puzzle` makes the :class:`~langfinger_widget.puzzles.Puzzle`.
    """

    def __init__(self, position: Any, seat: int, solution: Sequence[Action],
                 opponents: Sequence[Action], earned: int, note: str, code: str) -> None:
        self.position = position
        self.seat = seat
        self.solution = tuple(solution)
        self.opponents = tuple(opponents)
        self.earned = earned
        self.note = note
        self._code = code

    @classmethod
    def from_record(cls, record: Record, index: int) -> PuzzleDraft:
        state = record.states[index]
        seat = rules.to_move(state)
        if seat is None:
            raise InvalidState("R10.1: the game is over here; a puzzle needs a decision to make")
        from ..kernel.builder import Position  # the builder is only needed here

        facts = _position_facts(record, index)
        position = Position(facts["players"], names=facts["names"], seed=facts["seed"],
                            variant=facts["variant"])
        for method, args, kwargs in facts["calls"]:
            getattr(position, method)(*args, **kwargs)
        solution, opponents, earned = _rest_of_round(record, index, seat)
        note = (f"What seat {seat} could not see (other hands, face-down fronts, the piles) is "
                f"dealt at random here: this comes from seat {seat}'s record.") \
            if record.seat is not None else ""
        return cls(position, seat, solution, opponents, earned, note, _code(facts))

    def goal(self) -> Any:
        from ..puzzles.model import Goal

        return Goal("earn", self.earned)

    def puzzle(self, **changes: Any) -> Any:
        """The draft as a :class:`~langfinger_widget.puzzles.Puzzle`; ``changes`` override
        any field (``name``, ``goal``, ``solution``, ``hints``, ``difficulty``, ``rule``,
        ``story``, ``opponents``, ``proof``)."""
        from ..puzzles.model import Puzzle

        fields: dict[str, Any] = {
            "name": "From a game", "position": self.position.notation(), "goal": self.goal(),
            "solution": self.solution, "hints": ("What did the game do here?",),
            "seat": self.seat, "difficulty": 1, "rule": "R3.1",
            "opponents": self.opponents, "story": self.note, "proof": "best",
        }
        fields.update(changes)
        return Puzzle(**fields)

    def proven(self, **changes: Any) -> Any:
        """The draft made sound by the solver (``puzzles.book.proven``): the goal raised to
        the best the seat can earn, the solution a best plan, its themes tagged."""
        from ..puzzles.book import proven

        return proven(self.puzzle(**changes))

    def line(self, **changes: Any) -> str:
        """The proven draft as one line of a puzzle book (docs/puzzles.md, "The format"):
        append it to a ``.jsonl`` book, or ``lf.puzzles.add(draft.proven(), path)``."""
        return str(self.proven(**changes).line())

    def source(self) -> str:
        """The draft as Python, in the puzzle book's style (``puzzles/model.py``)."""
        lines = [
            "from langfinger_widget.kernel.builder import Position",
            "from langfinger_widget.puzzles import Goal, Puzzle, add",
            "",
            "position = (" + self._code + ")",
            "puzzle = Puzzle(",
            '    name="From a game",  # give it a title',
            "    position=position.notation(),",
            f"    goal=Goal(\"earn\", {self.earned}),  # the game earned this; ask for more?",
            f"    seat={self.seat},",
            f"    solution=({_actions_code(self.solution)}),  # the game's own moves",
            f"    opponents=({_actions_code(self.opponents)}),  # the rivals' moves, in order",
            '    hints=("...",),',
            '    difficulty=1, rule="R3.1", proof="best",  # the ruling it hinges on',
            f"    story={self.note!r},",
            ")",
            "print(puzzle.check(puzzle.solution))  # then puzzle.prove(): is it the best plan?",
            "# add(puzzle, \"my_puzzles.jsonl\")  # one line of a puzzle book, once proven",
        ]
        return "\n".join(lines) + "\n"


def _actions_code(actions: Sequence[Action]) -> str:
    return "".join(f"{a!r}, " for a in actions).rstrip()


def _rest_of_round(record: Record, index: int, seat: int) -> tuple[list[Action], list[Action],
                                                                    int]:
    """The seat's and the rivals' decisions from ``index`` to the end of this round."""
    start_round = record.states[index].round
    mine: list[Action] = []
    rivals: list[Action] = []
    end = index
    for i in range(index, record.length):
        if record.states[i].round != start_round or record.states[i].phase == "over":
            break
        (mine if record.deciders[i] == seat else rivals).append(record.actions[i])
        end = i + 1
    money_now = record.states[index].players[seat].money
    return mine, rivals, record.states[end].players[seat].money - money_now


def _position_facts(record: Record, index: int) -> dict[str, Any]:
    """The position at ``index`` as builder calls (only the facts that differ from empty)."""
    s = record.states[index]
    calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
    for i, p in enumerate(s.players):
        if p.money:
            calls.append(("money", (i, p.money), {}))
        if any(p.hand.values()):
            calls.append(("hand", (i,), {t: n for t, n in p.hand.items() if n}))
        if any(p.known.values()):
            calls.append(("known", (i,), {t: n for t, n in p.known.items() if n}))
        if p.loot:
            calls.append(("loot", (i, *p.loot), {}))
    for place in ("city", "villa", "museum", "harbor"):
        if s.display(place):
            calls.append((place, tuple(s.display(place)), {}))
    for place, row in s.squares.items():
        if any(x is not None for x in row):
            last = max(i for i, x in enumerate(row) if x is not None)
            calls.append(("tokens", (place, *row[:last + 1]), {}))
    for rate, who in s.ruin_rates.items():
        if who is not None:
            calls.append(("exchange_square", (rate, who), {}))
    for place, seats in s.scoundrel_used.items():
        if seats:
            calls.append(("scoundrel_used", (place, *seats), {}))
    calls += [("phase", (s.phase,), {}), ("round", (s.round,), {}),
              ("start_player", (s.start_player,), {}),
              ("money_history", tuple(tuple(m) for m in s.money_by_round), {})]
    for pile in ("tools", "loot", "fences"):
        if s.piles[pile].discard:
            calls.append(("discard", (pile, *s.piles[pile].discard), {}))
    # Inside the round only the Ruin draws (R6.1): its tokens may take up to 4 tools each.
    reach = 4 * sum(x is not None for x in s.squares["ruin"])
    if reach:
        calls.append(("on_top", ("tools", *s.piles["tools"].draw[:reach]), {}))
    return {"players": [p.scoundrel for p in s.players], "names": [p.name for p in s.players],
            "seed": s.seed, "variant": s.variant, "calls": calls}


def _code(facts: Mapping[str, Any]) -> str:
    head = (f"Position({facts['players']!r}, names={facts['names']!r}, seed={facts['seed']}, "
            f"variant={facts['variant']!r})")
    parts = [head]
    for method, args, kwargs in facts["calls"]:
        words = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]
        parts.append(f"\n    .{method}({', '.join(words)})")
    return "".join(parts)


__all__ = ["PuzzleDraft", "Replay", "check_pace"]
