"""Mining puzzles from game records (docs/puzzles.md, "Mined from games").

    python -m langfinger_widget.puzzles mine RECORDS... --out mined.jsonl

For every decision of the Actions phase (R3) in a full record, the seat to
move gets a puzzle when one move is decisively best: the solver searches every
plan of that seat until the round's end, the rivals playing what they played
in the game (a script: docs/puzzles.md, "Opponents"), and the plans that reach
the best score all start with one move, every plan that starts otherwise at
least ``margin`` money behind (or only plans starting with that move win the
game this round, R10.1). The solver proves every puzzle it keeps: ``unique``
when one plan alone reaches the best, else ``best``. Later decisions of the same
seat in the same round are near-duplicates of the first (the same plan, cut
shorter) and are dropped, and so is a puzzle whose position and solution were
already mined from another record.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..kernel import describe, notation, rules, words
from ..kernel.state import State
from ..records.full import Record
from . import book
from .model import Goal, Puzzle
from .sight import blind_spot, line_events, needed
from .solver import Line, Search, TooBig, apply_plan_step, explore
from .themes import hint_of, rule_of, tag
from .titles import title

Action = dict[str, Any]
LIMIT = 5_000  # plan steps searched at most for one position (about a second)
# tqdm's own default hides the estimate in "[00:12<00:48]"; this one names it.
BAR_FORMAT = ("{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} "
              "[{elapsed} so far, ETA {remaining}, {rate_fmt}]")


@dataclass(frozen=True)
class Found:
    """One decision that makes a puzzle, before it is written up."""

    label: str
    decision: int  # 1-based, as the record numbers its decisions
    state: State
    seat: int
    script: tuple[Action, ...]
    goal: Goal
    solution: tuple[Action, ...]
    best: int
    second: int
    plans: int
    winning: int  # plans that meet the goal: 1 makes the puzzle's proof "unique"


def rest_of_round(record: Record, index: int) -> tuple[int, tuple[Action, ...]]:
    """The seat to move at ``index`` and the rivals' decisions until the round ends."""
    state = record.states[index]
    seat = record.deciders[index]
    script: list[Action] = []
    for i in range(index, record.length):
        if record.states[i].round != state.round or record.states[i].phase == "over":
            break
        if record.deciders[i] != seat:
            script.append(record.actions[i])
    return seat, tuple(script)


@dataclass(frozen=True)
class Ranking:
    """What a search says of the seat's first decision: the best first move and its plans."""

    best: int  # the best score any plan reaches
    second: int  # the best score of a plan that starts with another move
    plans: int  # how many plans there are
    winning: int  # how many plans reach ``best`` (all start with the key move)
    plan: list[rules.Key]  # one best plan


def _idea(key: rules.Key) -> tuple[Any, ...]:
    """What a first move chooses, leaving out the tools it hands in: which loot card to steal
    (R5.1), which exchange square to take (R6.1); other moves are their own idea."""
    if key[0] in ("steal", "exchange"):
        return key[:2]
    return key


def _rank(search: Search) -> Ranking | None:
    """The plans grouped by the idea of their first move; None unless one idea alone is best."""
    lines = search.settle([Line(search.start)])
    if any(search.round_over(ln) for ln in lines):
        return None
    best_of: dict[tuple[Any, ...], tuple[int, list[rules.Key]]] = {}  # idea -> value, a plan
    reaching: Counter[tuple[tuple[Any, ...], int]] = Counter()  # plans of an idea at a value
    plans = 0
    for key in rules.legal_keys(lines[0].state):
        tally = explore(search, apply_plan_step(search, lines, key))
        plans += sum(tally.values.values())
        idea, value = _idea(key), max(tally.values)
        reaching[idea, value] += tally.values[value]
        if idea not in best_of or value > best_of[idea][0]:
            best_of[idea] = (value, [key, *tally.best_plan])
    ranked = sorted(best_of.items(), key=lambda kv: -kv[1][0])
    idea, (best, plan) = ranked[0]
    second = ranked[1][1][0] if len(ranked) > 1 else best
    if second == best:
        return None
    return Ranking(best, second, plans, reaching[idea, best], plan)


def examine(record: Record, index: int, label: str, margin: int = 2,
            limit: int = LIMIT) -> Found | None:
    """The puzzle at decision ``index`` (0-based) of ``record``, or None."""
    state = record.states[index]
    if state.phase != "act":
        return None
    seat, script = rest_of_round(record, index)
    try:
        found = _decisive(state, seat, script, margin, limit)
    except TooBig:
        return None
    if found is None:
        return None
    goal, ranked = found
    return Found(label, index + 1, state, seat, script, goal,
                 tuple(rules.key_action(k) for k in ranked.plan), ranked.best, ranked.second,
                 ranked.plans, ranked.winning)


def _decisive(state: State, seat: int, script: tuple[Action, ...], margin: int, limit: int
              ) -> tuple[Goal, Ranking] | None:
    """The goal the position makes a puzzle of: winning the game this round if one first move
    alone does (R10.1), else earning the most, ``margin`` ahead of any other first move."""
    earn = Goal("earn")
    search = Search(state, seat, script, earn.score, limit=limit)
    ranked = _rank(search)
    if ranked is None or ranked.plans < 3 or ranked.best <= 0:
        return None
    money = state.players[seat].money
    if money + ranked.best >= 20 or max(p.money for p in state.players) >= 14:
        won = Goal("win")
        to_win = _rank(Search(state, seat, script, won.score, limit=limit))
        if to_win is not None and to_win.best == 1:  # one first move alone wins this round
            return won, to_win
    if ranked.best - ranked.second >= margin:
        return Goal("earn", ranked.best), ranked
    return None


def scan(record: Record, label: str, margin: int = 2, limit: int = LIMIT) -> Iterator[Found]:
    """Every decisive decision of a record, the first of each seat's round only."""
    if record.seat is not None:
        return  # a seat's record samples what it could not see: no exact position to prove
    done: set[tuple[int, int]] = set()
    for index in range(record.length):
        state = record.states[index]
        if state.phase != "act" or (state.round, record.deciders[index]) in done:
            continue
        found = examine(record, index, label, margin, limit)
        if found is not None:
            done.add((state.round, found.seat))
            yield found


def write_up(found: Found, taken: Iterable[str] = ()) -> Puzzle:
    """The decisive decision as a puzzle: a title none of ``taken`` holds, story, hints,
    themes, what the board must tell (R11.1) and source."""
    state, seat = found.state, found.seat
    draft = Puzzle(
        name=f"decision {found.decision} of {found.label}",  # a placeholder until titled
        position=notation.encode(state), goal=found.goal, solution=found.solution,
        hints=("-",), seat=seat, difficulty=3, rule="R3.1", opponents=found.script,
        story="", proof="unique" if found.winning == 1 else "best",
        source={"record": found.label, "decision": found.decision, "seed": state.seed,
                "players": len(state.players), "round": state.round},
    )
    themes = tag(draft)
    told = needed(draft).more(loot=_sold_by_rivals(draft))
    return replace(draft, name=title(replace(draft, told=told), taken), themes=themes,
                   rule=rule_of(themes), story=_story(found), hints=_hints(found, themes),
                   told=told)


def _sold_by_rivals(puzzle: Puzzle) -> list[str]:
    """The loot the rivals sell in the story's script: the story names each front, so the
    board shows it too, marked as told (R11.1), the Villa's or Museum's card it was."""
    return [c["id"] for e in line_events(puzzle)
            if e["type"] == "sell" and e["seat"] != puzzle.seat for c in e["loot"]]


def _story(found: Found) -> str:
    state, seat = found.state, found.seat
    me = state.players[seat]
    view = describe_view(state, seat)
    hand = words.tools(t for t, n in me.hand.items() for _ in range(n)) or "no tools"
    loot = words.listing([describe.loot(c) for c in view["players"][seat].get("loot", [])
                          if isinstance(c, dict)], empty="")
    others = "; ".join(f"{p.name} {p.money}" for i, p in enumerate(state.players) if i != seat)
    rivals = _script_words(found)
    return (f"From a recorded {len(state.players)}-player game, round {state.round}. "
            f"{me.name} has {me.money} money, {hand}"
            + (f" and loot: {loot}" if loot else "") + f". The others: {others}. "
            + (f"The rivals play as they did in the game: {rivals}. " if rivals else "")
            + f"Your goal: {found.goal}.")


def describe_view(state: State, seat: int | None) -> dict[str, Any]:
    from ..kernel import views

    return views.view(state, seat)


def _script_words(found: Found) -> str:
    """The rivals' scripted decisions in words, each from the position it was made in."""
    from ..kernel.game import Game

    game = Game.from_notation(notation.encode(found.state))
    said: list[str] = []
    plan = list(found.solution)
    script = list(found.script)
    while not game.is_over and game.round == found.state.round and (plan or script):
        who = game.to_move
        assert who is not None
        if who == found.seat:
            if not plan:
                break
            game.play(plan.pop(0))
            continue
        action = script.pop(0) if script else {"type": "pass"}
        if rules.explain(game.state, action) is not None:
            action = {"type": "pass"}
        said.append(describe.move(action, game.view(who), game.state.players[who].name)
                    .rstrip("."))
        game.play(action)
    return "; ".join(said)


def _hints(found: Found, themes: Sequence[str]) -> tuple[str, ...]:
    first = found.solution[0]
    lead = describe.action(first, describe_view(found.state, found.seat))
    hints = [hint_of(t) for t in themes[:2]]
    if found.goal.kind == "earn":
        hints.append(f"The best plan earns {found.best}; a plan that starts otherwise earns "
                     f"at most {max(found.second, 0)}.")
    hints.append(f"The key move: {lead}.")
    return tuple(hints)


def mine(records: Iterable[tuple[str, Record]], margin: int = 2, limit: int = LIMIT,
         progress: Callable[[int], None] | None = None) -> list[Puzzle]:
    """Puzzles from ``(label, record)`` pairs, near-duplicates dropped, each proven."""
    out: list[Puzzle] = []
    seen: set[tuple[str, str]] = set()
    taken = {p.name for p in book.load(book.COMPOSED, check=False)}  # one book holds both
    for label, record in records:
        for found in scan(record, label, margin, limit):
            key = (_board_key(found.state, found.seat), repr(found.solution))
            if key in seen:
                continue
            seen.add(key)
            puzzle = write_up(found, taken)
            # Kept once proven, and solvable from what its board shows and tells (R11.1).
            if puzzle.prove().verdict == puzzle.proof and blind_spot(puzzle) is None:
                out.append(puzzle)
                taken.add(puzzle.name)
        if progress is not None:
            progress(1)
    return out


def mine_records(sources: Iterable[str | Path | Record], margin: int = 2,
                 show: bool = False) -> list[Puzzle]:
    """Puzzles from records: files (``.lfr``, labelled by their path) or :class:`Record`
    objects (labelled ``record 1``, ``record 2``...); ``show`` prints a progress bar."""
    from ..records.reading import load

    items = list(sources)
    bar = Progress(len(items)) if show else None
    pairs = ((f"record {i + 1}", s) if isinstance(s, Record) else (str(s), load(s))
             for i, s in enumerate(items))
    try:
        return mine(pairs, margin=margin, progress=bar)
    finally:
        if bar is not None:
            bar.close()


def _board_key(state: State, seat: int) -> str:
    """The position without its money history and seed: two games that met the same board."""
    me = state.players[seat]
    return repr((me.scoundrel, sorted(me.hand.items()), sorted(me.loot), state.villa,
                 state.museum, state.harbor, state.city, state.squares))


# --- progress on the terminal --------------------------------------------------------------------


class Progress:
    """A tqdm bar with the ETA when tqdm is installed, else a line every few records."""

    def __init__(self, total: int, what: str = "records", desc: str = "mining") -> None:
        self.total, self.done, self.began = total, 0, time.perf_counter()
        self.what, self.desc = what, desc
        try:
            from tqdm import tqdm
        except ImportError:
            self.bar: Any = None
        else:
            self.bar = tqdm(total=total, desc=desc, unit=what.rstrip("s"), file=sys.stderr,
                            bar_format=BAR_FORMAT)

    def __call__(self, n: int) -> None:
        self.done += n
        if self.bar is not None:
            self.bar.update(n)
            return
        spent = time.perf_counter() - self.began
        eta = spent / self.done * (self.total - self.done)
        print(f"{self.desc}: {self.done}/{self.total} {self.what}, {spent:.0f} s so far, "
              f"ETA {eta:.0f} s", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


__all__ = ["Found", "Progress", "examine", "mine", "mine_records", "rest_of_round", "scan",
           "write_up"]
