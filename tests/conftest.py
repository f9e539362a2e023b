"""Suite-wide settings: the long (``slow``) versions of the property and adversarial tests
run only when asked for, with ``-m slow`` (or any marker expression naming ``slow``)."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="long version: run with -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
