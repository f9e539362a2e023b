"""Exhaustive search over one seat's decisions until the end of the round.

A puzzle asks one seat (the *solver seat*) for a *plan*: the list of its
actions until the round ends. The other seats either follow a fixed script
(``opponents=[...]``) or are *adversarial*: every legal reply is tried and
the plan must work against all of them (a minimax over open-loop plans).

The search follows every opponent line at once: a *belief* is the list of
positions the plan so far may have led to, one per opponent line. The
plan's next action must be legal in each of them (otherwise the plan fails
in that line), and the plan is worth the worst score over its lines. With a
fixed script there is one line, and this is a plain depth-first search.

Scripted opponents: the script is a list of actions, used in order by
whichever opponent is to move. If the next scripted action is illegal in the
position the plan led to (the seat took that card first), that opponent
passes instead, or during placing takes the first place still free; the
script then moves on.

Randomness: the only chance in a round is the tool pile at the Ruin (R6.1)
and refills (R9.1). Both draw from the draw piles stored in the position,
which the position's seed dealt (or :meth:`Position.on_top` fixed), so the
search is exact: a puzzle's position decides every draw.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ..kernel import describe, rules, views, words
from ..kernel.errors import IllegalAction
from ..kernel.rules import Key
from ..kernel.state import State

Script = Sequence[dict[str, Any]]
Opponents = Literal["adversarial"] | Script


@dataclass(frozen=True)
class Line:
    """One opponent line: the position it reached and how (for explanations)."""

    state: State
    script_at: int = 0
    replies: tuple[tuple[int, Key], ...] = ()  # (seat, key) of every opponent move so far
    sellers: frozenset[int] = frozenset()  # seats that sold at the Harbor this round (R8)
    said: tuple[rules.Event, ...] = ()  # what the opponent moves did, for describe()

    def with_move(self, seat: int, key: Key, mine: bool, script_step: int = 0) -> Line:
        after = self.state.copy()
        events = rules.apply(after, key)
        sellers = self.sellers | {e["seat"] for e in events if e["type"] == "sell"}
        replies = self.replies if mine else (*self.replies, (seat, key))
        said = self.said if mine else (*self.said, *_own(events, seat))
        return Line(after, self.script_at + script_step, replies, frozenset(sellers), said)

    def describe(self, seat: int) -> str:
        """The opponent moves of this line as the board tells them to ``seat`` (R11.1: a
        card that seat may not see is named by its back), for "if the others play ..."."""
        if not self.said:
            return ""
        names = [p.name for p in self.state.players]
        moves = "; ".join(describe.event(e, names, seat).rstrip(".") for e in self.said)
        return f"if the others play: {moves}"


def _own(events: list[rules.Event], seat: int) -> list[rules.Event]:
    """The events of one player's move (not the refill or the round's turn that follow)."""
    return [e for e in events if e.get("seat") == seat and e["type"] != "start_player"]


def said_to(state: State, seat: int, key: Key) -> str:
    """The seat's action ``key`` in the board's words, as that seat sees ``state``."""
    return describe.action(rules.key_action(key), views.view(state, seat))


@dataclass(frozen=True)
class Outcome:
    """How a line ended: the start and end positions (the end of the round)."""

    start: State
    end: State
    seat: int
    sellers: frozenset[int]
    line: Line

    @property
    def gained(self) -> int:
        return self.end.players[self.seat].money - self.start.players[self.seat].money


Score = Callable[[Outcome], int]


@dataclass
class Search:
    """The search for one puzzle: the start, the solver seat, the opponents, the score."""

    start: State
    seat: int
    opponents: Opponents
    score: Score
    nodes: int = field(default=0, init=False)
    limit: int | None = None  # plans' steps to search at most (mining): TooBig past it
    steps: int = field(default=0, init=False)

    def round_over(self, line: Line) -> bool:
        return line.state.phase == "over" or line.state.round != self.start.round

    def settle(self, lines: Sequence[Line]) -> list[Line]:
        """Play the opponents until each line waits for the seat or the round is over."""
        out: list[Line] = []
        seen: set[tuple[str, int, frozenset[int]]] = set()
        todo = list(lines)
        while todo:
            line = todo.pop()
            if self.round_over(line) or rules.to_move(line.state) == self.seat:
                key = (repr(line.state.to_dict()), line.script_at, line.sellers)
                if key not in seen:  # two opponent lines that meet are one line
                    seen.add(key)
                    out.append(line)
                continue
            todo.extend(self.replies(line))
        return out

    def replies(self, line: Line) -> list[Line]:
        who = rules.to_move(line.state)
        assert who is not None
        self.nodes += 1
        legal = rules.legal_keys(line.state)
        if self.opponents == "adversarial":
            return [line.with_move(who, k, mine=False) for k in legal]
        script = self.opponents
        key = _fallback(line.state, legal)
        if line.script_at < len(script):
            try:
                wanted = rules.action_key(script[line.script_at])
            except IllegalAction:
                wanted = None
            if wanted in legal:
                key = wanted
        return [line.with_move(who, key, mine=False, script_step=1)]

    def outcome(self, line: Line) -> Outcome:
        return Outcome(self.start, line.state, self.seat, line.sellers, line)

    def worst(self, lines: Sequence[Line]) -> tuple[int, Line]:
        """The plan's value: its worst line (the opponents choose, R3.1 order)."""
        scored = [(self.score(self.outcome(line)), i) for i, line in enumerate(lines)]
        value, i = min(scored)
        return value, lines[i]


def _fallback(state: State, legal: list[Key]) -> Key:
    return rules.PASS if rules.PASS in legal else legal[0]


def apply_plan_step(search: Search, lines: Sequence[Line], key: Key) -> list[Line]:
    """Play the seat's next action in every line that waits for it."""
    out = []
    for line in lines:
        if search.round_over(line):
            out.append(line)
        else:
            out.append(line.with_move(search.seat, key, mine=True))
    return out


@dataclass
class Tally:
    """What the exhaustive search found: how many plans scored how much."""

    values: Counter[int] = field(default_factory=Counter)
    best_plan: list[Key] = field(default_factory=list)
    best: int | None = None

    def add(self, other: Tally, prefix: Key) -> None:
        self.values.update(other.values)
        if other.best is not None and (self.best is None or other.best > self.best):
            self.best, self.best_plan = other.best, [prefix, *other.best_plan]


class TooBig(Exception):
    """The search went past its ``limit``: no verdict (the miner skips such a position)."""


def explore(search: Search, lines: Sequence[Line]) -> Tally:
    """Every plan from here: the value of each (its worst line), counted."""
    search.steps += 1
    if search.limit is not None and search.steps > search.limit:
        raise TooBig(f"more than {search.limit} steps")
    lines = search.settle(lines)
    waiting = [ln for ln in lines if not search.round_over(ln)]
    tally = Tally()
    if not waiting:
        value, _ = search.worst(lines)
        tally.values[value] += 1
        tally.best = value
        return tally
    common = rules.legal_keys(waiting[0].state)
    for other in waiting[1:]:
        allowed = set(rules.legal_keys(other.state))
        common = [k for k in common if k in allowed]
    for key in common:  # a key illegal in some line cannot be part of a plan that works there
        tally.add(explore(search, apply_plan_step(search, lines, key)), key)
    if not common:
        tally.values[_NO_PLAN] += 1
    return tally


_NO_PLAN = -(10**9)  # the seat has no action legal in every line: the plan cannot go on


@dataclass(frozen=True)
class Proof:
    """The solver's verdict on a puzzle's solution.

    ``verdict`` is ``"unique"`` when the solution is the only plan that meets
    the goal, ``"best"`` when other plans meet it too but none scores more
    than the solution, and ``"fails"`` otherwise.
    """

    verdict: str
    optimum: int
    target: int
    solution_value: int
    plans: int
    winning_plans: int
    best_plans: int
    example: list[dict[str, Any]]
    positions: int

    def __str__(self) -> str:
        return (f"{self.verdict}: the solution scores {self.solution_value} (goal {self.target}, "
                f"best possible {self.optimum}); {self.winning_plans} of {self.plans} plans meet "
                f"the goal, {self.best_plans} reach the best; {self.positions} rival "
                f"decisions examined")


def evaluate(search: Search, plan: Sequence[Key]) -> tuple[int, Line, str | None]:
    """Play a plan in every line: (value, worst line, why it broke or None)."""
    lines = search.settle([Line(search.start)])
    for i, key in enumerate(plan):
        waiting = [ln for ln in lines if not search.round_over(ln)]
        if not waiting:
            return _NO_PLAN, lines[0], f"the round is over after your {words.count(i, 'move')}"
        for line in waiting:
            why = rules.explain(line.state, rules.key_action(key))
            if why is not None:
                where = line.describe(search.seat)
                return _NO_PLAN, line, (f"move {i + 1} ({said_to(line.state, search.seat, key)})"
                                        f" is illegal: {why}" + (f" ({where})" if where else ""))
        lines = search.settle(apply_plan_step(search, lines, key))
    waiting = [ln for ln in lines if not search.round_over(ln)]
    if waiting:
        acting = rules.acting_square(waiting[0].state)
        at = f" at the {acting[0]}" if acting else " (a token to place)"
        return _NO_PLAN, waiting[0], f"not finished: you still have a decision{at}"
    value, worst = search.worst(lines)
    return value, worst, None


def prove(search: Search, plan: Sequence[Key], target: int) -> Proof:
    """Search every plan; compare the puzzle's ``plan`` with the best there is."""
    tally = explore(search, [Line(search.start)])
    value, _, _ = evaluate(search, plan)
    optimum = max(tally.values)
    winning = sum(n for v, n in tally.values.items() if v >= target)
    solved = target <= value >= optimum
    verdict = ("unique" if winning == 1 else "best") if solved else "fails"
    return Proof(verdict, optimum, target, value, sum(tally.values.values()), winning,
                 tally.values[optimum], [rules.key_action(k) for k in tally.best_plan],
                 search.nodes)


__all__ = ["Line", "Outcome", "Proof", "Search", "TooBig", "evaluate", "explore", "prove"]
