"""What one seat may see of a Crooks position and of its events (C7, C8).

Everything that leaves the kernel for a player, a browser or a bot goes
through here. A crook shows its front (id, rank, modifier, gangs, special) only
to those who may know it: face up, the seat's own (C8.2), one its Spy saw or
C7.2's knowledge follows; otherwise only where it lies and whose it is (C8.1).
A hangout shows its cards only to a seat that knows it exactly (C7.2). The box,
the seed and the deal never leave (C8.3).
"""

from __future__ import annotations

from typing import Any

from ..base import PUBLIC, redact, redact_log
from .cards import TARGETS
from .rules import standings, winners
from .state import State

VIEW_FORMAT = "crooks-view/1"
__all__ = ["PUBLIC", "VIEW_FORMAT", "redact", "redact_log", "view"]


def _sees_crook(state: State, viewer: int | None, owner: int, crook: str, up: bool) -> bool:
    if viewer is None or up or viewer == owner:
        return True
    return viewer != PUBLIC and crook in state.known[viewer]


def _face(state: State, crook: str) -> dict[str, Any]:
    return state.deck[crook].face()


def view(state: State, viewer: int | None) -> dict[str, Any]:
    """The position as ``viewer`` may see it (None: everything; PUBLIC: a spectator)."""
    n = state.num_players
    turn = state.turn
    targets = []
    for t in TARGETS:
        rows = []
        for s in range(n):
            rows.append([{"face": "up" if p.up else "down",
                          "crook": _face(state, p.crook)
                          if _sees_crook(state, viewer, s, p.crook, p.up) else None}
                         for p in state.rows[s][t]])
        targets.append({"target": t, "rows": rows})
    hangouts = []
    for h, pile in state.hangouts.items():
        exact = viewer is None or (viewer != PUBLIC and h in state.piles_known[viewer])
        hangouts.append({"hangout": h, "size": len(pile),
                         "cards": [_face(state, c) for c in sorted(pile)]
                         if exact or not pile else None})
    turn_view: dict[str, Any] | None = None
    if turn is not None:
        recruiter = viewer is None or viewer == state.seat
        sees_hand = recruiter or (viewer != PUBLIC and viewer in turn.hand_known)
        turn_view = {
            "seat": state.seat, "hangout": turn.hangout, "price": len(turn.pile),
            # C7.1: the pile is the recruiter's to see while it keeps one
            "pile": [_face(state, c) for c in turn.pile]
            if recruiter and state.step == "keep" else None,
            "hand": None if turn.hand is None or not sees_hand or turn.target is not None
            else _face(state, turn.hand),
            "target": turn.target,
        }
    over = state.step == "over"
    return {
        "format": VIEW_FORMAT,
        "game": "crooks",
        "seat": None if viewer in (None, PUBLIC) else viewer,
        "spectator": viewer == PUBLIC,
        "num_players": n,
        "start_player": state.start_player,
        "to_move": None if over else state.seat,
        "step": state.step,
        "players": [{"seat": s, "name": state.names[s], "cash": state.cash[s],
                     "passed": state.passed[s]} for s in range(n)],
        "hangouts": hangouts,
        "targets": targets,
        "turn": turn_view,
        "deck": [c.face() for c in state.deck.values()],  # the catalogue is public (C0.4)
        "standings": standings(state) if over else None,
        "winners": winners(state),
    }


