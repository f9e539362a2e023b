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
15; Oh My Goods!', 16 to 18); a move of a game other than Langfinger is said in its record's
words:

>>> c = lf.crooks.Game.new(players=2, seed=1, start_player=0)
>>> _ = c.play({"type": "recruit", "hangout": "A"})
>>> print(check(c, lambda move, after: (True, "C3.1.")))
✓ Right: Player 1: recruit A. C3.1.

A step of no fixed length is judged at the first move after which ``until(game)`` holds:

>>> two = lambda game: game.move_number >= 2
>>> check(g, city, until=two).state
'waiting'
>>> _ = g.play({"type": "place", "place": "ruin"})
>>> print(check(g, city, until=two))
✗ Not quite: Hans puts a token on the Ruin. The City acts first (R3.1).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
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
UNTIL_WAITING = ("The lesson's step is not finished yet: go on with it on the board above, then "
                 "run this cell again.")
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
          waiting: str | None = None, until: Callable[[Any], bool] | None = None) -> Verdict:
    """The learner's ``step``-th move on ``board`` (counting only ``seat``'s, if given), judged.

    ``judge(move, after)`` gets the move and a copy of the game right after it, and returns
    whether it was the lesson's step and why. Until that move is made, the verdict waits and
    says what is missing: ``waiting`` in the lesson's words (e.g. "Not every token is down
    yet"), else how many moves are still to make. A pass that was the only move counts too:
    a lesson may be about it (notebooks/07: the round's last token).

    A step of no fixed length (Oh My Goods!' payments and chains, one small action each:
    notebooks/16 to 18) gives ``until(game)`` instead of ``step``: the judged move is the
    first of the learner's moves after which ``until`` holds.
    """
    game = _game(board)
    at = [i for i, s in enumerate(game.deciders) if seat is None or s == seat]
    if until is not None:
        reached = next((i for i in at if until(_back_to(game, i + 1))), None)
        if reached is None:
            return Verdict("waiting", waiting or (UNTIL_WAITING if at else WAITING))
        index = reached
    elif len(at) < step:
        return Verdict("waiting", waiting or still_to_make(len(at), step))
    else:
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


# --- Oh My Goods! positions (notebooks/17 and 18) ------------------------------------------


def goods_turn(buildings: Sequence[Sequence[tuple[str, int, str | None]]],
               hands: Sequence[Sequence[str]], market: Sequence[str], *,
               names: Sequence[str] = ("You", "Rose"), seat: int = 0,
               active: int | None = None, round: int = 3, final: bool = False,
               planned: Sequence[str | None] | None = None,
               offer: Sequence[dict[str, Any]] | None = None, seed: int = 1) -> dict[str, Any]:
    """An Oh My Goods! position (``goods/1``) in phase IV, ``seat`` about to produce (G4.1),
    made of the cards a lesson names; ``lf.goods.Game.from_dict`` checks and loads it.

    ``buildings`` holds, a seat each, ``(card, goods, staff)``: how many goods lie on the
    building (a count: their faces are nobody's to see, G4.4) and who works there: None,
    the Worker's mode (``"efficient"``, ``"sloppy"``) or an Assistant's id, which then
    belongs to that seat. Every deck card not named lies shuffled (by ``seed``) in the draw
    pile, and the goods are taken from its bottom. ``active``: the round's first seat (G1.0;
    ``seat`` by default, so the seats after it still play this round). ``planned``: each
    seat's planned card (G4.10), already out of its hand. The Assistants on offer are the
    first ones of the set, side a, unless ``offer`` gives them (G1.1).

    >>> import langfinger_widget as lf
    >>> p = goods_turn([[("CB1", 3, "sloppy")], [("CB2", 7, None)]],
    ...                hands=[["D01"], []], market=["D10", "D30"])
    >>> g = lf.goods.Game.from_dict(p)
    >>> g.legal_actions(), g.view(0)["players"][0]["coins"]
    ([{'type': 'produce', 'building': 'CB1'}], 3)
    """
    spec = games.get("goods")
    cards = spec.Game.new(players=len(names), seed=seed).cards
    n = len(names)
    planned = list(planned) if planned is not None else [None] * n
    named = {c for hand in hands for c in hand} | set(market) | \
        {c for row in buildings for c, _, _ in row} | {c for c in planned if c is not None}
    draw = [c for c in sorted(cards.deck) if c not in named]
    random.Random(seed).shuffle(draw)
    helpers = {staff: s for s, row in enumerate(buildings) for _, _, staff in row
               if staff is not None and staff not in ("efficient", "sloppy")}
    if offer is None:
        on_offer = sorted(cards.assistants)[:{2: 4, 3: 6, 4: 8}[n]]
        offer = [{"id": a, "side": "a", "owner": helpers.get(a)} for a in on_offer]
    rows = []
    for row in buildings:
        laid = []
        for card, goods, staff in row:
            mode = staff if staff in ("efficient", "sloppy") else None
            laid.append({"id": card, "goods": [draw.pop(0) for _ in range(goods)],
                         "worker": mode, "assistant": None if mode or staff is None else staff})
        rows.append(laid)
    works = [next(({"building": b["id"], "mode": b["worker"]} for b in row if b["worker"]),
                  None) for row in rows]
    first = seat if active is None else active
    return {
        "format": "goods/1", "seed": seed, "names": list(names), "start_player": first,
        "round": round, "active": first, "phase": "production", "final": final,
        "draw": draw, "discard": [], "market": list(market),
        "hands": [sorted(h) for h in hands], "buildings": rows, "offer": list(offer),
        "choices": [None] * n, "plans": [None] * n, "sealed": [False] * n,
        "mulliganed": [False] * n,
        "revealed": [{"moves": [], "work": works[s], "planned": planned[s] is not None}
                     for s in range(n)],
        "planned": planned, "held": [len(h) for h in hands], "hired": [False] * n,
        "turn": {"seat": seat, "stage": "produce", "run": [], "last": None, "current": None,
                 "pay": None},
        "queue": [], "exhaust": None, "shuffles": 0, "custom": None,
    }


__all__ = ["Verdict", "check", "goods_turn", "moves", "puzzle_verdict", "said_at",
           "solution_button", "solution_words"]
