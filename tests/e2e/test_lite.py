"""The JupyterLite site in a real browser: the notebooks run in Pyodide with no server at all.

The site is built once per session (``./scripts/lite build``, reused when its stamp is this
checkout's), served by a static file server on localhost, and opened in headless Chromium
whose every request to anything but localhost is aborted and recorded: the site must work
with no network, and the tests assert that it never even tried.

In the quickstart a click on a legal place is answered by a bot, on the board and in the
log, and the Hint button's search answers too; the tutorial notebooks 01-08 run in the same
Pyodide kernel; in 09_puzzles a puzzle is solved by clicking its solution on the board, as
tests/e2e/test_puzzle_e2e.py does in JupyterLab. The Crooks board, drawn by a cell added to
the quickstart (the same Pyodide kernel), plays a turn by clicks and its bots answer.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from .lab import REPO, LabNotebook
from .lite import OfflineGuard, build_site, served, site_lock
from .test_board import play_by_clicks, same_move, wait_for_move
from .test_crooks_e2e import play_a_turn_then_bots_answer
from .test_goods_e2e import play_a_round_then_bots_answer

pytestmark = pytest.mark.lite

KERNEL_READY_MS = 240_000  # a cold Pyodide start, on a busy 2-core machine
RUN_ALL_MS = 300_000
# One Pyodide kernel at a time (the machine has two cores): the others are shut down first.
_JS_OPEN_NEXT = """async (path) => {
    const app = window.jupyterapp;
    await app.serviceManager.sessions.shutdownAll();
    await app.commands.execute('docmanager:open', { path });
}"""
# Langfinger's tutorial (01-08) and the lessons of Crooks (13-15) and Oh My Goods! (16-18).
TUTORIAL = [f"{n:02d}" for n in (*range(1, 9), *range(13, 19))]


@pytest.fixture(scope="module")
def site_url() -> Iterator[str]:
    took = build_site()
    print(f"[lite] ./scripts/lite build took {took:.1f}s")
    with served() as url:
        yield url


@pytest.fixture(scope="module")
def site_page(browser: Browser, site_url: str) -> Iterator[tuple[Page, OfflineGuard]]:
    """One page for the module's tests (each Pyodide start costs seconds), offline but for
    localhost."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(60_000)
    guard = OfflineGuard()
    guard.install(context)
    page = context.new_page()
    try:
        yield page, guard
    finally:
        context.close()


def open_in_site(page: Page, url: str, path: str) -> LabNotebook:
    """Open a notebook of the site: by its link the first time, then in the loaded app."""
    if page.url.startswith(url):
        page.evaluate(_JS_OPEN_NEXT, path)
    else:
        page.goto(f"{url}/lab/index.html?path={path}")
    nb = LabNotebook(page, path)
    nb.wait_ready(timeout_ms=KERNEL_READY_MS)
    return nb


def wait_for_kernel(nb: LabNotebook, condition: str, timeout: float = 120.0) -> None:
    """Poll a Python condition in the notebook's kernel (bots move on its event loop)."""
    deadline = time.monotonic() + timeout
    while not nb.kernel_json(f"bool({condition})"):
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout}s: {condition}")
        time.sleep(0.2)


def only_board(page: Page, name: str | None = None) -> Locator:
    boards = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) [data-testid='langfinger']")
    if name is not None:
        boards = boards.filter(has=page.get_by_test_id("puzzle-name").filter(has_text=name))
    expect(boards).to_have_count(1)
    return boards.first


@pytest.fixture(scope="module")
def quickstart(site_page: tuple[Page, OfflineGuard], site_url: str) -> LabNotebook:
    page, _ = site_page
    nb = open_in_site(page, site_url, "00_quickstart.ipynb")
    nb.run_all(timeout_ms=RUN_ALL_MS)
    return nb


def test_the_site_serves_every_wheel_it_preloads(site_url: str) -> None:  # built first
    lock: dict[str, Any] = site_lock()
    packages = lock["packages"]
    config = json.loads((REPO / "_site" / "jupyter-lite.json").read_text())["jupyter-config-data"]
    kernel = config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    assert kernel["disablePyPIFallback"] is True
    assert "langfinger-widget" in kernel["loadPyodideOptions"]["packages"]
    assert set(kernel["loadPyodideOptions"]["packages"]) <= set(packages)
    for entry in packages.values():
        wheel = REPO / "_site" / "static" / "pyodide" / entry["file_name"]
        assert wheel.is_file(), f"the lock names {entry['file_name']}, the site lacks it"
        assert entry["file_name"].endswith("-none-any.whl"), "only pure-Python wheels"
    assert "anywidget" in packages["langfinger-widget"]["depends"]
    notebooks = sorted(p.name for p in (REPO / "notebooks").glob("*.ipynb"))
    listed = json.loads((REPO / "_site" / "api" / "contents" / "all.json").read_text())
    assert sorted(c["name"] for c in listed["content"] if c["type"] == "notebook") == notebooks


def test_quickstart_a_bot_answers_a_click(
    quickstart: LabNotebook, site_page: tuple[Page, OfflineGuard]
) -> None:
    page, guard = site_page
    nb = quickstart
    # The package came preloaded (no %pip cell), and this kernel really is Pyodide.
    assert nb.kernel_json("__import__('langfinger_widget').runtime.in_pyodide()")
    root = only_board(page)
    # Run All leaves the reader's game waiting for them (the bots may move first).
    wait_for_kernel(nb, "w.game.to_move == w.seat and w.game.phase == 'place'")
    state = nb.kernel_json(
        "{'seat': w.seat, 'bots': w.bots, 'move': w.move_number,"
        " 'legal': [a for a in w.legal if a['type'] == 'place']}"
    )
    assert state["legal"], f"no placement offered to the reader: {state}"
    log = root.locator("[data-testid='log'] li")
    logged = log.count()
    action = state["legal"][0]
    play_by_clicks(root, action["place"], action)
    wait_for_move(nb, state["move"] + 2, timeout=120)  # our placement, then a bot's

    events = nb.kernel_json(f"w.game.log(w.seat)[{logged}:]")
    mine = next(e for e in events if e["type"] == "place")
    assert (mine["seat"], mine["place"]) == (state["seat"], action["place"])
    bot = next(e for e in events if e["type"] == "place" and str(e["seat"]) in state["bots"])
    name = nb.kernel_json(f"w.view['players'][{bot['seat']}]['name']")
    # On the board: the bot's token on its square; in the log: the bot's sentence.
    square = root.locator(f"[data-area='{bot['place']}'] [data-square='{bot['square']}']")
    expect(square.locator(".lf-square-no")).to_have_count(0)
    sentence = f"{name} places a token at the {bot['place'].capitalize()}"  # js/format.ts
    expect(log.filter(has_text=sentence)).not_to_have_count(0)
    expect(root.get_by_test_id("error")).to_have_count(0)

    # The Hint button's search runs on Pyodide's event loop too, and its answer reaches the page.
    wait_for_kernel(nb, "w.game.to_move == w.seat")
    root.get_by_test_id("hint").click()
    expect(root.get_by_test_id("hint-text")).to_contain_text(
        "estimated win chance", timeout=120_000
    )
    hint = nb.kernel_json("w.hint")
    assert hint["seat"] == state["seat"] and hint["action"] in nb.kernel_json("w.legal")
    nb.screenshot("lite-quickstart", root)
    assert guard.outside == [], f"the site asked the network for {guard.outside}"


def test_tutorial_notebooks_run_in_pyodide(
    quickstart: LabNotebook, site_page: tuple[Page, OfflineGuard]
) -> None:
    """The tutorial and lesson notebooks, cell by cell, in the quickstart's Pyodide kernel (one
    start, not fourteen)."""
    _, guard = site_page
    for prefix in TUTORIAL:
        (path,) = sorted((REPO / "notebooks").glob(f"{prefix}_*.ipynb"))
        cells = [
            "".join(c["source"])
            for c in json.loads(path.read_text())["cells"]
            if c["cell_type"] == "code"
        ]
        for i, source in enumerate(cells):
            try:
                quickstart.kernel(source, timeout_ms=120_000)
            except AssertionError as exc:
                raise AssertionError(
                    f"{path.name}, code cell {i} failed in Pyodide: {exc}"
                ) from exc
    assert guard.outside == [], f"the site asked the network for {guard.outside}"


# A cell appended to an open notebook and run there: the quickstart's Pyodide kernel draws a
# second board without a second kernel start.
_JS_APPEND_AND_RUN = """async ([path, code]) => {
    const app = window.jupyterapp;
    const panel = Array.from(app.shell.widgets('main'))
        .find(w => w.context && w.context.path === path && w.sessionContext);
    app.shell.activateById(panel.id);
    const notebook = panel.content;
    const at = notebook.model.cells.length;
    notebook.model.sharedModel.insertCell(at, { cell_type: 'code', source: code });
    notebook.activeCellIndex = at;
    await app.commands.execute('notebook:run-cell');
    return at;
}"""

_JS_DELETE_CELL = """([path, at]) => {
    const panel = Array.from(window.jupyterapp.shell.widgets('main'))
        .find(w => w.context && w.context.path === path && w.sessionContext);
    panel.content.model.sharedModel.deleteCell(at);
}"""

CROOKS = (
    "w_crooks = lf.LangfingerWidget(game='crooks', players=3, seed=4, seat=0,"
    " bots={1: 'easy', 2: 'easy'}, pace=0)\n"
    "w_crooks"
)


def test_crooks_board_in_pyodide(
    quickstart: LabNotebook, site_page: tuple[Page, OfflineGuard]
) -> None:
    """The Crooks board in the lite site (issue 37): drawn by the quickstart's Pyodide kernel,
    a turn by clicks, and the bots answer on Pyodide's event loop."""
    page, guard = site_page
    at = page.evaluate(_JS_APPEND_AND_RUN, [quickstart.path, CROOKS])
    try:
        root = quickstart.output(at).get_by_test_id("langfinger")
        before = quickstart.kernel_json("len(w_crooks.game.history)")
        play_a_turn_then_bots_answer(root)
        history = quickstart.kernel_json(
            "[(s, a['type']) for s, a in zip(w_crooks.game.deciders, w_crooks.game.history)]"
        )
        assert [a for s, a in history[before:] if s == 0][:3] == ["recruit", "keep", "place"]
        assert {s for s, _ in history[before:]} >= {1, 2}, history
        quickstart.screenshot("lite-crooks", root)
    finally:
        # The module's other tests find the quickstart's one board: this one leaves.
        quickstart.kernel("w_crooks.close()")
        page.evaluate(_JS_DELETE_CELL, [quickstart.path, at])
    assert guard.outside == [], f"the site asked the network for {guard.outside}"


GOODS = (
    "w_goods = lf.LangfingerWidget(game='goods', players=2, seed=3, seat=0,"
    " bots={1: 'easy'}, pace=0)\n"
    "w_goods"
)


def test_goods_board_in_pyodide(
    quickstart: LabNotebook, site_page: tuple[Page, OfflineGuard]
) -> None:
    """The Oh My Goods! board in the lite site (issue 38): a whole round by clicks against a
    bot on Pyodide's event loop, the kernel's history read back."""
    page, guard = site_page
    at = page.evaluate(_JS_APPEND_AND_RUN, [quickstart.path, GOODS])
    try:
        root = quickstart.output(at).get_by_test_id("langfinger")
        player = play_a_round_then_bots_answer(root)
        history = quickstart.kernel_json(
            "[(s, a['type']) for s, a in zip(w_goods.game.deciders, w_goods.game.history)]"
        )
        ours = [a for s, a in history if s == 0]
        assert len(ours) == player.decisions and "plan_build" in ours, history
        assert {s for s, _ in history} == {0, 1}, history
        quickstart.screenshot("lite-goods", root)
    finally:
        quickstart.kernel("w_goods.close()")
        page.evaluate(_JS_DELETE_CELL, [quickstart.path, at])
    assert guard.outside == [], f"the site asked the network for {guard.outside}"


def test_puzzle_solved_by_clicking(site_page: tuple[Page, OfflineGuard], site_url: str) -> None:
    page, guard = site_page
    nb = open_in_site(page, site_url, "09_puzzles.ipynb")
    nb.run_all(timeout_ms=RUN_ALL_MS)  # the whole notebook runs unchanged; no answer shown
    nb.kernel("w = p1")  # the first puzzle's board (the helpers below read `w`)
    name = nb.kernel_json("w.puzzle['name']")
    root = only_board(page, name)
    status = root.get_by_test_id("puzzle-status")
    expect(status).to_contain_text("Not yet")
    for action in nb.kernel_json("list(book[w.puzzle['name']].solution)"):
        number = nb.kernel_json("w.move_number")
        place = nb.kernel_json("w.view['decision']['place']")
        play_by_clicks(root, place, action)
        wait_for_move(nb, number + 1, timeout=60)
        last = nb.kernel_json("w.puzzle_session.moves[-1]")
        assert same_move(last, action), f"clicked for {action}, the kernel played {last}"
    expect(status).to_contain_text("Solved!")
    assert nb.kernel_json("w.puzzle['solved']") is True
    # The verdict cell under the board reads it: solved, with the moves in words.
    assert nb.kernel("print(lf.lessons.puzzle_verdict(w))").startswith("✓ Solved! ")
    nb.screenshot("lite-puzzle-solved", root)
    nb.shutdown_kernel()
    assert guard.outside == [], f"the site asked the network for {guard.outside}"

