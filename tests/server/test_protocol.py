"""The wire protocol: hello, states and updates, sequence numbers, resyncs (docs/server.md)."""

from __future__ import annotations

import json
import random

from wire import Wire, create, play_random, seated_table, wires


def test_hello_gives_the_full_state_of_ones_own_seat(server) -> None:
    made, seat_tokens = seated_table(server.base, players=3)
    with wires(server.ws_url, seat_tokens) as clients:
        for seat, w in enumerate(clients):
            state = w.latest
            assert state["v"] == 1 and state["kind"] == "state"
            assert state["you"] == {"seat": seat, "role": "seat", "name": f"Player {seat + 1}"}
            assert state["view"]["seat"] == seat
            assert state["table"]["id"] == made["table"]
            assert state["table"]["status"] == "playing"
            assert [e["type"] for e in state["events"]].count("deal") == 3
            own = [e for e in state["events"] if e["type"] == "deal"]
            assert all((e["tools"] is None) == (e["seat"] != seat) for e in own)
            to_move = state["view"]["to_move"]
            assert (state["legal"] != []) == (to_move == seat)  # legal only to the decider


def test_every_message_carries_the_sequence_and_updates_chain(server) -> None:
    _, seat_tokens = seated_table(server.base, players=2)
    with wires(server.ws_url, seat_tokens) as clients:
        start = clients[0].latest["seq"]
        play_random(clients, 12, random.Random(1))
        for w in clients:
            seqs = [json.loads(frame)["seq"] for frame in w.frames]
            assert all(isinstance(s, int) for s in seqs)
            assert seqs == sorted(seqs)  # never backwards
            assert w.latest["seq"] == start + 12
        # The updates' events, put together, end with the log a fresh state gives.
        w = clients[0]
        w.next_id += 1
        w.send({"kind": "sync", "id": w.next_id})
        state = w.until("state")
        assert state["events"] == w.events[-len(state["events"]):]
        assert state["seq"] == start + 12 and state["log_size"] >= len(state["events"])


def test_an_accepted_move_reaches_everyone_before_its_result(server) -> None:
    _, seat_tokens = seated_table(server.base, players=2)
    with wires(server.ws_url, seat_tokens) as clients:
        seat = clients[0].latest["view"]["to_move"]
        w, other = clients[seat], clients[1 - seat]
        action = w.latest["legal"][0]
        before = w.latest["seq"]
        w.next_id += 1
        w.send({"kind": "act", "id": w.next_id, "action": action})
        first = w.recv()
        while first["kind"] == "presence":
            first = w.recv()
        assert first["kind"] == "update" and first["seq"] == before + 1
        assert w.until("result")["ok"] is True
        got = other.until("update")
        assert got["seq"] == before + 1 and got["highlight"]["action"] == action
        assert got["legal"] != [] and got["view"]["to_move"] == 1 - seat


def test_why_explains_and_changes_nothing(server) -> None:
    _, seat_tokens = seated_table(server.base, players=2)
    with wires(server.ws_url, seat_tokens) as clients:
        seat = clients[0].latest["view"]["to_move"]
        seq = clients[0].latest["seq"]
        answer = clients[seat].intent("why", action={"type": "pass"})
        assert answer["kind"] == "why" and answer["reason"].startswith("R2.1")
        theirs = clients[1 - seat].intent("why", action={"type": "place", "place": "city"})
        assert "not yours" in theirs["reason"]
        legal = clients[seat].intent("why", action=clients[seat].latest["legal"][0])
        assert legal["reason"] is None
        assert clients[seat].intent("ping")["seq"] == seq


def test_a_stale_intent_is_refused(server) -> None:
    _, seat_tokens = seated_table(server.base, players=2)
    with wires(server.ws_url, seat_tokens) as clients:
        play_random(clients, 3, random.Random(2))
        seat = clients[0].latest["view"]["to_move"]
        w = clients[seat]
        reply = w.intent("act", action=w.latest["legal"][0], move=1)
        assert reply["ok"] is False and reply["code"] == "stale"
        assert w.latest["move_number"] == 3


def test_hints_only_where_the_table_allows_them(server) -> None:
    _, plain = seated_table(server.base, players=2)
    _, helped = seated_table(server.base, players=2, hints=True)
    with wires(server.ws_url, plain) as clients:
        seat = clients[0].latest["view"]["to_move"]
        refused = clients[seat].intent("hint")
        assert refused["ok"] is False and refused["code"] == "hints_off"
    with wires(server.ws_url, helped) as clients:
        seat = clients[0].latest["view"]["to_move"]
        not_mine = clients[1 - seat].intent("hint")
        assert not_mine["ok"] is False and not_mine["code"] == "not_your_turn"
        pending = clients[seat].intent("hint")
        assert pending["pending"] is True
        hint = clients[seat].until("hint", timeout=60, id=pending["id"], pending=None)
        assert hint["action"] in clients[seat].latest["legal"] and 0 <= hint["value"] <= 1


def test_a_table_waits_for_its_people(server) -> None:
    made = create(server.base, players=2, join=0, pace=0)
    w = Wire(server.ws_url)
    try:
        state = w.hello(made["token"])
        assert state["table"]["status"] == "waiting" and state["legal"] == []
        if state["view"]["to_move"] == 0:
            reply = w.intent("act", action={"type": "place", "place": "city"})
            assert reply["code"] == "waiting"
        from wire import join

        join(server.base, made["table"], made["invite_keys"]["1"])
        update = w.until("update")
        assert update["table"]["status"] == "playing"
        assert (update["legal"] != []) == (update["view"]["to_move"] == 0)
    finally:
        w.close()


def test_presence_tells_who_is_online(server) -> None:
    _, seat_tokens = seated_table(server.base, players=2)
    a = Wire(server.ws_url)
    b = Wire(server.ws_url)
    try:
        a.hello(seat_tokens[0])
        b.hello(seat_tokens[1])
        assert a.until("presence", online=[0, 1])
        b.close()
        assert a.until("presence", online=[0])
    finally:
        a.close()


def test_frames_are_compact_json_with_sorted_keys_with_or_without_msgspec() -> None:
    """The bytes of a frame depend on its content only (the no-leak test compares bytes):
    keys sorted at every depth, whichever encoder the server has."""
    from langfinger_widget.server import protocol

    message = protocol.out("update", 7, zeta={"b": [1, {"y": 2, "x": None}], "a": "é"},
                           alpha=[True, 1.5, "\u2014"])

    def keys_sorted(value: object) -> bool:
        if isinstance(value, dict):
            return list(value) == sorted(value) and all(keys_sorted(v) for v in value.values())
        if isinstance(value, list):
            return all(keys_sorted(v) for v in value)
        return True

    for encode in (protocol.encode, protocol.encode_pure):
        text = encode(message)
        assert json.loads(text) == message
        assert keys_sorted(json.loads(text, object_pairs_hook=dict))
        assert ", " not in text and ": " not in text
    frame = protocol.Frame.of(message)
    assert (frame.kind, frame.text) == ("update", protocol.encode(message))
    # A client may send a lone surrogate (valid JSON, no UTF-8): quoted back, never a crash.
    odd = protocol.out("why", 1, action=json.loads('"a\\ud800b"'))
    assert json.loads(protocol.encode(odd)) == odd


def test_a_socket_may_name_its_table_for_a_balancer(server) -> None:
    """/ws?table=T lets a balancer send every seat of T to one process (docs/server.md, "Many
    machines"); a seat token or spectator key for another table is refused there."""
    made, seat_tokens = seated_table(server.base, players=2)
    other = create(server.base, players=2, join=0)
    table = made["table"]
    routed = Wire(f"{server.ws_url}?table={table}")
    try:
        assert routed.hello(seat_tokens[0])["table"]["id"] == table
    finally:
        routed.close()
    watcher = Wire(f"{server.ws_url}?table={table}")
    try:
        assert watcher.hello(table=table, spectate=made["spectator_key"])["kind"] == "state"
    finally:
        watcher.close()
    for hello in ({"token": other["token"]},
                  {"table": other["table"], "spectate": other["spectator_key"]}):
        wrong = Wire(f"{server.ws_url}?table={table}")
        try:
            refused = wrong.hello(**hello)
            assert refused["kind"] == "error" and refused["code"] == "unauthorized"
            assert "?table=" in refused["error"]
            assert wrong.closed_with() is not None
        finally:
            wrong.close()
