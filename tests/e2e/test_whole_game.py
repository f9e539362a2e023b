"""A whole game, from the first token to the end screen, by clicks alone in a real JupyterLab.

One cell makes the board (a 3-player game, bots at the other two seats, a low
pace); after that no code runs in the kernel: the only messages Python gets are
the board's own, sent by clicks, as for a person playing. The player is
:class:`~tests.e2e.clicker.Clicker`, which reads only the page. The clicks are
counted and printed (issue 28 asks for fewer), with the time from a click to the
bots' first answer on the page.
"""

from __future__ import annotations

import statistics

from playwright.sync_api import expect

from .clicker import Clicker
from .lab import LabNotebook

SEED = 7
PACE = 0.1
CELL = (
    "import langfinger_widget as lf\n"
    f"w = lf.LangfingerWidget(players=3, seed={SEED}, seat=0,"
    f" bots={{1: 'medium', 2: 'medium'}}, pace={PACE})\n"
    "w"
)


def test_whole_game_by_clicks_alone(open_notebook) -> None:  # type: ignore[no-untyped-def]
    nb: LabNotebook = open_notebook("whole-game.ipynb", [CELL])
    nb.run_all()  # the one cell; from here on only clicks reach the kernel
    root = nb.output(0).get_by_test_id("langfinger")
    expect(root.get_by_test_id("round")).to_have_text("Round 1")
    player = Clicker(root)
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
    nb.screenshot("end-screen", root)
