"""A puzzle's themes: the rulings and ideas its solution uses, read from what the solution does.

The solution is played (the rivals answering as the puzzle says) and the
seat's own events are read: a steal with the scoundrel is ``scoundrel``
(R5.2), a sale with a bonus ``fence bonus`` (R8.1), and so on (:data:`THEMES`).

>>> from langfinger_widget.puzzles import PUZZLES
>>> tag(PUZZLES[0]), places(PUZZLES[0])
(('chest', 'holding back'), ('Villa',))
"""

from __future__ import annotations

from typing import Any

from ..kernel import cards
from ..kernel.rules import Event
from .model import Puzzle

# theme -> (ruling, a hint in the book's words)
THEMES: dict[str, tuple[str, str]] = {
    "race to 20": ("R10.1", "Whoever has 20 or more when the round ends ends the game; the "
                            "most money wins (R10.1, R10.2)."),
    "denying a sale": ("R8.3", "A fence you sell to leaves the Harbor, even half used (R8.3): "
                               "who else wanted it?"),
    "two at one fence": ("R8.2", "A fence that shows a kind twice buys two of it in one "
                                 "action (R8.2)."),
    "fence bonus": ("R8.1", "The fences pay different bonuses for the same loot (R8.1)."),
    "Ruin timing": ("R3.1", "The Ruin acts before the Museum and the Harbor (R3.1): what you "
                            "draw there can pay for what comes later."),
    "Ruin exchange": ("R6.1", "At the Ruin you swap tools for as many from the pile, or more "
                              "(R6.1); the pile's top is told in the position."),
    "scoundrel": ("R5.2", "Your scoundrel stands in for one tool, once at the Villa and once "
                          "at the Museum (R5.2)."),
    "chest": ("R5.3", "A chest pays the moment you take it (R5.3); other loot pays only when "
                      "sold."),
    "City tools": ("R4", "At the City you take the two tools you choose (R4)."),
    "holding back": ("R3.1", "Every token may pass (R3.1): not every action is worth taking."),
    "placing order": ("R2.2", "A token takes the lowest free square of its place (R2.2)."),
}
PLACES = ("City", "Villa", "Ruin", "Museum", "Harbor")


def _own_events(puzzle: Puzzle) -> tuple[list[Event], list[Event]]:
    """The seat's events and the rivals' as the solution plays (rivals as the puzzle says)."""
    session = puzzle.session()
    for action in puzzle.solution:
        if session.over:
            break
        session.play(action)
    start = len(puzzle.game().log(None))
    events = session.game.log(None)[start:]
    mine = [e for e in events if e.get("seat") == puzzle.seat]
    theirs = [e for e in events if e.get("seat") not in (None, puzzle.seat)]
    return mine, theirs


def tag(puzzle: Puzzle) -> tuple[str, ...]:
    """The puzzle's themes, most telling first (in :data:`THEMES` order)."""
    mine, theirs = _own_events(puzzle)
    found = set(_themes(puzzle, mine, theirs))
    return tuple(t for t in THEMES if t in found)


def places(puzzle: Puzzle) -> tuple[str, ...]:
    """The places where the seat acts (not passes) in the solution, in the order of R3.1."""
    mine, _ = _own_events(puzzle)
    acted = {e["place"].capitalize() for e in mine if e["type"] in _ACTIONS}
    return tuple(p for p in PLACES if p in acted)


_ACTIONS = ("take_tools", "steal", "exchange", "sell")


def _themes(puzzle: Puzzle, mine: list[Event], theirs: list[Event]) -> list[str]:
    found: list[str] = []
    kinds = [e["type"] for e in mine]
    if puzzle.goal.kind == "win":
        found.append("race to 20")
    if puzzle.goal.kind == "stop_sale" or (
            "sell" in kinds and puzzle.opponents == "adversarial"
            and not any(e["type"] == "sell" for e in theirs)):
        found.append("denying a sale")
    for e in mine:
        found += _of_event(e)
    if "exchange" in kinds:
        # An exchange the plan builds on: the key move, or tools drawn for a later steal.
        if "steal" in kinds[kinds.index("exchange"):]:
            found += ["Ruin timing", "Ruin exchange"]
        elif kinds[0] == "exchange":
            found.append("Ruin exchange")
    if "pass" in kinds and len(kinds) > 1 and any(k in _ACTIONS for k in kinds):
        found.append("holding back")
    return found


def _of_event(e: Event) -> list[str]:
    kind = e["type"]
    if kind == "take_tools":
        return ["City tools"]
    if kind == "place":
        return ["placing order"]
    if kind == "cash":
        return ["chest"]
    if kind == "steal" and e.get("scoundrel"):
        return ["scoundrel"]
    if kind == "sell":
        out = ["two at one fence"] if len(e["loot"]) > 1 else []
        if e["gained"] > sum(_value(card) for card in e["loot"]):
            out.append("fence bonus")
        return out
    return []


def _value(face: Any) -> int:
    card = cards.LOOT_CARDS.get(face.get("id", "")) if isinstance(face, dict) else None
    return card.value if card is not None else int(face.get("value", 0))


def rule_of(themes: tuple[str, ...]) -> str:
    """The ruling a puzzle hinges on: its first theme's."""
    return next((THEMES[t][0] for t in themes if t in THEMES), "R3.1")


def hint_of(theme: str) -> str:
    return THEMES[theme][1]


__all__ = ["PLACES", "THEMES", "hint_of", "places", "rule_of", "tag"]
