"""Two browsers play a whole game of Crooks through the game server (issue 37).

The test creates a 2-player Crooks table on ``python -m langfinger_widget.server`` and opens it
in two Playwright contexts, one by its seat link, the other by the invite it was sent. The
page's shell draws the board the view's game asks for (js/crooks/board.tsx, as the notebook
widget does); each page clicks what its board lights up for its own seat (a hangout, a crook
of the pile, a cell of its row and how to lay it, each special's choice, or Pass) until the
game ends, and asks "why not?" once, answered by the server with the C-ruling. Each sees only
what its seat may (C7-C8): in every frame its socket received, no other seat's legal
actions and no pile it did not look through.
"""

from __future__ import annotations

import playwright.sync_api as playwright_api
import pytest
from playwright.sync_api import Page, expect

from .apps import GameServer
from .lab import ARTIFACTS
from .test_crooks_e2e import CrooksPlayer
from .two_seats import play_until_over, two_seats

pytest.importorskip("starlette", reason="the game server needs the [server] extra")


class OnlineCrooksPlayer(CrooksPlayer):
    """A seat's page: the lit choices of its own board, and "why not?" on its own row (the
    Crooks player's, for this seat: the shell's why-reason message)."""

    def __init__(self, page: Page, seat: int) -> None:
        super().__init__(page.get_by_test_id("langfinger"), seat)

    def ready(self) -> bool:
        return self.state() == "mine" and self.board.get_attribute("data-pending") == "false"


def test_two_browsers_play_a_whole_game_of_crooks(browser: playwright_api.Browser,
                                                   game_server: GameServer) -> None:
    with two_seats(browser, game_server, "crooks") as table:
        pages, frames = table.pages, table.frames
        players = [OnlineCrooksPlayer(page, seat) for seat, page in enumerate(pages)]
        players[1].asked_why = True  # one "why not?" is enough

        play_until_over(players, 300)
        clicks = sum(p.clicks for p in players)
        print(f"a whole 2-player game of Crooks through the server: {clicks} clicks, "
              f"{sum(p.decisions for p in players)} decisions")
        assert players[0].asked_why and all(p.decisions > 3 for p in players)

        for seat, page in enumerate(pages):
            expect(page.get_by_test_id("standings").first).to_be_visible()
            expect(page.get_by_test_id("online-standings")).to_be_visible()
            pictures = [f for f in frames[seat] if f["kind"] in ("state", "update")]
            assert pictures and all(f["view"]["seat"] == seat for f in pictures)
            # Legal actions only while this seat decides (C2.2), never another's.
            assert all(f["legal"] == [] for f in pictures if f["view"]["to_move"] != seat)
            # A pile is shown only to the seat that recruits from it (C7).
            assert all(f["view"]["turn"] is None or f["view"]["turn"].get("pile") is None
                       or f["view"]["to_move"] == seat for f in pictures)
        pages[0].screenshot(path=str(ARTIFACTS / "online-crooks-end.png"), full_page=True)
        assert "game crooks" in table.record(game_server)


def test_the_lobby_offers_each_game_and_creates_a_crooks_table(
        browser: playwright_api.Browser, game_server: GameServer) -> None:
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{game_server.base}/")
        choice = page.get_by_test_id("lobby-game")
        expect(choice).to_be_visible()
        offered = choice.locator("option").all_inner_texts()
        assert offered[0].startswith("Langfinger") and offered[1] == "Crooks", offered
        choice.select_option("crooks")
        players = page.get_by_test_id("lobby-players").locator("option").all_inner_texts()
        assert players == ["2", "3", "4"]  # C1.1
        page.get_by_test_id("lobby-players").select_option("3")
        page.get_by_test_id("lobby-seat-1").select_option("easy")
        page.get_by_test_id("lobby-seat-2").select_option("hard")
        page.get_by_test_id("lobby-create").click()
        expect(page.get_by_test_id("lobby-links")).to_be_visible()
        page.get_by_role("link", name="open the board").click()
        expect(page.get_by_test_id("crooks-board")).to_be_visible()
        expect(page.get_by_test_id("online-status")).to_have_attribute("data-state", "online")
        view = page.evaluate("() => window.langfingerOnline.get('view')")
        assert view["game"] == "crooks" and view["num_players"] == 3 and view["seat"] == 0
    finally:
        context.close()
