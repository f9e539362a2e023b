"""The puzzle trainer in a real JupyterLab: solve by clicking, the rating moves, Next puzzle.

The trainer serves the first two composed puzzles (``path=None``: nothing written to the
home folder). The test clicks the served puzzle's solution on its board, reads the rating's
rise from the page, then asks for the next puzzle and sees a fresh board.
"""

from __future__ import annotations

from playwright.sync_api import expect

from .lab import LabNotebook
from .test_board import board, play_by_clicks, wait_for_move

CELL = ("import langfinger_widget as lf\n"
        "t = lf.PuzzleTrainer(lf.puzzles.PUZZLES[:2], path=None, seed=1)\n"
        "w = t.board\n"
        "t")


def test_the_trainer_rates_a_solve_made_by_clicking(open_notebook) -> None:  # type: ignore[no-untyped-def]
    nb: LabNotebook = open_notebook("trainer.ipynb", [CELL])
    nb.run_all()
    summary = nb.output(0).locator(".lf-trainer-summary")
    expect(summary).to_contain_text("Your rating 1500")
    root = board(nb)
    expect(root.get_by_test_id("puzzle-status")).to_contain_text("Not yet")
    for number, action in enumerate(nb.kernel_json("list(t.puzzle.solution)")):
        play_by_clicks(root, nb.kernel_json("w.view['decision']['place']"), action)
        wait_for_move(nb, number + 1)
    expect(root.get_by_test_id("puzzle-status")).to_contain_text("Solved!")
    expect(summary).to_contain_text("streak 1")
    expect(summary).to_contain_text("Solved: +")
    assert nb.kernel_json("t.coach.reader.rating") > 1500
    expect(nb.output(0).locator("svg.lf-trainer-history polyline")).to_have_count(1)

    first = nb.kernel_json("t.puzzle.name")
    nb.output(0).get_by_role("button", name="Next puzzle").click()
    nb.wait_until(f"t.puzzle.name != {first!r}", explain="t.puzzle.name")
    expect(board(nb).get_by_test_id("puzzle-name")).to_contain_text(
        nb.kernel_json("t.puzzle.name"))
    nb.screenshot("trainer-next", nb.output(0))
