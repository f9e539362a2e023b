"""Reloading the browser tab in JupyterLab: the board comes back from the kernel, and play goes on.

The page keeps nothing: after a reload the widget manager asks the kernel for
every live widget model, and the saved notebook's output says which one the
cell shows. So the same position must be on the board again (the kernel's
view, the log, whose turn it is), and a click must still reach the same game.
"""

from __future__ import annotations

from playwright.sync_api import Locator, expect

from .lab import LabNotebook

CELL = (
    "import langfinger_widget as lf\n"
    "w = lf.LangfingerWidget(players=3, seed=21, seat=0, bots={1: 'medium', 2: 'easy'}, pace=0)\n"
    "w"
)


def place_and_wait(nb: LabNotebook, root: Locator) -> str:
    """Click the first legal place; wait until the bots have answered and it is seat 0's turn."""
    before = nb.kernel_json("len(w.game.history)")
    place = root.locator('[data-place][data-legal="true"]').first
    where = str(place.get_attribute("data-place"))
    place.click()
    nb.wait_until(f"len(w.game.history) >= {before + 3} and w.game.to_move == 0")
    assert nb.kernel_json(f"w.game.history[{before}]") == {"type": "place", "place": where}
    return where


def board_text(root: Locator) -> dict[str, str]:
    return {
        "round": root.get_by_test_id("round").inner_text(),
        "log": root.get_by_test_id("log").inner_text(),
        "places": root.locator(".lf-places").inner_text(),
        "players": root.locator(".lf-players").inner_text(),
    }


def test_reload_shows_the_same_position_and_play_goes_on(open_notebook) -> None:  # type: ignore[no-untyped-def]
    nb: LabNotebook = open_notebook("reload.ipynb", [CELL])
    nb.run_all()
    root = nb.output(0).get_by_test_id("langfinger")
    nb.wait_until("w.game.to_move == 0")
    place_and_wait(nb, root)
    version = nb.kernel_json("w.version")
    expect(root.get_by_test_id("log")).to_contain_text("places a token", timeout=10_000)
    before = board_text(root)
    tokens = root.locator(".lf-places .lf-token").count()
    nb.save()  # the cell's output names the widget model the page asks the kernel for

    nb.page.reload()
    nb.wait_ready()
    root = nb.output(0).get_by_test_id("langfinger")
    expect(root.get_by_test_id("round")).to_have_text(before["round"], timeout=30_000)
    expect(root.locator(".lf-places .lf-token")).to_have_count(tokens)
    assert board_text(root) == before  # the same position, log and players
    assert nb.kernel_json("w.version") == version  # the same game: the kernel did not restart
    expect(root.locator(".lf-your-turn")).to_be_visible()

    # Play goes on from the reloaded page, and the bots answer it.
    place_and_wait(nb, root)
    expect(root.locator(".lf-places .lf-token")).to_have_count(tokens + 3)
    assert nb.kernel_json("w.error") == ""
    nb.screenshot("reloaded", root)
