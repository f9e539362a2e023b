"""A seat at a server's table from Python (net/seat.py): a script plays it through a real
server; each seat sees only its own hand; every failure is a clear error, never a hang."""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

import pytest
from wire import ServerThread

import langfinger_widget as lf
from langfinger_widget.net.hosting import Hosted, host
from langfinger_widget.net.seat import OnlineError, OnlineSeat
from langfinger_widget.tables.scheduler import LoopScheduler


def two_seats(server: ServerThread, **options: Any) -> tuple[Hosted, list[OnlineSeat]]:
    made = host(2, server.base, pace=0, **options)
    seats = [OnlineSeat(made.invites[s]) for s in (0, 1)]
    for s in seats:
        assert s.wait_for(lambda x: bool(x.view) and x.table.get("status") == "playing", 10)
    return made, seats


def play_moves(seats: list[OnlineSeat], moves: int, rng: random.Random) -> None:
    """Whoever is to move plays a random legal action, as a user's own bot would."""
    for _ in range(moves):
        if seats[0].is_over:
            return
        mover = seats[seats[0].to_move]
        assert mover.wait_for_turn(10)
        mover.play(rng.choice(mover.legal))
        for s in seats:  # everyone's picture follows the committed move
            assert s.wait_for(lambda x, seq=mover.seq: x.seq == seq, 10)


def test_two_scripts_play_each_other_and_see_only_their_own_hands(server: ServerThread) -> None:
    _, seats = two_seats(server)
    try:
        assert [s.seat for s in seats] == [0, 1]
        play_moves(seats, 30, random.Random(3))
        assert seats[0].move_number == seats[1].move_number >= 30
        for s in seats:
            other = 1 - (s.seat or 0)
            assert s.view["players"][s.seat]["hand"] is not None
            assert s.view["players"][other]["hand"] is None  # R13.1: only one's own hand
            assert s.legal == [] or s.to_move == s.seat  # legal only to the decider
            deals = [e for e in s.log if e["type"] == "deal" and e["seat"] == other]
            assert all(e["tools"] is None for e in deals)
        # The other seat's move is highlighted on arrival, as on a local board.
        assert seats[0].highlight["move"] == seats[0].move_number
        # Out of turn, the server refuses, naming the ruling; nothing changes.
        waiting = seats[1 - seats[0].to_move]
        before = waiting.version
        with pytest.raises(lf.IllegalAction, match=r"not your turn|R2\.1|R3\.1|decision"):
            waiting.play({"type": "place", "place": "museum"})
        assert waiting.version == before
        # A seat's record, from the server, names this table's game.
        assert seats[0].record().startswith("langfinger-record 1")  # its own record
    finally:
        for s in seats:
            s.close()


async def _send_act(seat: OnlineSeat, action: dict[str, Any]) -> int | None:
    return seat.send({"kind": "act", "action": action})


def test_messages_change_the_seat_on_its_owner_thread_only(server: ServerThread) -> None:
    """The socket is read on a background thread; the picture changes on the loop's thread."""
    loop = asyncio.new_event_loop()
    owner = threading.Thread(target=loop.run_forever, daemon=True)
    owner.start()
    changed_on: set[int] = set()
    made = host(2, server.base, pace=0)
    seat = OnlineSeat(made.invites[0], scheduler=LoopScheduler(loop, owner.ident))
    other = OnlineSeat(made.invites[1])
    try:
        seat.on_change = lambda: changed_on.add(threading.get_ident())
        # Waits here, on a thread that is not the owner: the loop's thread drains.
        assert seat.wait_for(lambda s: s.table.get("status") == "playing", 10)
        rng = random.Random(1)
        for _ in range(6):
            mover = seat if seat.to_move == 0 else other
            if mover is seat:
                assert seat.wait_for(lambda s: bool(s.legal), 10)
                action = rng.choice(seat.legal)
                # Read before sending: the owner's thread may apply the answer before
                # this thread runs again, and a number read after it would wait for a
                # move nobody makes (CI failed that way under load).
                before = seat.move_number
                sent = asyncio.run_coroutine_threadsafe(_send_act(seat, action), loop)
                assert sent.result(5) is not None  # sent from the owner's thread
                assert seat.wait_for(lambda s, n=before: s.move_number > n, 10)
            else:
                assert other.wait_for_turn(10)
                other.play(rng.choice(other.legal))
                assert seat.wait_for(lambda s, n=other.move_number: s.move_number == n, 10)
        assert changed_on == {owner.ident}
    finally:
        seat.close()
        other.close()
        loop.call_soon_threadsafe(loop.stop)
        owner.join(5)


def test_a_server_that_cannot_be_reached_is_a_clear_error() -> None:
    with pytest.raises(OnlineError, match=r"cannot be reached.*is it running"):
        OnlineSeat("http://127.0.0.1:9/join/T#secret")
    quiet = OnlineSeat("http://127.0.0.1:9/join/T#secret", raise_errors=False)
    assert quiet.connection == "closed" and "cannot be reached" in quiet.error


def test_a_seat_link_goes_offline_and_says_so_while_it_retries() -> None:
    seat = OnlineSeat("http://127.0.0.1:9/play/T#token")  # the socket is retried
    try:
        assert seat.wait_for(lambda s: s.connection == "offline", 10)
        assert seat.error.startswith("offline:") and "reconnecting in" in seat.error
        with pytest.raises(OnlineError, match="offline"):
            seat.play({"type": "pass"})
    finally:
        seat.close()


def test_wrong_taken_and_revoked_links_are_refused_clearly(server: ServerThread) -> None:
    made, seats = two_seats(server)
    try:
        with pytest.raises(OnlineError, match="no such table or invite"):
            OnlineSeat(made.invites[0].replace("#", "#x"))
        with pytest.raises(OnlineError, match="seat 1 is taken"):
            OnlineSeat(made.invites[1])  # the invite opened its seat once already
        # Leaving revokes the token: the seat's own link no longer opens it.
        own_link = seats[1].play_link
        assert seats[1]._request({"kind": "leave"}, 10)["ok"]
        again = OnlineSeat(own_link)
        assert again.wait_for(lambda s: s.connection == "closed", 10)
        assert "does not open a seat any more" in again.error and not again.view
    finally:
        for s in seats:
            s.close()


def test_a_finished_game_is_shown_whole_and_refuses_moves(server: ServerThread) -> None:
    made, seats = two_seats(server)
    watcher = OnlineSeat(made.watch)
    try:
        play_moves(seats, 10_000, random.Random(5))
        assert seats[0].is_over and seats[0].table["status"] == "over"
        game = seats[0].game  # the whole game, from the record, replayed by the kernel
        assert game.is_over and game.move_number == seats[0].move_number
        assert seats[0].picture()["figures"]  # the end screen's figures
        with pytest.raises(lf.IllegalAction, match="over"):
            seats[0].play({"type": "pass"})
        assert watcher.wait_for(lambda s: s.is_over, 10) and watcher.seat is None
        assert all(p["hand"] is None for p in watcher.view["players"])
        assert watcher.game.to_dict() == game.to_dict()  # the whole game, once it is over
    finally:
        for s in [*seats, watcher]:
            s.close()


def test_the_game_is_the_servers_while_it_is_played(server: ServerThread) -> None:
    _, seats = two_seats(server)
    try:
        with pytest.raises(OnlineError, match=r"R13\.1"):
            seats[0].game  # noqa: B018
        assert seats[0].new_game_intent({})["ok"] is False
        with pytest.raises(OnlineError, match="another person's"):
            seats[0].set_seat(1)
    finally:
        for s in seats:
            s.close()


def test_a_revoked_link_stays_closed_with_its_reason_on_a_loop(server: ServerThread) -> None:
    """The refusal is drained on the loop's thread after the socket closed: the reason stays
    (no "offline, reconnecting" over it) and nothing reconnects."""
    _, seats = two_seats(server)
    loop = asyncio.new_event_loop()
    owner = threading.Thread(target=loop.run_forever, daemon=True)
    owner.start()
    try:
        own_link = seats[1].play_link
        assert seats[1]._request({"kind": "leave"}, 10)["ok"]
        again = OnlineSeat(own_link, scheduler=LoopScheduler(loop, owner.ident))
        assert again.wait_for(lambda s: s.connection == "closed", 10)
        threading.Event().wait(1.0)  # time enough for a reconnection, were there one
        assert again.connection == "closed" and "does not open a seat" in again.error
        again.close()
    finally:
        for s in seats:
            s.close()
        loop.call_soon_threadsafe(loop.stop)
        owner.join(5)


def test_a_script_playing_flat_out_is_slowed_never_cut_off(server: ServerThread) -> None:
    # The server drops a connection's messages beyond 30 a second (bursts of 60); a seat keeps
    # its own smaller bucket, so a bot of one's own can play as fast as it likes.
    made = host(2, server.base, pace=0, bots={1: "easy"})
    seat = OnlineSeat(made.invites[0])
    rng, played = random.Random(5), 0
    while played < 90 and seat.wait_for_turn(10):  # False: the game is over (or time is up)
        seat.play(rng.choice(seat.legal))
        played += 1
    assert "too many" not in seat.error and seat.connection == "online"
    assert played == 90 or seat.is_over, seat.error
    seat.close()
