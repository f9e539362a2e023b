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

Information: the puzzle positions are stated with open information. What
the seat could not see in a real game (a rival's loot, the top of the tool
pile) is told in the puzzle's text, and the solver uses exactly that.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..kernel import notation, rules, views
from ..kernel.builder import Position
from ..kernel.errors import IllegalAction
from ..kernel.game import Game
from .solver import Line, Outcome, Proof, Search, evaluate, prove

Action = dict[str, Any]
GoalKind = Literal["reach", "earn", "stop_sale", "win"]


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
        """Why the goal was missed, with the figures."""
        money = [p.money for p in o.end.players]
        if self.kind == "reach":
            return f"you end the round with {money[o.seat]} money, not {self.amount}"
        if self.kind == "earn":
            return f"you earn {o.gained} this round, not {self.amount}"
        if self.kind == "stop_sale":
            return f"seat {self.rival} sold at the Harbor (money now {money})"
        if o.end.phase != "over":
            return f"R10.1: nobody reached 20, so the game goes on (money {money})"
        return f"R10.2: the most money wins: {money}, winners {rules.winners(o.end)}"


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

    def game(self) -> Game:
        """A fresh game at the puzzle's position."""
        return Game.from_notation(self.position)

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
        where = worst.describe()
        outcome = Outcome(search.start, worst.state, self.seat, worst.sellers, worst)
        return CheckResult(False, f"goal not reached: {self.goal.shortfall(outcome)}"
                           + (f" ({where})" if where else ""))

    def prove(self) -> Proof:
        """Search every plan of the seat: is the solution the only one, or the best?"""
        return prove(self._search(), [rules.action_key(a) for a in self.solution],
                     self.goal.target)

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
        return views.view(self._round_end[1], seat), log

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
        ``failed``; ``status`` says it in words.
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


# --- the puzzle book -------------------------------------------------------------------------

def _steal(slot: int, *pay: str, scoundrel: bool = False) -> Action:
    return {"type": "steal", "slot": slot, "pay": list(pay), "scoundrel": scoundrel}


def _sell(fence: str, *loot: str) -> Action:
    return {"type": "sell", "fence": fence, "loot": list(loot)}


def _take(*tools: str) -> Action:
    return {"type": "take_tools", "tools": list(tools)}


def _exchange(rate: str, *give: str) -> Action:
    return {"type": "exchange", "rate": rate, "give": list(give)}


def _place(place: str) -> Action:
    return {"type": "place", "place": place}


PASS: Action = {"type": "pass"}


def _puzzles() -> list[Puzzle]:
    act = "act"
    return [
        Puzzle(
            name="Cash on the spot",
            position=Position(["hans", "yoshiko"], seed=1).money(0, 18).money(1, 12)
            .hand(0, lockpick=1, welder=2, map=1).villa("L04").museum("L24", "L23")
            .tokens("villa", 0).tokens("museum", 0).phase(act).notation(),
            goal=Goal("reach", 20), seat=0, difficulty=1, rule="R5.3",
            solution=(_steal(0, "lockpick", "welder", "welder"), PASS),
            hints=("Loot from the Museum is worth nothing until it is sold at the Harbor.",
                   "A chest pays out the moment you take it (R5.3)."),
            story="Hans has 18 money. The Villa hides a chest; the Museum shows gold and a "
                  "jewel, each worth more than the chest. Which gets him to 20 this round?",
        ),
        Puzzle(
            name="One hammer short",
            position=Position(["hans", "tommaso"], seed=2).hand(0, lockpick=1, map=1)
            .museum("L08", "L22").harbor("F02", "F05")
            .tokens("museum", 0).tokens("harbor", 0).phase(act).notation(),
            goal=Goal("earn", 6), seat=0, difficulty=1, rule="R5.2",
            solution=(_steal(0, "lockpick", "map", scoundrel=True), _sell("F02", "L08")),
            hints=("The painting pictures a hammer, and Hans has none in hand.",
                   "Hans Hammer's scoundrel card stands in for one hammer (R5.2).",
                   "Which fence pays a bonus for paintings?"),
            story="Hans holds a lockpick and a map. The painting at the Museum wants a "
                  "lockpick, a hammer and a map. Earn 6 this round.",
        ),
        Puzzle(
            name="Hammer and tongs",
            position=Position(["hans", "yoshiko"], seed=3).city("hammer", "hammer", "pliers", "map")
            .museum("L16", "L11").harbor("F10", "F14")
            .tokens("city", 0).tokens("museum", 0).tokens("harbor", 0).phase(act).notation(),
            goal=Goal("earn", 6), seat=0, difficulty=1, rule="R4",
            solution=(_take("hammer", "pliers"), _steal(0, "hammer", "pliers", scoundrel=True),
                      _sell("F10", "L16")),
            hints=("At the City you take two tools of your choice (R4).",
                   "The statue needs two hammers and pliers; the scoundrel is one hammer.",
                   "One fence pays +2 for a statue."),
            story="Hans's hand is empty, but his token stands first at the City, then at the "
                  "Museum and the Harbor. Earn 6 this round.",
        ),
        Puzzle(
            name="Only one welder",
            position=Position(["yoshiko", "pascal"], seed=4).money(0, 17).money(1, 9)
            .hand(0, lockpick=1, map=1).museum("L05", "L24").harbor("F06", "F07")
            .tokens("museum", 0).tokens("harbor", 0).phase(act).notation(),
            goal=Goal("reach", 20), seat=0, difficulty=2, rule="R5.2",
            solution=(_steal(1, "map", scoundrel=True), _sell("F06", "L24")),
            hints=("The chest pictures two welders.",
                   "The scoundrel stands in for one tool only, never two of one card (R5.2).",
                   "Gold sells at the Harbor in the same round: the Harbor acts last (R3.1)."),
            story="Yoshiko has 17 and holds a lockpick and a map. The chest worth 3 would do "
                  "it at once... can she take it? Reach 20 this round.",
        ),
        Puzzle(
            name="Once per place",
            position=Position(["hans", "yoshiko", "tommaso"], seed=5).hand(0, pliers=2)
            .villa("L03", "L01").museum("L02")
            .tokens("villa", 0, 0).tokens("museum", 0).phase(act).notation(),
            goal=Goal("earn", 4), seat=0, difficulty=2, rule="R5.2", proof="best",
            solution=(_steal(0, "pliers", scoundrel=True), PASS,
                      _steal(0, "pliers", scoundrel=True)),
            hints=("Every chest here pictures a hammer and pliers; Hans has no hammer.",
                   "His scoundrel stands in once at the Villa and once at the Museum (R5.2)."),
            story="Three chests, three of Hans's tokens, two pliers and no hammer. How much "
                  "can he cash this round?",
        ),
        Puzzle(
            name="Two for one",
            position=Position(["pascal", "hans", "bobby"], seed=6).loot(0, "L08", "L09")
            .harbor("F03", "F02", "F11").tokens("harbor", 0).phase(act).notation(),
            goal=Goal("earn", 7), seat=0, difficulty=2, rule="R8.2",
            solution=(_sell("F03", "L08", "L09"),),
            hints=("One token at the Harbor is one sale.",
                   "A fence that shows a kind twice buys two of it at once (R8.2)."),
            story="Pascal has two paintings (worth 4 and 3) and one token at the Harbor. "
                  "Three fences want paintings. Earn 7.",
        ),
        Puzzle(
            name="Burn the fence",
            position=Position(["tommaso", "yoshiko"], seed=7).loot(0, "L09").loot(1, "L16")
            .harbor("F10", "F02").tokens("harbor", 0, 1).phase(act).notation(),
            goal=Goal("stop_sale", rival=1), seat=0, difficulty=3, rule="R8.3",
            opponents="adversarial",
            solution=(_sell("F10", "L09"),),
            hints=("Yoshiko holds a statue. Which fences buy statues?",
                   "A fence you sell to is discarded, even if you used only one of its "
                   "lines (R8.3)."),
            story="Tommaso sells first, Yoshiko second; Yoshiko holds a statue worth 4. "
                  "Tommaso's painting would fetch 5 at one fence... Stop Yoshiko from selling.",
        ),
        Puzzle(
            name="The Ruin first",
            position=Position(["tommaso", "bobby"], seed=8).money(0, 17).money(1, 11)
            .hand(0, map=2, lockpick=1).museum("L05", "L03")
            .on_top("tools", "hammer", "welder", "welder", "pliers")
            .tokens("ruin", 0).tokens("museum", 0).phase(act).notation(),
            goal=Goal("reach", 20), seat=0, difficulty=2, rule="R6.1",
            solution=(_exchange("2>3", "map", "map"), _steal(0, "lockpick", "welder", "welder")),
            hints=("The top of the tool pile (told here: hammer, welder, welder, pliers) is "
                   "what the Ruin gives, top first.",
                   "The Ruin acts before the Museum (R3.1); which exchange square keeps your "
                   "lockpick and brings two welders?"),
            story="Tommaso has 17, two maps and a lockpick. The chest worth 3 wants a lockpick "
                  "and two welders. The tool pile's top cards are hammer, welder, welder, "
                  "pliers. Reach 20.",
        ),
        Puzzle(
            name="Closed squares",
            position=Position(["hans", "bobby"], seed=13).money(0, 18).money(1, 10)
            .hand(0, lockpick=2).hand(1, welder=2).museum("L02")
            .on_top("tools", "lockpick", "lockpick", "welder", "map", "map", "map", "map",
                    "welder", "pliers")
            .tokens("ruin", 1, 0, 0).tokens("museum", 0).phase(act).notation(),
            goal=Goal("reach", 20), seat=0, difficulty=3, rule="R6.2",
            opponents=(_exchange("2>3", "welder", "welder"),),
            solution=(_exchange("1>2", "lockpick"), _exchange("3>4", "lockpick", "map", "map"),
                      _steal(0, "pliers", scoundrel=True)),
            hints=("Bobby exchanges first, on 2>3: that square is closed for the rest of the "
                   "Ruin's actions (R6.2), and so is each square you use.",
                   "A square takes as many cards from your hand as it says (R6.1): 3>4 needs "
                   "three.",
                   "After Bobby's draw the pile shows map, map, map, map, welder, pliers."),
            story="Hans has 18 and two lockpicks; the chest at the Museum (worth 2) wants a "
                  "hammer and pliers. Bobby goes first at the Ruin; the tool pile holds "
                  "lockpick, lockpick, welder for him, then map, map, map, map, welder, "
                  "pliers. Reach 20.",
        ),
        Puzzle(
            name="Scoundrel twice",
            position=Position(["bobby", "hans"], seed=9).hand(0, pliers=2)
            .villa("L06").museum("L12", "L23").harbor("F03", "F10")
            .tokens("villa", 0).tokens("museum", 0).tokens("harbor", 0).phase(act).notation(),
            goal=Goal("earn", 5), seat=0, difficulty=3, rule="R5.2",
            solution=(_steal(0, "pliers", scoundrel=True), _steal(0, "pliers", scoundrel=True),
                      _sell("F03", "L06", "L12")),
            hints=("Both paintings picture pliers and a map; Bobby has two pliers and no map.",
                   "Bobby Blueprint's scoundrel is a map, once at the Villa and once at the "
                   "Museum (R5.2).",
                   "Two paintings, one Harbor token: which fence takes both (R8.2)?"),
            story="Bobby holds two pliers. A painting waits at the Villa, another at the "
                  "Museum, and he has one token at the Harbor. Earn 5.",
        ),
        Puzzle(
            name="Not over yet",
            position=Position(["pascal", "hans"], seed=10).money(0, 16).money(1, 21)
            .money_history((12, 18)).hand(0, hammer=1, map=1)
            .museum("L07", "L14").harbor("F02", "F07")
            .tokens("museum", 0).tokens("harbor", 0).phase(act).notation(),
            goal=Goal("win"), seat=0, difficulty=3, rule="R10.2",
            solution=(_steal(0, "hammer", "map", scoundrel=True), _sell("F02", "L07")),
            hints=("Hans already has 21, but the game ends only when the round ends (R10.1).",
                   "All players tied for the most money win (R10.2)."),
            story="Hans reached 21 earlier this round. Pascal has 16, a hammer and a map, and "
                  "two tokens still to play. Can he still win?",
        ),
        Puzzle(
            name="Overtake",
            position=Position(["bobby", "yoshiko"], seed=11).money(0, 15).money(1, 22)
            .money_history((10, 14)).hand(0, lockpick=1, hammer=1).loot(0, "L12")
            .museum("L08", "L21").harbor("F02", "F03")
            .tokens("museum", 0).tokens("harbor", 0).phase(act).notation(),
            goal=Goal("win"), seat=0, difficulty=4, rule="R8.2",
            solution=(_steal(0, "hammer", "lockpick", scoundrel=True),
                      _sell("F03", "L08", "L12")),
            hints=("Yoshiko has 22; Bobby needs 7 more to tie (R10.2).",
                   "The +2 fence buys one painting; the other buys two (R8.2)."),
            story="Yoshiko has 22 and the game ends with this round. Bobby has 15, a painting "
                  "worth 3, a lockpick and a hammer. Catch her.",
        ),
        Puzzle(
            name="First come",
            position=Position(["hans", "tommaso"], seed=12).hand(0, hammer=1, pliers=1)
            .hand(1, hammer=2).city("map", "map", "lockpick", "welder")
            .museum("L16", "L11").harbor("F10", "F08")
            .tokens("harbor", 0).tokens("city", 1).tokens("villa", 1)
            .tokens("ruin", 0).notation(),
            goal=Goal("earn", 6), seat=0, difficulty=4, rule="R2.2",
            opponents=(_place("museum"), _take("map", "map"), PASS,
                       _steal(0, "hammer", "hammer", scoundrel=True), PASS),
            solution=(_place("museum"), PASS, _steal(0, "hammer", "pliers", scoundrel=True),
                      _sell("F10", "L16")),
            hints=("Places act in order, and at each place square 1 first (R3.1).",
                   "A token takes the lowest free square (R2.2): who gets the Museum's first "
                   "square?"),
            story="Each of you has one token left to place, Hans first. Tommaso will put his "
                  "on the Museum and take the statue if he acts there first. Earn 6.",
        ),
        Puzzle(
            name="The fence you both need",
            position=Position(["pascal", "hans", "bobby"], seed=14).money(0, 15).money(1, 15)
            .money(2, 6).money_history((10, 11, 4)).loot(0, "L08", "L16", "L18")
            .loot(1, "L27", "L22").harbor("F02", "F10", "F14").tokens("harbor", 0, 1)
            .phase(act).notation(),
            goal=Goal("win"), seat=0, difficulty=5, rule="R8.3",
            opponents="adversarial",
            solution=(_sell("F14", "L16", "L18"),),
            hints=("Hans sells right after you and will pick the sale that hurts you most.",
                   "Whoever reaches 20 ends the game at the end of this round (R10.1); Hans "
                   "must not finish above you.",
                   "Which fence would pay Hans the most for his two jewels (R8.2)? A sold "
                   "fence leaves the Harbor (R8.3)."),
            story="Pascal and Hans both have 15, one Harbor token each, Pascal first. Pascal "
                  "holds a painting (4) and two statues (4 and 3); Hans two jewels (4 and 3). "
                  "Win the game this round, whatever Hans does.",
        ),
    ]


PUZZLES: list[Puzzle] = sorted(_puzzles(), key=lambda p: p.difficulty)  # easy to hard

__all__ = ["PUZZLES", "CheckResult", "Goal", "Puzzle", "PuzzleSession"]
