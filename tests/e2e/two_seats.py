"""Two seats' pages of one online table, each in its own browser context (issue 37, 38).

Shared by the two-browser tests of each game: the table is made on the test's game server,
page 0 opens the seat link and page 1 the invite it was sent (joining through the page);
each page's socket frames are recorded as they arrive.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

import httpx
import playwright.sync_api as playwright_api
from playwright.sync_api import Page, expect

from .apps import GameServer


def record_frames(page: Page) -> list[dict[str, Any]]:
    frames: list[dict[str, Any]] = []

    def on_socket(ws: playwright_api.WebSocket) -> None:
        ws.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    page.on("websocket", on_socket)
    return frames


@dataclass
class TwoSeats:
    made: dict[str, Any]
    pages: list[Page]
    frames: list[list[dict[str, Any]]]

    def record(self, server: GameServer) -> str:
        """The finished game's full record, fetched with seat 0's token."""
        response = httpx.get(f"{server.base}/api/tables/{self.made['table']}/record",
                             headers={"Authorization": f"Bearer {self.made['token']}"},
                             timeout=10)
        assert response.status_code == 200, response.text
        return response.text


@contextmanager
def two_seats(browser: playwright_api.Browser, server: GameServer, game: str
              ) -> Iterator[TwoSeats]:
    """A 2-seat ``game`` table at pace 0, both pages online with the game's board shown."""
    made = httpx.post(f"{server.base}/api/tables",
                      json={"game": game, "players": 2, "join": 0, "pace": 0},
                      timeout=10).json()
    assert made["options"]["game"] == game, made
    contexts = [browser.new_context(viewport={"width": 1300, "height": 1000}),
                browser.new_context(viewport={"width": 1000, "height": 900})]
    try:
        pages = [c.new_page() for c in contexts]
        frames = [record_frames(p) for p in pages]
        pages[0].goto(made["play"])
        pages[1].goto(made["invites"]["1"])
        for page in pages:
            expect(page.get_by_test_id("online-status")).to_have_attribute("data-state", "online")
            expect(page.get_by_test_id(f"{game}-board")).to_be_visible()
        yield TwoSeats(made, pages, frames)
    finally:
        for c in contexts:
            c.close()


class Seat(Protocol):
    def state(self) -> str: ...
    def ready(self) -> bool: ...
    def decide(self) -> None: ...


def play_until_over(players: list[Any], seconds: float) -> None:
    """Each page decides whenever its board is ready, until every board shows the end."""
    seats: list[Seat] = players
    deadline = time.monotonic() + seconds
    while not all(p.state() == "over" for p in seats):
        assert time.monotonic() < deadline, [p.state() for p in seats]
        moved = False
        for p in seats:
            if p.ready():
                p.decide()
                moved = True
        if not moved:
            time.sleep(0.05)
