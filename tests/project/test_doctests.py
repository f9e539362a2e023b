"""The examples in the package's docstrings run as written (``>>>`` lines, doctest).

The equivalent of ``pytest --doctest-modules langfinger_widget``, kept under tests/ so
``pytest tests`` (./scripts/test) runs it: one test per module with examples.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil
from pathlib import Path

import pytest

import langfinger_widget as lf

# Modules whose import needs an optional extra: their examples run where it is installed.
EXTRAS = {"langfinger_widget.envs.aec": "pettingzoo", "langfinger_widget.envs.openspiel": "pyspiel",
          "langfinger_widget.envs.any_game": "pettingzoo",
          "langfinger_widget.envs.openspiel_bots": "pyspiel"}


def modules() -> list[str]:
    """Every module whose source holds an example (``__main__`` is the command itself)."""
    found = []
    for info in pkgutil.walk_packages(lf.__path__, "langfinger_widget."):
        spec = importlib.util.find_spec(info.name)
        origin = spec.origin if spec else None
        if (not info.name.endswith("__main__") and origin
                and ">>> " in Path(origin).read_text(encoding="utf-8")):
            found.append(info.name)
    return sorted(found)


@pytest.mark.parametrize("name", modules())
def test_docstring_examples_run(name: str) -> None:
    if name in EXTRAS:
        pytest.importorskip(EXTRAS[name])
    module = importlib.import_module(name)
    tests = [t for t in doctest.DocTestFinder().find(module, name) if t.examples]
    if not tests:
        pytest.skip("no examples")
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in tests:
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0, f"{name}: an example failed (see above)"
