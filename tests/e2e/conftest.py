"""Fixtures for the real-browser tests: one JupyterLab server and one headless
Chromium per test session, a fresh page per test.

Chromium is Debian's (``/usr/bin/chromium``, installed by ``.ci/run``); the
Python ``playwright`` package only drives it and never downloads a browser.
Every test here is marked ``e2e`` automatically, so ``pytest -m "not e2e"``
gives the fast suite.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import playwright.sync_api as playwright_api
import pytest

from .apps import GameServer
from .lab import (
    ARTIFACTS,
    CHROMIUM,
    CHROMIUM_ARGS,
    LabNotebook,
    LabServer,
    free_port,
    start_lab,
    stop_lab,
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> object:
    # Remember each phase's outcome on the item, so a fixture can screenshot failures.
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


def _require_chromium() -> None:
    if Path(CHROMIUM).exists():
        return
    message = f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    if os.environ.get("CI"):
        pytest.fail(message)  # CI installs it: its absence is a broken CI, not a skip
    pytest.skip(message)


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LabServer]:
    """A JupyterLab server on 127.0.0.1, a free port and a random token."""
    server = start_lab(tmp_path_factory.mktemp("jupyterlab"))
    print(f"\n[e2e] jupyter lab answered after {server.started_in:.1f}s at {server.url}")
    try:
        yield server
    finally:
        stop_lab(server)


@pytest.fixture(scope="session")
def notebook7(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LabServer]:
    """A Jupyter Notebook 7 server on 127.0.0.1 (its quickstart and online tests share it)."""
    server = start_lab(tmp_path_factory.mktemp("notebook7"), app="notebook")
    print(f"\n[e2e] jupyter notebook answered after {server.started_in:.1f}s at {server.url}")
    try:
        yield server
    finally:
        stop_lab(server)


@pytest.fixture(scope="session")
def browser() -> Iterator[playwright_api.Browser]:
    """Headless Debian Chromium driven by Playwright."""
    _require_chromium()
    with playwright_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser: playwright_api.Browser) -> Iterator[playwright_api.Page]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(30_000)
    pg = context.new_page()
    try:
        yield pg
    finally:
        context.close()


@pytest.fixture
def open_notebook(
    request: pytest.FixtureRequest, lab_server: LabServer, page: playwright_api.Page
) -> Iterator[Callable[[str, list[str]], LabNotebook]]:
    """Factory: ``open_notebook(name, cells)`` writes the notebook, opens it in
    JupyterLab and waits for its kernel. Kernels are shut down afterwards, and a
    failing test leaves a screenshot ``FAILED-<test>.png`` in tests/e2e/artifacts/."""
    opened: list[LabNotebook] = []

    def _open(path: str, cells: list[str]) -> LabNotebook:
        lab_server.write_notebook(path, cells)
        page.goto(lab_server.notebook_url(path))
        nb = LabNotebook(page, path)
        nb.wait_ready()
        opened.append(nb)
        return nb

    yield _open

    rep = getattr(request.node, "rep_call", None)
    if rep is not None and rep.failed and opened:
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"FAILED-{name}.png"))
    for nb in opened:
        try:
            nb.shutdown_kernel()
        except Exception as exc:  # the page may be gone after a failure; the server stops anyway
            print(f"[e2e] could not shut down the kernel of {nb.path}: {exc}")


@pytest.fixture()
def game_server(tmp_path: Path) -> Iterator[GameServer]:
    """The game server of the online tests, in the test's own data folder; killed after."""
    pytest.importorskip("starlette", reason="the game server needs the [server] extra")
    running = GameServer(tmp_path, free_port()).start()
    try:
        yield running
    finally:
        running.kill()
