"""A whole game, from the first token to the end screen, by clicks alone in a real JupyterLab.

One cell makes the board (a 3-player game, bots at the other two seats, a low
pace); after that no code runs in the kernel: the only messages Python gets are
the board's own, sent by clicks, as for a person playing. The player is
:class:`~tests.e2e.clicker.Clicker`, which reads only the page. The clicks are
counted and printed (issue 28 asks for fewer), with the time from a click to the
bots' first answer on the page.

On the way it takes the pictures of the board: the board at our turn in round 3
(also the README's picture, ``docs/img/board.png``, written when
``LANGFINGER_UPDATE_SCREENSHOTS=1``), the bots' turn being shown, and the end
screen; then it opens the replay of the game from the end screen.
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import time
from pathlib import Path

from playwright.sync_api import Locator, expect

from .clicker import Clicker
from .lab import ARTIFACTS, REPO, LabNotebook

SEED = 7
PACE = 0.1
CELL = (
    "import langfinger_widget as lf\n"
    f"w = lf.LangfingerWidget(players=3, seed={SEED}, seat=0,"
    f" bots={{1: 'medium', 2: 'medium'}}, pace={PACE})\n"
    "w"
)
README_PICTURE = REPO / "docs" / "img" / "board.png"


def shoot(root: Locator, name: str) -> Path:
    """A picture of the whole board: the window is made tall enough for JupyterLab to show
    all of it (else its notebook panel cuts the board off), then put back."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    target = ARTIFACTS / f"{name}.png"
    page = root.page
    size = page.viewport_size or {"width": 1400, "height": 1000}
    box = root.bounding_box() or {"height": 0}
    page.set_viewport_size({"width": size["width"],
                            "height": max(size["height"], int(box["height"]) + 300)})
    try:
        root.scroll_into_view_if_needed()
        root.screenshot(path=str(target), animations="disabled")
    finally:
        page.set_viewport_size(size)
    return target


class Photographer:
    """Takes the board's pictures as the game goes by (once each)."""

    def __init__(self, root: Locator) -> None:
        self.root = root
        self.taken: set[str] = set()

    def __call__(self, player: Clicker) -> None:
        """Before a decision: the board at our first action of round 3, once the bots'
        moves have been shown (the README's picture)."""
        root = self.root
        if "board" in self.taken or root.get_by_test_id("round").inner_text() != "Round 3":
            return
        if root.locator(".lf-phase").inner_text() != "actions":
            return
        if root.get_by_test_id("auto-pass").count():
            return  # a forced pass is about to go: a choice makes the better picture
        self.taken.add("board")
        root.get_by_test_id("caption").wait_for(state="detached", timeout=15_000)
        picture = shoot(root, "board")
        if os.environ.get("LANGFINGER_UPDATE_SCREENSHOTS") == "1":
            README_PICTURE.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(picture, README_PICTURE)

    def bot_turn(self, player: Clicker) -> None:
        """Right after our move in round 2: the bots' answers being shown one by one."""
        if "bot-turn" in self.taken or self.root.get_by_test_id("round").inner_text() != "Round 2":
            return
        # A bot's move in flight: its caption above, its piece on the way (unless our next
        # decision comes first: then after the next one).
        flying = self.root.locator('[data-testid="flights"] .lf-ghost')
        deadline = time.monotonic() + 1.5
        while not (flying.count() and self.root.get_by_test_id("caption").count()):
            if time.monotonic() > deadline or player.my_turn():
                return
            time.sleep(0.02)
        self.taken.add("bot-turn")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        # Mid-flight, as seen: the window stays as it is (resizing would end the flight).
        self.root.screenshot(path=str(ARTIFACTS / "bot-turn.png"))


def test_whole_game_by_clicks_alone(open_notebook) -> None:  # type: ignore[no-untyped-def]
    nb: LabNotebook = open_notebook("whole-game.ipynb", [CELL])
    nb.run_all()  # the one cell; from here on only clicks reach the kernel
    root = nb.output(0).get_by_test_id("langfinger")
    expect(root.get_by_test_id("round")).to_have_text("Round 1")
    camera = Photographer(root)
    player = Clicker(root, before=camera, after=camera.bot_turn)
    player.play_to_end()

    over = root.get_by_test_id("game-over")
    expect(over).to_be_visible()
    rounds = root.get_by_test_id("round").inner_text()
    answers = sorted(player.answers)
    print(
        f"\n[clicks] whole 3-player game (seed {SEED}, 2 medium bots, pace {PACE}s): "
        f"{player.clicks} clicks for {player.decisions} decisions "
        f"({player.auto_passes} passed by the board itself), {rounds}; "
        f"by decision {player.by_kind}"
    )
    if answers:
        print(
            f"[clicks] click -> the bots' first answer on the page: median "
            f"{statistics.median(answers) * 1000:.0f} ms, max {answers[-1] * 1000:.0f} ms "
            f"over {len(answers)} moves (pace {PACE}s)"
        )
    assert {"board", "bot-turn"} <= camera.taken, camera.taken

    # The end screen: what each player did, the loot left unsold, Undo closed (R10.1).
    standings = root.get_by_test_id("standings")
    expect(standings.locator("tbody tr")).to_have_count(3)
    expect(standings.locator("thead")).to_contain_text("Steals")
    expect(standings.locator("td.lf-unsold-cell")).to_have_count(3)
    expect(root.get_by_test_id("undo")).to_be_disabled()
    root.get_by_test_id("caption").wait_for(state="detached", timeout=15_000)
    shoot(root, "end-screen")

    # Replay this game: the board itself replays it, and goes back to its end screen.
    root.get_by_test_id("replay-game").click()
    expect(root.get_by_test_id("replay-slider")).to_be_visible(timeout=30_000)
    expect(root.get_by_test_id("game-over")).to_have_count(0)
    position = root.get_by_test_id("replay-position")
    start = re.compile(r"^\s*0 / \d+\s*$")
    expect(position).to_have_text(start)
    root.get_by_test_id("replay-round-next").click()
    expect(position).not_to_have_text(start, timeout=10_000)
    shoot(root, "replay")
    root.get_by_test_id("replay-leave").click()
    expect(root.get_by_test_id("game-over")).to_be_visible()
    expect(root.get_by_test_id("replay-slider")).to_have_count(0)
