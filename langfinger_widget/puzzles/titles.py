"""Titles a person would give a mined puzzle: "The second chest", "Sell before Tommaso".

A title names what the puzzle's solution turns on (a sale that beats a rival to the
fence, two cards to one fence, a chest, a card to steal, a bonus, the Ruin, the City), in
the reader's words and only with what the reader's seat sees at the start (R11.1): a loot
card by its back ("the safe at the Museum"), the reader's own loot, and what the puzzle
tells, by its front. Titles are unique in a book: a title already taken gets whose puzzle
it is, then the round, never a file's name or a move number.

>>> from langfinger_widget.puzzles import PUZZLES
>>> title(PUZZLES[0])
'The chest at the Villa'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..kernel import cards, words
from ..kernel.rules import PLACE_NAMES, Event
from ..kernel.state import State
from .sight import Puzzle, line

ORDINALS = ("first", "second", "third", "fourth", "fifth")
RATE_WORDS = {"1>2": "One for two", "2>3": "Two for three", "3>4": "Three for four",
              "2>2": "Two for two", "1>1": "One for one"}
Move = tuple[int, dict[str, Any], State, list[Event]]


def title(puzzle: Puzzle, taken: Iterable[str] = ()) -> str:
    """A title for ``puzzle`` that is none of ``taken``."""
    moves = line(puzzle)
    start = puzzle.start()
    points = _points(puzzle, start, moves)
    base = points[0]
    me = start.players[puzzle.seat].name
    used = set(taken)
    candidates = [base, *(f"{base} and {_short(p)}" for p in points[1:2]),
                  f"{base} ({me})", f"{base} ({me}, round {start.round})"]
    for candidate in candidates:
        if candidate not in used:
            return candidate
    n = 2
    while f"{base} ({me}, round {start.round}, {words.number(n)})" in used:
        n += 1
    return f"{base} ({me}, round {start.round}, {words.number(n)})"


def _points(puzzle: Puzzle, start: State, moves: list[Move]) -> list[str]:
    """What the solution turns on, the most telling first."""
    seat = puzzle.seat
    out: list[str] = []
    if puzzle.goal.kind == "win":
        leader = max((p for i, p in enumerate(start.players) if i != seat),
                     key=lambda p: p.money)
        out.append(f"Twenty before {leader.name}")
    mine = [(action, before) for who, action, before, _ in moves
            if who == seat and action["type"] != "pass"]
    sales = [a for a, _ in mine if a["type"] == "sell"]
    rival = _outsold(moves, seat)
    if rival is not None:
        out.append(f"Sell before {start.players[rival].name}")
    for sale in sales:
        if len(sale["loot"]) == 2:
            kind = _kind(puzzle, start, sale)
            out.append(_capital(f"two {words.plural(kind)} to one fence" if kind else
                                "two for one fence"))
    steals = [(a, b) for a, b in mine if a["type"] == "steal"]
    out += [_steal_words(a, b) for a, b in steals if _stolen(a, b).protection == "chest"]
    for sale in sales:
        kind = cards.LOOT_CARDS[sale["loot"][0]].kind
        if cards.FENCE_CARDS[sale["fence"]].buys[kind][1]:
            told = _kind(puzzle, start, sale)
            out.append(_capital(f"{words.one(told)} for a bonus" if told else
                                "a bonus at the Harbor"))
    out += [_steal_words(a, b) for a, b in steals if _stolen(a, b).protection != "chest"]
    for sale in sales:
        kind = _kind(puzzle, start, sale)
        out.append(_capital(f"sell {words.one(kind)}" if kind else "a sale at the Harbor"))
    for action, _ in mine:
        if action["type"] == "exchange":
            out.append(f"{RATE_WORDS.get(action['rate'], 'An exchange')} at the Ruin")
        elif action["type"] == "take_tools":
            out.append(_capital(f"{words.tools(action['tools'])} from the City"))
    out.append("Pass it all")
    return list(dict.fromkeys(out))  # each point once, in order


def _outsold(moves: list[Move], seat: int) -> int | None:
    """The first rival who sells after the reader's first sale: selling first takes the fence
    (R8.3: a fence used once is discarded)."""
    sold = False
    for who, _, _, events in moves:
        if any(e["type"] == "sell" for e in events):
            if who == seat:
                sold = True
            elif sold:
                return who
    return None


def _stolen(action: dict[str, Any], before: State) -> cards.LootCard:
    return cards.LOOT_CARDS[before.display(_acting(before))[int(action["slot"])]]


def _acting(state: State) -> str:
    from ..kernel.rules import acting_square

    acting = acting_square(state)
    return acting[0] if acting else ""


def _steal_words(action: dict[str, Any], before: State) -> str:
    place = _acting(before)
    display = before.display(place)
    slot = int(action["slot"])
    protection = cards.LOOT_CARDS[display[slot]].protection
    alike = [i for i, x in enumerate(display) if cards.LOOT_CARDS[x].protection == protection]
    if len(alike) > 1:
        return f"The {ORDINALS[alike.index(slot)]} {protection}"
    return f"The {protection} at the {PLACE_NAMES[place]}"


def _kind(puzzle: Puzzle, start: State, sale: dict[str, Any]) -> str:
    """The kind sold, if the reader knows it at the start (own loot or told), else ""."""
    known = set(start.players[puzzle.seat].loot) | set(puzzle.told.loot)
    first = sale["loot"][0]
    return cards.LOOT_CARDS[first].kind if first in known else ""


def _short(point: str) -> str:
    """A point as the second half of a title: "The first chest and the City"."""
    for end, short in ((" from the City", "the City"), (" at the Ruin", "the Ruin"),
                       ("A bonus at the Harbor", "a bonus")):
        if point.endswith(end):
            return short
    if point.startswith("Sell before "):
        return "a sale before " + point.removeprefix("Sell before ")
    if point.startswith("Sell "):
        return "selling " + point.removeprefix("Sell ")
    return point[:1].lower() + point[1:]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


__all__ = ["title"]
