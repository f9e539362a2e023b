"""Tables of any registered game (issue 37): a table's options name its game; the server deals,
replays, moves bots, checks and redacts through the game protocol alone.

Crooks (C rulings) is played through the socket by bots and one scripted seat, its forged
moves refused naming the C-ruling, its seat's bytes checked by resampling (C7-C8), and it
survives a kill -9; the test game Sealed Bids (tests/games/sealed.py) proves a sealed step:
several seats deciding at once, in either order, nobody made stale by another's bid.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import random
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from sealed import SPEC as SEALED
from test_async_play import Receiver
from wire import (
    WAIT,
    ServerProcess,
    ServerThread,
    Step,
    Wire,
    create,
    first_difference,
    frames_of_seat,
    join,
    same_for,
    seated_table,
    twin_script,
    wires,
)

from langfinger_widget import games, records
from langfinger_widget.server import lobby

games.register(SEALED)
CROOKS = games.get("crooks")


class QuietSealed(SEALED.Game):  # type: ignore[misc,name-defined]
    """Sealed Bids whose logs leave out the others' sealed bids altogether (as a game may,
    G6: no log of another seat shows those steps), so the seats' logs differ in length."""

    def log(self, seat: int | None = None) -> list[dict[str, Any]]:
        return [e for e in super().log(seat)
                if seat is None or e["type"] != "bid" or e["seat"] == seat]


class BlindSealed(SEALED.Game):  # type: ignore[misc,name-defined]
    """Sealed Bids that makes no twins: nothing for a hint to search."""

    resample = None


@pytest.fixture(autouse=True)
def odd_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two games that break the conformance checks on purpose, registered for this module's
    tests only (the registry is the process's: tests/games checks every game in it)."""
    for spec in (dataclasses.replace(SEALED, name="sealed-quiet", Game=QuietSealed),
                 dataclasses.replace(SEALED, name="sealed-blind", Game=BlindSealed)):
        monkeypatch.setitem(games._loaded, spec.name, spec)


def _info(base: str) -> dict[str, Any]:
    result: dict[str, Any] = httpx.get(f"{base}/api/info", timeout=WAIT).json()
    return result


def _refused(base: str, **body: Any) -> str:
    response = httpx.post(f"{base}/api/tables", json=body, timeout=WAIT)
    assert response.status_code == 400, response.text
    return str(response.json()["error"])


def test_the_server_offers_every_registered_game(server: ServerThread) -> None:
    offered = {g["name"]: g for g in _info(server.base)["games"]}
    assert list(offered)[:2] == ["langfinger", "crooks"] and "sealed" in offered
    assert offered["crooks"]["players"] == [2, 4] and offered["crooks"]["options"] == {}
    assert offered["langfinger"]["options"] == {"variant": ["standard", "open_info"]}
    # A game without a greedy bot plays the levels its search plays, and no other.
    assert "hard" in offered["sealed"]["levels"] and "easy" not in offered["sealed"]["levels"]


def test_a_crooks_table_names_its_game_and_checks_its_own_rules(server: ServerThread) -> None:
    assert _refused(server.base, game="crooks", players=5) == \
        "C1.1: a game has 2 to 4 players, not 5"
    assert _refused(server.base, game="chess", players=2).startswith(
        "no game 'chess': the games are langfinger, crooks")
    assert "Crooks has no option 'variant'" in _refused(
        server.base, game="crooks", players=2, variant="open_info")
    assert "no greedy bot" in _refused(server.base, game="sealed", players=2,
                                       seats=[{"kind": "person"},
                                              {"kind": "bot", "level": "easy"}])
    made, tokens = seated_table(server.base, 3, game="crooks",
                                seats=[{"kind": "person"}, {"kind": "bot", "level": "easy"},
                                       {"kind": "person"}])
    assert made["options"]["game"] == "crooks" and "variant" not in made["options"]
    mine = httpx.post(f"{server.base}/api/mine", json={"tokens": [tokens[0]]},
                      timeout=WAIT).json()
    assert mine["tables"][0]["game"] == "crooks"
    assert mine["tables"][0]["options"]["game"] == "crooks"
    # Langfinger's line is as it was, but for the game its options now name.
    lf_made, lf_tokens = seated_table(server.base, 2)
    assert lf_made["options"]["game"] == "langfinger"
    line = httpx.post(f"{server.base}/api/mine", json={"tokens": [lf_tokens[0]]},
                      timeout=WAIT).json()["tables"][0]
    assert "to_decide" not in line and "game" not in line and isinstance(line["money"], list)


def _play_my_seat(me: Wire, rng: random.Random, forged: list[dict[str, Any]],
                  ruling: str = "C") -> int:
    """Seat ``me`` plays random legal moves until the game is over, trying each forged
    message once on its turn (each must be refused naming a ``ruling`` ruling, or as not an
    action, and change nothing); its moves played."""
    moves = 0
    while me.latest["table"]["status"] != "over":
        me.wait_for(lambda s: bool(s["legal"]) or s["table"]["status"] == "over", 60)
        if me.latest["table"]["status"] == "over":
            break
        seq, view = me.latest["seq"], me.latest["view"]
        # Only while this seat alone may decide: in a sealed step (G6) a bot's seal may land
        # between the forged message and its answer, and that change is not the forgery's.
        alone = list(view.get("to_decide", [view["seat"]])) == [view["seat"]]
        while forged and alone:
            answer = me.act(forged.pop())
            assert not answer["ok"] and re.match(rf"({ruling}\d|not an action)",
                                                 answer["error"]), answer
            assert answer["seq"] == seq and me.latest["view"] == view  # nothing changed
        answer = me.act(rng.choice(me.latest["legal"]))
        assert answer["ok"], answer
        moves += 1
        me.wait_for(lambda s, seq=answer["seq"]: s["seq"] >= seq)
    return moves


def test_a_whole_crooks_game_by_bots_and_one_scripted_seat(server: ServerThread) -> None:
    made, tokens = seated_table(server.base, 3, game="crooks",
                                seats=[{"kind": "bot", "level": "easy"}, {"kind": "person"},
                                       {"kind": "bot", "level": "medium"}])
    with wires(server.ws_url, tokens) as clients:
        me = clients[1]
        state = me.latest
        assert state["view"]["format"].startswith("crooks") and state["view"]["seat"] == 1
        assert state["table"]["game"] == "crooks"
        forged = [{"type": "recruit", "hangout": "Z"}, {"type": "place", "target": 6},
                  "recruit"]
        moves = _play_my_seat(me, random.Random(3), forged)
        assert moves > 3 and not forged
        over = me.latest
        assert over["legal"] == [] and over["view"]["standings"]
        standings = over["table"]["standings"]
        assert {r["seat"] for r in standings} == {0, 1, 2}
        assert all(sum(r["sources"].values()) == r["score"] for r in standings)
        # Not its turn any more (the game is over): refused by the game's own ruling.
        answer = me.act({"type": "pass"})
        assert not answer["ok"] and answer["error"].startswith("C2.2"), answer
        # The seat's socket never held another seat's face-down crooks or legal actions.
        assert all(json.loads(f).get("view", {}).get("seat") in (1, None) for f in me.frames)
    # The record names its game and replays through the rules to the same end.
    text = httpx.get(f"{server.base}/api/tables/{made['table']}/record",
                     headers={"Authorization": f"Bearer {tokens[1]}"}, timeout=WAIT).text
    assert "game crooks" in text.splitlines()[1]
    replayed = records.read_game(text).game()
    assert replayed.is_over and [r["score"] for r in replayed.standings()] == \
        [r["score"] for r in sorted(standings, key=lambda r: r["seat"])]


def test_a_seats_crooks_record_waits_for_the_end(server: ServerThread) -> None:
    made, tokens = seated_table(server.base, 2, game="crooks")
    response = httpx.get(f"{server.base}/api/tables/{made['table']}/record",
                         headers={"Authorization": f"Bearer {tokens[0]}"}, timeout=WAIT)
    assert response.status_code == 409 and "once the game is over" in response.json()["error"]


def test_a_crooks_table_started_from_a_position_has_no_record_to_replay(
        server: ServerThread) -> None:
    rng = random.Random(4)
    game = CROOKS.Game.new(players=2, seed=4)
    while not game.is_over:
        game.play(rng.choice(game.legal_actions()))
    body = {"game": "crooks", "players": 2, "pace": 0}
    coro = lobby.create(server.hub, body, server.base, position=game.to_dict())
    made = asyncio.run_coroutine_threadsafe(coro, server.hub.scheduler.loop).result(30)
    token = join(server.base, made["table"], made["invite_keys"]["0"])["token"]
    response = httpx.get(f"{server.base}/api/tables/{made['table']}/record",
                         headers={"Authorization": f"Bearer {token}"}, timeout=WAIT)
    assert response.status_code == 404, response.text
    assert "a record replays from its seed" in response.json()["error"]


# --- the sealed step ------------------------------------------------------------------------
def _bid(w: Wire, card: int, move: int, version: int) -> dict[str, Any]:
    return w.intent("act", action={"type": "bid", "card": card}, move=move, version=version)


def test_a_sealed_step_takes_several_seats_choices_in_either_order(
        server: ServerThread, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="langfinger.server")
    _, tokens = seated_table(server.base, 3, game="sealed",
                             seats=[{"kind": "person"}, {"kind": "person"},
                                    {"kind": "bot", "level": "hard"}])
    with wires(server.ws_url, tokens) as (a, b, _):
        for first, second in ((a, b), (b, a)):
            # Both may decide at once: each has its legal bids, neither waits for the other.
            for w in (a, b):
                w.wait_for(lambda s: bool(s["legal"]) and s["view"]["bid"][2])
            assert a.latest["table"]["to_decide"] == [0, 1]
            quoted = {w: (w.latest["move_number"], w.latest["version"]) for w in (a, b)}
            assert quoted[a] == quoted[b]
            reply = _bid(first, first.latest["legal"][0]["card"], *quoted[first])
            assert reply["ok"], reply
            # The other chose on the position before that bid: still good (only a sealed bid
            # of another seat came between, showing it nothing).
            reply = _bid(second, second.latest["legal"][-1]["card"], *quoted[second])
            assert reply["ok"], reply
            for w in (a, b):
                w.wait_for(lambda s, seq=reply["seq"]: s["seq"] >= seq)
                # The round is turned up: every bid shows now, by the game's own log (S3).
                assert w.events[-1]["type"] in ("reveal", "draw")
    # The bot sealed its own bids, chosen for its seat (not the first decider's).
    assert not [r for r in caplog.records if "a random legal move stands in" in r.getMessage()]


def test_a_webhook_rings_a_seat_when_a_sealed_step_opens_for_it(server: ServerThread) -> None:
    receiver = Receiver()
    try:
        made, tokens = seated_table(server.base, 2, game="sealed")
        with wires(server.ws_url, tokens) as (a, b):
            assert a.intent("webhook", url=receiver.url)["ok"]
            assert a.act(a.latest["legal"][0])["ok"]  # seat 0 has sealed: not its turn now
            b.wait_for(lambda s: s["view"]["bid"][0])
            reply = b.act(b.latest["legal"][0])  # the last bid: a new round opens for both
            assert reply["ok"], reply
            post = receiver.posts.get(timeout=10)
            assert post["event"] == "your_turn" and post["seat"] == 0
            assert post["table"] == made["table"] and post["move_number"] == 2
            assert post["round"] is None  # Sealed Bids counts no rounds by that name
        assert receiver.posts.empty()  # once, not at its own bid
    finally:
        receiver.close()


def test_a_sealed_bid_is_hidden_and_a_second_bid_refused_naming_the_ruling(
        server: ServerThread) -> None:
    _, tokens = seated_table(server.base, 2, game="sealed")
    with wires(server.ws_url, tokens) as (a, b):
        card = a.latest["legal"][0]["card"]
        reply = a.act({"type": "bid", "card": card})
        assert reply["ok"], reply
        b.wait_for(lambda s, seq=reply["seq"]: s["seq"] >= seq)
        assert b.events[-1] == {"type": "bid", "seat": 0, "card": None}  # S5: face down
        assert b.latest["view"]["bid"] == [True, False]
        a.wait_for(lambda s, seq=reply["seq"]: s["seq"] >= seq)
        seq, view = a.latest["seq"], a.latest["view"]
        again = a.act({"type": "bid", "card": a.latest["view"]["hand"][0]})
        assert again == {**again, "ok": False, "error": "S2: seat 0 has bid this round"}
        assert a.latest["seq"] == seq and a.latest["view"] == view and a.latest["legal"] == []
        why = a.intent("why", action={"type": "bid", "card": card})
        assert why["reason"] == "S2: seat 0 has bid this round"


def test_a_choice_made_before_an_undo_is_stale_even_in_a_sealed_step(
        server: ServerThread) -> None:
    _, tokens = seated_table(server.base, 3, game="sealed")
    with wires(server.ws_url, tokens) as (a, b, c):
        quoted = (a.latest["move_number"], a.latest["version"])
        assert _bid(b, b.latest["legal"][0]["card"], *quoted)["ok"]
        b.wait_for(lambda s: s["undo"]["allowed"])
        assert b.intent("undo")["ok"]
        reply = _bid(a, a.latest["legal"][0]["card"], *quoted)
        assert not reply["ok"] and reply["error"].startswith("stale"), reply
        c.close()


def test_each_seat_gets_its_own_log_when_the_logs_differ_in_length(
        server: ServerThread) -> None:
    made, tokens = seated_table(server.base, 2, game="sealed-quiet")
    room = server.hub.rooms[made["table"]].room
    with wires(server.ws_url, tokens) as (a, b):
        for _ in range(2):  # two rounds: the bids, each turned up by the reveal
            for w in (a, b):
                w.wait_for(lambda s: bool(s["legal"]))
                reply = w.act(w.latest["legal"][0])
                assert reply["ok"], reply
            for w in (a, b):
                w.wait_for(lambda s, seq=reply["seq"]: s["seq"] >= seq)
        for seat, w in enumerate((a, b)):
            # What the socket was sent, state and updates put together, is the seat's log.
            assert w.events == room.game.log(seat)
            assert [e for e in w.events if e["type"] == "bid"] == \
                [e for e in room.game.log(None) if e["type"] == "bid" and e["seat"] == seat]


# --- hidden information over the wire, by resampling (C7-C8) ----------------------------------
def _busy_crooks(players: int, seed: int, moves: int) -> Any:
    rng = random.Random(seed)
    game = CROOKS.Game.new(players=players, seed=seed)
    for _ in range(moves):
        game.play(rng.choice(game.legal_actions()))
    return CROOKS.Game.from_dict(game.to_dict())





@pytest.mark.parametrize("players,seed,moves,k", [(2, 11, 8, 1), (3, 13, 9, 1), (4, 10, 6, 2)])
def test_a_crooks_seat_receives_the_same_bytes_from_twins_it_cannot_tell_apart(
        tmp_path: Path, players: int, seed: int, moves: int, k: int) -> None:
    game = _busy_crooks(players, seed, moves)
    rng = random.Random(seed)
    twin = CROOKS.Game.from_dict(game.resample(k, rng).to_dict())
    assert twin.to_dict() != game.to_dict() and same_for(k, game, twin)
    script = twin_script(game, twin, k, 10, random.Random(seed))
    assert len(script) >= 3
    ours, ours_watched = frames_of_seat(tmp_path / "a", game, k, script)
    theirs, theirs_watched = frames_of_seat(tmp_path / "b", twin, k, script)
    assert len(ours) > len(script)
    assert ours == theirs, first_difference(ours, theirs)
    # a spectator knows less than any seat
    assert ours_watched == theirs_watched, first_difference(ours_watched, theirs_watched)
    if players != 3:
        return
    # And the test can fail: a seat that sees what differs (its own face-down crooks, a pile
    # it looked through) gets other bytes.
    other = next(s for s in range(players) if twin.view(s) != game.view(s))
    assert frames_of_seat(tmp_path / "c", game, other, [])[0] != \
        frames_of_seat(tmp_path / "d", twin, other, [])[0]


# --- Oh My Goods! (G rulings): sealed plans over the wire ------------------------------------
GOODS = games.get("goods")


def test_a_goods_table_checks_its_own_rules(server: ServerThread) -> None:
    assert _refused(server.base, game="goods", players=5) == \
        "G1.1: a game has 2 to 4 players, not 5"
    assert "Oh My Goods! has no option 'variant'" in _refused(
        server.base, game="goods", players=2, variant="open_info")
    made, _ = seated_table(server.base, 2, game="goods")
    assert made["options"]["game"] == "goods"


def test_a_whole_goods_game_by_bots_and_one_scripted_seat(server: ServerThread) -> None:
    made, tokens = seated_table(server.base, 3, game="goods",
                                seats=[{"kind": "bot", "level": "easy"}, {"kind": "person"},
                                       {"kind": "bot", "level": "medium"}])
    with wires(server.ws_url, tokens) as clients:
        me = clients[1]
        assert me.latest["view"]["format"].startswith("goods") and me.latest["table"]["game"] \
            == "goods"
        forged = [{"type": "build"}, {"type": "produce", "building": "D99"},
                  {"type": "hire", "assistant": "A1"}, {"type": "keep", "seat": 0}, "keep"]
        moves = _play_my_seat(me, random.Random(3), forged, ruling="G")
        assert moves > 10 and not forged
        over = me.latest
        assert over["legal"] == [] and over["view"]["standings"]
        standings = over["table"]["standings"]
        assert {r["seat"] for r in standings} == {0, 1, 2}
        answer = me.act({"type": "done"})
        assert not answer["ok"] and answer["error"].startswith("G"), answer
        # No frame of this seat ever held another seat's hand, plan or sealed choice.
        for frame in map(json.loads, me.frames):
            for p in frame.get("view", {}).get("players", []):
                if p["seat"] != 1:
                    assert p["hand"] is None and p["planned"] is None and p["plan"] is None
    text = httpx.get(f"{server.base}/api/tables/{made['table']}/record",
                     headers={"Authorization": f"Bearer {tokens[1]}"}, timeout=WAIT).text
    assert "game goods" in text.splitlines()[1]
    replayed = records.read_game(text).game()
    assert replayed.is_over and [r["score"] for r in replayed.standings()] == \
        [r["score"] for r in sorted(standings, key=lambda r: r["seat"])]


def test_two_goods_seats_plan_at_once_and_a_sealed_plan_is_refused_twice(
        server: ServerThread) -> None:
    _, tokens = seated_table(server.base, 2, game="goods")
    with wires(server.ws_url, tokens) as (a, b):
        # G6.1: phase I's keep is sealed; seat 1 seals before seat 0, neither waiting.
        assert a.latest["table"]["to_decide"] == [0, 1] == b.latest["table"]["to_decide"]
        reply = b.act({"type": "keep"})
        assert reply["ok"], reply
        a.wait_for(lambda s, seq=reply["seq"]: s["seq"] >= seq)
        assert a.latest["view"]["sealed"] == [False, True] and a.latest["legal"]
        seq, view = b.latest["seq"], b.latest["view"]
        again = b.act({"type": "mulligan"})
        assert not again["ok"] and again["error"].startswith("G"), again
        assert b.latest["seq"] == seq and b.latest["view"] == view
        assert a.act({"type": "keep"})["ok"]
        for w in (a, b):
            w.wait_for(lambda s: s["view"]["phase"] == "plan" and bool(s["legal"]))


def _goods_at_plan(players: int, seed: int) -> Any:
    """A goods game at its first sealed plan (phase II), every seat still to plan."""
    game = GOODS.Game.new(players=players, seed=seed)
    while game.phase != "plan":
        game.play({"type": "keep"}, game.to_decide[0])
    return GOODS.Game.from_dict(game.to_dict())


def _sealed_plan(game: Any, seat: int, rng: random.Random) -> list[Step]:
    """One whole sealed plan of ``seat``, chosen at random."""
    g, out = game.copy(), []
    while seat in g.to_decide and g.phase == "plan" and not g.is_over:
        action = rng.choice(g.legal_actions(seat))
        g.play(action, seat)
        out.append((seat, action))
    return out


def test_a_goods_seat_gets_the_same_bytes_whatever_another_seat_sealed(
        tmp_path: Path) -> None:
    """G6.1: until the reveal, seat 0's frames (and a spectator's) are byte-identical
    whichever plan seat 1 sealed; a seat whose own plan differs gets other bytes."""
    game = _goods_at_plan(2, 21)
    plans = [_sealed_plan(game, 1, random.Random(r)) for r in range(12)]
    one, other = next((p, q) for p in plans for q in plans if p[-1] != q[-1])
    ours, ours_watched = frames_of_seat(tmp_path / "a", game, 0, one)
    theirs, theirs_watched = frames_of_seat(tmp_path / "b", game, 0, other)
    assert len(ours) > len(one)
    assert ours == theirs, first_difference(ours, theirs)
    assert ours_watched == theirs_watched, first_difference(ours_watched, theirs_watched)
    assert frames_of_seat(tmp_path / "c", game, 1, one)[0] != \
        frames_of_seat(tmp_path / "d", game, 1, other)[0]


@pytest.mark.parametrize("players,seed,moves,k", [(2, 31, 40, 1), (3, 33, 60, 2)])
def test_a_goods_seat_receives_the_same_bytes_from_twins_it_cannot_tell_apart(
        tmp_path: Path, players: int, seed: int, moves: int, k: int) -> None:
    rng = random.Random(seed)
    game = GOODS.Game.new(players=players, seed=seed)
    for _ in range(moves):
        seat = rng.choice(game.to_decide)
        game.play(rng.choice(game.legal_actions(seat)), seat)
    # From there on, the first position whose twin allows a few moves seat k cannot tell
    # apart: a payment turns a good face up to everyone, and twins differ in their faces.
    for _ in range(40):
        game = GOODS.Game.from_dict(game.to_dict())
        twin = GOODS.Game.from_dict(game.resample(k, rng).to_dict())
        assert twin.to_dict() != game.to_dict() and same_for(k, game, twin)
        script = twin_script(game, twin, k, 12, random.Random(seed))
        if len(script) >= 2:
            break
        seat = rng.choice(game.to_decide)
        game.play(rng.choice(game.legal_actions(seat)), seat)
    assert len(script) >= 2
    ours, ours_watched = frames_of_seat(tmp_path / "a", game, k, script)
    theirs, theirs_watched = frames_of_seat(tmp_path / "b", twin, k, script)
    assert ours == theirs, first_difference(ours, theirs)
    assert ours_watched == theirs_watched, first_difference(ours_watched, theirs_watched)


# --- a kill -9 ------------------------------------------------------------------------------
def test_a_crooks_table_outlives_a_kill_9(tmp_path: Path) -> None:
    server = ServerProcess("--data", str(tmp_path)).start()
    try:
        made = create(server.base, game="crooks", players=2, pace=0)
        tokens = [join(server.base, made["table"], made["invite_keys"][str(s)])["token"]
                  for s in range(2)]
        rng = random.Random(5)
        with wires(server.ws_url, tokens) as clients:
            for _ in range(6):
                w = clients[clients[0].latest["view"]["to_move"]]
                playing = [a for a in w.latest["legal"] if a["type"] != "pass"]  # not over yet
                reply = w.act(rng.choice(playing or w.latest["legal"]))
                assert reply["ok"], reply
                for c in clients:
                    c.wait_for(lambda s, seq=reply["seq"]: s["seq"] >= seq)
            before = {s: (c.latest["move_number"], c.latest["view"]) for s, c in
                      enumerate(clients)}
        server.kill()
        server = ServerProcess("--data", str(tmp_path), port=server.port).start()
        with wires(server.ws_url, tokens) as clients:
            for s, c in enumerate(clients):
                assert (c.latest["move_number"], c.latest["view"]) == before[s]
                assert c.latest["table"]["game"] == "crooks"
    finally:
        server.stop()


def test_serve_makes_a_crooks_table_at_start(tmp_path: Path) -> None:
    server = ServerProcess("--data", str(tmp_path), "--game", "crooks", "--new", "3",
                           "--bot", "2=easy").start()
    try:
        printed = server.wait_output("Spectators:")
        assert printed.count("Invite for seat") == 1, printed
        found = re.search(r"Your seat \(keep it to come back\): \S+/play/[\w-]+#(\S+)", printed)
        assert found is not None, printed
        token = found.group(1)
        with wires(server.ws_url, [token]) as (me,):
            assert me.latest["table"]["options"]["game"] == "crooks"
            assert me.latest["view"]["num_players"] == 3
    finally:
        server.stop()


# --- hints ----------------------------------------------------------------------------------
def _hint(w: Wire) -> dict[str, Any]:
    w.next_id += 1
    w.send({"kind": "hint", "id": w.next_id})
    while True:  # the pending answer first, then the search's
        answer = w.until("hint", timeout=90)  # a Crooks hint searches 5-12 s here
        if answer.get("id") == w.next_id and not answer.get("pending"):
            return answer


def test_a_hint_searches_any_game_from_the_seats_own_twin(server: ServerThread) -> None:
    _, tokens = seated_table(server.base, 2, game="crooks", hints=True)
    with wires(server.ws_url, tokens) as clients:
        me = clients[clients[0].latest["view"]["to_move"]]
        answer = _hint(me)
        assert answer["error"] == "" and answer["action"] in me.latest["legal"], answer
    # In a sealed step, a seat is hinted while the other seat decides too.
    _, tokens = seated_table(server.base, 2, game="sealed", hints=True)
    with wires(server.ws_url, tokens) as (a, b):
        answer = _hint(b)
        assert answer["error"] == "" and answer["action"] in b.latest["legal"], answer
        assert a.latest["legal"]  # seat 0 may still decide: nobody waited on the hint
    _, tokens = seated_table(server.base, 2, game="crooks")
    with wires(server.ws_url, tokens) as clients:
        refused = clients[0].intent("hint")
        assert refused["code"] == "hints_off", refused
    # A game that makes no twins gives no hints: a table asking for them is refused why.
    offered = {g["name"]: g["hints"] for g in _info(server.base)["games"]}
    assert offered["crooks"] and not offered["sealed-blind"]
    assert "gives no hints" in _refused(server.base, game="sealed-blind", players=2, hints=True)
