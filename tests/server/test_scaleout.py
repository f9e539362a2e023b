"""Past one machine: two server processes share real Postgres and Redis (issues 31, 39).

A move made through process A reaches a client connected to process B; one writer per
table (two processes racing for the same table: exactly one move is kept); bots are driven
by one process and seen by all; and the bus carries only "table T is at sequence N". A
table's commits are its owner process's; the others forward to it, and take over (no move
lost or doubled) when it is killed.
"""

from __future__ import annotations

import contextlib
import json
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
from wire import (
    WAIT,
    ServerProcess,
    ServerThread,
    Wire,
    caught_up,
    create,
    join,
    play_random,
    wires,
)

import langfinger_widget as lf
from langfinger_widget.server import owners
from langfinger_widget.server import tokens as lf_tokens
from langfinger_widget.server.config import Settings


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
    three times over; seat 1 plays through B. Whichever of them owns the table, B goes on
    (at once, or once the dead owner's lease ran out), seat 0's client connects to B again
    and is resynced, and the journal holds every acknowledged move once. The move
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


# --- one owner process per table (issue 39) ------------------------------------------------
LEASE = owners.LEASE_SECONDS
ANSWER = 4 * LEASE  # an answer that waits out a dead owner's lease (then a takeover)


def _act_unanswered(w: Wire, rng: random.Random) -> dict:
    """Send a random legal move of ``w``'s without reading its answer; the move."""
    action = rng.choice(w.latest["legal"])
    w.next_id += 1
    w.send({"kind": "act", "id": w.next_id, "action": action,
            "move": w.latest["move_number"], "version": w.latest["version"]})
    return action


def _answer_of(w: Wire) -> dict | None:
    """The result of ``w``'s last intent, or None if its socket closed first."""
    with contextlib.suppress(ConnectionClosed, TimeoutError):
        while True:
            message = w.recv(timeout=ANSWER)
            if message["kind"] == "result" and message["id"] == w.next_id:
                return message
    return None


@pytest.mark.parametrize("mover", ["forwarded", "the owner's own"])
def test_an_owner_killed_mid_move_loses_and_doubles_nothing(shared, cluster, mover) -> None:
    """Both seats first play through a process D, which so owns the table; then seat 1 plays
    through B (its moves forwarded to D). A move is sent, D is killed (SIGKILL) with it in
    flight, twice over: the move is seat 1's (in D's inbox, or being committed) or seat
    0's own on D. B takes the table over once D's lease runs out: a forwarded move is
    answered truthfully (the journal tells whether D committed it, else B commits it), play
    goes on through B, and the journal holds every acknowledged move once."""
    _, b, _ = cluster
    rng = random.Random(391 if mover == "forwarded" else 392)
    for _round in range(2):
        doomed = ServerProcess(*shared).start()
        clients: list[Wire] = []
        try:
            made = create(doomed.base, players=2, join=0, pace=0)
            tokens = [made["token"],
                      join(doomed.base, made["table"], made["invite_keys"]["1"])["token"]]
            with wires(doomed.ws_url, tokens) as first:  # D's first commit: D owns the table
                acked = play_random(first, 2, rng)
            clients = [Wire(doomed.ws_url), Wire(b.ws_url)]
            for w, token in zip(clients, tokens, strict=True):
                assert w.hello(token)["kind"] == "state"
            acked += play_random(clients, 3, rng)
            seat = 1 if mover == "forwarded" else 0
            while clients[0].latest["view"]["to_move"] != seat:
                acked += play_random(clients, 1, rng)
            action = _act_unanswered(clients[seat], rng)
            time.sleep(rng.choice([0.0, 0.001, 0.002, 0.004, 0.008]))
            doomed.kill()
            answer = _answer_of(clients[seat])
        finally:
            doomed.kill()
        clients[0].close()
        on_b = clients[1]
        try:
            if seat == 1:  # B answers it: D had committed it, or B took over and did
                assert answer is not None and answer["ok"], answer
                acked.append(action)
            elif answer is not None and answer["ok"]:
                acked.append(action)
            again = Wire(b.ws_url)  # seat 0 connects again, to the process that lives
            try:
                state = again.hello(tokens[0])
                committed = state["move_number"]
                assert committed in (len(acked), len(acked) + 1), (committed, len(acked))
                if committed == len(acked) + 1:  # D committed it and died before answering
                    acked.append(action)
                on_b.wait_for(lambda s, q=state["seq"]: s["seq"] >= q, timeout=ANSWER)
                assert _record(b.base, made["table"], tokens[1]) == acked
                # Play goes on through B alone: its first move waits out D's lease.
                players = [again, on_b]
                w = players[state["view"]["to_move"]]
                w.wait_for(lambda s: s["legal"] != [])
                first_move = rng.choice(w.latest["legal"])
                reply = w.intent("act", timeout=ANSWER, action=first_move,
                                 move=w.latest["move_number"], version=w.latest["version"])
                assert reply["ok"], reply
                acked.append(first_move)
                caught_up(players, reply["seq"])
                acked += play_random(players, 3, rng)
                assert _record(b.base, made["table"], tokens[0]) == acked
            finally:
                again.close()
        finally:
            on_b.close()


def _person_moves(w: Wire, moves: int, rng: random.Random) -> list[dict]:
    """The person at ``w`` plays ``moves`` random moves, waiting for the bot between."""
    played = []
    for _ in range(moves):
        w.wait_for(lambda s: s["legal"] != [], timeout=ANSWER)
        action = rng.choice(w.latest["legal"])
        reply = w.act(action)
        assert reply["ok"], reply
        played.append(action)
    return played


def test_the_bots_of_a_killed_owners_table_move_once_on_the_survivor(shared, cluster) -> None:
    """A person against a bot; D owns the table and drives the bot; the person plays through
    B (forwarded to D) and D is killed with a move in flight. B takes the table over, its bot
    goes on, and the record (checked by replaying it) holds each acknowledged move once
    and the bot's decisions between them: a doubled bot move would be out of turn."""
    _, b, _ = cluster
    rng = random.Random(393)
    doomed = ServerProcess(*shared).start()
    try:
        made = create(doomed.base, players=2, join=0, pace=0,
                      seats=[{"kind": "person"}, {"kind": "bot", "level": "easy"}])
        with wires(doomed.ws_url, [made["token"]]) as (first,):  # D drives the bot: it owns
            acked = _person_moves(first, 2, rng)
        on_b = Wire(b.ws_url)
        try:
            on_b.hello(made["token"])
            acked += _person_moves(on_b, 1, rng)  # forwarded to D
            on_b.wait_for(lambda s: s["legal"] != [], timeout=ANSWER)
            action = _act_unanswered(on_b, rng)
            time.sleep(rng.choice([0.0, 0.002, 0.008]))
            doomed.kill()
            answer = _answer_of(on_b)
            assert answer is not None and answer["ok"], answer
            acked.append(action)
            acked += _person_moves(on_b, 3, rng)  # the bot answers through B now
        finally:
            on_b.close()
    finally:
        doomed.kill()
    record = lf.records.read(httpx.get(
        f"{b.base}/api/tables/{made['table']}/record", timeout=WAIT,
        headers={"Authorization": f"Bearer {made['token']}"}).text)
    mine = [a for a, seat in zip(record.actions, record.deciders, strict=True) if seat == 0]
    assert mine == acked
    assert record.deciders.count(1) >= len(acked) - 1  # the bot answered each move


@pytest.fixture
def threads(shared: tuple[str, ...]) -> Iterator[tuple[ServerThread, ServerThread]]:
    """Two server processes' worth of hubs, in threads of this one, to look into."""
    def settings() -> Settings:
        return Settings(database=shared[1], broker=shared[3], allow_private_webhooks=True)

    a = ServerThread(settings()).start()
    b = ServerThread(settings())
    try:
        b.start()
        yield a, b
    finally:
        a.stop()
        b.stop()


def _owner_of(bus_url: str, table: str) -> str:
    import redis

    with contextlib.closing(redis.Redis.from_url(bus_url)) as bus:
        owner = bus.get(owners.OWNER_KEY + table)
    assert owner is not None
    return owner.decode()


def test_every_commit_of_a_table_is_made_by_its_owner(shared, threads) -> None:
    """Seat 0 plays through A, seat 1 through B: one of them owns the table and makes every
    commit of the game; the other forwards its seat's moves and commits none."""
    a, b = threads
    made = create(a.base, players=2, join=0, pace=0)
    token = join(b.base, made["table"], made["invite_keys"]["1"])["token"]
    before = {a: a.hub.commits, b: b.hub.commits}  # the lobby's join is B's, not a move
    rng = random.Random(7)
    played = []
    with wires(a.ws_url, [made["token"], ""]) as on_a, wires(b.ws_url, ["", token]) as on_b:
        players = [on_a[0], on_b[1]]
        for _ in range(20):
            w = players[players[0].latest["view"]["to_move"]]
            played.append(rng.choice(w.latest["legal"]))
            reply = w.act(played[-1])
            assert reply["ok"], reply
            # Forwarded or not, the mover's update came before its result (as one process).
            assert w.latest["seq"] == reply["seq"]
            assert json.loads(w.frames[-2])["kind"] == "update"
            caught_up(players, reply["seq"])
    owner = a if _owner_of(shared[3], made["table"]) == a.hub.broker.sender else b
    other = b if owner is a else a
    assert other.hub.commits == before[other]
    assert owner.hub.commits - before[owner] == len(played) == 20
    assert other.hub.rooms[made["table"]].room.plies == len(played)  # followed all the same


def test_a_forged_or_revoked_token_forwarded_is_refused_by_the_owner(shared, threads) -> None:
    """Whatever a forwarder says, the owner checks the seat's token hash against its own
    copy of the table: an ask pushed straight into its inbox with a made-up hash, or with
    the hash of a token revoked since (the seat resigned), is refused; the right one goes."""
    import redis

    a, _ = threads
    made = create(a.base, players=3, join=0, pace=0)
    table = made["table"]
    tokens = [made["token"]] + [join(a.base, table, made["invite_keys"][str(s)])["token"]
                                for s in (1, 2)]
    with wires(a.ws_url, tokens) as on_a:
        play_random(on_a, 1, random.Random(8))  # A commits first: A owns the table
        to_move = on_a[0].latest["view"]["to_move"]
        quitter = next(s for s in range(3) if s != to_move)
        assert on_a[quitter].intent("resign")["ok"]
        caught_up(on_a, on_a[to_move].latest["seq"] + 1)
        w = on_a[to_move]
        w.wait_for(lambda s: s["legal"] != [])
        move = {"kind": "act", "id": 1, "action": w.latest["legal"][0],
                "move": w.latest["move_number"], "version": w.latest["version"]}
        owner = _owner_of(shared[3], table)
        assert owner == a.hub.broker.sender
        me = "test" + os.urandom(6).hex()
        with contextlib.closing(redis.Redis.from_url(shared[3])) as bus:
            def ask(seat: int, token_hash: str, n: int) -> dict:
                bus.rpush(owners.INBOX_KEY + owner, json.dumps(
                    {"ask": f"q{n}", "from": me, "table": table, "seat": seat,
                     "token_hash": token_hash, "intent": move}))
                popped = bus.blpop([owners.INBOX_KEY + me], timeout=WAIT)
                assert popped is not None
                answer = json.loads(popped[1])
                assert answer["ask"] == f"q{n}"
                return answer

            forged = ask(to_move, "0" * 64, 1)
            revoked = ask(quitter, lf_tokens.digest(tokens[quitter]), 2)
            assert (forged["ok"], forged["code"]) == (False, "revoked"), forged
            assert (revoked["ok"], revoked["code"]) == (False, "revoked"), revoked
            right = ask(to_move, lf_tokens.digest(tokens[to_move]), 3)
            assert right["ok"], right
        w.wait_for(lambda s: s["seq"] >= right["seq"])


def test_a_bot_table_nobody_watches_goes_on_when_its_owner_dies(shared, cluster) -> None:
    """Bots only (the person resigned; a stand-in plays the seat), nobody connected
    anywhere: D owns the table and drives its bots, and is killed mid-game. No client's
    process would take the table over, so the survivors look for bot tables nobody owns
    (hub's _adopt_orphans), and one of them drives the bots on to the end of the game: its
    record then reads (every move legal in turn, so none doubled by two drivers)."""
    _, b, _ = cluster
    doomed = ServerProcess(*shared, "--owner-lease", "1").start()
    try:
        made = create(doomed.base, players=2, join=0, pace=0.1, stand_in="easy",
                      seats=[{"kind": "person"}, {"kind": "bot", "level": "easy"}])
        with wires(doomed.ws_url, [made["token"]]) as (person,):
            assert person.intent("resign")["ok"]
        time.sleep(0.5)  # a few bot moves on D
    finally:
        doomed.kill()
    url = f"{b.base}/api/tables/{made['table']}/record"
    headers = {"Authorization": f"Bearer {made['spectator_key']}"}
    assert httpx.get(url, headers=headers, timeout=WAIT).json()["code"] == "not_over"
    deadline = time.monotonic() + 120
    while (answer := httpx.get(url, headers=headers, timeout=WAIT)).status_code != 200:
        assert time.monotonic() < deadline, "nobody took the orphaned bot table over"
        time.sleep(0.5)
    record = lf.records.read(answer.text)
    assert record.game().is_over
