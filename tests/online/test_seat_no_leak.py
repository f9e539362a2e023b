"""The resampling check (langfinger_widget.testing.check_no_leak) on what the notebook client
receives and shows: a board joined to a server's table started from a position must show
seat k the very same traits as one started from any twin that differs only in what k cannot
see (other hands, piles, face-down fronts, the seed)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from wire import ServerThread, join

import langfinger_widget as lf
from langfinger_widget import testing
from langfinger_widget.server import lobby

SHOWN = ("view", "legal", "events", "error", "seat", "bots", "human_seats", "highlight", "hint",
         "move_number", "version", "undo_status", "setup", "figures")


def _table_at(server: ServerThread, game: lf.Game) -> dict[str, Any]:
    body = {"players": game.num_players, "pace": 0}
    coro = lobby.create(server.hub, body, server.base, position=game.to_dict())
    made: dict[str, Any] = asyncio.run_coroutine_threadsafe(
        coro, server.hub.scheduler.loop).result(30)
    return made


def shown_to(server: ServerThread, game: lf.Game, seat: int) -> dict[str, Any]:
    """What a notebook board joined as ``seat`` shows of a table that starts at ``game``."""
    made = _table_at(server, game)
    for other, invite in made["invite_keys"].items():
        if int(other) != seat:  # every other person's seat taken: the game is on
            join(server.base, made["table"], invite)
    board = lf.online.join(made["invites"][str(seat)])
    try:
        assert board.table.wait_for(lambda s: s.table.get("status") == "playing", 10)
        board.table.drain()
        return {name: getattr(board, name) for name in SHOWN}
    finally:
        board.close()


def test_a_notebook_board_is_blind_to_what_its_seat_cannot_see(server: ServerThread) -> None:
    testing.check_no_leak(lambda game, seat: shown_to(server, game, seat), players=3, seed=4,
                          probes=3)


def test_and_the_check_can_fail_another_seat_does_see_the_difference(
        server: ServerThread) -> None:
    game = lf.Game.new(players=3, seed=1, start_player=0)
    for _ in range(6):
        game.play(game.legal_actions()[0])
    twin = testing.hidden_twin(game, 1, random.Random(1))  # seat 1 cannot tell them apart
    assert shown_to(server, game, 1) == shown_to(server, twin, 1)
    assert shown_to(server, game, 0) != shown_to(server, twin, 0)  # seat 0's hand differs
