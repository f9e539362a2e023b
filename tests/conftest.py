"""Suite-wide settings.

- The long (``slow``) versions of the property and adversarial tests run only when asked
  for, with ``-m slow`` (or any marker expression naming ``slow``).
- Under pytest-xdist (``./scripts/test`` runs ``-n 2 --dist loadgroup``) the tests that share
  an expensive fixture or the checkout's build outputs stay on one worker: the browser tests
  (one JupyterLab server, one Chromium, one JupyterLite build) with the tests that build a
  wheel or the site, and each notebook (nbval runs a notebook's cells in order, in one kernel).
  Everything else spreads over both workers.
"""

from __future__ import annotations

from pathlib import Path

import pytest

E2E = Path(__file__).parent / "e2e"
# Tests that build the bundle, a wheel or the site, or start a server from the checkout: run
# beside the browser tests they would race (two builds of build/lite/venv break each other).
SHELLS_OUT = {"test_packaging.py", "test_lite_build.py", "test_play.py"}


def _group(item: pytest.Item) -> str | None:
    path = Path(str(item.fspath))
    if path.suffix == ".ipynb":
        return f"notebook:{path.name}"
    if E2E in path.parents or path.name in SHELLS_OUT:
        return "browser"
    return None


@pytest.hookimpl(tryfirst=True)  # before xdist's worker reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        group = _group(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
    if "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="long version: run with -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
