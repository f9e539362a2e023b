"""Suite-wide settings.

- The long (``slow``) versions of the property and adversarial tests run only when asked
  for, with ``-m slow`` (or any marker expression naming ``slow``).
- Under pytest-xdist (``./scripts/test`` runs ``-n 2 --dist loadgroup``) the tests that share
  an expensive fixture stay on one worker, so it is made once per run: the JupyterLite site
  (``tests/e2e/test_lite.py``), the JupyterLab server and Chromium (the other browser tests),
  and each notebook's kernel (nbval runs a notebook's cells in order, in one kernel).
"""

from __future__ import annotations

from pathlib import Path

import pytest

E2E = Path(__file__).parent / "e2e"


def _group(item: pytest.Item) -> str | None:
    path = Path(str(item.fspath))
    if path.suffix == ".ipynb":
        return f"notebook:{path.name}"
    if E2E in path.parents:
        return "lite" if path.name == "test_lite.py" else "lab"
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
