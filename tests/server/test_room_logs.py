"""A room keeps each seat's latest events move by move (redacting only a move's own events);
what it keeps is always the kernel's own log, redacted for that seat, through plays, undos
and another process's journal rows."""

from __future__ import annotations

import random

from langfinger_widget.server.room import LOG_LIMIT, Change, Room
from langfinger_widget.server.store import Loaded, Ply, SeatRow, TableRow

SETUP = {"players": 3, "seed": 11, "names": ["A", "B", "C"]}


def _room(plies: list[Ply] | None = None) -> Room:
    row = TableRow("t", len(plies or []), SETUP, {"players": 3}, "playing", None, False, None,
                   "h", 0.0, 0.0)
    seats = [SeatRow(s, "person", "ABC"[s], "taken", token_hash=f"x{s}") for s in range(3)]
    return Room(Loaded(row, seats, plies or []))


def _check(room: Room) -> None:
    for seat in (None, 0, 1, 2):
        log = room.game.public_log() if seat is None else room.game.log(seat)
        tail, size = room.log_tail(seat)
        assert size == len(log)
        assert len(tail) >= min(len(log), LOG_LIMIT)
        assert tail == log[len(log) - len(tail):]


def _apply(room: Room, change: Change) -> None:
    room.apply(room.finish(change, 0.0))


def test_the_kept_events_are_the_kernels_log_redacted_for_each_seat() -> None:
    room = _room()
    rng = random.Random(3)
    _check(room)
    for move in range(260):
        if room.game.is_over:
            break
        seat = room.game.to_move
        assert seat is not None
        _apply(room, room.play(seat, rng.choice(room.game.legal_actions()), "person"))
        if move % 37 == 0:
            draft = room.game.copy()
            draft.undo()
            _apply(room, Change("undo", draft))
        if move % 5 == 0:
            _check(room)
    _check(room)


def test_rows_from_another_process_extend_the_kept_events() -> None:
    writer = _room()
    rng = random.Random(5)
    plies = []
    for ply in range(120):
        seat = writer.game.to_move
        assert seat is not None
        action = rng.choice(writer.game.legal_actions())
        _apply(writer, writer.play(seat, action, "person"))
        plies.append(Ply(ply, "play", seat, {"action": action}, "person", ply + 1))
    follower = _room(plies[:40])
    _check(follower)
    for start in range(40, 120, 20):
        row = TableRow("t", start + 20, SETUP, {"players": 3}, "playing", None, False, None,
                       "h", 0.0, 0.0)
        follower.catch_up(Loaded(row, follower.seats, plies[start:start + 20]))
        _check(follower)
    (ours, size), (theirs, their_size) = follower.log_tail(1), writer.log_tail(1)
    assert size == their_size and ours[-LOG_LIMIT:] == theirs[-LOG_LIMIT:]
