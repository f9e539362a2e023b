"""The puzzle book as data: one JSON object a line (docs/puzzles.md, "The format").

The package ships ``data/composed.jsonl`` (the hand-made puzzles) and
``data/mined.jsonl`` (puzzles mined from recorded games, :mod:`.mine`).
Reading a book checks every line and proves every puzzle with the solver:
a puzzle whose solution misses its goal, is beaten by another plan, or has a
second solution where it claims one (``"proof": "unique"``) is refused with
:class:`UnsoundPuzzle`, and nothing of that book is kept.

>>> from langfinger_widget.puzzles import book
>>> len(book.load(book.COMPOSED)) >= 14
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from ..kernel import notation
from ..kernel.errors import IllegalAction, InvalidState, PuzzleError, UnsoundPuzzle
from ..kernel.rules import action_key
from .model import Goal, Puzzle
from .ratings import Rating
from .sight import Told, blind_spot, needed

DATA = Path(__file__).with_name("data")
COMPOSED = DATA / "composed.jsonl"
MINED = DATA / "mined.jsonl"
FIELDS = ("name", "position", "seat", "goal", "opponents", "solution", "hints", "story",
          "themes", "rule", "difficulty", "proof", "source", "rating", "told")
REQUIRED = ("name", "position", "seat", "goal", "solution", "hints")


def to_dict(puzzle: Puzzle) -> dict[str, Any]:
    """The puzzle as the book stores it (every field, in :data:`FIELDS` order)."""
    return puzzle.to_dict()


def to_line(puzzle: Puzzle) -> str:
    """The puzzle as one line of a book (no newline at the end)."""
    return puzzle.line()


def from_dict(data: Mapping[str, Any], line: int = 0, where: str = "") -> Puzzle:
    """A puzzle from a book's object; :class:`PuzzleError` names what is wrong."""
    name = str(data.get("name", "")) if isinstance(data, Mapping) else ""

    def refuse(why: str) -> PuzzleError:
        return PuzzleError(name, why, line, where)

    if not isinstance(data, Mapping):
        raise refuse(f"a puzzle is a JSON object, not {type(data).__name__}")
    missing = [f for f in REQUIRED if f not in data]
    unknown = sorted(set(data) - set(FIELDS))
    if missing or unknown:
        raise refuse(f"missing {missing}" if missing else f"unknown fields {unknown}")
    try:
        notation.decode(str(data["position"]))
        goal = Goal(**data["goal"])
        if goal.kind not in ("reach", "earn", "stop_sale", "win"):
            raise refuse(f"goal kind {goal.kind!r} is none of reach, earn, stop_sale, win")
        opponents = data.get("opponents", [])
        puzzle = Puzzle(
            name=name, position=str(data["position"]), goal=goal,
            solution=tuple(_actions(data["solution"])), hints=tuple(map(str, data["hints"])),
            seat=int(data["seat"]), difficulty=int(data.get("difficulty", 3)),
            rule=str(data.get("rule", "")),
            opponents="adversarial" if opponents == "adversarial" else tuple(_actions(opponents)),
            story=str(data.get("story", "")), proof=data.get("proof", "unique"),
            themes=tuple(map(str, data.get("themes", ()))), source=data.get("source", "composed"),
            rating=Rating.from_dict(data["rating"]) if "rating" in data else Rating(),
            told=Told.from_dict(data.get("told", {})),
        )
    except PuzzleError:
        raise
    except (InvalidState, IllegalAction) as exc:
        raise refuse(str(exc)) from None
    except (TypeError, KeyError, ValueError) as exc:
        raise refuse(f"a field has the wrong shape: {exc}") from None
    if puzzle.proof not in ("unique", "best"):
        raise refuse(f"proof is 'unique' or 'best', not {puzzle.proof!r}")
    if not puzzle.hints:
        raise refuse("a puzzle gives at least one hint")
    return puzzle


def _actions(items: Any) -> list[dict[str, Any]]:
    if not isinstance(items, list):
        raise TypeError(f"a list of actions, not {type(items).__name__}")
    for item in items:
        action_key(item)  # IllegalAction for anything that is not an action
    return list(items)


def verify(puzzle: Puzzle, line: int = 0, where: str = "") -> Puzzle:
    """The puzzle, once the solver has proven what it claims; else :class:`UnsoundPuzzle`:
    no solution (no plan reaches the goal, or the solution misses it), a better plan than
    the solution, or a second solution where the puzzle claims one."""
    proof = puzzle.prove()
    if proof.verdict == "fails":
        if proof.optimum < proof.target:
            why = "no solution: no plan reaches the goal"
        elif proof.solution_value < proof.target:
            why = f"no solution: the solution scores {proof.solution_value}, the goal asks " \
                  f"{proof.target}"
        else:
            why = f"a better plan: the solution scores {proof.solution_value}, the best plan " \
                  f"{proof.optimum}, e.g. {proof.example}"
        raise UnsoundPuzzle(puzzle.name, f"{why} ({proof})", line, where)
    if puzzle.proof == "unique" and proof.verdict != "unique":
        raise UnsoundPuzzle(puzzle.name, f"a second solution: it claims one, but "
                            f"{proof.winning_plans} plans meet the goal, e.g. "
                            f"{proof.example} ({proof})", line, where)
    spot = blind_spot(puzzle)
    if spot is not None:
        raise UnsoundPuzzle(puzzle.name, f"not solvable from what the board shows: {spot}; "
                            f"tell the reader what the solution relies on (\"told\")",
                            line, where)
    return puzzle


def proven(puzzle: Puzzle, limit: int | None = 20_000) -> Puzzle:
    """A draft made sound: the goal ``earn``/``reach`` raised to the best any plan scores, the
    solution one best plan, ``proof`` what the solver finds, the themes tagged, and the
    fronts the solution relies on told to the reader (:func:`.sight.needed`).

    A position whose plans take more than ``limit`` search steps is refused
    (:class:`PuzzleError`): a puzzle should be solvable by a reader, too.
    """
    from ..kernel.rules import key_action
    from .solver import Search, TooBig, prove
    from .themes import rule_of, tag

    search = Search(notation.decode(puzzle.position), puzzle.seat, puzzle.opponents,
                    puzzle.goal.score, limit=limit)
    try:
        proof = prove(search, [action_key(a) for a in puzzle.solution], puzzle.goal.target)
    except TooBig:
        raise PuzzleError(puzzle.name, f"too many plans for the solver here (more than {limit} "
                          f"steps): start the puzzle at a later decision") from None
    goal, solution = puzzle.goal, puzzle.solution
    if proof.verdict == "fails":
        if goal.kind in ("reach", "earn") and proof.optimum > 0:
            goal = Goal(goal.kind, proof.optimum, goal.rival)  # both score what they ask
        solution = tuple(key_action(action_key(a)) for a in proof.example)
    draft = replace(puzzle, goal=goal, solution=solution)
    verdict = draft.prove().verdict
    if verdict == "fails":
        raise UnsoundPuzzle(puzzle.name, "no plan reaches the goal")
    tagged = tag(draft)
    return replace(draft, proof="unique" if verdict == "unique" else "best",
                   themes=tagged or draft.themes,
                   rule=rule_of(tagged) if tagged else draft.rule,
                   told=needed(draft))  # R11.1: the board tells what the solution relies on


def read(text: str, where: str = "", check: bool = True) -> list[Puzzle]:
    """Every puzzle of a book's text (blank lines and ``#`` lines are skipped)."""
    out: list[Puzzle] = []
    names: set[str] = set()
    for i, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise PuzzleError("", f"not JSON: {exc.msg} at column {exc.colno}", i, where) from None
        puzzle = from_dict(data, i, where)
        if puzzle.name in names:
            raise PuzzleError(puzzle.name, "a second puzzle of this name", i, where)
        names.add(puzzle.name)
        out.append(verify(puzzle, i, where) if check else puzzle)
    return out


def load(path: str | Path, check: bool = True) -> list[Puzzle]:
    """A book from a ``.jsonl`` file, every puzzle proven (``check=False``: read only)."""
    path = Path(path)
    return read(path.read_text(encoding="utf-8"), path.name, check)


def write(puzzles: Iterable[Puzzle], path: str | Path) -> Path:
    """Write a book (one line a puzzle), every puzzle proven first; returns the path."""
    puzzles = [verify(p) for p in puzzles]
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(to_line(p) + "\n" for p in puzzles), encoding="utf-8")
    return path


def add(puzzle: Puzzle, path: str | Path) -> Path:
    """Add one puzzle to a book (made if missing), once the solver has proven it."""
    path = Path(path)
    known = load(path, check=False) if path.exists() else []
    if any(p.name == puzzle.name for p in known):
        raise PuzzleError(puzzle.name, f"{path.name} already holds a puzzle of this name")
    verify(puzzle)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as f:
        f.write(to_line(puzzle) + "\n")
    return path


@cache
def all_puzzles() -> tuple[Puzzle, ...]:
    """The whole shipped book: the composed puzzles, then the mined ones, all proven."""
    return (*load(COMPOSED), *(load(MINED) if MINED.exists() else ()))


def themes(puzzles: Sequence[Puzzle] | None = None) -> dict[str, int]:
    """How many puzzles train each theme, most first."""
    counts: dict[str, int] = {}
    for p in all_puzzles() if puzzles is None else puzzles:
        for t in p.themes:
            counts[t] = counts.get(t, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


__all__ = ["COMPOSED", "MINED", "add", "all_puzzles", "from_dict", "load", "proven", "read",
           "themes", "to_dict", "to_line", "verify", "write"]
