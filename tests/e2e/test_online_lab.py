"""A JupyterLab board plays a web-board client through a game server (issue 32).

The test starts ``python -m langfinger_widget.server`` and creates a 2-player table. Seat 0
is joined from a notebook in a real JupyterLab (``lf.online.join(invite)``: the usual board
widget, its socket read on a background thread of the kernel and handed to the kernel's
loop); seat 1 opens its invite in the server's web page, in another browser context. They
play the first moves of the game by clicking their own boards: each board shows the other's
moves as they arrive, and each shows only its own hand.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import httpx
import playwright.sync_api as playwright_api
import pytest
from playwright.sync_api import Locator, Page, expect

from .apps import GameServer
from .lab import ARTIFACTS, LabNotebook
from .test_board import compose_action, pick
from .test_online_board import model

pytest.importorskip("starlette", reason="the game server needs the [server] extra")
MOVES = 10  # the placing of round 1 and its first actions: a solid part, kept short for CI


def click_move(root: Locator, view: dict, legal: list[dict], rng: random.Random) -> None:  # type: ignore[type-arg]
    action = rng.choice(legal) if view["phase"] == "place" else pick(legal)
    send = compose_action(root, view["decision"]["place"] or "", action)
    if send is not None:
        send.click()


def test_a_jupyterlab_board_plays_a_web_board_through_the_server(
        open_notebook: Callable[[str, list[str]], LabNotebook],
        browser: playwright_api.Browser, game_server: GameServer) -> None:
    made = httpx.post(f"{game_server.base}/api/tables", json={"players": 2, "pace": 0},
                      timeout=10).json()
    nb = open_notebook("online_lab.ipynb", [
        "import langfinger_widget as lf\n"
        f"w = lf.online.join({made['invites']['0']!r})\n"
        "w",
    ])
    nb.run_all()
    lab = nb.page.locator(".jp-OutputArea").get_by_test_id("langfinger").first
    expect(lab).to_be_visible()
    web_context = browser.new_context(viewport={"width": 1200, "height": 1000})
    try:
        web: Page = web_context.new_page()
        web.goto(made["invites"]["1"])
        expect(web.get_by_test_id("online-status")).to_have_attribute("data-state", "online")
        nb.wait_until("w.table.table.get('status') == 'playing' and bool(w.view)",
                      explain="w.error")
        rng = random.Random(4)
        for _ in range(MOVES):
            view = nb.kernel_json("w.view")
            number = view.get("move_number", nb.kernel_json("w.move_number"))
            if view["to_move"] == 0:
                nb.wait_until("len(w.legal) > 0")
                click_move(lab, view, nb.kernel_json("w.legal"), rng)
            else:
                web.wait_for_function("() => window.langfingerOnline.get('legal').length > 0")
                click_move(web.get_by_test_id("langfinger"), view,
                           model(web, "m.get('legal')"), rng)
            # Both boards follow: the kernel's traits and the page drawn from them.
            nb.wait_until(f"w.move_number > {number}", explain="w.error")
            web.wait_for_function(
                f"() => window.langfingerOnline.get('move_number') > {number}")
            expect(lab).to_have_attribute("data-move", str(nb.kernel_json("w.move_number")))
        # The other's move is highlighted on arrival; only one's own hand is shown.
        lab_view = nb.kernel_json("w.view")
        assert lab_view["players"][0]["hand"] is not None
        assert lab_view["players"][1]["hand"] is None
        expect(lab.locator('article[data-seat="1"] .lf-toolcounts')).to_have_count(0)
        web_view = model(web, "m.get('view')")
        assert web_view["players"][0]["hand"] is None
        assert nb.kernel_json("w.table.connection") == "online" and not nb.kernel_json("w.error")
        assert nb.kernel_json("w.move_number") == model(web, "m.get('move_number')") >= MOVES
        nb.screenshot("online-lab", lab)
        web.screenshot(path=str(ARTIFACTS / "online-lab-web.png"))
        # The kernel's picture changed on its own loop's thread: the board still answers.
        assert nb.kernel_json("w.table.scheduler.on_owner_thread()")
    finally:
        web_context.close()
        nb.kernel("w.close()")


def test_play_online_from_the_new_game_panel(
        open_notebook: Callable[[str, list[str]], LabNotebook],
        browser: playwright_api.Browser) -> None:
    """A local board's New game panel: "Play online" starts a server in the kernel's machine,
    moves the board to a new table there and shows the invite; a browser opens it."""
    nb = open_notebook("play_online.ipynb", [
        "import langfinger_widget as lf\n"
        "w = lf.LangfingerWidget(players=2, seat=0)\n"
        "w",
    ])
    nb.run_all()
    lab = nb.page.locator(".jp-OutputArea").get_by_test_id("langfinger").first
    lab.get_by_test_id("new-game").click()
    lab.get_by_test_id("ng-player-1").select_option("human")
    lab.get_by_test_id("ng-online").click()
    bar = lab.get_by_test_id("online-bar")
    expect(bar).to_be_visible(timeout=90_000)  # a server is started first (a second or two)
    # The invite's secret stays out of the saved widget state until Show asks the kernel.
    field = lab.get_by_test_id("online-invite-1")
    assert field.input_value().endswith("#…")
    lab.get_by_test_id("online-invite-1-show").click()
    expect(field).not_to_have_value(re.compile("#…$"))
    invite = field.input_value()
    assert "/join/" in invite and nb.kernel_json("type(w.table).__name__") == "OnlineSeat"
    web_context = browser.new_context()
    try:
        web = web_context.new_page()
        web.goto(invite)
        expect(web.get_by_test_id("online-status")).to_have_attribute("data-state", "online")
        expect(bar).to_contain_text("online")
        expect(bar).not_to_contain_text("waiting for everyone")
        nb.wait_until("w.online['status'] == 'playing'", explain="w.error")
    finally:
        web_context.close()
        nb.kernel("w.close(); lf.online.local_server().stop()")
