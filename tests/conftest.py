"""Suite-wide settings.

- The long (``slow``) versions of the property and adversarial tests run only when asked
  for, with ``-m slow`` (or any marker expression naming ``slow``).
- Under pytest-xdist (``./scripts/test`` runs ``-n 2``) a scheduler of our own keeps on one
  worker what must not run twice at once: the browser tests (one JupyterLab server, one
  Chromium, one JupyterLite build) with the tests that build a wheel or the site or start a
  server from the checkout, and each notebook (nbval runs its cells in order, in one kernel).
  Every other test is a unit of its own, spread over both workers.
- The ``quiet`` tests (a local Ray node) start heavy real parts whose start-up limits a
  loaded machine can miss: with ``LANGFINGER_QUIET_STAGE=later`` they are left out, and
  ``./scripts/test`` runs them on their own once everything else is done.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest

# What the package keeps between sessions (the online seats' links, net/my_seats.py) goes to
# a folder of the run's own, not the tester's home; kernels and servers the tests start
# inherit it.
os.environ.setdefault("LANGFINGER_HOME", tempfile.mkdtemp(prefix="lf-home-"))

# Tests that build from the checkout (a wheel, the site's lock) or start a server from it:
# they join the browser tests' worker, so no two of them touch the checkout's build outputs
# at once (two JupyterLite builds at once break each other's build/lite/venv).
SHELLS_OUT = {"test_packaging.py", "test_lite_build.py", "test_play.py"}


def work_unit(nodeid: str) -> str:
    """The tests that must run together, in order, on one worker: named by this."""
    path = nodeid.split("::", 1)[0]
    if path.endswith(".ipynb"):
        return path
    if path.startswith("tests/e2e/") or path.rsplit("/", 1)[-1] in SHELLS_OUT:
        return "browser"
    if path.startswith("tests/server/"):
        return path  # each module shares one server (a module-scoped fixture)
    return nodeid


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist's, when it is installed
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    from xdist.scheduler import LoadScopeScheduling

    class WorkUnits(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

    return WorkUnits(config, log)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("LANGFINGER_QUIET_STAGE") == "later":
        # ./scripts/test runs the ``quiet`` tests in a stage of their own, after the rest.
        later = [item for item in items if "quiet" in item.keywords]
        if later:
            config.hook.pytest_deselected(items=later)
            items[:] = [item for item in items if "quiet" not in item.keywords]
    if "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="long version: run with -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def no_loop_left_running(request: pytest.FixtureRequest) -> Iterator[None]:
    """Outside the browser tests, no event loop is marked running in the test's thread.

    Playwright's sync API leaves its loop marked running in the worker's thread after a
    browser test, and a worker goes on to other tests once its browser tests are done: there
    ``asyncio.run`` would refuse to start ("cannot be called from a running event loop").
    The marker is put back after the test, for the browser tests still to come."""
    if request.node.get_closest_marker("e2e") is not None:
        yield
        return
    import asyncio

    running = asyncio.events._get_running_loop()
    asyncio.events._set_running_loop(None)
    try:
        yield
    finally:
        asyncio.events._set_running_loop(running)


@pytest.fixture
def restore_deck() -> Iterator[None]:
    """Whatever a test (or a page of the docs) installs, the shipped deck is back afterwards."""
    from langfinger_widget.kernel.cards import use_deck

    try:
        yield
    finally:
        use_deck()
