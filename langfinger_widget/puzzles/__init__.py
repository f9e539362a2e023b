"""Puzzles (docs/puzzles.md): a position, a goal for one seat, its solution, hints and a checker.

>>> from langfinger_widget.puzzles import PUZZLES
>>> PUZZLES[0].check(PUZZLES[0].solution).solved
True
"""

from .model import PUZZLES, CheckResult, Goal, Puzzle, PuzzleSession

__all__ = ["PUZZLES", "CheckResult", "Goal", "Puzzle", "PuzzleSession"]
