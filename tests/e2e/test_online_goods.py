"""Two browsers play Oh My Goods! through the game server, planning at once (issue 38, G6).

A 2-player goods table on ``python -m langfinger_widget.server`` is opened in two Playwright
contexts (the seat link and the invite). Each page clicks what its own board lights up
(``GoodsPlayer`` of test_goods_e2e.py). The sealed steps are played out of turn order on
purpose: seat 1 keeps and then seals its whole plan while seat 0's page still offers its own
choices, and then seat 0 decides from its page, on a position it was sent before seat 1's
plan (nobody waits on anybody). Every frame each socket got is read: before the reveal no
frame of one seat holds the other's sealed choice (its plan, planned card, or the action in
the move highlight). Then both pages play on, each as it is ready, to the end of the game.
"""

from __future__ import annotations

import time
from typing import Any

import playwright.sync_api as playwright_api
import pytest
from playwright.sync_api import Page, expect

from .apps import GameServer
from .lab import ARTIFACTS
from .test_goods_e2e import GoodsPlayer
from .two_seats import play_until_over, two_seats

pytest.importorskip("starlette", reason="the game server needs the [server] extra")


class OnlineGoodsPlayer(GoodsPlayer):
    def __init__(self, page: Page, seat: int) -> None:
        super().__init__(page.get_by_test_id("langfinger"))
        self.page, self.seat = page, seat

    def ready(self) -> bool:
        return self.state() == "mine" and self.board.get_attribute("data-pending") == "false"

    def step(self) -> str:
        return self.board.get_attribute("data-step") or ""

    def seal(self, step: str) -> None:
        """This seat's whole sealed choice of ``step`` (hand: keep; plan: every plan step)."""
        while self.ready() and self.step() == step:
            self.decide()
            time.sleep(0.1)  # the update after a seal: the board goes to waiting

    def pictures(self, frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [f for f in frames if f["kind"] in ("state", "update")]


def _wait(what: Any, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_two_browsers_plan_at_once_through_the_server(browser: playwright_api.Browser,
                                                      game_server: GameServer) -> None:
    with two_seats(browser, game_server, "goods") as table:
        pages, frames = table.pages, table.frames
        players = [OnlineGoodsPlayer(page, seat) for seat, page in enumerate(pages)]
        for p in players:
            p.asked_why = True  # the server's why is tested in tests/server
        first, second = players[1], players[0]
        for step in ("hand", "plan"):
            _wait(lambda step=step: all(p.ready() and p.step() == step for p in players))
            move = second.move()
            first.seal(step)  # seat 1 seals first, out of turn order (G6.1)
            assert not first.ready() or first.step() != step
            # Seat 0's page was told only that seat 1 sealed, and still offers its choices.
            _wait(lambda move=move: second.move() > move)
            assert second.ready() and second.step() == step
            seen = second.pictures(frames[0])[-1]["view"]
            assert seen["sealed"] == [False, True] and seen["players"][1]["plan"] is None
            second.seal(step)
        # Then both pages play as they are ready, to the end.
        play_until_over(players, 400)
        clicks = sum(p.clicks for p in players)
        decisions = sum(p.decisions for p in players)
        print(f"a whole 2-player game of Oh My Goods! through the server: {clicks} clicks, "
              f"{decisions} decisions, {players[0].round()} rounds")
        assert all(p.decisions > 20 for p in players)
        for seat, page in enumerate(pages):
            expect(page.get_by_test_id("online-standings")).to_be_visible()
            pictures = players[seat].pictures(frames[seat])
            assert pictures and all(f["view"]["seat"] == seat for f in pictures)
            for f in pictures:
                view, other = f["view"], f["view"]["players"][1 - seat]
                assert other["hand"] is None and other["plan"] is None
                assert other["planned"] is None  # a planned card is never shown (G7.2)
                if seat not in view["to_decide"]:
                    assert f["legal"] == []
                sealing = view["sealed"] is not None and any(view["sealed"])
                if sealing and f["highlight"].get("seat") == 1 - seat:
                    assert f["highlight"]["action"] is None, f["highlight"]
        pages[0].screenshot(path=str(ARTIFACTS / "online-goods-end.png"), full_page=True)
        assert "game goods" in table.record(game_server)
