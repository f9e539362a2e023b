"""The JupyterLite site joins a game server on this machine and makes a move (issue 32).

Pyodide has no sockets: the kernel's seat talks to the server through the browser's own
``XMLHttpRequest`` and ``WebSocket`` (Pyodide's JavaScript bridge), from the site's origin,
which the server is started to accept (``--origin``). The site (built once a session, see
tests/e2e/lite.py) is opened offline but for localhost; a notebook cell joins a table whose
other seat is a bot, and the board in the cell plays a move by a click. The server's own
record shows the move.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from .apps import GameServer
from .lab import LabNotebook, free_port
from .lite import OfflineGuard
from .test_board import play_by_clicks
from .test_lite import open_in_site, site_page, site_url, wait_for_kernel

pytestmark = pytest.mark.lite
pytest.importorskip("starlette", reason="the game server needs the [server] extra")
__all__ = ["site_page", "site_url"]  # the lite module's fixtures, shared with it

_JS_SET_CELL = """([path, index, source]) => {
    const app = window.jupyterapp;
    const panel = Array.from(app.shell.widgets('main'))
        .find(w => w.context && w.context.path === path && w.sessionContext);
    panel.content.widgets[index].model.sharedModel.setSource(source);
}"""


@pytest.fixture()
def origin_server(tmp_path: Path, site_url: str) -> Iterator[str]:
    """``langfinger serve`` accepting the site's origin; yields its base URL."""
    running = GameServer(tmp_path, free_port(), origins=[site_url.rstrip("/")]).start()
    try:
        yield running.base
    finally:
        running.kill()


def test_the_lite_site_joins_a_local_server_and_makes_a_move(
        site_page: tuple[Page, OfflineGuard], site_url: str, origin_server: str) -> None:
    page, guard = site_page
    made = httpx.post(f"{origin_server}/api/tables", timeout=10, json={
        "players": 2, "pace": 0, "seats": [{"kind": "person"}, {"kind": "bot", "level": "easy"}],
    }).json()
    path = "12_online.ipynb"  # the site's online notebook; its first code cell is replaced
    nb: LabNotebook = open_in_site(page, site_url, path)
    page.evaluate(_JS_SET_CELL, [path, 1, (
        "import langfinger_widget as lf\n"
        f"w = lf.online.join({made['invites']['0']!r})\n"
        "w")])
    nb.run_through(1, timeout_ms=240_000)
    assert nb.kernel_json("__import__('langfinger_widget').runtime.in_pyodide()")
    wait_for_kernel(nb, "w.table.connection == 'online' and w.table.to_move == 0", 120)
    root = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) [data-testid='langfinger']")
    expect(root).to_have_count(1)
    move = nb.kernel_json("w.move_number")
    action = next(a for a in nb.kernel_json("w.legal") if a["type"] == "place")
    play_by_clicks(root.first, action["place"], action)
    # The server took the move (the bot answers it), and the board in the page shows it.
    wait_for_kernel(nb, f"w.move_number >= {move + 2}", 120)
    expect(root.first).to_have_attribute("data-move", str(nb.kernel_json("w.move_number")))
    token = nb.kernel_json("w.table.token")
    record = httpx.get(f"{origin_server}/api/tables/{made['table']}/record",
                       headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert record.status_code == 200 and f"place {action['place']}" in record.text
    assert not nb.kernel_json("w.error")
    nb.screenshot("online-lite", root.first)
    nb.kernel("w.close()")
    assert guard.outside == [], f"the site asked the network for {guard.outside}"
