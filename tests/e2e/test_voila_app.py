"""The no-code Voilà app (``./scripts/play --app``): a page with the board and nothing else.

Someone who never saw code opens the app, starts a 4-player game with three
bots of different strengths from the board's own New game panel, places a
token and watches the bots answer. Everything is read from the page, as that
person would: the app has no notebook to ask the kernel through. The same New game panel
deals Crooks, whose board then plays a turn by clicks against two bots.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import playwright.sync_api as playwright_api
import pytest
from playwright.sync_api import expect

from .apps import AppServer, new_game_in_app, shot_on_failure, start_voila
from .lab import ARTIFACTS
from .test_crooks_e2e import play_a_turn_then_bots_answer
from .test_goods_e2e import play_a_round_then_bots_answer

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
    with shot_on_failure(page, voila_app, "voila-app"):
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


def test_app_new_game_offers_crooks(voila_app: AppServer, page: playwright_api.Page) -> None:
    """The app's New game deals Crooks (issue 37): the Crooks board replaces Langfinger's, a
    turn is played by clicks and the two bots answer, all read from the page."""
    with shot_on_failure(page, voila_app, "voila-crooks"):
        root = new_game_in_app(page, voila_app, "crooks", 3, "4")
        board = root.get_by_test_id("crooks-board")
        expect(board.get_by_test_id("crooks-player")).to_have_count(3)
        for seat in (1, 2):
            expect(board.get_by_test_id("crooks-player").nth(seat)).to_contain_text("bot: easy")
        expect(root.get_by_test_id("round")).to_have_count(0)  # Langfinger's board is gone
        play_a_turn_then_bots_answer(root)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "voila-crooks.png"), full_page=True)


# --- the app on a phone (issue 28) ----------------------------------------------------------

PHONE = {"width": 390, "height": 844}
TAP = 44  # px: the smallest target a finger should have to hit

# Every part a player needs, by selector inside the board: the five places, each player's
# panel, the toolbar's buttons, the status, the decision, the hand and the log.
PARTS = [
    *(f'[data-area="{p}"]' for p in ("city", "villa", "ruin", "museum", "harbor")),
    "article.lf-player",
    '[data-testid="hint"]', '[data-testid="undo"]', '[data-testid="new-game"]',
    '[data-testid="options"]', '[data-testid="legend"]', '[data-testid="round"]',
    '[data-testid="composer"]', '[data-testid="my-area"]', '[data-testid="log"]',
]  # fmt: skip

# For each element: inside the page's width, and, once scrolled to, the one a finger at its
# centre would touch (not cut off by an overflow, not under another element).
_JS_REACHABLE = """(els) => els.map((el) => {
    el.scrollIntoView({ block: 'center', inline: 'center' });
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {
        what: el.getAttribute('data-testid') || el.getAttribute('data-area')
            || el.getAttribute('aria-label') || el.className,
        left: r.left + window.scrollX, right: r.right + window.scrollX,
        reachable: !!hit && (el === hit || el.contains(hit) || hit.contains(el)),
    };
})"""

_JS_TARGETS = """(root) => Array.from(root.querySelectorAll('button, [data-legal="true"], select'))
    .filter((el) => el.getClientRects().length > 0)
    .map((el) => { const r = el.getBoundingClientRect();
        return { what: el.getAttribute('data-testid') || el.getAttribute('aria-label')
                     || el.textContent.trim().slice(0, 30), w: r.width, h: r.height }; })"""


# Scroll whatever box scrolls the board back to its top; return that box's content height.
_JS_SCROLL_TOP = """(el) => {
    let box = el.parentElement;
    while (box && box.scrollHeight <= box.clientHeight + 1) box = box.parentElement;
    box = box || document.scrollingElement;
    box.scrollTop = 0;
    return Math.ceil(box.scrollHeight + 16);
}"""


def test_app_on_a_phone(voila_app: AppServer, browser: playwright_api.Browser) -> None:
    """At 390x844 with touch, every place and button fits the width and can be reached by
    scrolling the page, every target is at least 44 px, and a tap plays and is answered."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    context.set_default_timeout(30_000)
    page = context.new_page()
    try:
        with shot_on_failure(page, voila_app, "phone"):
            page.goto(voila_app.url)
            root = page.get_by_test_id("langfinger")
            expect(root.get_by_test_id("round")).to_have_text("Round 1", timeout=60_000)
            expect(root.locator(".lf-your-turn")).to_be_visible(timeout=60_000)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], f"the page scrolls sideways: {width} px wide"
            parts = [h for sel in PARTS for h in root.locator(sel).element_handles()]
            assert len(parts) >= len(PARTS) + 2  # three players' panels
            for part in page.evaluate(_JS_REACHABLE, parts):
                assert part["left"] >= 0 and part["right"] <= PHONE["width"] + 0.5, part
                assert part["reachable"], f"{part['what']} cannot be reached by a finger"
            small = [
                t
                for t in page.evaluate(_JS_TARGETS, root.element_handle())
                if t["w"] < TAP - 0.5 or t["h"] < TAP - 0.5
            ]
            assert not small, f"targets under {TAP} px: {small}"

            # A tap on a label shows it (a title tooltip never would on touch).
            root.locator(".lf-track-token").first.tap()
            expect(root.get_by_test_id("tip")).to_contain_text(":")
            # A tap on a place plays; the bots answer and it is our turn again.
            move = int(root.get_attribute("data-move") or 0)
            root.locator('[data-place][data-legal="true"]').first.tap()
            expect(root).not_to_have_attribute("data-move", str(move), timeout=30_000)
            expect(root.locator(".lf-your-turn")).to_be_visible(timeout=60_000)
            assert int(root.get_attribute("data-move") or 0) >= move + 3  # ours, then two bots
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            # The whole page in one picture: Voilà scrolls an inner box, so the window is made
            # as tall as that box's content (the width, and with it the layout, stays a phone's).
            tall = root.evaluate(_JS_SCROLL_TOP)
            page.set_viewport_size({"width": PHONE["width"], "height": max(tall, PHONE["height"])})
            page.screenshot(path=str(ARTIFACTS / "phone.png"))
    finally:
        context.close()


def test_app_new_game_offers_goods(voila_app: AppServer, page: playwright_api.Page) -> None:
    """The app's New game deals Oh My Goods! (issue 38): its board replaces Langfinger's and
    a whole round is played by clicks against an easy bot."""
    with shot_on_failure(page, voila_app, "voila-goods"):
        root = new_game_in_app(page, voila_app, "goods", 2, "3")
        expect(root.get_by_test_id("round")).to_have_count(0)  # Langfinger's board is gone
        play_a_round_then_bots_answer(root)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "voila-goods.png"), full_page=True)
