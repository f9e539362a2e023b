"""The puzzle trainer on a board: the next puzzle at the reader's level, rated (docs/puzzles.md).

A column of ipywidgets around the puzzle board (a :class:`LangfingerWidget` in
puzzle mode, as ``Puzzle.widget()`` gives): the reader's rating with its
deviation, the streak, a theme to practise, "Next puzzle", and the history
of the reader's rating drawn as a small SVG. When the puzzle's round ends the
attempt is scored once (:class:`~langfinger_widget.puzzles.trainer.Coach`):
both ratings move, and every hint shown makes a solve count for less.

>>> from langfinger_widget.ui.trainer import Trainer
>>> t = Trainer(path=None, seed=1)
>>> t.puzzle.name in t.coach.book and t.board.puzzle["state"]
'playing'
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

import ipywidgets

from ..puzzles.model import CheckResult, Puzzle, PuzzleSession
from ..puzzles.trainer import READER_FILE, Attempt, Coach
from .widget import LangfingerWidget

ANY_THEME = "any theme"


class Trainer(ipywidgets.VBox):  # type: ignore[misc]
    """Serve puzzles near the reader's rating (or of one theme) and rate every attempt.

    ``puzzles``, ``path`` and ``seed`` go to the :class:`Coach` (``path=None``
    keeps the reader's rating in the notebook only); ``theme`` picks the first
    theme to practise; ``board`` options go to every puzzle's board.
    """

    def __init__(self, puzzles: Sequence[Puzzle] | None = None,
                 path: str | Path | None = READER_FILE, seed: int | None = None,
                 theme: str | None = None, **board: Any) -> None:
        self.coach = Coach(puzzles, path, seed)
        self.last: Attempt | None = None
        self._board_options = board
        self.status = ipywidgets.HTML(layout={"width": "100%"})
        self.theme = ipywidgets.Dropdown(options=[ANY_THEME, *self.coach.themes()],
                                         value=theme or ANY_THEME, description="Theme")
        self.next_button = ipywidgets.Button(description="Next puzzle", icon="forward",
                                             tooltip="a puzzle near your rating")
        self.plot = ipywidgets.HTML()
        self.next_button.on_click(lambda _b: self.next())
        self.theme.observe(lambda _c: self.next(), names="value")
        self.board: LangfingerWidget = LangfingerWidget()
        self.session: PuzzleSession  # the puzzle being played, set by _show
        self.puzzle: Puzzle = self.coach.next(self._theme())
        super().__init__()
        self.add_class("langfinger-trainer")
        self._show(self.puzzle)

    def _theme(self) -> str | None:
        return None if self.theme.value == ANY_THEME else str(self.theme.value)

    def next(self) -> Puzzle:
        """Put the next puzzle on a fresh board (an unfinished one goes unscored)."""
        self._show(self.coach.next(self._theme()))
        return self.puzzle

    def _show(self, puzzle: Puzzle) -> None:
        old = self.board
        self.puzzle, self.last = puzzle, None
        self.session = self.coach.book[puzzle.name].session()
        options = {"seat": puzzle.seat, **self._board_options, "bots": {}}  # as Puzzle.widget
        self.board = self.session.attach(LangfingerWidget(game=self.session.game, **options),
                                         on_status=self._moved)
        self.children = [self.status, ipywidgets.HBox([self.theme, self.next_button]),
                         self.board, self.plot]
        old.close()
        self._refresh()

    def _moved(self, result: CheckResult) -> None:
        if not self.session.over or self.last is not None:
            return  # scored once, when the puzzle's round first ends ("Try again" is practice)
        self.last = self.coach.record(self.puzzle, result.solved, self.session.hints_shown)
        self._refresh()

    def _refresh(self) -> None:
        self.status.value = self.summary_html()
        self.plot.value = history_svg(self.coach.ratings())

    def summary(self) -> str:
        """The reader's rating, streak and the last result, in words."""
        r = self.coach.reader
        rated = self.coach.book[self.puzzle.name].rating
        # The themes tell what the solution does: named once the attempt is over (or chosen).
        shown = self.puzzle.themes if self.last is not None else \
            [t for t in self.puzzle.themes if t == self._theme()]
        text = (f"Your rating {r.rating:.0f} ± {2 * r.deviation:.0f}, streak "
                f"{self.coach.streak}, {len(self.coach.history)} tried. This puzzle: "
                f"{rated.rating:.0f}" + (f" ({', '.join(shown)})" if shown else "") + ".")
        if self.last is not None:
            verdict = "Solved" if self.last.solved else "Not solved"
            hints = f" with {self.last.hints} hint(s)" if self.last.hints else ""
            text += f" {verdict}{hints}: {self.last.change:+.0f}."
        return text

    def summary_html(self) -> str:
        return f'<div class="lf-trainer-summary">{escape(self.summary())}</div>'

    def close(self) -> None:
        self.board.close()
        super().close()


def history_svg(points: Sequence[float], width: int = 320, height: int = 90) -> str:
    """The reader's rating after each attempt as a small line plot (SVG, no matplotlib)."""
    if len(points) < 2:
        return ""
    low, high = min(points) - 20, max(points) + 20
    step = (width - 50) / (len(points) - 1)

    def y(v: float) -> float:
        return height - 15 - (v - low) / (high - low) * (height - 25)

    path = " ".join(f"{40 + i * step:.1f},{y(v):.1f}" for i, v in enumerate(points))
    return (f'<svg class="lf-trainer-history" width="{width}" height="{height}" '
            f'role="img" aria-label="your rating after each puzzle">'
            f'<text x="0" y="{y(high - 20):.0f}" font-size="10">{high - 20:.0f}</text>'
            f'<text x="0" y="{y(low + 20):.0f}" font-size="10">{low + 20:.0f}</text>'
            f'<polyline fill="none" stroke="#8a5a00" stroke-width="2" points="{path}"/>'
            f'<text x="40" y="{height - 2}" font-size="10">your rating, puzzle by puzzle'
            f'</text></svg>')


__all__ = ["Trainer", "history_svg"]
