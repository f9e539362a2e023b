"""Puzzles drafted from a position of a record ("Make a puzzle from here").

:class:`PuzzleDraft` reads the position and what the game did until the round
ended, and turns them into a puzzle skeleton for its author to finish: the seat to
move, its moves as the solution, the rivals' as their script, and the money earned
as the goal. A replay board (:meth:`langfinger_widget.tables.replay.Replay.puzzle_draft`)
makes one; so can any code holding a :class:`~langfinger_widget.records.Record`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..kernel import rules
from ..kernel.builder import Position
from ..kernel.errors import InvalidState
from ..records import Record
from .book import proven
from .model import Goal, Puzzle

Action = dict[str, Any]


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

    def __init__(self, position: Position, seat: int, solution: Sequence[Action],
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

    def goal(self) -> Goal:
        return Goal("earn", self.earned)

    def puzzle(self, **changes: Any) -> Puzzle:
        """The draft as a :class:`~langfinger_widget.puzzles.Puzzle`; ``changes`` override
        any field (``name``, ``goal``, ``solution``, ``hints``, ``difficulty``, ``rule``,
        ``story``, ``opponents``, ``proof``)."""
        fields: dict[str, Any] = {
            "name": "From a game", "position": self.position.notation(), "goal": self.goal(),
            "solution": self.solution, "hints": ("What did the game do here?",),
            "seat": self.seat, "difficulty": 1, "rule": "R3.1",
            "opponents": self.opponents, "story": self.note, "proof": "best",
        }
        fields.update(changes)
        return Puzzle(**fields)

    def proven(self, **changes: Any) -> Puzzle:
        """The draft made sound by the solver (``puzzles.book.proven``): the goal raised to
        the best the seat can earn, the solution a best plan, its themes tagged."""
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


__all__ = ["PuzzleDraft"]
