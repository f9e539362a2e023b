"""Bots and hints in a real JupyterLab: they run on the kernel's event loop, not in threads.

A person clicks a place; the bots answer by themselves (the page shows their
moves in the log, the kernel's history has them); the Hint button's search
arrives as a message while the kernel stays free to answer. No thread is
started for any of it.
"""

from __future__ import annotations

from playwright.sync_api import expect

from .lab import LabNotebook

CELL = (
    "import threading, langfinger_widget as lf\n"
    "w = lf.LangfingerWidget(players=3, seed=11, seat=0, bots={1: 'hard', 2: 'medium'},"
    " pace=0.2)\n"
    "w"
)


def test_bots_answer_a_click_on_the_event_loop(open_notebook) -> None:  # type: ignore[no-untyped-def]
    nb: LabNotebook = open_notebook("bots.ipynb", [CELL])
    nb.run_all()
    root = nb.output(0).get_by_test_id("langfinger")
    # R1.0: the bots may start; they play up to us
    nb.wait_until("w.game.to_move == 0", explain="w.error")
    threads = nb.kernel_json("threading.active_count()")
    before = nb.kernel_json("len(w.game.history)")
    root.locator('[data-place="villa"][data-legal="true"]').click()
    nb.wait_until(f"len(w.game.history) >= {before + 3} and w.game.to_move == 0",
                  explain="w.error")
    deciders = nb.kernel_json("w.game.deciders")
    assert deciders[before:before + 3] == [0, 1, 2]
    # The log on the page names the bots' placements too, newest first.
    names = nb.kernel_json("[p['name'] for p in w.view['players']]")
    log = root.get_by_test_id("log")
    expect(log).to_contain_text(names[1])
    expect(log).to_contain_text(names[2])
    assert nb.kernel_json("threading.active_count()") == threads  # no thread was started

    root.get_by_test_id("hint").click()
    # the search runs in slices on the loop
    nb.wait_until("bool(w.hint)", timeout=90, explain="w.error")
    expect(root.get_by_test_id("hint-text")).to_contain_text("estimated win chance",
                                                             timeout=30_000)
    hint = nb.kernel_json("w.hint")
    assert hint["seat"] == 0 and hint["version"] == nb.kernel_json("w.version")
    assert hint["action"] in nb.kernel_json("w.legal")
    nb.screenshot("bots-and-hint", root)
