"""Checks for the tutorial notebooks: what the learner did on the live board, and why it was
right or not.

A lesson shows a board on a scripted position and asks the learner to make a step on it.
The check cell under it reads the board and never changes it: until the learner has moved
it says so and waits; then it names the move in plain words (:mod:`describe`) and says
whether it was the lesson's step, and why. Run All runs the check before anyone has
clicked, so it waits, and the learner's board is left as it is.

>>> import langfinger_widget as lf
>>> g = lf.Game.new(players=2, seed=1, start_player=0)
>>> def city(move, after):
...     return move == {"type": "place", "place": "city"}, "The City acts first (R3.1)."
>>> check(g, city).state
'waiting'
>>> _ = g.play({"type": "place", "place": "city"})
>>> print(check(g, city))
✓ Right: Pascal puts a token on the City. The City acts first (R3.1).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import describe
from .game import Game

Action = dict[str, Any]
Judge = Callable[[Action, Game], tuple[bool, str]]
WAITING = "Make your move on the board above, then run this cell again."
MARKS = {"waiting": "…", "right": "✓", "wrong": "✗"}


@dataclass(frozen=True)
class Verdict:
    """What a check found: ``state`` is ``waiting``, ``right`` or ``wrong``; ``text`` says it."""

    state: str
    text: str
    move: Action | None = None

    @property
    def right(self) -> bool:
        return self.state == "right"

    def __str__(self) -> str:
        return f"{MARKS[self.state]} {self.text}"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(str(self))


def _game(board: Any) -> Game:
    """The game behind a board (a LangfingerWidget) or the game itself."""
    return board if isinstance(board, Game) else board.game  # type: ignore[no-any-return]


def moves(board: Any, seat: int | None = None) -> list[Action]:
    """The moves made on ``board`` since it was made (only ``seat``'s, if given)."""
    game = _game(board)
    return [a for a, s in zip(game.history, game.deciders, strict=True)
            if seat is None or s == seat]


def _back_to(game: Game, decisions: int) -> Game:
    """A copy of ``game`` after its first ``decisions`` decisions (the board is not touched)."""
    twin = game.copy()
    while twin.move_number > decisions:
        twin.undo()
    return twin


def check(board: Any, judge: Judge, *, step: int = 1, seat: int | None = None,
          waiting: str = WAITING) -> Verdict:
    """The learner's ``step``-th move on ``board`` (counting only ``seat``'s, if given), judged.

    ``judge(move, after)`` gets the move and a copy of the game right after it, and returns
    whether it was the lesson's step and why. Until that move is made, the verdict waits.
    """
    game = _game(board)
    deciders = game.deciders
    at = [i for i, s in enumerate(deciders) if seat is None or s == seat]
    if len(at) < step:
        return Verdict("waiting", waiting)
    index = at[step - 1]
    before, after = _back_to(game, index), _back_to(game, index + 1)
    who = deciders[index]
    move = game.history[index]
    said = describe.move(move, before.view(who), before.state.players[who].name)
    right, why = judge(move, after)
    return Verdict("right" if right else "wrong",
                   f"{'Right' if right else 'Not quite'}: {said} {why}".strip(), move)


__all__ = ["Verdict", "check", "moves"]
