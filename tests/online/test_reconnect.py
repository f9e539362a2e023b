"""A server that dies under a notebook seat: the seat says it is offline (never frozen, never
a traceback), reconnects by itself when the server is back, and plays on from the very same
position (every move was committed before anyone saw it)."""

from __future__ import annotations

import random
from pathlib import Path

from wire import ServerProcess

from langfinger_widget.net.hosting import host
from langfinger_widget.net.seat import OnlineSeat


def test_a_seat_goes_offline_and_comes_back_by_itself(tmp_path: Path) -> None:
    server = ServerProcess("--data", str(tmp_path)).start()
    seats: list[OnlineSeat] = []
    try:
        made = host(2, server.base, pace=0)
        seats = [OnlineSeat(made.invites[s]) for s in (0, 1)]
        rng = random.Random(3)
        for _ in range(4):
            assert seats[0].wait_for(lambda s: s.table.get("status") == "playing", 10)
            mover = seats[seats[0].to_move]
            assert mover.wait_for_turn(10)
            mover.play(rng.choice(mover.legal))
            assert seats[0].wait_for(lambda s, n=mover.move_number: s.move_number == n, 10)
        at = seats[0].move_number
        server.kill()
        for s in seats:
            assert s.wait_for(lambda x: x.connection == "offline", 15)
            assert s.error.startswith("offline:") and "reconnecting" in s.error
        server = ServerProcess("--data", str(tmp_path), port=server.port).start()
        for s in seats:
            assert s.wait_for(lambda x: x.connection == "online", 40)
            assert s.move_number == at and not s.error
        mover = seats[seats[0].to_move]
        assert mover.wait_for_turn(10)
        mover.play(mover.legal[0])  # and the game goes on
        assert seats[0].wait_for(lambda s: s.move_number == at + 1, 10)
    finally:
        for s in seats:
            s.close()
        server.kill()
