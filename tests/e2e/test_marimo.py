"""The board in marimo (``marimo run notebooks/marimo_langfinger.py``), read back reactively.

marimo shows the widget through ``mo.ui.anywidget``; the notebook's table cell
reads the seat's view through a ``mo.state`` that the widget's observer sets
(marimo re-runs cells on state setters, not on trait changes). This proves in
a real page:

- the board renders and a click on a place reaches Python (the page's custom
  message), and the kernel's answers reach the page (the New game panel closes
  only on the kernel's ``result`` message);
- the reactive table runs again after the click *and* after moves that no page
  message caused: bots moving on the kernel's event loop;
- the Hint button's search, run in slices on that loop, reaches the board.

- New game deals Crooks: its board plays a turn by clicks, and the reactive table reads
  Crooks' view.

The app view shows no code, so everything is read from the page.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import playwright.sync_api as playwright_api
import pytest
from playwright.sync_api import Locator, expect

import langfinger_widget as lf

from .apps import AppServer, new_game_in_app, shot_on_failure, start_marimo
from .lab import ARTIFACTS
from .test_crooks_e2e import play_a_turn_then_bots_answer
from .test_goods_e2e import play_a_round_then_bots_answer


@pytest.fixture(scope="module")
def marimo_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    server = start_marimo(tmp_path_factory.mktemp("marimo"))
    print(f"\n[e2e] marimo run answered after {server.started_in:.1f}s at {server.url}")
    try:
        yield server
    finally:
        server.stop()


def table(page: playwright_api.Page) -> dict[int, dict[str, int]]:
    """The reactive cell's money table: seat -> money, tokens left, loot."""
    rows = page.get_by_test_id("money-table").locator("tbody tr")
    out = {}
    for row in rows.all():
        cells = {k: int(row.locator(f"td.{k}").inner_text()) for k in ("money", "tokens", "loot")}
        out[int(str(row.get_attribute("data-seat")))] = cells
    return out


def moves(progress: Locator) -> int:
    found = re.search(r"(\d+) moves played", progress.inner_text())
    assert found, progress.inner_text()
    return int(found.group(1))


def seed_where_seat_starts(players: int, seat: int) -> int:
    """A seed whose deal makes ``seat`` the start player (R1.0 draws it from the seed)."""
    return next(
        s
        for s in range(1000)
        if lf.Game.new(players=players, seed=s).view(None)["start_player"] == seat
    )


def test_board_click_and_reactive_table(marimo_app: AppServer, page: playwright_api.Page) -> None:
    with shot_on_failure(page, marimo_app, "marimo"):
        page.goto(marimo_app.url)
        root = page.get_by_test_id("langfinger")
        expect(root.get_by_test_id("round")).to_have_text("Round 1", timeout=60_000)
        progress = page.get_by_test_id("progress")
        expect(progress).to_contain_text("Pascal to move", timeout=60_000)  # bots played up to us
        expect(root.locator(".lf-your-turn")).to_be_visible()
        start, tokens = moves(progress), table(page)

        # A click reaches Python; the table follows it and the two bots' answers.
        root.locator('[data-place][data-legal="true"]').first.click()
        expect(progress).to_contain_text(f"{start + 3} moves played", timeout=30_000)
        expect(progress).to_contain_text("Pascal to move")
        after = table(page)
        assert {s: after[s]["tokens"] for s in after} == {
            s: tokens[s]["tokens"] - 1 for s in tokens
        }

        # A new game from the board's panel: 4 players, your board is seat 3, and a seed
        # that makes seat 0 start, so three bot moves happen with no message from the page.
        seed = seed_where_seat_starts(4, 0)
        root.get_by_role("button", name="New game").click()
        panel = root.get_by_test_id("new-game-panel")
        panel.get_by_test_id("ng-players").select_option("4")
        panel.get_by_test_id("ng-seat").select_option("3")
        for seat, level in ((0, "easy"), (1, "medium"), (2, "easy")):
            panel.get_by_test_id(f"ng-player-{seat}").select_option(level)
        panel.get_by_label("Seed (optional)").fill(str(seed))
        panel.get_by_role("button", name="Start the new game").click()
        expect(panel).to_have_count(0)  # closed by the kernel's `result` message
        expect(page.get_by_test_id("money-table").locator("tbody tr")).to_have_count(4)
        expect(progress).to_contain_text("3 moves played", timeout=30_000)
        expect(progress).to_contain_text("Yoshiko to move")
        expect(page.get_by_test_id("money-table")).to_contain_text("Yoshiko (you)")
        expect(root.locator(".lf-your-turn")).to_be_visible()
        assert [v["tokens"] for v in table(page).values()] == [2, 2, 2, 3]
        # The Hint search also runs in slices on marimo's event loop, and its answer arrives.
        root.get_by_test_id("hint").click()
        expect(root.get_by_test_id("hint-text")).to_contain_text(
            "estimated win chance", timeout=60_000
        )
        expect(root.get_by_test_id("error")).to_have_count(0)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "marimo.png"), full_page=True)


def test_crooks_from_new_game(marimo_app: AppServer, page: playwright_api.Page) -> None:
    """New game deals Crooks in marimo (issue 37): its board plays a turn by clicks, the bots
    answer, and the reactive table reads Crooks' view (cash, crooks placed) after each move."""
    with shot_on_failure(page, marimo_app, "marimo-crooks"):
        root = new_game_in_app(page, marimo_app, "crooks", 3, "4")
        board = root.get_by_test_id("crooks-board")
        money = page.get_by_test_id("money-table")
        expect(money.locator("thead")).to_contain_text("Crooks placed")
        play_a_turn_then_bots_answer(root)
        # The table ran again after the bots' moves too: it shows the board's move and cash.
        progress = page.get_by_test_id("progress")
        expect(progress).to_contain_text(f"{root.get_attribute('data-move')} moves played")
        for seat in range(3):
            cash = board.locator(f'[data-testid="crooks-player"][data-seat="{seat}"] .lf-cash')
            row = money.locator(f"tbody tr[data-seat='{seat}']")
            expect(row.locator("td.cash")).to_have_text(cash.inner_text().lstrip("$"))
        expect(money.locator("tbody tr[data-seat='0'] td.cash")).not_to_have_text("18")
        placed = sum(int(t) for t in money.locator("td.crooks").all_inner_texts())
        assert placed >= 1, "no crook placed according to the table"
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "marimo-crooks.png"), full_page=True)


def test_goods_from_new_game(marimo_app: AppServer, page: playwright_api.Page) -> None:
    """New game deals Oh My Goods! in marimo (issue 38): a whole round by clicks against an
    easy bot, and the reactive cells run again after the moves without an error."""
    with shot_on_failure(page, marimo_app, "marimo-goods"):
        root = new_game_in_app(page, marimo_app, "goods", 2, "3")
        play_a_round_then_bots_answer(root)
        progress = page.get_by_test_id("progress")
        expect(progress).to_contain_text(f"{root.get_attribute('data-move')} moves played")
        expect(progress).to_contain_text("Round 2")
        money = page.get_by_test_id("money-table")
        expect(money.locator("thead")).to_contain_text("VP")
        expect(money.locator("tbody tr")).to_have_count(2)
        expect(root.get_by_test_id("error")).to_have_count(0)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "marimo-goods.png"), full_page=True)
