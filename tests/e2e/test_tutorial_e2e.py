"""The tutorial in a real browser: open notebooks/05_ruin.ipynb in JupyterLab, run all
cells, and find the live board (the widget) and the static picture it ends with.

nbval proves the notebook's Python; this proves what a reader sees: the widget's
bundle loads in JupyterLab, renders the scripted position, and follows the moves
the notebook plays from Python.
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


@pytest.fixture
def ruin_notebook(
    request: pytest.FixtureRequest, lab_server: LabServer, page: playwright_api.Page
) -> Iterator[LabNotebook]:
    """The real 05_ruin notebook (markdown and all), copied into the lab and opened."""
    path = "tutorial/05_ruin.ipynb"
    target = lab_server.root_dir / path
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(NOTEBOOKS / "05_ruin.ipynb", target)
    page.goto(lab_server.notebook_url(path))
    nb = LabNotebook(page, path)
    nb.wait_ready()
    try:
        yield nb
    finally:
        rep = getattr(request.node, "rep_call", None)
        if rep is not None and rep.failed:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "FAILED-tutorial-05_ruin.png"))
        nb.shutdown_kernel()


def _widget_cell_index(nb_path: Path) -> int:
    """Index (among all cells) of the first code cell that makes the widget."""
    cells = nbformat.read(nb_path, as_version=4).cells
    return next(i for i, c in enumerate(cells)
                if c.cell_type == "code" and "lf.LangfingerWidget(" in c.source)


def test_ruin_tutorial_runs_and_shows_the_board(ruin_notebook: LabNotebook) -> None:
    nb = ruin_notebook
    nb.run_all()  # raises with the tracebacks if any cell failed

    # The widget cell's output holds the live board, drawn by the bundle.
    board = nb.output(_widget_cell_index(NOTEBOOKS / "05_ruin.ipynb")).locator(".lf-board")
    board.wait_for()
    ruin = board.locator('[data-area="ruin"]')
    assert ruin.count() == 1
    assert ruin.locator(".lf-rate").count() == 5  # the five exchange squares

    # The notebook played three exchanges from Python; the board followed: the Ruin is
    # done, its squares are open again, and Bobby's Museum token is the one acting now.
    assert nb.kernel_json("w.game.view(0)['decision']") == {
        "seat": 0, "kind": "museum", "place": "museum", "square": 0}
    board.locator('[data-area="museum"].lf-resolving').wait_for()
    assert ruin.locator('.lf-rate[aria-label*="taken by"]').count() == 0

    # The static picture (Game._repr_html_) is in the page too, without any JavaScript.
    static = nb.page.locator(".jp-OutputArea .langfinger-static-board svg")
    assert static.count() >= 1
    assert static.first.locator('[data-place="ruin"]').count() >= 1

    nb.screenshot("tutorial-05_ruin", board)
