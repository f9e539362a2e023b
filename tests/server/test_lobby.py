"""The lobby: create a table, join a seat by its invite, list one's tables, fetch a record."""

from __future__ import annotations

import random
import sqlite3

import httpx
import pytest
from wire import WAIT, Wire, create, join, play_random, seated_table, wires

from langfinger_widget.server import tokens


def test_create_hands_out_an_invite_a_person_seat_and_a_spectator_link(server) -> None:
    made = create(server.base, players=3, seats=[{"kind": "person", "name": "Ada"},
                                                 {"kind": "bot", "level": "easy"},
                                                 {"kind": "person"}], time=60)
    assert set(made["invites"]) == {"0", "2"}  # a bot needs no invite
    table = made["table"]
    assert made["invites"]["0"] == f"{server.base}/join/{table}#{made['invite_keys']['0']}"
    assert made["watch"].startswith(f"{server.base}/watch/{table}#")
    assert "token" not in made  # nobody was seated
    assert made["options"]["time"] == 60


def test_secrets_are_long_random_and_stored_only_as_digests(server) -> None:
    made, seat_tokens = seated_table(server.base, players=2)
    secrets_given = [*seat_tokens, made["spectator_key"], *made["invite_keys"].values()]
    assert all(len(s) >= 43 for s in secrets_given)  # 256 bits, URL-safe base64
    assert len(set(secrets_given)) == len(secrets_given)
    db = server.settings.data_dir() / "langfinger.sqlite3"
    with sqlite3.connect(db) as conn:
        dump = "\n".join(conn.iterdump())
    for secret in secrets_given:
        assert secret not in dump
        assert tokens.digest(secret) in dump


def test_an_invite_seats_one_person_once(server) -> None:
    made = create(server.base, players=2, join=0)
    assert made["seat"] == 0 and made["play"].endswith("#" + made["token"])
    taken = httpx.post(f"{server.base}/api/tables/{made['table']}/join",
                       json={"invite": made["invite_keys"]["0"]}, timeout=WAIT)
    assert taken.status_code == 409 and "taken" in taken.json()["error"]
    second = join(server.base, made["table"], made["invite_keys"]["1"])
    assert second["seat"] == 1
    again = httpx.post(f"{server.base}/api/tables/{made['table']}/join",
                       json={"invite": made["invite_keys"]["1"]}, timeout=WAIT)
    assert again.status_code == 409


@pytest.mark.parametrize("body,fault", [
    ({"players": 1}, "R1.1"),
    ({"players": 6}, "R1.1"),
    ({"players": True}, "R1.1"),
    ({"players": 2, "variant": "chaos"}, "R11"),
    ({"players": 2, "seats": [{"kind": "bot"}, {"kind": "bot"}]}, "at least one person"),
    ({"players": 2, "seats": [{"kind": "person"}]}, "must list 2 seats"),
    ({"players": 2, "seats": [{"kind": "person"}, {"kind": "bot", "level": "god"}]}, "level"),
    ({"players": 2, "time": 0.5}, "time"),
    ({"players": 2, "join": 2}, "join"),
    ({"players": 2, "seats": [{"kind": "person", "name": "x" * 99}, {"kind": "person"}]},
     "name"),
])
def test_a_bad_create_is_refused_with_its_reason(server, body, fault) -> None:
    response = httpx.post(f"{server.base}/api/tables", json=body, timeout=WAIT)
    assert response.status_code == 400 and fault in response.json()["error"]


def test_the_lobby_takes_json_only_and_small(server) -> None:
    form = httpx.post(f"{server.base}/api/tables", content=b"players=2",
                      headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert form.status_code == 415
    big = httpx.post(f"{server.base}/api/tables", json={"players": 2, "pad": "x" * 100_000})
    assert big.status_code == 413
    foreign = httpx.post(f"{server.base}/api/tables", json={"players": 2},
                         headers={"Origin": "https://evil.example"})
    assert foreign.status_code == 403


def test_my_tables_say_whose_turn_it_is(server) -> None:
    made, seat_tokens = seated_table(server.base, players=2)
    lone = create(server.base, players=2, join=1)
    response = httpx.post(f"{server.base}/api/mine",
                          json={"tokens": [seat_tokens[0], lone["token"], "forged" * 8]})
    rows = {r["id"]: r for r in response.json()["tables"]}
    assert set(rows) == {made["table"], lone["table"]}
    mine = rows[made["table"]]
    assert mine["seat"] == 0 and mine["status"] == "playing"
    assert mine["your_turn"] == (mine["to_move"] == 0)
    assert rows[lone["table"]]["status"] == "waiting" and not rows[lone["table"]]["your_turn"]
    assert all("hand" not in str(r) for r in rows.values())


def test_a_finished_games_record_replays_and_an_unfinished_one_stays_hidden(server) -> None:
    made, seat_tokens = seated_table(server.base, players=2)
    url = f"{server.base}/api/tables/{made['table']}/record"
    spectator = {"Authorization": f"Bearer {made['spectator_key']}"}
    assert httpx.get(url, headers=spectator).status_code == 409
    assert httpx.get(url).status_code == 401
    assert httpx.get(url, headers={"Authorization": "Bearer " + "x" * 43}).status_code == 404
    with wires(server.ws_url, seat_tokens) as clients:
        played = play_random(clients, 2000, random.Random(5))
        assert clients[0].latest["view"]["is_over"]
    own = httpx.get(url, headers={"Authorization": f"Bearer {seat_tokens[1]}"})
    assert own.status_code == 200
    full = httpx.get(url, headers=spectator)
    assert full.status_code == 200 and full.text.startswith("langfinger-record 1")
    import langfinger_widget as lf

    game = lf.Game.from_record(full.text)
    assert game.is_over and game.history == played


def test_pages_are_served_with_a_strict_policy(server) -> None:
    made = create(server.base, players=2)
    for path in ("/", f"/join/{made['table']}", f"/play/{made['table']}",
                 f"/watch/{made['table']}"):
        page = httpx.get(server.base + path)
        assert page.status_code == 200
        assert "default-src 'self'" in page.headers["content-security-policy"]
        assert page.headers["referrer-policy"] == "no-referrer"
    assert httpx.get(f"{server.base}/api/info").json()["version"] == 1


def test_a_spectator_link_opens_the_public_view(server) -> None:
    made, _ = seated_table(server.base, players=3)
    w = Wire(server.ws_url)
    try:
        state = w.hello(table=made["table"], spectate=made["spectator_key"])
        assert state["kind"] == "state" and state["you"]["role"] == "spectator"
        assert state["view"]["spectator"] is True and state["legal"] == []
        assert all(p["hand"] is None for p in state["view"]["players"])
    finally:
        w.close()


def test_an_idle_table_leaves_memory_and_comes_back_from_its_journal(server) -> None:
    import asyncio
    import time

    made, seat_tokens = seated_table(server.base, players=2)
    with wires(server.ws_url, seat_tokens) as clients:
        play_random(clients, 5, random.Random(9))
        seen = [w.latest["view"] for w in clients]

    async def evict() -> int:
        await asyncio.sleep(0.2)  # the sockets' goodbyes are handled first
        return int(server.hub.evict_idle(time.monotonic() + 10_000))

    loop = server.hub.scheduler.loop
    assert asyncio.run_coroutine_threadsafe(evict(), loop).result(10) >= 1
    assert made["table"] not in server.hub.rooms
    with wires(server.ws_url, seat_tokens) as again:
        assert [w.latest["view"] for w in again] == seen
        assert again[0].latest["move_number"] == 5
