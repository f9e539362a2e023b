"""Rules between remote people: Undo (R13.2), time and stand-ins (R13.3), resigning, leaving,
and bots that play at the server without holding up other tables."""

from __future__ import annotations

import random
import time

from wire import Wire, create, join, play_random, seated_table, wires


def _placing_turn(clients: list[Wire]) -> tuple[int, Wire]:
    seat = clients[0].latest["view"]["to_move"]
    return seat, clients[seat]


def test_undo_takes_back_ones_own_move_until_another_person_decides(server) -> None:
    _, seat_tokens = seated_table(server.base, players=2)
    with wires(server.ws_url, seat_tokens) as clients:
        seat, w = _placing_turn(clients)
        other = clients[1 - seat]
        assert w.latest["undo"]["allowed"] is False  # nothing of seat's to take back yet
        before, theirs = w.latest["view"], other.latest["view"]
        assert w.act(w.latest["legal"][0])["ok"]
        assert w.latest["undo"] == {"allowed": True, "reason": ""}
        assert w.intent("undo")["ok"] is True
        state = other.until("state")  # an undo is a full resync for everyone
        assert state["view"] == theirs and state["move_number"] == 0
        assert w.wait_for(lambda s: s["move_number"] == 0)["view"] == before
        # Move again; once the other person decides, the first may not take back theirs.
        assert w.act(w.latest["legal"][0])["ok"]
        other.wait_for(lambda s: s["move_number"] == 1)
        assert other.act(other.latest["legal"][0])["ok"]
        w.wait_for(lambda s: s["move_number"] == 2)
        refused = w.intent("undo")
        assert refused["ok"] is False and refused["error"].startswith("R12.2")
        assert "Player" in refused["error"] and w.latest["move_number"] == 2


def test_undo_never_goes_past_a_card_the_seat_saw(server) -> None:
    _, seat_tokens = seated_table(server.base, players=2)
    rng = random.Random(3)
    with wires(server.ws_url, seat_tokens) as clients:
        for _ in range(400):
            seat = clients[0].latest["view"]["to_move"]
            if seat is None:
                break
            w = clients[seat]
            reason = w.latest["undo"]["reason"]
            if reason.startswith("R12.1"):
                move = w.latest["move_number"]
                refused = w.intent("undo")
                assert refused["ok"] is False and refused["error"] == reason
                assert w.latest["move_number"] == move
                return
            play_random(clients, 1, rng)
    raise AssertionError("no decision of a seat was followed by a card it saw")


def test_undo_against_a_bot_takes_back_the_bots_answer_too(server) -> None:
    made = create(server.base, players=2, join=0, pace=0,
                  seats=[{"kind": "person"}, {"kind": "bot", "level": "medium"}])
    w = Wire(server.ws_url)
    try:
        w.hello(made["token"])
        w.wait_for(lambda s: s["view"]["to_move"] == 0)
        move = w.latest["move_number"]
        assert w.act(w.latest["legal"][0])["ok"]
        w.wait_for(lambda s: s["move_number"] == move + 2)  # the bot answered
        before = w.latest["move_number"]
        assert w.intent("undo")["ok"] is True
        state = w.latest  # the resync came before the result: back to the person's decision
        assert state["kind"] == "state"
        assert state["move_number"] == move < before
        assert state["view"]["to_move"] == 0 and state["legal"] != []
    finally:
        w.close()


def test_a_seat_whose_time_ran_out_is_handed_to_a_bot_by_the_others(server) -> None:
    _, seat_tokens = seated_table(server.base, players=3, time=1.0)
    with wires(server.ws_url, seat_tokens) as clients:
        seat = clients[0].latest["view"]["to_move"]
        other = clients[(seat + 1) % 3]
        deadline = clients[seat].latest["table"]["deadline"]
        assert deadline is not None and deadline > time.time() - 5
        early = other.intent("stand_in", seat=seat)
        assert early["ok"] is False and early["code"] == "not_timed_out"
        own = clients[seat].intent("stand_in", seat=seat)
        assert own["ok"] is False
        time.sleep(max(0.0, deadline - time.time()) + 0.2)
        assert other.intent("stand_in", seat=seat)["ok"] is True
        # The stand-in (the table's level, medium) moves for the seat, and its person may not.
        state = clients[seat].wait_for(lambda s: s["highlight"].get("by") == "stand_in")
        assert state["table"]["seats"][seat]["stand_in"] is True
        while clients[seat].latest["view"]["to_move"] != seat:
            w = clients[clients[seat].latest["view"]["to_move"]]
            w.wait_for(lambda s: s["legal"] != [])
            assert w.act(w.latest["legal"][0])["ok"]
            clients[seat].wait_for(lambda s, m=w.latest["move_number"]: s["move_number"] >= m)
        assert clients[seat].latest["legal"] == [] or clients[seat].latest["view"]["to_move"] \
            != seat
        assert clients[seat].intent("return")["ok"] is True
        back = clients[seat].wait_for(lambda s: not s["table"]["seats"][seat]["stand_in"])
        if back["view"]["to_move"] == seat:
            assert back["legal"] != [] and back["table"]["deadline"] > time.time()


def test_resigning_hands_the_seat_to_a_bot_revokes_the_token_and_ranks_last(server) -> None:
    _, seat_tokens = seated_table(server.base, players=2)
    with wires(server.ws_url, seat_tokens) as clients:
        assert clients[1].intent("resign")["ok"] is True
        assert clients[1].closed_with() == 4410
        w = clients[0]
        rng = random.Random(4)
        while not w.latest["view"]["is_over"]:
            w.wait_for(lambda s: s["legal"] != [] or s["view"]["is_over"], timeout=30)
            if w.latest["legal"]:
                assert w.act(rng.choice(w.latest["legal"]))["ok"]
        standings = w.latest["table"]["standings"]
        assert standings[-1] == {"seat": 1, "money": w.latest["view"]["players"][1]["money"],
                                 "resigned": True}
    again = Wire(server.ws_url)
    try:
        assert again.hello(seat_tokens[1])["code"] == "unauthorized"
    finally:
        again.close()


def test_leaving_revokes_the_token_and_the_invite_opens_the_seat_again(server) -> None:
    made, seat_tokens = seated_table(server.base, players=2)
    with wires(server.ws_url, seat_tokens) as clients:
        assert clients[1].intent("leave")["ok"] is True
        assert clients[1].closed_with() == 4410
        seats = clients[0].wait_for(lambda s: s["table"]["seats"][1]["status"] == "open")
        assert seats["table"]["status"] == "playing"
        back = join(server.base, made["table"], made["invite_keys"]["1"])
        assert back["seat"] == 1 and back["token"] != seat_tokens[1]
        revoked = Wire(server.ws_url)
        fresh = Wire(server.ws_url)
        try:
            assert revoked.hello(seat_tokens[1])["code"] == "unauthorized"
            assert fresh.hello(back["token"])["you"]["seat"] == 1
        finally:
            revoked.close()
            fresh.close()


def test_a_thinking_bot_holds_up_no_other_table(server) -> None:
    """While an expert bot searches at one table, people at another play on."""
    slow = create(server.base, players=2, join=0, pace=0,
                  seats=[{"kind": "person"}, {"kind": "bot", "level": "expert"}])
    _, seat_tokens = seated_table(server.base, players=2)
    watcher = Wire(server.ws_url)
    try:
        watcher.hello(slow["token"])
        watcher.wait_for(lambda s: s["view"]["to_move"] is not None)
        if watcher.latest["view"]["to_move"] == 0:
            assert watcher.act(watcher.latest["legal"][0])["ok"]
        thinking_from = watcher.latest["move_number"]
        assert watcher.latest["view"]["to_move"] == 1  # the expert bot thinks now
        with wires(server.ws_url, seat_tokens) as clients:
            play_random(clients, 6, random.Random(6))
        # Six moves answered elsewhere, and the expert is still on its first search.
        assert watcher.latest["move_number"] == thinking_from
        watcher.wait_for(lambda s: s["move_number"] > thinking_from, timeout=60)
    finally:
        watcher.close()
