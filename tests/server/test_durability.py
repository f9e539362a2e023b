"""Durability: a kill -9 at any moment loses no accepted move, and the server is a real process
(``python -m langfinger_widget.server``) that prints where it is and hands out links."""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

from websockets.exceptions import ConnectionClosed
from wire import ROOT, ServerProcess, Wire, play_random, seated_table, wires


def _journal(data: Path, table: str) -> list[dict]:
    with sqlite3.connect(data / "langfinger.sqlite3") as conn:
        rows = conn.execute("SELECT kind, data FROM lf_journal WHERE table_id = ? ORDER BY ply",
                            (table,)).fetchall()
    return [json.loads(d)["action"] for kind, d in rows if kind == "play"]


def _play_until_killed(clients: list[Wire], server: ServerProcess, moves: int, after: float,
                       rng: random.Random) -> tuple[list[dict], dict | None, list[dict]]:
    """Both people play as fast as they can; once ``moves`` are in, a timer kills the server
    with SIGKILL ``after`` seconds later, wherever the play then is.

    Returns the moves acknowledged (result ok), the move in flight when the socket died
    (if any), and the last state each seat saw."""
    timer = threading.Timer(after, server.kill)
    acked: list[dict] = []
    in_flight = None
    try:
        while True:
            to_move = clients[0].latest["view"]["to_move"]
            if to_move is None:
                break
            w = clients[to_move]
            action = rng.choice(w.latest["legal"])
            in_flight = action
            reply = w.act(action)
            assert reply["ok"], reply
            acked.append(action)
            in_flight = None
            if len(acked) == moves:
                timer.start()
            for c in clients:
                c.wait_for(lambda s, seq=reply["seq"]: s["seq"] >= seq)
    except (ConnectionClosed, TimeoutError, EOFError):
        pass
    finally:
        if not timer.is_alive() and not timer.finished.is_set():
            timer.start()  # the game ended first: kill it all the same
        timer.join()
    return acked, in_flight, [dict(c.latest) for c in clients]


def test_kill_9_at_any_moment_loses_no_accepted_move(tmp_path: Path) -> None:
    server = ServerProcess("--data", str(tmp_path)).start()
    try:
        made, seat_tokens = seated_table(server.base, players=2)
        table = made["table"]
        rng = random.Random(31)
        history: list[dict] = []
        for moves, after in ((8, 0.05), (8, 0.3)):
            with wires(server.ws_url, seat_tokens) as clients:
                acked, in_flight, seen = _play_until_killed(clients, server, moves, after, rng)
            history += acked
            kept = _journal(tmp_path, table)
            assert kept[:len(history)] == history  # nothing accepted is lost
            assert len(kept) - len(history) in (0, 1)
            committed_unanswered = len(kept) > len(history)
            if committed_unanswered:  # committed, then killed before the result went out
                assert kept[-1] == in_flight
                history.append(kept[-1])
            server = ServerProcess("--data", str(tmp_path), port=server.port).start()
            with wires(server.ws_url, seat_tokens) as again:
                for seat, w in enumerate(again):  # each seat resyncs to the same position
                    assert w.latest["move_number"] == len(history)
                    # (A seat whose last update the kill cut off saw an older position.)
                    if seen[seat]["move_number"] == len(history):
                        assert w.latest["view"] == seen[seat]["view"]
                # Whoever was told a move was accepted had its update already.
                last_seen = max(state["move_number"] for state in seen)
                assert last_seen == len(history) - (1 if committed_unanswered else 0) or \
                    (committed_unanswered and last_seen == len(history))
        assert len(history) > 10
        with wires(server.ws_url, seat_tokens) as clients:
            assert clients[0].latest["move_number"] == len(history)
            play_random(clients, 4, rng)  # and the game goes on
        assert _journal(tmp_path, table)[:len(history)] == history
    finally:
        server.stop()


def test_serve_prints_its_url_and_the_links_of_a_new_table(tmp_path: Path) -> None:
    server = ServerProcess("--data", str(tmp_path), "--new", "3", "--bot", "2=easy")
    try:
        server.start()
        text = server.wait_output("Spectators:")
    finally:
        server.kill()
    assert f"Langfinger server: http://127.0.0.1:{server.port}/" in text
    assert "Your seat (keep it to come back):" in text
    assert text.count("Invite for seat") == 1 and "/join/" in text
    assert f"http://127.0.0.1:{server.port}/watch/" in text


def test_the_package_imports_without_the_server() -> None:
    code = ("import sys, langfinger_widget as lf; lf.Game.new(2, seed=1).public_view(); "
            "bad = {'starlette', 'sqlalchemy', 'uvicorn', 'redis', 'langfinger_widget.server'} "
            "& set(sys.modules); assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT,
                   env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
