"""Oh My Goods! by clicks alone in a real JupyterLab (issue 38).

One cell makes the board; from then on only the board's own messages reach the kernel. The
player below reads the page and clicks what the board lights up (``data-legal="true"``):
keep, the Worker's building and its mode, a card to plan, Produce, a hand card to close a
gap, a chain, Build, an Assistant to hire, a goods stack to pay with, End production, End my
turn. On the way it asks "why not?" once by clicking an unlit choice, and reads the ruling.

Whole games, the clicks counted and printed: three players at a hot seat (two people at one
screen and a greedy bot: each sealed choice behind the privacy screen in turn, every plan
shown at once after the last), and two players against a greedy bot, the end screen's VP by
source read against the kernel's standings. Then axe-core, the themes and a phone's width,
and a round by the keyboard alone.
"""

from __future__ import annotations

import json
import time
from typing import Any

from playwright.sync_api import Locator, expect

from .lab import LabNotebook
from .test_access_and_theme import (
    _JS_CONTROLS,
    AA_NORMAL_TEXT,
    DARK,
    LIGHT,
    axe_violations,
    colours,
    contrast_ratio,
    crooks_focused,
    set_theme,
)
from .test_crooks_e2e import CrooksPlayer
from .test_whole_game import shoot

LIT = '[data-legal="true"]'
SLOPPY = '[data-testid="work-mode"][data-mode="sloppy"]'
# The elements that stick out of the board on the right (tag, class, by how many pixels).
OVERFLOWING = """(root) => { const edge = root.getBoundingClientRect().right; const out = [];
  for (const e of root.querySelectorAll('*')) { const r = e.getBoundingClientRect();
    if (r.right > edge + 1)
      out.push(`${e.tagName}.${e.getAttribute('class') || ''} +${Math.round(r.right - edge)}`); }
  return out.slice(0, 12); }"""


def cell(bots: str, seed: int, players: int = 2) -> str:
    return ("import langfinger_widget as lf\n"
            f"w = lf.LangfingerWidget(game='goods', players={players}, seed={seed}, seat=0,"
            f" bots={bots}, pace=0)\n"
            "w")


class GoodsPlayer(CrooksPlayer):
    """Plays the seat at the screen by clicks: what the board lights up, step by step (the
    page reading, the clicks counted and the waits are the Crooks player's)."""

    def __init__(self, root: Locator) -> None:
        super().__init__(root)
        self.board = root.get_by_test_id("goods-board")
        self.reveals = 0
        self.last = ""  # the last click, for a failure's message

    def wait_for_screen(self, timeout: float = 120.0) -> str:
        """'mine', 'privacy' or 'over', once the board is there and no move is pending."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = self.state()
            if state == "over":
                return state
            if state in ("mine", "privacy") and self.board.get_attribute("data-pending") == "false":
                return state
            time.sleep(0.05)
        raise AssertionError(f"neither our turn nor the end within {timeout}s (move {self.move()})")

    def lit(self, selector: str) -> Locator:
        return self.board.locator(f"{selector}{LIT}")

    def ask_why(self) -> None:
        """Once: click an unlit choice (a button that is no legal move now); the kernel says
        why not."""
        unlit = self.board.locator('button[data-legal="false"]')
        if not unlit.count():
            return
        self.click(unlit.first, unlit=True)
        why = self.root.get_by_test_id("why-reason")
        expect(why).to_contain_text("G", timeout=15_000)
        expect(why).not_to_contain_text("Asking why")
        link = why.get_by_test_id("ruling-link").first
        self.click(link)
        expect(why.get_by_test_id("ruling-text")).to_be_visible()
        self.asked_why = True

    def reveal(self) -> None:
        """The person named on the privacy screen says they are at the screen."""
        self.click(self.root.get_by_test_id("reveal"))
        self.reveals += 1
        deadline = time.monotonic() + 30
        while self.state() == "privacy":
            if time.monotonic() > deadline:
                raise AssertionError("the privacy screen stayed up after 'I am …'")
            time.sleep(0.05)

    def choose(self, step: str) -> Locator:
        """The click for this step: the first lit choice, in an order that ends the game."""
        b = self.board
        if step == "hand":
            return b.get_by_test_id("keep")
        if step == "discard" or step == "supply":
            return self.lit('[data-testid="hand-card"]').first
        if step == "plan":
            if b.locator(SLOPPY).count():  # a building picked for the Worker asks its mode
                return b.locator(SLOPPY)
            for sel in ('[data-testid="tableau"] button[data-testid="building"]',
                        '[data-testid="hand-card"]', '[data-testid="work-rest"]',
                        '[data-testid="plan-none"]'):
                if self.lit(sel).count():
                    return self.lit(sel).first
            raise AssertionError("a plan step with nothing lit")
        if step == "produce":
            for sel in ('[data-testid="produce"]', '[data-testid="chain-option"]',
                        '[data-testid="done"]'):
                if self.lit(sel).count():
                    return self.lit(sel).first
            raise AssertionError("production with nothing lit")
        if step == "after":
            for sel in ('[data-testid="build"]', '[data-testid="offer"]', '[data-testid="done"]'):
                if self.lit(sel).count():
                    return self.lit(sel).first
        if step in ("pay", "assign"):
            return self.lit('[data-testid="tableau"] button[data-testid="building"]').first
        raise AssertionError(f"unknown step {step!r}")

    def decide(self) -> None:
        step = self.board.get_attribute("data-step") or ""
        start = self.move()
        self.decisions += 1
        self.by_step[step] = self.by_step.get(step, 0) + 1
        if not self.asked_why and step in ("produce", "after"):
            self.ask_why()
        target = self.choose(step)
        self.last = self.tell(target)
        self.click(target)
        # The Worker's building asks its mode: sloppy makes a good even one unit short.
        modes = self.board.get_by_test_id("work-mode")
        deadline = time.monotonic() + 10
        while self.move() == start and not modes.count():
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"a lit choice at step {step!r} (move {start}) neither moved nor asked "
                    f"more after {self.last}: {self.scene()}")
            time.sleep(0.02)
        # Asked, even when the move went on meanwhile: another seat's plan may seal (G6)
        # while this one picks, and the pick stays.
        if modes.count():
            self.click(self.board.locator(SLOPPY))
        self.wait_past(start)

    def scene(self) -> str:
        """What the board shows now, for a failure's message."""
        error = self.root.get_by_test_id("error")
        return (f"now move {self.move()}, state {self.state()!r}, step "
                f"{self.board.get_attribute('data-step')!r}, pending "
                f"{self.board.get_attribute('data-pending')!r}, error "
                f"{error.inner_text() if error.count() else ''!r}, lit "
                f"{[self.tell(e) for e in self.board.locator(LIT).all()]}, pressed "
                f"{[self.tell(e) for e in self.board.locator('[aria-pressed=true]').all()]}")

    @staticmethod
    def tell(e: Locator) -> str:
        """An element in a few words: its test id, building or card, and whether pressed."""
        return " ".join(str(e.get_attribute(a)) for a in ("data-testid", "data-building",
                                                           "data-card", "aria-pressed"))

    def play(self, limit: int = 600, until_round: int | None = None) -> None:
        for _ in range(limit):
            if until_round is not None and self.round() >= until_round:
                return
            state = self.wait_for_screen()
            if state == "over":
                return
            if state == "privacy":
                self.reveal()
                continue
            self.decide()
        raise AssertionError(f"the game did not end within {limit} decisions")

    def round(self) -> int:
        text = self.board.locator(".lf-round").inner_text()
        return int(text.split()[-1])


def play_a_round_then_bots_answer(root: Locator, timeout: float = 120.0) -> GoodsPlayer:
    """The check each front end makes for Oh My Goods! (as Crooks' play_a_turn_then_bots_
    answer): the board is drawn, seat 0 plays one whole round by clicks (keep, its sealed
    plan, its production and turn) while the bot seals and plays its own, until round 2."""
    board = root.get_by_test_id("goods-board")
    expect(board).to_be_visible(timeout=60_000)
    player = GoodsPlayer(root)
    player.asked_why = True  # a short test: the whole game's test asks "why not?"
    player.play(limit=80, until_round=2)
    assert player.round() == 2 and player.decisions >= 3, player.by_step
    assert {"hand", "plan"} <= set(player.by_step), player.by_step
    return player


def test_a_hot_seat_game_each_plan_behind_the_privacy_screen(open_notebook) -> None:  # type: ignore[no-untyped-def]
    """Two people at one screen and a greedy bot, a whole game by clicks: each sealed choice
    is made behind the privacy screen in turn, and every plan shows at once after the last."""
    nb: LabNotebook = open_notebook("goods-hot-seat.ipynb", [cell("{2: 'greedy'}", 5, 3)])
    nb.run_all()
    root = nb.output(0).get_by_test_id("langfinger")
    board = root.get_by_test_id("goods-board")
    expect(board).to_be_visible(timeout=30_000)
    player = GoodsPlayer(root)
    # Phase I: seat 0 keeps; the screen goes to seat 1 behind the cover.
    assert player.wait_for_screen() == "mine"
    player.decide()
    assert player.wait_for_screen() == "privacy"
    expect(board.get_by_test_id("hand")).to_have_count(0)
    player.reveal()
    player.decide()
    # Phase II: the seat at the screen plans first; its plan seals, then the cover comes up.
    expect(board).to_have_attribute("data-step", "plan", timeout=15_000)
    planner = nb.kernel_json("w.seat")
    while player.wait_for_screen() == "mine" and board.get_attribute("data-step") == "plan":
        player.decide()
    assert player.state() == "privacy"
    expect(root.get_by_test_id("privacy")).to_contain_text("Player")
    expect(board.locator('[data-testid="sealed"]')).to_have_count(2)  # the planner's, the bot's
    expect(board.get_by_test_id("revealed-plan")).to_have_count(0)  # nothing shown yet
    # Behind the cover nothing of the sealed plan shows: no hand, no Worker, no log.
    expect(board.get_by_test_id("hand")).to_have_count(0)
    expect(board.locator(".lf-worker")).to_have_count(0)
    expect(board.get_by_test_id("log")).to_have_count(0)
    shoot(root, "goods-hot-seat-privacy")
    player.reveal()
    assert nb.kernel_json("w.seat") == 1 - planner
    while player.wait_for_screen() == "mine" and board.get_attribute("data-step") == "plan":
        player.decide()
    # The last seal shows every plan at once, on the board of whoever is at the screen.
    expect(board.get_by_test_id("revealed-plan")).to_have_count(3, timeout=15_000)
    assert nb.kernel_json("w.game.phase") == "production"
    shoot(root, "goods-hot-seat-revealed")
    player.play()
    expect(root.get_by_test_id("game-over")).to_be_visible(timeout=30_000)
    assert nb.kernel_json("w.game.is_over")
    rounds = nb.kernel_json("w.game.round")
    assert player.reveals >= 2 * rounds  # the cover came up at least twice a round
    print(f"\n[clicks] whole 3-player Oh My Goods! game at a hot seat (2 people at one screen, "
          f"a greedy bot, seed 5, pace 0): {player.clicks} clicks for {player.decisions} "
          f"decisions over {rounds} rounds, {player.reveals} privacy screens; "
          f"by step {player.by_step}")


def test_whole_goods_game_by_clicks_alone(open_notebook) -> None:  # type: ignore[no-untyped-def]
    nb: LabNotebook = open_notebook("goods-game.ipynb", [cell("{1: 'greedy'}", 11)])
    nb.run_all()  # the one cell; from here on only clicks reach the kernel
    root = nb.output(0).get_by_test_id("langfinger")
    board = root.get_by_test_id("goods-board")
    expect(board).to_be_visible(timeout=30_000)
    expect(board.get_by_test_id("tableau")).to_have_count(2)
    player = GoodsPlayer(root)
    started = time.monotonic()
    player.play()
    over = root.get_by_test_id("game-over")
    expect(over).to_be_visible(timeout=30_000)
    standings = nb.kernel_json("w.game.standings()")
    table = root.get_by_test_id("standings")
    for s in standings:
        row = table.locator(f'tr[data-seat="{s["seat"]}"]')
        for source, vp in s["sources"].items():
            expect(row.locator(f'[data-source="{source}"]')).to_have_text(str(vp))
        expect(row.get_by_test_id("points")).to_have_text(str(s["score"]))
    shoot(root, "goods-end")
    rounds = nb.kernel_json("w.game.round")
    print(f"\n[clicks] whole 2-player Oh My Goods! game (seed 11, a greedy bot, pace 0): "
          f"{player.clicks} clicks for {player.decisions} decisions over {rounds} rounds in "
          f"{time.monotonic() - started:.0f}s; by step {player.by_step}")
    assert player.asked_why


def test_the_goods_board_is_axe_clean_on_a_phone_and_in_the_dark_theme(open_notebook) -> None:  # type: ignore[no-untyped-def]
    """axe-core finds no WCAG 2.1 A/AA violation while planning, producing and at the hot
    seat's cover, in the light and the dark theme; text keeps AA contrast in both; at 390 px
    nothing sticks out of the board."""
    nb: LabNotebook = open_notebook("goods-dark.ipynb", [cell("{1: 'greedy'}", 3)])
    nb.run_all()
    root = nb.output(0).get_by_test_id("langfinger")
    board = root.get_by_test_id("goods-board")
    player = GoodsPlayer(root)
    page = nb.page
    found: dict[str, Any] = {}
    set_theme(page, LIGHT)
    try:
        assert player.wait_for_screen() == "mine"
        player.decide()  # keep
        expect(board).to_have_attribute("data-step", "plan", timeout=15_000)
        found["plan"] = axe_violations(page, root)
        for _ in range(40):
            player.wait_for_screen()
            if board.get_attribute("data-step") == "produce":
                break
            player.decide()
        found["produce"] = axe_violations(page, root)
        light = colours(page, root)
        set_theme(page, DARK)
        page.wait_for_function(
            "([root, before]) => getComputedStyle(root).backgroundColor !== before",
            arg=[root.element_handle(), light["bgRaw"]], timeout=15_000, polling=100)
        dark = colours(page, root)
        found["produce, dark"] = axe_violations(page, root)
        player.click(root.get_by_test_id("legend"))
        found["legend, dark"] = axe_violations(page, root)
        shoot(root, "goods-dark")
    finally:
        set_theme(page, LIGHT)
    bad = {step: v for step, v in found.items() if v}
    assert not bad, json.dumps(bad, indent=1)
    assert dark["bg"] != light["bg"]
    for name, c in (("light", light), ("dark", dark)):
        ratio = contrast_ratio(c["fg"], c["bg"])
        assert ratio >= AA_NORMAL_TEXT, f"{name} theme: text contrast {ratio:.2f}:1 < 4.5:1"
    size = page.viewport_size
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        # A phone's JupyterLab shows the notebook alone: the side panel (the file browser)
        # would leave the board a strip narrower than its title.
        page.evaluate("() => { const shell = window.jupyterapp.shell; shell.collapseLeft(); "
                      "shell.collapseRight(); }")
        page.wait_for_timeout(500)
        width = board.evaluate("(el) => el.getBoundingClientRect().width")
        assert width >= 240, f"the notebook leaves the board only {width}px"
        wide = board.evaluate("(el) => el.scrollWidth - el.clientWidth")
        past = board.evaluate(OVERFLOWING)
        assert wide <= 1, f"the board is {wide}px wider than its box on a phone: {past}"
        shoot(root, "goods-phone")
    finally:
        if size:
            page.set_viewport_size(size)


def test_a_round_by_keyboard_alone(open_notebook) -> None:  # type: ignore[no-untyped-def]
    """Enter alone plays a round: every control has a name and is reached by Tab, and after
    each step the focus is on the next choice (the Worker's modes after its building, the
    first lit choice after a move), never dropped to the page."""
    nb: LabNotebook = open_notebook("goods-keyboard.ipynb", [cell("{1: 'greedy'}", 8)])
    nb.run_all()
    root = nb.output(0).get_by_test_id("langfinger")
    board = root.get_by_test_id("goods-board")
    expect(board).to_have_attribute("data-state", "mine", timeout=30_000)
    page = nb.page
    for c in page.evaluate(_JS_CONTROLS, board.element_handle()):
        assert c["name"], f"no accessible name: {c['html']}"
        assert c["native"] and (c["tabbable"] or c["disabled"]), c["html"]
    board.get_by_test_id("keep").focus()
    steps: list[str] = []
    while nb.kernel_json("w.game.round") == 1 and len(steps) < 40:
        expect(board).to_have_attribute("data-pending", "false")
        if board.get_attribute("data-state") != "mine":
            time.sleep(0.05)
            continue
        now = crooks_focused(page, board)
        assert now is not None and (now["legal"] == "true" or now["testid"] in (
            "work-mode", "keep", "done")), f"after {steps[-1:]} the focus is not on a choice: {now}"
        assert now["outline"], "keyboard focus must be visible (outline on :focus-visible)"
        length = len(nb.kernel_json("w.game.history"))
        steps.append(str(now["testid"]))
        page.keyboard.press("Enter")
        deadline = time.monotonic() + 15
        while len(nb.kernel_json("w.game.history")) == length and not (
                now["testid"] == "building" and board.get_by_test_id("work-mode").count()):
            assert time.monotonic() < deadline, f"Enter on {now} did nothing"
            time.sleep(0.05)
    assert nb.kernel_json("w.game.round") == 2, steps
    kinds = nb.kernel_json("[a['type'] for a in w.game.history]")
    assert {"keep", "work", "plan_build", "produce"} <= set(kinds), kinds
    print(f"\n[keys] round 1 of Oh My Goods! by Enter alone: {len(steps)} presses: {steps}")
