"""Squares too late to do anything: what a token placed now may find gone when it acts.

Placing a token anywhere free is legal (R2.2), but a square can come too late: the displays
are not refilled within a round (R9.1), so the tokens ahead of it at a place may use up
everything shown there before it acts. The board says so before the token is placed, and the
analysis marks such a token; both ask this module, so the words and the count are the
kernel's, never the front end's.

>>> from langfinger_widget.kernel.builder import Position
>>> g = (Position(players=["pascal", "hans", "tommaso"], seed=1)
...      .city("map", "map", "hammer", "lockpick", "welder", "pliers")
...      .start_player(1).tokens("city", 1, 2, 0).build())
>>> too_late(g.state, "city")
"The City's 6 tools will be gone before square 4 acts if the 3 tokens ahead each take two (R4)."
"""

from __future__ import annotations

from .cards import PLACES
from .state import State

# What one token ahead can use up at a place, in the words of its rule.
_TAKES = {
    "city": (2, "tool", ("takes two", "take two"), "R4"),
    "villa": (1, "card", ("steals one", "steal one"), "R5.1"),
    "museum": (1, "card", ("steals one", "steal one"), "R7"),
    "harbor": (1, "fence", ("sells", "sell"), "R8.3"),
}
_NAMES = {p: p.capitalize() for p in PLACES}


def _things(place: str, state: State) -> int:
    shown: list[str] = getattr(state, place)
    return len(shown)


def too_late(state: State, place: str, ahead: int | None = None) -> str | None:
    """Why a token on ``place``'s next free square (or behind ``ahead`` tokens) may find
    nothing left to use when it acts, in a sentence naming the ruling; None if it may not."""
    if place not in _TAKES:
        return None  # the Ruin: five squares for five exchange squares, one each (R6.1)
    if ahead is None:
        ahead = sum(seat is not None for seat in state.squares[place])
    each, thing, verb, ruling = _TAKES[place]
    shown = _things(place, state)
    name = _NAMES[place]
    if shown == 0:
        return f"The {name} shows no {thing}s this round: a token there can only pass ({ruling})."
    if ahead * each < shown:
        return None
    what = f"The {name}'s only {thing}" if shown == 1 else f"The {name}'s {shown} {thing}s"
    who = f"the token ahead {verb[0]}" if ahead == 1 else f"the {ahead} tokens ahead each {verb[1]}"
    return f"{what} will be gone before square {ahead + 1} acts if {who} ({ruling})."


def too_late_places(state: State) -> dict[str, str]:
    """:func:`too_late` for every place a token may still go to now (placing only)."""
    if state.phase != "place":
        return {}
    out: dict[str, str] = {}
    for place in PLACES:
        if None not in state.squares[place]:
            continue  # full: no token goes there (R2.2)
        why = too_late(state, place)
        if why is not None:
            out[place] = why
    return out
