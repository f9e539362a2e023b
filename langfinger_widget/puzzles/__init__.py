"""Puzzles (docs/puzzles.md): a position, a goal for one seat, its solution, hints and a checker.

The puzzle book is data (``data/*.jsonl``, :mod:`.book`), proven by the solver as it is read.
``PUZZLES`` holds the composed puzzles, easy to hard; :func:`all_puzzles` the whole book, mined ones
too (:mod:`.mine`), each rated on one Glicko-2 scale with the readers (:mod:`.ratings`) and
solvable from what its board shows, telling (:class:`Told`) what its solution relies on
(:mod:`.sight`).

>>> from langfinger_widget.puzzles import PUZZLES
>>> PUZZLES[0].check(PUZZLES[0].solution).solved
True
"""

from ..kernel.errors import PuzzleError, UnsoundPuzzle
from . import book
from .mine import mine_records
from .model import CheckResult, Goal, Puzzle, PuzzleSession
from .ratings import Rating
from .sight import Told

PUZZLES: list[Puzzle] = sorted(book.load(book.COMPOSED), key=lambda p: p.difficulty)
load = book.load
add = book.add
all_puzzles = book.all_puzzles

__all__ = ["PUZZLES", "CheckResult", "Goal", "Puzzle", "PuzzleError", "PuzzleSession", "Rating",
           "Told", "UnsoundPuzzle", "add", "all_puzzles", "book", "load", "mine_records"]
