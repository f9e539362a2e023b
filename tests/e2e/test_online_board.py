"""Two browsers play each other through the game server (issue 31).

The test starts ``python -m langfinger_widget.server``, creates a 2-player table, and opens
it in two Playwright contexts (two people, each with their own storage): one by its seat
link, the other by the invite it was sent. They play the first round by clicking the very
board the notebook widget uses; each sees only its own hand, in the page and in every frame
its socket received. Then the server is killed: both pages say they are offline, reconnect
by themselves when it is back, and the game is played out to the end.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import httpx
import playwright.sync_api as playwright_api
import pytest
from playwright.sync_api import Page, expect

from .apps import GameServer
from .lab import ARTIFACTS
from .test_board import pick, play_by_clicks

pytest.importorskip("starlette", reason="the game server needs the [server] extra")


def model(page: Page, expression: str) -> Any:
    return page.evaluate(f"() => {{ const m = window.langfingerOnline; return {expression}; }}")


def wait_move(pages: list[Page], number: int) -> None:
    for page in pages:
        page.wait_for_function(f"() => window.langfingerOnline.get('move_number') >= {number}")


def record_frames(page: Page) -> list[dict[str, Any]]:
    frames: list[dict[str, Any]] = []

    def on_socket(ws: playwright_api.WebSocket) -> None:
        ws.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    page.on("websocket", on_socket)
    return frames


def test_two_browsers_play_each_other(browser: playwright_api.Browser,
                                      game_server: GameServer) -> None:
    made = httpx.post(f"{game_server.base}/api/tables", json={"players": 2, "join": 0, "pace": 0},
                      timeout=10).json()
    contexts = [browser.new_context(viewport={"width": 1300, "height": 1000}),
                browser.new_context(viewport={"width": 390, "height": 844})]  # a phone
    try:
        pages = [c.new_page() for c in contexts]
        frames = [record_frames(p) for p in pages]
        pages[0].goto(made["play"])
        pages[1].goto(made["invites"]["1"])  # joins through the page, then plays
        for seat, page in enumerate(pages):
            expect(page.get_by_test_id("online-status")).to_have_attribute("data-state", "online")
            expect(page.get_by_test_id("langfinger")).to_be_visible()
            assert model(page, "m.get('seat')") == seat
        assert "/play/" in pages[1].url

        t0 = time.monotonic()
        # The first round, by clicking: whoever is to move picks a legal action on their board.
        while model(pages[0], "m.get('view').round") == 1:
            view = model(pages[0], "m.get('view')")
            seat = view["to_move"]
            page = pages[seat]
            page.wait_for_function("() => window.langfingerOnline.get('legal').length > 0")
            legal = model(page, "m.get('legal')")
            action = legal[0] if view["phase"] == "place" else pick(legal)
            if action["type"] == "place":
                action = random.Random(len(legal)).choice(legal)
            number = model(page, "m.get('move_number')")
            place = view["decision"]["place"] or ""
            play_by_clicks(page.get_by_test_id("langfinger"), place, action)
            wait_move(pages, number + 1)

        t1 = time.monotonic()
        # Each sees its own hand, and only its own: in the page and in every frame received.
        for seat, page in enumerate(pages):
            view = model(page, "m.get('view')")
            mine, theirs = view["players"][seat], view["players"][1 - seat]
            assert mine["hand"] is not None and theirs["hand"] is None
            shown = page.locator('[data-area="hand"] [data-tool]').count()
            assert shown == mine["hand_size"]
            rival = page.locator(f'article[data-seat="{1 - seat}"] .lf-toolcounts')
            expect(rival).to_have_count(0)
            pictures = [f for f in frames[seat] if f["kind"] in ("state", "update")]
            assert pictures and all(f["view"]["players"][1 - seat]["hand"] is None
                                    for f in pictures)
            assert all(f["legal"] == [] for f in pictures if f["view"]["to_move"] != seat)
            deals = [e for f in pictures for e in f["events"] if e["type"] == "deal"]
            assert all(e["tools"] is None for e in deals if e["seat"] != seat)
        pages[1].screenshot(path=str(ARTIFACTS / "online-phone.png"), full_page=True)

        t2 = time.monotonic()
        # The server dies: both pages say so, and come back by themselves when it is back.
        at = model(pages[0], "m.get('move_number')")
        game_server.kill()
        for page in pages:
            expect(page.get_by_test_id("online-status")).to_have_attribute("data-state", "offline")
            expect(page.get_by_test_id("online-status")).to_contain_text("reconnecting")
        game_server.start()
        for page in pages:
            expect(page.get_by_test_id("online-status")).to_have_attribute(
                "data-state", "online", timeout=40_000)
            assert model(page, "m.get('move_number')") == at

        t3 = time.monotonic()
        # The rest of the game is played fast by each seat's script (a second socket with the
        # same seat link); both boards follow it to the end.
        seat_tokens = [made["token"], pages[1].url.split("#", 1)[1]]
        _play_out(game_server, seat_tokens, random.Random(8))
        for page in pages:  # each board has a few hundred updates to draw: give it time
            expect(page.get_by_test_id("game-over")).to_be_visible(timeout=90_000)
            expect(page.get_by_test_id("online-standings")).to_be_visible()
        pages[0].screenshot(path=str(ARTIFACTS / "online-over.png"), full_page=True)
        print(f"\n[e2e] online: round 1 by clicks {t1 - t0:.1f} s, checks {t2 - t1:.1f} s, "
              f"offline and back {t3 - t2:.1f} s, the rest {time.monotonic() - t3:.1f} s")
    finally:
        for c in contexts:
            c.close()


def _play_out(game_server: GameServer, seat_tokens: list[str], rng: random.Random) -> None:
    """Random legal moves for both seats over the protocol until the game is over."""
    from websockets.sync.client import connect

    url = f"ws://127.0.0.1:{game_server.port}/ws"
    with connect(url) as a, connect(url) as b:
        sockets = [a, b]
        latest: list[dict[str, Any]] = [{}, {}]
        for ws, token in zip(sockets, seat_tokens, strict=True):
            ws.send(json.dumps({"kind": "hello", "token": token}))
        ids = 0

        def read(seat: int) -> dict[str, Any]:
            msg: dict[str, Any] = json.loads(sockets[seat].recv(timeout=20))
            if msg["kind"] in ("state", "update"):
                latest[seat] = msg
            return msg

        def catch_up(seat: int, seq: int) -> None:
            while latest[seat].get("seq", -1) < seq:
                read(seat)

        for seat in (0, 1):
            catch_up(seat, 0)
        while not latest[0]["view"]["is_over"]:
            seat = latest[0]["view"]["to_move"]
            action = rng.choice(latest[seat]["legal"])
            reply: dict[str, Any] = {}
            while not reply.get("ok"):
                ids += 1
                sockets[seat].send(json.dumps({"kind": "act", "id": ids, "action": action}))
                reply = read(seat)
                while reply.get("id") != ids and reply.get("code") != "rate_limited":
                    reply = read(seat)
                if reply.get("code") == "rate_limited":  # a script must keep to the rate
                    time.sleep(0.5)
                    continue
                assert reply.get("ok"), reply
            for s in (0, 1):
                catch_up(s, reply["seq"])
