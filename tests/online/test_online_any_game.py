"""``lf.online`` for any registered game (issue 37): host a Crooks table, join it from Python
with the board, play it to its end against a server bot; two seats of a sealed step decide
at once; the New game panel's Play online deals the game it names."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from wire import ServerThread

import langfinger_widget as lf
from langfinger_widget import games
from langfinger_widget.net.seat import OnlineSeat

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games"))
from sealed import SPEC as SEALED  # the test-only game with a sealed step

games.register(SEALED)


def test_join_plays_a_crooks_seat_to_the_end_against_a_server_bot(server: ServerThread) -> None:
    made = lf.online.host(2, server.base, game="crooks", bots={1: "easy"}, pace=0)
    w = lf.online.join(made.invites[0])
    try:
        seat = w.table
        assert isinstance(seat, OnlineSeat)
        assert seat.wait_for(lambda s: s.table.get("status") == "playing", 10)
        assert seat.game_name == "crooks"
        rng = random.Random(2)
        while seat.wait_for_turn(20):
            # The board holds a Crooks view of this seat: nobody else's face-down crooks.
            assert w.view["format"].startswith("crooks") and w.view["seat"] == 0
            playing = [a for a in seat.legal if a["type"] != "pass"]
            seat.play(rng.choice(playing or seat.legal))
        assert seat.wait_for(lambda s: s.is_over, 20)
        game = seat.game  # the whole game: its record (naming crooks) replayed by the rules
        assert game.is_over and game.move_number == seat.move_number
        assert seat.record().splitlines()[1] == "game crooks"
        figures = seat.picture()["figures"]
        assert [f["seat"] for f in figures] == [0, 1]  # Crooks' own end-screen figures
        seat.drain()
        assert w.view["standings"] and w.figures == figures
    finally:
        w.close()


def test_join_plays_a_goods_seat_to_the_end_against_a_server_bot(server: ServerThread) -> None:
    made = lf.online.host(2, server.base, game="goods", bots={0: "easy"}, pace=0)
    w = lf.online.join(made.invites[1])
    try:
        seat = w.table
        assert isinstance(seat, OnlineSeat)
        assert seat.wait_for(lambda s: s.table.get("status") == "playing", 10)
        assert seat.game_name == "goods"
        rng = random.Random(4)
        while seat.wait_for_turn(30):
            # This seat's view only: the bot's hand and sealed plan never reach the board.
            assert w.view["format"].startswith("goods") and w.view["seat"] == 1
            other = w.view["players"][0]
            assert other["hand"] is None and other["plan"] is None and other["planned"] is None
            seat.play(rng.choice(seat.legal))
        assert seat.wait_for(lambda s: s.is_over, 30)
        game = seat.game
        assert game.is_over and game.move_number == seat.move_number
        assert seat.record().splitlines()[1] == "game goods"
        assert [r["score"] for r in game.standings()] == \
            [r["score"] for r in seat.view["standings"]]
    finally:
        w.close()


def test_two_seats_of_a_sealed_step_decide_at_once_from_python(server: ServerThread) -> None:
    made = lf.online.host(2, server.base, game="sealed", pace=0)
    seats = [OnlineSeat(made.invites[s]) for s in (0, 1)]
    try:
        for s in seats:  # both are to decide: neither waits for the other's turn
            assert s.wait_for_turn(10) and s.view["to_decide"] == [0, 1]
        for s in reversed(seats):
            s.play(s.legal[0])
        for s in seats:
            assert s.wait_for(lambda x: x.move_number == 2, 10)
            assert s.log[-1]["type"] in ("reveal", "draw")  # both bids turned up (S3)
    finally:
        for s in seats:
            s.close()


def test_play_online_deals_the_game_the_panel_names(server: ServerThread) -> None:
    w = lf.LangfingerWidget(players=3, seed=1, seat=0, autoplay=False)
    w.online_server = server.base
    try:
        reply = w.handle_message({"kind": "new_game", "game": "crooks", "players": 2, "seat": 0,
                                  "bots": {"1": "easy"}, "seed": None, "online": True})
        assert reply["ok"], reply
        assert isinstance(w.table, OnlineSeat)
        assert w.table.wait_for(lambda s: bool(s.view), 10) and w.table.game_name == "crooks"
        assert w.view["format"].startswith("crooks")
    finally:
        w.close()
