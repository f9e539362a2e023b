"""The red team: forged and stolen tokens, replays, garbage, floods, foreign pages.

Each attack is refused with a clear error, changes nothing, leaks nothing, and the server
goes on serving everyone else. The long version (``-m slow``) throws thousands of random
frames at a table and then checks it against a fresh replay of its journal.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from wire import ServerThread, Wire, seated_table, wires

from langfinger_widget.server.config import Settings
from langfinger_widget.server.room import Room

FORGED = "A" * 43


@pytest.fixture()
def table(server) -> Iterator[tuple[dict[str, Any], list[str], list[Wire]]]:
    made, seat_tokens = seated_table(server.base, players=3)
    with wires(server.ws_url, seat_tokens) as clients:
        yield made, seat_tokens, clients


def _unchanged(clients: list[Wire], seq: int) -> None:
    """The table did not move and still answers its people."""
    for w in clients:
        pong = w.intent("ping")
        assert pong["kind"] == "pong" and pong["seq"] == seq


def _refused_hello(server, hello: Any) -> tuple[dict[str, Any], int | None]:
    w = Wire(server.ws_url)
    try:
        w.send(hello)
        reply = w.recv()
        return reply, w.closed_with()
    finally:
        w.close()


@pytest.mark.parametrize("hello", [
    {"kind": "hello"},
    {"kind": "hello", "token": FORGED},
    {"kind": "hello", "token": "short"},
    {"kind": "hello", "token": {"$ne": None}},
    {"kind": "hello", "token": "é" * 43},
    {"kind": "hello", "table": "x", "spectate": FORGED},
    {"kind": "act", "id": 1, "action": {"type": "pass"}},
    "not json at all",
])
def test_forged_or_missing_credentials_are_refused(server, table, hello) -> None:
    _, _, clients = table
    seq = clients[0].latest["seq"]
    reply, code = _refused_hello(server, hello)
    assert reply["kind"] == "error" and code == 4401
    assert reply["code"] in ("unauthorized", "bad_json")
    assert "view" not in reply and "legal" not in reply
    _unchanged(clients, seq)


def test_a_spectator_key_of_another_table_opens_nothing(server, table) -> None:
    made, _, clients = table
    seq = clients[0].latest["seq"]
    other, _ = seated_table(server.base, players=2)
    reply, code = _refused_hello(server, {"kind": "hello", "table": made["table"],
                                          "spectate": other["spectator_key"]})
    assert reply["code"] == "unauthorized" and code == 4401
    _unchanged(clients, seq)


def test_the_seat_comes_from_the_token_never_from_the_message(table) -> None:
    _, _, clients = table
    seq = clients[0].latest["seq"]
    to_move = clients[0].latest["view"]["to_move"]
    intruder = clients[(to_move + 1) % 3]
    action = clients[to_move].latest["legal"][0]
    for forged in ({"seat": to_move}, {"you": {"seat": to_move}}, {"token": "x" * 43}):
        reply = intruder.intent("act", action=action, **forged)
        assert reply["ok"] is False and reply["code"] == "not_your_turn"
        assert "not yours" in reply["error"]
    assert intruder.intent("undo")["ok"] is False
    assert intruder.latest["legal"] == []  # never another seat's legal actions
    _unchanged(clients, seq)


def test_a_spectator_may_not_act(server, table) -> None:
    made, _, clients = table
    seq = clients[0].latest["seq"]
    w = Wire(server.ws_url)
    try:
        w.hello(table=made["table"], spectate=made["spectator_key"])
        for kind in ("act", "undo", "resign", "leave", "hint", "stand_in"):
            reply = w.intent(kind, action={"type": "pass"}, seat=0)
            assert reply["ok"] is False and reply["code"] == "spectator"
    finally:
        w.close()
    _unchanged(clients, seq)


def test_replayed_and_out_of_order_messages_are_refused(table) -> None:
    _, _, clients = table
    w = clients[clients[0].latest["view"]["to_move"]]
    frame = {"kind": "act", "id": 50, "action": w.latest["legal"][0],
             "move": w.latest["move_number"], "version": w.latest["version"]}
    w.send(frame)
    assert w.until("result", id=50)["ok"] is True
    seq = w.latest["seq"]
    for replay in (frame, {**frame, "id": 49}, {**frame, "id": 1}):
        w.send(replay)
        refused = w.until("error")
        assert refused["code"] == "replayed" and refused["seq"] == seq
    w.next_id = 50
    stale = w.intent("act", action=frame["action"], move=frame["move"],
                     version=frame["version"])
    assert stale["ok"] is False and stale["code"] in ("stale", "not_your_turn")
    for c in clients:
        c.wait_for(lambda s: s["seq"] == seq)
    _unchanged(clients, seq)


@pytest.mark.parametrize("frame,code", [
    ("{not json", "bad_json"),
    ("[1, 2, 3]", "bad_message"),
    ("null", "bad_message"),
    ("[" * 5000 + "]" * 5000, "bad_json"),  # nested past the parser's depth
    (json.dumps({"kind": "act", "id": 9, "v": 2}), "version"),
    (json.dumps({"kind": "launch_missiles", "id": 9}), "unknown_kind"),
    (json.dumps({"kind": "act", "action": {"type": "pass"}}), "bad_id"),
    (json.dumps({"kind": "act", "id": 9.5}), "bad_id"),
    (json.dumps({"kind": "act", "id": True}), "bad_id"),
    (b"\x00\x01binary", "bad_message"),
])
def test_malformed_frames_get_a_clear_error_and_change_nothing(table, frame, code) -> None:
    _, _, clients = table
    seq = clients[0].latest["seq"]
    w = clients[0]
    w.send(frame)
    error = w.until("error")
    assert error["code"] == code and error["error"]
    _unchanged(clients, seq)


@pytest.mark.parametrize("action", [
    {"type": "steal", "slot": "x"}, {"type": "place", "place": None}, {"type": 5}, [],
    "pass", None, {"type": "place", "place": "city", "extra": "x" * 1000},
    {"type": "sell", "fence": "F99", "loot": ["L99"]},
])
def test_malformed_actions_are_refused_naming_why(table, action) -> None:
    _, _, clients = table
    seq = clients[0].latest["seq"]
    w = clients[clients[0].latest["view"]["to_move"]]
    reply = w.intent("act", action=action)
    assert reply["ok"] is False and reply["error"]
    why = w.intent("why", action=action)
    assert isinstance(why["reason"], str)
    _unchanged(clients, seq)


def test_oversized_messages_are_refused_and_huge_frames_cut_off(server, table) -> None:
    _, seat_tokens, clients = table
    seq = clients[0].latest["seq"]
    w = clients[0]
    w.send(json.dumps({"kind": "ping", "id": 1, "pad": "x" * 20_000}))
    assert w.until("error")["code"] == "too_big"
    assert w.intent("ping")["kind"] == "pong"  # the socket is still open
    giant = Wire(server.ws_url)
    try:
        giant.hello(seat_tokens[1])
        giant.send("x" * 200_000)
        assert giant.closed_with() == 1009  # the web server's own size cap
    finally:
        giant.close()
    _unchanged([clients[0], clients[2]], seq)


def test_a_flood_is_rate_limited_then_disconnected(server, table) -> None:
    _, seat_tokens, clients = table
    seq = clients[0].latest["seq"]
    w = clients[0]
    for i in range(1, 201):  # over the burst, under the flood limit
        w.send({"kind": "ping", "id": i})
    seen: list[dict] = []
    while not any(r["kind"] == "error" for r in seen) and len(seen) < 200:
        seen.append(w.until(("pong", "error")))
    assert seen[-1]["code"] == "rate_limited" and "slow down" in seen[-1]["error"]
    assert sum(r["kind"] == "pong" for r in seen) >= 60  # the burst went through
    time.sleep(1.0)
    w.next_id = 1000
    assert w.intent("ping")["kind"] == "pong"  # the bucket refills: the client is served again
    flooder = Wire(server.ws_url)
    try:
        flooder.hello(seat_tokens[1])
        for i in range(1, 800):
            try:
                flooder.send({"kind": "ping", "id": i})
            except ConnectionClosed:
                # The server may cut the flood off before the last ping is out: how far the
                # client got depends on how the two are scheduled, the close code does not.
                break
        assert flooder.closed_with() == 4429
    finally:
        flooder.close()
    _unchanged([clients[0], clients[2]], seq)


def test_pages_from_unknown_origins_are_refused(server, table, tmp_path) -> None:
    _, seat_tokens, clients = table
    seq = clients[0].latest["seq"]
    w = Wire(server.ws_url, origin="https://evil.example")
    try:
        reply = w.recv()
        assert reply["code"] == "origin" and "--origin" in reply["error"]
        assert w.closed_with() == 4403
    finally:
        w.close()
    own = Wire(server.ws_url, origin=server.base)
    try:
        assert own.hello(seat_tokens[0])["kind"] == "state"
    finally:
        own.close()
    lite = ServerThread(Settings(data=tmp_path, origins=("https://lite.example",))).start()
    try:
        _, lite_tokens = seated_table(lite.base, players=2)
        allowed = Wire(lite.ws_url, origin="https://lite.example")
        try:
            assert allowed.hello(lite_tokens[0])["kind"] == "state"
        finally:
            allowed.close()
        cors = httpx.options(f"{lite.base}/api/tables", headers={
            "Origin": "https://lite.example", "Access-Control-Request-Method": "POST"})
        assert cors.headers["access-control-allow-origin"] == "https://lite.example"
    finally:
        lite.stop()
    _unchanged(clients, seq)


def test_a_silent_socket_is_closed(tmp_path) -> None:
    quick = ServerThread(Settings(data=tmp_path, hello_timeout=0.3)).start()
    try:
        w = Wire(quick.ws_url)
        try:
            assert w.recv()["code"] == "hello_timeout"
            assert w.closed_with() == 4408
        finally:
            w.close()
    finally:
        quick.stop()


def test_wrong_invites_take_no_seat(server) -> None:
    made = httpx.post(f"{server.base}/api/tables", json={"players": 2}).json()
    for invite in (FORGED, made["spectator_key"], "", None, {"$gt": ""}):
        response = httpx.post(f"{server.base}/api/tables/{made['table']}/join",
                              json={"invite": invite})
        assert response.status_code == 404
    for invite in made["invite_keys"].values():
        response = httpx.post(f"{server.base}/api/tables/nope/join", json={"invite": invite})
        assert response.status_code == 404


# --- the long version ---------------------------------------------------------------------------
def _garbage(rng: random.Random, clients: list[Wire]) -> Any:
    """One random frame: malformed, forged, another seat's move, or an honest intent."""
    seat = rng.randrange(len(clients))
    latest = clients[seat].latest
    legal_anyone = [a for c in clients for a in c.latest.get("legal", [])]
    choices: list[Any] = [
        "{", "[]", '"x"', b"\xff",
        {"kind": "act", "id": rng.randrange(-5, 10**6), "action": rng.choice(legal_anyone or
                                                                            [None])},
        {"kind": "act", "id": rng.randrange(1, 10**6), "action": {"type": "steal",
                                                                   "slot": rng.randrange(-3, 9),
                                                                   "pay": ["map"] * 9}},
        {"kind": rng.choice(["undo", "hint", "why", "sync", "stand_in", "return", "bogus"]),
         "id": rng.randrange(1, 10**6), "seat": rng.randrange(-1, 6)},
        {"kind": "act", "id": rng.randrange(1, 10**6), "action": rng.choice(latest["legal"])}
        if latest.get("legal") else {"kind": "ping", "id": rng.randrange(1, 10**6)},
    ]
    return seat, rng.choice(choices)


def _check_against_journal(server, table_id: str) -> None:
    hub = server.hub
    loop = hub.scheduler.loop
    loaded = asyncio.run_coroutine_threadsafe(hub.store.load(table_id), loop).result(30)
    fresh = Room(loaded)
    live = hub.rooms[table_id].room
    assert fresh.game.to_dict() == live.game.to_dict() and fresh.seq == live.seq


@pytest.mark.parametrize("frames", [
    200,
    pytest.param(5000, marks=pytest.mark.slow),
])
def test_random_frames_leave_a_table_its_journal_would_replay(tmp_path, frames) -> None:
    # A server of its own whose rate limit this fuzzing never reaches: the garbage is the test.
    server = ServerThread(Settings(data=tmp_path, rate=1e6, burst=10**6)).start()
    try:
        _fuzz(server, frames)
    finally:
        server.stop()


def _fuzz(server: ServerThread, frames: int) -> None:
    made, seat_tokens = seated_table(server.base, players=3)
    rng = random.Random(frames)
    with wires(server.ws_url, seat_tokens) as clients:
        for _ in range(frames):
            seat, frame = _garbage(rng, clients)
            clients[seat].send(frame)
            while True:
                try:
                    clients[seat].recv(0.0005)
                except TimeoutError:
                    break
        for w in clients:
            w.next_id = 10**7
            assert w.intent("ping")["kind"] == "pong"  # everything before it has arrived
        seen = [w.latest["view"] for w in clients]
    _check_against_journal(server, made["table"])
    with wires(server.ws_url, seat_tokens) as again:
        # Every client followed the table's updates to exactly what a fresh hello shows.
        assert [w.latest["view"] for w in again] == seen
        assert again[0].latest["seq"] == server.hub.rooms[made["table"]].room.seq
