"""Checks for the tutorial notebooks and the puzzle book: what the learner did on the live
board, and why it was right or not.

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

Any registered game's board is checked the same way (the Crooks lessons, notebooks/13 to
15); a move of a game other than Langfinger is said in its record's words:

>>> c = lf.crooks.Game.new(players=2, seed=1, start_player=0)
>>> _ = c.play({"type": "recruit", "hangout": "A"})
>>> print(check(c, lambda move, after: (True, "C3.1.")))
✓ Right: Player 1: recruit A. C3.1.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from typing import Any

from .. import games
from ..kernel import describe
from ..kernel.errors import BadArgument
from ..kernel.game import Game

Action = dict[str, Any]
# judge(move, after): ``after`` is a copy of the game (any registered game) right after it.
Judge = Callable[[Action, Any], tuple[bool, str]]
WAITING = "Make your move on the board above, then run this cell again."
PUZZLE_WAITING = ("Play the puzzle on the board above (the rivals answer by themselves); once "
                  "its round is over, run this cell again.")
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


def _game(board: Any) -> Any:
    """The game behind a board (a LangfingerWidget) or the game itself (any registered
    game: Langfinger's ``lf.Game``, ``lf.crooks.Game``, ...)."""
    if isinstance(board, Game) or not hasattr(board, "game"):
        return board
    return board.game


def moves(board: Any, seat: int | None = None) -> list[Action]:
    """The moves made on ``board`` since it was made (only ``seat``'s, if given)."""
    game = _game(board)
    return [a for a, s in zip(game.history, game.deciders, strict=True)
            if seat is None or s == seat]


def _back_to(game: Any, decisions: int) -> Any:
    """A copy of ``game`` after its first ``decisions`` decisions (the board is not touched)."""
    twin = game.copy()
    while twin.move_number > decisions:
        twin.undo()
    return twin


def said_at(game: Any, index: int) -> str:
    """Decision ``index`` of ``game`` as a sentence, from the view its decider had then.

    Langfinger's moves are told in plain words (:mod:`describe`); another game's in its
    record's words (``GameSpec.action_words``), after its decider's name."""
    before = _back_to(game, index)
    who = game.deciders[index]
    action = game.history[index]
    if isinstance(game, Game):
        return describe.move(action, before.view(who), before.state.players[who].name)
    players = before.view(who).get("players") or []
    name = next((p.get("name") for p in players if p.get("seat") == who), None) or \
        f"Seat {who}"
    words = games.spec_of(game).action_words
    said = words[0](action) if words is not None else str(action)
    return f"{name}: {said}."


def still_to_make(made: int, step: int) -> str:
    """What the check says while the learner has made ``made`` of the ``step`` moves."""
    if made == 0:
        return WAITING
    left = step - made
    return (f"{left} more move{'s' if left > 1 else ''} to make on the board above "
            f"({made} of {step} made), then run this cell again.")


def check(board: Any, judge: Judge, *, step: int = 1, seat: int | None = None,
          waiting: str | None = None) -> Verdict:
    """The learner's ``step``-th move on ``board`` (counting only ``seat``'s, if given), judged.

    ``judge(move, after)`` gets the move and a copy of the game right after it, and returns
    whether it was the lesson's step and why. Until that move is made, the verdict waits and
    says what is missing: ``waiting`` in the lesson's words (e.g. "Not every token is down
    yet"), else how many moves are still to make. A pass that was the only move counts too:
    a lesson may be about it (notebooks/07: the round's last token).
    """
    game = _game(board)
    at = [i for i, s in enumerate(game.deciders) if seat is None or s == seat]
    if len(at) < step:
        return Verdict("waiting", waiting or still_to_make(len(at), step))
    index = at[step - 1]
    move = game.history[index]
    right, why = judge(move, _back_to(game, index + 1))
    said = said_at(game, index)
    return Verdict("right" if right else "wrong",
                   f"{'Right' if right else 'Not quite'}: {said} {why}".strip(), move)


# --- the puzzle book -----------------------------------------------------------------------


def puzzle_verdict(board: Any) -> Verdict:
    """The puzzle played on ``board`` (``Puzzle.widget()``): solved or not, once its round is
    over, with the learner's moves in words; the board is only read."""
    session = board.puzzle_session
    if session is None:
        raise BadArgument("this board plays no puzzle (make it with Puzzle.widget())")
    if not session.over:
        return Verdict("waiting", PUZZLE_WAITING)
    game = session.game
    mine = [i for i, s in enumerate(game.deciders) if s == session.seat]
    played = " ".join(said_at(game, i) for i in mine) or "You made no move."
    result = session.status()
    if result.solved:
        return Verdict("right", f"Solved! {played}")
    return Verdict("wrong", f"Not solved: {result.reason}. {played} Press Try again on the "
                            "board, or ask it for a hint.")


def solution_words(puzzle: Any) -> list[str]:
    """The puzzle's solution as sentences, each from the view the seat has at that move (the
    rivals answer in between, as on the board)."""
    session = puzzle.session()
    for action in puzzle.solution:
        session.play(action)
    game = session.game
    return [said_at(game, i) for i, s in enumerate(game.deciders) if s == puzzle.seat]


def solution_button(puzzle: Any) -> Any:
    """A "Show the solution" button (ipywidgets): the solution in words and the solver's proof
    appear only when it is pressed, so Run All never gives a puzzle away."""
    import ipywidgets  # the notebooks' front ends have it (anywidget needs it)

    button = ipywidgets.Button(description="Show the solution", icon="eye")
    shown = ipywidgets.HTML()

    def show(_: Any) -> None:
        steps = "".join(f"<li>{escape(line)}</li>" for line in solution_words(puzzle))
        proof = puzzle.prove()
        only = ("the only plan that meets the goal" if proof.verdict == "unique" else
                "one of the plans that do best; none does better")
        shown.value = (f"<ol>{steps}</ol><p>The solver tried all {proof.plans} plans of your "
                       f"seat: this is {only}.</p>")
        button.disabled = True

    button.on_click(show)
    return ipywidgets.VBox([button, shown])


__all__ = ["Verdict", "check", "moves", "puzzle_verdict", "said_at", "solution_button",
           "solution_words"]
