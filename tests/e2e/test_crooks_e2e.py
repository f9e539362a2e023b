"""A whole game of Crooks by clicks alone in a real JupyterLab (issue 37).

One cell makes the board: ``lf.LangfingerWidget(game="crooks", players=3, seat=0,
bots={1: "greedy", 2: "random"})`` at the default pace and settings. From then on only
the board's own messages reach the kernel: the player below reads the page and clicks
what the board lights up (``data-legal="true"``): a hangout, a crook of the pile, a cell
of its row and how to lay the crook, each special's choice, or Pass. On the way it asks
"why not?" once, by clicking another seat's row, and reads the kernel's ruling. At the
end the scoring shows target by target and gang by gang; the clicks are counted and
printed.
"""

from __future__ import annotations

import time

from playwright.sync_api import Locator, expect

from .lab import LabNotebook
from .test_whole_game import shoot

CELL = (
    "import langfinger_widget as lf\n"
    "w = lf.LangfingerWidget(game='crooks', players=3, seed=11, seat=0,"
    " bots={1: 'greedy', 2: 'random'})\n"
    "w"
)
LIT = '[data-legal="true"]'


class CrooksPlayer:
    """Plays seat 0 by clicks: the first lit choice of each decision."""

    def __init__(self, root: Locator, seat: int = 0) -> None:
        self.root = root
        self.seat = seat  # whose row "why not?" clicks
        self.board = root.get_by_test_id("crooks-board")
        self.clicks = 0
        self.decisions = 0
        self.by_step: dict[str, int] = {}
        self.asked_why = False
        self.shot: set[str] = set()

    def move(self) -> int:
        value = self.root.get_attribute("data-move")
        return int(value) if value not in (None, "") else -1

    def state(self) -> str:
        return self.board.get_attribute("data-state") or ""

    def click(self, target: Locator, *, unlit: bool = False) -> None:
        # An unlit choice is aria-disabled, which Playwright's checks take for disabled; a
        # mouse clicks it all the same (and the board asks the kernel why not).
        target.click(force=unlit)
        self.clicks += 1

    def wait_for_turn(self, timeout: float = 120.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = self.state()
            if state == "over":
                return False
            if state == "mine" and self.board.get_attribute("data-pending") == "false":
                return True
            time.sleep(0.05)
        raise AssertionError(f"neither our turn nor the end within {timeout}s (move {self.move()})")

    def wait_past(self, move: int, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while self.move() <= move:
            if time.monotonic() > deadline:
                error = self.root.get_by_test_id("error")
                shown = error.inner_text() if error.count() else ""
                raise AssertionError(f"the board stayed at move {move}; error: {shown!r}")
            time.sleep(0.02)

    def ask_why(self) -> None:
        """Once: click an unlit cell of our row while placing; the kernel says why not."""
        unlit = self.board.locator(
            f'[data-testid="target-cell"][data-seat="{self.seat}"][data-legal="false"]')
        if not unlit.count():
            return
        self.click(unlit.first, unlit=True)
        why = self.root.get_by_test_id("why-reason")
        expect(why).to_contain_text("C", timeout=15_000)
        expect(why).not_to_contain_text("Asking the kernel")
        self.asked_why = True

    def decide(self) -> None:
        step = self.board.get_attribute("data-step") or ""
        start = self.move()
        self.decisions += 1
        self.by_step[step] = self.by_step.get(step, 0) + 1
        board = self.board
        if step == "start":
            hangouts = board.locator(f'[data-testid="hangout"]{LIT}')
            target = hangouts.first if hangouts.count() else board.get_by_test_id("pass")
        elif step == "keep":
            if "crooks-pile" not in self.shot:
                self.shot.add("crooks-pile")
                shoot(self.root, "crooks-pile")
            target = board.locator(f'[data-testid="pile-card"]{LIT}').first
        elif step == "place":
            if not self.asked_why:
                self.ask_why()
                if self.asked_why:
                    shoot(self.root, "crooks-why")
            self.click(board.locator(f'[data-testid="target-cell"]{LIT}').first)
            choices = board.get_by_test_id("place-choice")
            deadline = time.monotonic() + 10
            while self.move() == start and not choices.count():
                if time.monotonic() > deadline:
                    raise AssertionError("a lit cell neither placed nor offered a choice")
                time.sleep(0.02)
            if self.move() != start:
                return
            target = choices.first
        elif step in ("switch", "kill"):
            target = board.locator(f'[data-testid="target-cell"]{LIT}').first
        elif step == "spy":
            heads = board.locator(f"th [data-target]{LIT}")
            hangouts = board.locator(f'[data-testid="hangout"]{LIT}')
            target = heads.first if heads.count() else hangouts.first
        else:
            raise AssertionError(f"unknown step {step!r}")
        self.click(target)
        self.wait_past(start)

    def play_to_end(self, limit: int = 200) -> None:
        for _ in range(limit):
            if not self.wait_for_turn():
                return
            self.decide()
        raise AssertionError(f"the game did not end within {limit} decisions")


# Each row of the targets' table: how many distinct tops and lefts its cells have.
_JS_GRID = """(table) => Array.from(table.querySelectorAll('tbody tr')).map((tr) => {
    const boxes = Array.from(tr.querySelectorAll('td')).map((td) => td.getBoundingClientRect());
    return { cells: boxes.length, tops: new Set(boxes.map((b) => Math.round(b.top))).size,
             lefts: new Set(boxes.map((b) => Math.round(b.left))).size };
})"""


def assert_a_grid(board: Locator) -> None:
    """The targets' table lays each row's cells side by side, one a column (a cell styled as a
    column of its own once stacked a whole row in one column)."""
    rows = board.get_by_test_id("targets").evaluate(_JS_GRID)
    assert rows, "no rows in the targets' table"
    for row in rows:
        assert row["tops"] == 1 and row["lefts"] == row["cells"], rows


def deal_crooks_from_the_panel(root: Locator) -> Locator:
    """The board's own New game panel deals Crooks: 3 players, you at seat 0, two easy bots,
    seed 4 (seat 0 starts). Returns the Crooks board, once drawn."""
    root.get_by_role("button", name="New game").click()
    panel = root.get_by_test_id("new-game-panel")
    panel.get_by_test_id("ng-game").select_option("crooks")
    panel.get_by_test_id("ng-players").select_option("3")
    expect(panel.get_by_test_id("ng-player-0")).to_have_text("You")
    for seat in (1, 2):
        panel.get_by_test_id(f"ng-player-{seat}").select_option("easy")
    panel.get_by_label("Seed (optional)").fill("4")
    panel.get_by_role("button", name="Start the new game").click()
    expect(panel).to_have_count(0)  # closed by the kernel's `result` message
    board = root.get_by_test_id("crooks-board")
    expect(board.get_by_test_id("crooks-player")).to_have_count(3)
    for seat in (1, 2):
        expect(board.get_by_test_id("crooks-player").nth(seat)).to_contain_text("bot: easy")
    expect(root.get_by_test_id("round")).to_have_count(0)  # Langfinger's board is gone
    return board


def play_a_turn_then_bots_answer(root: Locator, timeout: float = 120.0) -> CrooksPlayer:
    """The check each front end makes (Notebook 7, Voila, marimo, JupyterLite): the Crooks
    board is drawn, seat 0 plays one whole turn by clicks (recruit, keep, place and a
    special's choice if one comes), and the bots' turns follow on the board, in its log, until
    the turn is seat 0's again."""
    board = root.get_by_test_id("crooks-board")
    expect(board).to_be_visible(timeout=60_000)
    expect(board.get_by_test_id("targets").locator("thead th")).to_have_count(9)  # 8 targets
    assert_a_grid(board)
    player = CrooksPlayer(root)
    player.asked_why = True  # a short test: the whole game's test asks "why not?"
    player.shot.add("crooks-pile")
    assert player.wait_for_turn(timeout), "the game ended before seat 0's turn"
    assert board.get_attribute("data-step") == "start"
    log = board.get_by_test_id("log")
    names = [
        board.locator(f'[data-testid="crooks-player"][data-seat="{seat}"] b').inner_text()
        for seat in (1, 2)
    ]
    said = {name: log.inner_text().count(name) for name in names}
    first = player.move()
    player.decide()  # the recruit: the pile shows to this seat only
    expect(board.get_by_test_id("pile")).to_be_visible()
    while player.state() == "mine" and player.board.get_attribute("data-step") != "start":
        if board.get_attribute("data-pending") == "true":
            time.sleep(0.02)
            continue
        player.decide()
    assert player.wait_for_turn(timeout), "the game ended instead of coming back to seat 0"
    # The bots may answer at once (pace 0): count our decisions, not the moves seen between.
    assert player.move() >= first + player.decisions + 2, "each bot moves (a pass at the least)"
    for name in names:  # each bot's turn, in words, in the log
        assert log.inner_text().count(name) > said[name], (name, log.inner_text())
    expect(root.get_by_test_id("error")).to_have_count(0)
    return player


def test_whole_crooks_game_by_clicks_alone(open_notebook) -> None:  # type: ignore[no-untyped-def]
    nb: LabNotebook = open_notebook("crooks-game.ipynb", [CELL])
    nb.run_all()  # the one cell; from here on only clicks reach the kernel
    root = nb.output(0).get_by_test_id("langfinger")
    board = root.get_by_test_id("crooks-board")
    expect(board).to_be_visible(timeout=30_000)
    expect(board.get_by_test_id("targets").locator("tbody tr")).to_have_count(3)
    expect(board.get_by_test_id("hangout").or_(board.locator(".lf-hangout"))).to_have_count(7)

    player = CrooksPlayer(root)
    player.play_to_end()

    over = root.get_by_test_id("game-over")
    expect(over).to_be_visible()
    standings = root.get_by_test_id("standings")
    expect(standings.locator("tbody tr")).to_have_count(3)
    for column in ("2", "9", "Northside", "Westside", "the Outfit", "Points"):
        expect(standings.locator("thead")).to_contain_text(column)
    # At the end every crook is face up (C6.1): no backs are left on the board.
    expect(board.locator(".lf-crook-back")).to_have_count(0)
    shoot(root, "crooks-end")
    print(
        f"\n[clicks] whole 3-player Crooks game (seed 11, greedy and random bots, default pace): "
        f"{player.clicks} clicks for {player.decisions} decisions; by step {player.by_step}"
    )
    assert player.asked_why
