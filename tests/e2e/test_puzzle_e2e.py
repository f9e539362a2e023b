"""A puzzle played in a real JupyterLab: the board's panel says "Solved!" and gives hints.

The notebook shows puzzle 1 of the book with ``PUZZLES[0].widget()``. The test
clicks the puzzle's solution on the board (the moves are read from the
kernel's ``puzzle.solution``: the test plays a reader who knows the answer),
then reads the verdict from the page, asks for a hint by clicking, and starts
again with "Try again".
"""

from __future__ import annotations

from playwright.sync_api import expect

from .lab import LabNotebook
from .test_board import board, play_by_clicks, same_move, wait_for_move

CELL = "import langfinger_widget as lf\npuzzle = lf.puzzles.PUZZLES[0]\nw = puzzle.widget()\nw"


def test_puzzle_one_solved_by_clicking_then_a_hint(open_notebook) -> None:  # type: ignore[no-untyped-def]
    nb: LabNotebook = open_notebook("puzzle.ipynb", [CELL])
    nb.run_all()
    root = board(nb)
    name, goal, rule, hints = nb.kernel_json(
        "[puzzle.name, str(puzzle.goal), puzzle.rule, list(puzzle.hints)]"
    )
    panel = root.get_by_test_id("puzzle")
    expect(panel.get_by_test_id("puzzle-name")).to_contain_text(name)
    expect(panel.get_by_test_id("puzzle-goal")).to_contain_text(goal)
    expect(panel.get_by_test_id("puzzle-rule")).to_have_text(rule)
    status = root.get_by_test_id("puzzle-status")
    expect(status).to_contain_text("Not yet")
    # A puzzle's hints are its own: the search hint and New game are not offered.
    expect(root.get_by_test_id("hint")).to_have_count(0)
    expect(root.get_by_test_id("new-game")).to_have_count(0)

    solution = nb.kernel_json("list(puzzle.solution)")
    for action in solution:
        number = nb.kernel_json("w.move_number")
        place = nb.kernel_json("w.view['decision']['place']")
        play_by_clicks(root, place, action)
        wait_for_move(nb, number + 1)
        last = nb.kernel_json("w.puzzle_session.moves[-1]")
        assert same_move(last, action), f"clicked for {action}, the kernel played {last}"

    expect(status).to_contain_text("Solved!")
    assert nb.kernel_json("w.puzzle['solved']") is True
    expect(root.get_by_test_id("error")).to_have_count(0)
    nb.screenshot("puzzle-solved", root)

    # Hints come one at a time, in order.
    root.get_by_test_id("puzzle-hint").click()
    expect(root.get_by_test_id("puzzle-hints")).to_contain_text(hints[0])
    expect(root.locator('[data-testid="puzzle-hints"] li')).to_have_count(1)
    root.get_by_test_id("puzzle-hint").click()
    expect(root.locator('[data-testid="puzzle-hints"] li')).to_have_count(2)
    expect(root.locator('[data-testid="puzzle-hints"] li').nth(1)).to_have_text(hints[1])
    expect(root.get_by_test_id("puzzle-hint")).to_be_disabled()  # puzzle 1 has two hints

    # Try again: back to the puzzle's position, the hints still shown.
    root.get_by_test_id("puzzle-reset").click()
    expect(status).to_contain_text("Not yet")
    assert nb.kernel_json("[w.move_number, w.puzzle['solved']]") == [0, False]
    expect(root.locator('[data-testid="puzzle-hints"] li')).to_have_count(2)
    nb.screenshot("puzzle-hints", root)
