"""``lf.online.join(link)`` in Notebook 7, Voilà and marimo (issue 32), in real Chromium.

For each front end the test starts a game server (``game_server``, conftest.py) and
creates a 2-player table with a person at seat 0 and an easy bot at seat 1. The front end
shows ``lf.online.join(link)`` for seat 0; one token is placed by a click on that board.
The server's record, read with seat 0's token (a spectator sees it only once the game is
over), must hold that move, and the board must draw seat 1 without its hand. Notebook 7
joins by the invite and the test reads the seat token from the kernel; Voilà and marimo
show no code and no kernel to ask, so there the test takes seat 0 itself when it creates
the table (``"join": 0``) and the page joins by that seat's own ``/play/`` link.

Notebook 7 reuses the session's server (``notebook7`` in conftest.py). Voilà and marimo
serve one fixed notebook each, the app's, so each gets a small server of its own here,
serving a notebook that joins the table.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from typing import Any

import httpx
import playwright.sync_api as playwright_api
import pytest
from playwright.sync_api import Locator, expect

from .apps import AppServer, GameServer, start_marimo, start_voila
from .lab import ARTIFACTS, LabNotebook, LabServer

pytest.importorskip("starlette", reason="the game server needs the [server] extra")


def new_table(game_server: GameServer, **extra: Any) -> dict[str, Any]:
    """A new table: a person at seat 0, an easy bot at seat 1, no pause between moves."""
    made: dict[str, Any] = httpx.post(f"{game_server.base}/api/tables", timeout=10, json={
        "players": 2, "pace": 0,
        "seats": [{"kind": "person"}, {"kind": "bot", "level": "easy"}], **extra,
    }).json()
    return made


def join_source(link: str) -> str:
    return f"import langfinger_widget as lf\nw = lf.online.join({link!r})\n"


def click_a_place(root: Locator, game_server: GameServer, table: str, token: Callable[[], str],
                  name: str) -> None:
    """Place a token by a click on seat 0's board; the server's record must hold it, and the
    board must show seat 1 without its hand."""
    expect(root.locator(".lf-your-turn")).to_be_visible(timeout=60_000)  # the bot may start
    place = root.locator('[data-place][data-legal="true"]').first
    where = place.get_attribute("data-place")
    move = int(root.get_attribute("data-move") or 0)
    place.click()
    expect(root).not_to_have_attribute("data-move", str(move), timeout=30_000)
    record = httpx.get(f"{game_server.base}/api/tables/{table}/record", timeout=10,
                       headers={"Authorization": f"Bearer {token()}"})
    assert record.status_code == 200 and f"place {where}" in record.text, record.text
    # Seat 0's own hand in its area; seat 1 only as a count of cards, its tools not drawn.
    expect(root.get_by_test_id("my-area")).to_contain_text("Your hand")
    expect(root.locator('[data-area="hand"]')).to_be_visible()
    expect(root.locator('article[data-seat="1"] .lf-handsize')).to_be_visible()
    expect(root.locator('article[data-seat="1"] .lf-toolcounts')).to_have_count(0)
    expect(root.get_by_test_id("error")).to_have_count(0)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    root.screenshot(path=str(ARTIFACTS / f"online-{name}.png"))


def test_notebook7_joins_a_table(notebook7: LabServer, page: playwright_api.Page,
                                 game_server: GameServer) -> None:
    made = new_table(game_server)
    path = "online_notebook7.ipynb"
    notebook7.write_notebook(path, [join_source(made["invites"]["0"]) + "w"])
    page.goto(notebook7.notebook_url(path))
    nb = LabNotebook(page, path)
    nb.wait_ready()
    assert page.evaluate("window.jupyterapp.name") == "Jupyter Notebook"
    try:
        nb.run_all()
        click_a_place(nb.output(0).get_by_test_id("langfinger"), game_server, made["table"],
                      lambda: str(nb.kernel_json("w.table.token")), "notebook7")
        assert nb.kernel_json("w.table.connection") == "online"
        assert nb.kernel_json("w.view['players'][1]['hand']") is None
        nb.kernel("w.close()")
    finally:
        nb.shutdown_kernel()


def test_voila_joins_a_table(tmp_path_factory: pytest.TempPathFactory, page: playwright_api.Page,
                             game_server: GameServer) -> None:
    made = new_table(game_server, join=0)
    base = tmp_path_factory.mktemp("voila-online")
    cell: dict[str, Any] = {"cell_type": "code", "id": "join", "metadata": {}, "outputs": [],
                            "execution_count": None, "source": join_source(made["play"]) + "w"}
    (base / "online.ipynb").write_text(json.dumps({
        "nbformat": 4, "nbformat_minor": 5, "cells": [cell],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                    "language": "python"}},
    }))
    app = start_voila(base, notebook="online.ipynb", cwd=base)
    try:
        page.goto(app.url)
        click_a_place(page.get_by_test_id("langfinger"), game_server, made["table"],
                      lambda: str(made["token"]), "voila")
    except Exception:
        print(app.log_tail())
        raise
    finally:
        app.stop()


MARIMO_JOIN = '''\
import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo
{join}
    mo.ui.anywidget(w)
    return


if __name__ == "__main__":
    app.run()
'''


def test_marimo_joins_a_table(tmp_path_factory: pytest.TempPathFactory,
                              page: playwright_api.Page,
                              game_server: GameServer) -> None:
    made = new_table(game_server, join=0)
    base = tmp_path_factory.mktemp("marimo-online")
    notebook = base / "online_marimo.py"
    notebook.write_text(MARIMO_JOIN.format(join=textwrap.indent(join_source(made["play"]), "    ")))
    app: AppServer = start_marimo(base, notebook)
    try:
        page.goto(app.url)
        click_a_place(page.get_by_test_id("langfinger"), game_server, made["table"],
                      lambda: str(made["token"]), "marimo")
    except Exception:
        print(app.log_tail())
        raise
    finally:
        app.stop()
