"""Puzzles: a position, a goal for one seat, its solution, hints and a checker.

Every puzzle plays until the end of the round it starts in (R9, R10.1). The
reader gives the plan of the puzzle's seat (its actions in order); the other
seats either follow a fixed script or answer in the worst way for the reader
(``opponents="adversarial"``; the plan must then work against every reply).
See :mod:`langfinger_widget.puzzles.solver` for the exact rules of the search.

>>> from langfinger_widget.puzzles import PUZZLES
>>> p = PUZZLES[0]
>>> p.check(p.solution).solved
True
>>> r = p.check([{"type": "pass"}, {"type": "pass"}])
>>> r.solved, r.reason
(False, 'goal not reached: you end the round with 18 money, not 20')

Information: the solver proves a puzzle on the whole position, but the reader
sees the seat's view (R11.1). A puzzle tells (``told``) the fronts and the top
of the tool pile its solution relies on, its board shows them marked, and the
book refuses a puzzle whose solution depends on anything else the board hides
(:mod:`langfinger_widget.puzzles.sight`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..kernel import notation, rules, views, words
from ..kernel.errors import IllegalAction
from ..kernel.game import Game
from ..kernel.state import State
from . import sight
from .ratings import UNRATED, Rating
from .sight import NOTHING_TOLD, Told
from .solver import Line, Outcome, Proof, Search, evaluate, prove

Action = dict[str, Any]
GoalKind = Literal["reach", "earn", "stop_sale", "win"]
Source = str | dict[str, Any]  # "composed", or the record and decision it was mined from


@dataclass(frozen=True)
class Goal:
    """What the seat must achieve by the end of the round.

    ``reach``: own at least ``amount`` money; ``earn``: gain at least
    ``amount``; ``stop_sale``: seat ``rival`` sells nothing at the Harbor;
    ``win``: the game ends this round (R10.1) with the seat among the
    winners (ties win, R10.2).
    """

    kind: GoalKind
    amount: int = 0
    rival: int | None = None

    def __str__(self) -> str:
        return {
            "reach": f"reach {self.amount} money this round",
            "earn": f"earn {self.amount} money this round",
            "stop_sale": f"stop seat {self.rival} from selling this round",
            "win": "win the game this round (ties win)",
        }[self.kind]

    def score(self, o: Outcome) -> int:
        """A number the solver maximises; the goal is met at :attr:`target` or more."""
        if self.kind == "reach":
            return o.end.players[o.seat].money
        if self.kind == "earn":
            return o.gained
        if self.kind == "stop_sale":
            return int(self.rival not in o.sellers)
        return int(o.end.phase == "over" and o.seat in rules.winners(o.end))

    @property
    def target(self) -> int:
        return self.amount if self.kind in ("reach", "earn") else 1

    def shortfall(self, o: Outcome) -> str:
        """Why the goal was missed, with the figures, in the board's words."""
        players = o.end.players
        mine = players[o.seat].money
        money = ", ".join(f"{p.name} {p.money}" for p in players)
        if self.kind == "reach":
            return f"you end the round with {mine} money, not {self.amount}"
        if self.kind == "earn":
            return f"you earn {o.gained} this round, not {self.amount}"
        if self.kind == "stop_sale":
            rival = players[self.rival].name if self.rival is not None else "a rival"
            return f"{rival} sold at the Harbor (money now: {money})"
        if o.end.phase != "over":
            return f"R10.1: nobody reached 20, so the game goes on (money: {money})"
        won = words.listing([players[s].name for s in rules.winners(o.end)])
        return f"R10.2: the most money wins, and that is {won} (money: {money})"


@dataclass(frozen=True)
class CheckResult:
    """``solved`` and, either way, the reason in words."""

    solved: bool
    reason: str

    def __bool__(self) -> bool:
        return self.solved


@dataclass(frozen=True)
class Puzzle:
    """A position (notation), a goal for ``seat``, the solution, hints and the ruling."""

    name: str
    position: str
    goal: Goal
    solution: tuple[Action, ...]
    hints: tuple[str, ...]
    seat: int
    difficulty: int  # 1 (easy) to 5 (hard)
    rule: str  # the ruling it hinges on, e.g. "R5.2"
    opponents: Literal["adversarial"] | tuple[Action, ...] = ()
    story: str = ""
    proof: Literal["unique", "best"] = "unique"  # what the solver proves of the solution
    themes: tuple[str, ...] = ()  # the ideas it trains, e.g. "scoundrel" (docs/puzzles.md)
    source: Source = "composed"
    rating: Rating = UNRATED  # Glicko-2, on one scale with the readers (ratings.py)
    told: Told = NOTHING_TOLD  # what the board tells the reader beyond the seat's view (sight.py)

    def game(self) -> Game:
        """A fresh game at the puzzle's position."""
        return Game.from_notation(self.position)

    def start(self) -> State:
        """The puzzle's position, the whole of it (the reader sees :meth:`view`)."""
        return notation.decode(self.position)

    def view(self, state: State | None = None) -> dict[str, Any]:
        """The reader's view of ``state`` (default: the start) with what the puzzle tells:
        the seat's view (R11.1) and each told front, marked ``"told": True``."""
        state = self.start() if state is None else state
        return sight.show(views.view(state, self.seat), state, self.told)

    def _search(self) -> Search:
        return Search(notation.decode(self.position), self.seat, self.opponents, self.goal.score)

    def check(self, actions: Sequence[Action]) -> CheckResult:
        """Solved, or why not: an illegal move (naming the ruling) or the goal's figures."""
        search = self._search()
        try:
            plan = [rules.action_key(a) for a in actions]
        except IllegalAction as e:
            return CheckResult(False, str(e))
        value, worst, broke = evaluate(search, plan)
        if broke is not None:
            return CheckResult(False, broke)
        if value >= self.goal.target:
            return CheckResult(True, f"solved: {self.goal}")
        where = worst.describe(self.seat)
        outcome = Outcome(search.start, worst.state, self.seat, worst.sellers, worst)
        return CheckResult(False, f"goal not reached: {self.goal.shortfall(outcome)}"
                           + (f" ({where})" if where else ""))

    def prove(self) -> Proof:
        """Search every plan of the seat: is the solution the only one, or the best?"""
        return prove(self._search(), [rules.action_key(a) for a in self.solution],
                     self.goal.target)

    def to_dict(self) -> dict[str, Any]:
        """The puzzle as a puzzle book stores it (docs/puzzles.md, "The format")."""
        goal: dict[str, Any] = {"kind": self.goal.kind}
        if self.goal.kind in ("reach", "earn"):
            goal["amount"] = self.goal.amount
        if self.goal.rival is not None:
            goal["rival"] = self.goal.rival
        opponents = self.opponents if isinstance(self.opponents, str) else list(self.opponents)
        return {
            "name": self.name, "position": self.position, "seat": self.seat, "goal": goal,
            "opponents": opponents, "solution": list(self.solution), "hints": list(self.hints),
            "story": self.story, "themes": list(self.themes), "rule": self.rule,
            "difficulty": self.difficulty, "proof": self.proof, "source": self.source,
            "rating": self.rating.to_dict(), "told": self.told.to_dict(),
        }

    def line(self) -> str:
        """The puzzle as one line of a puzzle book (no newline at the end)."""
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(", ", ": "))

    def session(self) -> PuzzleSession:
        """Play the puzzle move by move (the opponents answer by themselves)."""
        return PuzzleSession(self)

    def widget(self, **kwargs: Any) -> Any:
        """The puzzle on a LangfingerWidget board for its seat (needs anywidget).

        The board shows the puzzle's name, goal and ruling, says "Solved!" or
        what is missing after every move, and reveals the hints one at a time.
        ``kwargs`` go to the widget (``seat`` defaults to the puzzle's seat);
        ``w.puzzle_session`` is the :class:`PuzzleSession` behind it.
        """
        # Imported here: the kernel stays importable without anywidget (only this method needs it).
        from ..ui.widget import LangfingerWidget

        kwargs.setdefault("seat", self.seat)
        kwargs["bots"] = {}  # the rivals are the puzzle's, answered by the session
        session = self.session()
        return session.attach(LangfingerWidget(game=session.game, **kwargs))


class PuzzleSession:
    """A puzzle being played: the reader's moves go in, the opponents answer.

    Scripted opponents play their script; adversarial ones pick the reply
    that leaves the reader's best remaining plan worst off. :meth:`attach`
    lets the reader play on a :class:`LangfingerWidget` board instead.
    """

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.game = puzzle.game()
        self.moves: list[Action] = []
        self._hint = 0
        self._round = self.game.round
        self._line = Line(self.game.state.copy())
        self._widget: Any = None
        self._on_status: Callable[[CheckResult], None] | None = None
        self._busy = False
        self._illegal = ""  # the ruling that refused the reader's last try, until the next move
        self._answer()
        self._seen = self.game.move_number
        self._round_end: tuple[int, Any] | None = None  # (game version, state) once worked out

    @property
    def seat(self) -> int:
        """The reader's seat."""
        return self.puzzle.seat

    @property
    def hints_shown(self) -> int:
        """How many of the puzzle's hints the reader has asked for (a trainer charges them)."""
        return min(self._hint, len(self.puzzle.hints))

    @property
    def over(self) -> bool:
        """True once the round the puzzle started in has ended (or the game)."""
        return self.game.is_over or self.game.round != self._round

    def round_end(self, seat: int | None) -> tuple[dict[str, Any], list[rules.Event]] | None:
        """What the board shows once the puzzle's round is over: the view and the log as the
        round ended, before the next round's refill (R9) that the game itself goes on to.

        A puzzle ends with its round, so the board stops there. None while the round goes
        on, and when the game itself ended there (R10.1: nothing is refilled then).
        """
        if not self.over or self.game.is_over or not self.game.move_number:
            return None
        if self._round_end is None or self._round_end[0] != self.game.version:
            self._round_end = (self.game.version, self._state_at_round_end())
        log = self.game.log(seat)
        while log and log[-1]["type"] in ("refill", "reshuffle", "start_player"):
            log.pop()  # the next round's setup (R9), which the puzzle never reaches
        return self.shown(views.view(self._round_end[1], seat), self._round_end[1]), log

    def shown(self, view: dict[str, Any], state: Any = None) -> dict[str, Any]:
        """``view`` (of ``state``, default the game's) as the puzzle's board shows it: the
        reader's view with what the puzzle tells, each told front marked (R11.1, sight.py).
        Any other seat's view is left as it is: the puzzle tells only its reader."""
        if view.get("seat") != self.puzzle.seat:
            return view
        return sight.show(view, self.game.state if state is None else state, self.puzzle.told)

    def _state_at_round_end(self) -> Any:
        """The position after the round's last token acted, without phase C (R9)."""
        before = self.game.copy()
        before.undo()
        state = before.state.copy()
        last = rules.action_id(rules.action_key(self.game.history[-1]))
        rules.act_each(state, lambda ids, place: last, refill=False)
        return state

    def play(self, action: Action) -> None:
        """The reader's move; raises :class:`IllegalAction` naming the ruling."""
        if self.over:
            raise IllegalAction("the puzzle is over: the round has ended")
        if self._widget is not None:
            try:
                self._widget.play(action)  # the widget's observer records it and answers
            except IllegalAction as exc:
                self.refused(str(exc))
                raise
            return
        self.game.play(action)
        self._record()
        self._answer()

    def _record(self) -> None:
        """Re-read the moves from the game's history (a widget may have played or undone)."""
        replay = self.puzzle.game()
        line = Line(replay.state.copy())
        moves: list[Action] = []
        for action in self.game.history:
            who = replay.to_move
            mine = who == self.puzzle.seat
            key = rules.action_key(action)
            line = line.with_move(who if who is not None else -1, key, mine=mine,
                                  script_step=0 if mine else 1)
            if mine:
                moves.append(action)
            replay.play(action)
        self.moves, self._line = moves, line

    def _answer(self) -> None:
        search = self.puzzle._search()
        while not self.over and self.game.to_move != self.puzzle.seat:
            choices = search.replies(self._line)
            if len(choices) > 1:  # adversarial: the reply after which the reader does worst
                choices.sort(key=lambda ln: _best_from(search, ln))
            self._line = choices[0]
            _, key = self._line.replies[-1]
            if self._widget is not None:
                self._widget.play(rules.key_action(key))  # so that the board shows it
            else:
                self.game.play(rules.key_action(key))

    def attach(self, widget: Any, on_status: Callable[[CheckResult], None] | None = None) -> Any:
        """Play on ``widget`` (a LangfingerWidget): the board becomes the puzzle's board.

        The rivals answer each move made there, and the widget's ``puzzle``
        trait shows the name, goal, ruling, live status and the hints asked
        for so far (its "Puzzle hint" and "Try again" buttons come back here).
        The rivals belong to the puzzle, so the widget's bots are dismissed.
        ``on_status`` is also called with :meth:`status` after every move.
        Returns the widget, so ``session.attach(w)`` can end a notebook cell.
        """
        if widget.game is not self.game:
            widget.game = self.game
        self._widget, self._on_status = widget, on_status
        widget.observe(self._widget_moved, names="move_number")
        widget.attach_puzzle(self)
        return widget

    def _widget_moved(self, _change: Any) -> None:
        if self._busy:
            return  # a rival's answer, played by us below
        self._busy = True
        try:
            if self.game.move_number < self._seen:  # an undo: take back to the reader's move
                while self.game.move_number and self.game.to_move != self.puzzle.seat:
                    self._widget.undo()
            self._record()
            self._answer()
            self._record()
            self._seen = self.game.move_number
            self._illegal = ""
        finally:
            self._busy = False
        self._publish()
        if self._on_status is not None:
            self._on_status(self.status())

    def refused(self, reason: str) -> None:
        """The reader tried a move the rules refuse: show the ruling until the next move."""
        self._illegal = reason
        self._publish()

    def reset(self) -> None:
        """Start the puzzle again from its position ("Try again"); hints shown stay shown."""
        game = self.puzzle.game()
        self._busy = True  # replacing the widget's game moves the board: not a reader's move
        try:
            self.game = game
            if self._widget is not None:
                self._widget.game = game
            self.moves, self._line, self._illegal = [], Line(game.state.copy()), ""
            self._round_end = None
            self._answer()
            self._record()
            self._seen = game.move_number
        finally:
            self._busy = False
        self._publish()

    def panel(self) -> dict[str, Any]:
        """What the board's puzzle panel shows: only what the reader may see.

        Never the solution, never a hint not yet asked for (``hints_left``
        counts them). ``state`` is ``playing``, ``illegal``, ``solved`` or
        ``failed``; ``status`` says it in words; ``told`` lists what the puzzle tells the
        reader beyond the seat's view (the board shows those fronts, marked).
        """
        hints = self.puzzle.hints
        shown = min(self._hint, len(hints))
        result = self.status()
        if result.solved:
            state, text = "solved", f"Solved! You {self.puzzle.goal}."
        elif self._illegal:
            state, text = "illegal", f"Illegal: {self._illegal}"
        elif not self.over:
            state, text = "playing", f"Not yet: {self.puzzle.goal}"
        else:
            state, text = "failed", f"Not solved: {result.reason}. Try again?"
        return {
            "name": self.puzzle.name,
            "goal": str(self.puzzle.goal),
            "difficulty": self.puzzle.difficulty,
            "rule": self.puzzle.rule,
            "story": self.puzzle.story,
            "told": sight.told_words(self.puzzle.start(), self.puzzle.told),
            "seat": self.puzzle.seat,
            "status": text,
            "state": state,
            "solved": result.solved,
            "over": self.over,
            "moves": len(self.moves),
            "hints": list(hints[:shown]),
            "hints_left": len(hints) - shown,
        }

    def _publish(self) -> None:
        if self._widget is not None:
            self._widget.show_puzzle(self.panel())

    def status(self) -> CheckResult:
        """``solved`` once the round is over and the goal met; else what is missing."""
        if not self.over:
            return CheckResult(False, f"not yet: {self.puzzle.goal}")
        return self.puzzle.check(self.moves)

    def hint(self) -> str:
        """The next hint (the last one repeats)."""
        hints = self.puzzle.hints
        text = hints[min(self._hint, len(hints) - 1)]
        self._hint += 1
        self._publish()  # an attached board shows it too
        return text


def _best_from(search: Search, line: Line) -> int:
    from .solver import explore

    return max(explore(search, [line]).values)


__all__ = ["CheckResult", "Goal", "Puzzle", "PuzzleSession"]
