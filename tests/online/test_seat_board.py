"""The board widget bound to an online seat (lf.online.join): the same traits and intents as
a local board, the server deciding; errors shown on the board, never raised at it."""

from __future__ import annotations

import random
from typing import Any

import pytest
from wire import ServerThread

import langfinger_widget as lf
from langfinger_widget.net.hosting import host
from langfinger_widget.net.seat import OnlineSeat


def board_of(link: str) -> Any:
    board = lf.online.join(link)
    assert board.table.wait_for(lambda s: bool(s.view), 10)
    return board


def test_a_board_plays_online_through_the_same_intents(server: ServerThread) -> None:
    made = host(2, server.base, pace=0, bots=None)
    boards = [board_of(made.invites[0]), board_of(made.invites[1])]
    for b in boards:
        assert b.table.wait_for(lambda s: s.table.get("status") == "playing", 10)
    try:
        rng = random.Random(2)
        for _ in range(8):
            mover = boards[boards[0].view["to_move"]]
            assert mover.table.wait_for_turn(10)
            other = boards[1 - mover.seat]
            assert mover.legal and other.legal == []  # legal only on the decider's board
            action = rng.choice(mover.legal)
            sent = mover.handle_message({"kind": "act", "action": action,
                                         "move": mover.move_number, "version": mover.version})
            assert sent["kind"] == "sent"  # the server's answer follows
            n = mover.move_number + 1
            for b in boards:
                assert b.table.wait_for(lambda s, n=n: s.move_number >= n, 10)
                b.table.drain()
            assert other.move_number == n and other.highlight["seat"] == mover.seat
        for seat, b in enumerate(boards):
            assert b.seat == seat and b.human_seats == [seat]
            assert b.view["players"][1 - seat]["hand"] is None
            assert b.setup["allow_new_game"] is False and b.undo_status.keys() == {"allowed",
                                                                                  "reason"}
        # A stale intent (chosen at an older move) is refused by the server; the board says so.
        waiting = boards[1 - boards[0].view["to_move"]]
        waiting.handle_message({"kind": "act", "action": {"type": "pass"}, "move": 0,
                                "version": 0})
        assert waiting.table.wait_for(lambda s: bool(s.error), 10)
        waiting.table.drain()
        assert waiting.error
        # Things that have no meaning online are refused, changing nothing.
        assert waiting.handle_message({"kind": "new_game"})["ok"] is False
        assert waiting.handle_message({"kind": "reveal", "seat": 0})["ok"] is False
        with pytest.raises(ValueError, match="server seats the bots"):
            waiting.bots = {"0": "hard", "1": "hard"}
        with pytest.raises(ValueError, match="another person's"):
            waiting.seat = 1 - waiting.seat
    finally:
        for b in boards:
            b.close()
    assert all(b.table.closed for b in boards)


def test_a_board_that_cannot_join_says_why_and_takes_no_move() -> None:
    board = lf.online.join("http://127.0.0.1:9/join/T#secret")
    try:
        assert "cannot be reached" in board.error and board.view == {}
        reply = board.handle_message({"kind": "act", "action": {"type": "pass"}, "move": 0,
                                      "version": 0})
        assert reply["ok"] is False and "cannot be reached" in reply["error"]
    finally:
        board.close()


def test_importing_the_online_api_loads_no_widget_library() -> None:
    import subprocess
    import sys

    code = ("import sys, langfinger_widget as lf; lf.online.connect; "
            "print(sorted(m for m in ('anywidget', 'traitlets', 'ipywidgets', 'websockets') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_a_script_and_a_board_share_one_seat_link(server: ServerThread) -> None:
    """The board shows what a script (a user's own bot) plays through the seat's own link."""
    made = host(2, server.base, pace=0, bots={1: "easy"})
    board = board_of(made.invites[0])
    bot = OnlineSeat(board.table.play_link)
    try:
        for _ in range(4):
            assert bot.wait_for_turn(10)
            bot.play(bot.legal[0])
            assert board.table.wait_for(lambda s: s.move_number >= bot.move_number, 10)
            board.table.drain()
        assert board.move_number >= 4 and board.bots == {"1": "easy"}
    finally:
        bot.close()
        board.close()
