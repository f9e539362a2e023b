"""The board in Jupyter Notebook 7 (``jupyter notebook``), not only in JupyterLab.

Notebook 7 is built from JupyterLab's parts but is its own application (its
own shell, pages and widget manager wiring), so the quickstart is opened there
as a reader would: the notebook page, its cells run one after another, the
board drawn by the bundle, and a click on a place that reaches the kernel,
which the bots then answer. The server (``notebook7``, conftest.py) and the
browser are the session's. The Crooks board plays a turn there too, answered by its bots.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
import playwright.sync_api as playwright_api
from playwright.sync_api import expect

from .lab import ARTIFACTS, LabNotebook, LabServer
from .test_crooks_e2e import play_a_turn_then_bots_answer
from .test_goods_e2e import cell as goods_cell
from .test_goods_e2e import play_a_round_then_bots_answer

QUICKSTART = Path(__file__).resolve().parents[2] / "notebooks" / "00_quickstart.ipynb"


def widget_cell(path: Path) -> int:
    """Index (among all cells) of the first code cell that shows the board."""
    cells = nbformat.read(path, as_version=4).cells
    return next(
        i
        for i, c in enumerate(cells)
        if c.cell_type == "code" and "lf.LangfingerWidget(" in c.source
    )


def test_quickstart_in_notebook7(notebook7: LabServer, page: playwright_api.Page) -> None:
    shutil.copy(QUICKSTART, notebook7.root_dir / QUICKSTART.name)
    page.goto(notebook7.notebook_url(QUICKSTART.name))
    nb = LabNotebook(page, QUICKSTART.name)
    nb.wait_ready()
    # Notebook 7's own page, not JupyterLab's.
    assert page.evaluate("window.jupyterapp.name") == "Jupyter Notebook"
    try:
        # The cells up to the board, as a reader runs them (what follows plays on by itself).
        index = widget_cell(QUICKSTART)
        nb.run_through(index)
        root = nb.output(index).get_by_test_id("langfinger")
        expect(root.get_by_test_id("round")).to_have_text("Round 1")
        seat = nb.kernel_json("w.seat")
        nb.wait_until(f"w.game.to_move == {seat}")  # R1.0: bots may start; they play up to us
        before = nb.kernel_json("len(w.game.history)")

        place = root.locator('[data-place][data-legal="true"]').first
        where = place.get_attribute("data-place")
        place.click()
        nb.wait_until(f"len(w.game.history) > {before}")
        assert nb.kernel_json(f"w.game.history[{before}]") == {"type": "place", "place": where}
        assert nb.kernel_json(f"w.game.deciders[{before}]") == seat
        # The bots answer by themselves, and the page shows the kernel's board.
        players = nb.kernel_json("w.game.num_players")
        nb.wait_until(f"len(w.game.history) >= {before + players} and w.error == ''")
        names = nb.kernel_json("[p['name'] for p in w.view['players']]")
        for name in names:
            expect(root.get_by_test_id("log")).to_contain_text(name)
        expect(root.locator(f'[data-area="{where}"] .lf-token').first).to_be_visible()
        nb.screenshot("notebook7-quickstart", root)
    except Exception:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "FAILED-notebook7.png"))
        raise
    finally:
        nb.shutdown_kernel()


CROOKS = (
    "import langfinger_widget as lf\n"
    "w = lf.LangfingerWidget(game='crooks', players=3, seed=4, seat=0,"
    " bots={1: 'easy', 2: 'easy'}, pace=0)\n"
    "w"
)


def test_crooks_in_notebook7(notebook7: LabServer, page: playwright_api.Page) -> None:
    """The Crooks board in Notebook 7: drawn, a turn by clicks, the bots' answers (issue 37)."""
    notebook7.write_notebook("crooks-nb7.ipynb", [CROOKS])
    page.goto(notebook7.notebook_url("crooks-nb7.ipynb"))
    nb = LabNotebook(page, "crooks-nb7.ipynb")
    nb.wait_ready()
    try:
        nb.run_all()
        root = nb.output(0).get_by_test_id("langfinger")
        before = nb.kernel_json("len(w.game.history)")
        play_a_turn_then_bots_answer(root)
        # The kernel played what the board shows: our recruit first, then the bots' turns.
        history = nb.kernel_json(
            "[(s, a['type']) for s, a in zip(w.game.deciders, w.game.history)]"
        )
        ours = [a for s, a in history[before:] if s == 0]
        assert ours[:3] == ["recruit", "keep", "place"], history
        assert {s for s, _ in history[before:]} >= {1, 2}, history
        nb.screenshot("notebook7-crooks", root)
    except Exception:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "FAILED-notebook7-crooks.png"))
        raise
    finally:
        nb.shutdown_kernel()


def test_goods_in_notebook7(notebook7: LabServer, page: playwright_api.Page) -> None:
    """The Oh My Goods! board in Notebook 7: a whole round by clicks against a bot (issue 38)."""
    notebook7.write_notebook("goods-nb7.ipynb", [goods_cell("{1: 'easy'}", 3)])
    page.goto(notebook7.notebook_url("goods-nb7.ipynb"))
    nb = LabNotebook(page, "goods-nb7.ipynb")
    nb.wait_ready()
    try:
        nb.run_all()
        root = nb.output(0).get_by_test_id("langfinger")
        player = play_a_round_then_bots_answer(root)
        # The kernel played what the board shows: seat 0's sealed choices and the bot's.
        history = nb.kernel_json(
            "[(s, a['type']) for s, a in zip(w.game.deciders, w.game.history)]")
        ours = [a for s, a in history if s == 0]
        assert ours[0] in ("keep", "mulligan") and "plan_build" in ours, history
        assert len(ours) == player.decisions and {s for s, _ in history} == {0, 1}, history
        nb.screenshot("notebook7-goods", root)
    except Exception:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "FAILED-notebook7-goods.png"))
        raise
    finally:
        nb.shutdown_kernel()
