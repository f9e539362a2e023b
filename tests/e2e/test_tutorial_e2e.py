"""The tutorial in a real browser: open notebooks/05_ruin.ipynb in JupyterLab, run all
cells, find the live board (the widget) and the static picture it ends with, then make
the lesson's step on the board by clicking and run the check cell under it.

nbval proves the notebook's Python; this proves what a learner sees: the widget's
bundle loads in JupyterLab and renders the scripted position, Run All leaves that
position to the learner, a move made by clicks reaches the kernel, and the check
cell reads it and says it was right.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import nbformat
import playwright.sync_api as playwright_api
import pytest

from .lab import ARTIFACTS, LabNotebook, LabServer

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"


def _open_lesson(
    name: str, request: pytest.FixtureRequest, lab_server: LabServer, page: playwright_api.Page
) -> Iterator[LabNotebook]:
    """The real lesson notebook ``name`` (markdown and all), copied into the lab and opened."""
    path = f"tutorial/{name}.ipynb"
    target = lab_server.root_dir / path
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(NOTEBOOKS / f"{name}.ipynb", target)
    page.goto(lab_server.notebook_url(path))
    nb = LabNotebook(page, path)
    nb.wait_ready()
    try:
        yield nb
    finally:
        rep = getattr(request.node, "rep_call", None)
        if rep is not None and rep.failed:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"FAILED-tutorial-{name}.png"))
        nb.shutdown_kernel()


@pytest.fixture
def ruin_notebook(
    request: pytest.FixtureRequest, lab_server: LabServer, page: playwright_api.Page
) -> Iterator[LabNotebook]:
    yield from _open_lesson("05_ruin", request, lab_server, page)


@pytest.fixture
def round_end_on_a_phone(
    request: pytest.FixtureRequest, lab_server: LabServer, page: playwright_api.Page
) -> Iterator[LabNotebook]:
    """07_round_and_game_end in a phone's window (390 px wide)."""
    page.set_viewport_size({"width": 390, "height": 844})
    for nb in _open_lesson("07_round_and_game_end", request, lab_server, page):
        # The notebook alone on the phone's width, as a phone shows it (no file browser).
        page.evaluate("() => { const shell = window.jupyterapp.shell; shell.collapseLeft(); "
                      "shell.collapseRight(); }")
        yield nb


@pytest.fixture
def placing_notebook(
    request: pytest.FixtureRequest, lab_server: LabServer, page: playwright_api.Page
) -> Iterator[LabNotebook]:
    yield from _open_lesson("02_placing", request, lab_server, page)


def _widget_cell_index(nb_path: Path) -> int:
    """Index (among all cells) of the first code cell that makes the widget."""
    cells = nbformat.read(nb_path, as_version=4).cells
    return next(i for i, c in enumerate(cells)
                if c.cell_type == "code" and "lf.LangfingerWidget(" in c.source)


def _check_cell(nb_path: Path, nth: int = 0) -> str:
    """The source of the ``nth`` check cell under the board (it reads the learner's move),
    its last line printed, so that running it in the kernel gives the verdict's text."""
    cells = nbformat.read(nb_path, as_version=4).cells
    source = [c.source for c in cells if c.cell_type == "code" and "check(w," in c.source][nth]
    lines = source.rstrip().splitlines()
    call = next(i for i, line in enumerate(lines) if line.startswith("check(w,"))
    return "\n".join([*lines[:call], "print(" + "\n".join(lines[call:]) + ")"])


def test_ruin_tutorial_runs_and_shows_the_board(ruin_notebook: LabNotebook) -> None:
    nb = ruin_notebook
    nb.run_all()  # raises with the tracebacks if any cell failed

    # The widget cell's output holds the live board, drawn by the bundle.
    board = nb.output(_widget_cell_index(NOTEBOOKS / "05_ruin.ipynb")).locator(".lf-board")
    board.wait_for()
    ruin = board.locator('[data-area="ruin"]')
    assert ruin.count() == 1
    assert ruin.locator(".lf-rate").count() == 5  # the five exchange squares

    # Run All left the board to the learner: the scripted position, nothing played on it,
    # and the check cell waits for a move.
    assert nb.kernel_json("w.game.move_number") == 0
    assert nb.kernel_json("w.game.view(0)['decision']") == {
        "seat": 0, "kind": "ruin", "place": "ruin", "square": 0}
    assert ruin.locator('.lf-rate[aria-label*="taken by"]').count() == 0
    check = _check_cell(NOTEBOOKS / "05_ruin.ipynb")
    assert nb.kernel(check).startswith("… Make your move on the board above")

    # The learner's step, by one click: Bobby holds just the three tools 3>4 asks for, so the
    # square leaves one way to pay and the board sends it (issue 28: one click where one
    # choice fits).
    ruin.locator('[data-rate="3>4"]').click()
    nb.wait_until("w.game.move_number == 1", explain="w.error")
    assert ruin.locator('.lf-rate[aria-label*="taken by"]').count() == 1
    verdict = nb.kernel(check)
    assert verdict.startswith("✓ Right: Bobby exchanges a hammer and two maps at the Ruin"), verdict

    # The static picture (Game._repr_html_) is in the page too, without any JavaScript.
    static = nb.page.locator(".jp-OutputArea .langfinger-static-board svg")
    assert static.count() >= 1
    assert static.first.locator('[data-place="ruin"]').count() >= 1

    nb.screenshot("tutorial-05_ruin", board)


def test_a_lesson_survives_a_wrong_move_and_undo(placing_notebook: LabNotebook) -> None:
    """Issue 40: on 02_placing's card-less board, a wrong token and Undo, by clicks alone.

    The board used to run the round out by itself once every token was down (every action
    there is a pass), and Undo took back one of those passes, which the board played again:
    the only way back was to re-run the cell.
    """
    nb = placing_notebook
    nb.run_all()
    lesson = NOTEBOOKS / "02_placing.ipynb"
    board = nb.output(_widget_cell_index(lesson)).locator(".lf-board-root")
    board.wait_for()
    first, whole = _check_cell(lesson, 0), _check_cell(lesson, 1)
    undo = board.locator('[data-testid="undo"]')
    nb.screenshot("tutorial-02_placing", board)

    def place(name: str, moves: int) -> None:
        board.locator(f'[data-place="{name}"][data-legal="true"]').first.click()
        nb.wait_until(f"w.game.move_number == {moves}", explain="w.error")

    # A wrong first token: the check says so, and Undo takes it back.
    place("villa", 1)
    assert nb.kernel(first).startswith("✗ Not quite: Pascal puts a token on the Villa")
    undo.click()
    nb.wait_until("w.game.move_number == 0", explain="w.error")
    place("city", 1)
    assert nb.kernel(first).startswith("✓ Right: Pascal puts a token on the City")

    # Halfway through the rest, the check names what is missing.
    place("museum", 2)
    assert nb.kernel(whole).startswith("… Not every token is down yet"), nb.kernel(whole)

    # The last token on a wrong place: every token is down, and the board holds there.
    place("harbor", 3)
    place("ruin", 4)
    held = board.locator('[data-testid="step-done"]')
    held.wait_for()
    assert "lesson's step is done" in held.inner_text()
    assert board.locator('[data-testid="auto-pass"]').count() == 0
    assert nb.kernel_json("[w.game.move_number, w.game.phase]") == [4, "act"]
    assert nb.kernel(whole).startswith("✗ Not quite")

    # Undo goes back to that token, once, and the lesson's step is open again.
    undo.click()
    nb.wait_until("w.game.move_number == 3", explain="w.error")
    assert nb.kernel_json("w.game.phase") == "place"
    assert held.count() == 0
    place("villa", 4)
    assert nb.kernel(whole).startswith("✓ Right"), nb.kernel(whole)
    assert nb.kernel_json("[w.game.move_number, w.game.round]") == [4, 1]


# Whether two boxes of the page overlap (getBoundingClientRect of each), and where.
_JS_BOXES = """([a, bs]) => { const r = a.getBoundingClientRect();
    return bs.map((b) => { const s = b.getBoundingClientRect();
        return { name: b.textContent.trim(), overlap: r.left < s.right && s.left < r.right
                 && r.top < s.bottom && s.top < r.bottom,
                 banner: [r.top, r.bottom], it: [s.top, s.bottom] }; }); }"""


def test_a_round_banner_on_a_phone_keeps_its_own_space(round_end_on_a_phone: LabNotebook) -> None:
    """Issue 40: at 390 px the round-over banner wraps to several lines; laid over the board,
    it hid the players' names. It now takes its own space above them."""
    nb = round_end_on_a_phone
    lesson = NOTEBOOKS / "07_round_and_game_end.ipynb"
    # As a reader does: down to the board, whose round then ends (the banner stays a while).
    nb.run_through(_widget_cell_index(lesson))
    board = nb.output(_widget_cell_index(lesson)).locator(".lf-board-root")
    board.wait_for()
    assert board.evaluate("(el) => el.getBoundingClientRect().width") <= 390
    # The lesson's step: Pascal's last token can only pass, and the board passes for him
    # (or he clicks Pass first): the round ends, and its banner says what happened.
    passing = board.locator('[data-testid="pass"]')
    if passing.count() and passing.is_enabled():
        passing.click()
    banner = board.locator('[data-testid="round-banner"]')
    banner.wait_for()
    assert "Round 3 is over" in banner.inner_text()
    lines = banner.evaluate("(el) => el.getBoundingClientRect().height / 18")
    assert lines >= 2, "the banner fits one line: this window tests nothing"
    names = board.locator(".lf-player-name").element_handles()
    assert len(names) == 3
    for box in nb.page.evaluate(_JS_BOXES, [banner.element_handle(), names]):
        assert not box["overlap"], f"the banner lies over {box['name']}: {box}"
    nb.screenshot("round-banner-phone", board)
