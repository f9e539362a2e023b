"""Past one machine: two server processes share real Postgres and Redis (issue 31).

A move made through process A reaches a client connected to process B; one writer per
table (two processes racing for the same table: exactly one move is kept); bots are driven
by one process and seen by all; and the bus carries only "table T is at sequence N".
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import threading
import time
from collections.abc import Iterator

import httpx
import pytest
import services
from websockets.exceptions import ConnectionClosed
from wire import WAIT, ServerProcess, Wire, caught_up, create, join, play_random, wires

import langfinger_widget as lf


@pytest.fixture(scope="module")
def shared() -> Iterator[tuple[str, ...]]:
    """A real Postgres and Redis: the arguments that point a server process at them."""
    try:
        with services.postgres() as pg, services.redis() as bus:
            yield ("--database", pg.url, "--broker", bus.url)
    except services.Missing as missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI must install the services: {missing}")
        pytest.skip(str(missing))


@pytest.fixture(scope="module")
def cluster(shared: tuple[str, ...]) -> Iterator[tuple[ServerProcess, ServerProcess, str]]:
    a = ServerProcess(*shared).start()
    b = ServerProcess(*shared)
    try:
        b.start()
        yield a, b, shared[-1]
    finally:
        a.stop()
        b.stop()


def test_a_move_through_process_a_reaches_a_client_of_process_b(cluster) -> None:
    a, b, _ = cluster
    made = create(a.base, players=2, join=0, pace=0)
    seat1 = join(b.base, made["table"], made["invite_keys"]["1"])  # joined through B
    on_a, on_b = Wire(a.ws_url), Wire(b.ws_url)
    try:
        on_a.hello(made["token"])
        on_b.hello(seat1["token"])
        for w in (on_a, on_b):
            w.wait_for(lambda s: s["table"]["status"] == "playing")
        played = play_random([on_a, on_b], 30, random.Random(3))
        assert len(played) == 30
        assert on_a.latest["seq"] == on_b.latest["seq"]
        assert on_a.latest["view"]["players"][1]["hand"] is None
        assert on_b.latest["view"]["players"][0]["hand"] is None
        # Each client's log is what its own process replayed from the database.
        assert on_a.latest["move_number"] == on_b.latest["move_number"] == 30
    finally:
        on_a.close()
        on_b.close()


def _send(w: Wire, action: dict, replies: list[dict]) -> None:
    replies.append(w.act(action))


def test_one_writer_per_table(cluster) -> None:
    """The same seat, connected to both processes, sends the same move to both at once."""
    a, b, _ = cluster
    made = create(a.base, players=2, join=0, pace=0)
    other = join(a.base, made["table"], made["invite_keys"]["1"])["token"]
    tokens = [made["token"], other]
    with wires(a.ws_url, tokens) as on_a, wires(b.ws_url, tokens) as on_b:
        for _ in range(6):
            seat = on_a[0].latest["view"]["to_move"]
            for w in (on_a[seat], on_b[seat]):
                w.wait_for(lambda s, q=on_a[0].latest["seq"]: s["seq"] >= q)
            action = on_a[seat].latest["legal"][0]
            replies: list[dict] = []
            racers = [threading.Thread(target=_send, args=(w, action, replies))
                      for w in (on_a[seat], on_b[seat])]
            for t in racers:
                t.start()
            for t in racers:
                t.join()
            assert sorted(r["ok"] for r in replies) == [False, True], replies
            loser = next(r for r in replies if not r["ok"])
            assert loser["code"] in ("conflict", "stale", "not_your_turn")
            caught_up(on_a + on_b, max(r["seq"] for r in replies))
        assert on_a[0].latest["move_number"] == on_b[1].latest["move_number"] == 6


def test_bots_play_once_and_everyone_sees_them(cluster) -> None:
    a, b, _ = cluster
    made = create(a.base, players=3, join=0, pace=0,
                  seats=[{"kind": "person"}, {"kind": "bot", "level": "easy"},
                         {"kind": "bot", "level": "medium"}])
    on_a, on_b = Wire(a.ws_url), Wire(b.ws_url)
    try:
        on_a.hello(made["token"])
        on_b.hello(table=made["table"], spectate=made["spectator_key"])
        for _ in range(8):
            on_a.wait_for(lambda s: s["legal"] != [] or s["view"]["is_over"], timeout=30)
            assert on_a.act(on_a.latest["legal"][0])["ok"]
        seq = on_a.latest["seq"]
        on_b.wait_for(lambda s: s["seq"] >= seq, timeout=30)
        moves = on_b.latest["move_number"]
        assert moves >= 8 * 3 - 2  # the bots answered every move, each exactly once
        assert on_b.latest["view"]["spectator"] is True
    finally:
        on_a.close()
        on_b.close()


def test_the_bus_carries_only_table_and_sequence(cluster) -> None:
    a, b, bus_url = cluster
    import redis

    bus = redis.Redis.from_url(bus_url)
    listener = bus.pubsub()
    listener.subscribe("langfinger:tables")
    try:
        made = create(a.base, players=2, join=0, pace=0)
        token = join(b.base, made["table"], made["invite_keys"]["1"])["token"]
        with wires(a.ws_url, [made["token"], ""]) as on_a, wires(b.ws_url, ["", token]) as on_b:
            play_random([on_a[0], on_b[1]], 10, random.Random(4))
        notices = []
        while (message := listener.get_message(timeout=1.0)) is not None or not notices:
            if message is None:
                break
            if message["type"] == "message":
                notices.append(message["data"].decode())
        assert len(notices) >= 10
        shape = re.compile(r"^[0-9a-f]{16}\|[A-Za-z0-9_-]{1,32} \d+$")
        assert all(shape.match(n) for n in notices), notices
    finally:
        listener.close()
        bus.close()


def _record(base: str, table: str, token: str) -> list[dict]:
    text = httpx.get(f"{base}/api/tables/{table}/record", timeout=WAIT,
                     headers={"Authorization": f"Bearer {token}"}).text
    return list(lf.records.read(text).actions)


def test_a_process_killed_mid_move_loses_and_doubles_nothing(shared, cluster) -> None:
    """Seat 0 plays through a process that is killed (SIGKILL) with a move of its in flight,
    three times over; seat 1 plays through B. No process owns the table: every commit is a
    compare and set on its sequence number, so B goes on at once, seat 0's client connects
    to B again and is resynced, and the journal holds every acknowledged move once. The move
    in flight may have been committed (then the resync shows it) or not: never twice."""
    _, b, _ = cluster
    rng = random.Random(39)
    made = create(b.base, players=2, join=0, pace=0)
    tokens = [made["token"], join(b.base, made["table"], made["invite_keys"]["1"])["token"]]
    acked: list[dict] = []  # every move acknowledged to its client, in order
    on_b = Wire(b.ws_url)
    clients: list[Wire] = []
    try:
        on_b.hello(tokens[1])
        outcomes = []
        for round_ in range(3):
            doomed = ServerProcess(*shared).start()
            try:
                on_doomed = Wire(doomed.ws_url)
                assert on_doomed.hello(tokens[0])["kind"] == "state"
                clients = [on_doomed, on_b]
                acked += play_random(clients, 4 + round_, rng)  # both processes carry moves
                # Seat 1 (on B) moves until it is seat 0's turn: its move goes to the doomed one.
                while on_b.latest["view"]["to_move"] == 1:
                    acked += play_random(clients, 1, rng)
                assert on_doomed.latest["view"]["to_move"] == 0
                action = rng.choice(on_doomed.latest["legal"])
                on_doomed.next_id += 1
                on_doomed.send({"kind": "act", "id": on_doomed.next_id, "action": action,
                                "version": on_doomed.latest["version"]})
                time.sleep(rng.choice([0.0, 0.001, 0.002, 0.004, 0.008]))
                doomed.kill()  # SIGKILL: no shutdown, no notice, maybe half a move done
                answer = None
                with contextlib.suppress(ConnectionClosed, TimeoutError):
                    while answer is None:
                        message = on_doomed.recv(timeout=5)
                        if message["kind"] == "result" and message["id"] == on_doomed.next_id:
                            answer = message
                on_doomed.close()
            finally:
                doomed.kill()
            if answer is not None and answer["ok"]:
                acked.append(action)
            # The client connects again, to the process that lives, and is resynced there.
            again = Wire(b.ws_url)
            clients = [again, on_b]
            state = again.hello(tokens[0])
            assert state["kind"] == "state"
            committed = state["move_number"]
            assert committed in (len(acked), len(acked) + 1), (committed, len(acked))
            in_flight = answer is None and committed == len(acked) + 1
            outcomes.append("acknowledged" if answer is not None and answer["ok"] else
                            "committed, unacknowledged" if in_flight else "not committed")
            if in_flight:
                acked.append(action)  # committed before the kill: seen by all from now on
            on_b.wait_for(lambda s, q=state["seq"]: s["seq"] >= q)
            assert on_b.latest["move_number"] == committed == len(acked)
            assert _record(b.base, made["table"], tokens[1]) == acked
            acked += play_random(clients, 3, rng)  # and play goes on through B alone
            again.close()
        assert _record(b.base, made["table"], tokens[0]) == acked, outcomes
    finally:
        on_b.close()
        for w in clients:
            w.close()


def test_a_process_that_followed_nobody_at_a_table_catches_up_for_its_first_client(
        cluster) -> None:
    """B loaded the table (its lobby made it) but has no client there, so it does not
    follow the moves made through A; a seat and a spectator who then come to B see them all,
    and B's next commit builds on them."""
    a, b, _ = cluster
    made = create(b.base, players=2, join=0, pace=0)
    other = join(b.base, made["table"], made["invite_keys"]["1"])["token"]
    tokens = [made["token"], other]
    with wires(a.ws_url, tokens) as on_a:
        played = play_random(on_a, 12, random.Random(5))
        seq = on_a[0].latest["seq"]
    with wires(b.ws_url, tokens) as on_b:
        assert [w.latest["seq"] for w in on_b] == [seq, seq]
        assert on_b[0].latest["move_number"] == len(played)
        watcher = Wire(b.ws_url)
        try:
            state = watcher.hello(table=made["table"], spectate=made["spectator_key"])
            assert state["seq"] == seq
            played += play_random(on_b, 3, random.Random(6))
        finally:
            watcher.close()
    assert _record(a.base, made["table"], tokens[0]) == played


def test_a_move_whose_notice_never_came_still_reaches_the_other_process(shared,
                                                                         cluster) -> None:
    """A process that commits and never tells the bus (here one started without a broker;
    in life one killed between its commit and its notice) leaves B's clients behind only
    until B's next look at the database: the seat whose turn it became is told."""
    _, b, _ = cluster
    silent = ServerProcess(*shared[:2]).start()  # the same database, no bus
    try:
        made = create(b.base, players=2, join=0, pace=0)
        other = join(b.base, made["table"], made["invite_keys"]["1"])["token"]
        tokens = [made["token"], other]
        with wires(silent.ws_url, tokens) as on_silent, wires(b.ws_url, tokens) as on_b:
            seat = on_silent[0].latest["view"]["to_move"]
            reply = on_silent[seat].act(on_silent[seat].latest["legal"][0])
            assert reply["ok"]
            for w in on_b:  # no notice: B finds the move by itself
                w.wait_for(lambda s: s["seq"] >= reply["seq"], timeout=3 * WAIT)
            assert on_b[0].latest["move_number"] == 1
    finally:
        silent.stop()
