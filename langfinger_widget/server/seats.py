"""Who may change a seat, and how (R13.3): stand-ins, taking a seat back, resigning,
leaving. Each builds a :class:`~langfinger_widget.server.room.Change` for the hub to commit.
"""

from __future__ import annotations

from typing import Any

from .room import OPEN, OVER, PERSON, PLAYING, RESIGNED, Change, Refusal, Room, said


def stand_in(room: Room, seat: int, target: Any, now: float) -> Change:
    """R13.3: another person hands a seat whose time ran out (or that nobody holds) to a bot."""
    if isinstance(target, bool) or not isinstance(target, int) or \
            not 0 <= target < len(room.seats):
        raise Refusal("bad_request", f"stand_in names a seat, not {said(target)}")
    s = room.seats[target]
    if room.status != PLAYING:
        raise Refusal("not_playing", "only a game being played has seats to stand in for")
    if target == seat:
        raise Refusal("bad_request", "R13.3: the other players hand a seat to a bot, not its own")
    if s.kind != PERSON or room.bot_plays(target):
        raise Refusal("bad_request", f"R13.3: {room.label(target)} is played by a bot already")
    if target not in room.game.to_decide:  # in a sealed step, any seat still deciding
        raise Refusal("bad_request", f"R13.3: it is not {room.label(target)}'s turn")
    if s.status != OPEN and not room.timed_out(now):
        raise Refusal("not_timed_out", f"R13.3: {room.label(target)} still has time")
    return room.seat_change({target: {"stand_in": True}})


def take_back(room: Room, seat: int) -> Change:
    if not room.seats[seat].stand_in:
        raise Refusal("bad_request", "your seat is yours: no bot stands in for it")
    return room.seat_change({seat: {"stand_in": False}})


def resign(room: Room, seat: int) -> Change:
    """R13.3: a stand-in plays the seat to the end; its token is revoked."""
    if room.status != PLAYING:
        raise Refusal("not_playing", "R13.3: only a game being played can be resigned; "
                                     "leave the table instead")
    return room.seat_change({seat: {"status": RESIGNED, "token_hash": None, "stand_in": False}})


def leave(room: Room, seat: int) -> Change:
    """The seat is given up: its token is revoked and its invite opens it again."""
    if room.status == OVER:
        raise Refusal("over", "R10.1: the game is over")
    return room.seat_change({seat: {"status": OPEN, "token_hash": None, "stand_in": False}})
