"""Hidden information over the wire (R13.1), by resampling.

Two tables whose games differ only in what seat k cannot see (its export, loaded: other
hands, piles, face-down fronts and the seed dealt anew) are played the same way; seat k's
socket must receive byte-identical frames for as long as the kernel gives k the same view and
log. A server that let anything else through (a hand, a pile, the seed, another seat's legal
actions, the undo history) would send k different bytes.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from rules_kit import busy_game
from wire import first_difference, frames_of_seat, same_for, twin_script

import langfinger_widget as lf


# Positions (players, seed of busy_game, its moves, k) whose twins stay alike for k a while:
# through placing, taking tools, exchanges, steals, passes and, with 3 players, a new round.
@pytest.mark.parametrize("players,seed,moves,k", [(2, 40, 120, 0), (3, 52, 30, 1),
                                                   (4, 41, 30, 3), (5, 40, 70, 2)])
def test_seat_k_receives_the_same_bytes_from_twins_it_cannot_tell_apart(
        tmp_path: Path, players: int, seed: int, moves: int, k: int) -> None:
    game = lf.Game.from_dict(busy_game(players, seed, moves).to_dict())  # a table starts here
    twin = lf.Game.from_dict(game.to_dict(seat=k))
    assert twin.to_dict() != game.to_dict() and same_for(k, game, twin)
    script = twin_script(game, twin, k, 12, random.Random(seed))
    assert len(script) >= 8
    ours, ours_watched = frames_of_seat(tmp_path / "a", game, k, script)
    theirs, theirs_watched = frames_of_seat(tmp_path / "b", twin, k, script)
    assert len(ours) > len(script)
    assert ours == theirs, first_difference(ours, theirs)
    # A spectator knows less than any seat: its frames cannot differ either (R13.1).
    assert ours_watched == theirs_watched, first_difference(ours_watched, theirs_watched)
    if players != 2:
        return
    # And the test can fail: another seat's socket does see the difference.
    other = (k + 1) % players
    assert frames_of_seat(tmp_path / "c", game, other, [])[0] != \
        frames_of_seat(tmp_path / "d", twin, other, [])[0]
