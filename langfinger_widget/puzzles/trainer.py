"""The puzzle trainer's memory: the reader's rating, streak and history, and the next puzzle.

Headless (the board is :mod:`langfinger_widget.ui.trainer`). The reader and
the puzzles share one Glicko-2 scale (:mod:`.ratings`): each attempt moves
both, a hint shown makes a solve count for less. The reader's file is a
small JSON file (``path``; ``None`` keeps it in memory, e.g. a notebook's).

>>> from langfinger_widget.puzzles.trainer import Coach
>>> coach = Coach(path=None, seed=1)
>>> p = coach.next()  # a new reader starts with the book's easiest puzzle
>>> p.rating.rating == min(q.rating.rating for q in coach.book.values())
True
>>> after = coach.record(p, solved=True)
>>> after.reader.rating > 1500, coach.streak
(True, 1)
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from ..kernel.errors import BadArgument
from .book import all_puzzles
from .model import Puzzle
from .ratings import UNRATED, Rating, attempt

READER_FILE = "~/.langfinger/puzzle-rating.json"  # the reader's rating, kept between sessions
NEAREST = 5  # the next puzzle is drawn from the few unseen ones nearest the reader's rating
# A new reader's rating says nothing yet (1500 ± 700 would serve the middle of the book):
# the first puzzles are the book's easiest, until one is missed or these are done.
WARM_UP = 3


@dataclass(frozen=True)
class Attempt:
    """One attempt: the puzzle, solved or not, hints shown, and both ratings after it."""

    puzzle: str
    solved: bool
    hints: int
    reader: Rating
    puzzle_rating: Rating
    change: float  # the reader's rating change
    at: float  # seconds since the epoch

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["reader"] = self.reader.to_dict(exact=True)
        d["puzzle_rating"] = self.puzzle_rating.to_dict(exact=True)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Attempt:
        return cls(d["puzzle"], bool(d["solved"]), int(d["hints"]),
                   Rating.from_dict(d["reader"]), Rating.from_dict(d["puzzle_rating"]),
                   float(d["change"]), float(d["at"]))


class Coach:
    """Serves puzzles near the reader's rating (or of one theme) and keeps the score.

    A new reader first gets the book's easiest puzzles (:attr:`warming_up`), then puzzles
    near its rating.

    ``puzzles``: the book (default: the whole shipped book); ``path``: the
    reader's file (default ``~/.langfinger/puzzle-rating.json``; ``None``: in
    memory only). The file holds the reader's rating, streak and history, and
    the ratings of the puzzles the reader has moved.
    """

    def __init__(self, puzzles: Sequence[Puzzle] | None = None,
                 path: str | Path | None = READER_FILE, seed: int | None = None) -> None:
        self.book = {p.name: p for p in (all_puzzles() if puzzles is None else puzzles)}
        if not self.book:
            raise BadArgument("a trainer needs at least one puzzle")
        self.path = None if path is None else Path(path).expanduser()
        self.reader: Rating = UNRATED
        self.streak = 0
        self.history: list[Attempt] = []
        self._rng = random.Random(seed)
        if self.path is not None and self.path.exists():
            self._read(self.path)

    # --- choosing ----------------------------------------------------------------------------
    def themes(self) -> list[str]:
        """Every theme of the book, most puzzles first."""
        counts: dict[str, int] = {}
        for p in self.book.values():
            for t in p.themes:
                counts[t] = counts.get(t, 0) + 1
        return sorted(counts, key=lambda t: (-counts[t], t))

    def next(self, theme: str | None = None) -> Puzzle:
        """A puzzle near the reader's rating: not yet tried if any is left (of ``theme``)."""
        pool = [p for p in self.book.values() if theme is None or theme in p.themes]
        if not pool:
            raise BadArgument(f"no puzzle trains the theme {theme!r}; the themes are "
                              f"{self.themes()}")
        tried = {a.puzzle for a in self.history}
        fresh = [p for p in pool if p.name not in tried] or pool
        if self.warming_up:
            return min(fresh, key=lambda p: (self.book[p.name].rating.rating, p.name))
        fresh.sort(key=lambda p: (abs(p.rating.rating - self.reader.rating), p.name))
        return self._rng.choice(fresh[:NEAREST])

    @property
    def warming_up(self) -> bool:
        """A new reader: fewer than :data:`WARM_UP` attempts, every one solved. The trainer
        serves the easiest puzzles left until then, and follows the rating after."""
        return len(self.history) < WARM_UP and all(a.solved for a in self.history)

    # --- scoring -------------------------------------------------------------------------------
    def record(self, puzzle: Puzzle, solved: bool, hints: int = 0) -> Attempt:
        """The attempt's result: both ratings move (a hint makes a solve worth less)."""
        if puzzle.name not in self.book:
            raise BadArgument(f"{puzzle.name!r} is not in this trainer's book")
        current = self.book[puzzle.name]
        before = self.reader
        self.reader, rated = attempt(before, current.rating, solved, hints, len(puzzle.hints))
        self.book[puzzle.name] = replace(current, rating=rated)
        self.streak = self.streak + 1 if solved and not hints else 0
        done = Attempt(puzzle.name, solved, hints, self.reader, rated,
                       self.reader.rating - before.rating, time.time())
        self.history.append(done)
        self.save()
        return done

    def ratings(self) -> list[float]:
        """The reader's rating before the first attempt and after each one."""
        return [UNRATED.rating, *(a.reader.rating for a in self.history)]

    # --- the reader's file ---------------------------------------------------------------------
    def save(self) -> None:
        """Write the reader's file (nothing without a path)."""
        if self.path is None:
            return
        moved = {a.puzzle: self.book[a.puzzle].rating.to_dict(exact=True) for a in self.history
                 if a.puzzle in self.book}
        data = {"reader": self.reader.to_dict(exact=True), "streak": self.streak,
                "history": [a.to_dict() for a in self.history], "puzzles": moved}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps(data, indent=1), encoding="utf-8")

    def _read(self, path: Path) -> None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            self.reader = Rating.from_dict(data["reader"])
            self.streak = int(data["streak"])
            self.history = [Attempt.from_dict(a) for a in data["history"]]
            for name, rating in data.get("puzzles", {}).items():
                if name in self.book:
                    self.book[name] = replace(self.book[name], rating=Rating.from_dict(rating))
        except (ValueError, KeyError, TypeError) as exc:
            raise BadArgument(f"{path} is not a puzzle trainer's file ({exc}); move it away "
                              f"to start afresh") from None


__all__ = ["READER_FILE", "WARM_UP", "Attempt", "Coach"]
