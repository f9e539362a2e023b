"""The no-code Voilà app (``./scripts/play --app``): a page with the board and nothing else.

Someone who never saw code opens the app, starts a 4-player game with three
bots of different strengths from the board's own New game panel, places a
token and watches the bots answer. Everything is read from the page, as that
person would: the app has no notebook to ask the kernel through.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import playwright.sync_api as playwright_api
import pytest
from playwright.sync_api import expect

from .apps import AppServer, start_voila
from .lab import ARTIFACTS

BOTS = {1: "easy", 2: "medium", 3: "hard"}


@pytest.fixture(scope="module")
def voila_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    server = start_voila(tmp_path_factory.mktemp("voila"))
    print(f"\n[e2e] voila answered after {server.started_in:.1f}s at {server.url}")
    try:
        yield server
    finally:
        server.stop()


def choose(page: playwright_api.Page, testid: str, value: str) -> None:
    page.get_by_test_id(testid).select_option(value)


def test_app_new_game_with_three_bots(voila_app: AppServer, page: playwright_api.Page) -> None:
    try:
        page.goto(voila_app.url)
        root = page.get_by_test_id("langfinger")
        expect(root.get_by_test_id("round")).to_have_text("Round 1", timeout=60_000)
        # No code on the page: no code cell's input, no editor, no source text anywhere.
        assert (
            page.locator(".jp-CodeCell .jp-InputArea, .jp-CodeMirrorEditor, .cm-editor").count()
            == 0
        )
        html = page.content()
        assert "import langfinger_widget" not in html and "LangfingerWidget(" not in html
        expect(page.locator("body")).to_contain_text("New game on the board chooses")  # the prose

        root.get_by_role("button", name="New game").click()
        panel = root.get_by_test_id("new-game-panel")
        expect(panel).to_be_visible()
        choose(page, "ng-players", "4")
        expect(panel.get_by_test_id("ng-player-0")).to_have_text("You")
        for seat, level in BOTS.items():
            choose(page, f"ng-player-{seat}", level)
        panel.get_by_label("Seed (optional)").fill("5")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        panel.screenshot(path=str(ARTIFACTS / "new-game-panel.png"))
        panel.get_by_role("button", name="Start the new game").click()
        expect(panel).to_have_count(0)

        # The new game: four players, three bots of the chosen levels, you at seat 0.
        players = root.locator("article.lf-player")
        expect(players).to_have_count(4)
        for seat, level in BOTS.items():
            expect(players.nth(seat)).to_contain_text(f"bot: {level}")
        expect(players.nth(0)).to_contain_text("you")
        expect(root.get_by_test_id("round")).to_have_text("Round 1")

        # Bots before you in turn order place first (R1.0 draws the start player); then you.
        expect(root.locator(".lf-your-turn")).to_be_visible(timeout=60_000)
        tokens = root.locator(".lf-places .lf-token")
        before = tokens.count()
        place = root.locator('[data-place][data-legal="true"]').first
        where = place.get_attribute("data-place")
        place.click()
        # Your token, then one from each bot, and it is your turn again.
        expect(tokens).to_have_count(before + 4, timeout=60_000)
        expect(root.locator(".lf-your-turn")).to_be_visible()
        log = root.get_by_test_id("log").locator("li")
        placed = [t for t in log.all_inner_texts() if "places a token" in t]
        names = [players.nth(s).locator(".lf-player-name b").inner_text() for s in range(4)]
        mine = next(i for i, t in enumerate(placed) if t.startswith(names[0]))
        assert re.search(where or "?", placed[mine], re.IGNORECASE)
        answered = {t.split(" places")[0] for t in placed[:mine]}  # newest first: after yours
        assert answered == {names[s] for s in BOTS}, placed
        expect(root.get_by_test_id("error")).to_have_count(0)
        page.screenshot(path=str(ARTIFACTS / "voila-app.png"), full_page=True)
    except Exception:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "FAILED-voila-app.png"), full_page=True)
        print(voila_app.log_tail())
        raise
