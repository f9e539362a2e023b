"""Bots and Hint answer clicks alone, in JupyterLab and Notebook 7 at their default settings.

Issue 28.1: JupyterLab 4.6 and Notebook 7.6 send widget messages over kernel
subshells by default, and ipykernel 7 then runs the board's handler on a
subshell thread. The board froze: "is thinking…" stayed for minutes, Hint never
answered. Executing a cell wakes the kernel's main loop and hides that, so after
the one cell that shows the board these tests only click and look at the page.

The servers here start with no user settings at all (the applications'
defaults). Their kernels route a comm's messages as ipykernel 7.0-7.3 do, to
the subshell the page chose (7.4 sends a main-shell comm's messages back to the
main shell, which would hide the freeze): ``sitecustomize`` on the kernels'
path turns 7.4's routing off. The page's own setting is read and checked.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import playwright.sync_api as playwright_api
import pytest
from playwright.sync_api import expect

from .lab import LabNotebook, LabServer, start_lab, stop_lab

CELL = (
    "import langfinger_widget as lf\n"
    "w = lf.LangfingerWidget(game=lf.Game.new(3, seed=11, start_player=0), seat=0,\n"
    "                        bots={1: 'greedy', 2: 'medium'}, pace=0.2)\n"
    "w"
)

SUBSHELL_ROUTING = '''\
"""Test kernels only: a comm's messages go to the subshell the page chose (ipykernel 7.0-7.3)."""
import sys

if any("ipykernel_launcher" in arg for arg in sys.orig_argv):
    from ipykernel.comm.comm import BaseComm

    if hasattr(BaseComm, "_reply_subshell_for"):
        BaseComm._reply_subshell_for = lambda self, data, default: default
'''

_JS_COMMS_SETTING = """(path) => {
    const panel = Array.from(window.jupyterapp.shell.widgets('main'))
        .find(w => w.context && w.context.path === path && w.sessionContext);
    const kernel = panel && panel.sessionContext.session && panel.sessionContext.session.kernel;
    return kernel ? String(kernel.commsOverSubshells) : null;
}"""

# The board has answered: the log grew to `count` entries and something is ours to click again.
_JS_ANSWERED = """([count]) => {
    const root = document.querySelector('[data-testid="langfinger"]');
    if (!root) return false;
    const entries = root.querySelectorAll('[data-testid="log"] > li').length;
    return entries >= count && root.querySelector('[data-legal="true"]') !== null;
}"""


@pytest.fixture(scope="module", params=["jupyterlab", "notebook"])
def default_server(request: pytest.FixtureRequest,
                   tmp_path_factory: pytest.TempPathFactory) -> Iterator[LabServer]:
    """JupyterLab, then Notebook 7: empty user settings, kernels routing comms to subshells."""
    base = tmp_path_factory.mktemp(f"defaults-{request.param}")
    site = base / "kernel-site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(SUBSHELL_ROUTING)
    server = start_lab(base, app=request.param, user_settings={}, kernel_path=site)
    print(f"\n[e2e] {request.param} with default settings answered after {server.started_in:.1f}s")
    try:
        yield server
    finally:
        stop_lab(server)


def _log_entries(root: playwright_api.Locator) -> int:
    return root.get_by_test_id("log").locator(":scope > li").count()


def test_bots_and_hint_answer_clicks_alone(default_server: LabServer,
                                           page: playwright_api.Page) -> None:
    path = "clicks_alone.ipynb"
    default_server.write_notebook(path, [CELL])
    page.goto(default_server.notebook_url(path))
    nb = LabNotebook(page, path)
    nb.wait_ready()
    assert page.evaluate(_JS_COMMS_SETTING, path) == "perCommTarget"  # the default
    try:
        nb.run_all()  # the one cell; from here on only clicks
        root = nb.output(0).get_by_test_id("langfinger")
        answers = []
        for place in ("museum", "villa"):
            before = _log_entries(root)
            start = time.monotonic()
            root.locator(f'[data-place="{place}"][data-legal="true"]').first.click()
            # Our placement and both bots' (R2.1: clockwise, one token each).
            page.wait_for_function(_JS_ANSWERED, arg=[before + 3], timeout=30_000,
                                   polling=50)
            answers.append(time.monotonic() - start)
        root.get_by_test_id("hint").click()
        expect(root.get_by_test_id("hint-text")).to_contain_text("estimated win chance",
                                                                 timeout=60_000)
        app = default_server.tree.split("/")[0]
        print(f"\n[clicks-alone/{app}] click to the bots' answer: "
              + ", ".join(f"{t:.2f}s" for t in answers))
        nb.screenshot(f"clicks-alone-{app}", root)
    finally:
        nb.shutdown_kernel()
