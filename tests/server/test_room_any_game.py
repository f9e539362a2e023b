"""A room of any registered game (issue 37): dealt from its setup, its journal replayed with
each move's seat (a sealed step's moves are not the first decider's), another process's
rows taken in, and each seat's events the game's own log for that seat."""

from __future__ import annotations

import random
from typing import Any

from sealed import SPEC as SEALED

from langfinger_widget import games
from langfinger_widget.server.room import PLAYING, Change, Room
from langfinger_widget.server.store import Loaded, Ply, SeatRow, TableRow

games.register(SEALED)


def _room(game: str, players: int, plies: list[Ply] | None = None) -> Room:
    setup = {"game": game, "players": players, "seed": 9, "options": {}}
    row = TableRow("t", len(plies or []), setup, {"game": game, "players": players},
                   "playing", None, False, None, "h", 0.0, 0.0)
    seats = [SeatRow(s, "person", f"P{s}", "taken", token_hash=f"x{s}") for s in range(players)]
    return Room(Loaded(row, seats, plies or []))


def _check(room: Room) -> None:
    game: Any = room.game
    for seat in (None, *range(game.num_players)):
        log = game.public_log() if seat is None and hasattr(game, "public_log") else \
            [] if seat is None else game.log(seat)
        tail, size = room.log_tail(seat)
        assert size == len(log) and tail == log[len(log) - len(tail):]


def _journal(game: str, players: int, moves: int, seed: int) -> tuple[Room, list[Ply]]:
    """A writer's room played ``moves`` random decisions, each by a random deciding seat
    (in a sealed step, not always the first), and the journal rows it wrote."""
    writer = _room(game, players)
    rng = random.Random(seed)
    plies = []
    for ply in range(moves):
        if writer.game.is_over:
            break
        seat = rng.choice(writer.game.to_decide)
        action = rng.choice(writer.game.legal_actions(seat))
        writer.apply(writer.finish(writer.play(seat, action, "person"), 0.0))
        plies.append(Ply(ply, "play", seat, {"action": action}, "person", ply + 1))
        _check(writer)
    return writer, plies


def test_a_sealed_journal_replays_each_move_for_its_own_seat() -> None:
    writer, plies = _journal("sealed", 3, 40, 2)
    assert any(p.seat != 0 and p.ply % 3 == 0 for p in plies)  # not the first decider
    reloaded = _room("sealed", 3, plies)
    assert reloaded.game.to_dict() == writer.game.to_dict()
    follower = _room("sealed", 3, plies[:4])
    for start in range(4, len(plies), 5):
        row = TableRow("t", start + 5, {}, {}, "playing", None, False, None, "h", 0.0, 0.0)
        follower.catch_up(Loaded(row, follower.seats, plies[start:start + 5]))
        _check(follower)
    assert follower.game.to_dict() == writer.game.to_dict()


def test_a_crooks_room_keeps_each_seats_log_through_plays_and_undos() -> None:
    room = _room("crooks", 3)
    rng = random.Random(4)
    for move in range(80):
        if room.game.is_over:
            break
        seat = room.game.to_move
        assert seat is not None
        room.apply(room.finish(room.play(seat, rng.choice(room.game.legal_actions(seat)),
                                         "person"), 0.0))
        if move % 9 == 4:
            draft = room.game.copy()
            draft.undo()
            room.apply(room.finish(Change("undo", draft), 0.0))
        _check(room)
    assert room.info(set())["game"] == "crooks"


def test_a_rooms_undo_refusals_are_those_made_from_each_moves_own_game() -> None:
    """The room keeps the names an Undo refusal gives (R12.2) for the game's life: each
    refusal is the one made from that move's game, as when it built the public view anew."""
    from langfinger_widget.tables.table import seat_undo_refusal

    for game, players in (("langfinger", 3), ("crooks", 3), ("goods", 3), ("langfinger", 5)):
        room = _room(game, players)
        rng = random.Random(6)
        named = 0
        for move in range(60):
            if room.game.is_over or room.status != PLAYING:
                break
            seat = rng.choice(room.game.to_decide)
            room.apply(room.finish(room.play(seat, rng.choice(room.game.legal_actions(seat)),
                                             "person"), 0.0))
            if move % 11 == 7 and game != "goods":
                draft = room.game.copy()
                draft.undo()
                room.apply(room.finish(Change("undo", draft), 0.0))
            if room.status != PLAYING:
                break  # the room's own refusals (over, waiting) come before the rules'
            for s in range(players):
                kept = room.undo_refusal(s)
                assert kept == seat_undo_refusal(room.game, s, room.humans), (game, move, s)
                named += bool(kept and "P" in kept)
        assert named, game  # some refusal named a seat by its name
